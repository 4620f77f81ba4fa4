"""A simulated Minesweeper game: levels, first-click rules, seeded boards, openings, chords and 3BV.

The mine layout comes from a seeded shuffle of every cell, fixed before the first click: mines are the first
cells of that order that the first-click rule allows. So one seed gives one board for a given first click,
whatever the player does afterwards, and nearly the same board for any first click.
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass

from sweepbot.board import COVERED, EXPLODED, FIRST_CLICK_RULES, FLAG, MINE, WRONG_FLAG, Board, Cell, neighbours
from sweepbot.errors import SweepbotError

__all__ = ["FIRST_CLICK_RULES", "LEVELS", "Game", "Level", "parse_level", "three_bv", "won_board_three_bv"]


@dataclass(frozen=True)
class Level:
    rows: int
    cols: int
    mines: int
    name: str = "custom"

    @property
    def text(self) -> str:
        return self.name if self.name != "custom" else f"{self.cols}x{self.rows}/{self.mines}"


LEVELS = {
    "beginner": Level(9, 9, 10, "beginner"),
    "intermediate": Level(16, 16, 40, "intermediate"),
    "expert": Level(16, 30, 99, "expert"),
}

_CUSTOM_RE = re.compile(r"^(\d+)x(\d+)/(\d+)$")


def parse_level(text: str) -> Level:
    """``beginner``, ``intermediate``, ``expert`` or ``COLSxROWS/MINES``."""
    key = text.strip().lower()
    if key in LEVELS:
        return LEVELS[key]
    match = _CUSTOM_RE.match(key)
    if not match:
        raise SweepbotError(f"unknown level {text!r}: use beginner, intermediate, expert or COLSxROWS/MINES")
    cols, rows, mines = (int(g) for g in match.groups())
    if rows < 1 or cols < 1 or rows * cols > 100_000:
        raise SweepbotError(f"level {text!r}: the board must have between 1 and 100000 cells")
    if not 0 <= mines < rows * cols:
        raise SweepbotError(f"level {text!r}: mines must be fewer than the {rows * cols} cells")
    return Level(rows, cols, mines)


class Game:
    """One game. ``open``, ``flag`` and ``chord`` change it; ``view()`` is what a player sees."""

    def __init__(self, level: Level, seed: int, first_click: str = "opening") -> None:
        if first_click not in FIRST_CLICK_RULES:
            raise SweepbotError(f"unknown first-click rule {first_click!r}: use {', '.join(FIRST_CLICK_RULES)}")
        self.level = level
        self.rows, self.cols = level.rows, level.cols
        self.first_click = first_click
        order = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        random.Random(seed).shuffle(order)
        self._order = order
        self.mines: set[Cell] = set()
        self._counts: list[list[int]] = []
        self._view = [[COVERED] * self.cols for _ in range(self.rows)]
        self.state = "playing"
        self.started = False
        self.covered_safe = self.rows * self.cols - level.mines
        self.exploded: Cell | None = None
        self.clicks = 0

    # -- layout -----------------------------------------------------------------------------------
    def _place_mines(self, first: Cell) -> None:
        banned: set[Cell] = set()
        if self.first_click == "safe":
            banned = {first}
        elif self.first_click == "opening":
            banned = {first, *neighbours(first, self.rows, self.cols)}
            if self.rows * self.cols - len(banned) < self.level.mines:
                banned = {first}
        allowed = (cell for cell in self._order if cell not in banned)
        self._set_mines({cell for _, cell in zip(range(self.level.mines), allowed, strict=False)})

    def _set_mines(self, mines: set[Cell]) -> None:
        self.mines = mines
        self._counts = [
            [sum(1 for n in neighbours((r, c), self.rows, self.cols) if n in mines) for c in range(self.cols)]
            for r in range(self.rows)
        ]
        self.started = True

    def place(self, mines: set[Cell]) -> None:
        """Use a given layout instead of the seeded one (for tests and replays)."""
        self._set_mines(set(mines))
        self.covered_safe = self.rows * self.cols - len(self.mines)

    def count(self, cell: Cell) -> int:
        return self._counts[cell[0]][cell[1]]

    # -- moves ------------------------------------------------------------------------------------
    def open(self, cell: Cell) -> list[Cell]:
        """Open a covered cell; returns the cells revealed (a flood fill from a 0). Flags are kept."""
        self._check(cell)
        if self.state != "playing":
            return []
        if not self.started:
            self._place_mines(cell)
        r, c = cell
        if self._view[r][c] != COVERED and self._view[r][c] != "?":
            return []
        self.clicks += 1
        if cell in self.mines:
            self._lose(cell)
            return [cell]
        return self._reveal(cell)

    def flag(self, cell: Cell) -> None:
        """Toggle a flag on a covered cell."""
        self._check(cell)
        r, c = cell
        if self.state != "playing":
            return
        if self._view[r][c] == COVERED:
            self._view[r][c] = FLAG
        elif self._view[r][c] == FLAG:
            self._view[r][c] = COVERED
        else:
            return
        self.clicks += 1

    def chord(self, cell: Cell) -> list[Cell]:
        """On a number with as many flags around it: open every other covered neighbour."""
        self._check(cell)
        r, c = cell
        if self.state != "playing" or not self.started or self._view[r][c] in (COVERED, FLAG, "?"):
            return []
        around = list(neighbours(cell, self.rows, self.cols))
        if sum(1 for n in around if self._view[n[0]][n[1]] == FLAG) != self._counts[r][c]:
            return []
        self.clicks += 1
        opened: list[Cell] = []
        for n in around:
            if self._view[n[0]][n[1]] == COVERED:
                if n in self.mines:
                    self._lose(n)
                    return [*opened, n]
                opened += self._reveal(n)
        return opened

    def _reveal(self, start: Cell) -> list[Cell]:
        opened: list[Cell] = []
        queue = deque([start])
        view = self._view
        while queue:
            r, c = queue.popleft()
            if view[r][c] != COVERED and view[r][c] != "?":
                continue
            n = self._counts[r][c]
            view[r][c] = "." if n == 0 else str(n)
            opened.append((r, c))
            if n == 0:
                for nb in neighbours((r, c), self.rows, self.cols):
                    if view[nb[0]][nb[1]] == COVERED:
                        queue.append(nb)
        self.covered_safe -= len(opened)
        if self.covered_safe == 0:
            self.state = "won"
        return opened

    def _lose(self, cell: Cell) -> None:
        self.state = "lost"
        self.exploded = cell

    def _check(self, cell: Cell) -> None:
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise SweepbotError(f"cell {cell} is outside the {self.rows}x{self.cols} board")

    # -- what a player sees -----------------------------------------------------------------------
    def view(self) -> Board:
        grid = [row[:] for row in self._view]
        if self.state == "lost":
            for r, c in self.mines:
                if grid[r][c] == COVERED:
                    grid[r][c] = MINE
            for r in range(self.rows):
                for c in range(self.cols):
                    if grid[r][c] == FLAG and (r, c) not in self.mines:
                        grid[r][c] = WRONG_FLAG
            if self.exploded:
                grid[self.exploded[0]][self.exploded[1]] = EXPLODED
        return Board(tuple("".join(row) for row in grid), self.level.mines, self.state)

    def three_bv(self) -> int:
        """Bechtel's Board Benchmark Value of this layout (see ``three_bv``)."""
        if not self.started:
            raise SweepbotError("the board has no mines yet: 3BV is known after the first click")
        return three_bv(self.rows, self.cols, self.mines)


