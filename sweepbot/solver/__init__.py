"""The solver: from a Board, the certain safe cells and mines, exact probabilities and a move.

No screen and no mouse here: only plain data in and out. ``solve`` reads as its steps: analyse the board
(constraints, deductions, exact counting), then let the strategy choose the move.
"""

from __future__ import annotations

import time

from sweepbot.board import Board
from sweepbot.solver.analysis import Analysis, analyse
from sweepbot.solver.move import Move
from sweepbot.solver.problem import ContradictionError
from sweepbot.solver.strategy import FULL, Strategy, choose_move, parse_strategy

__all__ = ["Analysis", "ContradictionError", "Move", "Strategy", "parse_strategy", "solve"]


def solve(board: Board, mines: int | None = None, first_click: str = "opening", time_limit: float = 0.5,
          strategy: Strategy = FULL) -> Analysis:
    """Analyse ``board`` (``mines`` overrides its total) and choose a move.

    Raises ContradictionError when no mine layout fits the board."""
    start = time.perf_counter()
    started = time.monotonic()
    analysis = analyse(board, mines, time_limit)
    analysis.move = choose_move(analysis, strategy, first_click, started)
    analysis.ms = (time.perf_counter() - start) * 1000
    return analysis
