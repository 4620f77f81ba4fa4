"""Long-term risk: covered pairs and 2x2 squares that may end as a 50/50 no later move can settle.

Two covered cells side by side are told apart only by the cells beyond their two ends (every other
neighbour touches both). If all those end cells are mines, the pair holds one mine that no number will
ever place: a 50/50 the player must guess some day. The same holds for a 2x2 square whose four outer
corner cells are mines and which holds one of its two diagonals.

For each such pattern this module counts the layouts in which it has formed, with one given cell of it a
mine (by symmetry the other way round counts the same). That count is a cell's *influence*: the part of
its risk it would have to take later anyway. Two uses:

- a *pseudo 50/50*: a cell whose every mine layout is such a pattern. Its risk must be taken some day, so
  guessing it now costs nothing and may tell something;
- a weight on the guess choice: a cell's score is raised by ``1 + INFLUENCE_WEIGHT * influence / safe``
  (``safe`` the layouts where it is safe), so of two similar guesses the one that settles a likely
  future 50/50 is taken.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from math import comb

from sweepbot.board import FLAG, UNKNOWN_CHARS, Cell
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.enumeration import BudgetExceeded, enumerate_component
from sweepbot.solver.frontier import split_frontier
from sweepbot.solver.probability import convolve
from sweepbot.solver.problem import Constraint

INFLUENCE_WEIGHT = 0.9
MAX_MISSING_PAIR = 3  # end cells not yet known as mines that a pair's count may assume
MAX_MISSING_SQUARE = 2  # the same for a square's corners
PSEUDO_MISSING_PAIR = 1  # a pattern counts towards a pseudo 50/50 or its enablers only with so few assumed
ENABLER_SHARE = 0.025  # enablers (the assumed end cells) share a pattern's influence when this likely
TIME_LIMIT = 0.1  # seconds for all counts; patterns not counted by then are left out


@dataclass(frozen=True)
class Pattern:
    """A pair or square: ``mines`` is one of its two layouts, ``missing`` the end cells assumed to be mines,
    ``weight`` the layouts where the pattern has formed with this layout."""

    cells: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    missing: tuple[Cell, ...]
    weight: int

    @property
    def square(self) -> bool:
        return len(self.cells) == 4


@dataclass
class FiftyRisk:
    """The patterns found and, per cell, its influence (layouts), capped at its mine and safe layouts."""

    analysis: Analysis
    patterns: list[Pattern] = field(default_factory=list)

    def mine_layouts(self, cell: Cell) -> float:
        return self.analysis.probabilities[cell] * self.analysis.weight

    def influence(self, cell: Cell) -> float:
        """Sum of the pairs holding ``cell``, the largest square holding it, and the patterns it enables."""
        pairs = sum(p.weight for p in self.patterns if not p.square and cell in p.cells)
        squares = max((p.weight for p in self.patterns if p.square and cell in p.cells), default=0)
        enabled = sum(p.weight for p in self.patterns if cell in p.missing and self.enabling(p))
        mine = self.mine_layouts(cell)
        return min(pairs + squares + enabled, mine, self.analysis.weight - mine)

    def enabling(self, pattern: Pattern) -> bool:
        strict = PSEUDO_MISSING_PAIR if not pattern.square else MAX_MISSING_SQUARE
        return len(pattern.missing) <= strict and pattern.weight > ENABLER_SHARE * self.analysis.weight

    def factor(self, cell: Cell) -> float:
        """How much a guess at ``cell`` is worth more for the future 50/50 risk it takes now."""
        safe = self.analysis.weight - self.mine_layouts(cell)
        if safe <= 0:
            return 1.0
        return 1.0 + INFLUENCE_WEIGHT * self.influence(cell) / safe

    def pseudo_fifties(self) -> list[Cell]:
        """Cells all of whose mine layouts are a pattern of few assumed cells: their risk is unavoidable."""
        found: list[Cell] = []
        for pattern in self.patterns:
            if len(pattern.missing) > (PSEUDO_MISSING_PAIR if not pattern.square else MAX_MISSING_SQUARE):
                continue
            for cell in pattern.cells:
                mine = self.mine_layouts(cell)
                if cell not in found and mine > 0 and abs(pattern.weight - mine) <= 1e-9 * self.analysis.weight:
                    found.append(cell)
        return found


def long_term_risk(analysis: Analysis, time_limit: float = TIME_LIMIT) -> FiftyRisk | None:
    """Every pair and square pattern that could still form, counted; None without an exact layout count."""
    if not analysis.weight or analysis.free_mines is None:
        return None
    deadline = time.monotonic() + time_limit
    risk = FiftyRisk(analysis)
    try:
        counter = LayoutCounter(analysis, deadline)
    except BudgetExceeded:
        return risk
    for cells, mines, ends, most in candidate_patterns(analysis):
        missing = [cell for cell in ends if not known_mine(analysis, cell)]
        if any(not covered(analysis, cell) for cell in ends) or len(missing) > most:
            continue
        safe = [cell for cell in cells if cell not in mines]
        weight = counter.count([*mines, *missing], safe, deadline)
        if weight:
            risk.patterns.append(Pattern(cells, mines, tuple(missing), weight))
        if time.monotonic() > deadline:
            break
    return risk


def candidate_patterns(analysis: Analysis) -> Iterator[tuple[tuple[Cell, ...], tuple[Cell, ...], list[Cell], int]]:
    """Pairs and squares of cells that could hold a mine, with one of their layouts, their end cells (on the
    board) and how many of those may still be unknown."""
    board = analysis.board
    rows, cols = board.rows, board.cols

    def inside(cells: list[Cell]) -> list[Cell]:
        return [(r, c) for r, c in cells if 0 <= r < rows and 0 <= c < cols]

    def open_(cell: Cell) -> bool:
        return cell in analysis.probabilities and 0.0 < analysis.probabilities[cell] < 1.0

    for r in range(rows):
        for c in range(cols):
            if not open_((r, c)):
                continue
            if c + 1 < cols and open_((r, c + 1)):
                ends = inside([(r + d, c - 1) for d in (-1, 0, 1)] + [(r + d, c + 2) for d in (-1, 0, 1)])
                yield ((r, c), (r, c + 1)), ((r, c),), ends, MAX_MISSING_PAIR
            if r + 1 < rows and open_((r + 1, c)):
                ends = inside([(r - 1, c + d) for d in (-1, 0, 1)] + [(r + 2, c + d) for d in (-1, 0, 1)])
                yield ((r, c), (r + 1, c)), ((r, c),), ends, MAX_MISSING_PAIR
            square = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if r + 1 < rows and c + 1 < cols and all(open_(cell) for cell in square):
                ends = inside([(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)])
                yield square, ((r, c), (r + 1, c + 1)), ends, MAX_MISSING_SQUARE


def covered(analysis: Analysis, cell: Cell) -> bool:
    ch = analysis.board[cell]
    return ch in UNKNOWN_CHARS or ch == FLAG


def known_mine(analysis: Analysis, cell: Cell) -> bool:
    return analysis.board[cell] == FLAG or analysis.probabilities.get(cell) == 1.0


class LayoutCounter:
    """Counts the layouts that fit the board with some cells forced to be mines or safe. The components of
    the frontier are enumerated once; a count enumerates again only those that hold a forced cell."""

    def __init__(self, analysis: Analysis, deadline: float | None = None) -> None:
        self.analysis = analysis
        self.free = set(analysis.free_cells)
        self.components = split_frontier(analysis.constraints)
        self.counts = [enumerate_component(comp, deadline) for comp in self.components]
        self.component_of = {cell: i for i, comp in enumerate(self.components) for cls in comp.classes
                             for cell in cls}
        self.off = [cell for cell in analysis.free_cells if cell not in self.component_of]

    def count(self, mines: list[Cell], safe: list[Cell], deadline: float | None = None) -> int:
        """Layouts with ``mines`` all mines and ``safe`` all safe (0 when none)."""
        forced: dict[Cell, int] = {}
        for cells, value in ((mines, 1), (safe, 0)):
            for cell in cells:
                if cell not in self.free:
                    if self.analysis.probabilities.get(cell) != float(value):
                        return 0
                elif forced.setdefault(cell, value) != value:
                    return 0
        touched = {self.component_of[cell] for cell in forced if cell in self.component_of}
        constraints = [con for con in self.analysis.constraints
                       if self.component_of[next(iter(con.cells))] in touched]
        constraints += [Constraint(frozenset({cell}), value, cell) for cell, value in forced.items()
                        if cell in self.component_of]
        weights = [1]
        for i, counts in enumerate(self.counts):
            if i not in touched:
                weights = convolve(weights, counts.weights)
        try:
            for comp in split_frontier(constraints):
                weights = convolve(weights, enumerate_component(comp, deadline).weights)
        except BudgetExceeded:
            return 0
        off_mines = sum(1 for cell, value in forced.items() if value and cell not in self.component_of)
        off_forced = sum(1 for cell in forced if cell not in self.component_of)
        room = len(self.off) - off_forced
        left = (self.analysis.free_mines or 0) - off_mines
        return sum(w * comb(room, left - m) for m, w in enumerate(weights) if w and 0 <= left - m <= room)
