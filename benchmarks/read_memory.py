#!/usr/bin/env python3
"""Memory of one process reading boards at many sizes: the largest resident set after each size.

    .venv/bin/python benchmarks/read_memory.py [--scales 0.8 1.1 1.25 1.5 0.9 1.35]

Every screenshot under ``tests/fixtures/`` with its expected board written beside it is read from scratch
(``read_screenshot`` with the built-in profiles) resized by each of ``--scales`` in turn, all in this one
process: each size draws the profiles' looks at a cell size of its own (``vision/scaled.py``), kept beside the
profiles for the last few sizes asked for (``vision/derived.py``). Prints the process's largest resident set
(MB) after each scale, then how many reads gave a board and the seconds taken.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import cv2

from sweepbot.errors import SweepbotError
from sweepbot.vision.capture import load_image
from sweepbot.vision.profile import available_profiles
from sweepbot.vision.read import read_screenshot

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", type=float, nargs="+", default=[0.8, 1.1, 1.25, 1.5, 0.9, 1.35])
    args = parser.parse_args()
    pngs = sorted(p for p in (ROOT / "tests" / "fixtures").rglob("*.png") if p.with_suffix(".board").exists())
    profiles = available_profiles()
    start, read = time.perf_counter(), 0
    for scale in args.scales:
        for png in pngs:
            image = cv2.resize(load_image(png), None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            try:
                read_screenshot(image, profiles=profiles)
                read += 1
            except SweepbotError:
                pass
        largest = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # kB on Linux
        print(f"scale {scale}: largest resident set {largest} MB", flush=True)
    print(f"{read} of {len(args.scales) * len(pngs)} reads gave a board, {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
