"""A new-game control found again beside the board, also when its face changed."""

from __future__ import annotations

import cv2
import numpy as np

from sweepbot.rect import Rect
from sweepbot.vision.controls import control_look, find_known_control

BOARD = Rect(100, 120, 200, 160)
OFFSET = (20, -60)  # the control's top-left corner from the board's


def screen(mouth: str) -> np.ndarray:
    """A grey window, a board, and a smiley button above it whose mouth says how the game went."""
    frame = np.full((400, 400, 3), 200, np.uint8)
    frame[BOARD.y:BOARD.bottom, BOARD.x:BOARD.right] = 160
    x, y = BOARD.x + OFFSET[0], BOARD.y + OFFSET[1]
    cv2.rectangle(frame, (x, y), (x + 40, y + 40), (90, 90, 90), 2)
    cv2.circle(frame, (x + 20, y + 20), 15, (0, 230, 255), -1)
    cv2.circle(frame, (x + 20, y + 20), 15, (0, 0, 0), 1)
    for ex in (14, 26):
        cv2.circle(frame, (x + ex, y + 15), 4 if mouth == "won" else 2, (0, 0, 0), -1)
    if mouth == "won":
        cv2.circle(frame, (x + 20, y + 26), 6, (0, 0, 220), -1)  # an open red mouth: the yellow splits
        cv2.line(frame, (x + 14, y + 15), (x + 20, y + 26), (0, 0, 0), 2)
        cv2.line(frame, (x + 26, y + 15), (x + 20, y + 26), (0, 0, 0), 2)
    else:
        cv2.ellipse(frame, (x + 20, y + 24), (7, 4), 0, 0, 180, (0, 0, 0), 1)
    return frame


def test_a_control_whose_face_changed_is_found_at_its_place_by_its_frame() -> None:
    x, y = BOARD.x + OFFSET[0], BOARD.y + OFFSET[1]
    look = control_look(screen("smile"), Rect(x, y, 41, 41))
    area = Rect(0, 0, 400, 400)
    assert find_known_control(screen("smile"), BOARD, OFFSET, [look], area) == Rect(x, y, 41, 41)
    assert find_known_control(screen("won"), BOARD, OFFSET, [look], area) == Rect(x, y, 41, 41)


def test_something_else_at_the_controls_place_is_not_it() -> None:
    x, y = BOARD.x + OFFSET[0], BOARD.y + OFFSET[1]
    look = control_look(screen("smile"), Rect(x, y, 41, 41))
    covered = screen("won")
    covered[y - 10:y + 60, x - 10:x + 120] = 235  # a dialog over it
    cv2.putText(covered, "Scores", (x, y + 30), cv2.FONT_HERSHEY_PLAIN, 1.2, (0, 0, 0), 1)
    assert find_known_control(covered, BOARD, OFFSET, [look], Rect(0, 0, 400, 400)) is None
