"""Checks between two reads of the same game: what was revealed stays as it was, which clicks the game did
not take, whether the last clicks won or lost it where some cells are unread, and whether a lost board shows
its loss as a loss shows. (When a game is over: :func:`sweepbot.board.game_over`.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sweepbot.board import COVERED, OPENED, REVEALED_CHARS, Board, Cell, neighbours
from sweepbot.errors import SweepbotError
from sweepbot.playing.view import BoardView
from sweepbot.vision.refusal import PartRead


def changes_that_cannot_happen(before: Board, after: Board) -> list[tuple[Cell, str, str]]:
    """Cells whose change no move can cause: a revealed cell that turned into anything else, or a board of
    another size (every cell then). An empty list means the new read is plausible. An opened cell read as a
    number on one frame and as "opened, number not known" (``=``) on another (a look not named yet: a digit
    drawn with a focus ring) changed in no way a game tells."""
    if (before.rows, before.cols) != (after.rows, after.cols):
        return [((-1, -1), f"{before.rows}x{before.cols}", f"{after.rows}x{after.cols}")]
    bad: list[tuple[Cell, str, str]] = []
    for r, (old_row, new_row) in enumerate(zip(before.grid, after.grid, strict=True)):
        if old_row == new_row:
            continue
        for c, (old, new) in enumerate(zip(old_row, new_row, strict=True)):
            if old != new and old in REVEALED_CHARS and OPENED not in (old, new):
                bad.append(((r, c), old, new))
    return bad


def untaken_clicks(before: Board, after: Board, clicked: list[Cell]) -> list[Cell]:
    """Cells clicked on ``before`` that ``after`` still shows as they were: clicks the client did not take."""
    if (before.rows, before.cols) != (after.rows, after.cols):
        return []
    return [(r, c) for r, c in clicked if before.grid[r][c] == after.grid[r][c]]


def half_taken(board: Board, clicked: list[Cell]) -> list[Cell]:
    """Cells just clicked that read as an empty open cell beside a covered one: a press the client took and drew
    (a tile sunken, no number on it) whose release it has not taken yet. A cell truly opened empty opens every
    cell around it, so no empty cell stays beside a covered one (seen under GNOME's window manager on X11)."""
    return [(r, c) for r, c in clicked if 0 <= r < board.rows and 0 <= c < board.cols and board.grid[r][c] == "."
            and any(board.grid[rr][cc] in "#?" for rr, cc in neighbours((r, c), board.rows, board.cols))]


def late_numbers(bad: list[tuple[tuple[int, int], str, str]]) -> bool:
    """Whether every impossible change is an empty cell that now shows a number: what a read taken while the
    client drew a tile and not yet its number looks like, once the number is drawn."""
    return all(old == "." and new in "12345678" for _, old, new in bad)


def opened_safely(board: Board, opened: list[tuple[int, int]]) -> bool:
    """Every cell of ``opened`` shows a number or the empty cell (its number not known yet included), and no
    mine shows as clicked: a game that ``opened`` was to win, shown with its mines (some clients draw them at
    a win as at a loss), was won."""
    return bool(opened) and board.count("!") == 0 and all(board.grid[r][c] in ".12345678=" for r, c in opened)


def won_with_mines_shown(board: Board, opened: list[tuple[int, int]]) -> bool:
    """Whether a board that shows its mines is a win: every cell of ``opened`` opened safely (an opening
    that spread from one of them may have opened the rest), and what is not open is exactly the game's
    mines, shown or still covered."""
    return (board.mines is not None and opened_safely(board, opened)
            and board.count("#?F*") == board.mines)


def winning_board(board: Board, opened: Sequence[Cell], proved: Sequence[Cell] = ()) -> Board | None:
    """The board after opening ``opened`` if, should they be safe, that wins the game; else None. Opened
    cells are shown as 0: only which cells stay covered (the mines) matters for what follows. (Had one
    been a mine, the client would show the lost board, which reads as lost.) A win is known when the cells
    left covered are as many as the board's mines, or, where that number is not known, when every one of
    them is among ``proved``, the cells the numbers prove to be mines."""
    left = {(r, c) for r, row in enumerate(board.grid) for c, ch in enumerate(row) if ch in "#?F"} - set(opened)
    if (len(left) != board.mines) if board.mines is not None else not (left and left <= set(proved)):
        return None
    return replace(board.replace(dict.fromkeys(opened, ".")), state="won")


def mines_all_proved(board: Board, mines: list[tuple[int, int]], clicked: Sequence[Cell] = ()) -> bool:
    """Whether every cell still covered is one of ``mines``, the cells the numbers prove to be mines: then no
    safe cell is left and the game is won, whether or not the client shows it (one that shows no counter and
    no message at a win). Never while a cell of the last clicks the client took (``clicked``) reads as an
    open cell of unknown number: a mine gone off in a look never learnt reads so, and the numbers around it
    prove nothing then."""
    covered = {(r, c) for r, row in enumerate(board.grid) for c, ch in enumerate(row) if ch in "#?"}
    return bool(covered) and covered <= set(mines) and not any(board.grid[r][c] == "=" for r, c in clicked)


#: The most of a board that its mines take (the densest level clients offer, expert, takes 21 %): more cells
#: covered than that, and a board is not taken for a win it does not show
MAX_MINE_SHARE = 0.3


def won_unshown(board: Board, taken: Sequence[Cell]) -> bool:
    """Whether a client that takes no more clicks left a won game on ``board`` without showing it: the last
    clicks it took (``taken``) opened cells of known looks (a mine gone off shows where it was clicked, in a
    look of its own), and the board reads as won were every covered cell a mine."""
    return bool(taken) and all(board.grid[r][c] in ".12345678" for r, c in taken) and covered_all_mines(board)


def unread_were_covered(before: Board, grid: Sequence[str], unread: str) -> set[Cell] | None:
    """The cells of ``grid`` (a frame read but for some cells, ``unread`` where a cell matched no look) left
    unread, when ``grid`` is ``before``'s size and every one of them was covered or marked on ``before``;
    else None."""
    if (len(grid), len(grid[0]) if grid else 0) != (before.rows, before.cols):
        return None
    cells = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == unread}
    return None if any(before.grid[r][c] not in "#?F" for r, c in cells) else cells


