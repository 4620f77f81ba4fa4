#!/usr/bin/env python3
"""Median time to locate a board on a 1920x1080 screenshot and to read a located 30x16 board.

    .venv/bin/python benchmarks/vision_bench.py [--runs 50] [--fixture PATH.png]

The screenshot is a 30x16 fixture (the first one found, or ``--fixture``) pasted on a 1920x1080 desktop
with other window-like rectangles; the read is :func:`read_located` with the geometry and profile found once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sweepbot.board import Board  # noqa: E402
from sweepbot.threads import on_one_thread  # noqa: E402
from sweepbot.vision.capture import load_image  # noqa: E402
from sweepbot.vision.locate import locate  # noqa: E402
from sweepbot.vision.read import read_located, read_screenshot  # noqa: E402


def find_fixture() -> Path:
    for png in sorted((ROOT / "tests" / "fixtures").glob("*/*.png")):
        board_file = png.with_suffix(".board")
        if board_file.exists():
            board = Board.parse(board_file.read_text())
            if (board.rows, board.cols) == (16, 30):
                return png
    raise SystemExit("no 30x16 fixture with a .board under tests/fixtures; pass --fixture")


def desktop(shot: np.ndarray) -> np.ndarray:
    """The screenshot's board region on a 1920x1080 desktop with a few other windows."""
    geo = locate(shot)
    x, y, w, h = geo.bbox
    pad = 60
    part = shot[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad]
    canvas = np.full((1080, 1920, 3), (90, 60, 30), np.uint8)
    rng = np.random.default_rng(1)
    for _ in range(6):
        wx, wy = int(rng.integers(0, 1500)), int(rng.integers(0, 800))
        canvas[wy : wy + 250, wx : wx + 400] = rng.integers(0, 256, 3)
        canvas[wy : wy + 24, wx : wx + 400] = (200, 160, 120)
    oy, ox = 1080 - part.shape[0] - 37, 1920 - part.shape[1] - 91
    canvas[oy : oy + part.shape[0], ox : ox + part.shape[1]] = part
    return canvas


def median_ms(fn: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


@on_one_thread  # as the commands read
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--fixture", type=Path)
    args = parser.parse_args()
    png = args.fixture or find_fixture()
    screen = desktop(load_image(png))
    reading = read_screenshot(screen)
    geo, profile = reading.geometry, reading.profile
    locate(screen)
    read_located(screen, geo, profile)
    loc = median_ms(lambda: locate(screen), args.runs)
    rd = median_ms(lambda: read_located(screen, geo, profile), args.runs * 4)
    full = median_ms(lambda: read_screenshot(screen), max(5, args.runs // 5))
    print(f"fixture: {png.relative_to(ROOT) if png.is_relative_to(ROOT) else png} "
          f"({reading.board.rows}x{reading.board.cols}, profile {profile.name})")
    print(f"locate on 1920x1080: median {loc:.1f} ms over {args.runs} runs (target <= 100 ms)")
    print(f"read located {reading.board.rows}x{reading.board.cols} board: median {rd:.2f} ms over {args.runs * 4} runs "
          "(target <= 5 ms)")
    print(f"read_screenshot from scratch (locate + profile choice + alignment + read): median {full:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
