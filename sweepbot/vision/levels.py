"""A screen brighter or darker than the one a profile was made on: whether a board's cells show one, and the
looks as such a screen shows them (a gain and an offset per colour channel, clipped as a screen clips)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, exact_looks, score
from sweepbot.vision.derived import derived
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.profile import Profile


def fit_levels(windows: np.ndarray, profile: Profile, best: np.ndarray,
               counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-channel gain and offset that map the templates onto the windows (a screen brighter, darker or
    with other contrast), from the pixels no clipping may have moved (the table's ``level_*_margin``); None
    when no sensible fit exists (``min_level_gain``, ``max_level_gain``, ``max_level_offset``). ``counts``:
    how many cells each window stands for (windows drawn alike given once); None: one each."""
    n = len(windows)
    y = windows.reshape(n, -1, 3).astype(np.float64)
    x = profile.stack[best.ravel()].reshape(n, -1, 3).astype(np.float64)
    weight = np.ones((n, 1)) if counts is None else np.asarray(counts, np.float64)[:, None]
    table = limits.LIMITS
    gain = np.ones(3)
    offset = np.zeros(3)
    dark, light, edge = table.level_dark_margin, 255 - table.level_light_margin, table.level_screen_margin
    for ch in range(3):
        xc, yc = x[:, :, ch], y[:, :, ch]
        # pixels near black or white may have been clipped by the change: leave them out of the fit
        kept = ((xc > dark) & (xc < light) & (yc > edge) & (yc < 255 - edge)) * weight
        total = float(kept.sum())
        if total < table.level_least_pixels:
            continue
        mx, my = float((kept * xc).sum()) / total, float((kept * yc).sum()) / total
        var = float((kept * (xc - mx) ** 2).sum()) / total
        if var > table.level_least_spread:
            gain[ch] = float((kept * (xc - mx) * (yc - my)).sum()) / total / var
        offset[ch] = my - gain[ch] * mx
    if np.any(gain < table.min_level_gain) or np.any(gain > table.max_level_gain) \
            or np.any(np.abs(offset) > table.max_level_offset):
        return None
    return gain, offset


def with_levels(profile: Profile, levels: tuple[np.ndarray, np.ndarray]) -> Profile:
    """The profile's templates as a screen with this gain and offset shows them, clipped as a screen clips."""
    return replace(profile, stack=leveled(profile.stack, *levels))


