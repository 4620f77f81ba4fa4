"""Classifying every cell of a located board against a profile's templates, all cells at once.

Each cell's template window is cut out (one gather for the whole board), compared with every template by
squared distance (one matrix product), and given

* ``rms``: the root-mean-square pixel difference to its best template, and
* ``margin``: ``(d2 - d1) / p`` where ``d1``, ``d2`` are the squared distances to the best template and to
  the best template of another character, and ``p`` the squared distance between those two templates.
  An exact match scores 1; pixel noise leaves it near 1; a cell half-way between two looks scores 0.
* ``rival``: the root-mean-square pixel difference to the best template of another character (``d2``): a
  cell near two characters' looks, however its margin reads, could be either (``vision.decide``).

A cell is accepted when ``rms <= max_rms`` and ``margin >= min_margin`` (``vision.limits``); anything else is
refused. A profile made at the board's size that lacks some numbers holds the cells it names as a number or the
empty cell nearer: within the table's ``unseen_number_share`` of the distance between its two closest numbers
(:func:`numbers_limit`), since a digit it never saw lies about as far from the others as they lie from each
other, and is refused rather than read as the nearest. A cell's scores depend on its window alone (see
:func:`distances`): ``vision.track`` keeps them from frame to frame, ``vision.decide`` holds them to the board's
limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from sweepbot.board import NUMBERS, ZERO
from sweepbot.rect import Rect
from sweepbot.vision import limits
from sweepbot.vision.derived import derived
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile

if TYPE_CHECKING:
    from sweepbot.vision.track import Track


@dataclass(frozen=True)
class CellScores:
    """Per-cell results on a rows x cols grid."""

    chars: np.ndarray  # rows x cols, '<U1'
    rms: np.ndarray  # rows x cols float
    margin: np.ndarray  # rows x cols float
    best: np.ndarray  # rows x cols template index
    rival: np.ndarray  # rows x cols float: the rms to the best template of another character (inf: none)
    max_rms: float
    #: the windows, plain scores and second looks these came from (set by ``vision.decide.classify``), for
    #: the next frame's read
    track: Track | None = field(default=None, compare=False, repr=False)
    #: cells held to ``unanchored_rms`` instead of ``max_rms`` (``vision.decide``); None: none are
    held: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: scored against the looks fitted to the screen's brightness (see ``vision.decide.classify``)
    leveled: bool = field(default=False, compare=False, repr=False)
    #: where ``leveled`` (and asked for: ``vision.decide.classify``'s ``ranked``), the cells' mean residual
    #: against the looks as they are, what a read without the fit finds (a fit can make one client's looks
    #: like another's)
    shown_rms: float | None = field(default=None, compare=False, repr=False)
    #: cells refused for what is around them, however well they match (``vision.decide``); None: none are
    odd: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: the most a cell named as a number or the empty cell may differ from its look (:func:`numbers_limit`);
    #: None: ``max_rms``
    numbers_rms: float | None = field(default=None, compare=False, repr=False)

    @property
    def as_shown(self) -> float:
        """The cells' mean residual against the looks as they are, before any fit to the screen's brightness
        (scores fitted without ``ranked`` do not know it)."""
        if self.leveled and self.shown_rms is None:
            raise ValueError("scores fitted to the screen's brightness without their residual as shown")
        return float(self.rms.mean()) if self.shown_rms is None else self.shown_rms

    @property
    def accepted(self) -> np.ndarray:
        # a look calibration has not named ("~") is refused however well it matches
        table = limits.LIMITS
        limit = self.max_rms if self.held is None else np.where(
            self.held, min(self.max_rms, table.unanchored_rms), self.max_rms)
        if self.numbers_rms is not None and self.numbers_rms < self.max_rms:
            codes = self.chars.view(np.uint32)  # one code point a cell
            opened = ((codes >= ord("1")) & (codes <= ord("8"))) | (codes == ord(ZERO))
            limit = np.where(opened, np.minimum(limit, self.numbers_rms), limit)
        named = (self.rms <= limit) & (self.margin >= table.min_margin) & (self.chars != "~")
        return named if self.odd is None else named & ~self.odd

    def refused(self) -> list[tuple[int, int]]:
        rs, cs = np.nonzero(~self.accepted)
        return list(zip(rs.tolist(), cs.tolist(), strict=True))

    def grid(self) -> tuple[str, ...]:
        return tuple("".join(row) for row in self.chars)

    def cut(self, rows: slice, cols: slice) -> CellScores:
        """The scores of a block of the cells (without the windows they came from: ``track`` is None)."""
        def part(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else a[rows, cols]

        return CellScores(self.chars[rows, cols], self.rms[rows, cols], self.margin[rows, cols],
                          self.best[rows, cols], self.rival[rows, cols], self.max_rms, held=part(self.held),
                          leveled=self.leveled, odd=part(self.odd), numbers_rms=self.numbers_rms)


@lru_cache(maxsize=64)
def _window_index(
    xs: tuple[int, ...], ys: tuple[int, ...], crop: tuple[int, int, int, int],
    col_shift: tuple[int, ...] | None, row_shift: tuple[int, ...] | None, width: int, height: int,
) -> np.ndarray:
    """Flat pixel indices of every cell's window, cell by cell (row-major), pixel by pixel."""
    ox, oy, w, h = crop
    x0 = np.asarray(xs[:-1]) + ox + (np.asarray(col_shift) if col_shift else 0)
    y0 = np.asarray(ys[:-1]) + oy + (np.asarray(row_shift) if row_shift else 0)
    xi = np.clip(x0[:, None] + np.arange(w)[None, :], 0, width - 1)  # cols x w
    yi = np.clip(y0[:, None] + np.arange(h)[None, :], 0, height - 1)  # rows x h
    flat = yi[:, None, :, None] * width + xi[None, :, None, :]  # rows x cols x h x w
    return flat.reshape(len(y0) * len(x0), h * w)