def won_beneath_unread(before: Board, grid: Sequence[str], clicked: Sequence[Cell], unread: str) -> Board | None:
    """The won board, when a frame read but for some cells (``grid``, ``unread`` where a cell matched no look)
    proves the game won by the clicks just made on ``before``: every cell left unread was covered on
    ``before`` and not clicked (a client may mark each mine at a win in a look never seen in play, such as a
    flag beside a flag), every cell clicked reads as an open cell of a known number, and the board reads as a
    win does were every cell still covered or unread a mine (:func:`covered_all_mines`, with the mine count
    known). The unread cells are not named: they stay covered on the board returned. Else None."""
    cells = None if before.mines is None else unread_were_covered(before, grid, unread)
    if not cells or any(cell in clicked for cell in cells):
        return None
    rows = ["".join(COVERED if ch == unread else ch for ch in row) for row in grid]
    try:
        after = replace(before, grid=tuple(rows))
    except SweepbotError:
        return None
    if changes_that_cannot_happen(before, after) or not all(after.grid[r][c] in ".12345678" for r, c in clicked):
        return None
    return replace(after, state="won") if covered_all_mines(after) else None


def lost_beneath_unread(before: Board, grid: Sequence[str], clicked: Sequence[Cell], unread: str) -> Board | None:
    """The lost board, when a frame read but for some cells (``grid``, ``unread`` where a cell matched no look)
    shows a loss as a loss shows (:func:`lost_at`) by the clicks just made on ``before``: every cell left
    unread was covered on ``before``, no more of them than the mines, and some covered cell still reads as
    one; one cell clicked is unread (or reads as a mine) and no other; another cell, not clicked, is unread
    too, or reads as a mine; and no cell covered on ``before`` opened. A click on a mine opens nothing, and
    only a loss changes covered cells no click reached: the client shows its mines, in a look play never saw
    or as mines. The cell clicked is the mine that went off (``!``); the other unread cells stay covered,
    unnamed. Else None."""
    cells = unread_were_covered(before, grid, unread)
    if cells is None:
        return None
    went_off = [cell for cell in clicked if cell in cells or grid[cell[0]][cell[1]] in "!*"]
    # ... and a mine shown elsewhere, in a look read (a cell covered before, now a mine), proves it as well
    shown = any(before.grid[r][c] in "#?" and ch == "*" and (r, c) not in clicked
                for r, row in enumerate(grid) for c, ch in enumerate(row))
    if len(went_off) != 1 or not (cells - set(clicked) or shown):
        return None
    if (before.mines is not None and len(cells) > before.mines) or not any(COVERED in row for row in grid):
        return None  # more than the mines, or no covered cell left as it was: the board moved or changed size
    opened = any(old in "#?" and new in ".12345678="
                 for row_before, row_after in zip(before.grid, grid, strict=True)
                 for old, new in zip(row_before, row_after, strict=True))
    if opened:
        return None
    (r0, c0), = went_off
    rows = ["".join("!" if (r, c) == (r0, c0) else COVERED if ch == unread else ch for c, ch in enumerate(row))
            for r, row in enumerate(grid)]
    try:
        return replace(before, grid=tuple(rows), state="lost")
    except SweepbotError:
        return None


