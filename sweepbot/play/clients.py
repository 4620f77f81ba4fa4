"""A client's rules for play, as its profile stores them: its first-click rule and how to start a new game.

A new game is started the client's own way: a key, or a click on its face or new-game control. Those lie
outside the board, so that click is only sent at a place fixed relative to the board just read, where the
control is seen again, and only after a game ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sweepbot.rect import Rect


@dataclass(frozen=True)
class ClientRules:
    first_click: str
    new_game_keys: tuple[tuple[str, ...], ...] = ()  # key combinations pressed in turn
    face_above_board: int | None = None  # the face's centre: this many pixels above the board, centred
    confirm_keys: tuple[tuple[str, ...], ...] = ()  # pressed if a confirmation dialog holds the new game back
    key_gap: float = 0.0  # seconds between key combinations (a dialog closing takes that long)
    #: a new-game control calibration found beside the board: its top-left corner from the board's, and its
    #: looks (see sweepbot.vision.controls)
    control_offset: tuple[int, int] | None = None
    control_looks: tuple[str, ...] = ()
    #: pressed once when a window hides the board (calibration saw a dialog over it after a game)
    dismiss_keys: tuple[tuple[str, ...], ...] = ()
    #: the mine total of each board size (rows, columns), for a client that shows no counter
    mines: tuple[tuple[tuple[int, int], int], ...] = ()

    @property
    def closes_dialogs(self) -> tuple[tuple[str, ...], ...]:
        """What to press when a window hides the board: the dismiss keys, or Escape for a client whose new-game
        keys start with it (it is known to open dialogs)."""
        return self.dismiss_keys or tuple(k for k in self.new_game_keys if k == ("escape",))


#: the rules of a client whose profile says nothing: no first click is safe, and no way to start a new game
UNKNOWN = ClientRules("none")


def rules_for(play: dict[str, Any] | None) -> ClientRules:
    """The rules a profile stores under ``play`` (built-in profiles carry their client's, calibration learns
    them): ``first_click``, ``new_game_keys`` (a list of key combinations), ``confirm_keys`` (to answer a
    "new game?" dialog), ``key_gap`` (seconds between key combinations), ``face_above_board`` (px),
    ``new_game_control`` (``offset`` from the board's top-left corner, px, and ``looks``), ``dismiss_keys``,
    ``mines`` (rows of [rows, columns, total], for a client that shows no counter)."""
    if not play:
        return UNKNOWN
    confirm = tuple(tuple(str(k) for k in combo) for combo in play.get("confirm_keys", ()))
    control = play.get("new_game_control") or {}
    offset = control.get("offset")
    return ClientRules(
        str(play.get("first_click", UNKNOWN.first_click)),
        tuple(tuple(str(k) for k in combo) for combo in play.get("new_game_keys", ())),
        play.get("face_above_board"),
        confirm,
        float(play.get("key_gap", 0.4 if confirm else 0.0)),
        (int(offset[0]), int(offset[1])) if offset else None,
        tuple(str(t) for t in control.get("looks", ())),
        tuple(tuple(str(k) for k in combo) for combo in play.get("dismiss_keys", ())),
        tuple(((int(r), int(c)), int(n)) for r, c, n in play.get("mines", ())),
    )


def face_rect(board: Rect, rules: ClientRules, half: int = 10) -> Rect | None:
    """Where a new-game click may go for this client, given the board's rectangle."""
    if rules.face_above_board is None:
        return None
    cx = board.x + board.w // 2
    cy = board.y - rules.face_above_board
    return Rect(cx - half, cy - half, 2 * half + 1, 2 * half + 1)
