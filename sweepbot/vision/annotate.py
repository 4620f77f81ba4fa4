"""Drawing what was read over the screenshot, so a person can check it at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from sweepbot.board import Board
from sweepbot.vision.geometry import Geometry

_COLOURS = {
    "#": (160, 160, 160), "F": (0, 0, 255), "?": (255, 0, 255), ".": (0, 200, 0), "*": (0, 0, 0),
    "!": (0, 0, 255), "X": (0, 0, 255),
}


def annotate(image: np.ndarray, geometry: Geometry, board: Board | None = None,
             refused: list[tuple[int, int]] | None = None) -> np.ndarray:
    """A copy of ``image`` with the cell grid in magenta and each cell's character in its top-left corner
    (on a white label); refused cells are crossed in red."""
    out = image.copy()
    x0, y0, w, h = geometry.bbox
    for x in geometry.xs:
        cv2.line(out, (x, y0), (x, y0 + h - 1), (255, 0, 255), 1)
    for y in geometry.ys:
        cv2.line(out, (x0, y), (x0 + w - 1, y), (255, 0, 255), 1)
    if board is not None:
        pitch = min(geometry.pitch)
        scale = max(0.25, min(0.5, pitch / 40))
        for r in range(board.rows):
            for c in range(board.cols):
                ch = board[(r, c)]
                if ch == "#":
                    continue
                x, y, _, _ = geometry.cell_rect(r, c)
                (tw, th), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
                cv2.rectangle(out, (x + 1, y + 1), (x + tw + 2, y + th + 3), (255, 255, 255), -1)
                colour = _COLOURS.get(ch, (255, 0, 0))
                cv2.putText(out, ch, (x + 2, y + th + 2), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
    for r, c in refused or []:
        x, y, cw, chh = geometry.cell_rect(r, c)
        cv2.line(out, (x, y), (x + cw - 1, y + chh - 1), (0, 0, 255), 2)
        cv2.line(out, (x + cw - 1, y), (x, y + chh - 1), (0, 0, 255), 2)
    return out
