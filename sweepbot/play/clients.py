"""What the loop knows of each client it can read: its first-click rule and how to start a new game.

A new game is started the client's own way: a key, or a click on its face. The face lies outside the board,
so that click is only sent at a place fixed relative to the board just read, and only after a game ended.
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


CLIENTS: dict[str, ClientRules] = {
    "xdemineur": ClientRules("none", face_above_board=41),
    "ace-minesweeper": ClientRules("none", new_game_keys=(("f2",),)),
    "sgt-mines": ClientRules("opening", new_game_keys=(("n",),)),
    # after a win gnome-mines may show its scores dialog: Escape closes it (and does nothing on a finished
    # game). No confirm keys: its "start a new game?" dialog only comes mid-game, and Tab, Return on the
    # game's own window can press "Change Difficulty" (Escape on a fresh board does that too, so the keys
    # are pressed again only while no fresh board shows: see newgame.start_new_game)
    "gnome-mines": ClientRules("opening", new_game_keys=(("escape",), ("ctrl", "r")), key_gap=0.4),
}

UNKNOWN = ClientRules("none")


def rules_for(client: str | None, play: dict[str, Any] | None = None) -> ClientRules:
    """A known client's rules, or those a calibrated profile stores under ``play``: ``first_click``,
    ``new_game_keys`` (a list of key combinations), ``confirm_keys`` (to answer a "new game?" dialog),
    ``face_above_board`` (px)."""
    known = CLIENTS.get(client or "", UNKNOWN)
    if not play:
        return known
    return ClientRules(
        str(play.get("first_click", known.first_click)),
        tuple(tuple(str(k) for k in combo) for combo in play.get("new_game_keys", known.new_game_keys)),
        play.get("face_above_board", known.face_above_board),
        tuple(tuple(str(k) for k in combo) for combo in play.get("confirm_keys", known.confirm_keys)),
        float(play.get("key_gap", known.key_gap or (0.4 if play.get("confirm_keys") else 0.0))),
    )


def face_rect(board: Rect, rules: ClientRules, half: int = 10) -> Rect | None:
    """Where a new-game click may go for this client, given the board's rectangle."""
    if rules.face_above_board is None:
        return None
    cx = board.x + board.w // 2
    cy = board.y - rules.face_above_board
    return Rect(cx - half, cy - half, 2 * half + 1, 2 * half + 1)
