"""The solver: from a Board, the certain safe cells and mines, exact probabilities and a move.

No screen and no mouse here: only plain data in and out. ``solve`` reads as its steps.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sweepbot.board import FLAG, Board, Cell
from sweepbot.solver.deduce import deduce
from sweepbot.solver.move import Move, first_move, guess
from sweepbot.solver.probability import mine_probabilities
from sweepbot.solver.problem import Constraint, ContradictionError, Problem, build_problem

__all__ = ["Analysis", "ContradictionError", "Move", "solve"]


@dataclass
class Analysis:
    """What the solver found on one board."""

    board: Board
    safe: list[Cell]
    mines: list[Cell]
    probabilities: dict[Cell, float]
    move: Move | None
    exact: bool = True
    ms: float = 0.0
    notes: list[str] = field(default_factory=list)

    def probability_grid(self) -> list[list[float | None]]:
        """Per cell: mine probability for covered cells (1 for flags), None for revealed ones."""
        grid: list[list[float | None]] = []
        for r in range(self.board.rows):
            row: list[float | None] = []
            for c in range(self.board.cols):
                if (r, c) in self.probabilities:
                    row.append(self.probabilities[(r, c)])
                elif self.board[(r, c)] == FLAG:
                    row.append(1.0)
                else:
                    row.append(None)
            grid.append(row)
        return grid

    def to_json(self) -> dict[str, object]:
        return {
            "safe": [list(cell) for cell in self.safe],
            "mines": [list(cell) for cell in self.mines],
            "probabilities": self.probability_grid(),
            "move": self.move.to_json() if self.move else None,
            "exact": self.exact,
            "ms": round(self.ms, 3),
        }


def solve(board: Board, mines: int | None = None, first_click: str = "opening",
          time_limit: float = 0.5) -> Analysis:
    """Analyse ``board`` (``mines`` overrides its total). Raises ContradictionError if it is impossible."""
    start = time.perf_counter()
    problem = build_problem(board, mines)
    if not problem.unknown:
        return Analysis(board, [], [], {}, None, ms=(time.perf_counter() - start) * 1000)
    analysis = _analyse(board, problem, time_limit)
    untouched = len(problem.unknown) + problem.flags == board.rows * board.cols
    if untouched and not analysis.safe and problem.mines_left != len(problem.unknown):
        analysis.move = Move("open", first_move(board.rows, board.cols, first_click))
    analysis.ms = (time.perf_counter() - start) * 1000
    return analysis


def _analyse(board: Board, problem: Problem, time_limit: float) -> Analysis:
    known_safe, known_mines = deduce(problem.constraints)
    reduced = _reduce(problem.constraints, known_safe, known_mines)
    rest = [cell for cell in problem.unknown if cell not in known_safe and cell not in known_mines]
    left = None if problem.mines_left is None else problem.mines_left - len(known_mines)
    probs = mine_probabilities(rest, reduced, left, time_limit)
    probabilities = dict(probs.cells)
    probabilities.update(dict.fromkeys(known_safe, 0.0))
    probabilities.update(dict.fromkeys(known_mines, 1.0))
    safe = sorted(known_safe | probs.safe)
    certain_mines = sorted(known_mines | probs.mines)
    if safe:
        move = Move("open", safe[0])
    else:
        open_choices = {cell: p for cell, p in probabilities.items() if cell not in probs.mines
                        and cell not in known_mines}
        if open_choices:
            move = Move("open", guess(open_choices, set(problem.unknown), board.rows, board.cols))
        else:
            move = Move("flag", certain_mines[0])
    notes = [] if probs.exact else ["frontier too large to enumerate in time: some probabilities estimated"]
    return Analysis(board, safe, certain_mines, probabilities, move, probs.exact, notes=notes)


def _reduce(constraints: tuple[Constraint, ...], safe: set[Cell], mines: set[Cell]) -> list[Constraint]:
    """The constraints on the cells the deductions left open, without repeats."""
    seen: set[tuple[frozenset[Cell], int]] = set()
    out: list[Constraint] = []
    for con in constraints:
        rest = con.cells - safe - mines
        if not rest:
            continue
        key = (frozenset(rest), con.mines - len(con.cells & mines))
        if key not in seen:
            seen.add(key)
            out.append(Constraint(key[0], key[1], con.source))
    return out
