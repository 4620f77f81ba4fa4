"""The one image a user checks: every look, enlarged, with its name (green: proved by the game; orange: a
hint, not a name: unnamed in the profile; red: unnamed, with no hint)."""

from __future__ import annotations

import cv2
import numpy as np

from sweepbot.calibration.facts import Naming
from sweepbot.calibration.looks import Looks

PROVED = (60, 160, 60)
HINT = (0, 140, 255)
UNNAMED = (40, 40, 220)
PER_ROW = 12


def names_sheet(looks: Looks, names: Naming) -> np.ndarray:
    scale = max(1, 56 // max(looks.images.shape[1:3]))
    tiles = []
    for k, image in enumerate(looks.images):
        tile = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        name = names.get(k)
        colour = UNNAMED if name is None else PROVED if name.proved else HINT
        label = f"{k}: {name.char if name else '?!'}" + ("" if name is None or name.proved else " ?")
        tile = cv2.copyMakeBorder(tile, 3, 3, 3, 3, cv2.BORDER_CONSTANT, value=colour)
        tile = cv2.copyMakeBorder(tile, 18, 2, 2, 2, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(tile, label, (2, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.42, colour, 1, cv2.LINE_AA)
        tiles.append(tile)
    blank = np.full_like(tiles[0], 255)
    rows = [np.hstack(tiles[i : i + PER_ROW] + [blank] * (PER_ROW - len(tiles[i : i + PER_ROW])))
            for i in range(0, len(tiles), PER_ROW)]
    return np.vstack(rows)
