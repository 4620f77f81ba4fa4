"""Find a Minesweeper board anywhere on a screenshot, with no coordinates given.

Cells show up as flat patches (a covered tile's face, a revealed cell's ground) bounded by edges: bevels,
grid lines or gaps. The locator finds the flat patches of about cell size, links those that sit one or two
cell steps apart in a row or a column, and keeps the largest lattice they form. Pitches from about 8 to
70 px, fractional pitches, gaps and any mix of covered and revealed cells work the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from sweepbot.errors import SweepbotError
from sweepbot.vision.corners import corners_joined
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.lattice import (
    MAX_PATCH,
    MIN_CELLS,
    MIN_PATCH,
    Lattice,
    Patches,
    linked,
    merge,
    step_candidates,
    trim,
)
from sweepbot.vision.lines import centres, edges, face_edges, kind_edges, line, stepped_edges, uneven

#: A pixel is flat when no channel differs by more than this from its right and lower neighbours.
FLAT_STEP = 14


class LocateError(SweepbotError):
    """No board, or more than one, on the screenshot."""


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


def _board_lattices(patches: Patches) -> list[tuple[float, Patches, Lattice, float, float]]:
    """Every lattice of cells at each of the likeliest pitches, the likeliest board first: the pitch whose
    largest lattice covers the most area (a cell's face fills at least half its pitch, so twice the pitch does
    not fit every other cell), its lattices largest first, then every other pitch's lattices by the area they
    cover. Each with that area, the patches of its pitch and the pitch."""
    results: list[list[tuple[float, Patches, Lattice, float, float]]] = []
    for px in step_candidates(patches.cx, patches.cy, patches.w):
        pys = [py for py in step_candidates(patches.cy, patches.cx, patches.h) if 0.75 * px <= py <= 1.33 * px]
        for py in pys[:1] or [px]:
            keep = _cell_sized(patches, px, py)
            sub = Patches(patches.cx[keep], patches.cy[keep], patches.w[keep], patches.h[keep])
            lattices = [trim(lat) for lat in merge(sub, linked(sub, px, py), px, py)]
            lattices.sort(key=lambda lat: -lat.size)
            if lattices:
                results.append([(_cells(lat) * px * py, sub, lat, px, py) for lat in lattices])
    if not results:
        return []
    results.sort(key=lambda r: -r[0][0])
    rest = sorted((one for result in results[1:] for one in result), key=lambda one: -one[0])
    return results[0] + rest


def _cells(lat: Lattice) -> int:
    return len(np.unique(lat.rows * 100000 + lat.cols))


def _cell_sized(patches: Patches, px: float, py: float) -> np.ndarray:
    """Which patches could be the face of a cell of this pitch: a cell's face fills at least half its pitch,
    and no more than its pitch with a pixel's slack."""
    return (patches.w >= 0.5 * px) & (patches.h >= 0.5 * py) & (patches.w <= 1.05 * px) & (patches.h <= 1.05 * py)


