#!/usr/bin/env python3
"""Calibrate a real client live on a virtual screen with the built-in profiles hidden, then play with the
new profile, and print one JSON line per run.

    benchmarks/live_calibration.py CLIENT[:LEVEL][:tile=N][:theme=T] ... [--games 10] [--calibration-games 6]

Each run: a fresh Xvfb, the client, ``sweepbot calibrate --live`` (profile saved in a private folder), then
``sweepbot play --games N --json`` with only that profile; the line has both commands' results.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sweepbot.desktop.clients import launch_client, screen_for
from sweepbot.desktop.display import VirtualDisplay


def parse(spec: str) -> dict[str, object]:
    parts = spec.split(":")
    out: dict[str, object] = {"client": parts[0], "level": None, "tile": None, "theme": None}
    for p in parts[1:]:
        if p.startswith("tile="):
            out["tile"] = int(p[5:])
        elif p.startswith("theme="):
            out["theme"] = p[6:]
        else:
            out["level"] = p
    return out


def run_one(spec: dict[str, object], games: int, calibration_games: int, keep: Path | None) -> dict[str, object]:
    profiles = Path(tempfile.mkdtemp(prefix="sweepbot-live-profiles-"))
    result: dict[str, object] = dict(spec)
    screen = screen_for(str(spec["client"]), spec["level"])  # type: ignore[arg-type]
    with VirtualDisplay(*screen) as display, launch_client(display, str(spec["client"]), spec["level"],  # type: ignore[arg-type]
                                                   tile_size=spec["tile"], theme=spec["theme"]):  # type: ignore[arg-type]
        env = dict(display.env, SWEEPBOT_PROFILES=str(profiles), SWEEPBOT_NO_BUILTIN="1")
        name = f"live-{spec['client']}"
        command = [sys.executable, "-m", "sweepbot", "calibrate", "--live", "--client", name, "--yes", "--json",
                   "--games", str(calibration_games)]
        if keep:
            label = "-".join(str(spec[k]) for k in ("client", "level", "tile", "theme") if spec[k] is not None)
            command += ["--record", str(keep / label)]
        start = time.monotonic()
        cal = subprocess.run(command, env=env, capture_output=True, text=True, check=False, timeout=900)
        result["calibrate_seconds"] = round(time.monotonic() - start, 1)
        result["calibrate_exit"] = cal.returncode
        if cal.returncode != 0:
            result["calibrate_error"] = cal.stderr.strip().splitlines()[-3:]
            return result
        summary = json.loads(cal.stdout)["profiles"]
        result["profiles"] = [{k: p[k] for k in ("profile", "chars", "unnamed", "misread", "looks")} for p in summary]
        result["calibrate_log"] = cal.stderr.strip().splitlines()[-8:]
        if games < 1:
            return result
        time.sleep(0.5)  # calibration leaves a new game on screen
        play = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", str(games), "--json"], env=env,
                              capture_output=True, text=True, check=False, timeout=1800)
        result["play_exit"] = play.returncode
        try:
            result["play"] = json.loads(play.stdout)
        except json.JSONDecodeError:
            result["play_error"] = play.stderr.strip().splitlines()[-3:]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--calibration-games", type=int, default=6)
    parser.add_argument("--keep", help="keep each calibration session (frames and facts) under this folder")
    args = parser.parse_args()
    keep = Path(args.keep) if args.keep else None
    for spec in args.specs:
        print(json.dumps(run_one(parse(spec), args.games, args.calibration_games, keep)), flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
