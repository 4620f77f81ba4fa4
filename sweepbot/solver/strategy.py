"""The move: every certain safe cell, else the first move, else a guess chosen by named steps in order.

``choose_move`` tries the steps one after the other and takes the first that gives a cell:

1. ``safe``: a cell that is certainly not a mine;
2. ``first move``: on an untouched board, the cell that suits the game's first-click rule;
3. ``endgame``: with few layouts left, the cell that wins the most of them, by a search of the whole game
   tree (``wide``: tried again on more layouts and for longer when the first search gives up);
4. ``isolated``: a region no other covered cell touches, searched on its own;
5. ``fifty``: a forced 50/50, which waiting cannot help, guessed now;
6. ``secondary``: the candidate with the best chance to survive and then have a safe move (``blend``: the
   board after it valued by its three best living cells), dead cells passed over (``dead``);
7. ``lowest risk``: the least likely mine (``dead``: a dead cell only if all are).

A strategy names which of these parts are on, so that variants can be compared on the same games
(``sweepbot bench --strategy full,full-blend``). It is written ``basic`` or ``full``, then ``+part`` or
``-part``; ``+endgame=N`` sets how many layouts the endgame search takes on, ``+budget=MS`` the time a move
may take (searches that would run past it give way to the next step; 0: no budget). ``full`` has every
part; ``basic`` none of them (exact probabilities and the least likely mine).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from sweepbot.board import Cell
from sweepbot.errors import SweepbotError
from sweepbot.solver import guesses
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.endgame import (
    MAX_LAYOUTS,
    TIME_LIMIT,
    WIDE_LAYOUTS,
    WIDE_TIME_LIMIT,
    endgame_move,
    isolated_move,
)
from sweepbot.solver.guesses import OutcomeCache, forced_fifty, lowest_risk, secondary_safety
from sweepbot.solver.move import Move, first_move

PARTS = ("dead", "fifty", "secondary", "endgame", "blend", "isolated", "wide")
#: the time a move may take, in seconds, from the start of the solve: the searches share what is left
MOVE_BUDGET = 0.045
#: of the time left, the share a search may take (the steps after it still get the rest)
SEARCH_SHARE = 0.6


@dataclass(frozen=True)
class Strategy:
    name: str = "full"
    dead: bool = True  # a cell that can only show one number is passed over while another is left
    fifty: bool = True  # a forced 50/50 is guessed at once
    secondary: bool = True  # secondary safety among the safest candidates
    endgame: bool = True  # the whole game tree searched when few layouts are left
    blend: bool = True  # secondary safety values the board after a guess by its three best living cells
    isolated: bool = True  # a region no other covered cell touches is searched on its own
    wide: bool = True  # the endgame search again, up to WIDE_LAYOUTS layouts and WIDE_TIME_LIMIT seconds
    endgame_layouts: int = MAX_LAYOUTS
    budget: float | None = MOVE_BUDGET  # seconds a move may take; None: the searches' own limits only


FULL = Strategy()
BASIC = Strategy("basic", **dict.fromkeys(PARTS, False))


def parse_strategy(text: str) -> Strategy:
    match = re.fullmatch(r"(basic|full)((?:[+-][a-z]+(?:=\d+)?)*)", text.strip())
    if not match:
        raise SweepbotError(f"unknown strategy {text!r}: use basic or full, then +part or -part ({', '.join(PARTS)})")
    parts = dict.fromkeys(PARTS, False) if match.group(1) == "basic" else {
        part: getattr(FULL, part) for part in PARTS}
    layouts = MAX_LAYOUTS
    budget: float | None = MOVE_BUDGET
    for sign, part, number in re.findall(r"([+-])([a-z]+)(?:=(\d+))?", match.group(2)):
        if part == "budget" and number and sign == "+":
            budget = int(number) / 1000 or None
            continue
        if part not in PARTS:
            raise SweepbotError(f"unknown strategy part {part!r}: use {', '.join(PARTS)} (or +budget=MS)")
        if number and part != "endgame":
            raise SweepbotError(f"only the endgame part (and +budget) takes a number, not {part!r}")
        parts[part] = sign == "+"
        layouts = int(number) if number else layouts
    return Strategy(text.strip(), **parts, endgame_layouts=layouts, budget=budget)


def search_time(deadline: float | None, limit: float) -> float:
    """The time a search may take: its own limit, or less when the move's budget runs out sooner."""
    if deadline is None:
        return limit
    return min(limit, max(0.0, (deadline - time.monotonic()) * SEARCH_SHARE))


Step = Callable[[Analysis, Strategy, str, OutcomeCache, float | None], Cell | None]


def certain_safe(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    return analysis.safe[0] if analysis.safe else None


def opening_move(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    """The first move of an untouched board (nothing known, nothing flagged)."""
    problem = analysis.problem
    board = analysis.board
    if problem is not None and not problem.constraints and len(problem.unknown) + problem.flags == board.size:
        return first_move(board.rows, board.cols, first_click)
    return None


def endgame(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    if not strategy.endgame:
        return None
    found = endgame_move(analysis, time_limit=search_time(deadline, TIME_LIMIT), max_layouts=strategy.endgame_layouts)
    if found is None and strategy.wide:  # too many layouts, or out of time: once more, wider and longer
        found = endgame_move(analysis, time_limit=search_time(deadline, WIDE_TIME_LIMIT),
                             max_layouts=max(WIDE_LAYOUTS, strategy.endgame_layouts))
    return found[0] if found else None


def isolated_region(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    if not strategy.isolated:
        return None
    found = isolated_move(analysis, time_limit=search_time(deadline, TIME_LIMIT), max_layouts=strategy.endgame_layouts)
    return found[0] if found else None


def fifty_fifty(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    return forced_fifty(analysis) if strategy.fifty else None


def secondary(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    if not strategy.secondary:
        return None
    return secondary_safety(analysis, cache, avoid_dead=strategy.dead, blend=strategy.blend,
                            time_limit=search_time(deadline, guesses.SECONDARY_TIME_LIMIT))


def least_risk(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 deadline: float | None) -> Cell | None:
    return lowest_risk(analysis, cache, avoid_dead=strategy.dead)


#: the steps of a guess, in order (after the certain safe cells and the first move)
STEPS: tuple[Step, ...] = (certain_safe, opening_move, endgame, isolated_region, fifty_fifty, secondary, least_risk)


def choose_move(analysis: Analysis, strategy: Strategy, first_click: str, started: float | None = None) -> Move | None:
    """The first cell that one of the STEPS gives, to open; a certain mine to flag when only mines are
    left covered; None when nothing is covered. ``started`` (monotonic) is when the move's time began (its
    analysis included); the strategy's budget counts from there."""
    if not analysis.safe and not [cell for cell in analysis.probabilities if cell not in set(analysis.mines)]:
        return Move("flag", analysis.mines[0]) if analysis.mines else None
    cache: OutcomeCache = {}
    begin = time.monotonic() if started is None else started
    deadline = None if strategy.budget is None else begin + strategy.budget
    for step in STEPS:
        cell = step(analysis, strategy, first_click, cache, deadline)
        if cell is not None:
            return Move("open", cell)
    return None
