"""The loop's reader: a board found again at another size is taken only when a second frame agrees; a
board that no profile reads is reported with every reason."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import sweepbot
from sweepbot.board import game_over
from sweepbot.errors import SweepbotError
from sweepbot.play.view import BoardView
from sweepbot.play.vision_reader import VisionReader
from sweepbot.vision.capture import load_image
from sweepbot.vision.profile import load_profile
from sweepbot.vision.read import ReadError

SGT = Path(__file__).parents[1] / "fixtures" / "sgt-mines"


def size(view: BoardView) -> tuple[int, int]:
    return view.board.rows, view.board.cols


def test_a_board_of_another_size_is_read_only_when_two_frames_agree() -> None:
    reader = VisionReader()
    big, small = load_image(SGT / "30x16-first.png"), load_image(SGT / "9x9-first.png")
    assert size(reader.read(big)) == (16, 30)
    # a frame where the old place no longer reads and a smaller board is found (gnome-mines once showed a
    # new board part-drawn, 9 of its 30 columns): not taken at once, the loop captures again
    with pytest.raises(SweepbotError, match="changed from 16x30 to 9x9"):
        reader.read(small)
    assert size(reader.read(small)) == (9, 9)  # a second frame shows it too: a real change
    assert reader.relocations == 2


def test_after_a_game_ends_the_next_board_is_found_afresh() -> None:
    reader = VisionReader()
    assert game_over(reader.read(load_image(SGT / "30x16-won.png")).board) == "won"
    # the won board's place is forgotten (a dialog may have cut it short): the next frame is located afresh
    assert reader.geometry is None
    assert reader.profile is not None
    # a profile that learnt in play (a copy stands for it here) is kept for the next game
    kept = reader.profile = replace(reader.profile)
    assert size(reader.read(load_image(SGT / "30x16-fresh.png"))) == (16, 30)
    assert reader.relocations == 0 and reader.geometry is not None
    assert reader.profile is kept
    assert size(reader.read(load_image(SGT / "30x16-first.png"))) == (16, 30)


def test_when_both_reads_fail_the_error_gives_both_reasons() -> None:
    # the profile in use (one of another client, as if the game window had been swapped) reads the board
    # badly, and the client asked for on the command line, drawn at the board's cell size, does not fit its
    # looks: the user is told both, and no cell is read as another client's look
    reader = VisionReader("gnome-mines")
    reader.profile = load_profile(Path(sweepbot.__file__).parent / "profiles" / "xdemineur-21px")
    with pytest.raises(ReadError) as caught:
        reader.read(load_image(SGT / "30x16-first.png"))
    message = str(caught.value)
    assert "match no template of profile gnome-mines-30px@20.0px" in message
    assert "with the profile in use (xdemineur-21px)" in message
    assert "match no template of profile xdemineur-21px" in message