def covered_all_mines(board: Board) -> bool:
    """Whether the board reads as a win would, were every cell still covered (or flagged) a mine: no mine shows,
    every number counts exactly its covered neighbours, and every open cell of a number not learnt yet has
    one; and the covered cells are as many as the board's mines, or, where that number is not known, no more
    than MAX_MINE_SHARE of the board. What a client that ignores clicks once it was won, and shows no sign of
    it, leaves on screen."""
    hidden_cells = board.count("#?F")
    if board.count("!*X") or not hidden_cells:
        return False
    most = board.mines if board.mines is not None else MAX_MINE_SHARE * board.rows * board.cols
    if hidden_cells > most or (board.mines is not None and hidden_cells != board.mines):
        return False
    for r, row in enumerate(board.grid):
        for c, ch in enumerate(row):
            if ch in "12345678=":
                hidden = sum(board.grid[nr][nc] in "#?F" for nr, nc in neighbours((r, c), board.rows, board.cols))
                if (ch == "=" and not hidden) or (ch != "=" and hidden != int(ch)):
                    return False
    return True


def lost_at(board: Board, clicked: list[tuple[int, int]], before: Board | None) -> bool:
    """Whether the board shows a loss as a loss shows: one mine gone off at most, a cell just clicked a mine, and,
    unless the other mines show, no other cell opened (against the board ``before`` the clicks) to a number or
    an empty cell: a click on a mine opens nothing. An opening read as mines (looks named wrongly) fails."""
    if board.count("!") > 1:
        return False
    if not any(0 <= r < board.rows and 0 <= c < board.cols and board.grid[r][c] in "!*" for r, c in clicked):
        return False
    if board.count("*") or before is None or (before.rows, before.cols) != (board.rows, board.cols):
        return True  # the mines shown: a loss may show the whole board (xbomb)
    mine = set(clicked)
    return not any(old in "#?" and new in ".12345678=" and (r, c) not in mine
                   for r, (row_before, row_after) in enumerate(zip(before.grid, board.grid, strict=True))
                   for c, (old, new) in enumerate(zip(row_before, row_after, strict=True)))


def misread_mines_opened(board: Board, before: Board | None) -> Board:
    """``board`` with the cells that read as mines where ``before`` (the board the last clicks were chosen on)
    had them covered read as open cells of unknown number instead: for a board that does not show a loss as a
    loss shows (see :func:`lost_at`)."""
    if before is None or (before.rows, before.cols) != (board.rows, board.cols):
        return board
    mines = [(r, c) for r, (old, new) in enumerate(zip(before.grid, board.grid, strict=True))
             for c, (was, now) in enumerate(zip(old, new, strict=True)) if was in "#?" and now in "!*"]
    return board.replace(dict.fromkeys(mines, OPENED))


def same_place(part: PartRead, view: BoardView) -> bool:
    """Whether a board read but for some cells lies where ``view``'s did, cell for cell."""
    return part.lies_at(view.x_edges, view.y_edges)
