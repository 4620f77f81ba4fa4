#!/usr/bin/env python3
"""Play real clients on a virtual screen and print `sweepbot play --json` figures per client and level.

    .venv/bin/python benchmarks/real_clients.py [--games N] [--load K] [CLIENT:LEVEL[:MINES] ...]

Each case starts Xvfb with openbox in its stock settings and the client (scripts/install-clients installs
them), runs `sweepbot play --games N --json` against it and prints one JSON line: client, level, games, wins,
win rate, seconds per game, 3BV/s of the wins, clicks, clicks the client missed (sent again), errors, and
false stops (the bot stopping for a hand on the mouse: nobody touches it here). MINES is passed as --mines
for clients that show no mine counter. ``--load K`` keeps K busy loops running (one process each) while the
bot plays, to see it keep up on a loaded machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator

from checkout import env as checkout_env
from checkout import sweepbot

from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay

DEFAULT_CASES = [
    "xdemineur:12x9/10", "xdemineur:intermediate", "xdemineur:expert",
    "gnome-mines:small:10", "gnome-mines:medium:40", "gnome-mines:big:99",
    "sgt-mines:beginner", "sgt-mines:intermediate", "sgt-mines:expert",
    "ace-minesweeper:1", "ace-minesweeper:2", "ace-minesweeper:3", "ace-minesweeper:4",
]


@contextlib.contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """``count`` processes that each keep one core busy until the block ends."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def run_case(case: str, games: int, load: int = 0) -> dict[str, object]:
    client, level, *rest = case.split(":")
    extra = ["--mines", rest[0]] if rest else []
    with VirtualDisplay(*screen_for(client, level)) as display, launch_client(display, client, level), busy_loops(load):
        result = subprocess.run([*sweepbot(), "play", "--games", str(games), "--json", *extra],
                                env=checkout_env(display.env), capture_output=True, text=True, check=False)
    stops = result.stderr.count("the mouse moved")
    try:
        summary: dict[str, object] = json.loads(result.stdout)
    except json.JSONDecodeError:
        return {"client": client, "level": level, "false_stops": stops,
                "error": result.stderr.strip().splitlines()[-1:]}
    summary["false_stops"] = stops
    summary["load"] = load
    finished = int(summary["wins"]) + int(summary["losses"])  # type: ignore[call-overload]
    summary.update({
        "client": client, "level": level,
        "win_rate": round(int(summary["wins"]) / finished, 3) if finished else None,  # type: ignore[call-overload]
        "seconds_per_game": round(float(summary["seconds"]) / max(1, int(summary["games"])), 2),  # type: ignore[arg-type,call-overload]
    })
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--load", type=int, default=0, help="busy loops to run beside the bot (default 0)")
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES)
    args = parser.parse_args()
    for case in args.cases:
        print(json.dumps(run_case(case, args.games, args.load)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
