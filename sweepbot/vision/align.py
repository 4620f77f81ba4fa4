"""Lining a located grid up with a profile's templates: the grid moved by a few pixels, as a whole or line by
line, to where the cells' windows fit the templates best, each window and look compared about its own mean
level, so that a brighter or darker screen lines up as its own would."""

from __future__ import annotations

import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.cells import batched_distances, window_pixels
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile


def align(
    image: np.ndarray, geometry: Geometry, profile: Profile, radius: int | None = None, per_line: bool = False
) -> Geometry:
    """Move the grid by up to ``radius`` px a round so the cells' windows best fit the templates; with
    ``per_line`` each column and row moves on its own (edges located a pixel or two off here and there), as
    long as the cells stay of one size (the grid's own pitch, to the pixel). None: the table's
    ``align_radius``. Rounds go on from where the last one left the grid while it moved a line by the whole
    radius, at most the table's ``align_rounds``: the best place may lie beyond a round's reach. A place
    within reach that a round did not take would not win the next (each pixel moved has a price, and the
    price of the move from where the grid was left to there is at least what the round saved by not going
    there)."""
    radius = limits.LIMITS.align_radius if radius is None else radius
    for _ in range(limits.LIMITS.align_rounds):
        moved = _round(image, geometry, profile, radius, per_line)
        step = max(int(np.abs(np.subtract(moved.xs, geometry.xs)).max()),
                   int(np.abs(np.subtract(moved.ys, geometry.ys)).max()))
        geometry = moved
        if step < radius:
            break
    return geometry


def _round(image: np.ndarray, geometry: Geometry, profile: Profile, radius: int, per_line: bool) -> Geometry:
    """One round of :func:`align`: the grid moved by up to ``radius`` px to where its windows fit best."""
    rows, cols = geometry.rows, geometry.cols
    shifts = range(-radius, radius + 1)
    k = len(shifts)
    ox, oy, w, h = profile.crop
    around = window_pixels(image, geometry, (ox - radius, oy - radius, w + 2 * radius, h + 2 * radius))
    moved = np.abs(np.array(shifts))
    # a small price per pixel moved: where any shift fits as well (a plain tile), stay put
    price = limits.LIMITS.align_price * w * h * 3 * (moved[:, None] + moved[None, :])
    looks = profile.primary()
    flat_cost = shifted_distances(around, looks.stack, looks.norms, (w, h), radius, level_free=True) \
        + price[:, :, None]
    # (flat_cost: [sy, sx, r * cols + c])
    cost = flat_cost.reshape(k, k, rows, cols)
    total = cost.sum(axis=(2, 3))
    a0, b0 = np.unravel_index(int(total.argmin()), total.shape)
    whole = geometry.shifted(int(shifts[b0]), int(shifts[a0]))
    if not per_line:
        return whole
    row_pick: np.ndarray = np.full(rows, a0)
    col_pick: np.ndarray = np.full(cols, b0)
    for _ in range(limits.LIMITS.align_passes):
        # each column's best x shift given the rows' y shifts, then each row's best y shift
        per_col = cost[row_pick, :, np.arange(rows), :]  # rows x k(sx) x cols
        col_pick = per_col.sum(axis=0).argmin(axis=0)
        per_row = cost[:, col_pick, :, np.arange(cols)]  # cols x k(sy) x rows
        row_pick = per_row.sum(axis=0).argmin(axis=0)
    sx = np.array(shifts)[col_pick]
    sy = np.array(shifts)[row_pick]
    xs = [geometry.xs[c] + int(sx[c]) for c in range(cols)] + [geometry.xs[-1] + int(sx[-1])]
    ys = [geometry.ys[r] + int(sy[r]) for r in range(rows)] + [geometry.ys[-1] + int(sy[-1])]
    if not (_even(xs, geometry.pitch[0]) and _even(ys, geometry.pitch[1])):
        # lines moved apart or together (plain tiles that fit a look at several places on a washed-out screen):
        # a board's cells are drawn at one size, so the grid moves as a whole
        return whole
    return Geometry(tuple(xs), tuple(ys))


def _even(edges: list[int], pitch: float) -> bool:
    """Whether every cell between ``edges`` is ``pitch`` wide, or a pixel narrower or wider where the pitch is
    fractional (32.6 px drawn in cells of 32 and 33)."""
    steps = np.diff(edges)
    return bool((steps >= np.floor(pitch)).all() and (steps <= np.ceil(pitch)).all())


def shifted_distances(around: np.ndarray, looks: np.ndarray, norms: np.ndarray, size: tuple[int, int],
                      radius: int, step: int = 1, level_free: bool = False) -> np.ndarray:
    """Each ``size`` (w, h) window's squared distance to its nearest look, the window moved by up to ``radius``
    px each way: ``[dy + radius, dx + radius, window]``. ``around``: each window with ``radius`` pixels around
    it, one row each; ``looks``: one a row, with their squared ``norms``, on every ``step``-th pixel of every
    ``step``-th line, as the windows are compared. With ``level_free``, each window and look is taken about its
    own mean level (a screen brighter or darker all over moves every window's mean, not where it fits best).
    Windows drawn alike with their surroundings (covered tiles) are costed once."""
    w, h = size
    k = 2 * radius + 1
    first, inverse = distinct_rows(around)
    cut = around[first].astype(np.float32).reshape(len(first), h + 2 * radius, w + 2 * radius, 3)
    out = np.empty((k, k, len(around)))
    look_means = looks.mean(axis=1)
    for dy in range(k):
        for dx in range(k):
            windows = cut[:, dy:dy + h:step, dx:dx + w:step].reshape(len(first), -1)
            d = batched_distances(windows, looks, norms)
            if level_free:
                d = d - looks.shape[1] * (windows.mean(axis=1)[:, None] - look_means[None, :]) ** 2
            out[dy, dx] = d.min(axis=1)[inverse]
    return out
