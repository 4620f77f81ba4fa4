"""One board's analysis: certain cells and exact probabilities, before any move is chosen."""

from __future__ import annotations

from dataclasses import dataclass, field

from sweepbot.board import FLAG, Board, Cell
from sweepbot.solver.budget import ANALYSIS, Budget
from sweepbot.solver.deduce import deduce
from sweepbot.solver.move import Move
from sweepbot.solver.probability import mine_probabilities
from sweepbot.solver.problem import Constraint, Problem, build_problem


@dataclass
class Analysis:
    """What the solver found on one board; ``move`` is filled in by the chosen strategy."""

    board: Board
    safe: list[Cell]
    mines: list[Cell]
    probabilities: dict[Cell, float]
    move: Move | None = None
    exact: bool = True
    ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    problem: Problem | None = field(default=None, repr=False)
    weight: int = 0  # full layouts that fit the board (0 when unknown or estimated)
    constraints: list[Constraint] = field(default_factory=list, repr=False)  # after the deductions
    free_cells: list[Cell] = field(default_factory=list, repr=False)  # unknown cells the deductions left open
    free_mines: int | None = None  # mines among them, when the total is known

    @property
    def unknown(self) -> tuple[Cell, ...]:
        return self.problem.unknown if self.problem else ()

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


#: The work one board's exact count may take (about half a second of the reference machine; see
#: sweepbot.solver.budget): a frontier too large for it is estimated.
ANALYSIS_WORK = 500_000


def analyse(board: Board, mines: int | None = None, budget: Budget | None = None) -> Analysis:
    """Certain safe cells and mines (deductions, then exact counting) and every unknown cell's probability;
    the count within ``budget`` (else ANALYSIS_WORK).

    Raises ContradictionError when no mine layout fits the board."""
    return analyse_problem(board, build_problem(board, mines), budget)


def analyse_problem(board: Board, problem: Problem, budget: Budget | None = None) -> Analysis:
    """:func:`analyse` with the board's problem already built."""
    budget = Budget(ANALYSIS_WORK) if budget is None else budget
    budget.tally(ANALYSIS)
    if not problem.unknown:
        return Analysis(board, [], [], {}, problem=problem, weight=1)
    known_safe, known_mines = deduce(problem.constraints)
    reduced = reduce_constraints(problem.constraints, known_safe, known_mines)
    rest = [cell for cell in problem.unknown if cell not in known_safe and cell not in known_mines]
    left = None if problem.mines_left is None else problem.mines_left - len(known_mines)
    probs = mine_probabilities(rest, reduced, left, budget)
    probabilities = dict(probs.cells)
    probabilities.update(dict.fromkeys(known_safe, 0.0))
    probabilities.update(dict.fromkeys(known_mines, 1.0))
    notes = [] if probs.exact else ["frontier too large to enumerate in time: some probabilities estimated"]
    weight = probs.weight if probs.exact and left is not None else 0
    return Analysis(board, sorted(known_safe | probs.safe), sorted(known_mines | probs.mines), probabilities,
                    exact=probs.exact, notes=notes, problem=problem, weight=weight, constraints=reduced,
                    free_cells=rest, free_mines=left)


def reduce_constraints(constraints: tuple[Constraint, ...], safe: set[Cell], mines: set[Cell]) -> list[Constraint]:
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
