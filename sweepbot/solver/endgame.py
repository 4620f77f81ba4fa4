"""Endgame: with few layouts left, search the whole game tree and open the cell that wins the most of them.

Every layout that fits the board is equally likely (they all hold the same number of mines), so the
chance to win from here is the number of layouts won by the best play over all layouts. Opening a cell
loses the layouts where it is a mine and splits the rest by the number it shows; one layout left is a win.
"""

from __future__ import annotations

import time
from functools import cache

from sweepbot.board import FLAG, Cell, neighbours
from sweepbot.solver.analysis import Analysis

MAX_LAYOUTS = 60
MAX_CELLS = 40
TIME_LIMIT = 0.15  # seconds for the whole search; past it the search gives up and other strategies decide


class _OutOfTime(Exception):
    pass


def list_layouts(analysis: Analysis, limit: int) -> list[frozenset[Cell]] | None:
    """Every placement of the remaining mines on the open cells (certain mines aside), or None if more
    than ``limit`` or the mine total is unknown."""
    problem = analysis.problem
    if problem is None or problem.mines_left is None:
        return None
    certain = set(analysis.mines)
    settled = certain | {cell for cell in problem.unknown if analysis.probabilities.get(cell) == 0.0}
    cells = [cell for cell in problem.unknown if cell not in settled]
    left = problem.mines_left - len(certain)
    cons = [(sorted(con.cells - settled), con.mines - len(con.cells & certain)) for con in analysis.constraints]
    index = {cell: i for i, cell in enumerate(cells)}
    groups = [([index[c] for c in group], need) for group, need in cons] + [(list(range(len(cells))), left)]
    var_groups: list[list[int]] = [[] for _ in cells]
    for g, (members, _) in enumerate(groups):
        for v in members:
            var_groups[v].append(g)
    need = [n for _, n in groups]
    room = [len(members) for members, _ in groups]
    chosen: list[int] = []
    found: list[frozenset[Cell]] = []

    def place(v: int) -> bool:
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

    if not place(0) or len(found) > limit:
        return None
    return found


def endgame_move(analysis: Analysis, time_limit: float = TIME_LIMIT) -> tuple[Cell, float] | None:
    """The cell that wins the most layouts, with its win chance; None when too many layouts remain or the
    search does not finish within ``time_limit`` seconds."""
    deadline = time.monotonic() + time_limit
    try:
        return _search(analysis, deadline)
    except _OutOfTime:
        return None


def _search(analysis: Analysis, deadline: float) -> tuple[Cell, float] | None:
    if not analysis.weight or analysis.weight > MAX_LAYOUTS:
        return None
    layouts = list_layouts(analysis, MAX_LAYOUTS)
    if not layouts or len(layouts) < 2:
        return None
    board = analysis.board
    certain = set(analysis.mines)
    cells = sorted({cell for cell in analysis.probabilities if cell not in certain})
    if len(cells) > MAX_CELLS:
        return None
    fixed = certain | {
        (r, c) for r in range(board.rows) for c in range(board.cols) if board[(r, c)] == FLAG
    }
    around = {cell: list(neighbours(cell, board.rows, board.cols)) for cell in cells}

    def shows(cell: Cell, layout: frozenset[Cell]) -> int:
        return sum(1 for n in around[cell] if n in layout or n in fixed)

    @cache
    def wins(state: frozenset[int]) -> int:
        if len(state) == 1:
            return 1
        if time.monotonic() > deadline:
            raise _OutOfTime
        best = 0
        for cell in cells:
            won = split_wins(cell, state)
            if won is not None and won > best:
                best = won
                if best == len(state):
                    break
        return best

    def split_wins(cell: Cell, state: frozenset[int]) -> int | None:
        parts: dict[int, set[int]] = {}
        for i in state:
            if cell not in layouts[i]:
                parts.setdefault(shows(cell, layouts[i]), set()).add(i)
        safe_in = sum(len(p) for p in parts.values())
        if safe_in == len(state) and len(parts) == 1:
            return None  # safe everywhere and tells nothing: no progress
        if safe_in == 0:
            return 0
        return sum(wins(frozenset(p)) for p in parts.values())

    start = frozenset(range(len(layouts)))
    best_cell, best_won = None, -1
    for cell in sorted(cells, key=lambda c: analysis.probabilities[c]):
        won = split_wins(cell, start)
        if won is not None and won > best_won:
            best_cell, best_won = cell, won
    if best_cell is None:
        return None
    return best_cell, best_won / len(layouts)