def leveled(stack: np.ndarray, gain: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Templates (one a row) with a gain and an offset per colour channel, clipped to 0-255."""
    t = len(stack)
    out = np.clip(stack.reshape(t, -1, 3) * gain.astype(np.float32) + offset.astype(np.float32), 0, 255)
    return out.reshape(t, -1).astype(np.float32)


def level_guesses(profile: Profile) -> list[tuple[np.ndarray, np.ndarray]]:
    """The profile's templates at each of the table's ``level_guesses``, and their squared norms (kept beside
    the profile)."""
    def made() -> list[tuple[np.ndarray, np.ndarray]]:
        stacks = [leveled(profile.stack, np.full(3, g), np.full(3, o)) for g, o in limits.LIMITS.level_guesses]
        return [(stack, (stack * stack).sum(1)) for stack in stacks]

    return derived(profile, "level guesses", made)


def levels_differ(means: Callable[[], np.ndarray], profile: Profile, chars: np.ndarray, best: np.ndarray,
                  residual: float, all_named: bool) -> bool:
    """Whether the screen may be brighter or darker than the looks, from the cells' windows scored with
    ``profile`` (their mean levels, from ``means`` when needed; their ``chars``, ``best`` look, mean
    ``residual``, and whether they were ``all_named``): a profile's own looks match pixel for pixel on the
    screen it was made on (a refused cell, or a mean residual over the table's ``levels_rms``, says otherwise);
    looks drawn at another size never do, but keep the mean level of each look (the cells' level off their
    best looks over ``drawn_levels_offset``, each look's median and then their median, says otherwise, on a
    board of two kinds of cell at least)."""
    table = limits.LIMITS
    if not profile.drawn_from:
        return not all_named or residual > table.levels_rms
    if not (chars != chars.flat[0]).any():
        return False  # cells all alike: no fit could be trusted (see vision.cells)
    looks = best.ravel()
    offsets = means() - derived(profile, "look levels", lambda: profile.stack.mean(axis=1))[looks]
    # each look's cells' median offset, then the median of those: a screen moves every look's cells, while one
    # look drawn from another size than the rest (its flag larger or smaller) moves only its own, however many
    limit = table.drawn_levels_offset
    # (a median of the looks' medians over the limit needs half the looks, rounded up, with a median over it,
    # each with a cell over it: on most boards too few looks have one for the medians to be worth taking)
    needed = (int(np.count_nonzero(np.bincount(looks))) + 1) // 2
    if all(np.count_nonzero(np.bincount(looks[side])) < needed for side in (offsets > limit, offsets < -limit)):
        return False
    return abs(median_of(medians_by(looks, offsets))) > limit


def medians_by(groups: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The median of ``values`` in each group (``groups``: one whole number from 0 a value), in the groups'
    order, as :func:`median_of` gives each: by one sort of the values within their groups."""
    ordered = values[np.lexsort((values, groups))]
    counts = np.bincount(groups)
    counts = counts[counts > 0]
    starts = np.cumsum(counts) - counts
    return (ordered[starts + (counts - 1) // 2] + ordered[starts + counts // 2]) / 2.0


def median_of(values: np.ndarray) -> float:
    """The median of a 1-d array of finite values, as ``np.median`` gives it (the mean of the middle two of an
    even count), by one partial sort."""
    half = len(values) // 2
    if len(values) % 2:
        return float(np.partition(values, half)[half])
    low, high = np.partition(values, (half - 1, half))[half - 1 : half + 1]
    return float((low + high) / 2.0)


def row_means(rows: np.ndarray) -> np.ndarray:
    """The mean of each row of a 2-d array of 8-bit pixels, as ``rows.mean(axis=1)`` gives it: each row's sum
    is a whole number taken exactly (by OpenCV, many times faster than numpy's float sum) and divided once."""
    if not len(rows):
        return np.zeros(0)
    sums = cv2.reduce(np.ascontiguousarray(rows), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
    return sums.reshape(-1) / rows.shape[1]


def fit_profile_levels(windows: np.ndarray, profile: Profile) -> Profile:
    """Templates adjusted to the screen's brightness: the best of a few guesses, then least-squares fits.
    Windows drawn alike pixel for pixel (a board's covered tiles) are worked on once, counted as many."""
    first, inverse = distinct_rows(windows)
    counts = np.bincount(inverse).astype(np.float64)
    windows = windows[first].astype(np.float32)
    best: tuple[float, int] | None = None
    wsq = np.einsum("ij,ij->i", windows, windows)
    for k, (stack, norms) in enumerate(level_guesses(profile)):
        d = wsq[:, None] + norms[None, :] - 2.0 * (windows @ stack.T)
        total = float((np.maximum(d, 0.0).min(axis=1) * counts).sum())
        if best is None or total < best[0]:
            best = (total, k)
    assert best is not None
    g, o = limits.LIMITS.level_guesses[best[1]]
    current = with_levels(profile, (np.full(3, g), np.full(3, o)))
    for _ in range(limits.LIMITS.level_passes):
        scores = score(windows, current, len(windows), 1)
        fit = fit_levels(windows, profile, scores.best, counts)
        if fit is None:
            return current  # no sensible least-squares fit (a plain tile near white): the best guess stands
        current = with_levels(profile, fit)
    return current


def pinned_alone(windows: np.ndarray, profile: Profile, fitted: CellScores) -> bool:
    """Whether a board whose cells are nearly all of one look pins the screen's brightness by that look's shape
    alone (``fitted``: the cells' scores against ``profile``'s looks fitted to the brightness; ``windows``:
    their pixels): every cell named nearly pixel for pixel (the table's ``unanchored_rms``) and the look most of
    them show pinned by its shape (:func:`pinned_by_shape`). Looks drawn at another size, which come only so
    close to any cell, are never fitted so."""
    table = limits.LIMITS
    return (not profile.drawn_from and bool(fitted.accepted.all())
            and float(fitted.rms.max()) <= table.unanchored_rms
            and pinned_by_shape(profile, fitted, lambda: shape_residuals(windows, profile)))


def pinned_by_shape(profile: Profile, scores: CellScores, residuals: Callable[[], np.ndarray]) -> bool:
    """Whether the look most of a board's cells show (by ``scores``) tells them apart from every other look
    whatever the screen's brightness: it is no plain patch (the table's ``flat_std``), is shown on
    ``anchor_cells`` cells at least, and no look of another character comes within ``pin_apart_rms`` more than
    it of those cells under any gain and offset, a screen's or not (``residuals`` gives every cell's
    :func:`shape_residuals`, asked for only when needed). A gain and an offset map a plain patch onto any
    other level, so a board of plain tiles never pins one; a bevelled tile's light and dark edges do."""
    table = limits.LIMITS
    values, counts = np.unique(scores.best, return_counts=True)
    pin = int(values[int(counts.argmax())])
    mine = (scores.best == pin).reshape(-1)
    if int(mine.sum()) < table.anchor_cells or float(profile.stack[pin].std()) < table.flat_std:
        return False
    residual = np.sqrt(residuals()[mine].mean(axis=0))
    others = np.array([label != profile.labels[pin] for label in profile.labels])
    return bool((residual[others] >= residual[pin] + table.pin_apart_rms).all())


def shape_residuals(windows: np.ndarray, profile: Profile) -> np.ndarray:
    """How near each of ``profile``'s looks comes to each window (windows x looks: the mean square left over
    the window's pixels and channels) under the gain (at least 0) and offset per colour channel that bring it
    nearest, by least squares: what the look's shape alone leaves, whatever the screen's brightness. A
    window's row depends on its pixels alone, to the bit: the looks are held to multiples of 1/256 (as
    ``vision.cells.exact_looks``), where the sums of a window's pixels times a look's add up exactly in any
    order, so that a window scores alike alone or among others. Windows drawn alike are worked on once."""
    first, inverse = distinct_rows(windows)
    looks, sums, spread = _looks_by_channel(profile)
    y = windows[first].reshape(len(first), -1, 3).astype(np.float64)
    pixels = y.shape[1]
    # windows x looks x channels
    along_sums = np.matmul(y.transpose(2, 0, 1), looks.transpose(2, 1, 0)).transpose(1, 2, 0)
    window_sums = y.sum(axis=1)
    # each look and window about its mean, channel by channel: their product's sum, and the window's squares
    along = along_sums - window_sums[:, None, :] * sums[None, :, :] / pixels
    own = ((y * y).sum(axis=1) - window_sums * window_sums / pixels).sum(axis=1)
    gain = np.maximum(along / np.where(spread > 0, spread, np.inf)[None], 0.0)
    # the squares left once each channel's gain times the look is taken off the window
    left = own[:, None] - (gain * (2.0 * along - gain * spread[None])).sum(axis=2)
    return np.maximum(left / (pixels * 3), 0.0)[inverse]


def _looks_by_channel(profile: Profile) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The profile's looks held to multiples of 1/256 (looks x pixels x channels), the sum of each look's
    pixels per channel and its squares about their mean per channel: what :func:`shape_residuals` holds
    windows against (kept beside the profile)."""
    def made() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        stack, _ = exact_looks(profile)
        looks = stack.reshape(len(stack), -1, 3)
        sums = looks.sum(axis=1)
        return looks, sums, (looks * looks).sum(axis=1) - sums * sums / looks.shape[1]

    return derived(profile, "looks by channel", made)
