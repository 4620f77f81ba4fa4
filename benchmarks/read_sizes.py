#!/usr/bin/env python3
"""Read time and passes over the cells at a client's own cell size and at a drawn one, on the recorded fixtures.

    .venv/bin/python benchmarks/read_sizes.py [--runs 5] [--scale 1.25] [--withhold-own] [--brighter] [--json]

Every screenshot under ``tests/fixtures/`` with its expected board written beside it (``NAME.board``) is read
with the built-in profiles three ways, each timed over ``--runs`` batches of reads (a batch as many reads as
last 5 ms; the median of the batches' time a read):

* ``scratch``: from scratch (``read_screenshot``: locate, choose the profile, align, read);
* ``frame``: a frame of a board found before (``read_located`` at the place and with the profile found);
* ``tracked``: the next frame of that board, one cell changed: its first cell's window drawn as another
  cell's (``read_located`` with the ``seen`` of the frame before: only what changed is looked at again).

A read at the client's own size uses a profile made there; a read at a drawn size uses a profile's templates
drawn at the board's cell size (``vision/scaled.py``). With ``--scale``, every screenshot is read as well
resized by that factor (a desktop or browser scale): the same frames at a drawn size. Their ratios to the same
screenshots read at their own size, screenshot by screenshot, give ``same_frames_drawn_over_own_*`` (the
median): a resized frame has more pixels as well (1.25 times larger, 1.56 times as many). With
``--withhold-own``, every screenshot read with a profile made at its size is read again at that same size
without that profile (its client's other sizes drawn at it): the cost of drawn looks alone, on the same pixels,
as ``withheld_drawn_over_own_*``. With ``--brighter``, every screenshot is read as well as a screen 8 %
brighter and 6 levels up shows it (its own profile's looks fitted to that brightness), as
``brighter_fitted_over_as_is_*``. ``passes`` counts the cell windows scored against a profile's looks
(``vision.cells.score``), in boards' worth of cells. A screenshot's own, resized, withheld and brighter reads
are timed one after the other. Prints one line per screenshot (scale, cell size, own or drawn, median ms and
passes of each way, whether the board read is the expected one), then the median of each kind and the
drawn/own ratios.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sweepbot.board import Board
from sweepbot.errors import SweepbotError
from sweepbot.threads import on_one_thread
from sweepbot.vision import cells
from sweepbot.vision.capture import load_image
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile, available_profiles
from sweepbot.vision.read import read_located, read_screenshot

ROOT = Path(__file__).resolve().parents[1]
WAYS = ("scratch", "frame", "tracked")


class Counter:
    """Counts the windows every module's ``score`` (``vision.cells.score``) is given."""

    def __init__(self) -> None:
        self.windows = 0
        real = cells.score

        def counted(windows: np.ndarray, *args: Any, **kwargs: Any) -> cells.CellScores:
            self.windows += len(windows)
            return real(windows, *args, **kwargs)

        for module in [m for name, m in sys.modules.items() if name.startswith("sweepbot.vision")]:
            if getattr(module, "score", None) is real:
                module.score = counted  # type: ignore[attr-defined]


def one_cell_changed(image: np.ndarray, geometry: Geometry, profile: Profile, board: Board) -> np.ndarray:
    """The frame with its first cell's window (the pixels a read compares) drawn as another cell's: the last
    one that reads as it does but is drawn a little differently, or else the last one of another look with
    which the frame still reads."""
    ox, oy, w, h = profile.crop

    def window(r: int, c: int) -> np.ndarray:
        return image[geometry.ys[r] + oy : geometry.ys[r] + oy + h, geometry.xs[c] + ox : geometry.xs[c] + ox + w]

    cells = [(r, c) for r in range(geometry.rows) for c in range(geometry.cols) if (r, c) != (0, 0)][::-1]
    same = [rc for rc in cells if board.grid[rc[0]][rc[1]] == board.grid[0][0]]
    other = [rc for rc in cells if board.grid[rc[0]][rc[1]] != board.grid[0][0]]
    for r, c in same + other:
        if np.array_equal(window(r, c), window(0, 0)):
            continue
        changed = image.copy()
        changed[geometry.ys[0] + oy : geometry.ys[0] + oy + h, geometry.xs[0] + ox : geometry.xs[0] + ox + w] = \
            window(r, c)
        try:
            read_located(changed, geometry, profile)
        except SweepbotError:
            continue
        return changed
    return image


