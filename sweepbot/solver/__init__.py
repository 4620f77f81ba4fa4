"""The solver: from a Board, the certain safe cells and mines, exact probabilities and a move.

No screen and no mouse here: only plain data in and out. ``solve`` reads as its steps: analyse the board
(constraints, deductions, exact counting), then let the strategy choose the move.
"""

from __future__ import annotations

import time

from sweepbot.board import Board
from sweepbot.solver.analysis import ANALYSIS_WORK, Analysis, analyse
from sweepbot.solver.budget import Budget
from sweepbot.solver.move import Move
from sweepbot.solver.problem import ContradictionError
from sweepbot.solver.strategy import FULL, Strategy, choose_move, parse_strategy

__all__ = ["Analysis", "Budget", "ContradictionError", "Move", "Strategy", "parse_strategy", "solve"]


def solve(board: Board, mines: int | None = None, first_click: str = "opening", work: int = ANALYSIS_WORK,
          strategy: Strategy = FULL) -> Analysis:
    """Analyse ``board`` (``mines`` overrides its total; the exact count within ``work`` units, see
    ``solver/budget.py``) and choose a move within the strategy's budget, of which the analysis takes its
    share. The same board gets the same move on any machine. ``analysis.ms`` is the time it took here.

    Raises ContradictionError when no mine layout fits the board."""
    start = time.perf_counter()
    move = Budget(strategy.budget)
    count = Budget(work)
    analysis = analyse(board, mines, count)
    move.tally(count.spent)
    analysis.move = choose_move(analysis, strategy, first_click, move)
    analysis.ms = (time.perf_counter() - start) * 1000
    return analysis