def _grid_lines(patches: Patches, lat: Lattice, same: np.ndarray, rows: int,
                cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Cell centres along x and y. Patches of one kind (covered faces, say) sit at the same place in every
    cell, but different kinds may not (a bevel is lopsided): fit straight lines through the most common
    kind when it spans two rows and two columns, so that the grid does not depend on the mix of cells."""
    m = lat.members
    if len(np.unique(lat.cols[same])) >= 2 and len(np.unique(lat.rows[same])) >= 2:
        xs, ys = patches.cx[m], patches.cy[m]
        return (uneven(line(lat.cols[same], xs[same], cols), lat.cols, xs, same),
                uneven(line(lat.rows[same], ys[same], rows), lat.rows, ys, same))
    return centres(lat.cols, patches.cx[m], cols), centres(lat.rows, patches.cy[m], rows)


def _common_kind(patches: Patches, lat: Lattice) -> np.ndarray:
    """Which of the lattice's patches are of its most common size (within a pixel)."""
    m = lat.members
    w, h = np.round(patches.w[m]).astype(int), np.round(patches.h[m]).astype(int)
    keys, counts = np.unique(np.stack([w, h], axis=1), axis=0, return_counts=True)
    kw, kh = keys[int(np.argmax(counts))]
    return (np.abs(w - kw) <= 1) & (np.abs(h - kh) <= 1)


#: Edges fainter than FLAT_STEP: tiles told apart only by a soft shadow or a 1-2 level gradient step.
SOFT_STEP = 6
#: A smoothing that blurs a fine texture (stippled or patterned tiles) into flat faces: box size in pixels.
TEXTURE_BLUR = 5


def locate(image: np.ndarray, step: int | None = None) -> Geometry:
    """The board's geometry on a BGR screenshot: the likeliest of its :func:`grids`; :class:`LocateError` when
    there is none, or when the next is another board like it (``Grids.twin``)."""
    found = grids(image, step)
    if found.twin is not None:
        raise LocateError(found.twin)
    return found.ranked[0]


@dataclass(frozen=True)
class Grids:
    """The grids of cells on a screenshot that could be the board, the likeliest first, and why the first two
    are taken for two boards (None: they are not): the second at the same pitch, with at least ``TWIN_SHARE``
    of the first's cells (counted as the patches that make them), two rows and columns at least."""

    ranked: tuple[Geometry, ...]
    twin: str | None = None


#: A grid at a board's pitch with at least this share of its cells is taken for a second board.
TWIN_SHARE = 0.4


def grids(image: np.ndarray, step: int | None = None) -> Grids:
    """Every grid of cells on a BGR screenshot that could be the board, the likeliest first (the one covering
    the most area at the pitch most cells show), each apart from those before it, at most ``MAX_GRIDS``: a
    board beside another grid (a chessboard on a web page, another game) is one of them. :class:`LocateError`
    when there is none.

    Cells are looked for as flat patches bounded by edges of at least ``step`` levels; without ``step``, with
    the usual edges first, then with faint ones (soft shadows), then on the image smoothed so that a fine
    texture inside the tiles reads as flat, then with the marks at the corners of tiles that touch joined into
    lines (``vision.corners``). The first way that finds a grid gives them."""
    if image.ndim != 3 or image.shape[0] < 16 or image.shape[1] < 16:
        raise LocateError("the image is too small to hold a board")
    if step is not None:
        return _locate(image, step)
    first: LocateError | None = None
    for attempt, way in enumerate((
        lambda: _locate(image, FLAT_STEP),
        lambda: _locate(image, SOFT_STEP),
        lambda: _locate(cv2.blur(image, (TEXTURE_BLUR, TEXTURE_BLUR)), SOFT_STEP),
        lambda: _locate_by_corners(image),
    )):
        try:
            found = way()
        except LocateError as err:
            if attempt == 0:
                first = err
            continue
        # the grids found with faint edges, and on the image smoothed, worked out once for every grid
        faint = cache(lambda: _or_none(lambda: _locate(image, SOFT_STEP).ranked))
        smooth = cache(lambda: _or_none(lambda: _locate(cv2.blur(image, (TEXTURE_BLUR, TEXTURE_BLUR)),
                                                          SOFT_STEP).ranked))
        ranked = found.ranked
        if attempt == 0:
            ranked = tuple(_faint_rest(image, one, faint) for one in ranked)
        if attempt < 2:
            ranked = tuple(_textured_rest(image, one, smooth) for one in ranked)
        return replace(found, ranked=ranked)
    assert first is not None
    raise first


#: The most grids :func:`grids` gives: a desktop shows few grids of cells of a board's size, and each one
#: before the board is read in vain first.
MAX_GRIDS = 4


def _locate_by_corners(image: np.ndarray) -> Grids:
    """The board of tiles told apart only by marks where four of them meet (see ``vision.corners``)."""
    joined = corners_joined(image, 1 - flat_mask(image))
    if joined is None:
        raise LocateError("no board found: no regular grid of cells on the image")
    return _locate(joined, FLAT_STEP)


def _sides(image: np.ndarray, found: Geometry) -> tuple[np.ndarray, ...]:
    """The strips of ``image`` one cell wide above, below, left and right of the board ``found`` (each a
    pixel wider and taller, so that its flat mask covers the strip)."""
    x0, y0, w, h = found.bbox
    px, py = (round(p) for p in found.pitch)
    return (image[max(0, y0 - py) : y0 + 1, x0 : x0 + w + 1], image[y0 + h : y0 + h + py + 1, x0 : x0 + w + 1],
            image[y0 : y0 + h + 1, max(0, x0 - px) : x0 + 1], image[y0 : y0 + h + 1, x0 + w : x0 + w + px + 1])


def _flat_share(strip: np.ndarray, step: int = FLAT_STEP) -> float | None:
    """The share of flat pixels on ``strip``; None when it is too thin to tell."""
    return float(flat_mask(strip, step).mean()) if strip.shape[0] > 1 and strip.shape[1] > 1 else None


def _extends(found: Geometry, other: Geometry) -> bool:
    """Whether ``other`` is a larger board that holds ``found``: more cells, and every edge of ``found`` is
    one of its edges."""
    if other.rows * other.cols <= found.rows * found.cols:
        return False
    return all(min(abs(a - b) for b in theirs) <= EDGE_SLACK
               for ours, theirs in ((found.xs, other.xs), (found.ys, other.ys)) for a in ours)


def _or_none(find: Callable[[], tuple[Geometry, ...]]) -> tuple[Geometry, ...]:
    """The grids ``find`` finds, or none."""
    try:
        return find()
    except LocateError:
        return ()


def _faint_rest(image: np.ndarray, found: Geometry, wholes: Callable[[], tuple[Geometry, ...]]) -> Geometry:
    """``found``, or the whole board it is part of: where some cells are told apart by fainter edges than
    the rest (kmines's opened cells differ by 12 levels along their edges, its covered ones by more), rows
    or columns of them are one flat area with the usual edges, so only the rest of the board is found.
    The board found with faint edges (one of ``wholes()``'s grids) is the whole when a side of ``found`` holds
    faint edges, it has more cells at the same pitch, and every edge of ``found`` is one of its edges."""
    for side in _sides(image, found):
        usual, faint = _flat_share(side), _flat_share(side, SOFT_STEP)
        if usual is not None and faint is not None and usual - faint >= FAINT_SHARE \
                and _faint_cells(side, found.pitch) >= 2:
            break
    else:
        return found  # no cells told apart by faint edges beside the board
    for whole in wholes():
        same_pitch = all(abs(a - b) <= PITCH_SLACK * a for a, b in zip(found.pitch, whole.pitch, strict=True))
        if same_pitch and _extends(found, whole):
            return whole
    return found


def _faint_cells(strip: np.ndarray, pitch: tuple[float, float]) -> int:
    """How many patches of about a cell's size (as the board's lattice takes them) the strip holds when faint
    edges count: a line of cells beyond the board holds one for each; the soft edges a resize leaves along a
    window's frame bound none."""
    return int(_cell_sized(_patches_of(flat_mask(strip, SOFT_STEP)), *pitch).sum())


#: The least share of a strip beside the board that must be faint edges (edges with SOFT_STEP, flat with
#: FLAT_STEP) for the board to be looked for with faint edges: cell borders of 1 px at a 20 px pitch
#: make about a tenth.
FAINT_SHARE = 0.03

#: How far (as a share) two ways of locating may put the pitch apart and still find one board.
PITCH_SLACK = 0.02


def _textured_rest(image: np.ndarray, found: Geometry, smoothed: Callable[[], tuple[Geometry, ...]]) -> Geometry:
    """``found``, or the whole board it is part of: where opened cells are flat and covered ones textured
    (xbomb's stippled tiles), only the opened part shows as flat patches. The board found on the smoothed
    image (the first of ``smoothed()``'s grids that holds ``found``) is the whole when it has more cells, every
    edge of ``found`` is one of its edges, and each row and column it adds holds a textured cell."""
    if all((share := _flat_share(side)) is None or share > TEXTURED for side in _sides(image, found)):
        return found  # flat on every side of the board: no textured cell beside it
    smooths = [one for one in smoothed() if _extends(found, one)]
    if not smooths:
        return found
    smooth = smooths[0]
    flat = flat_mask(image)
    # each row and column the smoothed board adds holds a textured cell (a flat margin beside the board
    # that smoothing made look like a column holds none)
    textured = np.zeros((smooth.rows, smooth.cols), bool)
    for r in range(smooth.rows):
        for c in range(smooth.cols):
            x, y, cw, ch = smooth.cell_rect(r, c)
            inner = flat[y + ch // 4 : y + 3 * ch // 4, x + cw // 4 : x + 3 * cw // 4]
            textured[r, c] = inner.size > 0 and inner.mean() <= TEXTURED
    x0, y0, w, h = found.bbox
    centres_x = [(a + b) / 2 for a, b in zip(smooth.xs, smooth.xs[1:], strict=False)]
    centres_y = [(a + b) / 2 for a, b in zip(smooth.ys, smooth.ys[1:], strict=False)]
    added_cols = [c for c, x in enumerate(centres_x) if not x0 <= x < x0 + w]
    added_rows = [r for r, y in enumerate(centres_y) if not y0 <= y < y0 + h]
    if any(not textured[:, c].any() for c in added_cols) or any(not textured[r, :].any() for r in added_rows):
        return found
    return smooth


#: The most a textured cell's middle may be flat (a stippled tile has an edge at nearly every pixel).
TEXTURED = 0.5


#: Pixels two ways of locating may put one cell edge apart.
EDGE_SLACK = 2


def _locate(image: np.ndarray, step: int) -> Grids:
    """The grids of cells bounded by edges of at least ``step`` levels (see :func:`grids`)."""
    patches = find_patches(image, step)
    if len(patches.cx) < MIN_CELLS:
        raise LocateError("no board found: nothing on the image looks like a grid of cells")
    ranked = _board_lattices(patches)
    if not ranked or ranked[0][2].size < MIN_CELLS:
        raise LocateError("no board found: no regular grid of cells on the image")
    found: list[Geometry] = []
    taken: list[int] = []  # the place in ``ranked`` of each grid found
    boxes: list[tuple[float, float, float, float]] = []
    twin = _twins(ranked)
    for k, (_, sub, lat, _, _) in enumerate(ranked):
        rows, cols = int(lat.rows.max()) + 1, int(lat.cols.max()) + 1
        if lat.size < MIN_CELLS or rows < 2 or cols < 2:
            continue
        m = lat.members
        box = (float((sub.cx[m] - sub.w[m] / 2).min()), float((sub.cy[m] - sub.h[m] / 2).min()),
               float((sub.cx[m] + sub.w[m] / 2).max()), float((sub.cy[m] + sub.h[m] / 2).max()))
        if not (twin and k == 1) and any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                                         for b in boxes):
            continue  # another grid over the same place (cells at twice the pitch, parts of cells)
        boxes.append(box)
        taken.append(k)
        found.append(_geometry(sub, lat, rows, cols))
        if len(found) == MAX_GRIDS:
            break
    if not found:
        raise LocateError("no board found: cells line up in a single row or column only")
    why = None
    if twin and taken[:2] == [0, 1]:
        one, other = found[0], found[1]
        why = (f"two boards found ({one.rows}x{one.cols} and {other.rows}x{other.cols} cells): show only one, "
               "or crop the image")
    return Grids(tuple(found), why)


def _twins(ranked: list[tuple[float, Patches, Lattice, float, float]]) -> bool:
    """Whether the likeliest two lattices are two boards (see ``Grids.twin``): found at the same pitch, the
    second with at least ``TWIN_SHARE`` of the first's patches (each taken as a grid, two rows and columns at
    least: :func:`_locate`)."""
    if len(ranked) < 2:
        return False
    (_, patches, best, px, py), (_, other_patches, other, ox, oy) = ranked[0], ranked[1]
    return patches is other_patches and (px, py) == (ox, oy) and other.size >= max(MIN_CELLS, TWIN_SHARE * best.size)


def _geometry(patches: Patches, lat: Lattice, rows: int, cols: int) -> Geometry:
    """The grid of the lattice's cells: their edges on the image."""
    same = _common_kind(patches, lat)
    xc, yc = _grid_lines(patches, lat, same, rows, cols)
    pitch_x = (xc[-1] - xc[0]) / (cols - 1)
    pitch_y = (yc[-1] - yc[0]) / (rows - 1)
    m = lat.members
    xs = (face_edges(lat.cols, patches.cx[m], patches.w[m], patches.h[m], cols)
          or stepped_edges(lat.cols, patches.cx[m], xc)
          or kind_edges(lat.cols, patches.cx[m], patches.w[m], patches.h[m], same, xc, pitch_x)
          or edges(xc, pitch_x))
    ys = (face_edges(lat.rows, patches.cy[m], patches.h[m], patches.w[m], rows)
          or stepped_edges(lat.rows, patches.cy[m], yc)
          or kind_edges(lat.rows, patches.cy[m], patches.h[m], patches.w[m], same, yc, pitch_y)
          or edges(yc, pitch_y))
    return Geometry(xs, ys)
