"""Classifying every cell of a located board against a profile's templates, all cells at once.

Each cell's template window is cut out (one gather for the whole board), compared with every template by
squared distance (one matrix product), and given

* ``rms``: the root-mean-square pixel difference to its best template, and
* ``margin``: ``(d2 - d1) / p`` where ``d1``, ``d2`` are the squared distances to the best template and to
  the best template of another character, and ``p`` the squared distance between those two templates.
  An exact match scores 1; pixel noise leaves it near 1; a cell half-way between two looks scores 0.

A cell is accepted when ``rms <= max_rms`` and ``margin >= min_margin`` (``vision.limits``); anything else is
refused.

A cell's scores depend on its window alone, so a new frame of the same board is scored only where a
window changed (:func:`score_frame`); the rest keep their scores from the frame before.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from sweepbot.board import unheld_numbers
from sweepbot.rect import Rect
from sweepbot.vision import limits
from sweepbot.vision.derived import derived
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.ink import digit_inks, inked_as
from sweepbot.vision.levels import fit_levels, level_guesses, levels_differ, with_levels
from sweepbot.vision.profile import Profile


@dataclass(frozen=True)
class CellScores:
    """Per-cell results on a rows x cols grid."""

    chars: np.ndarray  # rows x cols, '<U1'
    rms: np.ndarray  # rows x cols float
    margin: np.ndarray  # rows x cols float
    best: np.ndarray  # rows x cols template index
    max_rms: float
    #: the windows and plain scores these came from (set by :func:`classify`), for the next frame's read
    plain: Scored | None = field(default=None, compare=False, repr=False)
    #: cells held to ``unanchored_rms`` instead of ``max_rms`` (see :func:`_minority_kept`); None: none are
    held: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: scored against the looks fitted to the screen's brightness (see :func:`classify`'s ``levels``)
    leveled: bool = field(default=False, compare=False, repr=False)

    @property
    def accepted(self) -> np.ndarray:
        # a look calibration has not named ("~") is refused however well it matches
        table = limits.LIMITS
        limit = self.max_rms if self.held is None else np.where(
            self.held, min(self.max_rms, table.unanchored_rms), self.max_rms)
        return (self.rms <= limit) & (self.margin >= table.min_margin) & (self.chars != "~")

    def refused(self) -> list[tuple[int, int]]:
        rs, cs = np.nonzero(~self.accepted)
        return list(zip(rs.tolist(), cs.tolist(), strict=True))

    def grid(self) -> tuple[str, ...]:
        return tuple("".join(row) for row in self.chars)


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
    """The rectangle of the image that :func:`classify` reads: every cell's window, and the pixels a window
    may move by: for a second look at a refused cell, or as the grid is lined up again (two passes of
    ``vision.align.align``)."""
    ox, oy, w, h = crop
    reach = max(limits.LIMITS.nudge_reach, 2 * limits.LIMITS.align_radius)
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
    index = _window_index(
        geometry.xs, geometry.ys, (crop[0], crop[1], crop[2], crop[3]),
        None if col_shift is None else tuple(int(v) for v in col_shift),
        None if row_shift is None else tuple(int(v) for v in row_shift),
        image.shape[1], image.shape[0],
    )
    pixels = image.reshape(-1, 3)
    cut = pixels.take(index.ravel(), axis=0)
    return cut.reshape(index.shape[0], -1)


def distances(windows: np.ndarray, profile: Profile, batched: bool = False) -> np.ndarray:
    """Squared distance of every window (N rows) to every template: N x T. Each window's distances depend on
    its pixels alone, so that a cell read again alone scores as it did among the others: the templates are
    held to multiples of 1/256 and the sums taken in float64, where pixels (whole numbers up to 255) times
    such templates add up exactly in any order, so a matrix product gives the same bits whatever windows
    stand beside. With ``batched`` (for costs that only compare shifts) the product is float32's, faster
    still, whose last bits may differ with the windows beside."""
    if batched:
        wsq = np.einsum("ij,ij->i", windows, windows)
        return np.maximum(wsq[:, None] + profile.norms[None, :] - 2.0 * (windows @ profile.stack.T), 0.0)
    stack, norms = _exact_templates(profile)
    win = windows.astype(np.float64)
    wsq = np.einsum("ij,ij->i", win, win)
    return np.maximum(wsq[:, None] + norms[None, :] - 2.0 * (win @ stack.T), 0.0)


def _exact_templates(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """The profile's templates rounded to multiples of 1/256, in float64, and their squared norms."""
    def made() -> tuple[np.ndarray, np.ndarray]:
        stack = np.round(profile.stack.astype(np.float64) * 256.0) / 256.0
        return stack, (stack * stack).sum(1)

    return derived(profile, "exact templates", made)


