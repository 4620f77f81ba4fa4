"""Endgame: with few layouts left, search the whole game tree and open the cell that wins the most of them.

Every layout that fits the board is equally likely (they all hold the same number of mines), so the
chance to win from here is the number of layouts won by the best play over all layouts. Opening a cell
loses the layouts where it is a mine and splits the rest by the number it shows; one layout left is a win.

The search works on sets of layouts held as bit masks (Python integers, one bit per layout):
- a state is the set of layouts still possible; the same set reached by two paths is searched once;
- a cell that is safe in every layout of the state and splits it is opened at once, without trying the
  others (information never hurts);
- cells are tried safest first, and a cell is dropped as soon as the layouts it could still win cannot
  beat the best found (a cell never wins more layouts than those where it is safe);
- a cell that cannot split a state (a mine everywhere, or safe and always the same number) stays out of
  every state below it.
"""

from __future__ import annotations

import numpy as np

from sweepbot.board import FLAG, Cell, neighbours
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.budget import LAYOUT_STEP, SEARCH_NODE_CELL, SPLIT_LAYOUT, Budget, BudgetExceeded
from sweepbot.solver.frontier import split_frontier

MAX_LAYOUTS = 400
MAX_CELLS = 64
#: Units of work for the whole search (see sweepbot.solver.budget); past it the search gives up and other
#: strategies decide
WORK = 150_000
WIDE_LAYOUTS = 1000  # with the ``wide`` part: the search is tried again up to this many layouts ...
WIDE_WORK = 1_000_000  # ... with this much work (such boards come about once in 15 expert games)
#: Steps counted between two charges to the budget.
CHARGE_EVERY = 1024


def list_layouts(analysis: Analysis, limit: int, budget: Budget | None = None) -> list[frozenset[Cell]] | None:
    """Every placement of the remaining mines on the open cells (certain mines aside), or None if more
    than ``limit``, the mine total is unknown or ``budget`` is spent."""
    problem = analysis.problem
    if problem is None or problem.mines_left is None:
        return None
    certain = set(analysis.mines)
    settled = certain | {cell for cell in problem.unknown if analysis.probabilities.get(cell) == 0.0}
    cells = [cell for cell in problem.unknown if cell not in settled]
    left = problem.mines_left - len(certain)
    groups = [(con.cells - settled, con.mines - len(con.cells & certain)) for con in analysis.constraints]
    return enumerate_layouts(cells, [*groups, (frozenset(cells), left)], limit, budget)


def enumerate_layouts(cells: list[Cell], groups: list[tuple[frozenset[Cell], int]],
                      limit: int, budget: Budget | None = None) -> list[frozenset[Cell]] | None:
    """Every set of mines among ``cells`` that puts exactly ``need`` mines in each group's cells, or None
    if there are more than ``limit`` or ``budget`` is spent first."""
    index = {cell: i for i, cell in enumerate(cells)}
    var_groups: list[list[int]] = [[] for _ in cells]
    for g, (members, _) in enumerate(groups):
        for cell in members:
            var_groups[index[cell]].append(g)
    need = [n for _, n in groups]
    room = [len(members) for members, _ in groups]
    chosen: list[int] = []
    found: list[frozenset[Cell]] = []
    steps = [0]

    def place(v: int) -> bool:
        steps[0] += 1
        if budget is not None and not steps[0] % CHARGE_EVERY:
            try:
                budget.spend(CHARGE_EVERY * LAYOUT_STEP)
            except BudgetExceeded:
                return False
        if v == len(cells):
            found.append(frozenset(cells[i] for i in chosen))
            return len(found) <= limit
        for bit in (0, 1):
            if any(need[g] - bit < 0 or need[g] - bit > room[g] - 1 for g in var_groups[v]):
                continue
            for g in var_groups[v]:
                need[g] -= bit
                room[g] -= 1
            if bit:
                chosen.append(v)
            going = place(v + 1)
            if bit:
                chosen.pop()
            for g in var_groups[v]:
                need[g] += bit
                room[g] += 1
            if not going:
                return False
        return True

    finished = place(0)
    if budget is not None:
        budget.tally(steps[0] % CHARGE_EVERY * LAYOUT_STEP)
    if not finished or len(found) > limit:
        return None
    return found


def endgame_move(analysis: Analysis, budget: Budget | None = None,
                 max_layouts: int = MAX_LAYOUTS) -> tuple[Cell, float] | None:
    """The cell that wins the most layouts, with its win chance; None when too many layouts remain or the
    search does not finish within ``budget`` (else WORK)."""
    budget = Budget(WORK) if budget is None else budget
    if not analysis.weight or analysis.weight > max_layouts or analysis.weight < 2:
        return None
    layouts = list_layouts(analysis, max_layouts, budget)
    if not layouts or len(layouts) < 2:
        return None
    certain = set(analysis.mines)
    cells = sorted(cell for cell in analysis.probabilities if cell not in certain)
    if len(cells) > MAX_CELLS:
        return None
    try:
        return LayoutSearch(cell_splits(analysis, cells, layouts, budget), budget).best_move(cells, len(layouts))
    except BudgetExceeded:
        return None


