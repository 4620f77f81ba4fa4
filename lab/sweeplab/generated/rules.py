"""The game a generated client plays: mines laid at the first click by the client's rule, cells opened (an empty
one opens its neighbours), flags, question marks, a win and a loss, and what each cell shows.

Written apart from sweepbot's own simulated game, so that a fault of one is not hidden by the other. Mines
are laid by the client's own random numbers, seeded for a test that wants the same boards again.
"""

from __future__ import annotations

import random
from collections.abc import Iterator


class Minefield:
    """One game of ``cols`` x ``rows`` with ``mines`` mines; ``first_click`` none, safe or opening."""

    def __init__(self, cols: int, rows: int, mines: int, first_click: str, rnd: random.Random) -> None:
        self.cols, self.rows, self.mines = cols, rows, mines
        self.first_click = first_click
        self.rnd = rnd
        self.mined: set[tuple[int, int]] = set()
        self.opened: set[tuple[int, int]] = set()
        self.marks: dict[tuple[int, int], str] = {}  # F or ?
        self.state = "new"  # new, playing, won, lost
        self.exploded: tuple[int, int] | None = None

    def around(self, cell: tuple[int, int]) -> Iterator[tuple[int, int]]:
        r, c = cell
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                    yield (r + dr, c + dc)

    def _lay(self, first: tuple[int, int]) -> None:
        keep = {first} if self.first_click == "safe" else set()
        if self.first_click == "opening":
            keep = {first, *self.around(first)}
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in keep]
        self.mined = set(self.rnd.sample(cells, self.mines))
        self.state = "playing"

    def count(self, cell: tuple[int, int]) -> int:
        return sum(n in self.mined for n in self.around(cell))

    def over(self) -> bool:
        return self.state in ("won", "lost")

    def open(self, cell: tuple[int, int]) -> bool:
        """Open ``cell`` (nothing on a mark or an opened cell); True if anything changed."""
        if self.over() or cell in self.opened or self.marks.get(cell) == "F":
            return False
        if self.state == "new":
            self._lay(cell)
        if cell in self.mined:
            self.state, self.exploded = "lost", cell
            return True
        todo = [cell]
        while todo:
            here = todo.pop()
            if here in self.opened:
                continue
            self.opened.add(here)
            self.marks.pop(here, None)
            if self.count(here) == 0:
                todo += [n for n in self.around(here) if n not in self.opened and self.marks.get(n) != "F"]
        if len(self.opened) == self.rows * self.cols - self.mines:
            self.state = "won"
        return True

    def mark(self, cell: tuple[int, int], cycle: bool) -> bool:
        """A right click: a flag, then (``cycle``) a question mark, then nothing again."""
        if self.over() or cell in self.opened:
            return False
        now = self.marks.get(cell)
        after = {None: "F", "F": "?" if cycle else None, "?": None}[now]
        if after is None:
            self.marks.pop(cell, None)
        else:
            self.marks[cell] = after
        return True

    def flags_left(self) -> int:
        return self.mines - sum(1 for mark in self.marks.values() if mark == "F")

    def look(self, cell: tuple[int, int], shows_mines_at_loss: bool, flags_mines_at_win: bool) -> str:
        """What ``cell`` shows now, as a look of ``tiles.LOOKS``."""
        mark = self.marks.get(cell)
        if cell in self.opened:
            n = self.count(cell)
            return str(n) if n else "."
        if self.state == "lost":
            if cell == self.exploded:
                return "!"
            if shows_mines_at_loss:
                if mark == "F" and cell not in self.mined:
                    return "X"
                if cell in self.mined and mark != "F":
                    return "*"
        if self.state == "won" and flags_mines_at_win and cell in self.mined:
            return "F"
        return mark or "#"