def best_distance(windows: np.ndarray, profile: Profile) -> np.ndarray:
    """Each window's squared distance to its nearest template (batched: for comparing shifts)."""
    return distances(windows, profile, batched=True).min(axis=1)


def score(windows: np.ndarray, profile: Profile, rows: int, cols: int, max_rms: float | None = None) -> CellScores:
    """Best template, rms and margin for every window (accepted up to ``max_rms``; None: the table's)."""
    codes, pairs = profile.codes, profile.pairs
    d = distances(windows, profile)
    n = len(d)
    best = d.argmin(axis=1)
    d1 = d[np.arange(n), best]
    other = np.where(codes[None, :] == codes[best][:, None], np.inf, d)
    if np.isfinite(other).any():
        second = other.argmin(axis=1)
        d2 = other[np.arange(n), second]
        margin = np.where(np.isfinite(d2), (d2 - d1) / pairs[best, second], 1.0)
    else:  # a profile with a single character
        margin = np.ones(n)
    rms = np.sqrt(d1 / windows.shape[1])
    chars = np.array(profile.labels)[best]
    return CellScores(chars.reshape(rows, cols), rms.reshape(rows, cols), margin.reshape(rows, cols),
                      best.reshape(rows, cols), limits.LIMITS.max_rms if max_rms is None else max_rms)


@dataclass(frozen=True, eq=False)
class Scored:
    """The cells' windows on one frame (the image's pixels) and their plain scores (:func:`score`) against
    one profile at one geometry: what the next frame of the same board keeps where a window is unchanged."""

    geometry: Geometry
    profile: Profile
    windows: np.ndarray  # cells x pixels, as cut from the image
    scores: CellScores

    def holds(self, geometry: Geometry, profile: Profile, windows: np.ndarray, max_rms: float) -> bool:
        """Whether these scores are for the same cells, templates, window size and acceptance."""
        return (self.profile is profile and self.geometry == geometry and self.scores.max_rms == max_rms
                and self.windows.shape == windows.shape and self.windows.dtype == windows.dtype)


def score_frame(image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float,
                last: Scored | None = None) -> Scored:
    """Every cell's plain scores on ``image``. With ``last`` (an earlier frame of the board at the same place,
    scored against the same profile) only the cells whose window changed are scored; the others keep their
    scores, which are what scoring them again would give: a cell's scores depend on its window alone."""
    windows = window_pixels(image, geometry, profile.crop)
    rows, cols = geometry.rows, geometry.cols
    if last is None or not last.holds(geometry, profile, windows, max_rms):
        return Scored(geometry, profile, windows, score(windows.astype(np.float32), profile, rows, cols, max_rms))
    changed = np.flatnonzero((windows != last.windows).any(axis=1))
    if not len(changed):
        return Scored(geometry, profile, windows, last.scores)
    fresh = score(windows[changed].astype(np.float32), profile, len(changed), 1, max_rms)
    kept = last.scores
    parts = []
    for old, new in ((kept.chars, fresh.chars), (kept.rms, fresh.rms), (kept.margin, fresh.margin),
                     (kept.best, fresh.best)):
        merged = old.copy().reshape(-1)
        merged[changed] = new.reshape(-1)
        parts.append(merged.reshape(rows, cols))
    return Scored(geometry, profile, windows, CellScores(parts[0], parts[1], parts[2], parts[3], max_rms))


