"""What opening one cell could show: for each value, how many layouts give it and the board that follows.

When the mine total is known, ``Analysis.weight`` counts the full layouts that fit a board. Revealing a
cell x as value v leaves exactly the layouts where x is safe and has v mines around it, so the weight of
that hypothetical board over the current weight is the chance of seeing v.
"""

from __future__ import annotations

from dataclasses import dataclass

from sweepbot.board import FLAG, Board, Cell, neighbours
from sweepbot.solver.analysis import Analysis, analyse, analyse_problem
from sweepbot.solver.budget import Budget, BudgetExceeded
from sweepbot.solver.problem import ContradictionError, reveal_problem

#: The work one board after a guess may take to count (see sweepbot.solver.budget): a larger one is estimated,
#: and the outcome left out.
OUTCOME_WORK = 50_000


@dataclass(frozen=True)
class Outcome:
    value: int
    chance: float  # of being safe and showing this value
    after: Analysis


def reveal(board: Board, cell: Cell, value: int) -> Board:
    return board.replace({cell: "." if value == 0 else str(value)})


def outcomes(analysis: Analysis, cell: Cell, budget: Budget | None = None) -> list[Outcome]:
    """Every value ``cell`` can show, with its chance and the analysis of the board that follows (each counted
    within OUTCOME_WORK). Needs an exact analysis with a known mine total (``analysis.weight`` > 0). Raises
    BudgetExceeded once ``budget`` is spent, at the start of a value's analysis or at its end."""
    board = analysis.board
    if not analysis.weight:
        raise ValueError("outcomes need an exact analysis with a known mine total")
    around = list(neighbours(cell, board.rows, board.cols))
    certain = set(analysis.mines)
    low = sum(1 for n in around if board[n] == FLAG or n in certain)
    high = low + sum(1 for n in around if n in analysis.probabilities and board[n] != FLAG and n not in certain)
    problem = analysis.problem
    result: list[Outcome] = []
    for value in range(low, high + 1):
        if budget is not None and budget.exhausted:
            raise BudgetExceeded
        work = Budget(OUTCOME_WORK) if budget is None else budget.part(OUTCOME_WORK)
        try:
            revealed = reveal(board, cell, value)
            if problem is not None and problem.total_mines == board.mines:
                after = analyse_problem(revealed, reveal_problem(problem, board, cell, value), work)
            else:
                after = analyse(revealed, board.mines, work)
        except ContradictionError:
            continue
        if after.weight:
            result.append(Outcome(value, after.weight / analysis.weight, after))
    if budget is not None and budget.exhausted:
        raise BudgetExceeded  # the last analysis may have been cut short: estimated, not exact
    return result
