"""Every solution of one frontier component, counted by mine count, by backtracking over its classes.

For a component the result holds, for each number m of mines it could contain, the weight W[m] (the number
of cell-level placements with m mines) and for each class the weighted sum of mines it holds, S[class][m].
Bounds from every constraint of the class being assigned prune the search: a constraint with one class left
forces that class's count.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from sweepbot.solver.budget import ENUMERATION_NODE, Budget
from sweepbot.solver.frontier import Component

#: Nodes counted between two charges to the budget.
CHARGE_EVERY = 1024


@dataclass(frozen=True)
class ComponentCounts:
    weights: list[int]  # weights[m]: placements with m mines in the component
    mine_sums: list[list[int]]  # mine_sums[class][m]: sum over those placements of mines in the class
    exact: bool = True


def search_order(component: Component) -> list[int]:
    """Classes in an order that closes constraints early: next is the class most tied to those placed."""
    n = len(component.classes)
    var_cons: list[list[int]] = [[] for _ in range(n)]
    for index, (classes, _) in enumerate(component.constraints):
        for v in classes:
            var_cons[v].append(index)
    open_count = [len(classes) for classes, _ in component.constraints]
    placed = [False] * n
    started = [False] * len(component.constraints)
    order: list[int] = []
    for _ in range(n):
        best, best_key = -1, (-1, -1, -1)
        for v in range(n):
            if placed[v]:
                continue
            closing = sum(1 for c in var_cons[v] if open_count[c] == 1)
            touching = sum(1 for c in var_cons[v] if started[c])
            key = (touching + 2 * closing, len(var_cons[v]), -v)
            if key > best_key:
                best, best_key = v, key
        placed[best] = True
        order.append(best)
        for c in var_cons[best]:
            open_count[c] -= 1
            started[c] = True
    return order


def enumerate_component(component: Component, budget: Budget | None = None) -> ComponentCounts:
    """Count every solution of the component. Raises BudgetExceeded once ``budget`` is spent."""
    sizes = component.sizes
    n = len(sizes)
    targets = [mines for _, mines in component.constraints]
    var_cons: list[list[int]] = [[] for _ in range(n)]
    for index, (classes, _) in enumerate(component.constraints):
        for v in classes:
            var_cons[v].append(index)
    rem_target = targets[:]
    rem_cap = [sum(sizes[v] for v in classes) for classes, _ in component.constraints]
    order = search_order(component)
    order_sizes = [sizes[v] for v in order]
    order_cons = [var_cons[v] for v in order]
    order_combs = [[comb(s, k) for k in range(s + 1)] for s in order_sizes]
    max_mines = sum(sizes)
    weights = [0] * (max_mines + 1)
    sums = [[0] * (max_mines + 1) for _ in range(n)]
    values = [0] * n
    nodes = 0

    def place(i: int, mines: int, weight: int) -> None:
        nonlocal nodes
        nodes += 1
        if budget is not None and not nodes % CHARGE_EVERY:
            budget.spend(CHARGE_EVERY * ENUMERATION_NODE)
        if i == n:
            weights[mines] += weight
            for j in range(n):
                if values[j]:
                    sums[j][mines] += weight * values[j]
            return
        size = order_sizes[i]
        cons = order_cons[i]
        lo, hi = 0, size
        for c in cons:
            t = rem_target[c]
            if t < hi:
                hi = t
            low = t - rem_cap[c] + size
            if low > lo:
                lo = low
        if lo > hi:
            return
        for c in cons:
            rem_cap[c] -= size
        combs = order_combs[i]
        for k in range(lo, hi + 1):
            for c in cons:
                rem_target[c] -= k
            values[i] = k
            place(i + 1, mines + k, weight * combs[k])
            for c in cons:
                rem_target[c] += k
        values[i] = 0
        for c in cons:
            rem_cap[c] += size

    place(0, 0, 1)
    if budget is not None:
        budget.spend(nodes % CHARGE_EVERY * ENUMERATION_NODE)
    mine_sums = [[0] * (max_mines + 1) for _ in range(n)]
    for i, v in enumerate(order):
        mine_sums[v] = sums[i]
    return ComponentCounts(weights, mine_sums)


def estimate_component(component: Component) -> ComponentCounts:
    """A stand-in for a component too large to enumerate: each class gets the highest mine density of
    its constraints (a cautious estimate), and the component one mine count, the rounded expected total."""
    sizes = component.sizes
    density = [0.0] * len(sizes)
    for classes, mines in component.constraints:
        ratio = mines / sum(sizes[v] for v in classes)
        for v in classes:
            density[v] = max(density[v], ratio)
    expected = [d * s for d, s in zip(density, sizes, strict=True)]
    total = min(sum(sizes), round(sum(expected)))
    scale = 10**9
    weights = [0] * (sum(sizes) + 1)
    weights[total] = scale
    mine_sums = [[0] * (sum(sizes) + 1) for _ in sizes]
    for v, value in enumerate(expected):
        mine_sums[v][total] = round(value * scale)
    return ComponentCounts(weights, mine_sums, exact=False)