#: The least time (s) one timed batch of reads lasts: a read of under a millisecond is timed over many.
BATCH = 0.005


def timed(counter: Counter, runs: int, cells_on_board: int, read: Callable[[], object]) -> tuple[float, float]:
    """Median ms of a read over ``runs`` batches (each of as many reads as last ``BATCH`` seconds), and the
    passes over the board's cells of one."""
    counter.windows = 0
    start = time.perf_counter()
    read()
    first = time.perf_counter() - start
    passes = counter.windows / cells_on_board
    batch = max(1, math.ceil(BATCH / max(first, 1e-6)))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(batch):
            read()
        times.append((time.perf_counter() - start) * 1000 / batch)
    return statistics.median(times), passes


#: A screen brighter than the looks: gain and offset (as tests/recorded/test_vision_robustness.py's "8 %
#: brighter, +6").
BRIGHTER = (1.08, 6.0)


def measure(png: Path, runs: int, counter: Counter, scale: float = 1.0,
            withhold_own: bool = False, brighter: bool = False) -> dict[str, object]:
    """One screenshot's row; with ``withhold_own``, read at its size without the profile made at that size
    (a screenshot no such profile reads is refused); with ``brighter``, as a brighter screen shows it."""
    expected = Board.parse(png.with_suffix(".board").read_text(encoding="utf-8"))
    image = load_image(png)
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    if brighter:
        gain, offset = BRIGHTER
        image = np.clip(image.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)
    row: dict[str, object] = {"fixture": str(png.relative_to(ROOT)), "scale": scale, "withheld": withhold_own,
                              "brighter": brighter}
    profiles = available_profiles()
    try:
        reading = read_screenshot(image, profiles=profiles)
        if withhold_own:
            if reading.profile.drawn_from:
                raise SweepbotError("no profile made at its size reads it")
            profiles = [p for p in profiles if p.name != reading.profile.name]
            reading = read_screenshot(image, profiles=profiles)
    except SweepbotError as err:
        row.update(kind="refused", error=str(err)[:120])
        return row
    geometry, profile = reading.geometry, reading.profile
    n = geometry.rows * geometry.cols
    before = read_located(image, geometry, profile)
    changed = one_cell_changed(image, geometry, profile, reading.board)
    reads = {
        "scratch": lambda: read_screenshot(image, profiles=profiles),
        "frame": lambda: read_located(image, geometry, profile),
        "tracked": lambda: read_located(changed, geometry, profile, last=before.seen),
    }
    row.update(kind="drawn" if profile.drawn_from else "own", profile=profile.name,
               cell=round(geometry.pitch[0], 1), right=list(reading.board.grid) == list(expected.grid))
    for way, read in reads.items():
        ms, passes = timed(counter, runs, n, read)
        row[f"{way}_ms"], row[f"{way}_passes"] = round(ms, 2), round(passes, 3)
    return row


