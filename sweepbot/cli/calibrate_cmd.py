"""``sweepbot calibrate --live --client NAME`` or ``sweepbot calibrate IMAGE... --client NAME``: make a
profile for a client sweepbot cannot read yet.

``--live`` plays a few games on the client open on screen (it must show a new game) and records what the
game proves: the cells it flags, the cells that open, the mine that explodes and the mines shown at a loss;
it also finds the key (or the face) that starts a new game, and stores it in the profile. ``--record DIR``
keeps that session (frames and facts); ``--recording DIR`` calibrates from a kept session again. Plain
screenshots work too: a new game, games in play, and lost games (a loss shows every mine, which is what
names the numbers). Only looks the game proves are named; the others stay unnamed (the sheet of looks
shows a hint for them): cells with those looks are refused in play, never guessed. ``--yes`` starts a
live calibration without asking first.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sweepbot.cli.play_cmd import add_route_option
from sweepbot.errors import SweepbotError

DESCRIPTION = """\
Make a profile for a client sweepbot cannot read yet.

  sweepbot calibrate --live --client NAME     the client open on screen, showing a new game
  sweepbot calibrate IMAGE... --client NAME   from screenshots: a new game, games in play, lost games

With --live it plays a few games and names each tile look by what the game proves: a new board is covered,
a right click shows a flag, an opened cell is a number that agrees with its neighbours, a loss shows the
mines. It also finds how the client starts a new game and keeps that in the profile. Looks the game did not
prove stay unnamed (the image of the looks saved beside the profile shows a hint for them) and are refused
in play, never guessed. --record DIR keeps the session, --recording DIR calibrates from it again."""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "calibrate", help="learn a client's looks into a profile (live, or from screenshots)",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("images", nargs="*", metavar="IMAGE", help="screenshots of the client (PNG)")
    parser.add_argument("--live", action="store_true", help="calibrate on the game open on screen (clicks in it)")
    parser.add_argument("--games", type=int, default=6, help="games to play with --live (default 6)")
    parser.add_argument("--new-game-keys", help="with --live: the key that starts a new game (e.g. f2, ctrl+n), "
                        "if sweepbot should not find it itself")
    parser.add_argument("--record", metavar="DIR", help="with --live: keep the session here (the frames that carry "
                        "its facts, and the facts)")
    parser.add_argument("--recording", metavar="DIR", action="append", default=[],
                        help="a kept live session to calibrate from (may be given more than once)")
    parser.add_argument("--client", required=True, help="the client's name (profiles are named CLIENT-<cell>px)")
    parser.add_argument("--out", help="folder to save the profiles in (default: the user's profile folder)")
    parser.add_argument("--sheet", help="where to save the image of the named looks (default: beside the profile)")
    parser.add_argument("--yes", action="store_true", help="with --live: start clicking without asking first")
    parser.add_argument("--mines", type=int, help="the board's mine total, for a client that shows no mine counter "
                        "(kept in the profile for play; without it a won game tells it)")
    add_route_option(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    from sweepbot.calibration.client import calibrate
    from sweepbot.vision.capture import load_image

    images = [load_image(p) for p in args.images]
    if args.live and not args.yes and sys.stdin.isatty() and not args.json:
        answer = input("sweepbot will play a few games in the client on screen, clicking in it for a minute or "
                       "two; keep the mouse still. Start? [Y/n] ")
        if answer.strip().lower() not in ("", "y", "yes"):
            raise SweepbotError("calibration not started")
    # a person at a terminal is asked to show how a new game starts when no way is found
    ask = (lambda m: print(f"sweepbot: {m}", file=sys.stderr, flush=True)) if sys.stdin.isatty() else None
    made = calibrate(args.client, screenshots=images, recordings=args.recording, live=args.live, route=args.route,
                     games=args.games, mines=args.mines,
                     new_game_keys=[args.new_game_keys.split("+")] if args.new_game_keys else [],
                     save_to=args.out, sheet=args.sheet, record=args.record,
                     log=lambda m: print(m, file=sys.stderr), ask=ask)
    results: list[dict[str, Any]] = []
    for cal in made:
        summary = dict(cal.summary, folder=str(cal.folder), sheet=str(cal.sheet))
        results.append(summary)
        if not args.json:
            print(f"{cal.profile.name}: {summary['frames']} frames, {summary['looks']} looks, named "
                  f"{summary['chars']}, {len(summary['unnamed'])} unnamed, "
                  f"{summary['misread']} named cells misread; saved in {cal.folder}; looks: {cal.sheet}")
    if args.json:
        print(json.dumps({"profiles": results}))
    return 0
