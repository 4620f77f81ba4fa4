"""Where a client's own new-game face may be clicked, by its rules for play (see sweepbot.vision.rules).

A new game is started the client's own way: a key, or a click on its face or new-game control. Those lie
outside the board, so that click is only sent at a place fixed relative to the board just read, where the
control is seen again, and only after a game ended.
"""

from __future__ import annotations

from sweepbot.rect import Rect
from sweepbot.vision.rules import PlayRules


def face_rect(board: Rect, rules: PlayRules, half: int = 10) -> Rect | None:
    """Where a new-game click may go for this client, given the board's rectangle."""
    if rules.face_above_board is None:
        return None
    cx = board.x + board.w // 2
    cy = board.y - rules.face_above_board
    return Rect(cx - half, cy - half, 2 * half + 1, 2 * half + 1)
