"""``sweepbot bench``: play simulated games with the solver over every core and print the figures."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sweepbot.board import Cell
from sweepbot.errors import SweepbotError
from sweepbot.game import FIRST_CLICK_RULES, parse_level
from sweepbot.simulate import BenchSettings, BenchSummary, percentile, play_many, wilson_interval


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "bench", help="play simulated games and report the win rate and speed")
    parser.add_argument("--level", default="expert", help="beginner, intermediate, expert or COLSxROWS/MINES")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="the same seed gives the same boards")
    parser.add_argument("--first-click", choices=FIRST_CLICK_RULES, default="opening")
    parser.add_argument("--first-move", metavar="R,C", help="the first cell to open (default: the solver's)")
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
    first = parse_cell(args.first_move) if args.first_move else None
    if first and not (0 <= first[0] < level.rows and 0 <= first[1] < level.cols):
        raise SweepbotError(f"--first-move {first} is outside the {level.rows}x{level.cols} board")
    settings = BenchSettings(level, args.first_click, first, args.seed)
    results = play_many(settings, args.games, max(1, args.workers))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{level.text} {args.first_click}", total=args.games)
        summary = BenchSummary.collect(results, lambda: progress.advance(task))
    if args.json:
        print(json.dumps(summary.to_json()))
        return 0
    lo, hi = wilson_interval(summary.wins, summary.games)
    print(f"{level.text}, first click {args.first_click}, first move {first or 'solver'}: "
          f"{summary.wins}/{summary.games} won = {summary.wins / summary.games:.2%} (95% CI {lo:.2%}-{hi:.2%})")
    print(f"ms per move: p50 {percentile(summary.solve_ms, 50):.3f}, p99 {percentile(summary.solve_ms, 99):.3f}, "
          f"max {max(summary.solve_ms, default=0.0):.3f}; "
          f"ms per game: {sum(summary.game_ms) / summary.games:.1f}")
    return 0
