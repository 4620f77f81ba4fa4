"""Tile looks: every cell of every frame cut out and grouped with the cells that look the same.

A look is a group of cell windows that differ by less than a threshold (after a shift of up to a pixel each
way, since a located grid can be a pixel off). Naming (:mod:`sweepbot.calibration.naming`) then works on the
look numbers alone, frame by frame, as plain integer grids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry

#: RMS (0-255 per channel) under which two windows count as the same look.
SAME_LOOK_RMS = 14.0
#: ... when that leaves a look unnamed: tiles drawn pixel for pixel the same each time, whose glyphs differ
#: little (small digits all in one light colour, about 10 apart).
STRICT_LOOK_RMS = 5.0
#: ... when covered and opened cells fall into one look: tiles told apart only by a bevel of a pixel at the
#: window's edge (a covered tile's light and dark lines, an opened one flat), about 15 apart once softened.
SPLIT_LOOK_RMS = 8.0
#: How far (px) a cell's window may move to match a look: clients that draw at fractional positions put a
#: glyph up to 2 px off the located grid.
SHIFT = 2
#: Blur (Gaussian sigma, px) applied to windows before they are compared.
SOFTEN_SIGMA = 0.5


@dataclass(frozen=True)
class Looks:
    """The distinct looks of a set of frames: one mean window per look, and each frame's grid of look ids."""

    images: np.ndarray  # L x h x w x 3 uint8, the first window seen of each look
    grids: tuple[np.ndarray, ...]  # per frame, rows x cols int
    counts: np.ndarray  # L: how many cells have each look
    #: L: the farthest (RMS, softened, at the best shift) a cell of each look is from its first window
    spread: np.ndarray | None = None

    def mixed(self, within: float) -> set[int]:
        """The looks with a cell farther than ``within`` from the look's first: they may be two tiles that
        differ by little (two digits of a small font, each drawn pixel for pixel the same)."""
        if self.spread is None:
            return set()
        return {int(k) for k in np.flatnonzero(self.spread > within)}

    @property
    def count(self) -> int:
        return len(self.images)

    def distance(self, a: int, b: int) -> float:
        """RMS difference between two looks' first windows."""
        d = self.images[a].astype(np.float32) - self.images[b].astype(np.float32)
        return float(np.sqrt((d * d).mean()))


def window_crop(geometries: Sequence[Geometry], inset: float) -> tuple[int, int, int, int]:
    """A window inside every cell, ``inset`` of a cell (at least a pixel) in from its edges."""
    min_w = min(round(g.pitch[0]) for g in geometries)
    min_h = min(round(g.pitch[1]) for g in geometries)
    least = 1 if inset > 0 else 0
    mx, my = max(least, round(inset * min_w)), max(least, round(inset * min_h))
    return mx, my, min_w - 2 * mx, min_h - 2 * my


def soften(window: np.ndarray) -> np.ndarray:
    """A window blurred a little before comparing: the same glyph drawn at another fraction of a pixel
    (gnome-mines's larger boards) differs in its antialiased edges, which a blur mostly evens out."""
    return cv2.GaussianBlur(window, (0, 0), SOFTEN_SIGMA) if SOFTEN_SIGMA > 0 else window


def collect_looks(
    images: Sequence[np.ndarray],
    geometries: Sequence[Geometry],
    inset: float = 0.12,
    threshold: float = SAME_LOOK_RMS,
    reach: int = SHIFT,
) -> Looks:
    """Group every cell of every frame by look (cells are compared at every shift of up to ``reach`` px)."""
    ox, oy, w, h = window_crop(geometries, inset)
    reach = max(0, min(reach, ox, oy))
    span = 2 * reach + 1
    wide = (ox - reach, oy - reach, w + 2 * reach, h + 2 * reach)
    leaders: list[np.ndarray] = []  # softened, to compare with
    firsts: list[np.ndarray] = []  # as seen
    grids: list[np.ndarray] = []
    counts: list[int] = []
    spread: list[float] = []
    seen: dict[bytes, int] = {}  # identical windows are common (covered cells, tiles at whole pixels)
    stack = np.zeros((0, h * w * 3), np.float32)
    for image, geo in zip(images, geometries, strict=True):
        windows = cell_windows(image, geo, wide).astype(np.uint8)
        ids = np.empty(len(windows), int)
        for i, raw in enumerate(windows):
            key = raw.tobytes()
            known = seen.get(key)
            if known is None:
                v = soften(raw.reshape(h + 2 * reach, w + 2 * reach, 3).astype(np.float32))
                shifts = np.stack([v[dy : dy + h, dx : dx + w].ravel() for dy in range(span) for dx in range(span)])
                if len(stack):
                    d = np.sqrt(((shifts[:, None, :] - stack[None, :, :]) ** 2).mean(axis=2)).min(axis=0)
                    k = int(np.argmin(d))
                    if d[k] <= threshold:
                        known = k
                        spread[k] = max(spread[k], float(d[k]))
                if known is None:
                    leaders.append(shifts[len(shifts) // 2])
                    firsts.append(raw.reshape(h + 2 * reach, w + 2 * reach, 3)[reach : reach + h, reach : reach + w])
                    stack = np.stack(leaders)
                    counts.append(0)
                    spread.append(0.0)
                    known = len(leaders) - 1
                seen[key] = known
            ids[i] = known
        grid = ids.reshape(geo.rows, geo.cols)
        for k, n in zip(*np.unique(grid, return_counts=True), strict=True):
            counts[int(k)] += int(n)
        grids.append(grid)
    looks = np.stack(firsts).astype(np.uint8)
    return Looks(looks, tuple(grids), np.array(counts), np.array(spread))