def isolated_move(analysis: Analysis, budget: Budget | None = None,
                  max_layouts: int = MAX_LAYOUTS) -> tuple[Cell, float] | None:
    """The best cell of a region that must be solved on its own: frontier cells that touch no other
    covered cell, whose layouts all hold the same number of mines (so all are equally likely, whatever
    the rest of the board holds). Its chance does not depend on when it is played: play it first, with
    the game-tree search. None when there is no such region small enough, or ``budget`` (else WORK) is spent."""
    budget = Budget(WORK) if budget is None else budget
    board = analysis.board
    certain = set(analysis.mines)
    open_cells = {cell for cell, p in analysis.probabilities.items() if p not in (0.0, 1.0)}
    for component in split_frontier(analysis.constraints):
        cells = sorted(cell for cls in component.classes for cell in cls if cell in open_cells)
        inside = set(cells)
        if len(cells) < 2 or len(cells) > MAX_CELLS or any(
                n in open_cells and n not in inside for cell in cells
                for n in neighbours(cell, board.rows, board.cols)):
            continue
        groups = [(con.cells & inside, con.mines - len(con.cells & certain)) for con in analysis.constraints
                  if con.cells & inside]
        layouts = enumerate_layouts(cells, groups, max_layouts, budget)
        if not layouts or len(layouts) < 2 or len({len(layout) for layout in layouts}) > 1:
            continue
        try:
            found = LayoutSearch(cell_splits(analysis, cells, layouts, budget), budget).best_move(cells, len(layouts))
        except BudgetExceeded:
            return None
        if found:
            return found
    return None


def cell_splits(analysis: Analysis, cells: list[Cell], layouts: list[frozenset[Cell]],
                budget: Budget | None = None) -> list[list[int]]:
    """For each cell, the layouts where it is safe, grouped by the number it shows there (bit masks)."""
    if budget is not None:
        budget.spend(SPLIT_LAYOUT * len(layouts) * len(cells))
    board = analysis.board
    index = {cell: i for i, cell in enumerate(cells)}
    fixed = set(analysis.mines) | {
        (r, c) for r in range(board.rows) for c in range(board.cols) if board[(r, c)] == FLAG}
    adjacency = np.zeros((len(cells), len(cells)), dtype=np.int16)
    base = np.zeros(len(cells), dtype=np.int16)
    for i, cell in enumerate(cells):
        for n in neighbours(cell, board.rows, board.cols):
            if n in index:
                adjacency[i, index[n]] = 1
            elif n in fixed:
                base[i] += 1
    mines = np.zeros((len(layouts), len(cells)), dtype=np.int16)
    for k, layout in enumerate(layouts):
        for cell in layout:
            if cell in index:
                mines[k, index[cell]] = 1
    shown = mines @ adjacency.T + base
    shown[mines == 1] = -1
    splits: list[list[int]] = []
    for i in range(len(cells)):
        column = shown[:, i]
        parts = []
        for value in np.unique(column):
            if value >= 0:
                bits = np.packbits(column == value, bitorder="little")
                parts.append(int.from_bytes(bits.tobytes(), "little"))
        splits.append(parts)
    return splits


class LayoutSearch:
    """The game tree over sets of layouts, memoised; ``splits[i]`` are cell i's safe layouts by number."""

    def __init__(self, splits: list[list[int]], budget: Budget) -> None:
        self.splits = splits
        self.safe = [sum(parts) for parts in splits]  # the parts are disjoint: their sum is their union
        self.budget = budget
        self.weighed = 0  # candidate cells weighed at the nodes since the last charge
        self.memo: dict[int, int] = {}
        self.nodes = 0

    def best_move(self, cells: list[Cell], count: int) -> tuple[Cell, float] | None:
        state = (1 << count) - 1
        living = self.living(state, range(len(cells)))
        if not living:
            return None
        best_i, best_won = -1, -1
        for i in sorted(living, key=lambda i: -(state & self.safe[i]).bit_count()):
            won = self.open_wins(i, state, living, best_won)
            if won > best_won:
                best_i, best_won = i, won
        self.budget.tally(self.weighed * SEARCH_NODE_CELL)
        self.weighed = 0
        return cells[best_i], best_won / count

    def living(self, state: int, candidates: range | list[int]) -> list[int]:
        """The cells that could still tell something or lose something in ``state``."""
        out = []
        for i in candidates:
            safe = state & self.safe[i]
            if not safe:
                continue
            if safe == state and sum(1 for part in self.splits[i] if part & state) == 1:
                continue
            out.append(i)
        return out

    def open_wins(self, i: int, state: int, living: list[int], beat: int) -> int:
        """Layouts won by opening cell i in ``state`` then playing on at best; may stop early (returning at
        most ``beat``) once it cannot win more than ``beat``."""
        left = (state & self.safe[i]).bit_count()
        won = 0
        for part in self.splits[i]:
            sub = part & state
            if not sub:
                continue
            size = sub.bit_count()
            left -= size
            won += self.wins(sub, living)
            if won + left <= beat:
                return won + left
        return won

    def wins(self, state: int, candidates: list[int]) -> int:
        size = state.bit_count()
        if size == 1:
            return 1
        known = self.memo.get(state)
        if known is not None:
            return known
        self.nodes += 1
        self.weighed += len(candidates)
        if not self.nodes % 64:
            self.budget.spend(self.weighed * SEARCH_NODE_CELL)
            self.weighed = 0
        living = self.living(state, candidates)
        best = 0
        for i in living:
            if state & self.safe[i] == state:  # safe everywhere and it splits: open it, nothing to lose
                best = self.open_wins(i, state, living, -1)
                break
        else:
            for i in sorted(living, key=lambda i: -(state & self.safe[i]).bit_count()):
                if (state & self.safe[i]).bit_count() <= best:
                    break
                won = self.open_wins(i, state, living, best)
                if won > best:
                    best = won
        self.memo[state] = best
        return best
