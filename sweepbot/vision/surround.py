"""The band of screen just outside the board, compared with how it looked on a new game: a toast or a pop-up
laid over part of the board covers part of that band too, while a client that recolours its whole window at
the end of a game (a brown background after a loss) changes all of it.

Pure functions on BGR frames (numpy arrays).
"""

from __future__ import annotations

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
