"""Flat patches grouped into lattices: patches linked one or two cell steps apart in a row or a column, each
lattice with a row and column number per patch. What :mod:`sweepbot.vision.locate` builds a board from.

Pure functions on numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The smallest and largest flat patch (px) a cell's face may be (cells of 10 to 100 px).
MIN_PATCH = 4
MAX_PATCH = 96
#: The fewest cells a board has.
MIN_CELLS = 12


@dataclass(frozen=True)
class Patches:
    """Flat patches of about cell size: centres and sizes (float arrays)."""

    cx: np.ndarray
    cy: np.ndarray
    w: np.ndarray
    h: np.ndarray


def pairs(along: np.ndarray, across: np.ndarray, lo: float, hi: float, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """All (i, j) with ``along[j] - along[i]`` in ``[lo, hi]`` and ``|across[j] - across[i]| <= tol``."""
    order = np.argsort(along, kind="stable")
    sorted_along = along[order]
    start = np.searchsorted(sorted_along, along + lo, side="left")
    stop = np.searchsorted(sorted_along, along + hi, side="right")
    counts = np.maximum(stop - start, 0)
    total = int(counts.sum())
    if total == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty
    i = np.repeat(np.arange(len(along)), counts)
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    j = order[np.repeat(start, counts) + offsets]
    keep = np.abs(across[j] - across[i]) <= tol
    return i[keep], j[keep]


def step_candidates(along: np.ndarray, across: np.ndarray, size: np.ndarray, count: int = 3) -> list[float]:
    """The most common steps between patches in a line whose sizes suit the step (a cell's face fills at
    least 45% of the pitch), best first; fractional steps spread over two integers, so bins go in pairs."""
    i, j = pairs(along, across, MIN_PATCH, MAX_PATCH * 1.1, 2.0)
    d = along[j] - along[i]
    ok = (size[i] >= 0.45 * d) & (size[i] <= 1.05 * d) & (size[j] >= 0.45 * d) & (size[j] <= 1.05 * d)
    d = d[ok]
    if len(d) < MIN_CELLS // 2:
        return []
    hist = np.bincount(np.round(d).astype(int))
    pair = np.concatenate([hist[:-1] + hist[1:], [0]])
    out: list[float] = []
    for _ in range(count):
        k = int(np.argmax(pair))
        if pair[k] < MIN_CELLS // 2:
            break
        near = d[(d >= k - 0.5) & (d <= k + 1.5)]
        out.append(float(np.median(near)))
        pair[max(0, k - 2) : k + 3] = 0
    return out


@dataclass(frozen=True)
class Lattice:
    """Patches with integer (row, col) positions on one board."""

    members: np.ndarray
    rows: np.ndarray
    cols: np.ndarray

    @property
    def size(self) -> int:
        return len(self.members)


def components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Connected components of a graph on n nodes as a label per node (label propagation)."""
    labels = np.arange(n)
    while True:
        new = labels.copy()
        np.minimum.at(new, i, labels[j])
        np.minimum.at(new, j, labels[i])
        new = new[new]
        if np.array_equal(new, labels):
            return labels
        labels = new


def linked(p: Patches, px: float, py: float) -> list[Lattice]:
    """Patches linked one or two steps apart along rows and columns, grouped into lattices, largest first."""
    tol_x, tol_y = max(1.6, 0.07 * px), max(1.6, 0.07 * py)
    links_i: list[np.ndarray] = []
    links_j: list[np.ndarray] = []
    for k in (1, 2):
        for along, across, step, tol, tol_across in ((p.cx, p.cy, px, tol_x, tol_y), (p.cy, p.cx, py, tol_y, tol_x)):
            # a neighbour may be up to NARROWER closer, or as much further: a client that widens some
            # columns only, so that the common step is a wide one's or a narrow one's
            low = min(k * step - k * tol, NARROWER * step) if k == 1 else k * step - k * tol
            high = max(k * step + k * tol, step / NARROWER) if k == 1 else k * step + k * tol
            i, j = pairs(along, across, low, high, tol_across)
            links_i.append(i)
            links_j.append(j)
    i, j = np.concatenate(links_i), np.concatenate(links_j)
    if len(i) == 0:
        return []
    labels = components(len(p.cx), i, j)
    in_link = np.zeros(len(p.cx), bool)
    in_link[i] = True
    in_link[j] = True
    counts = np.bincount(labels[in_link], minlength=len(p.cx))
    out: list[Lattice] = []
    for label in np.argsort(-counts)[:3]:
        if counts[label] < 2:
            break
        members = np.nonzero((labels == label) & in_link)[0]
        out.append(Lattice(members, numbered(p.cy[members], py), numbered(p.cx[members], px)))
    return out