def _fit_profile_levels(windows: np.ndarray, profile: Profile, rows: int, cols: int) -> Profile:
    """Templates adjusted to the screen's brightness: the best of a few guesses, then least-squares fits."""
    best: tuple[float, int] | None = None
    wsq = np.einsum("ij,ij->i", windows, windows)
    for k, (stack, norms) in enumerate(level_guesses(profile)):
        d = wsq[:, None] + norms[None, :] - 2.0 * (windows @ stack.T)
        total = float(np.maximum(d, 0.0).min(axis=1).sum())
        if best is None or total < best[0]:
            best = (total, k)
    assert best is not None
    g, o = limits.LIMITS.level_guesses[best[1]]
    current = with_levels(profile, (np.full(3, g), np.full(3, o)))
    for _ in range(3):
        scores = score(windows, current, rows, cols)
        fit = fit_levels(windows, profile, scores.best)
        if fit is None:
            return current  # no sensible least-squares fit (a plain tile near white): the best guess stands
        current = with_levels(profile, fit)
    return current


def classify(
    image: np.ndarray, geometry: Geometry, profile: Profile, levels: bool = True, max_rms: float | None = None,
    last: Scored | None = None, whole: bool = True,
) -> CellScores:
    """Score every cell; with ``levels``, undo a brightness/contrast change when the screen shows one. With
    ``last`` (the ``plain`` of an earlier frame's scores), only the cells whose windows changed are scored
    afresh (see :func:`score_frame`); the result is the same as without. A profile's own ``max_rms`` is the
    most it accepts (None: the table's ``max_rms``). ``whole``: the geometry holds a whole board, every cell
    around a number among its cells (not a line of cells beside one)."""
    max_rms = limits.LIMITS.max_rms if max_rms is None else max_rms
    if profile.max_rms is not None:
        # a profile drawn at another size sets its own limit (see vision.scaled); any other may only tighten it
        max_rms = profile.max_rms if profile.drawn_from else min(max_rms, profile.max_rms)
    plain = score_frame(image, geometry, profile, max_rms, last)
    return replace(_classified(image, geometry, profile, plain, levels, max_rms, whole), plain=plain)


def _classified(image: np.ndarray, geometry: Geometry, profile: Profile, plain: Scored, levels: bool,
                max_rms: float, whole: bool) -> CellScores:
    scores = _scored(image, geometry, profile, plain, levels, max_rms, whole)
    return _numbers_held_close(plain.windows, geometry, profile, scores) if profile.drawn_from else scores


def _numbers_held_close(windows: np.ndarray, geometry: Geometry, profile: Profile,
                        scores: CellScores) -> CellScores:
    """``scores`` with the numbers neither held close (the table's ``drawn_number_rms`` and
    ``drawn_number_margin``) nor inked as their digit (up to ``drawn_ink_rms``, see ``vision.ink``) refused
    (``windows``: the cells' windows as cut from the image): a profile drawn at another size never names a
    number it only comes near."""
    table = limits.LIMITS
    loose = np.isin(scores.chars, list("12345678")) & (
        (scores.rms > table.drawn_number_rms) | (scores.margin < table.drawn_number_margin))
    if not loose.any():
        return scores
    inks = digit_inks(profile)
    rms = scores.rms.copy()
    rs, cs = np.nonzero(loose & (rms <= table.drawn_ink_rms))
    if not len(rs):
        return replace(scores, chars=np.where(loose, "~", scores.chars))
    # cells drawn alike (a board's many 1s) are looked at once
    first, inverse = distinct_rows(windows[rs * geometry.cols + cs])
    inked = [inked_as(windows[rs[i] * geometry.cols + cs[i]].reshape(-1, 3), str(scores.chars[rs[i], cs[i]]), inks)
             for i in first]
    for k, (r, c) in enumerate(zip(rs, cs, strict=True)):
        if inked[inverse[k]]:
            loose[r, c] = False
            rms[r, c] = min(rms[r, c], scores.max_rms)  # taken by its colour: within the profile's limit
    return replace(scores, chars=np.where(loose, "~", scores.chars), rms=rms)


