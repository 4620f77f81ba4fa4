"""Tiles that touch, told apart only where four of them meet: rounded tiles drawn edge to edge leave a small
mark of the ground at each corner and nothing along their sides, so a board's face is one flat area with a
lattice of dots on it. The dots that sit one step apart in a row or a column are joined by lines of their
own colour, a step past the last ones too (to the notches at the board's edge): the board then shows its
cells as flat patches bounded by edges, and is located as any other (``vision.locate``)."""

from __future__ import annotations

import cv2
import numpy as np

#: The largest mark at a corner (px each way): the ground seen where four rounded corners meet.
MAX_DOT = 16
#: The fewest pixels a mark holds (a speck of noise is none).
MIN_DOT = 4
#: How far (px) from a row or column's line, and from one step along it, a dot may lie.
DOT_SLACK = 1.5
#: The fewest dots a row or a column must hold for its step to count, and the fewest steps in all.
MIN_IN_LINE = 3
MIN_STEPS = 8
#: The shortest step between dots (px): a cell smaller than this has no corner marks to tell.
MIN_STEP = 8


def corners_joined(image: np.ndarray, edges: np.ndarray) -> np.ndarray | None:
    """``image`` with the corner marks on it joined into grid lines (see the module), or None when its edge
    pixels (``edges``: 1 where a pixel is no part of a flat area, one pixel smaller each way) show no lattice
    of dots."""
    dots = _dots(edges)
    if len(dots) < MIN_STEPS:
        return None
    px = _step(dots[:, 0], dots[:, 1])
    py = _step(dots[:, 1], dots[:, 0])
    if px is None or py is None:
        return None
    out = image.copy()
    joined = 0
    for k, (x, y) in enumerate(dots):
        colour = tuple(int(v) for v in image[round(y), round(x)])
        for along, across, step, horizontal in ((x, y, px, True), (y, x, py, False)):
            before = _neighbour(dots, k, -step, horizontal)
            after = _neighbour(dots, k, step, horizontal)
            joined += after is not None
            # to the next dot, and from the first and last a step on (to the board's edge, its notches there)
            ends = [along + step] if after is not None or before is not None else []
            if before is None and ends:
                ends.append(along - step)
            for end in ends:
                cv2.line(out, _point(along, across, horizontal), _point(end, across, horizontal), colour, 1)
    return out if joined >= MIN_STEPS else None


def _dots(edges: np.ndarray) -> np.ndarray:
    """The centres (x, y) of the small, compact marks among the edge pixels (a dot's outline, about square), in
    the image's pixels."""
    _, _, stats, centres = cv2.connectedComponentsWithStats(edges.astype(np.uint8), connectivity=8)
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    keep = (w <= MAX_DOT) & (h <= MAX_DOT) & (area >= MIN_DOT) & (w <= 2 * h) & (h <= 2 * w) & (w >= 3) & (h >= 3)
    keep[0] = False  # the background label
    # a flat mask's pixel stands for a pixel and its right and lower neighbours: half a pixel on
    return np.asarray(centres[keep], np.float64) + 0.5


def _step(along: np.ndarray, across: np.ndarray) -> float | None:
    """The commonest distance between neighbouring dots of a line (dots within DOT_SLACK of one ``across``),
    taken over lines of MIN_IN_LINE dots or more; None when no such step is common."""
    order = np.argsort(across, kind="stable")
    gaps: list[float] = []
    start = 0
    for i in range(1, len(order) + 1):
        if i == len(order) or across[order[i]] - across[order[start]] > DOT_SLACK:
            line = np.sort(along[order[start:i]])
            if len(line) >= MIN_IN_LINE:
                gaps += np.diff(line).tolist()
            start = i
    steps = np.array([g for g in gaps if g >= MIN_STEP])
    if len(steps) < MIN_STEPS:
        return None
    values, counts = np.unique(np.round(steps), return_counts=True)
    common = float(values[int(counts.argmax())])
    near = steps[np.abs(steps - common) <= DOT_SLACK]
    return float(near.mean()) if len(near) * 2 >= len(steps) else None


def _point(along: float, across: float, horizontal: bool) -> tuple[int, int]:
    """The pixel (x, y) at ``along`` a row (``horizontal``) or a column that lies at ``across``."""
    return (round(along), round(across)) if horizontal else (round(across), round(along))


def _neighbour(dots: np.ndarray, k: int, step: float, horizontal: bool) -> int | None:
    """The dot one ``step`` from dot ``k`` along a row (``horizontal``) or a column, if there is one."""
    x, y = dots[k]
    tx, ty = (x + step, y) if horizontal else (x, y + step)
    near = np.flatnonzero((np.abs(dots[:, 0] - tx) <= DOT_SLACK) & (np.abs(dots[:, 1] - ty) <= DOT_SLACK))
    return int(near[0]) if len(near) else None
