"""``sweepbot calibrate --live --client NAME`` or ``sweepbot calibrate IMAGE... --client NAME``: make a
profile for a client sweepbot cannot read yet.

``--live`` plays a few games on the client open on screen (it must show a new game) and records what the
game proves: the cells it flags, the cells that open, the mine that explodes and the mines shown at a loss;
it also finds the key (or the face) that starts a new game, and stores it in the profile. ``--record DIR``
keeps that session (frames and facts); ``--recording DIR`` calibrates from a kept session again. Plain
screenshots work too: a new game, games in play, and lost games (a loss shows every mine, which is what
names the numbers). Looks the game proves are named; the others get a hint, and the user is asked
once, with one image of every look and its name, whether the hints are right (``--yes`` says yes before
being asked). Hints not confirmed stay unnamed: cells with those looks are refused in play, never guessed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from sweepbot.errors import SweepbotError

DESCRIPTION = """\
Make a profile for a client sweepbot cannot read yet.

  sweepbot calibrate --live --client NAME     the client open on screen, showing a new game
  sweepbot calibrate IMAGE... --client NAME   from screenshots: a new game, games in play, lost games

With --live it plays a few games and names each tile look by what the game proves: a new board is covered,
a right click shows a flag, an opened cell is a number that agrees with its neighbours, a loss shows the
mines. It also finds how the client starts a new game and keeps that in the profile. Looks the game did not
prove get a hint, shown to you once in one image (--yes accepts the hints); looks left unnamed are refused in
play, never guessed. --record DIR keeps the session, --recording DIR calibrates from it again."""


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
    parser.add_argument("--yes", action="store_true", help="accept the hints without asking")
    return parser


def run(args: argparse.Namespace) -> int:
    from sweepbot.calibration.calibrate import calibrate_frames
    from sweepbot.calibration.facts import Name
    from sweepbot.calibration.recording import compact, load_session, save_session
    from sweepbot.calibration.sheet import names_sheet
    from sweepbot.vision.capture import load_image
    from sweepbot.vision.profile import save_profile, user_profiles_dir

    if not args.client.replace("-", "").replace("_", "").isalnum():
        raise SweepbotError(f"--client {args.client!r}: use letters, digits, - and _ only")
    if not (args.images or args.live or args.recording):
        raise SweepbotError("give screenshots, --recording DIR or --live")
    images = [load_image(p) for p in args.images]
    geometries: list[Any] = [None] * len(images)
    facts = []
    play: dict[str, Any] = {}
    for folder in args.recording:
        session = load_session(Path(folder))
        facts += [replace(f, frame=f.frame + len(images)) for f in session.facts]
        images += session.frames
        geometries += [session_geometry(session)] * len(session.frames)
        play.update(session.play)
    if args.live:
        session = live_session(args)
        if args.record:
            save_session(compact(session), Path(args.record))
        facts += [replace(f, frame=f.frame + len(images)) for f in session.facts]
        images += session.frames
        geometries += [session_geometry(session)] * len(session.frames)
        play.update(session.play)
    out = Path(args.out) if args.out else user_profiles_dir()
    confirm = args.yes
    results: list[dict[str, Any]] = []
    play = {k: v for k, v in play.items() if not k.startswith("_")}
    for cal in calibrate_frames(images, args.client, facts, play, min_cells=1 if facts else 3, geometries=geometries):
        hints = {k: n for k, n in cal.names.items() if not n.proved}
        folder = out / cal.profile.name
        sheet_path = Path(args.sheet) if args.sheet else folder.with_name(cal.profile.name + "-looks.png")
        sheet_path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(sheet_path), names_sheet(cal.looks, cal.names))
        accepted = confirm
        if hints and not confirm and sys.stdin.isatty() and not args.json:
            print(f"{cal.profile.name}: {len(cal.names) - len(hints)} looks proved, {len(hints)} hinted: "
                  f"{', '.join(f'{k}={n.char}' for k, n in sorted(hints.items()))}. See {sheet_path}")
            accepted = input("Are the hinted names right? [y/N] ").strip().lower() in ("y", "yes")
        if hints and not accepted:
            # unconfirmed hints stay unnamed: calibrate again without them
            names = {k: n for k, n in cal.names.items() if n.proved}
            cal = _rebuild(cal, names)
        save_profile(cal.profile, folder)
        summary = cal.summary()
        summary["folder"] = str(folder)
        summary["sheet"] = str(sheet_path)
        summary["hints_accepted"] = bool(hints) and accepted
        results.append(summary)
        if not args.json:
            named: dict[int, Name] = cal.names
            print(f"{cal.profile.name}: {len(cal.frames)} frames, {cal.looks.count} looks, named "
                  f"{''.join(sorted({n.char for n in named.values()}))}, {len(cal.unnamed)} unnamed, "
                  f"{cal.misread} named cells misread; saved in {folder}; looks: {sheet_path}")
    if args.json:
        print(json.dumps({"profiles": results}))
    return 0


def session_geometry(session: Any) -> Any:
    """A session's frames all show one board: located once, on its first frame (a new game)."""
    from sweepbot.vision.locate import locate

    return locate(session.frames[0])


def live_session(args: argparse.Namespace) -> Any:
    from sweepbot.calibration.live.run import LiveCalibration
    from sweepbot.cli.play_cmd import ScreenGrabber, check_session
    from sweepbot.control.device import open_device
    from sweepbot.control.mapping import mapping_for
    from sweepbot.control.mouse import BoardInput

    check_session()
    screen = ScreenGrabber()
    frame = screen.grab()
    device = open_device()
    mouse = BoardInput(device, mapping_for((frame.shape[1], frame.shape[0]), screen.origin, device.size()))
    keys = [args.new_game_keys.split("+")] if args.new_game_keys else []
    calibration = LiveCalibration(screen, mouse, games=args.games, log=lambda m: print(m, file=sys.stderr),
                                  new_game_keys=keys)
    session = calibration.run()
    print(f"live: {session.games} games, {session.wins} won, {len(session.frames)} frames, {len(session.facts)} facts",
          file=sys.stderr)
    return session


def _rebuild(cal: Any, names: Any) -> Any:
    from sweepbot.calibration.build import build_profile
    from sweepbot.calibration.calibrate import Calibration, check, labelled

    frames = labelled([f.image for f in cal.frames], [f.geometry for f in cal.frames], cal.looks, names)
    profile, aligned = build_profile(cal.profile.name, cal.profile.client, frames, cal.inset,
                                     extra={"counter": cal.profile.counter, "play": cal.profile.play})
    return Calibration(profile, cal.looks, names, cal.inset, frames, check(profile, frames, aligned),
                       cal.frame_indices)