def _scored(image: np.ndarray, geometry: Geometry, profile: Profile, plain: Scored, levels: bool,
            max_rms: float, whole: bool) -> CellScores:
    scores = plain.scores
    table = limits.LIMITS
    if not _anchored(scores) and max_rms > table.unanchored_rms:
        # every cell alike (a fresh board): only a near-exact match tells covered from revealed on a screen
        # that may be brighter or darker; with a profile drawn at another size, whose looks come only so
        # close, a cell unlike the rest (the mine that went off at a first click) keeps the profile's limit
        scores = _minority_kept(scores) if profile.drawn_from else replace(scores, max_rms=table.unanchored_rms)
    if not scores.accepted.all():
        scores = _nudge(image, geometry, profile, scores)
    if levels and levels_differ(plain.windows, profile, scores.chars, scores.best,
                                 float(scores.rms.mean()), bool(scores.accepted.all())):
        # the screen differs from the templates all over: perhaps brighter or darker
        win = plain.windows.astype(np.float32)
        adjusted = _fit_profile_levels(win, profile, geometry.rows, geometry.cols)
        if adjusted is not profile:
            fitted = score(win, adjusted, geometry.rows, geometry.cols, max_rms)
            if _anchored(fitted) and float(fitted.rms.mean()) < float(scores.rms.mean()) - 1.0 \
                    and not (whole and unheld_numbers(fitted.grid())):
                # (a fit may make a covered tile look like an open empty cell, around numbers that then count
                # more mines than their neighbours can hold: that fit is wrong)
                return replace(_nudge(image, geometry, adjusted, fitted), leveled=True)
    return scores


def _nudge(image: np.ndarray, geometry: Geometry, profile: Profile, scores: CellScores) -> CellScores:
    """Second chance for refused cells: their windows moved by up to the table's ``nudge_reach`` px each way
    (a client that draws at fractional positions puts some glyphs a pixel off). Only a few cells, so cheap."""
    reach = limits.LIMITS.nudge_reach
    bad = scores.refused()
    if not bad or len(bad) > max(8, geometry.rows * geometry.cols // 4):
        return scores
    ox, oy, w, h = profile.crop
    height, width = image.shape[:2]
    windows = []
    for r, c in bad:
        x0, y0 = geometry.xs[c] + ox, geometry.ys[r] + oy
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                y, x = min(max(y0 + dy, 0), height - h), min(max(x0 + dx, 0), width - w)
                windows.append(image[y : y + h, x : x + w].reshape(-1))
    n = (2 * reach + 1) ** 2
    shifted = np.asarray(windows, np.float32).reshape(len(bad), n, -1)
    # the nearest shift of each cell found in one batched product, then that window alone scored exactly
    nearest = best_distance(shifted.reshape(len(bad) * n, -1), profile).reshape(len(bad), n).argmin(axis=1)
    tried = score(shifted[np.arange(len(bad)), nearest], profile, len(bad), 1, scores.max_rms)
    chars, rms, margin, best = (a.copy() for a in (scores.chars, scores.rms, scores.margin, scores.best))
    for i, (r, c) in enumerate(bad):
        if tried.rms[i, 0] < rms[r, c]:
            chars[r, c], rms[r, c], margin[r, c], best[r, c] = (
                tried.chars[i, 0], tried.rms[i, 0], tried.margin[i, 0], tried.best[i, 0])
    return CellScores(chars, rms, margin, best, scores.max_rms, held=scores.held)


def _minority_kept(scores: CellScores) -> CellScores:
    """The cells of the board's most common look held to ``unanchored_rms``, the others to the profile's limit.
    A held cell that misses is refused as the look it is nearest (a covered tile a pixel off stays a covered
    tile refused, never an open cell of unknown number)."""
    values, counts = np.unique(scores.chars, return_counts=True)
    return replace(scores, held=scores.chars == values[int(counts.argmax())])


def _anchored(scores: CellScores) -> bool:
    """A brightness fit is trusted only when at least two kinds of cell pin it down: on a board of covered
    cells alone, a brighter screen and a board of revealed cells look the same."""
    _, counts = np.unique(scores.chars[scores.accepted], return_counts=True)
    return int((counts >= 2).sum()) >= 2
