"""Exact mine probabilities: combine the components by mine count and weigh in the off-frontier cells.

With R mines left and O unknown cells off the frontier, a frontier placement with M mines stands for
C(O, R - M) full boards. So the weight of a set of component solutions is the product of their weights
times C(O, R - M). All sums are Python integers, hence exact; only the final division is a float.
When the total is unknown each frontier mine is weighed at odds 1:4 (a density of 1/5, near the
standard levels'), and off-frontier cells get that density.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from sweepbot.board import Cell
from sweepbot.solver.budget import Budget, BudgetExceeded
from sweepbot.solver.enumeration import ComponentCounts, enumerate_component, estimate_component
from sweepbot.solver.frontier import Component, split_frontier
from sweepbot.solver.problem import Constraint, ContradictionError

UNKNOWN_TOTAL_ODDS = 4  # off-frontier density 1 / (1 + 4) when the mine total is not known


@dataclass
class Probabilities:
    """Mine probability of every unknown cell; ``safe``/``mines`` are the cells at exactly 0 and 1."""

    cells: dict[Cell, float]
    safe: set[Cell] = field(default_factory=set)
    mines: set[Cell] = field(default_factory=set)
    off_frontier: float | None = None
    exact: bool = True
    weight: int = 0  # how many full layouts fit (when the total is known and every component is exact)
    components: list[Component] = field(default_factory=list)


def convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def mine_probabilities(
    unknown: list[Cell],
    constraints: list[Constraint],
    mines_left: int | None,
    budget: Budget | None = None,
) -> Probabilities:
    """Probabilities for ``unknown`` cells under ``constraints`` with ``mines_left`` among them.

    Components that cannot be enumerated within ``budget`` get an estimate (then ``exact`` is False).
    Raises ContradictionError when no placement fits.
    """
    components = split_frontier(constraints)
    frontier = {cell for comp in components for cls in comp.classes for cell in cls}
    off = [cell for cell in unknown if cell not in frontier]
    n_off = len(off)

    counts: list[ComponentCounts] = []
    for comp in components:
        try:
            counts.append(enumerate_component(comp, budget))
        except BudgetExceeded:
            counts.append(estimate_component(comp))
        if not any(counts[-1].weights):
            raise ContradictionError(f"the numbers around {comp.classes[0][0]} have no consistent placement")

    # distribution of mines over all-but-one component, by prefix and suffix products
    k = len(counts)
    prefix = [[1]]
    for cc in counts:
        prefix.append(convolve(prefix[-1], cc.weights))
    suffix = [[1]] * (k + 1)
    for i in range(k - 1, -1, -1):
        suffix[i] = convolve(counts[i].weights, suffix[i + 1])
    total_dist = prefix[k]

    def outside(m: int) -> int:
        """Weight of the off-frontier cells when the frontier holds m mines."""
        if mines_left is None:
            return UNKNOWN_TOTAL_ODDS ** (len(total_dist) - 1 - m)
        rest = mines_left - m
        return comb(n_off, rest) if 0 <= rest <= n_off else 0

    outside_w = [outside(m) for m in range(len(total_dist))]
    z = sum(w * o for w, o in zip(total_dist, outside_w, strict=True))
    if z == 0:
        raise ContradictionError(
            f"no placement of the {mines_left} remaining mines fits the numbers" if mines_left is not None
            else "the numbers have no consistent placement"
        )

    result = Probabilities({}, exact=all(cc.exact for cc in counts), weight=z, components=components)
    for i, (comp, cc) in enumerate(zip(components, counts, strict=True)):
        others = convolve(prefix[i], suffix[i + 1])
        factor = [
            sum(o * outside_w[m + j] for j, o in enumerate(others) if o)
            for m in range(len(cc.weights))
        ]
        for cls, sums in zip(comp.classes, cc.mine_sums, strict=True):
            numerator = sum(s * f for s, f in zip(sums, factor, strict=True))
            denominator = z * len(cls)
            p = numerator / denominator
            for cell in cls:
                result.cells[cell] = p
            if numerator == 0 and cc.exact:
                result.safe.update(cls)
            elif numerator == denominator and cc.exact:
                result.mines.update(cls)

    if n_off:
        if mines_left is None:
            p_off = 1 / (1 + UNKNOWN_TOTAL_ODDS)
            exact_zero = exact_one = False
        else:
            expected = sum(w * o * (mines_left - m) for m, (w, o) in enumerate(zip(total_dist, outside_w,
                                                                                    strict=True)))
            p_off = expected / (z * n_off)
            exact_zero, exact_one = expected == 0, expected == z * n_off
        result.off_frontier = p_off
        for cell in off:
            result.cells[cell] = p_off
        if exact_zero and result.exact:
            result.safe.update(off)
        elif exact_one and result.exact:
            result.mines.update(off)
    return result
