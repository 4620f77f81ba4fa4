#!/usr/bin/env python3
"""The solver's slow moves on expert boards: how many moves take longer than a limit, and in which step.

    PYTHONPATH=. .venv/bin/python benchmarks/solver_tail.py [--games 300] [--seed 7000000] [--limit 50]
                                                          [--strategy full]

Plays ``--games`` simulated expert games (modern rules: the first click opens an area, first move (3,3)),
times every call of the solver, and prints one JSON object: moves, the 50th/99th percentile and the
slowest move in ms, the moves over ``--limit`` ms, and for those the step that took most of their time (a
named guessing step of the strategy, or "analysis" when the probabilities themselves took most of it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from sweepbot.game import LEVELS, Game
from sweepbot.solver import solve
from sweepbot.solver import strategy as strategy_module
from sweepbot.solver.strategy import parse_strategy


def timed_steps(spent: dict[str, float]) -> None:
    """Wrap the strategy's steps so that each call adds its seconds to ``spent`` under the step's name."""

    def wrap(step: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            start = time.perf_counter()
            try:
                return step(*args)
            finally:
                spent[step.__name__] = spent.get(step.__name__, 0.0) + time.perf_counter() - start

        run.__name__ = step.__name__
        return run

    strategy_module.STEPS = tuple(wrap(step) for step in strategy_module.STEPS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7_000_000, help="the first game's seed (then +1 a game)")
    parser.add_argument("--limit", type=float, default=50.0, help="ms a move may take (default 50)")
    parser.add_argument("--strategy", default="full")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    strategy = parse_strategy(args.strategy)
    spent: dict[str, float] = {}
    timed_steps(spent)
    times: list[float] = []
    slow: Counter[str] = Counter()
    for seed in range(args.seed, args.seed + args.games):
        game = Game(LEVELS["expert"], seed, "opening")
        game.open((3, 3))
        while game.state == "playing":
            spent.clear()
            start = time.perf_counter()
            analysis = solve(game.view(), first_click="opening", strategy=strategy)
            ms = (time.perf_counter() - start) * 1000
            times.append(ms)
            if ms > args.limit:
                step, seconds = max(spent.items(), key=lambda item: item[1], default=("analysis", 0.0))
                slow[step if seconds * 1000 > ms / 2 else "analysis"] += 1
            if analysis.move is None:
                break
            for cell in analysis.safe or [analysis.move.cell]:
                if game.state == "playing":
                    game.open(cell)
    print(json.dumps({
        "games": args.games, "seed": args.seed, "strategy": args.strategy, "moves": len(times),
        "ms_p50": round(percentile(times, 0.50), 2), "ms_p99": round(percentile(times, 0.99), 2),
        "ms_max": round(max(times), 1), "over_limit": sum(slow.values()), "limit_ms": args.limit,
        "over_limit_by_step": dict(slow),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
