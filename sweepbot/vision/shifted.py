"""A refused cell's second look (:func:`nudged`, for ``vision.decide``): its window moved by up to the table's
``nudge_reach`` pixels each way, and the move whose window comes nearest a look taken, scored exactly.

Every move of every window is held against every look, but cheaply first: the sums of the window's 2x2
blocks of pixels against the looks' (a quarter of the numbers) give a bound no exact distance goes under
(the squared differences of four pixels add up to at least a quarter of the square of their sum). Only the
moves whose bound comes within the exact distance of the move that bounds lowest can be the nearest; they
are scored by one fast product, and those within float32's rounding of the nearest exactly. The move taken
is the exactly nearest, the first of equals in the order of the moves (down the rows, then across): what
scoring every move exactly would take.

A move that names another number than the one nearest the window where it is keeps, as its margin, the
least of its own and how much nearer the moved window comes to its look than the window where it is to that
number's, as a share of the two looks' distance: the margin any cell is held to.

The same bound tells, before any move is scored, the cells that no move brings within a look's reach: a fit
of the board that would leave more cells refused than one made before is not looked at again (``ToBeat``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sweepbot.board import NUMBERS
from sweepbot.vision import limits
from sweepbot.vision.cells import FLOAT32_ROUNDING, CellScores, distances, exact_looks, score, windows_at
from sweepbot.vision.derived import derived
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile
from sweepbot.vision.track import Kept, Look, Looks


def grown_windows(image: np.ndarray, x0s: np.ndarray, y0s: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """For each window of ``size`` (w, h; by its top left pixel: ``x0s``, ``y0s``), every pixel its moves read
    (:func:`best_moves`), one row each: the window grown by the table's ``nudge_reach`` on each side, moved
    inside the image (an image smaller than that is taken with black below and to its right)."""
    reach = limits.LIMITS.nudge_reach
    w, h = size
    grown_w, grown_h = w + 2 * reach, h + 2 * reach
    height, width = image.shape[:2]
    if height < grown_h or width < grown_w:
        image = np.pad(image[..., :3], ((0, max(0, grown_h - height)), (0, max(0, grown_w - width)), (0, 0)))
    gy, gx = _grown_origins((height, width), x0s, y0s, size, reach)
    return windows_at(image, gy, gx, (grown_w, grown_h))


@dataclass(frozen=True, eq=False)
class Search:
    """Every move of some windows (:func:`search`), each window's grown window taken once however many windows
    share it, with a bound under each move's exact distance to every look."""

    grown: np.ndarray  # the distinct grown windows
    oy: np.ndarray  # distinct windows x moves: each move's place in its grown window
    ox: np.ndarray
    ys: np.ndarray  # windows x moves: each move's top left pixel on the image
    xs: np.ndarray
    inverse: np.ndarray  # each window's distinct grown window
    bound: np.ndarray  # distinct windows x moves: no look lies nearer the move (squared distance) than this
    slack: float  # float32's rounding of a bound

    def least_rms(self, profile: Profile) -> np.ndarray:
        """For each window, an rms that none of its moves comes under against any look."""
        _, _, w, h = profile.crop
        least = np.maximum(self.bound.min(axis=1) - self.slack, 0.0)
        return np.sqrt(least / (w * h * 3))[self.inverse]


