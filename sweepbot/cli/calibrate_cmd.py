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
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from sweepbot.cli.play_cmd import add_route_option
from sweepbot.errors import SweepbotError
from sweepbot.vision.rules import PlayRules

#: The whole screen when a live calibration stopped on an error, kept with its record.
STOPPED_SCREEN = "stopped.png"

DESCRIPTION = """\
Make a profile for a client sweepbot cannot read yet.

  sweepbot calibrate --live --client NAME     the client open on screen, showing a new game
  sweepbot calibrate IMAGE... --client NAME   from screenshots: a new game, games in play, lost games

With --live it plays a few games and names each tile look by what the game proves: a new board is covered,
a right click shows a flag, an opened cell is a number that agrees with its neighbours, a loss shows the
mines. It also finds how the client starts a new game and keeps that in the profile. Looks the game did not
prove stay unnamed (the image of the looks saved beside the profile shows a hint for them) and are refused
in play, never guessed. --record DIR keeps the session, --recording DIR calibrates from it again."""


#: Looks of opened cells: a profile needs one of them at least.
OPEN_CHARS = ".12345678="


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
    from sweepbot.calibration.calibrate import calibrate_frames
    from sweepbot.calibration.recording import load_session
    from sweepbot.calibration.sheet import names_sheet
    from sweepbot.vision.capture import load_image
    from sweepbot.vision.profile import save_profile, user_profiles_dir

    if not args.client.replace("-", "").replace("_", "").isalnum():
        raise SweepbotError(f"--client {args.client!r}: use letters, digits, - and _ only")
    if not (args.images or args.live or args.recording):
        raise SweepbotError("give screenshots, --recording DIR or --live")
    if args.mines is not None and (args.mines < 1 or not (args.live or args.recording)):
        raise SweepbotError("--mines must be at least 1, with --live or --recording DIR")
    images = [load_image(p) for p in args.images]
    geometries: list[Any] = [None] * len(images)
    facts = []
    play = PlayRules()
    for folder in args.recording:
        session = load_session(Path(folder))
        facts += [replace(f, frame=f.frame + len(images)) for f in session.facts]
        images += session.frames
        geometries += [session_geometry(session)] * len(session.frames)
        play = play.merged(session.play)
    if args.live:
        session = live_session(args)
        facts += [replace(f, frame=f.frame + len(images)) for f in session.facts]
        images += session.frames
        geometries += [session_geometry(session)] * len(session.frames)
        play = play.merged(session.play)
    out = Path(args.out) if args.out else user_profiles_dir()
    results: list[dict[str, Any]] = []
    if args.mines is not None:
        sizes = sorted({(g.rows, g.cols) for g in geometries if g})
        play = play.learnt(mines=[(rows, cols, args.mines) for rows, cols in sizes])
    for cal in calibrate_frames(images, args.client, facts, play, min_cells=1 if facts else 3, geometries=geometries):
        proved = "".join(sorted({n.char for n in cal.names.values() if n.proved}))
        if not set(proved) & set(OPEN_CHARS):
            raise SweepbotError(
                f"{cal.profile.name}: the frames proved only {proved or 'nothing'}, no look of an opened cell, so "
                "no profile was saved (a frame is used only while the board stays where the first one showed it: "
                "a board whose columns or rows change size in play is not read)")
        folder = out / cal.profile.name
        sheet_path = Path(args.sheet) if args.sheet else folder.with_name(cal.profile.name + "-looks.png")
        sheet_path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(sheet_path), names_sheet(cal.looks, cal.names))
        if cal.misread:
            kept = (f"the frames are kept in {args.record}" if args.live and args.record
                    else "--record DIR keeps the frames to look at")
            raise SweepbotError(
                f"{cal.profile.name}: a profile of these names misreads {cal.misread} named cells of the frames "
                f"they were learnt on, so it was not saved: the game's facts and the looks disagree (looks: "
                f"{sheet_path}); calibrate again ({kept})")
        save_profile(cal.profile, folder)
        summary = cal.summary()
        summary["folder"] = str(folder)
        summary["sheet"] = str(sheet_path)
        results.append(summary)
        if not args.json:
            print(f"{cal.profile.name}: {len(cal.frames)} frames, {cal.looks.count} looks, named "
                  f"{summary['chars']}, {len(cal.unnamed)} unnamed, "
                  f"{cal.misread} named cells misread; saved in {folder}; looks: {sheet_path}")
    if args.json:
        print(json.dumps({"profiles": results}))
    return 0


def session_geometry(session: Any) -> Any:
    """A session's frames all show one board: located once, on its first frame (a new game)."""
    from sweepbot.vision.locate import locate

    return locate(session.frames[0])


def live_session(args: argparse.Namespace) -> Any:
    from sweepbot.watch import check_keys
    from sweepbot.watch.live import ScreenGrabber

    keys = [args.new_game_keys.split("+")] if args.new_game_keys else []
    check_keys(keys)
    screen = ScreenGrabber(args.route)
    try:
        return calibrate_on(screen, keys, args)
    finally:
        screen.close()


def calibrate_on(screen: Any, keys: list[list[str]], args: argparse.Namespace) -> Any:
    from sweepbot.calibration.live.run import LiveCalibration
    from sweepbot.calibration.recording import compact, save_session
    from sweepbot.watch.live import live_watcher

    if not args.yes and sys.stdin.isatty() and not args.json:
        answer = input("sweepbot will play a few games in the client on screen, clicking in it for a minute or "
                       "two; keep the mouse still. Start? [Y/n] ")
        if answer.strip().lower() not in ("", "y", "yes"):
            raise SweepbotError("calibration not started")
    # a person at a terminal is asked to show how a new game starts when no way is found
    ask = (lambda m: print(f"sweepbot: {m}", file=sys.stderr, flush=True)) if sys.stdin.isatty() else None
    calibration = LiveCalibration(live_watcher(screen), games=args.games, log=lambda m: print(m, file=sys.stderr),
                                  new_game_keys=keys, ask=ask)
    try:
        session = calibration.run()
    except SweepbotError as err:
        kept = calibration.session
        if not args.record or not kept.frames:
            raise
        save_session(compact(kept), Path(args.record))
        stopped = Path(args.record) / STOPPED_SCREEN
        cv2.imwrite(str(stopped), screen.grab())
        raise SweepbotError(f"{err}; what {kept.games} game(s) showed is kept in {args.record}, and the screen "
                            f"when calibration stopped in {stopped}: `sweepbot calibrate --recording {args.record} "
                            f"--client {args.client}` makes a profile of it, and adding --live plays more games on "
                            "top") from None
    if args.record:
        save_session(compact(session), Path(args.record))
    print(f"live: {session.games} games, {session.wins} won, {len(session.frames)} frames, {len(session.facts)} facts",
          file=sys.stderr)
    return session
