"""Named guessing strategies, each a function from an analysis (no safe cell left) to a cell or None.

- ``lowest_risk``: the least likely mine; ties go to cells with fewest covered neighbours (corners first).
- ``dead``: a cell that can only ever show one number gives no information: avoid it while others exist.
- ``forced_fifty``: a group of covered cells that no other cell touches and that has exactly two layouts
  (two cells sharing one mine, or a 2x2 checkerboard) must be guessed some day: guess it now.
- ``secondary_safety``: among the safest candidates, weigh the chance to survive against the chance that
  the next move is safe: sum over the values v the cell could show of P(v) x (safety of the best next move).
"""

from __future__ import annotations

from itertools import product

from sweepbot.board import FLAG, Cell, neighbours
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.budget import Budget, BudgetExceeded
from sweepbot.solver.frontier import split_frontier
from sweepbot.solver.lookahead import Outcome, outcomes

TIE = 1e-9
SECONDARY_MARGIN = 0.1  # candidates at most this much riskier than the safest cell
SECONDARY_CANDIDATES = 12
OFF_FRONTIER_CANDIDATES = 3
BLEND_WEIGHTS = (0.6, 0.2, 0.2)  # weights of the best, second and third best living cells' safeties
SECONDARY_WORK = 300_000  # units of work (see sweepbot.solver.budget); past it the best candidate so far is taken
DEAD_CHECKS = 20  # cells looked at, safest first, for one that is not dead

OutcomeCache = dict[Cell, list[Outcome]]


def open_choices(analysis: Analysis) -> dict[Cell, float]:
    """Covered cells that are not certain mines, with their mine probability."""
    certain = set(analysis.mines)
    return {cell: p for cell, p in analysis.probabilities.items() if cell not in certain}


def covered_neighbours(analysis: Analysis, cell: Cell) -> int:
    board = analysis.board
    return sum(1 for n in neighbours(cell, board.rows, board.cols) if n in analysis.probabilities)


def ranked(analysis: Analysis, choices: dict[Cell, float]) -> list[Cell]:
    """Cells by probability, then fewest covered neighbours, then reading order."""
    return sorted(choices, key=lambda cell: (round(choices[cell] / TIE), covered_neighbours(analysis, cell), cell))


def lowest_risk(analysis: Analysis, cache: OutcomeCache | None = None, avoid_dead: bool = False) -> Cell:
    """The least likely mine; with ``avoid_dead``, the least likely that is not dead (checked lazily, in
    order, up to DEAD_CHECKS cells), unless every checked cell is dead."""
    order = ranked(analysis, open_choices(analysis))
    if avoid_dead:
        cache = {} if cache is None else cache
        for cell in order[:DEAD_CHECKS]:
            if not is_dead(analysis, cell, cache):
                return cell
    return order[0]


def frontier_cells(analysis: Analysis) -> set[Cell]:
    return {cell for con in analysis.constraints for cell in con.cells}


def shortlist(analysis: Analysis) -> list[Cell]:
    """The candidates worth a closer look: the safest frontier cells and the best few off it (corners
    first)."""
    choices = open_choices(analysis)
    best = min(choices.values())
    frontier = frontier_cells(analysis)
    near = {cell: p for cell, p in choices.items() if p <= best + SECONDARY_MARGIN}
    order = ranked(analysis, near)
    on = [cell for cell in order if cell in frontier][:SECONDARY_CANDIDATES]
    off = [cell for cell in order if cell not in frontier][:OFF_FRONTIER_CANDIDATES]
    return ranked(analysis, {cell: choices[cell] for cell in on + off})


def cached_outcomes(analysis: Analysis, cell: Cell, cache: OutcomeCache,
                    budget: Budget | None = None) -> list[Outcome]:
    """:func:`outcomes`, kept per cell for the move; BudgetExceeded once ``budget`` is spent (nothing kept
    then)."""
    if cell not in cache:
        cache[cell] = outcomes(analysis, cell, budget)
    return cache[cell]


def is_dead(analysis: Analysis, cell: Cell, cache: OutcomeCache) -> bool:
    """True when ``cell``, if safe, can show only one value: opening it would tell nothing."""
    certain = set(analysis.mines)
    board = analysis.board
    if not any(n in analysis.probabilities and n not in certain for n in neighbours(cell, board.rows, board.cols)):
        return True
    if not analysis.weight:
        return False
    return len(cached_outcomes(analysis, cell, cache)) <= 1


def dead_cells(analysis: Analysis, cells: list[Cell], cache: OutcomeCache) -> set[Cell]:
    """The dead cells among ``cells``."""
    return {cell for cell in cells if is_dead(analysis, cell, cache)}


