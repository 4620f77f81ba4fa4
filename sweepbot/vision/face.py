"""The new-game face some clients draw above their board (a smiley): found by its colour near a point.

Only a place to click is found this way, never the name of a tile."""

from __future__ import annotations

import numpy as np


def looks_like_a_face(frame: np.ndarray, centre: tuple[int, int]) -> bool:
    """A smiley is mostly yellow: high red and green, low blue, around its centre."""
    x, y = centre
    patch = frame[max(0, y - 4):y + 5, max(0, x - 4):x + 5].reshape(-1, 3).astype(int)
    if patch.size == 0:
        return False
    b, g, r = patch[:, 0], patch[:, 1], patch[:, 2]
    return bool(((r > 150) & (g > 150) & (b < 110)).mean() > 0.3)
