"""Checks between two reads of the same game: what was revealed stays as it was, and which clicks the game
did not take. (When a game is over: :func:`sweepbot.board.game_over`.)"""

from __future__ import annotations

from sweepbot.board import REVEALED_CHARS, Board, Cell


def changes_that_cannot_happen(before: Board, after: Board) -> list[tuple[Cell, str, str]]:
    """Cells whose change no move can cause: a revealed cell that turned into anything else, or a board of
    another size (every cell then). An empty list means the new read is plausible."""
    if (before.rows, before.cols) != (after.rows, after.cols):
        return [((-1, -1), f"{before.rows}x{before.cols}", f"{after.rows}x{after.cols}")]
    bad: list[tuple[Cell, str, str]] = []
    for r, (old_row, new_row) in enumerate(zip(before.grid, after.grid, strict=True)):
        if old_row == new_row:
            continue
        for c, (old, new) in enumerate(zip(old_row, new_row, strict=True)):
            if old != new and old in REVEALED_CHARS:
                bad.append(((r, c), old, new))
    return bad


def untaken_clicks(before: Board, after: Board, clicked: list[Cell]) -> list[Cell]:
    """Cells clicked on ``before`` that ``after`` still shows as they were: clicks the client did not take."""
    if (before.rows, before.cols) != (after.rows, after.cols):
        return []
    return [(r, c) for r, c in clicked if before.grid[r][c] == after.grid[r][c]]
