#!/usr/bin/env python3
"""Play clients at sizes and scales that no profile was made at, and replay every frame recorded.

    .venv/bin/python benchmarks/any_size.py [--games 10] [--keep DIR] [CASE ...]

A case is ``CLIENT:LEVEL:HOW=VALUE``: ``scale=S`` draws the board S times its usual size (gnome-mines: a
window S times as large; nicegui-minesweeper: a HiDPI screen, Chromium's device scale factor), ``zoom=Z``
zooms a web page (a user's browser zoom), ``tile=N`` sets sgt-mines's tile size in pixels, ``monitor=2``
shows two monitors side by side and moves the game's window onto the second. The default cases cover
gnome-mines, sgt-mines and nicegui-minesweeper at four sizes each, and xdemineur on a second monitor.

For each case: a fresh virtual screen under openbox's stock settings, the client, ``sweepbot play --games N
--json --record DIR`` with the built-in profiles and nothing else, then ``sweepbot replay DIR --json`` (every
recorded frame read again). A client with no built-in profile (nicegui-minesweeper) is first calibrated once,
at its usual size, with ``sweepbot calibrate --live --client NAME --yes`` into the run's own profile store.
A case whose client or virtual screen does not start is reported as not played, and the run goes on.
One JSON line per case, then a table: the cell size on screen, games, wins, losses, errors, and the frames
replayed with a read that differs (0 when every frame reads as in play).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

from checkout import env as checkout_env
from checkout import sweepbot

from sweepbot.errors import SweepbotError
from sweepbot.vision.profile import available_profiles
from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay

DEFAULT_CASES = [
    "gnome-mines:small:scale=0.75", "gnome-mines:small:scale=1.3", "gnome-mines:medium:scale=1.6",
    "gnome-mines:small:scale=2",
    "sgt-mines:beginner:tile=14", "sgt-mines:beginner:tile=26", "sgt-mines:beginner:tile=30",
    "sgt-mines:beginner:tile=40",
    "nicegui-minesweeper:beginner:zoom=0.67", "nicegui-minesweeper:beginner:zoom=1.5",
    "nicegui-minesweeper:beginner:scale=1.25", "nicegui-minesweeper:beginner:scale=2",
    "xdemineur:intermediate:monitor=2",
]


def parse(case: str) -> tuple[str, str, dict[str, float]]:
    client, level, *options = case.split(":")
    how: dict[str, float] = {}
    for option in options:
        key, _, value = option.partition("=")
        if key not in ("scale", "zoom", "tile", "monitor"):
            raise SystemExit(f"{case}: unknown option {key!r} (scale=S, zoom=Z, tile=N, monitor=2)")
        how[key] = float(value)
    return client, level, how


def calibrate(client: str, level: str, store: Path) -> dict[str, object]:
    """Calibrate ``client`` at its usual size into ``store``; its answer."""
    with VirtualDisplay(*screen_for(client, level)) as display, launch_client(display, client, level):
        done = subprocess.run([*sweepbot(), "calibrate", "--live", "--client", client, "--yes",
                               "--json"], env=checkout_env(display.env, SWEEPBOT_PROFILES=str(store)),
                              capture_output=True, text=True, timeout=900, check=False)
    return _answer(done)


def run_case(case: str, games: int, keep: Path | None, store: Path) -> dict[str, object]:
    client, level, how = parse(case)
    record = (keep / case.replace(":", "-").replace("=", "")) if keep else Path(tempfile.mkdtemp()) / "record"
    result: dict[str, object] = {"case": case}
    scale = how.get("scale", 1.0) * how.get("zoom", 1.0)
    monitors = int(how.get("monitor", 1))
    with VirtualDisplay(*screen_for(client, level, scale), monitors=monitors) as display, launch_client(
            display, client, level, scale=how.get("scale"), zoom=how.get("zoom"),
            tile_size=int(how["tile"]) if "tile" in how else None) as launched:
        if monitors > 1:
            left = display.monitor_rect(monitors - 1)[0]
            subprocess.run(["xdotool", "windowmove", str(launched.wid), str(left + 30), "10"], env=display.env,
                           check=True, timeout=10)
            time.sleep(1.0)
            result["window_x"] = launched.window_geometry().x
        grid = launched.grid()
        result["cell_px"] = round(float(grid.pitch_x), 1)
        played = subprocess.run([*sweepbot(), "play", "--games", str(games), "--json",
                                 "--record", str(record)], env=checkout_env(display.env, SWEEPBOT_PROFILES=str(store)),
                                capture_output=True, text=True, timeout=60 * games + 120, check=False)
    result["play"] = _answer(played)
    if record.is_dir():
        replayed = subprocess.run([*sweepbot(), "replay", str(record), "--json"],
                                  env=checkout_env(SWEEPBOT_PROFILES=str(store)), capture_output=True,
                                  text=True, timeout=1200, check=False)
        result["replay"] = _answer(replayed)
    return result


def _answer(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    try:
        answer: dict[str, object] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"no JSON answer (exit {done.returncode}): {done.stderr[-500:]}"}
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--keep", type=Path, help="keep each case's recording in DIR/CASE")
    args = parser.parse_args()
    rows = []
    store = Path(tempfile.mkdtemp(prefix="sweepbot-any-size-profiles-"))
    calibrated: set[str] = set()
    for case in args.cases:
        client, level, _ = parse(case)
        if client not in calibrated and not any(p.client == client for p in available_profiles()):
            print(json.dumps({"calibrated": client, **calibrate(client, level, store)}), flush=True)
        calibrated.add(client)
        try:
            result = run_case(case, args.games, args.keep, store)
        except SweepbotError as err:
            # a case whose client or screen does not start is reported, and the others run
            result = {"case": case, "play": {"error": f"not played: {err}"}}
        print(json.dumps(result), flush=True)
        rows.append(result)
    print(f"\n{'case':42} {'cell px':>7} {'games':>5} {'wins':>4} {'losses':>6} {'errors':>6} {'misread frames':>14}")
    for row in rows:
        play = row["play"] if isinstance(row["play"], dict) else {}
        got = row.get("replay")
        replay: dict[str, object] = got if isinstance(got, dict) else {}
        differences = replay.get("read_differences")
        misread = len(differences) if isinstance(differences, list) and "steps" in replay else "-"
        print(f"{row['case']:42} {row.get('cell_px', '-')!s:>7} {play.get('games', 0)!s:>5} {play.get('wins', 0)!s:>4} "
              f"{play.get('losses', 0)!s:>6} {play.get('errors', '-')!s:>6} {misread!s:>14}"
              + (f"  {play['error']}" if play.get("error") else ""))


if __name__ == "__main__":
    main()