def three_bv(rows: int, cols: int, mines: set[Cell]) -> int:
    """Bechtel's Board Benchmark Value: the fewest left clicks that clear the board (one per opening, one
    per number that no opening reveals)."""
    counts = [[sum(1 for n in neighbours((r, c), rows, cols) if n in mines) for c in range(cols)] for r in range(rows)]
    seen: set[Cell] = set()
    clicks = 0
    for r in range(rows):
        for c in range(cols):
            if (r, c) in seen or (r, c) in mines or counts[r][c]:
                continue
            clicks += 1
            queue = deque([(r, c)])
            seen.add((r, c))
            while queue:
                cell = queue.popleft()
                if counts[cell[0]][cell[1]]:
                    continue
                for nb in neighbours(cell, rows, cols):
                    if nb not in seen and nb not in mines:
                        seen.add(nb)
                        queue.append(nb)
    return clicks + sum(1 for r in range(rows) for c in range(cols) if (r, c) not in seen and (r, c) not in mines)


def won_board_three_bv(board: Board) -> int:
    """3BV of a won game read off its final board: every cell still covered or flagged is a mine."""
    mines = {cell for cell in board.cells() if board[cell] in (COVERED, FLAG, "?", MINE)}
    return three_bv(board.rows, board.cols, mines)
