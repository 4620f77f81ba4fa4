"""Cells read as open, number not known (``=``): what a calibrated profile still learning does with the few
cells it cannot name that are plainly open cells, a number it never saw drawn on the empty cell's ground."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweepbot.board import COVERED, OPENED, ZERO
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, distances
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile


def as_opened(scores: CellScores, geometry: Geometry, profile: Profile) -> CellScores:
    """``scores`` with its refused cells read as ``=`` when there are few enough of them (the table's
    ``max_opened`` and ``opened_share``; with a profile drawn at another size, which has every digit to learn,
    any as long as ``drawn_fitting_share`` of the cells fit its looks as they are), each nearest an open look
    and clear of a covered tile (:func:`clear_of_covered`); else ``scores`` as they are."""
    bad = scores.refused()
    cells = geometry.rows * geometry.cols
    table = limits.LIMITS
    most = ((1 - table.drawn_fitting_share) * cells if profile.drawn_from
            else max(table.max_opened, cells // table.opened_share))
    # nearest a mine, too, on a board that shows none (a game on, or won with its mines covered): an unseen
    # number drawn in the mines' colour; on a board that shows mines it may be one drawn another way
    shows_mines = bool(np.isin(scores.chars[scores.accepted], list("*!X")).any())
    like_opened = ".12345678~=" if shows_mines else ".12345678~=*"
    if len(bad) > most or any(str(scores.chars[r, c]) not in like_opened for r, c in bad):
        return scores
    windows = None if scores.track is None else scores.track.plain.windows
    if windows is None or not clear_of_covered(windows[[r * geometry.cols + c for r, c in bad]], profile).all():
        # half-way between a covered tile and an open look (a tile pressed or lit under the pointer, drawn
        # while the client answers a click): not proved open
        return scores
    chars = scores.chars.copy()
    rms, margin = scores.rms.copy(), scores.margin.copy()
    for r, c in bad:
        chars[r, c], rms[r, c], margin[r, c] = OPENED, 0.0, 1.0
    return replace(scores, chars=chars, rms=rms, margin=margin)


def clear_of_covered(windows: np.ndarray, profile: Profile) -> np.ndarray:
    """Whether each window (uint8 or float, one a row) is an open cell rather than a covered tile: nearer the
    empty cell's look than a covered tile's by the reader's margin, as :mod:`vision.cells` measures it (a
    profile without an empty cell's look: nearer some look other than a covered tile's); or showing the
    empty cell's ground on most of its pixels and a covered tile's face on fewer (the table's
    ``ground_levels`` and ``ground_share``): an open cell of a number never seen is the empty cell with ink
    on it, however dark the ink."""
    labels = np.array(profile.labels)
    covered, empty = labels == COVERED, labels == ZERO
    if not covered.any() or covered.all():
        return np.ones(len(windows), bool)
    table = limits.LIMITS
    d = distances(windows.astype(np.float32), profile)
    shut, other = np.flatnonzero(covered), np.flatnonzero(empty if empty.any() else ~covered)
    near_shut, near_other = shut[d[:, shut].argmin(axis=1)], other[d[:, other].argmin(axis=1)]
    rows = np.arange(len(windows))
    gap = (d[rows, near_shut] - d[rows, near_other]) / np.maximum(profile.pairs[near_other, near_shut], 1e-9)
    if not empty.any():
        return np.asarray(gap >= table.min_margin)
    ground, face = _ground(windows, profile, empty), _ground(windows, profile, covered)
    return np.asarray((gap >= table.min_margin) | ((ground >= table.ground_share) & (ground > face)))


def _ground(windows: np.ndarray, profile: Profile, looks: np.ndarray) -> np.ndarray:
    """For each window, the largest share of its pixels that show one of ``looks`` (a mask of the profile's
    looks), every channel within the table's ``ground_levels``."""
    pixels = windows.astype(np.float32).reshape(len(windows), -1, 3)
    shares = [(np.abs(pixels - profile.stack[i].reshape(-1, 3)).max(axis=2) <= limits.LIMITS.ground_levels
               ).mean(axis=1) for i in np.flatnonzero(looks)]
    return np.max(shares, axis=0)