@on_one_thread  # as the commands read
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scale", type=float, help="read every screenshot resized by this factor as well")
    parser.add_argument("--withhold-own", action="store_true",
                        help="read every screenshot as well at its own size without the profile made there")
    parser.add_argument("--brighter", action="store_true",
                        help="read every screenshot as well as a brighter screen shows it (8 %% brighter, +6)")
    parser.add_argument("--json", action="store_true", help="one JSON line per screenshot, then the summary")
    args = parser.parse_args()
    counter = Counter()
    pngs = [png for png in sorted((ROOT / "tests" / "fixtures").rglob("*.png")) if png.with_suffix(".board").is_file()]
    rows: list[dict[str, object]] = []
    scaled: list[dict[str, object]] = []
    withheld: list[dict[str, object]] = []
    bright: list[dict[str, object]] = []
    for png in pngs:  # each screenshot's ways one after the other: a busy spell of the machine hits them alike
        rows.append(measure(png, args.runs, counter))
        if args.scale:
            scaled.append(measure(png, args.runs, counter, args.scale))
        if args.withhold_own:
            withheld.append(measure(png, args.runs, counter, withhold_own=True))
        if args.brighter:
            bright.append(measure(png, args.runs, counter, brighter=True))
    for row in rows + scaled + withheld + bright:
        if args.json:
            print(json.dumps(row))
        elif row["kind"] == "refused":
            print(f"{row['fixture']:56} x{row['scale']:<4} {'withheld ' if row['withheld'] else ''}"
                  f"{'brighter ' if row['brighter'] else ''}refused: {row['error']}")
        else:
            ways = "  ".join(f"{way} {row[f'{way}_ms']:7.2f} ms {row[f'{way}_passes']:6.3f}x" for way in WAYS)
            print(f"{row['fixture']:56} x{row['scale']:<4} {row['cell']:>5} {row['kind']:5} {ways} "
                  f"{'right' if row['right'] else 'WRONG'}{' withheld' if row['withheld'] else ''}"
                  f"{' brighter' if row['brighter'] else ''}")
    summary: dict[str, object] = {"screenshots": len(rows)}
    for kind in ("own", "drawn", "refused"):
        these = [r for r in rows if r["kind"] == kind]
        summary[kind] = len(these)
        if not these or kind == "refused":
            continue
        summary[f"{kind}_wrong"] = sum(1 for r in these if not r["right"])
        for way in WAYS:
            for what in ("ms", "passes"):
                summary[f"{kind}_{way}_{what}"] = round(statistics.median(float(str(r[f"{way}_{what}"]))
                                                                          for r in these), 3)
    if summary.get("own") and summary.get("drawn"):
        for way in WAYS:
            own, drawn = float(str(summary[f"own_{way}_ms"])), float(str(summary[f"drawn_{way}_ms"]))
            summary[f"drawn_over_own_{way}"] = round(drawn / own, 2)
    if scaled:
        summary.update(same_frames(rows, scaled))
    if withheld:
        summary.update(same_frames(rows, withheld, "withheld"))
    if bright:
        summary.update(same_frames(rows, bright, "brighter", ("own", "own"), ("as_is", "fitted")))
    print(json.dumps(summary) if args.json else "\n" + "  ".join(f"{k}: {v}" for k, v in summary.items()))
    return 0


def same_frames(rows: list[dict[str, object]], scaled: list[dict[str, object]],
                prefix: str = "same_frames", kinds: tuple[str, str] = ("own", "drawn"),
                names: tuple[str, str] = ("own", "drawn")) -> dict[str, object]:
    """The screenshots read at their own size and, resized (or with their own profile withheld), with a drawn
    profile (``kinds``: read with a profile of these kinds, each time; a brighter screen's with its own): how
    many, the median ms of each way each time, and the median of their ratios, screenshot by screenshot (the
    first time and the second named by ``names``: a brighter screen's ``as_is`` and ``fitted``)."""
    pairs = [(own, drawn) for own, drawn in zip(rows, scaled, strict=True)
             if own["kind"] == kinds[0] and drawn["kind"] == kinds[1]]
    out: dict[str, object] = {prefix: len(pairs),
                              f"{prefix}_refused": sum(1 for r in scaled if r["kind"] == "refused"),
                              f"{prefix}_wrong": sum(1 for r in scaled if r["kind"] != "refused" and not r["right"])}
    if not pairs:
        return out
    for way in WAYS:
        own = [float(str(a[f"{way}_ms"])) for a, _ in pairs]
        drawn = [float(str(b[f"{way}_ms"])) for _, b in pairs]
        first, second = names
        out[f"{prefix}_{first}_{way}_ms"] = round(statistics.median(own), 2)
        out[f"{prefix}_{second}_{way}_ms"] = round(statistics.median(drawn), 2)
        out[f"{prefix}_{second}_over_{first}_{way}"] = round(statistics.median(b / a for a, b in zip(own, drawn,
                                                                                                   strict=True)), 2)
    return out


if __name__ == "__main__":
    sys.exit(main())
