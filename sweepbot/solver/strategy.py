"""Strategies: which guessing steps the solver uses, by name, so variants can be compared on the same games.

A strategy is written ``basic`` or ``full``, optionally followed by ``+part`` or ``-part`` for the parts
(``full-endgame``, ``basic+secondary``); ``+endgame=N`` sets how many layouts the endgame search takes on
(``full+endgame=60``). ``basic`` is exact probabilities and the least risky cell; ``full`` adds ``dead``,
``fifty``, ``secondary``, ``blend`` (the board after a guess valued by its best three living cells rather than
its single safest one), ``endgame``, ``wide`` (the endgame search tried again on up to 1,000 layouts with up
to 1 s) and ``isolated``. ``near`` (off-frontier candidates touching the frontier) is there to compare; it did
not gain in measurement and is off in ``full``. So are ``deep`` (close calls between the two best candidates
settled one move further), ``dominate`` (JSMinesweeper's rule: a safer cell that is the next move whatever the
guess shows is opened first), ``offedge`` (JSMinesweeper's off-frontier candidates) and ``clears`` (ties in
secondary safety broken by the expected living safe cells to follow): measured, none gained.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sweepbot.errors import SweepbotError
from sweepbot.solver.analysis import Analysis
from sweepbot.solver.endgame import MAX_LAYOUTS, WIDE_LAYOUTS, WIDE_TIME_LIMIT, endgame_move, isolated_move
from sweepbot.solver.guesses import OutcomeCache, forced_fifty, lowest_risk, pseudo_fifty, secondary_safety
from sweepbot.solver.longterm import long_term_risk
from sweepbot.solver.move import Move, first_move

PARTS = ("dead", "fifty", "secondary", "endgame", "blend", "near", "isolated", "pseudo", "longterm", "deep",
         "dominate", "offedge", "clears", "wide")


@dataclass(frozen=True)
class Strategy:
    name: str = "full"
    dead: bool = True
    fifty: bool = True
    secondary: bool = True
    endgame: bool = True
    blend: bool = True  # best three living cells, 3:1:1: +0.55% modern, +0.78% and +0.45% classic (ninth)
    near: bool = False  # measured: -0.70% (n.s.) on the same games; off unless asked for
    isolated: bool = True
    pseudo: bool = False
    longterm: bool = False
    deep: bool = False  # close calls compared one move further (guesses.deep_choice)
    dominate: bool = False  # a safer cell that is the next move whatever the guess shows goes first
    offedge: bool = False  # JSMinesweeper's candidates off the frontier (guesses.offedge_shortlist)
    clears: bool = False  # ties in secondary safety go to the most living safe cells to follow
    wide: bool = True  # the endgame search again, up to WIDE_LAYOUTS layouts and WIDE_TIME_LIMIT seconds
    endgame_layouts: int = MAX_LAYOUTS


FULL = Strategy()
BASIC = Strategy("basic", **dict.fromkeys(PARTS, False))


def parse_strategy(text: str) -> Strategy:
    match = re.fullmatch(r"(basic|full)((?:[+-][a-z]+(?:=\d+)?)*)", text.strip())
    if not match:
        raise SweepbotError(f"unknown strategy {text!r}: use basic or full, then +part or -part ({', '.join(PARTS)})")
    parts = dict.fromkeys(PARTS, False) if match.group(1) == "basic" else {
        part: getattr(FULL, part) for part in PARTS}
    layouts = MAX_LAYOUTS
    for sign, part, number in re.findall(r"([+-])([a-z]+)(?:=(\d+))?", match.group(2)):
        if part not in PARTS:
            raise SweepbotError(f"unknown strategy part {part!r}: use {', '.join(PARTS)}")
        if number and part != "endgame":
            raise SweepbotError(f"only the endgame part takes a number, not {part!r}")
        parts[part] = sign == "+"
        layouts = int(number) if number else layouts
    return Strategy(text.strip(), **parts, endgame_layouts=layouts)


def choose_move(analysis: Analysis, strategy: Strategy, first_click: str) -> Move | None:
    """Every certain safe cell first; an untouched board's first move; then the strategy's guess."""
    board = analysis.board
    if analysis.safe:
        return Move("open", analysis.safe[0])
    choices = [cell for cell in analysis.probabilities if cell not in set(analysis.mines)]
    if not choices:
        return Move("flag", analysis.mines[0]) if analysis.mines else None
    problem = analysis.problem
    if problem is not None and not problem.constraints and len(problem.unknown) + problem.flags == board.size:
        return Move("open", first_move(board.rows, board.cols, first_click))
    if strategy.endgame:
        found = endgame_move(analysis, max_layouts=strategy.endgame_layouts)
        if found is None and strategy.wide:  # too many layouts, or out of time: once more, wider and longer
            found = endgame_move(analysis, time_limit=WIDE_TIME_LIMIT,
                                 max_layouts=max(WIDE_LAYOUTS, strategy.endgame_layouts))
        if found:
            return Move("open", found[0])
    if strategy.isolated:
        found = isolated_move(analysis, max_layouts=strategy.endgame_layouts)
        if found:
            return Move("open", found[0])
    if strategy.fifty:
        cell = forced_fifty(analysis)
        if cell:
            return Move("open", cell)
    cache: OutcomeCache = {}
    risk = long_term_risk(analysis) if strategy.pseudo or strategy.longterm else None
    if risk is not None and strategy.pseudo:
        cell = pseudo_fifty(analysis, risk, cache)
        if cell:
            return Move("open", cell)
    if strategy.secondary:
        cell = secondary_safety(analysis, cache, avoid_dead=strategy.dead, blend=strategy.blend,
                                near_frontier=strategy.near, risk=risk if strategy.longterm else None,
                                deep=strategy.deep, dominate=strategy.dominate, offedge=strategy.offedge,
                                clears=strategy.clears)
        if cell:
            return Move("open", cell)
    return Move("open", lowest_risk(analysis, cache, avoid_dead=strategy.dead))