def search(grown: np.ndarray, x0s: np.ndarray, y0s: np.ndarray, shape: tuple[int, int], profile: Profile) -> Search:
    """Every move of each window of ``profile``'s crop (by its top left pixel: ``x0s``, ``y0s``, on an image of
    ``shape``, height and width; each kept inside the image), from its :func:`grown_windows` (``grown``)."""
    reach = limits.LIMITS.nudge_reach
    _, _, w, h = profile.crop
    ys, xs = _moves(shape, x0s, y0s, (w, h), reach)
    gy, gx = _grown_origins(shape, x0s, y0s, (w, h), reach)
    oy, ox = ys - gy[:, None], xs - gx[:, None]  # each move's place in its grown window
    # a window's best move depends on its grown window's pixels and its moves' places in it alone: windows
    # alike in both (flags, or numbers, among like neighbours) are looked at once
    first, inverse = distinct_rows(np.concatenate(
        [grown.reshape(len(grown), -1), oy.astype(np.uint8), ox.astype(np.uint8)], axis=1))
    grown, oy, ox = grown[first], oy[first], ox[first]
    n = len(grown)
    stack = np.ascontiguousarray(grown).reshape(n, h + 2 * reach, w + 2 * reach, 3)
    blocks = _block_sums(stack, oy, ox, (w, h))
    looks, norms = _looks_in_blocks(profile)
    bsq = np.einsum("ij,ij->i", blocks, blocks)
    bound = (np.maximum(bsq[:, None] + norms[None, :] - 2.0 * (blocks @ looks.T), 0.0).min(axis=1) / 4.0)
    slack = FLOAT32_ROUNDING * (float(bsq.max(initial=0.0)) + float(norms.max())) / 4.0
    return Search(grown, oy, ox, ys, xs, inverse, bound.reshape(n, -1), slack)


def best_moves(grown: np.ndarray, x0s: np.ndarray, y0s: np.ndarray, shape: tuple[int, int], profile: Profile,
               max_rms: float, searched: Search | None = None) -> list[Look]:
    """For each window of ``profile``'s crop (by its top left pixel: ``x0s``, ``y0s``, on an image of ``shape``,
    height and width), the best of its moves (each kept inside the image), scored exactly, from its
    :func:`grown_windows` (``grown``; ``searched``: their :func:`search`, when it was made)."""
    found = search(grown, x0s, y0s, shape, profile) if searched is None else searched
    looks, taken = _best_moves(found, profile, max_rms)
    # each look with the move it took from its own window
    return [replace(looks[k], move=(int(found.ys[i, taken[k]] - y0s[i]), int(found.xs[i, taken[k]] - x0s[i])))
            for i, k in enumerate(found.inverse.tolist())]


def _best_moves(found: Search, profile: Profile, max_rms: float) -> tuple[list[Look], list[int]]:
    """:func:`best_moves` of the distinct grown windows ``found`` searched, and the index of the move each
    took."""
    reach = limits.LIMITS.nudge_reach
    _, _, w, h = profile.crop
    grown, oy, ox, bound = found.grown, found.oy, found.ox, found.bound
    n = len(grown)
    grown_w, grown_h = w + 2 * reach, h + 2 * reach
    # the grown windows one above the other: a move's window is cut from its own
    stack = np.ascontiguousarray(grown).reshape(n * grown_h, grown_w, 3)

    def windows(cells: np.ndarray, tried: np.ndarray) -> np.ndarray:
        return windows_at(stack, cells * grown_h + oy[cells, tried], ox[cells, tried], (w, h))

    # the exact distance of the move bounding lowest: no move whose bound is over it can be nearer
    each = np.arange(n)
    reached = distances(windows(each, bound.argmin(axis=1)), profile).min(axis=1)
    cells, tried = np.nonzero(bound <= (reached + found.slack)[:, None])
    shifted = windows(cells, tried).astype(np.float32)
    d = distances(shifted, profile, batched=True).min(axis=1)
    wsq = np.einsum("ij,ij->i", shifted, shifted)
    nearest, largest = np.full(n, np.inf), np.zeros(n)
    np.minimum.at(nearest, cells, d)
    np.maximum.at(largest, cells, wsq)
    near = d <= (nearest + FLOAT32_ROUNDING * (largest + float(profile.norms.max())))[cells]
    cells, tried, shifted = cells[near], tried[near], shifted[near]
    # (moves of a plain tile are often the same pixels: ``score`` takes each distinct window once)
    exact = score(shifted, profile, len(shifted), 1, max_rms)
    # each window's moves lie together, in the order of the moves (every window keeps one: the nearest); the
    # first of each window's nearest
    rms = exact.rms[:, 0]
    starts = np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]])
    nearest_rms = np.minimum.reduceat(rms, starts)
    at = np.flatnonzero(rms == nearest_rms[np.searchsorted(cells[starts], cells)])
    _, first = np.unique(cells[at], return_index=True)
    taken = at[first].tolist()
    return [Look(str(exact.chars[k, 0]), float(rms[k]), float(exact.margin[k, 0]), int(exact.best[k, 0]),
                 float(exact.rival[k, 0])) for k in taken], tried[taken].tolist()