def forced_fifty(analysis: Analysis) -> Cell | None:
    """A cell of an isolated group with exactly two layouts of equal mine count, if there is one."""
    board = analysis.board
    certain = set(analysis.mines)
    for component in split_frontier(analysis.constraints):
        cells = [cell for cls in component.classes for cell in cls]
        if len(cells) > 8:
            continue
        inside = set(cells)
        touches_outside = any(
            n in analysis.probabilities and n not in inside and n not in certain and board[n] != FLAG
            for cell in cells for n in neighbours(cell, board.rows, board.cols)
        )
        if touches_outside:
            continue
        constraints = [(con.cells, con.mines) for con in analysis.constraints if con.cells <= inside]
        layouts = [
            bits for bits in product((0, 1), repeat=len(cells))
            if all(sum(bit for cell, bit in zip(cells, bits, strict=True) if cell in group) == need
                   for group, need in constraints)
        ]
        if len(layouts) == 2 and sum(layouts[0]) == sum(layouts[1]):
            return min(cells)
    return None


def secondary_safety(analysis: Analysis, cache: OutcomeCache, avoid_dead: bool = False,
                     blend: bool = False, budget: Budget | None = None) -> Cell | None:
    """The candidate with the best chance to survive this guess and then have a safe move. With
    ``avoid_dead``, dead candidates are passed over unless all are dead; with ``blend`` the board after the
    guess is valued by :func:`blended_safety` rather than :func:`next_safety`. Once ``budget`` (else
    SECONDARY_WORK) is spent (checked inside a candidate's outcomes too) the best candidate scored so far is
    taken."""
    if not analysis.weight:
        return None
    cells = shortlist(analysis)
    bound = {cell: 1 - analysis.probabilities[cell] for cell in cells}
    best_cell: Cell | None = None
    dead_cell: Cell | None = None
    best_score = -1.0
    budget = Budget(SECONDARY_WORK) if budget is None else budget
    value = blended_safety if blend else next_safety
    for cell in sorted(cells, key=lambda cell: -bound[cell]):
        if bound[cell] <= best_score:
            break  # candidates come best bound first: no later one can score more
        if best_cell is not None and budget.exhausted:
            break  # out of work: the best so far
        try:
            found = cached_outcomes(analysis, cell, cache, budget)
        except BudgetExceeded:
            break  # out of work inside this candidate: the best so far (or the next step's choice)
        if avoid_dead and is_dead(analysis, cell, cache):
            dead_cell = dead_cell or cell
            continue
        score = sum(o.chance * value(o.after) for o in found)
        if score > best_score + TIE:
            best_cell, best_score = cell, score
    return best_cell or dead_cell


def next_safety(after: Analysis) -> float:
    """The chance that the best move on this board is safe: 1 with a certain safe cell (or nothing left)."""
    if after.safe:
        return 1.0
    choices = open_choices(after)
    return 1.0 - min(choices.values()) if choices else 1.0


def blended_safety(after: Analysis) -> float:
    """What surviving into ``after`` is worth: the safeties of its best living cells (cells that could still
    show more than one number), weighted by BLEND_WEIGHTS: a board with several good moves is worth more
    than one with a single good one, since each move tells something about the others. A safe cell that
    can only show one number is no progress; with fewer living cells than weights, the last one counts
    again; with only dead cells left, the best of them (a blind guess); with nothing but safe cells, 1."""
    choices = open_choices(after)
    if not choices or max(choices.values()) == 0.0:
        return 1.0
    known = KnownNumbers(after)
    living: list[float] = []
    for cell in sorted(choices, key=choices.__getitem__):
        if not known(cell):
            living.append(1.0 - choices[cell])
            if len(living) == len(BLEND_WEIGHTS):
                break
    if not living:
        return 1.0 - min(choices.values())
    living += [living[-1]] * (len(BLEND_WEIGHTS) - len(living))
    return sum(weight * safety for weight, safety in zip(BLEND_WEIGHTS, living, strict=True))


class KnownNumbers:
    """A quick, sure test of a dead cell: its covered neighbours that are not settled are none, or exactly
    the cells of one number (which fixes how many mines they hold)."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.settled = {cell for cell, p in analysis.probabilities.items() if p in (0.0, 1.0)}
        self.determined = {frozenset(con.cells - self.settled) for con in analysis.constraints}

    def __call__(self, cell: Cell) -> bool:
        board = self.analysis.board
        around = frozenset(n for n in neighbours(cell, board.rows, board.cols)
                           if n in self.analysis.probabilities and n not in self.settled)
        return not around or around in self.determined
