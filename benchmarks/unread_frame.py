#!/usr/bin/env python3
"""The time play's reader takes over a frame it cannot read, the first time and each time it is captured again
unchanged (a toast or a dialog over the board waited out).

    .venv/bin/python benchmarks/unread_frame.py [--again 5] [--cover third|most] [FIXTURE ...]

Each recorded screenshot (default: a board of each of three clients) is read by ``VisionReader`` as play reads
a game's first frame, then the same screenshot with a plain band laid over the middle third of its board
(``--cover most``: all but an eighth of it on each side), as a client's pop-up lies over it, is read
``1 + --again`` times. Prints, per screenshot, the first read's ms and the median of the others. Over a third,
the profile in use reads the board where it was but for those cells, and no other profile is tried; over most
of it, every other profile is.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from pathlib import Path

from sweepbot.errors import SweepbotError
from sweepbot.playing.vision_reader import VisionReader
from sweepbot.threads import on_one_thread
from sweepbot.vision.capture import load_image

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
DEFAULT = ["sgt-mines/30x16-first.png", "gnome-mines/medium-first.png", "xdemineur/30x16-first.png"]


@on_one_thread  # as the commands read
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--again", type=int, default=5, help="reads of the covered frame after the first")
    parser.add_argument("--cover", choices=("third", "most"), default="third", help="how much of the board to cover")
    parser.add_argument("fixtures", nargs="*", default=DEFAULT, help="screenshots under tests/fixtures/")
    args = parser.parse_args()
    for name in args.fixtures:
        board = load_image(FIXTURES / name)
        reader = VisionReader()
        reader.read(board)
        assert reader.geometry is not None
        x, y, w, h = reader.geometry.bbox
        covered = board.copy()
        if args.cover == "third":
            covered[y + h // 3 : y + 2 * h // 3, x + w // 4 : x + 3 * w // 4] = (40, 200, 90)
        else:
            covered[y + h // 8 : y + h - h // 8, x + w // 8 : x + w - w // 8] = (40, 200, 90)
        times = []
        for _ in range(1 + args.again):
            start = time.perf_counter()
            with contextlib.suppress(SweepbotError):
                reader.read(covered)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{name:32} first {times[0]:7.1f} ms, again {statistics.median(times[1:]):7.2f} ms (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
