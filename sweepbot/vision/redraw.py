"""A board whose columns (or rows) differ in size, drawn again with every cell at one size.

Some clients stretch a column once a digit shows in it (mfranceschi-minesweeper: 34 px covered, 39 px with
a digit). Templates have one size, so such a board is read on a copy of the frame where each cell is drawn
onto an even grid: a cell's edges (bevel, gap, border) are kept pixel for pixel, as a toolkit draws them
the same on a button of any width, and only its middle is stretched or squeezed. Calibration and reading
use the same drawing, so a digit squeezed here is the digit a profile learnt.

A cell a pixel or two off its drawn size has its middle moved instead, keeping a line (or a line and a
bevel) at each side. A client may instead stretch a tile image to the cell, so such a cell is drawn both
ways (WAYS) and the caller keeps, cell by cell, the drawing that looks like what it already knows
(:func:`redraw_likest`): a covered tile image stretched to its column keeps its bevel, a digit centred in it
keeps its size.

Pure functions on BGR frames (numpy arrays) and profiles.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

import cv2
import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.cells import best_distance, cell_windows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.lines import UNEVEN_SIZE
from sweepbot.vision.profile import Profile

#: The share of a cell, on each side, drawn again pixel for pixel.
EDGE_SHARE = 0.25
#: A cell that differs from its drawn size by at most this many pixels has its middle moved, not stretched
#: (a web page's table row that loses its padding once it holds no covered cell).
MOVED_ONLY = 2
#: Ways to draw such a cell: how many pixels at each side are kept as they are, and whether the middle is
#: stretched rather than moved: a line and a bevel kept, the middle moved (a digit centred at its own size);
#: or a grid line of two pixels and a bevel kept, the middle stretched (a tile image stretched to its cell).
WAYS = ((2, False), (3, True))


def is_uneven(geometry: Geometry) -> bool:
    """Whether cells differ in width or height by UNEVEN_SIZE pixels or more (a pixel or two is a fractional
    pitch, which reading takes as it is)."""
    return any(int(np.ptp(np.diff(edges))) >= UNEVEN_SIZE for edges in (geometry.xs, geometry.ys))


def even_grid(geometry: Geometry, pitch: tuple[float, float]) -> Geometry:
    """A grid of ``geometry``'s rows and columns from its top-left corner, each cell at a size a cell of
    ``pitch`` is drawn at: its own when it is one (a fractional pitch of 32.6 px is drawn in cells of 32 and
    33, in an order each client chooses, and a profile learnt both), else the nearest."""
    return Geometry(_even_edges(geometry.xs, pitch[0]), _even_edges(geometry.ys, pitch[1]))


def _even_edges(edges: tuple[int, ...], pitch: float) -> tuple[int, ...]:
    sizes = np.clip(np.diff(edges), int(np.floor(pitch)), int(np.ceil(pitch)))
    return tuple(int(v) for v in edges[0] + np.concatenate([[0], np.cumsum(sizes)]))


#: One axis of a board as drawn: each cell's first pixel and size along it.
Spans = tuple[tuple[int, int], ...]


def off_pitch(geometry: Geometry, pitch: tuple[float, float]) -> bool:
    """Whether some cell of ``geometry`` lies elsewhere than on an even grid of ``pitch`` from its corner."""
    return geometry != even_grid(geometry, pitch)


def spans(edges: tuple[int, ...]) -> Spans:
    """The cells between consecutive ``edges``."""
    return tuple((a, b - a) for a, b in pairwise(edges))


def redraw(image: np.ndarray, source: Geometry, target: Geometry, profile: Profile) -> np.ndarray:
    """``image`` with each cell of ``source`` drawn onto the same cell of ``target`` (same rows and columns),
    a cell a pixel or two off its size drawn the way that looks most like a look ``profile`` knows; outside
    the board, the pixels move with the board's nearest side. The image itself when they agree."""
    if source == target:
        return image

    def unlike(drawn: np.ndarray) -> np.ndarray:
        windows = cell_windows(drawn, target, profile.crop)
        return np.sqrt(best_distance(windows, profile) / windows.shape[1])

    return redraw_likest(image, spans(source.xs), spans(source.ys), target, unlike, limits.LIMITS.max_rms)


