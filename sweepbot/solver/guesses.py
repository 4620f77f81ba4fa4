"""Named guessing strategies, each a function from an analysis (no safe cell left) to a cell or None.

- ``lowest_risk``: the least likely mine; ties go to cells with fewest covered neighbours (corners first).
- ``dead``: a cell that can only ever show one number gives no information: avoid it while others exist.
- ``forced_fifty``: a group of covered cells that no other cell touches and that has exactly two layouts
  (two cells sharing one mine, or a 2x2 checkerboard) must be guessed some day: guess it now.
- ``secondary_safety``: among the safest candidates, weigh the chance to survive against the chance that
  the next move is safe: sum over the values v the cell could show of P(v) x (safety of the best next move).
"""

from __future__ import annotations

import time
from itertools import product

from sweepbot.board import FLAG, Cell, neighbours
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.frontier import split_frontier
from sweepbot.solver.longterm import FiftyRisk
from sweepbot.solver.lookahead import Outcome, outcomes

TIE = 1e-9
SECONDARY_MARGIN = 0.1  # candidates at most this much riskier than the safest cell
SECONDARY_CANDIDATES = 12
OFF_FRONTIER_CANDIDATES = 3
NEAR_FRONTIER_CANDIDATES = 4  # off-frontier cells touching the frontier, looked at with ``near``
BLEND_WEIGHTS = (0.6, 0.2, 0.2)  # weights of the best, second and third best living cells' safeties
PROGRESS_BONUS = 0.0  # extra value of an outcome with a certain safe move next
SECONDARY_TIME_LIMIT = 0.3  # seconds; past it the best candidate so far is taken
DEEP_MARGIN = 0.03  # relative: candidates scoring this close to the best are compared one move further
DEEP_CANDIDATES = 2
DEEP_NEXT = 2  # moves looked at in each board after a guess
DEEP_TIME_LIMIT = 0.15  # seconds; past it the plain secondary-safety choice stands
OFFEDGE_THRESHOLD = 0.95  # off-frontier candidates only when this close (as a ratio of safety) to the best
OFFEDGE_ALL = 30  # fewer off-frontier cells than this: all are candidates (before the cap)
OFFEDGE_CANDIDATES = 8
OFFSETS = ((2, 0), (-2, 0), (0, 2), (0, -2))
OFFSETS_ALL = tuple((dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if max(abs(dr), abs(dc)) == 2)
DOMINATE_GAP = 0.001  # how much safer a dominating cell must be
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


def shortlist(analysis: Analysis, near_frontier: bool = False) -> list[Cell]:
    """The candidates worth a closer look: the safest frontier cells and the best few off it (corners
    first; with ``near_frontier`` also a few that touch the frontier, whose number joins what is known)."""
    choices = open_choices(analysis)
    best = min(choices.values())
    frontier = frontier_cells(analysis)
    near = {cell: p for cell, p in choices.items() if p <= best + SECONDARY_MARGIN}
    order = ranked(analysis, near)
    on = [cell for cell in order if cell in frontier][:SECONDARY_CANDIDATES]
    off = [cell for cell in order if cell not in frontier]
    picked = off[:OFF_FRONTIER_CANDIDATES]
    if near_frontier:
        board = analysis.board
        touching = [cell for cell in off if cell not in picked
                    and any(n in frontier for n in neighbours(cell, board.rows, board.cols))]
        picked += touching[:NEAR_FRONTIER_CANDIDATES]
    return ranked(analysis, {cell: choices[cell] for cell in on + picked})


def offedge_shortlist(analysis: Analysis) -> list[Cell]:
    """JSMinesweeper's candidates: the safest frontier cells (as in :func:`shortlist`) and, only when a
    cell off the frontier is at least OFFEDGE_THRESHOLD times as safe as the safest frontier cell, the
    off-frontier cells two steps from a number (straight across, or within the 5x5 square at high
    density) or with two or three covered neighbours (all of them when fewer than OFFEDGE_ALL are off
    the frontier), fewest covered neighbours first, at most OFFEDGE_CANDIDATES."""
    choices = open_choices(analysis)
    best = min(choices.values())
    frontier = frontier_cells(analysis)
    near = {cell: p for cell, p in choices.items() if p <= best + SECONDARY_MARGIN}
    on = [cell for cell in ranked(analysis, near) if cell in frontier][:SECONDARY_CANDIDATES]
    off = {cell: p for cell, p in choices.items() if cell not in frontier}
    best_on = max((1 - p for cell, p in choices.items() if cell in frontier), default=0.0)
    picked: list[Cell] = []
    if off and (not on or 1 - min(off.values()) > OFFEDGE_THRESHOLD * best_on):
        if len(off) < OFFEDGE_ALL:
            accepted = set(off)
        else:
            left = analysis.free_mines if analysis.free_mines is not None else 0
            dense = left * 5 > len(analysis.free_cells) * 2
            steps = OFFSETS_ALL if dense else OFFSETS
            witnesses = {con.source for con in analysis.constraints}
            accepted = {(r + dr, c + dc) for r, c in witnesses for dr, dc in steps} & set(off)
            accepted |= {cell for cell in off if 1 < covered_neighbours(analysis, cell) < 4}
        picked = ranked(analysis, {cell: off[cell] for cell in accepted})[:OFFEDGE_CANDIDATES]
    return ranked(analysis, {cell: choices[cell] for cell in on + picked})


def cached_outcomes(analysis: Analysis, cell: Cell, cache: OutcomeCache) -> list[Outcome]:
    if cell not in cache:
        cache[cell] = outcomes(analysis, cell)
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


def secondary_safety(analysis: Analysis, cache: OutcomeCache, avoid_dead: bool = False, blend: bool = False,
                     near_frontier: bool = False, risk: FiftyRisk | None = None,
                     candidates: list[Cell] | None = None, deep: bool = False,
                     dominate: bool = False, offedge: bool = False, clears: bool = False) -> Cell | None:
    """The candidate with the best chance to survive this guess and then have a safe move. With
    ``avoid_dead``, dead candidates are passed over unless all are dead; with ``blend`` the move after is
    valued by :func:`blended_safety` rather than :func:`next_safety`; with ``risk`` each candidate's score
    is raised by the future 50/50 risk it takes now (:meth:`FiftyRisk.factor`), and cells with such risk
    join the candidates. ``candidates`` replaces the shortlist. With ``deep``, candidates scoring close to
    the best are compared one move further (:func:`deep_choice`); with ``dominate``, a safer cell that
    the choice makes the next move in every case is opened first (:func:`dominating`); with ``offedge``,
    the candidates are chosen by :func:`offedge_shortlist`; with ``clears``, a tie goes to the candidate
    with the most living safe cells to follow (:func:`expected_clears`), as in JSMinesweeper."""
    if not analysis.weight:
        return None
    if candidates is not None:
        cells = candidates
    else:
        cells = offedge_shortlist(analysis) if offedge else shortlist(analysis, near_frontier)
    factor: dict[Cell, float] = {}
    if risk is not None:
        if candidates is None:
            cells = cells + [cell for cell in influenced(analysis, risk) if cell not in cells]
        factor = {cell: risk.factor(cell) for cell in cells}
    bound = {cell: (1 - analysis.probabilities[cell]) * factor.get(cell, 1.0) for cell in cells}
    best_cell: Cell | None = None
    dead_cell: Cell | None = None
    best_score = -1.0
    scored: dict[Cell, float] = {}
    keep = 1 - DEEP_MARGIN if deep else 1.0  # with ``deep``, close runners-up are scored too
    deadline = time.monotonic() + SECONDARY_TIME_LIMIT
    value = blended_safety if blend else outcome_value
    best_clears = -1.0
    slack = TIE if clears else 0.0  # with ``clears``, a candidate that can only tie is looked at too
    for cell in sorted(cells, key=lambda cell: -bound[cell]):
        if bound[cell] * (1 + PROGRESS_BONUS) <= best_score * keep - slack:
            break  # candidates come best bound first: no later one can score more
        if best_cell is not None and time.monotonic() > deadline:
            break  # out of time: the best so far
        found = cached_outcomes(analysis, cell, cache)
        if avoid_dead and is_dead(analysis, cell, cache):
            dead_cell = dead_cell or cell
            continue
        score = factor.get(cell, 1.0) * sum(o.chance * value(o.after) for o in found)
        scored[cell] = score
        if score > best_score + TIE:
            best_cell, best_score = cell, score
            best_clears = expected_clears(found) if clears else 0.0
        elif clears and score >= best_score - TIE:
            more = expected_clears(found)
            if more > best_clears + TIE:
                best_cell, best_clears = cell, more
    if deep and best_cell is not None:
        best_cell = deep_choice(analysis, cache, scored, best_cell)
    if dominate and best_cell is not None:
        best_cell = dominating(analysis, cache, best_cell) or best_cell
    return best_cell or dead_cell


def expected_clears(found: list[Outcome]) -> float:
    """The expected number of living safe cells (see :class:`KnownNumbers`) after a guess with outcomes
    ``found``, counting the guess's losses as none."""
    total = 0.0
    for o in found:
        if o.after.safe:
            known = KnownNumbers(o.after)
            total += o.chance * sum(1 for cell in o.after.safe if not known(cell))
    return total


def deep_choice(analysis: Analysis, cache: OutcomeCache, scored: dict[Cell, float], best: Cell) -> Cell:
    """Among the candidates whose secondary-safety score is within DEEP_MARGIN (relative) of the best,
    the one whose outcomes are worth most one move further: each board after it is valued by its own
    secondary-safety score (:func:`lookahead_value`) rather than by the safety of its best next cell.
    The plain best when there is no close call or the look does not finish in DEEP_TIME_LIMIT."""
    top = sorted((cell for cell, score in scored.items() if score >= scored[best] * (1 - DEEP_MARGIN)),
                 key=lambda cell: (cell != best, -scored[cell], cell))[:DEEP_CANDIDATES]  # ties stay with best
    if len(top) < 2:
        return best
    deadline = time.monotonic() + DEEP_TIME_LIMIT
    deep_best, deep_score = best, -1.0
    try:
        for cell in top:
            found = sorted(cached_outcomes(analysis, cell, cache), key=lambda o: -o.chance)
            bound = sum(o.chance * next_safety(o.after) for o in found)  # a board is worth no more one move on
            score = 0.0
            for o in found:
                if bound <= deep_score + TIE:
                    break  # cannot beat the best any more
                value = lookahead_value(o.after, deadline)
                score += o.chance * value
                bound -= o.chance * (next_safety(o.after) - value)
            else:
                if score > deep_score + TIE:
                    deep_best, deep_score = cell, score
    except _OutOfTime:
        return best
    return deep_best


def dominating(analysis: Analysis, cache: OutcomeCache, cell: Cell) -> Cell | None:
    """A safer cell to open instead of ``cell``, after JSMinesweeper's two rules: a cell that is certainly
    safe whatever ``cell`` shows (safe whenever ``cell`` is) and safer than it now; or the cell that is
    the single safest living cell whatever ``cell`` shows (the next move in every case), if it is safer
    than ``cell`` now. None when neither holds."""
    found = cached_outcomes(analysis, cell, cache)
    if not found:
        return None
    safety = 1 - analysis.probabilities[cell]
    common = set(found[0].after.safe).intersection(*(o.after.safe for o in found[1:]))
    safer = [c for c in common if c in analysis.probabilities and 1 - analysis.probabilities[c] > safety + DOMINATE_GAP]
    if safer:
        return min(safer, key=lambda c: (analysis.probabilities[c], c))
    single: Cell | None = None
    for o in found:
        top = single_safest_living(o.after)
        if top is None or (single is not None and top != single):
            return None
        single = top
    if single is not None and single in analysis.probabilities and (
            1 - analysis.probabilities[single] > safety + DOMINATE_GAP):
        return single
    return None


def single_safest_living(after: Analysis) -> Cell | None:
    """The one living cell (see :class:`KnownNumbers`) strictly safer than every other, if there is one."""
    choices = open_choices(after)
    known = KnownNumbers(after)
    living = sorted((p, cell) for cell, p in choices.items() if not known(cell))
    if not living or (len(living) > 1 and living[1][0] <= living[0][0] + TIE):
        return None
    return living[0][1]


class _OutOfTime(Exception):
    pass


def lookahead_value(after: Analysis, deadline: float) -> float:
    """What surviving into ``after`` is worth one move further: the best chance, over its safest few
    moves, to survive that move and then have a safe one (its secondary-safety score). A certain safe
    cell is such a move at no risk: with two or more of them, the move after one is safe too (1); with
    one, its outcomes are looked at. Dead cells are passed over while a living one is left."""
    if not after.weight:
        return next_safety(after)
    if after.safe:
        if len(after.safe) > 1:
            return 1.0
        moves = list(after.safe)
    else:
        choices = open_choices(after)
        if not choices:
            return 1.0
        moves = shortlist(after)
    best = dead = -1.0
    looked = 0
    for cell in moves:
        if 1 - after.probabilities[cell] <= best or looked >= DEEP_NEXT:
            break
        if time.monotonic() > deadline:
            raise _OutOfTime
        found = outcomes(after, cell)
        score = sum(o.chance * next_safety(o.after) for o in found)
        if len(found) <= 1 and not after.safe:
            dead = max(dead, score)
            continue
        looked += 1
        best = max(best, score)
    return best if best >= 0 else max(dead, 0.0)


def influenced(analysis: Analysis, risk: FiftyRisk) -> list[Cell]:
    """Cells outside the usual margin whose safety, with the future 50/50 risk they settle counted in,
    comes near the safest cell's."""
    choices = open_choices(analysis)
    best = 1 - min(choices.values())
    cells = {cell for pattern in risk.patterns for cell in (*pattern.cells, *pattern.missing)}
    return sorted(cell for cell in cells if cell in choices and choices[cell] < 1.0
                  and (1 - choices[cell]) + risk.influence(cell) / analysis.weight >= best - SECONDARY_MARGIN)


def pseudo_fifty(analysis: Analysis, risk: FiftyRisk, cache: OutcomeCache) -> Cell | None:
    """A cell whose every mine layout is a future 50/50 (see :mod:`longterm`): the best of them by
    secondary safety, dead ones aside."""
    cells = [cell for cell in risk.pseudo_fifties() if not is_dead(analysis, cell, cache)]
    if not cells:
        return None
    return secondary_safety(analysis, cache, avoid_dead=True, candidates=cells) or cells[0]


def outcome_value(after: Analysis) -> float:
    """What surviving into ``after`` is worth: the safety of the next move, plus a bonus when that move
    is certain (progress)."""
    return next_safety(after) + (PROGRESS_BONUS if after.safe else 0.0)


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


def number_known(analysis: Analysis, cell: Cell) -> bool:
    """True when ``cell``'s number follows from what is known (see :class:`KnownNumbers`)."""
    return KnownNumbers(analysis)(cell)
