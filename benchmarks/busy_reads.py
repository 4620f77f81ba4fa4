#!/usr/bin/env python3
"""Read time beside busy cores, with numpy's matrix products split over its threads and on one thread.

    .venv/bin/python benchmarks/busy_reads.py [--busy 0 1 2] [--runs 3] [--every 2] [--json]

While sweepbot plays, the client draws its board, the screen server copies it and a browser may run beside:
the cores are seldom idle. For each count of ``--busy`` processes kept spinning beside (each a core's worth),
every ``--every``-th screenshot under ``tests/fixtures/`` with its expected board written beside it is read
with the built-in profiles two ways, from scratch (``read_screenshot``) and as a frame of a board found
before (``read_located``), once with numpy's BLAS library as numpy starts it (a thread per core) and once
limited to one thread as sweepbot's commands run it (``sweepbot.threads``), the two alternating run by run.
Prints the median ms a read of each way, and their ratio, for each count.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from sweepbot.errors import SweepbotError
from sweepbot.vision.capture import load_image
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile, available_profiles
from sweepbot.vision.read import read_located, read_screenshot

ROOT = Path(__file__).resolve().parents[1]


def frames(every: int) -> list[tuple[np.ndarray, Geometry, Profile]]:
    """The screenshots that read, with where their board lies and the profile that reads it."""
    profiles = available_profiles()
    found = []
    pngs = [p for p in sorted((ROOT / "tests" / "fixtures").rglob("*.png")) if p.with_suffix(".board").is_file()]
    for png in pngs[::every]:
        image = load_image(png)
        try:
            reading = read_screenshot(image, profiles=profiles)
        except SweepbotError:
            continue
        found.append((image, reading.geometry, reading.profile))
    return found


def ms_a_read(reads: list[Callable[[], object]]) -> float:
    start = time.perf_counter()
    for read in reads:
        with contextlib.suppress(SweepbotError):
            read()
    return (time.perf_counter() - start) * 1000 / len(reads)


def measure(shots: list[tuple[np.ndarray, Geometry, Profile]], runs: int) -> dict[str, float]:
    """Median ms a read from scratch and of a frame, with numpy's threads and on one, alternating run by run."""
    profiles = available_profiles()
    ways: dict[str, list[Callable[[], object]]] = {
        "scratch": [lambda image=image: read_screenshot(image, profiles=profiles) for image, _, _ in shots],
        "frame": [lambda image=image, g=g, p=p: read_located(image, g, p) for image, g, p in shots],
    }
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        for way, reads in ways.items():
            times.setdefault(f"{way}_numpys_ms", []).append(ms_a_read(reads))
            with threadpool_limits(limits=1, user_api="blas"):
                times.setdefault(f"{way}_one_ms", []).append(ms_a_read(reads))
    row = {key: round(statistics.median(values), 2) for key, values in times.items()}
    for way in ways:
        row[f"{way}_numpys_over_one"] = round(row[f"{way}_numpys_ms"] / row[f"{way}_one_ms"], 2)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--every", type=int, default=2, help="read every N-th screenshot")
    parser.add_argument("--json", action="store_true", help="one JSON line per count of busy processes")
    args = parser.parse_args()
    threads = sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"})
    shots = frames(args.every)
    measure(shots, 1)  # the profiles' looks drawn and kept before anything is timed
    for busy in args.busy:
        spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
        try:
            time.sleep(0.5)
            row = {"busy": busy, "screenshots": len(shots), "numpys_threads": threads, **measure(shots, args.runs)}
        finally:
            for process in spinning:
                process.kill()
                process.wait()
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{busy} busy beside, {len(shots)} screenshots: from scratch {row['scratch_numpys_ms']} ms with "
                  f"numpy's {threads} threads, {row['scratch_one_ms']} ms on one ({row['scratch_numpys_over_one']}x); "
                  f"a frame {row['frame_numpys_ms']} ms, {row['frame_one_ms']} ms ({row['frame_numpys_over_one']}x)",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