#: The closest two neighbouring cells' faces may be, as a share of the step (34 px columns among 39 px ones);
#: the furthest is the step divided by it (a 39 px column among 34 px ones).
NARROWER = 0.82


def numbered(values: np.ndarray, step: float) -> np.ndarray:
    """Row (column) numbers of patches from their positions: patches within half a step of the one before
    are in its row; the next row is one on, or as many as whole steps fit in the gap. Counted from one row to
    the next, a board whose rows differ in size does not drift off its numbers."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    gaps = np.diff(ordered)
    starts = np.concatenate([[True], gaps > 0.5 * step])
    firsts = ordered[starts]
    steps = np.maximum(1, np.round(np.diff(firsts) / step)).astype(int)
    number_of_run = np.concatenate([[0], np.cumsum(steps)])
    numbers = np.empty(len(values), int)
    numbers[order] = number_of_run[np.cumsum(starts) - 1]
    return numbers


MERGE_GAP = 4


def merge(p: Patches, lattices: list[Lattice], px: float, py: float) -> list[Lattice]:
    """Join lattices that are parts of one board: on the same grid and at most ``MERGE_GAP`` cells apart
    (number cells spread over a board of revealed zeros, which show no edges of their own)."""
    out = list(lattices)
    merged = True
    while merged and len(out) > 1:
        merged = False
        for a in range(len(out)):
            for b in range(a + 1, len(out)):
                joined = join(p, out[a], out[b], px, py)
                if joined is not None:
                    out[a] = joined
                    del out[b]
                    merged = True
                    break
            if merged:
                break
    return out


def join(p: Patches, a: Lattice, b: Lattice, px: float, py: float) -> Lattice | None:
    ra = a.members[np.argmin(a.rows * 10000 + a.cols)]  # a's cell (0, 0) or the first patch
    x0 = p.cx[ra] - px * a.cols[np.argmin(a.rows * 10000 + a.cols)]
    y0 = p.cy[ra] - py * a.rows[np.argmin(a.rows * 10000 + a.cols)]
    fx = (p.cx[b.members] - x0) / px
    fy = (p.cy[b.members] - y0) / py
    tol_x, tol_y = max(1.6, 0.07 * px) / px, max(1.6, 0.07 * py) / py
    if np.median(np.abs(fx - np.round(fx))) > tol_x or np.median(np.abs(fy - np.round(fy))) > tol_y:
        return None
    cols_b, rows_b = np.round(fx).astype(int), np.round(fy).astype(int)
    gap_c = max(cols_b.min() - a.cols.max(), a.cols.min() - cols_b.max())
    gap_r = max(rows_b.min() - a.rows.max(), a.rows.min() - rows_b.max())
    if gap_c > MERGE_GAP or gap_r > MERGE_GAP:
        return None
    rows = np.concatenate([a.rows, rows_b])
    cols = np.concatenate([a.cols, cols_b])
    return Lattice(np.concatenate([a.members, b.members]), rows - rows.min(), cols - cols.min())


def trim(lat: Lattice) -> Lattice:
    """Drop edge rows and columns with few patches: a button or a counter that happens to line up with the
    board's columns, one step above it, is not a row of cells."""
    members, rows, cols = lat.members, lat.rows, lat.cols
    for _ in range(4):
        changed = False
        for index in (rows, cols):
            counts = np.bincount(index)
            typical = float(np.median(counts))
            for edge in (0, len(counts) - 1):
                if len(counts) > 2 and counts[edge] < 0.25 * typical:
                    keep = index != edge
                    members, rows, cols = members[keep], rows[keep], cols[keep]
                    changed = True
                    break
            if changed:
                break
        if not changed:
            break
        rows, cols = rows - rows.min(), cols - cols.min()
    return Lattice(members, rows, cols)
