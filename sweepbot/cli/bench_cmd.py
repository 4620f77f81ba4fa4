"""``sweepbot bench``: play simulated games with the solver over every core and print the figures."""

from __future__ import annotations

import argparse
import json
import os
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sweepbot.board import Cell
from sweepbot.errors import SweepbotError
from sweepbot.game import FIRST_CLICK_RULES, parse_level
from sweepbot.simulate import (
    BenchSettings,
    BenchSummary,
    paired_difference,
    percentile,
    play_many,
    wilson_interval,
)
from sweepbot.solver.strategy import PARTS, Strategy, parse_strategy

#: more processes than this only fight over the cores and memory of any machine it runs on
MAX_WORKERS = 256


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "bench", help="play simulated games and report the win rate and speed",
        description="Play simulated games with the solver (no screen, no mouse) and report the win rate with its "
        "95% interval and the time per move. The same seed gives the same boards, so strategies can be compared "
        "on the same games.")
    parser.add_argument("--level", default="expert", help="beginner, intermediate, expert or COLSxROWS/MINES")
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the same seed gives the same boards")
    parser.add_argument("--first-click", choices=FIRST_CLICK_RULES, help="the game's first-click rule: the first "
                        "click and its neighbours are never mines (opening, default), the first click is never a mine "
                        "(safe), or no protection (none)", default="opening")
    parser.add_argument("--first-move", metavar="R,C", help="the first cell to open (default: the solver's)")
    parser.add_argument("--strategy", default="full",
                        help="solver strategy, or several separated by commas to compare them on the same games: "
                        f"basic or full, then +part/-part ({', '.join(PARTS)}; "
                        "+endgame=N: the endgame search's layouts); default full")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    return parser


def parse_cell(text: str) -> Cell:
    try:
        r, c = (int(part) for part in text.split(","))
    except ValueError:
        raise SweepbotError(f"--first-move wants ROW,COL, not {text!r}") from None
    return (r, c)


def run(args: argparse.Namespace) -> int:
    level = parse_level(args.level)
    if args.games < 1:
        raise SweepbotError("--games must be at least 1")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise SweepbotError(f"--workers must be from 1 to {MAX_WORKERS}, not {args.workers}")
    first = parse_cell(args.first_move) if args.first_move else None
    if first and not (0 <= first[0] < level.rows and 0 <= first[1] < level.cols):
        raise SweepbotError(f"--first-move {first} is outside the {level.rows}x{level.cols} board")
    strategies = [parse_strategy(name) for name in args.strategy.split(",")]
    summaries: list[BenchSummary] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        for strategy in strategies:
            settings = BenchSettings(level, args.first_click, first, args.seed, strategy)
            task = progress.add_task(f"{level.text} {args.first_click} {strategy.name}", total=args.games)
            results = play_many(settings, args.games, args.workers)
            summaries.append(BenchSummary.collect(results, partial(progress.advance, task)))
    if args.json:
        print(json.dumps(bench_json(strategies, summaries)))
        return 0
    for strategy, summary in zip(strategies, summaries, strict=True):
        lo, hi = wilson_interval(summary.wins, summary.games)
        print(f"{level.text}, first click {args.first_click}, first move {first or 'solver'}, "
              f"strategy {strategy.name}: {summary.wins}/{summary.games} won = {summary.wins / summary.games:.2%} "
              f"(95% CI {lo:.2%}-{hi:.2%})")
        print(f"  ms per move: p50 {percentile(summary.solve_ms, 50):.3f}, "
              f"p99 {percentile(summary.solve_ms, 99):.3f}, max {max(summary.solve_ms, default=0.0):.3f}; "
              f"ms per game: {sum(summary.game_ms) / summary.games:.1f}; "
              f"first moves: {sorted(summary.first_moves)[:4]}")
    for strategy, summary in zip(strategies[1:], summaries[1:], strict=True):
        diff, lo, hi = paired_difference(summaries[0].outcomes, summary.outcomes)
        print(f"{strategy.name} vs {strategies[0].name}: {diff:+.2%} (95% CI {lo:+.2%} to {hi:+.2%})")
    return 0


def bench_json(strategies: list[Strategy], summaries: list[BenchSummary]) -> dict[str, object]:
    """One strategy: the figures of docs/formats.md (plus its name); several: each, and each one's difference
    from the first on the same games."""
    def figures(strategy: Strategy, summary: BenchSummary) -> dict[str, object]:
        out = summary.to_json()
        out["strategy"] = strategy.name
        out["first_moves"] = [list(cell) for cell in sorted(summary.first_moves)[:10]]
        return out

    if len(strategies) == 1:
        return figures(strategies[0], summaries[0])
    differences = []
    for strategy, summary in zip(strategies[1:], summaries[1:], strict=True):
        diff, lo, hi = paired_difference(summaries[0].outcomes, summary.outcomes)
        differences.append({"strategy": strategy.name, "versus": strategies[0].name, "diff": round(diff, 5),
                            "ci95": [round(lo, 5), round(hi, 5)]})
    return {"strategies": [figures(s, m) for s, m in zip(strategies, summaries, strict=True)],
            "differences": differences}
