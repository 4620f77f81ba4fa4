"""The band of screen just outside the board, compared with how it looked on a new game: a toast or a pop-up
laid over part of the board covers part of that band too, while a client that recolours its whole window at
the end of a game (a brown background after a loss) changes all of it.

Pure functions on BGR frames (numpy arrays).
"""

from __future__ import annotations

import cv2
import numpy as np

#: The band: from this many pixels outside the board's rectangle ...
BAND_FROM = 3
#: ... to this many.
BAND_TO = 8
#: A pixel of the band differs when a channel moved more than this (0-255).
PIXEL_CHANGE = 24
#: Pixels the band may have moved by and still be the same band.
SHIFT = 1
#: Fewer differing pixels than this are no overlay (a pointer's shadow, a blinking caret).
MIN_PIXELS = 12
#: A change over more than this share of the band is the whole window redrawn (a colour for a lost or won
#: game), not something laid over the board.
WHOLE_SHARE = 0.5

#: A whole frame is kept for :func:`laid_over_extent` as every SAMPLE-th pixel of every SAMPLE-th row.
SAMPLE = 4

#: A board's rectangle on screen: x, y, width, height.
Box = tuple[int, int, int, int]


def band(frame: np.ndarray, box: Box) -> np.ndarray:
    """The band around ``box`` (its four strips, within the frame, one after the other) as an N x 3 array."""
    x, y, w, h = box
    width = frame.shape[1]
    strips = [
        frame[max(0, y - BAND_TO):max(0, y - BAND_FROM), max(0, x - BAND_TO):x + w + BAND_TO],  # above
        frame[y + h + BAND_FROM:y + h + BAND_TO, max(0, x - BAND_TO):x + w + BAND_TO],  # below
        frame[y:y + h, max(0, x - BAND_TO):max(0, x - BAND_FROM)],  # left
        frame[y:y + h, min(width, x + w + BAND_FROM):min(width, x + w + BAND_TO)],  # right
    ]
    return np.concatenate([s.reshape(-1, frame.shape[2]) for s in strips], axis=0)


def _differing(reference: np.ndarray, frame: np.ndarray, box: Box) -> tuple[int, int]:
    """How many pixels of the band around ``box`` differ from ``reference``, and of how many. A pixel differs
    only when it differs from the band cut SHIFT pixels off as well: a window drawn a pixel lower (a board a
    pixel taller) moves a frame line of a pixel along the band, which is nothing laid over the board."""
    now = band(frame, box)
    if now.shape != reference.shape or not len(now):
        return 0, 0
    x, y, w, h = box
    ref = reference.astype(np.int16)
    differ = np.ones(len(now), bool)
    for dx in range(-SHIFT, SHIFT + 1):
        for dy in range(-SHIFT, SHIFT + 1):
            shifted = now if dx == dy == 0 else band(frame, (x + dx, y + dy, w, h))
            if shifted.shape == ref.shape:  # not cut by the screen's edge
                differ &= np.abs(shifted.astype(np.int16) - ref).max(axis=1) > PIXEL_CHANGE
    return int(differ.sum()), len(differ)


def laid_over(reference: np.ndarray, frame: np.ndarray, box: Box) -> bool:
    """True when something lies over part of the board's edge: part of the band around ``box`` differs from
    ``reference`` (the band on a new game, from :func:`band`), but not the whole of it."""
    count, total = _differing(reference, frame, box)
    return MIN_PIXELS <= count <= WHOLE_SHARE * total


def sample(frame: np.ndarray) -> np.ndarray:
    """``frame`` thinned for :func:`laid_over_extent`: a small copy of it, cheap to keep."""
    return np.ascontiguousarray(frame[::SAMPLE, ::SAMPLE])


def laid_over_extent(reference: np.ndarray, frame: np.ndarray, box: Box) -> Box:
    """The rectangle of the board at ``box`` and of all that changed on ``frame`` since ``reference`` (from
    :func:`sample`) in one piece with it: a dialog laid over the board, reaching past its edges, with its title
    and buttons. Never more than the board with its own width and height on each side (a whole window
    recoloured); the board's box alone when the frames are not of one screen."""
    x, y, w, h = box
    now = frame[::SAMPLE, ::SAMPLE]
    if now.shape != reference.shape:
        return box
    changed = (np.abs(now.astype(np.int16) - reference).max(axis=2) > PIXEL_CHANGE).astype(np.uint8)
    row, col = -(-max(0, y) // SAMPLE), -(-max(0, x) // SAMPLE)  # the first sample inside the board
    changed[row:(y + h - 1) // SAMPLE + 1, col:(x + w - 1) // SAMPLE + 1] = 1  # it joins all that touches it
    _, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    piece = stats[labels[min(row, labels.shape[0] - 1), min(col, labels.shape[1] - 1)]]
    left, top, right, bottom = (int(piece[0]) * SAMPLE, int(piece[1]) * SAMPLE,
                                int(piece[0] + piece[2] - 1) * SAMPLE + 1, int(piece[1] + piece[3] - 1) * SAMPLE + 1)
    x0, y0 = max(left, x - w), max(top, y - h)
    x1, y1 = min(right, x + 2 * w), min(bottom, y + 2 * h)
    return min(x0, x), min(y0, y), max(x1, x + w) - min(x0, x), max(y1, y + h) - min(y0, y)
