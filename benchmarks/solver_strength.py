#!/usr/bin/env python3
"""The solver-strength runs of docs/figures.md (its "Solver strength" section), one `sweepbot bench --json` each,
results kept as JSON files.

    .venv/bin/python benchmarks/solver_strength.py --out out/strength [--games 10000] [--seed 1] [--workers N] [RUN ...]

RUN is one of the names below (default: all, in that order). Each run writes ``<out>/<run>.json`` with the
command that made it, and prints one line: games, win rate with its 95% interval, ms per move (p50, p99,
max), ms per game, the first moves played. Runs take every core; start them in the background.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from checkout import env as checkout_env
from checkout import sweepbot

MODERN = ["--first-click", "opening", "--first-move", "3,3"]
CLASSIC = ["--first-click", "safe", "--first-move", "0,0"]
RUNS: dict[str, list[str]] = {
    "expert-modern": ["--level", "expert", *MODERN],
    "expert-classic": ["--level", "expert", *CLASSIC],
    "beginner-modern": ["--level", "beginner", "--first-click", "opening"],
    "intermediate-modern": ["--level", "intermediate", "--first-click", "opening"],
    "beginner-classic": ["--level", "beginner", "--first-click", "safe"],
    "intermediate-classic": ["--level", "intermediate", "--first-click", "safe"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="*", default=[], metavar="RUN", help=", ".join(RUNS))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategy", default="full")
    parser.add_argument("--workers", type=int, help="processes per run (default: every core)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.runs if name not in RUNS]
    if unknown:
        parser.error(f"unknown runs {unknown}: choose from {', '.join(RUNS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.runs or list(RUNS):
        command = [*sweepbot(), "bench", "--json", "--games", str(args.games),
                   "--seed", str(args.seed), "--strategy", args.strategy, *RUNS[name]]
        if args.workers:
            command += ["--workers", str(args.workers)]
        start = time.monotonic()
        done = subprocess.run(command, env=checkout_env(), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"{name}: failed: {done.stderr.strip()[-500:]}", file=sys.stderr)
            return 1
        figures = json.loads(done.stdout)
        figures["command"] = "sweepbot " + " ".join(command[3:])
        figures["wall_seconds"] = round(time.monotonic() - start, 1)
        (args.out / f"{name}.json").write_text(json.dumps(figures, indent=1) + "\n")
        print(f"{name}: {summary(figures)}", flush=True)
    return 0


def summary(figures: dict[str, object]) -> str:
    keys = ("games", "wins", "win_rate", "ci95", "ms_per_move", "ms_per_game_mean", "first_moves", "wall_seconds")
    return json.dumps({key: figures.get(key) for key in keys})


if __name__ == "__main__":
    sys.exit(main())
