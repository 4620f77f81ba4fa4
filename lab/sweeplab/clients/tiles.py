"""Finding a client's covered tiles and its buttons by colour in a screenshot of its window.

Used for the clients whose layout depends on fonts, themes or the window size (gnome-mines, the Tk clients,
the web page): on a fresh board every tile is covered and drawn in one flat colour, so the tiles are the
blobs of that colour that share one size, laid out in ``rows`` lines and ``cols`` columns.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from sweeplab.clients.base import Grid
from sweeplab.errors import DesktopError

Box = tuple[int, int, int, int]
BGR = tuple[int, int, int]


def colour_mask(image: np.ndarray, bgr: BGR, tolerance: int) -> np.ndarray:
    """``uint8`` mask (1/0) of the pixels within ``tolerance`` of ``bgr`` in every channel."""
    target = np.array(bgr, dtype=np.int16)
    return (np.abs(image.astype(np.int16) - target).max(axis=2) <= tolerance).astype(np.uint8)


def blobs(mask: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """``(x, y, w, h, area)`` of each 4-connected blob of a mask."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    return [(x, y, w, h, area) for x, y, w, h, area in stats[1:count].tolist()]


def colour_boxes(image: np.ndarray, bgr: BGR, tolerance: int = 6, *, min_side: int = 8) -> list[Box]:
    """``(x, y, w, h)`` of the filled, roughly square blobs of one colour, in reading order.

    Thin lines of the same colour (widget borders) and sparse shapes (text) are left out.
    """
    boxes = []
    for x, y, w, h, area in blobs(colour_mask(image, bgr, tolerance)):
        if w >= min_side and h >= min_side and 0.6 <= w / h <= 1.6 and area >= 0.8 * w * h:
            boxes.append((x, y, w, h))
    return sorted(boxes, key=lambda b: (b[1], b[0]))


def largest_box(image: np.ndarray, bgr: BGR, tolerance: int = 6, *, what: str = "button") -> Box:
    """The bounding box of the largest blob of one colour (a button's face); raises if there is none."""
    found = blobs(colour_mask(image, bgr, tolerance))
    if not found:
        raise DesktopError(f"no {what} of colour {bgr} in the window")
    x, y, w, h, _ = max(found, key=lambda b: b[4])
    return x, y, w, h


def tile_grid(boxes: list[Box], rows: int, cols: int, *, client: str, slack: int = 3) -> Grid:
    """The uniform grid through ``rows x cols`` tile boxes.

    Only boxes within ``slack`` px (or 15 % of it) of the most common tile size count (buttons of other sizes
    in the same colour are left out); there must be exactly ``rows * cols`` of them, in ``rows`` lines and
    ``cols`` columns.
    """
    if not boxes:
        raise DesktopError(f"found no covered tiles in {client}")
    (mode_w, mode_h), _ = Counter((b[2], b[3]) for b in boxes).most_common(1)[0]
    # tiles drawn at fractional places (a page zoomed) differ by a few pixels more as they grow
    slack = max(slack, round(0.15 * max(mode_w, mode_h)))
    tiles = [b for b in boxes if abs(b[2] - mode_w) <= slack and abs(b[3] - mode_h) <= slack]
    if len(tiles) != rows * cols:
        raise DesktopError(f"found {len(tiles)} covered tiles in {client}, expected {rows * cols}")
    xs = cluster(sorted({b[0] for b in tiles}), cols, client=client)
    ys = cluster(sorted({b[1] for b in tiles}), rows, client=client)
    cell_w = float(np.median([b[2] for b in tiles]))
    cell_h = float(np.median([b[3] for b in tiles]))
    pitch_x = (xs[-1] - xs[0]) / (cols - 1) if cols > 1 else cell_w
    pitch_y = (ys[-1] - ys[0]) / (rows - 1) if rows > 1 else cell_h
    return Grid(rows, cols, xs[0], ys[0], pitch_x, pitch_y, cell_w, cell_h)


def cluster(values: list[int], expected: int, *, client: str, gap: int = 2) -> list[float]:
    """Group sorted coordinates that differ by at most ``gap`` px; there must be ``expected`` groups.

    Returns the smallest coordinate of each group.
    """
    groups: list[list[int]] = []
    for v in values:
        if groups and v - groups[-1][-1] <= gap:
            groups[-1].append(v)
        else:
            groups.append([v])
    if len(groups) != expected:
        raise DesktopError(f"{client} tiles form {len(groups)} lines, expected {expected}")
    return [float(min(g)) for g in groups]


def find_tiles(image: np.ndarray, rows: int, cols: int, bgr: BGR, *, client: str, tolerance: int = 6) -> Grid:
    """The grid of a fresh board whose covered tiles are drawn in ``bgr``, in a BGR image of the window. Tiles
    drawn so small that the gaps between them blend into their colour (a page zoomed far out) make one blob
    the board's shape: its ``rows x cols`` even parts are the tiles."""
    try:
        return tile_grid(colour_boxes(image, bgr, tolerance), rows, cols, client=client)
    except DesktopError:
        merged = merged_board(image, bgr, tolerance, rows, cols)
        if merged is None:
            raise
        return merged


def merged_board(image: np.ndarray, bgr: BGR, tolerance: int, rows: int, cols: int) -> Grid | None:
    """The largest filled blob of ``bgr`` as a board of ``rows x cols`` even tiles, when its shape is the
    board's (its width per column within a tenth of its height per row) and its tiles at least 8 px. Gaps a
    pixel wide are closed first (drawn that small, some of a gap's pixels blend into the tiles' colour and some
    do not); wider ones, between tiles drawn large enough to be found one by one, are left open."""
    one = np.ones((2, 2), np.uint8)
    # grown by a pixel right and down, then shrunk by a pixel from the right and bottom: the blob's edges stay
    mask = cv2.erode(cv2.dilate(colour_mask(image, bgr, tolerance), one, anchor=(1, 1)), one, anchor=(0, 0))
    found = [b for b in blobs(mask) if b[4] >= 0.8 * b[2] * b[3]]
    if not found:
        return None
    x, y, w, h, _ = max(found, key=lambda b: b[4])
    pitch_x, pitch_y = w / cols, h / rows
    if min(pitch_x, pitch_y) < 8 or abs(pitch_x - pitch_y) > 0.1 * max(pitch_x, pitch_y):
        return None
    return Grid(rows, cols, float(x), float(y), pitch_x, pitch_y, pitch_x, pitch_y)
