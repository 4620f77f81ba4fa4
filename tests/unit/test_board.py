"""The board model and its text format."""

from __future__ import annotations

import pytest

from sweepbot.board import Board, BoardError, holds_no_mine, parse_board, unheld_numbers

TEXT = """; a comment
mines: 10
state: playing
client: gnome-mines

..1#
.12F
.1?#
"""


def test_parse_reads_headers_cells_and_comments() -> None:
    board = parse_board(TEXT)
    assert (board.rows, board.cols) == (3, 4)
    assert board.mines == 10 and board.state == "playing" and board.headers == {"client": "gnome-mines"}
    assert board[(1, 3)] == "F" and board[(2, 2)] == "?" and board[(0, 2)] == "1"
    assert board.flags == 1 and board.mines_left == 9


def test_text_round_trip() -> None:
    board = parse_board(TEXT)
    again = parse_board(board.to_text())
    assert again == board and again.headers == board.headers
    assert str(board) == "..1#\n.12F\n.1?#\n"


def test_board_without_header() -> None:
    board = parse_board("##\n#1\n")
    assert board.mines is None and board.state is None and board.grid == ("##", "#1")


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("###\n##\n", "line 2, column 2", "row has 2 cells"),
        ("mines: 3\n\n#a#\n", "line 3, column 2", "unknown cell character 'a'"),
        ("#6#\n###\n", "line 1, column 2", "larger than its 5 neighbours"),
        ("8##\n###\n###\n", "line 1, column 1", "larger than its 3 neighbours"),
        ("mines: lots\n\n###\n", "line 1", "'mines' must be a whole number"),
        ("mines: -2\n\n###\n", "line 1", "'mines' must be a whole number"),
        ("state: paused\n\n###\n", "line 1", "'state' must be one of"),
        ("mines: 10\n\n###\n", "line 1", "the board has 3 cells"),
        ("###\n\n###\n", "line 2", "blank line inside the board"),
    ],
)
def test_malformed_text_names_line_and_column(text: str, where: str, what: str) -> None:
    with pytest.raises(BoardError) as err:
        parse_board(text)
    assert where in str(err.value) and what in str(err.value)


def test_empty_text_is_an_error() -> None:
    with pytest.raises(BoardError, match="no board rows"):
        parse_board("; nothing\n\n")


def test_replace_and_neighbours() -> None:
    board = Board(("###", "###"))
    changed = board.replace({(0, 1): "F"})
    assert changed.grid == ("#F#", "###") and board.grid == ("###", "###")
    assert sorted(board.neighbours((0, 0))) == [(0, 1), (1, 0), (1, 1)]
    assert len(list(board.neighbours((1, 1)))) == 5


def test_a_number_with_fewer_cells_around_it_than_it_counts_is_unheld() -> None:
    # a 2 beside one covered cell and open ones; a 3 in a corner (three neighbours, one a revealed 1)
    assert unheld_numbers(["2#", ".."]) == [(0, 0)]
    assert unheld_numbers(["3F", "1*"]) == [(0, 0)]
    # held: flags, mines shown, question marks and covered cells may all hold mines; an open cell of unknown
    # number (=) may not
    assert unheld_numbers(["3F", "?*"]) == []
    assert unheld_numbers(["1=", "=="]) == [(0, 0)]
    assert unheld_numbers(["8##", "#1#", "###"]) == [(0, 0)] and unheld_numbers(["###", "#8#", "###"]) == []


def test_a_board_of_opened_cells_alone_holds_no_mine() -> None:
    assert holds_no_mine(["..", ".."]) and holds_no_mine(["1=", "2."])
    for cell in "#F?*!X":
        assert not holds_no_mine(["..", "." + cell]), cell