def redraw_cells(image: np.ndarray, columns: Spans, rows: Spans, target: Geometry, way: int = 0) -> np.ndarray:
    """As :func:`redraw`, the cells given by their spans (which may leave a pixel between them, or share one),
    cells a pixel or two off drawn the ``way``-th of WAYS."""
    map_x, map_y = _maps(columns, rows, target, image.shape[1], image.shape[0], WAYS[way])
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def redraw_likest(image: np.ndarray, columns: Spans, rows: Spans, target: Geometry,
                  unlike: Callable[[np.ndarray], np.ndarray], near: float) -> np.ndarray:
    """As :func:`redraw_cells`, each cell drawn the way (of WAYS) that ``unlike`` (a drawn image to each
    cell's distance from what the caller knows, row-major) finds nearest: the first way unless another is
    nearer and within ``near``: a look nothing known is near is drawn the first way."""
    first = redraw_cells(image, columns, rows, target)
    if not _moved(columns, target.xs) and not _moved(rows, target.ys):
        return first
    best, out = unlike(first), first
    for way in range(1, len(WAYS)):
        other = redraw_cells(image, columns, rows, target, way)
        far = unlike(other)
        take = (far < best) & (far <= near)
        if take.any():
            out = out.copy() if out is first else out
            cells = take.reshape(target.rows, target.cols)
            inside = _cell_of(target.ys, image.shape[0])[:, None], _cell_of(target.xs, image.shape[1])[None, :]
            mask = (inside[0] >= 0) & (inside[1] >= 0) & cells[inside[0], inside[1]]
            out[mask] = other[mask]
            best = np.where(take, far, best)
    return out


def _moved(source: Spans, target: tuple[int, ...]) -> bool:
    """Whether some cell along one axis is a pixel or two off its drawn size (drawn differently each way)."""
    return any(0 < abs(n - (t1 - t0)) <= MOVED_ONLY for (_, n), t0, t1 in zip(source, target, target[1:],
                                                                               strict=False))


def _cell_of(edges: tuple[int, ...], length: int) -> np.ndarray:
    """For each pixel along one axis, the index of the cell between ``edges`` it lies in, or -1 outside."""
    at = np.arange(length)
    index = np.searchsorted(np.asarray(edges), at, side="right") - 1
    return np.where((at >= edges[0]) & (at < edges[-1]), index, -1)


@lru_cache(maxsize=32)
def _maps(columns: Spans, rows: Spans, target: Geometry, width: int, height: int,
          way: tuple[int, bool]) -> tuple[np.ndarray, np.ndarray]:
    xs = _axis(columns, target.xs, width, way)
    ys = _axis(rows, target.ys, height, way)
    return np.tile(xs, (height, 1)), np.tile(ys[:, None], (1, width))


def _axis(source: Spans, target: tuple[int, ...], length: int, way: tuple[int, bool]) -> np.ndarray:
    """For each pixel along one axis of the drawn copy, where it comes from in the image."""
    out = np.arange(length, dtype=np.float32)
    out[: target[0]] += source[0][0] - target[0]
    out[target[-1]:] += source[-1][0] + source[-1][1] - target[-1]
    for (start, size), t0, t1 in zip(source, target, target[1:], strict=False):
        out[t0:t1] = cell_map(size, t1 - t0, way) + start
    return out


def cell_map(size: int, drawn: int, way: tuple[int, bool] = WAYS[0]) -> np.ndarray:
    """Where each of ``drawn`` pixels of a cell comes from in a cell ``size`` pixels wide: the edges as
    they are, the middle stretched; a cell a pixel or two off is drawn ``way`` (see WAYS): pixels at each
    side kept as they are, the middle moved or stretched."""
    u = np.arange(drawn, dtype=np.float32)
    if size == drawn:
        return u
    if abs(size - drawn) <= MOVED_ONLY:
        # a pixel or two of padding more or less: a line or bevel kept on each side, the middle moved as it
        # is, so that a digit keeps its size and stays centred; or, for a tile image stretched to its cell,
        # the middle stretched from its first pixel to its last, so that nothing of the edges blends in
        kept, stretched = way
        scale = (size - 2 * kept - 1) / max(1, drawn - 2 * kept - 1) if stretched else 1.0
        inner = kept + (u - kept) * scale + (0 if stretched else (size - drawn) // 2)
        return np.where(u < kept, u, np.where(u >= drawn - kept, size - (drawn - u), inner)).astype(np.float32)
    edge = int(min(size, drawn) * EDGE_SHARE)
    middle = (u - edge + 0.5) * (size - 2 * edge) / max(1, drawn - 2 * edge) + edge - 0.5
    return np.where(u < edge, u, np.where(u >= drawn - edge, size - (drawn - u), middle)).astype(np.float32)
