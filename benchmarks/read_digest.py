#!/usr/bin/env python3
"""Every recorded screenshot read five ways, each read written down to the bit: to show that a change to the
reader reads every fixture as before, or to list what it reads otherwise.

    .venv/bin/python benchmarks/read_digest.py --out FILE [--every N] [--only TEXT]
    .venv/bin/python benchmarks/read_digest.py --compare BEFORE AFTER

Every PNG under ``tests/fixtures/`` (recordings' frames included; a profile folder's looks left out) is
read with the built-in profiles (a screenshot with a profile folder beside it, ``profile/``, with that folder,
as play reads with a calibrated profile) five ways:

* ``as-is``: from scratch (``read_screenshot``);
* ``again``: the same frame read again where it was read, with what the first read saw (``read_located`` with
  its ``seen``: play's tracked read, which must give the same reading);
* ``larger``: resized 1.25 (a desktop scale: looks drawn at another size);
* ``brighter``: 8 % brighter and 6 levels up (looks fitted to the screen's brightness);
* ``withheld``: at its own size without the profile that read it (its client's other sizes drawn at it;
  only where a profile made at its size read it).

Each read is one JSON line: the profile, grid, board, mines left and, for every cell, a digest of its
character, rms, margin and look (the bits), or the error's text. A frame read again that gives another reading
is counted (the exit code is then 1). ``--compare`` lists every read that differs between two such files and
how (profile, grid, board, count, cell bits, error; and, against the board written beside a screenshot,
whether each read is right, wrong or refused), and exits 1 if any does. Reads run on the checkout this
script is in, or on ``PYTHONPATH``'s: to compare two revisions, run it once with ``PYTHONPATH`` set to a
worktree of the other (the fixtures are always this checkout's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from sweepbot.board import Board
from sweepbot.errors import SweepbotError
from sweepbot.vision.capture import load_image
from sweepbot.vision.profile import Profile, available_profiles, load_profile
from sweepbot.vision.read import Reading, read_located, read_screenshot

ROOT = Path(__file__).resolve().parents[1]
#: A desktop scale, and a screen brighter than the looks (as ``benchmarks/read_sizes.py`` reads them).
LARGER = 1.25
BRIGHTER = (1.08, 6.0)


def cells_digest(reading: Reading) -> str:
    """A digest of every cell's character, rms, margin and look, to the bit."""
    scores = reading.scores
    digest = hashlib.sha1()
    for part in (scores.chars, scores.rms, scores.margin, scores.best):
        digest.update(np.ascontiguousarray(part).tobytes())
    return digest.hexdigest()[:16]


def described(read: Callable[[], Reading]) -> tuple[dict[str, Any], Reading | None]:
    """What a read gives, as a JSON object, and the reading (None: refused)."""
    try:
        reading = read()
    except SweepbotError as err:
        return {"error": str(err)}, None
    board = reading.board
    return {"profile": reading.profile.name, "xs": list(reading.geometry.xs), "ys": list(reading.geometry.ys),
            "grid": list(board.grid), "mines": board.mines, "mines_left": reading.mines_left,
            "cells": cells_digest(reading)}, reading


def reads(png: Path, built_in: list[Profile]) -> Iterator[dict[str, Any]]:
    """The five reads of one screenshot."""
    own = png.parent / "profile"
    profiles = [load_profile(own)] if own.is_dir() else built_in
    unknown = own.is_dir()
    image = load_image(png)
    name = str(png.relative_to(ROOT))

    def screenshot(picture: np.ndarray, among: list[Profile]) -> Callable[[], Reading]:
        return lambda: read_screenshot(picture, profiles=among, opened_unknown=unknown)

    first, reading = described(screenshot(image, profiles))
    yield {"fixture": name, "way": "as-is", **first}
    if reading is not None:
        found = reading

        def again() -> Reading:
            return read_located(image, found.geometry, found.profile, opened_unknown=unknown, last=found.seen)

        second = described(again)[0]
        # play's tracked read gives the first reading again, to the bit
        yield {"fixture": name, "way": "again", **second, "as_first": second == first}
    larger = cv2.resize(image, None, fx=LARGER, fy=LARGER, interpolation=cv2.INTER_LINEAR)
    yield {"fixture": name, "way": "larger", **described(screenshot(larger, profiles))[0]}
    gain, offset = BRIGHTER
    brighter = np.clip(image.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)
    yield {"fixture": name, "way": "brighter", **described(screenshot(brighter, profiles))[0]}
    if reading is not None and not reading.profile.drawn_from and not unknown:
        others = [p for p in profiles if p.name != reading.profile.name]
        yield {"fixture": name, "way": "withheld", **described(screenshot(image, others))[0]}


def judge(fixture: str, row: dict[str, Any]) -> str:
    """A read held against the board written beside its screenshot (a resized or brighter screenshot shows
    the same board): ``right``, ``wrong``, ``refused``, or ``read``/``refused`` where none is written."""
    if "error" in row:
        return "refused"
    written = (ROOT / fixture).with_suffix(".board")
    if not written.is_file():
        return "read"
    return "right" if list(Board.parse(written.read_text(encoding="utf-8")).grid) == row["grid"] else "wrong"


def compare(before_path: Path, after_path: Path) -> int:
    def load(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return {(row["fixture"], row["way"]): row for row in rows}

    before, after = load(before_path), load(after_path)
    differ = 0
    judged: Counter[tuple[str, str]] = Counter()
    for key in sorted(set(before) | set(after)):
        one, two = before.get(key), after.get(key)
        if one == two:
            continue
        differ += 1
        if one is None or two is None:
            print(f"{key[0]} {key[1]}: read {'only after' if one is None else 'only before'}")
            continue
        what = [field for field in ("error", "profile", "xs", "ys", "grid", "mines", "mines_left", "cells")
                if one.get(field) != two.get(field)]
        judgement = (judge(key[0], one), judge(key[0], two))
        judged[judgement] += 1
        print(f"{key[0]} {key[1]}: {', '.join(what)} differ ({' -> '.join(judgement)})")
        for field in ("error", "profile"):
            if field in what:
                print(f"    before: {str(one.get(field))[:150]}\n    after:  {str(two.get(field))[:150]}")
    print(f"{len(set(before) | set(after))} reads, {differ} differ")
    for (was, now), count in sorted(judged.items()):
        print(f"    {count} {was} -> {now}")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="the file the reads are written to, one JSON line each")
    parser.add_argument("--every", type=int, default=1, help="read every N-th screenshot")
    parser.add_argument("--only", default="", help="read only the screenshots whose path holds this text")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("--out or --compare is needed")
    # (a profile folder's looks are no screenshots)
    pngs = [png for png in sorted((ROOT / "tests" / "fixtures").rglob("*.png"))
            if args.only in str(png) and png.parent.name != "profile"]
    built_in = available_profiles()
    count = unlike = 0
    # on one BLAS thread, as sweepbot's commands read (an older revision, read through PYTHONPATH, may not say so)
    with threadpool_limits(limits=1, user_api="blas"), args.out.open("w", encoding="utf-8") as out:
        for png in pngs[:: args.every]:
            for row in reads(png, built_in):
                out.write(json.dumps(row) + "\n")
                count += 1
                unlike += row.get("as_first") is False
    print(f"{count} reads of {len(pngs[:: args.every])} screenshots written to {args.out}; read again with "
          f"what they saw, {unlike} gave another reading")
    return 1 if unlike else 0


if __name__ == "__main__":
    sys.exit(main())