def cell_windows(
    image: np.ndarray,
    geometry: Geometry,
    crop: tuple[int, int, int, int],
    col_shift: np.ndarray | None = None,
    row_shift: np.ndarray | None = None,
) -> np.ndarray:
    """Every cell's template window as one row of a ``(rows*cols) x (h*w*3)`` float32 array (row-major)."""
    return window_pixels(image, geometry, crop, col_shift, row_shift).astype(np.float32)


def windows_area(geometry: Geometry, crop: tuple[int, int, int, int]) -> Rect:
    """The rectangle of the image that ``vision.decide.classify`` reads: every cell's window, and the pixels a window
    may move by: for a second look at a refused cell, or as the grid is lined up again (the rounds of
    ``vision.align.align``)."""
    ox, oy, w, h = crop
    table = limits.LIMITS
    reach = max(table.nudge_reach, table.align_rounds * table.align_radius)
    x0, y0 = geometry.xs[0] + ox - reach, geometry.ys[0] + oy - reach
    x1, y1 = geometry.xs[-2] + ox + w + reach, geometry.ys[-2] + oy + h + reach
    return Rect(x0, y0, x1 - x0, y1 - y0)


def window_pixels(
    image: np.ndarray,
    geometry: Geometry,
    crop: tuple[int, int, int, int],
    col_shift: np.ndarray | None = None,
    row_shift: np.ndarray | None = None,
) -> np.ndarray:
    """Every cell's template window as one row of a ``(rows*cols) x (h*w*3)`` array of the image's pixels."""
    ox, oy, w, h = crop
    x0 = np.asarray(geometry.xs[:-1]) + ox + (0 if col_shift is None else np.asarray(col_shift))
    y0 = np.asarray(geometry.ys[:-1]) + oy + (0 if row_shift is None else np.asarray(row_shift))
    height, width = image.shape[:2]
    if len(x0) and len(y0) and min(x0.min(), y0.min()) >= 0 and x0.max() + w <= width and y0.max() + h <= height:
        return windows_at(image, y0[:, None], x0[None, :], (w, h))
    index = _window_index(
        geometry.xs, geometry.ys, (crop[0], crop[1], crop[2], crop[3]),
        None if col_shift is None else tuple(int(v) for v in col_shift),
        None if row_shift is None else tuple(int(v) for v in row_shift),
        image.shape[1], image.shape[0],
    )
    pixels = image.reshape(-1, 3)
    cut = pixels.take(index.ravel(), axis=0)
    return cut.reshape(index.shape[0], -1)


