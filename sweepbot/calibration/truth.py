"""A profile checked against a board whose every cell's truth is known (a generated client's sheet of looks):
the cells it names, and names wrongly. A cell it refuses is not a wrong name: a refusal reads no board; nor
is an open cell read as open with its number not known yet (``=``), which play plays around until the game
proves the number."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sweepbot.board import NUMBERS, OPENED, ZERO
from sweepbot.vision.decide import classify
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import LocateError, locate
from sweepbot.vision.profile import Profile, load_profile

#: the truths an open cell of unknown number (``=``) may stand for
REVEALED_NUMBERS = ZERO + NUMBERS


def misnamed(image: np.ndarray, x_edges: Sequence[int], y_edges: Sequence[int], truth: Sequence[str],
             profile: Profile) -> tuple[list[tuple[int, int, str, str]], int]:
    """The cells ``profile`` names otherwise than ``truth`` says (row, col, true, read), and how many cells it
    names at all, on ``image`` (BGR): at the cells the board is found at, as play finds them, when that is a
    grid of the truth's size, else between the given edges."""
    geometry = Geometry(tuple(int(x) for x in x_edges), tuple(int(y) for y in y_edges))
    with contextlib.suppress(LocateError):
        found = locate(image)
        if (found.rows, found.cols) == (geometry.rows, geometry.cols):
            geometry = found
    scores = classify(image, geometry, profile)
    wrong = []
    named = 0
    for r, row in enumerate(truth):
        for c, true in enumerate(row):
            read = str(scores.chars[r, c])
            if not scores.accepted[r, c] or (read == OPENED and true in REVEALED_NUMBERS):
                continue  # refused, or read as open with its number not known yet: no name given
            named += 1
            if read != true:
                wrong.append((r, c, true, read))
    return wrong, named


def misnamed_in_store(image: np.ndarray, x_edges: Sequence[int], y_edges: Sequence[int], truth: Sequence[str],
                      store: Path) -> tuple[list[str], int]:
    """Every cell of ``truth`` named otherwise by a profile of ``store`` ("PROFILE: TRUE read as READ"), and
    how many cells the best-knowing of those profiles names at all (see :func:`misnamed`)."""
    wrong: list[str] = []
    named = 0
    for folder in sorted(p for p in store.iterdir() if (p / "profile.json").is_file()):
        cells, count = misnamed(image, x_edges, y_edges, truth, load_profile(folder))
        wrong += [f"{folder.name}: {true} read as {read}" for _, _, true, read in cells]
        named = max(named, count)
    return wrong, named

