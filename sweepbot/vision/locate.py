"""Find a Minesweeper board anywhere on a screenshot, with no coordinates given.

Cells show up as flat patches (a covered tile's face, a revealed cell's ground) bounded by edges: bevels,
grid lines or gaps. The locator finds the flat patches of about cell size, links those that sit one or two
cell steps apart in a row or a column, and keeps the largest lattice they form. Pitches from about 8 to
70 px, fractional pitches, gaps and any mix of covered and revealed cells work the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from sweepbot.errors import SweepbotError
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.lines import centres, edges, face_edges, line, stepped_edges, uneven

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
    """Connected flat areas whose bounding box could be a cell's face or ground.

    Twice: on the flat mask as it is, and with gaps of up to 4 px in edges closed along rows and columns,
    so that cells bounded by dotted lines (ace-minesweeper's revealed cells) are patches too.
    """
    mask = flat_mask(image, step)
    edges = 1 - mask
    closed = cv2.max(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, _ROW_KERNEL),
                     cv2.morphologyEx(edges, cv2.MORPH_CLOSE, _COL_KERNEL))
    first, second = _patches_of(mask), _patches_of(1 - closed)
    return Patches(*(np.concatenate([a, b]) for a, b in zip(
        (first.cx, first.cy, first.w, first.h), (second.cx, second.cy, second.w, second.h), strict=True)))


_ROW_KERNEL = np.ones((1, 5), np.uint8)
_COL_KERNEL = np.ones((5, 1), np.uint8)


def _patches_of(mask: np.ndarray) -> Patches:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    keep = (
        (w >= MIN_PATCH) & (h >= MIN_PATCH) & (w <= MAX_PATCH) & (h <= MAX_PATCH)
        & (w <= 2 * h) & (h <= 2 * w) & (area * 10 >= w * h * 4)
    )
    x, y, w, h = (a[keep].astype(np.float64) for a in (x, y, w, h))
    return Patches(x + (w - 1) / 2, y + (h - 1) / 2, w, h)


def _pairs(along: np.ndarray, across: np.ndarray, lo: float, hi: float, tol: float) -> tuple[np.ndarray, np.ndarray]:
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


def _step_candidates(along: np.ndarray, across: np.ndarray, size: np.ndarray, count: int = 3) -> list[float]:
    """The most common steps between patches in a line whose sizes suit the step (a cell's face fills at
    least 45% of the pitch), best first; fractional steps spread over two integers, so bins go in pairs."""
    i, j = _pairs(along, across, MIN_PATCH, MAX_PATCH * 1.1, 2.0)
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


def _components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
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


def _lattices(p: Patches, px: float, py: float) -> list[Lattice]:
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
            i, j = _pairs(along, across, low, high, tol_across)
            links_i.append(i)
            links_j.append(j)
    i, j = np.concatenate(links_i), np.concatenate(links_j)
    if len(i) == 0:
        return []
    labels = _components(len(p.cx), i, j)
    linked = np.zeros(len(p.cx), bool)
    linked[i] = True
    linked[j] = True
    counts = np.bincount(labels[linked], minlength=len(p.cx))
    out: list[Lattice] = []
    for label in np.argsort(-counts)[:3]:
        if counts[label] < 2:
            break
        members = np.nonzero((labels == label) & linked)[0]
        out.append(Lattice(members, _numbered(p.cy[members], py), _numbered(p.cx[members], px)))
    return out


#: The closest two neighbouring cells' faces may be, as a share of the step (34 px columns among 39 px ones);
#: the furthest is the step divided by it (a 39 px column among 34 px ones).
NARROWER = 0.82


def _numbered(values: np.ndarray, step: float) -> np.ndarray:
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


def _merge(p: Patches, lattices: list[Lattice], px: float, py: float) -> list[Lattice]:
    """Join lattices that are parts of one board: on the same grid and at most ``MERGE_GAP`` cells apart
    (number cells spread over a board of revealed zeros, which show no edges of their own)."""
    out = list(lattices)
    merged = True
    while merged and len(out) > 1:
        merged = False
        for a in range(len(out)):
            for b in range(a + 1, len(out)):
                joined = _join(p, out[a], out[b], px, py)
                if joined is not None:
                    out[a] = joined
                    del out[b]
                    merged = True
                    break
            if merged:
                break
    return out


def _join(p: Patches, a: Lattice, b: Lattice, px: float, py: float) -> Lattice | None:
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


def _board_lattices(patches: Patches) -> tuple[Patches, list[Lattice], float, float] | None:
    """Try the likeliest pitches; keep the one whose largest lattice covers the most area (a cell's face
    fills at least half its pitch, so twice the pitch does not fit every other cell)."""
    results: list[tuple[float, Patches, list[Lattice], float, float, float]] = []
    for px in _step_candidates(patches.cx, patches.cy, patches.w):
        pys = [py for py in _step_candidates(patches.cy, patches.cx, patches.h) if 0.75 * px <= py <= 1.33 * px]
        for py in pys[:1] or [px]:
            keep = ((patches.w >= 0.5 * px) & (patches.h >= 0.5 * py)
                    & (patches.w <= 1.05 * px) & (patches.h <= 1.05 * py))
            sub = Patches(patches.cx[keep], patches.cy[keep], patches.w[keep], patches.h[keep])
            lattices = [_trim(lat) for lat in _merge(sub, _lattices(sub, px, py), px, py)]
            lattices.sort(key=lambda lat: -lat.size)
            if not lattices:
                continue
            lat = lattices[0]
            cells = len(np.unique(lat.rows * 100000 + lat.cols))
            fill = cells / ((int(lat.rows.max()) + 1) * (int(lat.cols.max()) + 1))
            results.append((cells * px * py, sub, lattices, px, py, fill))
    if not results:
        return None
    results.sort(key=lambda r: -r[0])
    best = results[0]
    return best[1], best[2], best[3], best[4]


def _grid_lines(patches: Patches, lat: Lattice, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Cell centres along x and y. Patches of one kind (covered faces, say) sit at the same place in every
    cell, but different kinds may not (a bevel is lopsided): fit straight lines through the most common
    kind when it spans two rows and two columns, so that the grid does not depend on the mix of cells."""
    m = lat.members
    w, h = np.round(patches.w[m]).astype(int), np.round(patches.h[m]).astype(int)
    keys, counts = np.unique(np.stack([w, h], axis=1), axis=0, return_counts=True)
    kw, kh = keys[int(np.argmax(counts))]
    same = (np.abs(w - kw) <= 1) & (np.abs(h - kh) <= 1)
    if len(np.unique(lat.cols[same])) >= 2 and len(np.unique(lat.rows[same])) >= 2:
        xs, ys = patches.cx[m][same], patches.cy[m][same]
        return (uneven(line(lat.cols[same], xs, cols), lat.cols[same], xs),
                uneven(line(lat.rows[same], ys, rows), lat.rows[same], ys))
    return centres(lat.cols, patches.cx[m], cols), centres(lat.rows, patches.cy[m], rows)


#: Edges fainter than FLAT_STEP: tiles told apart only by a soft shadow or a 1-2 level gradient step.
SOFT_STEP = 6
#: A smoothing that blurs a fine texture (stippled or patterned tiles) into flat faces: box size in pixels.
TEXTURE_BLUR = 5


def locate(image: np.ndarray, step: int | None = None) -> Geometry:
    """The board's geometry on a BGR screenshot; :class:`LocateError` when there is none or several.

    Cells are looked for as flat patches bounded by edges of at least ``step`` levels; without ``step``, with
    the usual edges first, then with faint ones (soft shadows), then on the image smoothed so that a fine
    texture inside the tiles reads as flat. The first way that finds a board gives it."""
    if image.ndim != 3 or image.shape[0] < 16 or image.shape[1] < 16:
        raise LocateError("the image is too small to hold a board")
    if step is not None:
        return _locate(image, step)
    first: LocateError | None = None
    for attempt, way in enumerate((
        lambda: _locate(image, FLAT_STEP),
        lambda: _locate(image, SOFT_STEP),
        lambda: _locate(cv2.blur(image, (TEXTURE_BLUR, TEXTURE_BLUR)), SOFT_STEP),
    )):
        try:
            found = way()
            return found if attempt == 2 else _textured_rest(image, found)
        except LocateError as err:
            if attempt == 0:
                first = err
            if "two boards" in str(err):
                raise
    assert first is not None
    raise first


def _textured_rest(image: np.ndarray, found: Geometry) -> Geometry:
    """``found``, or the whole board it is part of: where opened cells are flat and covered ones textured
    (xbomb's stippled tiles), only the opened part shows as flat patches. The board found on the smoothed
    image is the whole when it has more cells and every edge of ``found`` is one of its edges."""
    try:
        smooth = _locate(cv2.blur(image, (TEXTURE_BLUR, TEXTURE_BLUR)), SOFT_STEP)
    except LocateError:
        return found
    if smooth.rows * smooth.cols <= found.rows * found.cols:
        return found
    on_edges = all(min(abs(a - b) for b in theirs) <= EDGE_SLACK
                   for ours, theirs in ((found.xs, smooth.xs), (found.ys, smooth.ys)) for a in ours)
    return smooth if on_edges else found


#: Pixels two ways of locating may put one cell edge apart.
EDGE_SLACK = 2


def _locate(image: np.ndarray, step: int) -> Geometry:
    patches = find_patches(image, step)
    if len(patches.cx) < MIN_CELLS:
        raise LocateError("no board found: nothing on the image looks like a grid of cells")
    found = _board_lattices(patches)
    if found is None or found[1][0].size < MIN_CELLS:
        raise LocateError("no board found: no regular grid of cells on the image")
    patches, lattices, _, _ = found
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
    xc, yc = _grid_lines(patches, best, rows, cols)
    pitch_x = (xc[-1] - xc[0]) / (cols - 1)
    pitch_y = (yc[-1] - yc[0]) / (rows - 1)
    m = best.members
    xs = (face_edges(best.cols, patches.cx[m], patches.w[m], patches.h[m], cols)
          or stepped_edges(best.cols, patches.cx[m], xc) or edges(xc, pitch_x))
    ys = (face_edges(best.rows, patches.cy[m], patches.h[m], patches.w[m], rows)
          or stepped_edges(best.rows, patches.cy[m], yc) or edges(yc, pitch_y))
    return Geometry(xs, ys)


def _trim(lat: Lattice) -> Lattice:
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
