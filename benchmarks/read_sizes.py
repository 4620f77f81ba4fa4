#!/usr/bin/env python3
"""Read time per frame at a client's own cell size and at a drawn one, on the recorded fixtures.

    .venv/bin/python benchmarks/read_sizes.py [--runs 5] [--json]

Every screenshot under ``tests/fixtures/`` with its expected board written beside it (``NAME.board``) is read
from scratch (``read_screenshot``: locate, choose the profile, align, read) ``--runs`` times with the built-in
profiles. A read at the client's own size uses a profile made there; a read at a drawn size uses a profile's
templates drawn at the board's cell size (``vision/scaled.py``). Prints one line per screenshot (cell size,
profile, own or drawn, median ms, whether the board read is the expected one), then the median ms of each
kind and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from sweepbot.board import Board
from sweepbot.errors import SweepbotError
from sweepbot.vision.capture import load_image
from sweepbot.vision.read import read_screenshot

ROOT = Path(__file__).resolve().parents[1]


def measure(png: Path, runs: int) -> dict[str, object]:
    expected = Board.parse(png.with_suffix(".board").read_text(encoding="utf-8"))
    image = load_image(png)
    row: dict[str, object] = {"fixture": str(png.relative_to(ROOT))}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        try:
            reading = read_screenshot(image)
        except SweepbotError as err:
            row.update(kind="refused", error=str(err)[:120])
            return row
        times.append((time.perf_counter() - start) * 1000)
    profile = reading.profile
    row.update(kind="drawn" if profile.drawn_from else "own", profile=profile.name,
               cell=round(reading.geometry.pitch[0], 1), ms=round(statistics.median(times), 1),
               right=list(reading.board.grid) == list(expected.grid))
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON line per screenshot, then the summary")
    args = parser.parse_args()
    rows = [measure(png, args.runs) for png in sorted((ROOT / "tests" / "fixtures").rglob("*.png"))
            if png.with_suffix(".board").is_file()]
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{row['fixture']:60} {row.get('cell', ''):>6} {row['kind']:7} {row.get('profile', ''):28} "
                  f"{row.get('ms', ''):>7} {'right' if row.get('right') else row.get('error', 'WRONG')}")
    summary: dict[str, object] = {"screenshots": len(rows)}
    medians: dict[str, float] = {}
    for kind in ("own", "drawn", "refused"):
        these = [r for r in rows if r["kind"] == kind]
        summary[kind] = len(these)
        if these and kind != "refused":
            medians[kind] = statistics.median(float(str(r["ms"])) for r in these)
            summary[f"{kind}_ms_median"] = round(medians[kind], 1)
            summary[f"{kind}_wrong"] = sum(1 for r in these if not r["right"])
    if "own" in medians and "drawn" in medians:
        summary["drawn_over_own"] = round(medians["drawn"] / medians["own"], 2)
    print(json.dumps(summary) if args.json else "\n" + "  ".join(f"{k}: {v}" for k, v in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
