#!/usr/bin/env python3
"""Play a web page whose server stalls now and then, as a busy machine makes it.

    benchmarks/slow_server.py [--games 6] [--stall 2.5] [--every 10] [--runs 1] [--keep DIR]

nicegui-minesweeper (a NiceGUI server, its page in Chromium) on a fresh Xvfb under openbox's stock settings,
calibrated live from an empty profile store; then ``sweepbot play --games N --json``, while the server's
process is stopped (SIGSTOP) for ``--stall`` seconds every ``--every`` seconds of play, from 4 s after play
starts: the page keeps drawing, and the clicks sent meanwhile are answered when the server goes on. One JSON
line per run (the summary of play, and how many stalls there were), then the totals: games, wins, losses,
errors, and games counted with no click (a board of the game before taken for a new one). ``--keep DIR``
adds ``--record DIR/runN`` to play.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from checkout import env as checkout_env
from checkout import sweepbot

from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay

CLIENT = "nicegui-minesweeper"
#: Seconds after play starts before the first stall (the first game under way)
FIRST_STALL = 4.0


def stalls(pid: int, play: subprocess.Popen[str], stall: float, every: float, count: list[int]) -> None:
    """Stop process ``pid`` for ``stall`` s every ``every`` s until ``play`` ends."""
    time.sleep(FIRST_STALL)
    while play.poll() is None:
        os.kill(pid, signal.SIGSTOP)
        count[0] += 1
        try:
            time.sleep(stall)
        finally:
            os.kill(pid, signal.SIGCONT)
        time.sleep(max(0.0, every - stall))


def run(games: int, stall: float, every: float, record: Path | None) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="sweepbot-slow-server-") as store, \
            VirtualDisplay(*screen_for(CLIENT)) as display, launch_client(display, CLIENT) as client:
        env = checkout_env(display.env, SWEEPBOT_PROFILES=store, SWEEPBOT_NO_BUILTIN="1")
        cal = subprocess.run([*sweepbot(), "calibrate", "--live", "--client", CLIENT, "--yes"],
                             env=env, capture_output=True, text=True, check=False, timeout=900)
        if cal.returncode != 0:
            return {"calibration_error": cal.stderr.strip()[-500:]}
        command = [*sweepbot(), "play", "--games", str(games), "--json"]
        if record:
            command += ["--record", str(record)]
        play = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        count = [0]
        staller = threading.Thread(target=stalls, args=(client.proc.pid, play, stall, every, count), daemon=True)
        staller.start()
        out, err = play.communicate(timeout=1800)
        staller.join()
    summary: dict[str, object] = json.loads(out) if out.strip() else {"error": err.strip()[-500:]}
    said = [line for line in err.splitlines() if line.startswith("game ")]
    # a game counted with no click: the last game's board taken for a new one
    return {"stalls": count[0], **{k: summary.get(k) for k in ("games", "wins", "losses", "errors", "error")},
            "no_click": sum(line.endswith(" 0 clicks") for line in said), "games_said": said}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--stall", type=float, default=2.5, help="seconds the server is stopped each time")
    parser.add_argument("--every", type=float, default=10.0, help="seconds from one stall to the next")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    totals = dict.fromkeys(("games", "wins", "losses", "errors", "no_click"), 0)
    for number in range(args.runs):
        result = run(args.games, args.stall, args.every, args.keep / f"run{number}" if args.keep else None)
        print(json.dumps(result), flush=True)
        for key in totals:
            totals[key] += int(result.get(key) or 0)  # type: ignore[call-overload]
    print(f"{args.runs} run(s), server stopped {args.stall:g} s every {args.every:g} s: "
          + ", ".join(f"{v} {k}" for k, v in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
