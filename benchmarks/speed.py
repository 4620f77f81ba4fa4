#!/usr/bin/env python3
"""How fast the bot plays real clients, and where the time goes; optionally against an older revision.

    .venv/bin/python benchmarks/speed.py [--games 20] [--baseline REV] [CLIENT:LEVEL[:MINES] ...]

For each case (default: xdemineur and sgt-mines at expert) a fresh virtual screen and client are started
and `sweepbot play --games N --json` plays them; one line is printed per case and revision: seconds per game
(median and mean), 3BV/s over the wins, clicks the client missed, errors, and the time of an average game
split by step (capture, read, solve, click, wait for the client, record). With ``--baseline REV`` the same
cases are played by the code of that git revision too (checked out in a temporary worktree), one revision
after the other for each case, so both are measured in one run on the same machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from sweeplab.clients import launch_client
from sweeplab.display import VirtualDisplay

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CASES = ["xdemineur:expert", "sgt-mines:expert"]


def play(case: str, games: int, code: Path) -> dict[str, object]:
    """`sweepbot play` from the package in ``code`` (a checkout's root) on a fresh screen and client."""
    client, level, *rest = case.split(":")
    extra = ["--mines", rest[0]] if rest else []  # for clients that show no mine counter
    env_path = {"PYTHONPATH": str(code)}
    with VirtualDisplay() as display, launch_client(display, client, level):
        result = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", str(games), "--json", *extra],
                                env={**display.env, **env_path}, cwd=tempfile.gettempdir(), capture_output=True,
                                text=True, check=False)
    try:
        summary: dict[str, object] = json.loads(result.stdout)
    except json.JSONDecodeError:
        return {"error": (result.stderr.strip().splitlines() or ["no output"])[-1]}
    return summary


def row(case: str, label: str, summary: dict[str, object]) -> dict[str, object]:
    per_game = summary.get("per_game") or []
    assert isinstance(per_game, list)
    seconds = [float(game["seconds"]) for game in per_game]
    out: dict[str, object] = {
        "case": case, "code": label, "games": summary.get("games"), "wins": summary.get("wins"),
        "errors": summary.get("errors"), "missed_clicks": summary.get("missed_clicks"),
        "seconds_per_game_median": round(statistics.median(seconds), 3) if seconds else None,
        "seconds_per_game_mean": round(statistics.fmean(seconds), 3) if seconds else None,
        "three_bv_per_second_wins": summary.get("three_bv_per_second"),
    }
    split = summary.get("ms")
    if isinstance(split, dict) and per_game:  # older revisions report no split
        out["ms_per_game"] = {step: round(float(ms) / len(per_game), 1) for step, ms in split.items()}
    if "error" in summary:
        out["error"] = summary["error"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--baseline", metavar="REV", help="also play with the code of this git revision")
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES)
    args = parser.parse_args()
    codes = [("current", ROOT)]
    worktree = None
    if args.baseline:
        worktree = Path(tempfile.mkdtemp(prefix="sweepbot-baseline-"))
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(worktree), args.baseline],
                       check=True)
        codes.insert(0, (args.baseline, worktree))
    try:
        for case in args.cases:
            for label, code in codes:
                print(json.dumps(row(case, label, play(case, args.games, code))), flush=True)
    finally:
        if worktree is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)
            shutil.rmtree(worktree, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
