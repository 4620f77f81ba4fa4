"""The frontier in the shape the enumeration wants: cells merged into classes, classes into components.

Cells that touch exactly the same numbers are interchangeable, so they are merged into one class: a class
of size s holding k mines stands for C(s, k) placements. Classes that share a number belong to the same
component; components are independent except through the total mine count.
"""

from __future__ import annotations

from dataclasses import dataclass

from sweepbot.board import Cell
from sweepbot.solver.problem import Constraint


@dataclass(frozen=True)
class Component:
    """Classes (lists of cells) and constraints over class indices: (class indices, mines)."""

    classes: tuple[tuple[Cell, ...], ...]
    constraints: tuple[tuple[tuple[int, ...], int], ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(cells) for cells in self.classes)


def split_frontier(constraints: list[Constraint]) -> list[Component]:
    """Merge cells by the constraints they touch and split the frontier into independent components."""
    touching: dict[Cell, list[int]] = {}
    for index, constraint in enumerate(constraints):
        for cell in constraint.cells:
            touching.setdefault(cell, []).append(index)
    by_key: dict[tuple[int, ...], list[Cell]] = {}
    for cell, indices in touching.items():
        by_key.setdefault(tuple(indices), []).append(cell)

    # union-find over constraints: a class joins all the constraints it touches
    parent = list(range(len(constraints)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for key in by_key:
        first = root(key[0])
        for other in key[1:]:
            parent[root(other)] = first

    grouped: dict[int, list[tuple[int, ...]]] = {}
    for key in by_key:
        grouped.setdefault(root(key[0]), []).append(key)

    components: list[Component] = []
    for keys in grouped.values():
        keys.sort(key=lambda k: sorted(by_key[k]))
        class_of = {key: i for i, key in enumerate(keys)}
        members: dict[int, list[int]] = {}
        for key in keys:
            for cons in key:
                members.setdefault(cons, []).append(class_of[key])
        comp_constraints = tuple(
            (tuple(classes), constraints[cons].mines) for cons, classes in sorted(members.items())
        )
        classes = tuple(tuple(sorted(by_key[key])) for key in keys)
        components.append(Component(classes, comp_constraints))
    components.sort(key=lambda comp: comp.classes[0][0])
    return components
