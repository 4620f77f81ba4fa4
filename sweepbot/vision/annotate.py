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


def zoomed_sheet(
    image: np.ndarray, geometry: Geometry, board: Board, min_pitch: int = 40, margin: int = 4
) -> np.ndarray:
    """The board alone, enlarged (nearest neighbour) so each cell is at least ``min_pitch`` px, annotated:
    the image to check a board by eye."""
    x, y, w, h = geometry.bbox
    x0, y0 = max(0, x - margin), max(0, y - margin)
    part = image[y0 : y + h + margin, x0 : x + w + margin]
    factor = max(1, int(np.ceil(min_pitch / min(geometry.pitch))))
    big = cv2.resize(part, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST)
    geo = Geometry(tuple((v - x0) * factor for v in geometry.xs), tuple((v - y0) * factor for v in geometry.ys))
    return annotate(big, geo, board)
