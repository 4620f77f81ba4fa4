"""What opening one cell could show: for each value, how many layouts give it and the board that follows.

When the mine total is known, ``Analysis.weight`` counts the full layouts that fit a board. Revealing a
cell x as value v leaves exactly the layouts where x is safe and has v mines around it, so the weight of
that hypothetical board over the current weight is the chance of seeing v.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sweepbot.board import FLAG, Board, Cell, neighbours
from sweepbot.solver.analysis import Analysis, analyse, analyse_problem
from sweepbot.solver.enumeration import BudgetExceeded
from sweepbot.solver.problem import ContradictionError, reveal_problem


@dataclass(frozen=True)
class Outcome:
    value: int
    chance: float  # of being safe and showing this value
    after: Analysis


def reveal(board: Board, cell: Cell, value: int) -> Board:
    return board.replace({cell: "." if value == 0 else str(value)})


def outcomes(analysis: Analysis, cell: Cell, time_limit: float = 0.05, deadline: float | None = None) -> list[Outcome]:
    """Every value ``cell`` can show, with its chance and the analysis of the board that follows.
    Needs an exact analysis with a known mine total (``analysis.weight`` > 0). Raises BudgetExceeded once
    ``deadline`` (monotonic) has passed, at the start of a value's analysis or at its end."""
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
        if deadline is not None:
            time_limit = min(time_limit, deadline - time.monotonic())
            if time_limit <= 0:
                raise BudgetExceeded
        try:
            revealed = reveal(board, cell, value)
            if problem is not None and problem.total_mines == board.mines:
                after = analyse_problem(revealed, reveal_problem(problem, board, cell, value), time_limit)
            else:
                after = analyse(revealed, board.mines, time_limit)
        except ContradictionError:
            continue
        if after.weight:
            result.append(Outcome(value, after.weight / analysis.weight, after))
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded  # the last analysis may have been cut short: estimated, not exact
    return result
