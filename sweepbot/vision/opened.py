"""Cells read as open, number not known (``=``): what a calibrated profile still learning does with the few
cells it cannot name that are plainly open cells, a number it never saw. Clients draw a number two ways: in
an ink of its own on the empty cell's ground (xdemineur's 6 in green), or in the ink every number shares on
a ground of its own (gnome-mines's dark digits on a tint for each number); a number never seen keeps the
other half of its look, and is known as open by it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweepbot.board import COVERED, NUMBERS, OPENED, ZERO
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, distances
from sweepbot.vision.derived import derived
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
    on it, however dark the ink; or the numbers' ink on a ground of its own (:func:`numbers_ink_on_a_ground`)."""
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
    return np.asarray((gap >= table.min_margin) | ((ground >= table.ground_share) & (ground > face))
                      | numbers_ink_on_a_ground(windows, profile))


def numbers_ink_on_a_ground(windows: np.ndarray, profile: Profile) -> np.ndarray:
    """Whether each window (one a row) is drawn as the profile's numbers are, in their ink on a plain ground,
    with a ground of its own that is an open cell's: the colour most of its pixels show (on at least the
    table's ``ground_share`` of them, within ``ground_levels``) nearer the ground of an open look (the empty
    cell's or a number's) than of a covered tile's, by the reader's margin, and no farther from the nearest
    number's ground than ``ground_reach`` times as far as the numbers' grounds lie from each other; and the
    colour of what is drawn on it
    within ``ink_match`` of a number's ink. A tile lit under the pointer shows a covered tile's ground, a
    flag or a mine another ink or a ground far from every number's, and so none is taken; a client whose
    numbers share one ground (any spread is none) takes none this way."""
    table = limits.LIMITS
    labels = np.array(profile.labels)
    looks = _looks_drawn(profile)
    numbered = np.isin(labels, list(NUMBERS + OPENED)) & ~np.isnan(looks.inks).any(axis=1)
    covered, opened = labels == COVERED, numbered | (labels == ZERO)
    taken = np.zeros(len(windows), bool)
    if numbered.sum() < 2 or not covered.any():
        return taken
    grounds, inks = looks.grounds[numbered], looks.inks[numbered]
    spread = float(np.sqrt(_squared(grounds[:, None], grounds[None]).max()))
    if spread == 0.0:
        return taken
    mine = _drawn(windows.reshape(len(windows), -1, 3))
    shut, open_ = looks.grounds[covered], looks.grounds[opened]
    to_shut, to_open = _squared(mine.grounds[:, None], shut[None]), _squared(mine.grounds[:, None], open_[None])
    near_shut, near_open = to_shut.argmin(axis=1), to_open.argmin(axis=1)
    rows = np.arange(len(windows))
    apart = np.maximum(_squared(open_[near_open], shut[near_shut]), 1e-9)
    gap = (to_shut[rows, near_shut] - to_open[rows, near_open]) / apart
    among = np.sqrt(_squared(mine.grounds[:, None], grounds[None]).min(axis=1)) <= table.ground_reach * spread
    inked = np.sqrt(_squared(mine.inks[:, None], inks[None]).min(axis=1)) <= table.ink_match  # NaN: never
    # what is drawn, wherever its colours: nearer a number's drawing than any other look's (a wrong flag is a
    # flag drawn on a ground of its own)
    unlike = (mine.drawings[:, None] ^ looks.drawings[None]).sum(axis=2)
    number = np.isin(labels, list(NUMBERS + OPENED))
    shaped = unlike[:, number].min(axis=1) < unlike[:, ~number].min(axis=1, initial=np.iinfo(np.int64).max)
    return np.asarray((mine.shares >= table.ground_share) & (gap >= table.min_margin) & among & inked & shaped)


class _Drawn:
    """For K windows or looks: each one's ground (the colour most of its pixels are), the share of its pixels
    within the table's ``ground_levels`` of it (K x N: ``drawings``, the others), and its ink: the median
    colour of the quarter of its other pixels farthest from the ground, a stroke's core (NaN: nothing drawn
    on the ground)."""

    def __init__(self, grounds: np.ndarray, shares: np.ndarray, drawings: np.ndarray, inks: np.ndarray) -> None:
        self.grounds, self.shares, self.drawings, self.inks = grounds, shares, drawings, inks


def _drawn(pixels: np.ndarray) -> _Drawn:
    """:class:`_Drawn` of K windows (``pixels``: K x N x 3)."""
    levels = limits.LIMITS.ground_levels
    k = len(pixels)
    grounds, shares, inks = np.zeros((k, 3), np.float32), np.zeros(k), np.full((k, 3), np.nan, np.float32)
    drawings = np.zeros(pixels.shape[:2], bool)
    for i, one in enumerate(pixels.astype(np.float32)):
        colours, counts = np.unique(one, axis=0, return_counts=True)
        grounds[i] = colours[counts.argmax()]
        on = np.abs(one - grounds[i]).max(axis=1) <= levels
        shares[i], drawings[i] = on.mean(), ~on
        rest = one[~on]
        if len(rest):
            far = np.sqrt(_squared(rest, grounds[i]))
            inks[i] = np.median(rest[far >= np.quantile(far, 0.75)], axis=0)
    return _Drawn(grounds, shares, drawings, inks)


def _looks_drawn(profile: Profile) -> _Drawn:
    """:class:`_Drawn` of the profile's looks, worked out once."""
    _, _, w, h = profile.crop
    return derived(profile, "looks' grounds and inks",
                   lambda: _drawn(np.round(profile.stack).reshape(len(profile.labels), h * w, 3)))


def _squared(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The squared distance between colours (last axis), broadcast."""
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    return np.einsum("...i,...i->...", d, d)


def _ground(windows: np.ndarray, profile: Profile, looks: np.ndarray) -> np.ndarray:
    """For each window, the largest share of its pixels that show one of ``looks`` (a mask of the profile's
    looks), every channel within the table's ``ground_levels``."""
    pixels = windows.astype(np.float32).reshape(len(windows), -1, 3)
    shares = [(np.abs(pixels - profile.stack[i].reshape(-1, 3)).max(axis=2) <= limits.LIMITS.ground_levels
               ).mean(axis=1) for i in np.flatnonzero(looks)]
    return np.max(shares, axis=0)


def learning(profile: Profile) -> bool:
    """A calibrated profile (not a built-in one) learns the looks it meets in play."""
    return profile.folder is not None and not profile.in_package


def reads_unknown(profile: Profile) -> bool:
    """Whether a few cells no look fits may read as open cells of unknown number (``=``, with
    ``opened_unknown``): with a profile still learning, or a built-in one made at the board's size whose games
    never showed every number (gnome-mines's 46 px profile has no 6, 7 or 8). Such a profile holds the numbers
    it has within ``unseen_number_share`` (``vision.cells``), so that a number it lacks is not named as one it
    has; play reads such a cell open and goes on, where refusing it would stop the game."""
    return learning(profile) or profile.lacks_numbers
