"""``python -m sweeplab.demo`` (what ``scripts/demo`` runs): the main job in one command. Starts a virtual
screen (Xvfb) and a real client on it, lets ``sweepbot play`` play a few games there, and leaves the
recording, an animated GIF and the summary in an output folder. Part of the lab, so it runs from a checkout,
not from the installed wheel."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from sweepbot.cli import stopping_on_sigterm
from sweepbot.errors import SweepbotError
from sweepbot.playing.movie import make_gif
from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay
from sweeplab.errors import DesktopError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scripts/demo",
        description="Start a virtual screen (Xvfb with openbox) and a real Minesweeper client on it, let sweepbot "
        "play a few games there, and leave the recording, an animated GIF and the summary in a folder under --out. "
        "Needs the clients and Xvfb (scripts/install-clients installs them).")
    parser.add_argument("--client", default="xdemineur",
                        help="xdemineur, sgt-mines, ace-minesweeper or gnome-mines (from Debian), pygame-minesweeper, "
                        "nicegui-minesweeper, dangeruxb or mfranceschi-minesweeper (from PyPI); default xdemineur")
    parser.add_argument("--level", help="the client's level name or COLSxROWS/MINES (default: its own)")
    parser.add_argument("--games", type=int, default=3, help="games to play (default 3)")
    parser.add_argument("--out", default="out", help="folder for the recording, GIF and summary (default out/)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object on stdout")
    return parser


def run(args: argparse.Namespace) -> int:
    folder = Path(args.out) / f"{args.client}-{time.strftime('%Y%m%d-%H%M%S')}"
    record = folder / "recording"
    try:
        screen = screen_for(args.client, args.level)
        with VirtualDisplay(*screen) as display, launch_client(display, args.client, args.level) as client:
            print(f"{args.client} {client.size} on virtual display {display.name}", file=sys.stderr)
            env = dict(display.env)
            command = [sys.executable, "-m", "sweepbot", "play", "--games", str(args.games), "--record",
                       str(record), "--json"]
            result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            sys.stderr.write(result.stderr)
    except DesktopError as err:
        raise SweepbotError(f"could not start {args.client} on a virtual screen: {err}") from None
    try:
        summary = json.loads(result.stdout)
    except json.JSONDecodeError:
        why = result.stderr.strip().splitlines()[-1:] or ["no message"]
        raise SweepbotError(f"sweepbot play stopped without a summary (exit {result.returncode}): {why[0]}") from None
    summary["client"] = args.client
    if (record / "session.jsonl").exists():
        summary["gif"] = str(make_gif(record, folder / "games.gif"))
    summary["recording"] = str(record)
    folder.mkdir(parents=True, exist_ok=True)  # a play that stopped before its first move recorded nothing
    (folder / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(summary) if args.json else "\n".join(f"{k}: {v}" for k, v in summary.items()))
    return 0 if result.returncode == 0 else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.command = "demo"
    return stopping_on_sigterm(args, run)


if __name__ == "__main__":
    sys.exit(main())
