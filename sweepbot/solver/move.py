"""A move, and the first move for each first-click rule (guesses: guesses.py; the choice: strategy.py)."""

from __future__ import annotations

from dataclasses import dataclass

from sweepbot.board import Cell


@dataclass(frozen=True)
class Move:
    action: str
    cell: Cell

    def to_json(self) -> dict[str, object]:
        return {"action": self.action, "cell": list(self.cell)}


def first_move(rows: int, cols: int, rule: str) -> Cell:
    """Where to click on an untouched board.

    With the ``opening`` rule the click and its neighbours are safe, so a cell a little away from the corner
    (3, 3 on large boards) opens an area whose border is short and easy to read on. Under ``safe`` and
    ``none`` only a corner gives the best chance of a 0 (three neighbours to be empty, not eight).
    """
    if rule == "opening":
        return (min(3, (rows - 1) // 2), min(3, (cols - 1) // 2))
    return (0, 0)


