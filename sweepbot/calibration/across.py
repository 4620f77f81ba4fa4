"""A hint from another cell size: the same client draws the same tiles at every size, so a look no step
named at one size that looks like a tile proved at another size (both scaled to one size) is probably
that tile. A hint, like the others: used only once the user confirms it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from sweepbot.calibration.facts import Name, Naming
from sweepbot.calibration.looks import Looks

#: Both looks are scaled to this many pixels a side before they are compared.
SIDE = 16
#: How far (scaled pixels) one look may move over the other: glyphs sit a little differently at each size.
SHIFT = 2
#: Blur (Gaussian sigma, scaled pixels) before comparing: glyph strokes differ in width between sizes.
BLUR = 1.0
#: RMS (0-255 per channel) under which two scaled looks may be the same tile.
SAME_TILE_RMS = 16.0
#: The nearest tile of another name must be this many times farther for the hint to be given.
CLEAR_RATIO = 1.4


@dataclass(frozen=True)
class SizeNaming:
    """One cell size's looks and names, and the inset its windows were cut with."""

    pitch: int
    inset: float
    looks: Looks
    names: Naming


def scaled(image: np.ndarray, inset: float, to_inset: float) -> np.ndarray:
    """The part of a look's window ``to_inset`` (at least its own inset) of a cell in from the cell's edges,
    scaled to SIDE x SIDE pixels."""
    h, w = image.shape[:2]
    trim = (to_inset - inset) / max(1e-6, 1 - 2 * inset)
    y, x = round(trim * h), round(trim * w)
    part = image[y : h - y, x : w - x] if h - 2 * y > 1 and w - 2 * x > 1 else image
    out = cv2.resize(part, (SIDE + 2 * SHIFT, SIDE + 2 * SHIFT), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(out, (0, 0), BLUR).astype(np.float32)


def difference(a: np.ndarray, b: np.ndarray) -> float:
    """RMS difference of two scaled looks, at the best shift of up to SHIFT pixels each way (the middles
    compared, so that no shift runs off an edge)."""
    middle = b[SHIFT : SHIFT + SIDE, SHIFT : SHIFT + SIDE]
    return min(float(np.sqrt(((a[dy : dy + SIDE, dx : dx + SIDE] - middle) ** 2).mean()))
               for dy in range(2 * SHIFT + 1) for dx in range(2 * SHIFT + 1))


def other_size_hints(sizes: Sequence[SizeNaming]) -> None:
    """For each look not proved at its size, the tile proved at another size that it clearly looks like."""
    for here in sizes:
        for k in range(here.looks.count):
            name = here.names.get(k)
            if name is not None and name.proved:
                continue
            nearest: dict[str, tuple[float, int]] = {}
            for there in sizes:
                if there is here:
                    continue
                inset = max(here.inset, there.inset)
                mine = scaled(here.looks.images[k], here.inset, inset)
                for j, other in there.names.items():
                    if not other.proved:
                        continue
                    d = difference(mine, scaled(there.looks.images[j], there.inset, inset))
                    if other.char not in nearest or d < nearest[other.char][0]:
                        nearest[other.char] = (d, there.pitch)
            if not nearest:
                continue
            ranked = sorted(nearest.items(), key=lambda item: item[1][0])
            char, (best, pitch) = ranked[0]
            second = ranked[1][1][0] if len(ranked) > 1 else float("inf")
            if best <= SAME_TILE_RMS and second >= CLEAR_RATIO * best:
                here.names[k] = Name(char, f"looks like the {char} proved at {pitch} px cells", proved=False)
