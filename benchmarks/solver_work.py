#!/usr/bin/env python3
"""What a unit of the solver's work costs on this machine: the searches' steps counted and timed.

    PYTHONPATH=. .venv/bin/python benchmarks/solver_work.py [--games 40] [--seed 5000000]

The solver counts its work in units (``sweepbot/solver/budget.py``), each kind of step charged what it costs
on the reference machine, so that a unit is about a microsecond there. This plays ``--games`` simulated expert
games, and on every board where the solver has to guess it runs each search with no limit: the exact count
(``analyse``), the endgame search and secondary safety. It counts each kind of step the search took, times it,
and fits the microseconds per step of each kind (least squares over the boards). It prints one JSON object:
per kind, the fitted microseconds per step beside the units charged for it; per search, the microseconds per
unit charged (1.0 when the charges fit this machine) at the median and the 99th percentile of the boards.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from sweepbot.game import LEVELS, Game
from sweepbot.solver import analysis as analysis_module
from sweepbot.solver import budget as budget_module
from sweepbot.solver import endgame, enumeration, guesses, solve
from sweepbot.solver.analysis import analyse
from sweepbot.solver.budget import Budget

#: each kind of step: the modules that charge it, by the name they import it under
KINDS = {
    "enumeration_node": [(enumeration, "ENUMERATION_NODE")],
    "layout_step": [(endgame, "LAYOUT_STEP")],
    "search_node_cell": [(endgame, "SEARCH_NODE_CELL")],
    "split_layout": [(endgame, "SPLIT_LAYOUT")],
    "analysis": [(analysis_module, "ANALYSIS")],
}
CHARGED = {"enumeration_node": budget_module.ENUMERATION_NODE, "layout_step": budget_module.LAYOUT_STEP,
           "search_node_cell": budget_module.SEARCH_NODE_CELL, "split_layout": budget_module.SPLIT_LAYOUT,
           "analysis": budget_module.ANALYSIS}


def guessing_boards(games: int, seed: int) -> list[Any]:
    """The boards of ``games`` expert games on which the solver had no certain safe cell."""
    boards = []
    for index in range(games):
        game = Game(LEVELS["expert"], seed + index, "opening")
        game.open((3, 3))
        while game.state == "playing":
            found = solve(game.view(), first_click="opening")
            if found.safe:
                for cell in found.safe:
                    game.open(cell)
            elif found.move is not None and found.move.action == "open":
                boards.append(game.view())
                game.open(found.move.cell)
            elif found.move is not None:
                game.flag(found.move.cell)
            else:
                break
    return boards


def counted(run: Any) -> tuple[dict[str, float], float, float]:
    """Each kind's steps in ``run()`` (every kind charged 1 in turn), its seconds, and the units it charges."""
    counts = {}
    for kind in KINDS:
        for other in KINDS:
            for module, name in KINDS[other]:
                setattr(module, name, 1.0 if other == kind else 0.0)
        budget = Budget()
        run(budget)
        counts[kind] = budget.spent
    for kind, places in KINDS.items():
        for module, name in places:
            setattr(module, name, CHARGED[kind])
    budget = Budget()
    start = time.perf_counter()
    run(budget)
    return counts, time.perf_counter() - start, budget.spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5_000_000)
    args = parser.parse_args()
    boards = guessing_boards(args.games, args.seed)
    searches = {
        "analysis": lambda board, budget: analyse(board, None, budget),
        "endgame": lambda board, budget: endgame.endgame_move(analyse(board), budget, endgame.WIDE_LAYOUTS),
        "secondary": lambda board, budget: guesses.secondary_safety(analyse(board), {}, True, True, budget),
    }
    rows: list[dict[str, float]] = []
    seconds: list[float] = []
    ratio: dict[str, list[float]] = {name: [] for name in searches}
    for board in boards:
        for name, search in searches.items():
            counts, took, units = counted(lambda budget, search=search, board=board: search(board, budget))
            if units >= 1000:  # too small a search times nothing but its own overhead
                rows.append(counts)
                seconds.append(took)
                ratio[name].append(took * 1e6 / units)
    kinds = list(KINDS)
    matrix = np.array([[row[k] for k in kinds] for row in rows])
    fitted, *_ = np.linalg.lstsq(matrix, np.array(seconds) * 1e6, rcond=None)
    print(json.dumps({
        "boards": len(boards), "searches_timed": len(rows),
        "us_per_step": {k: {"fitted": round(float(f), 3), "charged": CHARGED[k]} for k, f in zip(kinds, fitted,
                                                                                                  strict=True)},
        "us_per_unit": {name: {"p50": round(float(np.percentile(v, 50)), 3), "p99": round(float(np.percentile(v, 99)),
                                                                                            3), "searches": len(v)}
                        for name, v in ratio.items() if v},
    }, indent=1))


if __name__ == "__main__":
    main()