def windows_at(image: np.ndarray, ys: np.ndarray, xs: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The ``size`` (w, h) windows of the image whose top left pixels are ``ys``, ``xs`` (arrays broadcast
    together, every window inside the image), one row each, in the broadcast shape's order: cut from a view
    of the image's every window, much faster than a gather of their pixels."""
    w, h = size
    height, width = image.shape[:2]
    sy, sx, sc = image.strides
    # (a fourth channel, an alpha, left out)
    every = np.lib.stride_tricks.as_strided(image, (height - h + 1, width - w + 1, h, w, 3),
                                            (sy, sx, sy, sx, sc), writeable=False)
    return every[ys, xs].reshape(-1, h * w * 3)


def distances(windows: np.ndarray, profile: Profile, batched: bool = False,
              looks: np.ndarray | None = None) -> np.ndarray:
    """Squared distance of every window (N rows) to every template (or to the templates of indices ``looks``
    alone): N x T. Each window's distances depend on its pixels alone, so that a cell read again alone scores
    as it did among the others: the templates are held to multiples of 1/256 and the sums taken in float64,
    where pixels (whole numbers up to 255) times such templates add up exactly in any order, so a matrix
    product gives the same bits whatever windows or templates stand beside. With ``batched`` (for costs that
    only compare shifts) the product is float32's, faster still, whose last bits may differ with the windows
    beside."""
    if batched:
        return batched_distances(windows, profile.stack, profile.norms)
    stack, norms = exact_looks(profile)
    if looks is not None:
        stack, norms = stack[looks], norms[looks]
    win = windows.astype(np.float64)
    wsq = np.einsum("ij,ij->i", win, win)
    return np.maximum(wsq[:, None] + norms[None, :] - 2.0 * (win @ stack.T), 0.0)


#: float32's rounding of a distance taken by :func:`batched_distances`: well under this share of the sums it is
#: taken from (the window's squared norm and the look's)
FLOAT32_ROUNDING = 1e-4


def batched_distances(windows: np.ndarray, looks: np.ndarray, norms: np.ndarray) -> np.ndarray:
    """Squared distance of every window (N rows) to every look (one a row, with their squared ``norms``), by
    float32's matrix product (see :func:`distances`)."""
    wsq = np.einsum("ij,ij->i", windows, windows)
    return np.maximum(wsq[:, None] + norms[None, :] - 2.0 * (windows @ looks.T), 0.0)


def exact_looks(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """The profile's templates rounded to multiples of 1/256, in float64, and their squared norms."""
    def made() -> tuple[np.ndarray, np.ndarray]:
        stack = np.round(profile.stack.astype(np.float64) * 256.0) / 256.0
        return stack, (stack * stack).sum(1)

    return derived(profile, "exact templates", made)


def best_distance(windows: np.ndarray, profile: Profile) -> np.ndarray:
    """Each window's squared distance to its nearest template (batched: for comparing shifts)."""
    return distances(windows, profile, batched=True).min(axis=1)


def score(windows: np.ndarray, profile: Profile, rows: int, cols: int, max_rms: float | None = None) -> CellScores:
    """Best template, rms and margin for every window (accepted up to ``max_rms``; None: the table's). A window's
    scores depend on its pixels alone: windows drawn alike (a board's covered tiles, its empty cells, its many
    1s) are scored once."""
    codes, pairs = profile.codes, profile.pairs
    first, inverse = distinct_rows(windows)
    d = distances(windows[first], profile)
    n = len(d)
    best = d.argmin(axis=1)
    d1 = d[np.arange(n), best]
    other = np.where(codes[None, :] == codes[best][:, None], np.inf, d)
    if np.isfinite(other).any():
        second = other.argmin(axis=1)
        d2 = other[np.arange(n), second]
        margin = np.where(np.isfinite(d2), (d2 - d1) / pairs[best, second], 1.0)
    else:  # a profile with a single character
        d2, margin = np.full(n, np.inf), np.ones(n)
    best, margin = best[inverse], margin[inverse]
    rms = np.sqrt(d1 / windows.shape[1])[inverse]
    rival = np.sqrt(d2 / windows.shape[1])[inverse]
    chars = np.array(profile.labels)[best]
    return CellScores(chars.reshape(rows, cols), rms.reshape(rows, cols), margin.reshape(rows, cols),
                      best.reshape(rows, cols), rival.reshape(rows, cols),
                      limits.LIMITS.max_rms if max_rms is None else max_rms, numbers_rms=numbers_limit(profile))


def number_spacing(profile: Profile) -> float:
    """The RMS distance between the two closest looks of different numbers (the empty cell counting as 0);
    infinite with fewer than two numbers."""
    def made() -> float:
        numbers = [i for i, label in enumerate(profile.labels) if label in ZERO + NUMBERS]
        pixels = profile.stack.shape[1]
        return min((float(np.sqrt(profile.pairs[a, b] / pixels)) for a in numbers for b in numbers
                    if profile.labels[a] != profile.labels[b]), default=float("inf"))

    return derived(profile, "number spacing", made)


def numbers_limit(profile: Profile) -> float | None:
    """How far a cell named as a number or the empty cell may lie from its look, for a profile made at the
    board's size that lacks some numbers: the table's ``unseen_number_share`` of :func:`number_spacing`, or the
    profile's own ``max_rms`` where that is larger (calibration set it so from the cells it saw). None (the
    cell's limit as for any other) for a profile with every number, or drawn at another size (whose numbers
    ``vision.decide`` holds otherwise)."""
    if not profile.lacks_numbers:
        return None
    return max(limits.LIMITS.unseen_number_share * number_spacing(profile), profile.max_rms or 0.0)
