#!/usr/bin/env python3
"""Calibrate real clients live, each from an empty profile store, then play with what was learnt.

    benchmarks/live_calibration.py [CLIENT[:LEVEL][:tile=N][:theme=T] ...] [--games 10] [--keep DIR]

For each client (all eight by default): a fresh Xvfb under openbox's stock settings, the client, an empty
profile store with the built-in profiles hidden, ``sweepbot calibrate --live --client NAME --yes`` (no other
flag), then ``sweepbot play --games N --json``. One JSON line per client with both commands' results, then a
table: calibration seconds, games, wins, errors. ``--keep DIR`` adds ``--record DIR/CLIENT`` to the
calibration, to look at its frames afterwards, and copies the profile's sheet of named looks beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkout import env as checkout_env
from checkout import sweepbot

from sweeplab import procs
from sweeplab.clients import CLIENTS, LaunchedClient, launch_client, screen_for
from sweeplab.display import VirtualDisplay


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


def run_one(spec: dict[str, object], games: int, keep: Path | None) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="sweepbot-live-profiles-") as store:
        return calibrate_and_play(spec, games, keep, Path(store))


def calibrate_and_play(spec: dict[str, object], games: int, keep: Path | None, profiles: Path) -> dict[str, object]:
    result: dict[str, object] = dict(spec)
    screen = screen_for(str(spec["client"]), spec["level"])  # type: ignore[arg-type]
    with VirtualDisplay(*screen) as display, launch_client(display, str(spec["client"]), spec["level"],  # type: ignore[arg-type]
                                                   tile_size=spec["tile"], theme=spec["theme"]) as client:  # type: ignore[arg-type]
        env = checkout_env(display.env, SWEEPBOT_PROFILES=str(profiles), SWEEPBOT_NO_BUILTIN="1")
        name = f"live-{spec['client']}"
        command = [*sweepbot(), "calibrate", "--live", "--client", name, "--yes"]
        if keep:
            label = "-".join(str(spec[k]) for k in ("client", "level", "tile", "theme") if spec[k] is not None)
            command += ["--record", str(keep / label)]
        start = time.monotonic()
        cal = subprocess.run(command, env=env, capture_output=True, text=True, check=False, timeout=900)
        result["calibrate_seconds"] = round(time.monotonic() - start, 1)
        result["calibrate_exit"] = cal.returncode
        result["calibrate_log"] = (cal.stderr.strip().splitlines() + cal.stdout.strip().splitlines())[-9:]
        if cal.returncode != 0:
            return result | gone(client)
        result["profiles"] = sorted(p.name for p in profiles.iterdir() if (p / "profile.json").is_file())
        if keep:
            for sheet in profiles.glob("*-looks.png"):  # the sheet of named looks, to check by eye
                shutil.copy(sheet, keep / f"{label}-{sheet.name}")
        if games < 1:
            return result
        time.sleep(0.5)  # calibration leaves a new game on screen
        play = subprocess.run([*sweepbot(), "play", "--games", str(games), "--json"], env=env,
                              capture_output=True, text=True, check=False, timeout=1800)
        result["play_exit"] = play.returncode
        try:
            result["play"] = json.loads(play.stdout)
        except json.JSONDecodeError:
            result["play_error"] = play.stderr.strip().splitlines()[-3:]
        return result | gone(client)


def gone(client: LaunchedClient) -> dict[str, object]:
    """How the client ended, when its window is no longer there: exit status and the last of its output."""
    if client.is_running():
        return {}
    status = client.proc.poll()
    return {"client_gone": {"exit": "running, window gone" if status is None else status,
                            "log": procs.log_tail(client.log_path)}}


def row(result: dict[str, object]) -> str:
    """The table's row of one client: calibration seconds (or failed), games, wins, errors."""
    play = result.get("play")
    figures: dict[str, object] = play if isinstance(play, dict) else {}
    games = figures.get("games", 0)
    errors = figures.get("errors", 0)
    if "error" in figures or "play_error" in result:
        errors = f"{errors} (stopped)"
    cal = "failed" if result.get("calibrate_exit") else f"{result.get('calibrate_seconds')}"
    return f"| {result['client']} | {cal} | {games} | {figures.get('wins', 0)} | {errors} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="*", default=sorted(CLIENTS))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--keep", help="keep each calibration session (frames and facts) under this folder")
    args = parser.parse_args()
    keep = Path(args.keep) if args.keep else None
    rows = []
    for spec in args.specs:
        result = run_one(parse(spec), args.games, keep)
        print(json.dumps(result), flush=True)
        rows.append(row(result))
    print("| client | calibration s | games | wins | errors |\n|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
