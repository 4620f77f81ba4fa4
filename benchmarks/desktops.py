#!/usr/bin/env python3
"""Play the same games on the desktops users run: X11 under openbox and under GNOME's mutter, and the Wayland
sessions of GNOME (mutter), KDE (KWin) and sway, each started headless for the run.

    .venv/bin/python benchmarks/desktops.py [--games 10] [--keep DIR] [CASE ...]

A case is ``DESKTOP:CLIENT:LEVEL[:native]``: DESKTOP is ``xvfb-openbox``, ``xvfb-mutter`` (an X display run by
``mutter --x11``, as "GNOME on Xorg"), ``gnome``, ``kde`` or ``sway`` (Wayland, X11 clients under Xwayland);
``native`` runs a GTK client as a native Wayland window, played through GNOME's remote-desktop interfaces
(route mutter). Each case: a fresh desktop, the client, ``sweepbot play --games N --json --record DIR`` with the
built-in profiles, then ``sweepbot replay DIR --json``. One JSON line per case, then a table: the route the
bot took, games, wins, errors, 3BV/s over the wins, seconds, and replayed frames that read otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkout import env as checkout_env
from checkout import sweepbot

from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay
from sweeplab.wayland import WaylandSession, start_client

DEFAULT_CASES = [
    "xvfb-openbox:xdemineur:expert", "gnome:xdemineur:expert", "kde:xdemineur:expert", "sway:xdemineur:expert",
    "xvfb-openbox:gnome-mines:big", "gnome:gnome-mines:big:native", "xvfb-mutter:xdemineur:expert",
]
#: seconds a client on a fresh Wayland desktop is given to show its board before the bot starts
BOARD_WAIT = 4.0


def play(env: dict[str, str], games: int, record: Path, route: str) -> dict[str, object]:
    started = time.monotonic()
    done = subprocess.run([*sweepbot(), "play", "--games", str(games), "--json", "--record", str(record), "--route",
                           route], env=checkout_env(env), capture_output=True, text=True, check=False)
    try:
        summary: dict[str, object] = json.loads(done.stdout)
    except ValueError:
        summary = {"error": done.stderr.strip()[-500:] or f"exit {done.returncode}"}
    summary["wall_seconds"] = round(time.monotonic() - started, 1)
    replayed = subprocess.run([*sweepbot(), "replay", str(record), "--json"], env=checkout_env(env),
                              capture_output=True, text=True, check=False)
    try:
        summary["replay_differences"] = len(json.loads(replayed.stdout)["read_differences"])
    except (ValueError, KeyError):
        summary["replay_differences"] = None
    return summary


def run_case(case: str, games: int, keep: Path) -> dict[str, object]:
    desktop, client, level, *rest = case.split(":")
    native = rest == ["native"]
    record = keep / case.replace(":", "-") / "record"
    profiles = keep / case.replace(":", "-") / "profiles"
    if desktop.startswith("xvfb-"):
        wm = desktop.removeprefix("xvfb-")
        with VirtualDisplay(*screen_for(client, level), window_manager=wm) as display, launch_client(
                display, client, level):
            env = dict(display.env, SWEEPBOT_PROFILES=str(profiles))
            summary = play(env, games, record, "auto")
    else:
        with WaylandSession(desktop) as session, start_client(session, client, level, native=native) as started:
            time.sleep(BOARD_WAIT)
            env = dict(started.env, SWEEPBOT_PROFILES=str(profiles))
            summary = play(env, games, record, "mutter" if native else "auto")
    summary["case"] = case
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--keep", help="folder for the recordings (default: a temporary one, removed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sweepbot-desktops-") as scratch:
        keep = Path(args.keep or scratch)
        rows = []
        for case in args.cases:
            games = args.games
            if "@" in case:  # CASE@GAMES: another number of games for this case
                case, _, count = case.partition("@")
                games = int(count)
            summary = run_case(case, games, keep)
            print(json.dumps({k: v for k, v in summary.items() if k not in ("per_game", "ms")}), flush=True)
            rows.append(summary)
    print(f"\n{'case':34} {'route':9} {'games':>5} {'wins':>4} {'errors':>6} {'3BV/s':>7} {'seconds':>8} {'replay':>6}")
    for s in rows:
        print(f"{s['case']!s:34} {s.get('route', '-')!s:9} {s.get('games', 0)!s:>5} {s.get('wins', 0)!s:>4} "
              f"{s.get('errors', '-')!s:>6} {s.get('three_bv_per_second') or '-'!s:>7} {s['wall_seconds']!s:>8} "
              f"{s.get('replay_differences')!s:>6}" + (f"  {s['error']}" if "error" in s else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
