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
``-part``; ``+endgame=N`` sets how many layouts the endgame search takes on, ``+budget=K`` the work a move
may take, in thousands of units (about milliseconds of the reference machine, see ``solver/budget.py``;
searches that would run past it give way to the next step; 0: no budget). ``full`` has every
part; ``basic`` none of them (exact probabilities and the least likely mine).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sweepbot.board import Cell
from sweepbot.errors import SweepbotError
from sweepbot.solver import endgame as search
from sweepbot.solver import guesses
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.budget import Budget
from sweepbot.solver.endgame import MAX_LAYOUTS, WIDE_LAYOUTS, endgame_move, isolated_move
from sweepbot.solver.guesses import OutcomeCache, forced_fifty, lowest_risk, secondary_safety
from sweepbot.solver.move import Move, first_move

PARTS = ("dead", "fifty", "secondary", "endgame", "blend", "isolated", "wide")
#: the work a move may take, its analysis included, in units (see sweepbot.solver.budget): the searches share
#: what the analysis left
MOVE_BUDGET = 45_000
#: of the work left, the share a search may take (the steps after it still get the rest)
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
    wide: bool = True  # the endgame search again, up to WIDE_LAYOUTS layouts and WIDE_WORK units
    endgame_layouts: int = MAX_LAYOUTS
    budget: int | None = MOVE_BUDGET  # units of work a move may take; None: the searches' own limits only


FULL = Strategy()
BASIC = Strategy("basic", **dict.fromkeys(PARTS, False))


def parse_strategy(text: str) -> Strategy:
    match = re.fullmatch(r"(basic|full)((?:[+-][a-z]+(?:=\d+)?)*)", text.strip())
    if not match:
        raise SweepbotError(f"unknown strategy {text!r}: use basic or full, then +part or -part ({', '.join(PARTS)})")
    parts = dict.fromkeys(PARTS, False) if match.group(1) == "basic" else {
        part: getattr(FULL, part) for part in PARTS}
    layouts = MAX_LAYOUTS
    budget: int | None = MOVE_BUDGET
    for sign, part, number in re.findall(r"([+-])([a-z]+)(?:=(\d+))?", match.group(2)):
        if part == "budget" and number and sign == "+":
            budget = int(number) * 1000 or None
            continue
        if part not in PARTS:
            raise SweepbotError(f"unknown strategy part {part!r}: use {', '.join(PARTS)} (or +budget=MS)")
        if number and part != "endgame":
            raise SweepbotError(f"only the endgame part (and +budget) takes a number, not {part!r}")
        parts[part] = sign == "+"
        layouts = int(number) if number else layouts
    return Strategy(text.strip(), **parts, endgame_layouts=layouts, budget=budget)


Step = Callable[[Analysis, Strategy, str, OutcomeCache, Budget], Cell | None]


def certain_safe(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    return analysis.safe[0] if analysis.safe else None


def opening_move(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    """The first move of an untouched board (nothing known, nothing flagged)."""
    problem = analysis.problem
    board = analysis.board
    if problem is not None and not problem.constraints and len(problem.unknown) + problem.flags == board.size:
        return first_move(board.rows, board.cols, first_click)
    return None


def endgame(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    if not strategy.endgame:
        return None
    found = endgame_move(analysis, budget.part(search.WORK, SEARCH_SHARE), max_layouts=strategy.endgame_layouts)
    if found is None and strategy.wide:  # too many layouts, or out of work: once more, wider and longer
        found = endgame_move(analysis, budget.part(search.WIDE_WORK, SEARCH_SHARE),
                             max_layouts=max(WIDE_LAYOUTS, strategy.endgame_layouts))
    return found[0] if found else None


def isolated_region(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    if not strategy.isolated:
        return None
    found = isolated_move(analysis, budget.part(search.WORK, SEARCH_SHARE), max_layouts=strategy.endgame_layouts)
    return found[0] if found else None


def fifty_fifty(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    return forced_fifty(analysis) if strategy.fifty else None


def secondary(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    if not strategy.secondary:
        return None
    return secondary_safety(analysis, cache, avoid_dead=strategy.dead, blend=strategy.blend,
                            budget=budget.part(guesses.SECONDARY_WORK, SEARCH_SHARE))


def least_risk(analysis: Analysis, strategy: Strategy, first_click: str, cache: OutcomeCache,
                 budget: Budget) -> Cell | None:
    return lowest_risk(analysis, cache, avoid_dead=strategy.dead)


#: the steps of a guess, in order (after the certain safe cells and the first move)
STEPS: tuple[Step, ...] = (certain_safe, opening_move, endgame, isolated_region, fifty_fifty, secondary, least_risk)


def choose_move(analysis: Analysis, strategy: Strategy, first_click: str, budget: Budget | None = None) -> Move | None:
    """The first cell that one of the STEPS gives, to open; a certain mine to flag when only mines are
    left covered; None when nothing is covered. ``budget`` is the move's work (its analysis already charged
    to it; else the strategy's whole budget)."""
    if not analysis.safe and not [cell for cell in analysis.probabilities if cell not in set(analysis.mines)]:
        return Move("flag", analysis.mines[0]) if analysis.mines else None
    cache: OutcomeCache = {}
    budget = Budget(strategy.budget) if budget is None else budget
    for step in STEPS:
        cell = step(analysis, strategy, first_click, cache, budget)
        if cell is not None:
            return Move("open", cell)
    return None
