"""Find a Minesweeper board anywhere on a screenshot, with no coordinates given.

Cells show up as flat patches (a covered tile's face, a revealed cell's ground) bounded by edges: bevels,
grid lines or gaps. The locator finds the flat patches of about cell size, links those that sit one or two
cell steps apart in a row or a column, and keeps the largest lattice they form. Pitches from about 8 to
70 px, fractional pitches, gaps and any mix of covered and revealed cells work the same way.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import cv2
import numpy as np

from sweepbot.errors import SweepbotError
from sweepbot.vision.geometry import Geometry

#: A pixel is flat when no channel differs by more than this from its right and lower neighbours.
FLAT_STEP = 14
MIN_PATCH = 4
MAX_PATCH = 72
MIN_CELLS = 12


class LocateError(SweepbotError):
    """No board, or more than one, on the screenshot."""


@dataclass(frozen=True)
class Patches:
    """Flat patches of about cell size: centres and sizes (float arrays)."""

    cx: np.ndarray
    cy: np.ndarray
    w: np.ndarray
    h: np.ndarray


def flat_mask(image: np.ndarray, step: int = FLAT_STEP) -> np.ndarray:
    """Pixels whose right and lower neighbours differ by at most ``step`` in every channel (uint8 0/1).

    The mask is one pixel smaller than the image in each direction.
    """
    channels = cv2.split(image) if image.ndim == 3 else [image]
    worst: np.ndarray | None = None
    for ch in channels:
        dx = cv2.absdiff(ch[:-1, 1:], ch[:-1, :-1])
        dy = cv2.absdiff(ch[1:, :-1], ch[:-1, :-1])
        both = cv2.max(dx, dy)
        worst = both if worst is None else cv2.max(worst, both)
    assert worst is not None
    _, flat = cv2.threshold(worst, step, 1, cv2.THRESH_BINARY_INV)
    return flat


def find_patches(image: np.ndarray, step: int = FLAT_STEP) -> Patches:
    """Connected flat areas whose bounding box could be a cell's face or ground."""
    mask = flat_mask(image, step)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    keep = (
        (w >= MIN_PATCH) & (h >= MIN_PATCH) & (w <= MAX_PATCH) & (h <= MAX_PATCH)
        & (w <= 2 * h) & (h <= 2 * w) & (area * 10 >= w * h * 4)
    )
    x, y, w, h = (a[keep].astype(np.float64) for a in (x, y, w, h))
    return Patches(x + (w - 1) / 2, y + (h - 1) / 2, w, h)


def _mode_step(values: list[float]) -> float | None:
    if len(values) < MIN_CELLS // 2:
        return None
    arr = np.asarray(values)
    hist = np.bincount(np.round(arr).astype(int))
    # Fractional pitches split between two neighbouring integers: take the best pair of bins.
    pair = hist[:-1] + hist[1:] if len(hist) > 1 else hist
    k = int(np.argmax(pair))
    near = arr[(arr >= k - 0.5) & (arr <= k + 1.5)]
    return float(np.median(near)) if len(near) else None


