#!/usr/bin/env python3
"""Meet generated clients as a new user would: calibrate each from an empty profile store, then play it.

    .venv/bin/python benchmarks/generated_clients.py [--games 5] [--keep DIR] [--jobs 1] [SEED|FROM-TO ...]

A seed is one client (``generated-SEED``: a Tk window for an even seed, a page in Chromium for an odd one;
sweeplab/generated). Default seeds 0-49. For each: a fresh virtual screen under openbox's stock
settings, the client, ``sweepbot calibrate --live --client generated-SEED --yes --json`` into an empty store
with no built-in profile, then ``sweepbot play --games N --json``. The looks are checked against the seed's
truth: every look the client draws, laid out on a sheet as it lays out its board, read with each profile
calibration made; a look read as another look is misread (it must never happen: a refusal is no misread).
One JSON line per seed, then a table and a count by how the client starts a new game. With ``--keep``, each
seed's folder keeps its profiles, the recordings and what calibrate and play said (``calibration.log``,
``play.log``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
from checkout import env as checkout_env
from checkout import sweepbot

from sweepbot.calibration.truth import misnamed_in_store
from sweeplab.clients import launch_client
from sweeplab.display import VirtualDisplay
from sweeplab.generated.spec import make_up
from sweeplab.generated.tiles import truth_sheet

CALIBRATION_TIMEOUT = 900.0
PLAY_TIMEOUT = 900.0


def seeds_of(args: list[str]) -> list[int]:
    seeds: list[int] = []
    for arg in args:
        first, _, last = arg.partition("-")
        seeds += list(range(int(first), int(last) + 1)) if last else [int(first)]
    return seeds


def answer(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    try:
        result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        return result
    except (ValueError, IndexError):
        return {"error": done.stderr.strip()[-400:] or f"exit {done.returncode}"}


def run_seed(seed: int, games: int, keep: Path) -> dict[str, Any]:
    make = make_up(seed)
    folder = keep / f"seed-{seed}"
    store = folder / "profiles"
    store.mkdir(parents=True, exist_ok=True)
    row: dict[str, Any] = {"seed": seed, "kind": make.kind, "level": make.level, "cell": make.cell,
                              "palette": make.palette.scheme, "new_game": make.manners.new_game,
                              "hold": make.manners.hold, "first_click": make.manners.first_click}
    name = f"generated-{seed}"
    with VirtualDisplay() as display, launch_client(display, name, seed=str(seed)):
        env = dict(display.env, SWEEPBOT_PROFILES=str(store), SWEEPBOT_NO_BUILTIN="1")
        started = time.monotonic()
        done = subprocess.run([*sweepbot(), "calibrate", "--live", "--client", name, "--yes", "--json", "--record",
                               str(folder / "calibration")], env=checkout_env(env), capture_output=True, text=True,
                              timeout=CALIBRATION_TIMEOUT, check=False)
        row["calibration_seconds"] = round(time.monotonic() - started, 1)
        (folder / "calibration.log").write_text(done.stderr, encoding="utf-8")  # each step it took
        calibrated = answer(done)
        row["calibrated"] = done.returncode == 0
        if done.returncode != 0:
            row["why"] = str(calibrated.get("error", ""))[:300]
        else:
            image, xs, ys, truth = truth_sheet(make)
            wrong, named = misnamed_in_store(cv2.cvtColor(image, cv2.COLOR_RGB2BGR), xs, ys, truth, store)
            row["misread"], row["looks_named"] = wrong, named
            done = subprocess.run([*sweepbot(), "play", "--games", str(games), "--json", "--record",
                                   str(folder / "play")], env=checkout_env(env), capture_output=True, text=True,
                                  timeout=PLAY_TIMEOUT, check=False)
            (folder / "play.log").write_text(done.stderr, encoding="utf-8")
            summary = answer(done)
            row.update({key: summary.get(key) for key in ("games", "wins", "losses", "errors")})
            if summary.get("error"):
                row["play_error"] = str(summary["error"])[:300]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seeds", nargs="*", default=["0-49"])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--keep", help="folder for the stores and recordings (default: a temporary one)")
    parser.add_argument("--jobs", type=int, default=1, help="seeds met side by side (each on its own screen)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sweepbot-generated-") as scratch:
        keep = Path(args.keep or scratch)
        rows = []
        with ThreadPoolExecutor(args.jobs) as pool:
            for row in pool.map(lambda seed: run_seed(seed, args.games, keep), seeds_of(args.seeds)):
                print(json.dumps(row), flush=True)
                rows.append(row)
    print(f"\n{'seed':>4} {'kind':6} {'new game':11} {'cell':>4} {'palette':12} {'cal s':>6} {'named':>5} "
          f"{'misread':>7} {'games':>5} {'wins':>4} {'errors':>6}  why")
    for r in rows:
        print(f"{r['seed']!s:>4} {r['kind']!s:6} {r['new_game']!s:11} {r['cell']!s:>4} {r['palette']!s:12} "
              f"{r['calibration_seconds']!s:>6} {r.get('looks_named', '-')!s:>5} {len(r.get('misread', [])):>7} "
              f"{r.get('games', '-')!s:>5} {r.get('wins', '-')!s:>4} {r.get('errors', '-')!s:>6}  "
              f"{r.get('why') or r.get('play_error') or ''}"[:220])
    calibrated = [r for r in rows if r["calibrated"]]

    def total(key: str) -> int:
        return sum(int(r.get(key) or 0) for r in calibrated)

    misread = sum(len(r["misread"]) for r in calibrated)
    print(f"\ncalibrated {len(calibrated)} of {len(rows)}; looks misread {misread}; games {total('games')}, "
          f"wins {total('wins')}, errors {total('errors')}")
    by_way = Counter((r["new_game"], bool(r["calibrated"])) for r in rows)
    print("by new game (calibrated / all): " + ", ".join(
        f"{way} {by_way[(way, True)]}/{by_way[(way, True)] + by_way[(way, False)]}"
        for way in sorted({str(r['new_game']) for r in rows})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
