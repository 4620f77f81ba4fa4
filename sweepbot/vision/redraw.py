"""A board whose columns (or rows) differ in size, drawn again with every cell at one size.

Some clients stretch a column once a digit shows in it (mfranceschi-minesweeper: 34 px covered, 39 px with
a digit). Templates have one size, so such a board is read on a copy of the frame where each cell is drawn
onto an even grid: a cell's edges (bevel, gap, border) are kept pixel for pixel, as a toolkit draws them
the same on a button of any width, and only its middle is stretched or squeezed. Calibration and reading
use the same drawing, so a digit squeezed here is the digit a profile learnt.

Pure functions on BGR frames (numpy arrays).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

import cv2
import numpy as np

from sweepbot.vision.geometry import Geometry
from sweepbot.vision.lines import UNEVEN_SIZE

#: The share of a cell, on each side, drawn again pixel for pixel.
EDGE_SHARE = 0.25
#: A cell that differs from its drawn size by at most this many pixels has its middle moved, not stretched
#: (a web page's table row that loses its padding once it holds no covered cell).
MOVED_ONLY = 2
#: Pixels kept as they are on each side of such a cell (a grid line, or a line and a bevel).
MOVED_EDGE = 2


def is_uneven(geometry: Geometry) -> bool:
    """Whether cells differ in width or height by UNEVEN_SIZE pixels or more (a pixel or two is a fractional
    pitch, which reading takes as it is)."""
    return any(int(np.ptp(np.diff(edges))) >= UNEVEN_SIZE for edges in (geometry.xs, geometry.ys))


def even_grid(geometry: Geometry, pitch: tuple[float, float]) -> Geometry:
    """A grid of ``geometry``'s rows and columns from its top-left corner, every cell ``pitch`` in size."""
    x0, y0 = geometry.xs[0], geometry.ys[0]
    return Geometry(tuple(x0 + round(k * pitch[0]) for k in range(geometry.cols + 1)),
                    tuple(y0 + round(k * pitch[1]) for k in range(geometry.rows + 1)))


#: One axis of a board as drawn: each cell's first pixel and size along it.
Spans = tuple[tuple[int, int], ...]


def off_pitch(geometry: Geometry, pitch: tuple[float, float]) -> bool:
    """Whether some cell of ``geometry`` lies elsewhere than on an even grid of ``pitch`` from its corner."""
    return geometry != even_grid(geometry, pitch)


def spans(edges: tuple[int, ...]) -> Spans:
    """The cells between consecutive ``edges``."""
    return tuple((a, b - a) for a, b in pairwise(edges))


def redraw(image: np.ndarray, source: Geometry, target: Geometry) -> np.ndarray:
    """``image`` with each cell of ``source`` drawn onto the same cell of ``target`` (same rows and columns);
    outside the board, the pixels move with the board's nearest side. The image itself when they agree."""
    if source == target:
        return image
    return redraw_cells(image, spans(source.xs), spans(source.ys), target)


def redraw_cells(image: np.ndarray, columns: Spans, rows: Spans, target: Geometry) -> np.ndarray:
    """As :func:`redraw`, the cells given by their spans (which may leave a pixel between them, or share one)."""
    map_x, map_y = _maps(columns, rows, target, image.shape[1], image.shape[0])
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=32)
def _maps(columns: Spans, rows: Spans, target: Geometry, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    xs = _axis(columns, target.xs, width)
    ys = _axis(rows, target.ys, height)
    return np.tile(xs, (height, 1)), np.tile(ys[:, None], (1, width))


def _axis(source: Spans, target: tuple[int, ...], length: int) -> np.ndarray:
    """For each pixel along one axis of the drawn copy, where it comes from in the image."""
    out = np.arange(length, dtype=np.float32)
    out[: target[0]] += source[0][0] - target[0]
    out[target[-1]:] += source[-1][0] + source[-1][1] - target[-1]
    for (start, size), t0, t1 in zip(source, target, target[1:], strict=False):
        out[t0:t1] = cell_map(size, t1 - t0) + start
    return out


def cell_map(size: int, drawn: int) -> np.ndarray:
    """Where each of ``drawn`` pixels of a cell comes from in a cell ``size`` pixels wide: the edges as
    they are, the middle stretched."""
    u = np.arange(drawn, dtype=np.float32)
    if size == drawn:
        return u
    if abs(size - drawn) <= MOVED_ONLY:
        # a pixel or two of padding more or less: a line or bevel of MOVED_EDGE pixels kept on each side, the
        # middle moved as it is, so that a digit keeps its size and stays centred
        moved = u + (size - drawn) // 2
        return np.where(u < MOVED_EDGE, u, np.where(u >= drawn - MOVED_EDGE, size - (drawn - u), moved)).astype(
            np.float32)
    edge = int(min(size, drawn) * EDGE_SHARE)
    middle = (u - edge + 0.5) * (size - 2 * edge) / max(1, drawn - 2 * edge) + edge - 0.5
    return np.where(u < edge, u, np.where(u >= drawn - edge, size - (drawn - u), middle)).astype(np.float32)
