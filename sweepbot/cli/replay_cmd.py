"""``sweepbot replay DIR``: run vision and solver over a recorded session and report any difference."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sweepbot.errors import SweepbotError
from sweepbot.playing.record import replay
from sweepbot.playing.vision_reader import VisionReader


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="check a recorded session offline",
        description="Read every recorded frame again and solve every recorded board again; report where the "
        "reading or the move differs from what was recorded.")
    parser.add_argument("folder", metavar="DIR", help="a folder made by sweepbot play --record")
    parser.add_argument("--profile", help="the profile to read with (default: the one that fits)")
    parser.add_argument("--moves-only", action="store_true", help="do not read the frames again, only solve")
    return parser


def run(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise SweepbotError(f"{folder}: no such folder")
    # each step is read with the profile it was read with in play, kept in the recording, unless one is named
    report = replay(folder, None if args.moves_only else VisionReader(args.profile),
                    None if args.profile else lambda kept: VisionReader(str(kept)))
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(f"{report.steps} steps: {len(report.read_differences)} read differences, "
              f"{len(report.move_differences)} move differences")
        for line in report.read_differences + report.move_differences:
            print("  " + line)
    return 0 if report.ok else 1
