"""Choosing the move: every certain safe cell first, otherwise the covered cell least likely to be a mine."""

from __future__ import annotations

from dataclasses import dataclass

from sweepbot.board import Cell, neighbours

ACTIONS = ("open", "flag", "chord")
TIE = 1e-9  # probabilities this close count as equal


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


def guess(probabilities: dict[Cell, float], unknown: set[Cell], rows: int, cols: int) -> Cell:
    """The least likely mine; among near-equal ones the cell with fewest unknown neighbours (corners and
    edges off the frontier, the best-informed cells on it), then the first in reading order."""
    best = min(probabilities.values())
    candidates = [cell for cell, p in probabilities.items() if p <= best + TIE]

    def key(cell: Cell) -> tuple[int, Cell]:
        return (sum(1 for n in neighbours(cell, rows, cols) if n in unknown), cell)

    return min(candidates, key=key)