def _moves(shape: tuple[int, int], x0s: np.ndarray, y0s: np.ndarray, size: tuple[int, int], reach: int) \
        -> tuple[np.ndarray, np.ndarray]:
    """Each window's top left pixel for every move (dy, dx), kept inside an image of ``shape``: windows x
    moves each."""
    w, h = size
    height, width = shape
    steps = np.arange(-reach, reach + 1)
    ys = np.clip(y0s[:, None, None] + steps[None, :, None], 0, height - h) + np.zeros((1, 1, len(steps)), int)
    xs = np.clip(x0s[:, None, None] + steps[None, None, :], 0, width - w) + np.zeros((1, len(steps), 1), int)
    return ys.reshape(len(x0s), -1), xs.reshape(len(x0s), -1)


def _grown_origins(shape: tuple[int, int], x0s: np.ndarray, y0s: np.ndarray, size: tuple[int, int], reach: int) \
        -> tuple[np.ndarray, np.ndarray]:
    """Each grown window's top left pixel (see :func:`grown_windows`): every move of the window lies inside it."""
    w, h = size
    height, width = max(shape[0], h + 2 * reach), max(shape[1], w + 2 * reach)
    return np.clip(y0s - reach, 0, height - h - 2 * reach), np.clip(x0s - reach, 0, width - w - 2 * reach)


