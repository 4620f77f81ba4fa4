"""``sweepbot calibrate IMAGE... --client NAME``: make a profile for a client from its screenshots.

The screenshots should include a new game, games in play, and lost games (a loss shows every mine, which
is what names the numbers). Looks the game proves are named; the others get a hint, and the user is asked
once, with one image of every look and its name, whether the hints are right (``--yes`` says yes before
being asked). Hints not confirmed stay unnamed: cells with those looks are refused in play, never guessed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2

from sweepbot.errors import SweepbotError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "calibrate", help="make a profile for a client from screenshots", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="screenshots of the client (PNG)")
    parser.add_argument("--client", required=True, help="the client's name (profiles are named CLIENT-<cell>px)")
    parser.add_argument("--out", help="folder to save the profiles in (default: the user's profile folder)")
    parser.add_argument("--sheet", help="where to save the image of the named looks (default: beside the profile)")
    parser.add_argument("--yes", action="store_true", help="accept the hints without asking")
    return parser


def run(args: argparse.Namespace) -> int:
    from sweepbot.calibration.calibrate import calibrate_frames
    from sweepbot.calibration.naming import Name
    from sweepbot.calibration.sheet import names_sheet
    from sweepbot.vision.capture import load_image
    from sweepbot.vision.profile import save_profile, user_profiles_dir

    if not args.client.replace("-", "").replace("_", "").isalnum():
        raise SweepbotError(f"--client {args.client!r}: use letters, digits, - and _ only")
    images = [load_image(p) for p in args.images]
    out = Path(args.out) if args.out else user_profiles_dir()
    confirm = args.yes
    results: list[dict[str, Any]] = []
    for cal in calibrate_frames(images, args.client):
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


def _rebuild(cal: Any, names: Any) -> Any:
    from sweepbot.calibration.build import build_profile
    from sweepbot.calibration.calibrate import Calibration, check, labelled

    frames = labelled([f.image for f in cal.frames], [f.geometry for f in cal.frames], cal.looks, names)
    profile, aligned = build_profile(cal.profile.name, cal.profile.client, frames, cal.inset,
                                     extra={"counter": cal.profile.counter, "play": cal.profile.play})
    return Calibration(profile, cal.looks, names, cal.inset, frames, check(profile, frames, aligned),
                       cal.frame_indices)