def _links(p: Patches, px: float, py: float) -> list[tuple[int, int, int, int]]:
    """Pairs of patches one or two steps apart along a row or column: (i, j, dcol, drow)."""
    tol_x, tol_y = max(1.6, 0.07 * px), max(1.6, 0.07 * py)
    order = np.argsort(p.cx, kind="stable")
    cx, cy = p.cx, p.cy
    cell: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i in order:
        cell[(int(cx[i] // px), int(cy[i] // py))].append(int(i))
    links: list[tuple[int, int, int, int]] = []
    for (gx, gy), members in cell.items():
        for i in members:
            for dgx in range(0, 4):
                for dgy in range(0, 4):
                    for j in cell.get((gx + dgx, gy + dgy), ()):
                        if j == i:
                            continue
                        dx, dy = cx[j] - cx[i], cy[j] - cy[i]
                        for k in (1, 2):
                            if abs(dy) <= tol_y and abs(dx - k * px) <= tol_x * k:
                                links.append((i, j, k, 0))
                            elif abs(dx) <= tol_x and abs(dy - k * py) <= tol_y * k:
                                links.append((i, j, 0, k))
    return links


@dataclass(frozen=True)
class Lattice:
    """Patches with integer (row, col) positions on one board."""

    members: np.ndarray
    rows: np.ndarray
    cols: np.ndarray

    @property
    def size(self) -> int:
        return len(self.members)


def _lattices(n: int, links: list[tuple[int, int, int, int]]) -> list[Lattice]:
    adj: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for i, j, dc, dr in links:
        adj[i].append((j, dc, dr))
        adj[j].append((i, -dc, -dr))
    seen: dict[int, tuple[int, int]] = {}
    out: list[Lattice] = []
    for start in adj:
        if start in seen:
            continue
        seen[start] = (0, 0)
        stack = [start]
        comp = [start]
        while stack:
            i = stack.pop()
            ci, ri = seen[i]
            for j, dc, dr in adj[i]:
                if j not in seen:
                    seen[j] = (ci + dc, ri + dr)
                    stack.append(j)
                    comp.append(j)
        pos = np.array([seen[i] for i in comp])
        members = np.array(comp)
        cols = pos[:, 0] - pos[:, 0].min()
        rows = pos[:, 1] - pos[:, 1].min()
        out.append(Lattice(members, rows, cols))
    out.sort(key=lambda lat: -lat.size)
    return out


def _centres(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """The median position of each row/column, filled in by a straight-line fit where none is known."""
    known = np.full(count, np.nan)
    for k in range(count):
        sel = values[index == k]
        if len(sel):
            known[k] = float(np.median(sel))
    have = ~np.isnan(known)
    ks = np.arange(count)
    if have.sum() >= 2:
        slope, icept = np.polyfit(ks[have], known[have], 1)
        known[~have] = icept + slope * ks[~have]
        # a median far off the line (a stray patch) gives way to the line
        off = np.abs(known - (icept + slope * ks)) > 0.25 * slope
        known[off] = icept + slope * ks[off]
    return known


def _edges(centres: np.ndarray, pitch: float) -> tuple[int, ...]:
    mids = (centres[:-1] + centres[1:]) / 2
    first = centres[0] - pitch / 2
    last = centres[-1] + pitch / 2
    edges = np.concatenate([[first], mids, [last]])
    return tuple(int(np.floor(e + 0.5)) for e in edges)


def locate(image: np.ndarray, step: int = FLAT_STEP) -> Geometry:
    """The board's geometry on a BGR screenshot; :class:`LocateError` when there is none or several."""
    if image.ndim != 3 or image.shape[0] < 16 or image.shape[1] < 16:
        raise LocateError("the image is too small to hold a board")
    patches = find_patches(image, step)
    if len(patches.cx) < MIN_CELLS:
        raise LocateError("no board found: nothing on the image looks like a grid of cells")
    px, py = _pitch(patches)
    if px is None or py is None:
        raise LocateError("no board found: no regular grid of cells on the image")
    # patches much smaller than a cell are glyph parts, not cells
    keep = (patches.w >= 0.45 * px) & (patches.h >= 0.45 * py) & (patches.w <= 1.05 * px) & (patches.h <= 1.05 * py)
    patches = Patches(patches.cx[keep], patches.cy[keep], patches.w[keep], patches.h[keep])
    lattices = _lattices(len(patches.cx), _links(patches, px, py))
    if not lattices or lattices[0].size < MIN_CELLS:
        raise LocateError("no board found: no regular grid of cells on the image")
    best = lattices[0]
    rows, cols = int(best.rows.max()) + 1, int(best.cols.max()) + 1
    if rows < 2 or cols < 2:
        raise LocateError("no board found: cells line up in a single row or column only")
    if len(lattices) > 1 and lattices[1].size >= max(MIN_CELLS, 0.4 * best.size):
        other = lattices[1]
        if int(other.rows.max()) >= 1 and int(other.cols.max()) >= 1:
            raise LocateError(
                f"two boards found ({rows}x{cols} and {int(other.rows.max()) + 1}x{int(other.cols.max()) + 1}"
                " cells): show only one, or crop the image"
            )
    m = best.members
    xc = _centres(best.cols, patches.cx[m], cols)
    yc = _centres(best.rows, patches.cy[m], rows)
    pitch_x = (xc[-1] - xc[0]) / (cols - 1)
    pitch_y = (yc[-1] - yc[0]) / (rows - 1)
    return Geometry(_edges(xc, pitch_x), _edges(yc, pitch_y))


def _pitch(p: Patches) -> tuple[float | None, float | None]:
    """The most common step between neighbouring patches along rows and along columns."""
    right, down = _nearest_steps(p)
    return _mode_step(right), _mode_step(down)


def _nearest_steps(p: Patches) -> tuple[list[float], list[float]]:
    """Nearest neighbour distances to the right (|dy| small) and below (|dx| small)."""
    n = len(p.cx)
    right: list[float] = []
    down: list[float] = []
    rows: dict[int, list[int]] = defaultdict(list)
    cols: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        rows[round(p.cy[i] / 2)].append(i)
        cols[round(p.cx[i] / 2)].append(i)
    for groups, along, sizes, out in ((rows, p.cx, p.w, right), (cols, p.cy, p.h, down)):
        for key, members in groups.items():
            pool = members + groups.get(key - 1, []) + groups.get(key + 1, [])
            if len(pool) < 2:
                continue
            idx = np.array(pool)
            pos = along[idx]
            order = np.argsort(pos)
            pos = pos[order]
            size = sizes[idx][order]
            gaps = np.diff(pos)
            ok = (gaps >= size[:-1] * 0.9) & (gaps <= MAX_PATCH * 1.2)
            out.extend(gaps[ok].tolist())
    return right, down
