"""Local deductions ("groups" method): certain safe cells and mines from single numbers and from pairs.

A group is a set of unknown cells with a known number of mines. One group alone decides its cells when it
needs no mine (all safe) or as many mines as cells (all mines). Two overlapping groups A and B bound the
mines in their intersection I between ``max(0, a - |A-I|, b - |B-I|)`` and ``min(|I|, a, b)``; from those
bounds the cells of A outside B, and of B outside A, may be decided. A group inside another leaves a new
group (the difference), which is added and may decide more.
"""

from __future__ import annotations

from collections.abc import Iterable

from sweepbot.board import Cell
from sweepbot.solver.problem import Constraint, ContradictionError

Group = tuple[frozenset[Cell], int]
MAX_GROUPS = 1000  # derived groups kept at most: past it, exact counting finds the rest


def deduce(constraints: Iterable[Constraint]) -> tuple[set[Cell], set[Cell]]:
    """Return (safe, mines) found by single-group and pair reasoning, repeated until nothing changes."""
    safe: set[Cell] = set()
    mines: set[Cell] = set()
    groups: set[Group] = {(c.cells, c.mines) for c in constraints}
    while True:
        groups = _apply_known(groups, safe, mines)
        if _decide_singles(groups, safe, mines):
            continue
        found, derived = _decide_pairs(groups, safe, mines)
        if found:
            continue
        new = derived - groups
        if not new or len(groups) > MAX_GROUPS:
            return safe, mines
        groups |= new


def _apply_known(groups: set[Group], safe: set[Cell], mines: set[Cell]) -> set[Group]:
    """Remove decided cells from every group, checking that each stays possible."""
    if not safe and not mines:
        return groups
    out: set[Group] = set()
    for cells, need in groups:
        flagged = len(cells & mines)
        rest = cells - mines - safe
        need -= flagged
        if need < 0 or need > len(rest):
            raise ContradictionError(f"cells {sorted(cells)} cannot hold the mines their numbers say")
        if rest:
            out.add((frozenset(rest), need))
    return out


def _decide(cells: frozenset[Cell], low: int, high: int, safe: set[Cell], mines: set[Cell]) -> bool:
    """Cells holding between ``low`` and ``high`` mines: all safe when at most 0, all mines when at least
    as many as there are cells. Returns whether they were decided."""
    if high == 0:
        safe |= cells
        return True
    if low == len(cells):
        mines |= cells
        return True
    return False


def _decide_singles(groups: set[Group], safe: set[Cell], mines: set[Cell]) -> bool:
    found = False
    for cells, need in groups:
        found |= _decide(cells, need, need, safe, mines)
    if safe & mines:
        raise ContradictionError(f"cells {sorted(safe & mines)} would have to be both safe and mines")
    return found


def _decide_pairs(groups: set[Group], safe: set[Cell], mines: set[Cell]) -> tuple[bool, set[Group]]:
    """Pair reasoning on every two groups that share a cell; returns (decided any, derived groups)."""
    by_cell: dict[Cell, list[Group]] = {}
    for group in groups:
        for cell in group[0]:
            by_cell.setdefault(cell, []).append(group)
    seen: set[tuple[Group, Group]] = set()
    derived: set[Group] = set()
    found = False
    for members in by_cell.values():
        for i, first in enumerate(members):
            for second in members[i + 1 :]:
                if (first, second) in seen:
                    continue
                seen.add((first, second))
                found |= _decide_pair(first, second, safe, mines, derived)
    if safe & mines:
        raise ContradictionError(f"cells {sorted(safe & mines)} would have to be both safe and mines")
    return found, derived


def _decide_pair(first: Group, second: Group, safe: set[Cell], mines: set[Cell], derived: set[Group]) -> bool:
    (a_cells, a), (b_cells, b) = first, second
    inter = a_cells & b_cells
    a_only = a_cells - inter
    b_only = b_cells - inter
    lo = max(0, a - len(a_only), b - len(b_only))
    hi = min(len(inter), a, b)
    if lo > hi:
        raise ContradictionError(f"groups {sorted(a_cells)} and {sorted(b_cells)} contradict each other")
    found = False
    for only, total in ((a_only, a), (b_only, b)):
        if not only:
            continue
        if _decide(frozenset(only), total - hi, total - lo, safe, mines):
            found = True
        elif lo == hi:
            derived.add((frozenset(only), total - lo))
    if lo == hi and inter:
        if _decide(frozenset(inter), lo, hi, safe, mines):
            found = True
        elif a_only or b_only:
            derived.add((frozenset(inter), lo))
    return found
