"""Finding how a client starts a new game: the key that worked before, else each usual key in turn (answering
a dialog that asks to confirm), else the face above the board. What worked is kept in the session's ``play``
for play to do the same."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweepbot.calibration.facts import CalibrationError
from sweepbot.calibration.live.driver import BoardDriver, Cell
from sweepbot.calibration.live.tiles import NEW_BOARD_SHARE, Tiles
from sweepbot.rect import Rect
from sweepbot.vision.face import looks_like_a_face
from sweepbot.vision.settle import wait_still

#: Keys pressed one after the other: each a combination of keys held together.
Keys = tuple[tuple[str, ...], ...]

#: Keys clients commonly use for a new game, tried in this order when no face shows above the board.
#: Never Escape or Q: some clients quit on them (xdemineur quits on Escape).
NEW_GAME_KEYS: tuple[Keys, ...] = (
    (("f2",),), (("n",),), (("ctrl", "r"),), (("ctrl", "n"),), (("space",),),
)
#: Answers to a "start a new game?" dialog, tried when a new-game key opened something.
CONFIRM_KEYS: tuple[Keys, ...] = ((("tab",), ("enter",)), (("enter",),))
#: Seconds between keys pressed one after the other.
KEY_GAP = 0.3
#: Seconds a dialog is given to open before it is answered.
DIALOG_WAIT = 0.5
#: Seconds the screen must hold still after a game (a scores dialog may open a moment after the game ends).
DIALOG_QUIET = 1.0
#: How often the key that worked before is tried.
NEW_GAME_TRIES = 3
#: Pixels that must change after a game ended for a dialog to have opened (a clock changes fewer).
DIALOG_PIXELS = 3000


def dialog_opened(before: np.ndarray, after: np.ndarray) -> bool:
    """Something new on screen since ``before`` (the end of the game): more changed than a clock."""
    if before.shape != after.shape:
        return False
    diff = (np.abs(before.astype(np.int16) - after.astype(np.int16)).max(axis=2) > 24)
    return int(diff.sum()) > DIALOG_PIXELS


@dataclass(frozen=True)
class EndedGame:
    """How the last game ended: the screen then (any dialog closed), and the mine that went off (None if
    none did)."""

    screen: np.ndarray
    exploded: Cell | None


@dataclass
class NewGame:
    """Starts new games on the board, keeping what worked in ``play``; ``given_keys`` (the user's) are tried
    instead of the usual keys."""

    board: BoardDriver
    tiles: Tiles
    play: dict[str, Any]
    given_keys: Keys = ()
    escape_first: bool = False  # a dialog had to be closed with Escape: play presses it first too

    def start(self, end_screen: np.ndarray, exploded: Cell | None) -> np.ndarray:
        """Start the next game: the key found before (answering its dialog as before), else each usual key
        in turn, else the face above the board. A dialog that opened over the ended game (``end_screen``: a
        scores dialog, perhaps a moment late) is closed first, with Escape: only ever sent to such a window.
        Returns the new game's screen."""
        self.close_dialog(end_screen)
        ended = EndedGame(self.board.screen.grab(), exploded)
        known = self.play.get("new_game_keys")
        if known is not None:
            return self.again(known, ended)
        face = self.play.get("face_above_board") is not None or (
            not self.given_keys and bool(self.face_at(ended.screen)))
        for combo in () if face else (self.given_keys,) if self.given_keys else NEW_GAME_KEYS:
            frame = self.try_keys(combo, (), ended)
            if frame is not None:
                return frame
        before = self.board.screen.grab(self.board.region)
        self.click_face()
        frame = self.board.settled(before)
        if not self.started(frame, ended):
            raise CalibrationError("clicked the face, but no new game started: pass --new-game-keys")
        return frame

    def again(self, known: list[list[str]], ended: EndedGame) -> np.ndarray:
        """Start a new game with the keys that worked before; if they do nothing at first, a window has the
        keyboard: Escape goes to it, and play presses Escape first too."""
        combo = tuple(tuple(k) for k in known)
        confirm = tuple(tuple(k) for k in self.play.get("confirm_keys", ()))
        for attempt in range(NEW_GAME_TRIES):
            frame = self.try_keys(combo, confirm, ended)
            if frame is not None:
                if attempt and ("escape",) not in combo:
                    # it took an Escape first: play will press it first too (harmless here, then)
                    self.play["new_game_keys"] = [["escape"], *[list(k) for k in combo]]
                    self.play["key_gap"] = KEY_GAP
                return frame
            if attempt == 0:
                # the key that worked before does nothing: a window has the keyboard (gnome-mines's
                # scores dialog after a win, not always in sight). Escape goes to that window.
                self.board.mouse.press(["escape"])
                wait_still(self.board.screen)
        raise CalibrationError(f"the new-game key {known} stopped working: start a new game and try again")

    def close_dialog(self, end_screen: np.ndarray) -> None:
        """Close, with Escape, a dialog that opened since the game ended."""
        screen = self.board.screen
        wait_still(screen, quiet=DIALOG_QUIET)
        now = screen.grab()
        if dialog_opened(end_screen, now):
            self.board.mouse.press(["escape"])
            wait_still(screen)
            self.escape_first = True  # play will close such a dialog the same way before a new game

    def try_keys(self, combo: Keys, confirm: Keys, ended: EndedGame) -> np.ndarray | None:
        """Press ``combo``; if a dialog opens, answer it (``confirm``, or the usual answers). The screen if a
        new game started (with what worked kept in ``play``), else None."""
        screen_before = self.board.screen.grab()
        frame = self.press(combo)
        if not self.started(frame, ended) and not np.array_equal(self.board.screen.grab(), screen_before):
            time.sleep(DIALOG_WAIT)
            for answer in (confirm,) if confirm else CONFIRM_KEYS:
                frame = self.press(answer)
                if self.started(frame, ended):
                    self.play["confirm_keys"] = [list(k) for k in answer]
                    break
        if not self.started(frame, ended):
            return None
        self.play["new_game_keys"] = [list(k) for k in combo]
        if self.escape_first and ("escape",) not in combo:
            self.play["new_game_keys"] = [["escape"], *[list(k) for k in combo]]
            self.play["key_gap"] = KEY_GAP
        return frame

    def started(self, frame: np.ndarray, ended: EndedGame) -> bool:
        """A new game: the cell clicked last changed back since the game ended, and most cells are covered."""
        changed = self.tiles.cells.changed(ended.screen, frame)
        geo = self.tiles.cells.geometry
        covered = len(self.tiles.covered(frame)) >= NEW_BOARD_SHARE * geo.rows * geo.cols
        return bool(changed) and (ended.exploded is None or ended.exploded in changed) and covered

    def press(self, combos: Keys) -> np.ndarray:
        """Press keys one after the other; the screen once the board has settled."""
        before = self.board.screen.grab(self.board.region)
        for k in combos:
            self.board.mouse.press(list(k))
            time.sleep(KEY_GAP)
        return self.board.settled(before)

    def face_at(self, frame: np.ndarray) -> list[int]:
        """How far above the board a yellow face is centred (every distance where the face is)."""
        x, y, w, _ = self.board.geometry.bbox
        known = self.play.get("face_above_board")
        if known is not None:
            return [int(known)]
        return [u for u in range(8, 160, 2) if looks_like_a_face(frame, (x + w // 2, y - u))]

    def click_face(self) -> None:
        """Click the yellow face centred above the board."""
        frame = self.board.screen.grab()
        x, y, w, _ = self.board.geometry.bbox
        cx = x + w // 2
        ups = self.face_at(frame)
        if ups:
            up = ups[len(ups) // 2]  # the middle of the face
            allowed = Rect(cx - 12, y - up - 12, 25, 25)
            self.board.mouse.click_new_game(cx, y - up, allowed)
            self.board.park()
            self.play["face_above_board"] = up
            return
        raise CalibrationError("could not start a new game (no key worked, no face found): pass --new-game-keys")