def _block_sums(grown: np.ndarray, oy: np.ndarray, ox: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """For each grown window (n x h x w x 3) and each move's place inside it (``oy``, ``ox``: n x moves), the
    sums of the moved window's 2x2 blocks of pixels (its last row or column left out when odd), one row each."""
    w, h = size
    g = grown.astype(np.float32)
    sums = g[:, :-1, :-1] + g[:, 1:, :-1] + g[:, :-1, 1:] + g[:, 1:, 1:]  # the block at every pixel
    n, sh, sw, _ = sums.shape
    # split by the parity of the block's place, so that each window's blocks lie side by side in memory
    ph, pw = (sh + 1) // 2, (sw + 1) // 2
    parts = np.zeros((2, 2, n, ph, pw, 3), np.float32)
    for py in (0, 1):
        for px in (0, 1):
            part = sums[:, py::2, px::2]
            parts[py, px, :, : part.shape[1], : part.shape[2]] = part
    bh, bw = h // 2, w // 2
    s = parts.strides
    every = np.lib.stride_tricks.as_strided(parts, (2, 2, n, ph - bh + 1, pw - bw + 1, bh, bw, 3),
                                            (s[0], s[1], s[2], s[3], s[4], s[3], s[4], s[5]), writeable=False)
    return every[oy % 2, ox % 2, np.arange(n)[:, None], oy // 2, ox // 2].reshape(oy.size, -1)


def _looks_in_blocks(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """The sums of each look's 2x2 blocks (as :func:`_block_sums`, of the looks ``vision.cells.distances``
    scores exactly), one row each, and their squared norms (kept beside the profile)."""
    def made() -> tuple[np.ndarray, np.ndarray]:
        stack, _ = exact_looks(profile)
        _, _, w, h = profile.crop
        bh, bw = h // 2, w // 2
        looks = stack.reshape(len(stack), h, w, 3)[:, : 2 * bh, : 2 * bw]
        sums = looks.reshape(len(stack), bh, 2, bw, 2, 3).sum(axis=(2, 4)).reshape(len(stack), -1)
        return sums.astype(np.float32), (sums * sums).sum(axis=1).astype(np.float32)

    return derived(profile, "looks in 2x2 blocks", made)


@dataclass(frozen=True)
class ToBeat:
    """What a fit of the board must do to be chosen over one made before (``vision.fit.best_fit``): refuse no
    more than ``refused`` cells, where a cell farther than ``named_rms`` from every look stays refused
    whatever follows."""

    refused: int
    named_rms: float


def nudged(image: np.ndarray, geometry: Geometry, profile: Profile, scores: CellScores, kept: Kept,
           to_beat: ToBeat | None = None) -> CellScores:
    """A second look at every refused cell: its window moved by up to the table's ``nudge_reach`` px each way
    (a client that draws at fractional positions puts some glyphs a pixel off; looks drawn at another size
    may fit a board's cells a pixel or two off), taken where it comes nearer a look than where it is; a number
    other than the one nearest where the cell is, only as much nearer as the table's ``min_margin`` asks of
    the two looks (a cell's many moves may bring a digit drawn small near another's look by chance). Each
    cell's look depends on the pixels around its window alone, and is taken again only when they changed
    (``kept``). With ``to_beat``, no look is taken (the scores are returned as they are) when the moves'
    bound alone leaves more cells refused than it allows: the fit cannot be chosen, whatever the looks find."""
    rows, cols = np.nonzero(~scores.accepted)
    if not len(rows):
        return scores
    ox, oy, w, h = profile.crop
    cells = rows * geometry.cols + cols  # row-major: ascending
    x0s, y0s = np.asarray(geometry.xs)[cols] + ox, np.asarray(geometry.ys)[rows] + oy
    arounds = grown_windows(image, x0s, y0s, (w, h))
    shape = (image.shape[0], image.shape[1])
    looks = kept.looks_before.reusable(cells, arounds, shape)
    fresh = [i for i, look in enumerate(looks) if look is None]
    if fresh:
        searched = search(arounds[fresh], x0s[fresh], y0s[fresh], shape, profile)
        if to_beat is not None and int((searched.least_rms(profile) > to_beat.named_rms).sum()) > to_beat.refused:
            return scores
        moved = best_moves(arounds[fresh], x0s[fresh], y0s[fresh], shape, profile, scores.max_rms, searched)
        for i, look in zip(fresh, moved, strict=True):
            looks[i] = look
        kept.looked += len(fresh)
    found = tuple(look for look in looks if look is not None)
    kept.looks = Looks(cells, arounds, found, shape)
    better = np.array([look.rms for look in found]) < scores.rms[rows, cols]
    chars, rms, margin, best, rival = (a.copy() for a in (scores.chars, scores.rms, scores.margin, scores.best,
                                                          scores.rival))
    pixels = profile.stack.shape[1]
    for i in np.flatnonzero(better).tolist():
        r, c, look = rows[i], cols[i], found[i]
        taken_margin, taken_rival = look.margin, look.rival
        if look.char != chars[r, c] and look.char in NUMBERS and chars[r, c] in NUMBERS:
            # the window where it is comes that near another number's look: the look found by moving it must be
            # as much nearer as a margin asks of any cell, or the many moves of digits drawn small, a few pixels
            # apart (a 3 and a 2 at 20 px), give one for another by chance
            here = float(scores.rms[r, c])
            apart = float(profile.pairs[look.best, scores.best[r, c]])
            taken_margin = min(taken_margin, (here * here - look.rms * look.rms) * pixels / apart)
            taken_rival = min(taken_rival, here)
        chars[r, c], rms[r, c], margin[r, c], best[r, c], rival[r, c] = \
            look.char, look.rms, taken_margin, look.best, taken_rival
    return CellScores(chars, rms, margin, best, rival, scores.max_rms, held=scores.held, numbers_rms=scores.numbers_rms)
