"""Live calibration: play a few games on a client sweepbot cannot read yet, and record what the game proves.

The steps of :meth:`LiveCalibration.run`: find the board (it must be a new game: one look everywhere),
learn how the client marks cells (right-click once: a flag; twice: a question mark, if the client has
them), then play games: click a cell, wait for the board to settle, and record what changed as facts (a
cell that opened is a number or empty; at a loss the clicked cell is the exploded mine, cells that changed
elsewhere are mines, and a flag that changed was wrong). A click that changes nothing means the game is
over. After each game the looks are named again (:mod:`sweepbot.calibration.naming`) and the next game's
moves are chosen by the solver on what can be read, so that later games go further (a win shows every
mine as well). Between games the client's new-game key is found (tried in turn) or its face clicked.
Every click is inside the board just located, except a face click, which is only sent where a face is.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweepbot.board import Board
from sweepbot.calibration.facts import (
    AT_LOSS,
    FLAG_AT_LOSS,
    QUESTION_AT_LOSS,
    REVEALED,
    CalibrationError,
    Fact,
    Naming,
)
from sweepbot.calibration.looks import window_crop
from sweepbot.control.mouse import BoardInput
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.solver.analysis import analyse
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.face import looks_like_a_face
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.settle import Grabber, wait_still

#: Keys clients commonly use for a new game, tried in this order when no face shows above the board.
#: Never Escape or Q: some clients quit on them (xdemineur quits on Escape).
NEW_GAME_KEYS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("f2",),), (("n",),), (("ctrl", "r"),), (("ctrl", "n"),), (("space",),),
)
#: Answers to a "start a new game?" dialog, tried when a new-game key opened something.
CONFIRM_KEYS: tuple[tuple[tuple[str, ...], ...], ...] = ((("tab",), ("enter",)), (("enter",),))
KEY_GAP = 0.3
DIALOG_WAIT = 0.5
DIALOG_QUIET = 1.0  # a scores dialog may open a moment after the game ends
NEW_GAME_TRIES = 3
#: A click that changes more than this share of the board ended the game.
END_CHANGE = 0.5
#: Pixels that must change after a game ended for a dialog to have opened (a clock changes fewer).
DIALOG_PIXELS = 3000
#: A cell counts as changed when its window moved this much (RMS, 0-255).
CHANGED_RMS = 10.0
#: A new game: one look (covered) on at least this share of the cells (xdemineur opens an area by itself).
NEW_BOARD_SHARE = 0.5
#: Pixels kept around the board in the session's frames: left, top, right, bottom (a counter may be in a
#: side panel, a face above).
KEEP_MARGIN = (80, 140, 340, 80)
#: How far inside a cell (share of the cell) changes are watched: the first at which a new board is one look.
#: Near the edge first (sgt-mines tells covered from open by a thin bevel); further in where tiles are drawn
#: at fractional positions and their edges differ from cell to cell (gnome-mines's larger boards).
CHANGE_INSETS = (0.05, 0.12, 0.2)
SETTLE_QUIET = 0.12
FLASH_QUIET = 0.6
SETTLE_TIMEOUT = 1.5


@dataclass
class LiveSession:
    """What a live calibration saw: the frames, the facts, and how the client starts a new game."""

    frames: list[np.ndarray] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    play: dict[str, Any] = field(default_factory=dict)
    games: int = 0
    wins: int = 0


#: Question marks placed in each of the first games (when the client has them).
QUESTION_GAMES = 3
QUESTIONS = 3


class LiveCalibration:
    def __init__(self, screen: Grabber, mouse: BoardInput, games: int = 6, seed: int = 0,
                 log: Callable[[str], None] = lambda _m: None, new_game_keys: Sequence[Sequence[str]] = ()) -> None:
        self.screen = screen
        self.mouse = mouse
        self.games = games
        self.rng = random.Random(seed)
        self.log = log
        self.session = LiveSession()
        self.given_keys = tuple(tuple(k) for k in new_game_keys)
        self.geometry: Geometry | None = None
        self.names: Naming = {}
        self.flags: set[tuple[int, int]] = set()
        self.questions: set[tuple[int, int]] = set()  # cells the driver left with a question mark
        self.has_question = False
        self.opened_looks: list[np.ndarray] = []
        self.flag_look: np.ndarray | None = None
        self._covered_look = np.zeros(0, np.float32)
        self.ended = np.zeros((1, 1, 3), np.uint8)
        self.exploded: tuple[int, int] | None = None
        self.won_now = False
        self.end_screen: np.ndarray | None = None
        self.last_frame = np.zeros((1, 1, 3), np.uint8)
        self.escape_first = False
        self.inset = 0.12
        self.change_inset = CHANGE_INSETS[0]

    # -- the steps ------------------------------------------------------------------------------------
    def run(self) -> LiveSession:
        frame = self.find_board()
        self.marks(frame)
        while self.session.games < self.games:
            self.play_game()
            self.session.games += 1
            self.rename()
            self.new_game()  # the last one too: the client is left with a new game, ready to play
        return self.session

    def find_board(self) -> np.ndarray:
        frame = self.screen.grab()
        self.geometry = locate(frame)
        x, y, w, h = self.geometry.bbox
        self.mouse.set_board(Rect(x, y, w, h))
        self.mouse.park(x + 2, y + h + 6)
        frame = self.settled()
        if not any(self.is_new(frame, inset) for inset in CHANGE_INSETS):
            raise CalibrationError("the board on screen is not a new game (cells differ): start a new game first")
        return frame

    def marks(self, frame: np.ndarray) -> None:
        """Right-click a cell until it is covered again: the looks on the way are a flag and a question mark."""
        self.record(frame, self.all_covered(frame))
        cell = max(self.covered_cells(frame), key=lambda rc: (rc[0] + rc[1], rc))
        covered = self.window(frame, cell)
        seen: list[np.ndarray] = []
        for step in range(3):
            frame = self.click(cell, "right")
            now = self.window(frame, cell)
            if _rms(now, covered) < CHANGED_RMS:
                break  # back to covered (or right-clicks do nothing)
            if any(_rms(now, s) < CHANGED_RMS for s in seen):
                continue
            seen.append(now)
            self.record(frame, {cell: "F" if step == 0 else "?"})
        else:
            raise CalibrationError("three right-clicks did not bring the cell back: the board does not answer")
        self.has_question = len(seen) > 1
        self.log(f"marks: {'flag' if seen else 'none'}{', question mark' if len(seen) > 1 else ''}")

    def play_game(self) -> None:
        geo = self.require_geometry()
        self.exploded = None
        self.won_now = False
        frame = self.screen.grab()
        covered = self.covered_cells(frame)
        if self.session.games == 0 and len(covered) > 10:
            # two flags, somewhere: at the loss they show whether they were right or wrong
            for cell in self.rng.sample(sorted(covered), 2):
                frame = self.click(cell, "right")
                self.flags.add(cell)
                self.record(frame, {cell: "F"})
        if self.session.games < QUESTION_GAMES and self.has_question and len(covered) > 4 * QUESTIONS:
            # question marks: at a loss some clients draw one over the mine it hid (gnome-mines), a look
            # that only a cell known to be a question mark before the loss names
            for cell in self.rng.sample(sorted(covered - self.flags), QUESTIONS):
                self.click(cell, "right")
                frame = self.click(cell, "right")
                self.questions.add(cell)
                self.record(frame, {cell: "?"})
        clicks = 0
        while clicks < geo.rows * geo.cols:
            choice = self.choose(frame)
            if choice is None:
                break
            cell = choice
            before = frame
            frame = self.click(cell, "left")
            clicks += 1
            changed = self.changed(before, frame)
            if not changed:
                self.log(f"game {self.session.games + 1}: over after {clicks} clicks")
                break
            mark = len(self.session.facts)
            if self.loss(cell, changed, before, frame):
                # make sure: after a loss a click changes nothing. If it does, the loss was misjudged:
                # its facts are taken back and the probe's own answer is read as any click's
                frame = self.last_frame  # the loss may have shown on a probe click inside loss()
                probe = self.choose(frame, avoid={cell})
                after = self.click(probe, "left") if probe is not None else frame
                moved = self.changed(frame, after) if probe is not None else set()
                if not moved:
                    self.log(f"game {self.session.games + 1}: lost after {clicks} clicks")
                    break
                del self.session.facts[mark:]
                self.exploded = None
                self.log(f"game {self.session.games + 1}: a loss misjudged at {cell}, facts taken back")
                assert probe is not None
                if self.loss(probe, moved, frame, after):
                    break
                clicks += 1
            # the screen now: loss() may have clicked a probe cell, and the next click's changes are counted
            # from here (from an older frame, a cell the probe opened would seem to change at the loss)
            frame = self.last_frame
            if self.won_now or not self.covered_cells(frame) - self.flags:
                self.session.wins += 1
                self.log(f"game {self.session.games + 1}: won after {clicks} clicks")
                break
        self.flags.clear()
        self.questions.clear()
        self.end_screen = self.screen.grab()

    def loss(self, cell: tuple[int, int], changed: set[tuple[int, int]], before: np.ndarray,
             frame: np.ndarray) -> bool:
        """Record a click's facts; True if it lost the game."""
        geo = self.require_geometry()
        was_covered = self.covered_cells(before)
        around = {(cell[0] + dr, cell[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                  if 0 <= cell[0] + dr < geo.rows and 0 <= cell[1] + dc < geo.cols} & was_covered - {cell} - self.flags
        if (len(changed) > END_CHANGE * geo.rows * geo.cols and len(changed - was_covered) >= 3
                and not self.new_look(frame, cell)):
            # most of the board redrawn, the clicked cell opened: the game was won (a client dims its
            # board, or flags the mines left); only the clicked cell is sure
            self.record(frame, {cell: REVEALED})
            self.won_now = True
            return False
        # an opening spreads from an empty cell: every neighbour of the clicked cell opens, and nothing opens
        # that the opening cannot reach; anything else is the mines shown at a loss (or flags put at a win)
        far = changed - _flood(cell, changed)  # a flagged cell may open with the rest (gnome-mines)
        if (len(changed) > 1 and not around <= changed) or far:
            if not self.new_look(frame, cell) and self.flag_look is not None and all(
                    _rms(self.window(frame, c), self.flag_look) < CHANGED_RMS for c in changed - {cell}):
                self.record(frame, {cell: REVEALED, **dict.fromkeys(changed - {cell}, "F")})
                return False  # a win: the client flagged the mines left
            self.exploded = cell
            facts = {cell: "!"}
            for c in (changed - {cell}) & (was_covered | self.flags | self.questions):
                # a mine shown, or (some clients) a covered cell or a mark drawn darker: the counts tell them
                # apart; open cells some clients dim at the end are no facts
                facts[c] = FLAG_AT_LOSS if c in self.flags else QUESTION_AT_LOSS if c in self.questions else AT_LOSS
            self.record(frame, facts)
            return True
        if len(changed) == 1 and self.new_look(frame, cell):
            # one cell with a look not seen opened before: a number, or the exploded mine of a client that
            # shows no other mine. Another click tells: after a loss nothing changes.
            probe = self.choose(frame, avoid={cell})
            if probe is not None:
                after = self.click(probe, "left")
                if not self.changed(frame, after):
                    self.exploded = cell
                    self.record(frame, {cell: "!"})
                    return True
                self.record(frame, {cell: REVEALED})
                return self.loss(probe, self.changed(frame, after), frame, after)
        self.record(frame, dict.fromkeys(changed, REVEALED))
        self.flags -= changed
        self.questions -= changed
        return False

    def new_game(self) -> None:
        """Start the next game: the key found before (answering its dialog as before), else each usual key
        in turn, else the face above the board. A dialog that opened over the ended game (a scores dialog,
        perhaps a moment late) is closed first, with Escape: only ever sent to such a window."""
        self.close_dialog()
        self.ended = self.screen.grab()
        known = self.session.play.get("new_game_keys")
        if known is not None:
            combo = tuple(tuple(k) for k in known)
            confirm = tuple(tuple(k) for k in self.session.play.get("confirm_keys", ()))
            for attempt in range(NEW_GAME_TRIES):
                if self.try_keys(combo, confirm):
                    if attempt and ("escape",) not in combo:
                        # it took an Escape first: play will press it first too (harmless here, then)
                        self.session.play["new_game_keys"] = [["escape"], *[list(k) for k in combo]]
                        self.session.play["key_gap"] = KEY_GAP
                    return
                if attempt == 0:
                    # the key that worked before does nothing: a window has the keyboard (gnome-mines's
                    # scores dialog after a win, not always in sight). Escape goes to that window.
                    self.mouse.press(["escape"])
                    wait_still(self.screen)
            raise CalibrationError(f"the new-game key {known} stopped working: start a new game and try again")
        face = self.session.play.get("face_above_board") is not None or (
            not self.given_keys and bool(self.face_at(self.ended)))
        for combo in () if face else (self.given_keys,) if self.given_keys else NEW_GAME_KEYS:
            if self.try_keys(combo, ()):
                return
        before = self.screen.grab(self.board_region())
        self.click_face()
        frame = self.settled(before)
        if not self.started(frame):
            raise CalibrationError("clicked the face, but no new game started: pass --new-game-keys")
        self.record(frame, self.all_covered(frame))

    def close_dialog(self) -> None:
        wait_still(self.screen, quiet=DIALOG_QUIET)
        now = self.screen.grab()
        if self.end_screen is not None and self.dialog_opened(self.end_screen, now):
            self.mouse.press(["escape"])
            wait_still(self.screen)
            self.escape_first = True  # play will close such a dialog the same way before a new game

    def try_keys(self, combo: tuple[tuple[str, ...], ...], confirm: tuple[tuple[str, ...], ...]) -> bool:
        """Press ``combo``; if a dialog opens, answer it (``confirm``, or the usual answers). True if a new
        game started (recorded, with what worked)."""
        screen_before = self.screen.grab()
        frame = self.press(combo)
        if not self.started(frame) and not np.array_equal(self.screen.grab(), screen_before):
            time.sleep(DIALOG_WAIT)
            for answer in (confirm,) if confirm else CONFIRM_KEYS:
                frame = self.press(answer)
                if self.started(frame):
                    self.session.play["confirm_keys"] = [list(k) for k in answer]
                    break
        if not self.started(frame):
            return False
        self.session.play["new_game_keys"] = [list(k) for k in combo]
        if self.escape_first and ("escape",) not in combo:
            self.session.play["new_game_keys"] = [["escape"], *[list(k) for k in combo]]
            self.session.play["key_gap"] = KEY_GAP
        self.record(frame, self.all_covered(frame))
        return True

    def started(self, frame: np.ndarray) -> bool:
        """A new game: the cell clicked last changed back since the game ended, and most cells are covered."""
        changed = self.changed(self.ended, frame)
        geo = self.require_geometry()
        covered = len(self.covered_cells(frame)) >= NEW_BOARD_SHARE * geo.rows * geo.cols
        return bool(changed) and (self.exploded is None or self.exploded in changed) and covered

    def face_at(self, frame: np.ndarray) -> list[int]:
        """How far above the board a yellow face is centred (every distance where the face is)."""
        geo = self.require_geometry()
        x, y, w, _ = geo.bbox
        known = self.session.play.get("face_above_board")
        if known is not None:
            return [int(known)]
        return [u for u in range(8, 160, 2) if looks_like_a_face(frame, (x + w // 2, y - u))]

    def dialog_opened(self, before: np.ndarray, after: np.ndarray) -> bool:
        """Something new on screen since ``before`` (the end of the game): more changed than a clock."""
        if before.shape != after.shape:
            return False
        diff = (np.abs(before.astype(np.int16) - after.astype(np.int16)).max(axis=2) > 24)
        return int(diff.sum()) > DIALOG_PIXELS

    def press(self, combos: tuple[tuple[str, ...], ...]) -> np.ndarray:
        before = self.screen.grab(self.board_region())
        for k in combos:
            self.mouse.press(list(k))
            time.sleep(KEY_GAP)
        return self.settled(before)

    def click_face(self) -> None:
        """Click the yellow face centred above the board."""
        geo = self.require_geometry()
        frame = self.screen.grab()
        x, y, w, _ = geo.bbox
        cx = x + w // 2
        ups = self.face_at(frame)
        if ups:
            up = ups[len(ups) // 2]  # the middle of the face
            allowed = Rect(cx - 12, y - up - 12, 25, 25)
            self.mouse.click_new_game(cx, y - up, allowed)
            self.mouse.park(x + 2, y + geo.bbox[3] + 6)
            self.session.play["face_above_board"] = up
            return
        raise CalibrationError("could not start a new game (no key worked, no face found): pass --new-game-keys")

    # -- reading the board ----------------------------------------------------------------------------
    def rename(self) -> None:
        """Name the looks from everything so far (used to choose the next game's moves)."""
        from sweepbot.calibration.calibrate import best_naming

        geos = [self.kept_geometry()] * len(self.session.frames)
        try:
            self.inset, self._looks, names = best_naming(self.session.frames, geos, self.session.facts, 1,
                                                           judge=False)
            self.names = {k: n for k, n in names.items() if n.proved}
        except CalibrationError:
            self.names = {}

    def board_now(self, frame: np.ndarray) -> Board | None:
        """The frame as a board from the names known so far (unknown looks count as covered), or None."""
        looks = getattr(self, "_looks", None)
        if looks is None or not self.names:
            return None
        geo = self.require_geometry()
        crop = window_crop([geo], self.inset)
        win = cell_windows(frame, geo, crop)
        known = [(k, looks.images[k].reshape(-1).astype(np.float32)) for k in self.names
                 if looks.images[k].shape[:2] == (crop[3], crop[2])]
        if not known:
            return None
        stack = np.stack([v for _, v in known])
        d = np.sqrt(((win[:, None, :] - stack[None, :, :]) ** 2).mean(axis=2))
        best = d.argmin(axis=1)
        chars = np.array([self.names[known[i][0]].char for i in best])
        chars = np.where(d.min(axis=1) < 25, chars, "#")
        chars = np.where(np.isin(chars, list(".12345678F?#")), chars, "#")
        grid = tuple("".join(row) for row in chars.reshape(geo.rows, geo.cols))
        return Board(grid)

    def choose(self, frame: np.ndarray, avoid: set[tuple[int, int]] = frozenset()) -> tuple[int, int] | None:  # type: ignore[assignment]
        covered = self.covered_cells(frame) - self.flags - set(avoid)
        if not covered:
            return None
        board = self.board_now(frame)
        if board is not None:
            try:
                analysis = analyse(board, None, 0.3)
                safe = [c for c in analysis.safe if c in covered]
                if safe:
                    return safe[0]
                probs = {c: p for c, p in analysis.probabilities.items() if c in covered}
                if probs:
                    return min(probs, key=lambda c: (probs[c], self.rng.random()))
            except SweepbotError:
                pass
        return self.rng.choice(sorted(covered))

    def covered_cells(self, frame: np.ndarray) -> set[tuple[int, int]]:
        geo = self.require_geometry()
        ref = self._covered_look
        win = self.windows(frame)
        d = np.sqrt(((win - ref[None, :]) ** 2).mean(axis=1)).reshape(geo.rows, geo.cols)
        return {(int(r), int(c)) for r, c in np.argwhere(d < CHANGED_RMS)}

    def is_new(self, frame: np.ndarray, inset: float | None = None) -> bool:
        """One look on (nearly) every cell: a new game (some clients open a few cells by themselves). With
        ``inset``, cells are compared that far inside (and, if the board is new, changes are watched there)."""
        win = self.windows(frame, inset)
        middle = np.median(win, axis=0)
        same = np.sqrt(((win - middle[None, :]) ** 2).mean(axis=1)) < CHANGED_RMS
        if same.mean() < NEW_BOARD_SHARE:
            return False
        if inset is not None:
            self.change_inset = inset
        self._covered_look = win[same].mean(axis=0)
        return True

    def all_covered(self, frame: np.ndarray) -> dict[tuple[int, int], str]:
        return dict.fromkeys(self.covered_cells(frame), "#")

    def new_look(self, frame: np.ndarray, cell: tuple[int, int]) -> bool:
        """True unless the cell looks like a cell seen opened before."""
        now = self.window(frame, cell)
        return not any(_rms(seen, now) < CHANGED_RMS for seen in self.opened_looks)

    def changed(self, before: np.ndarray, after: np.ndarray) -> set[tuple[int, int]]:
        geo = self.require_geometry()
        d = np.sqrt(((self.windows(before) - self.windows(after)) ** 2).mean(axis=1)).reshape(geo.rows, geo.cols)
        return {(int(r), int(c)) for r, c in np.argwhere(d >= CHANGED_RMS)}

    # -- input and frames -----------------------------------------------------------------------------
    def click(self, cell: tuple[int, int], button: str) -> np.ndarray:
        geo = self.require_geometry()
        x, y, _, h = geo.bbox
        before = self.screen.grab()
        board_before = self.screen.grab(self.board_region())
        self.mouse.click_cell(*geo.center(*cell), button=button)
        self.mouse.park(x + 2, y + h + 6)
        # wait for the clicked cell itself: a client may light the tile under the pointer at once and
        # answer the click only later (gnome-mines: 0.3 s)
        old = self.window(before, cell)
        deadline = time.monotonic() + SETTLE_TIMEOUT
        held: np.ndarray | None = None
        since = 0.0
        while time.monotonic() < deadline:
            now = self.window(self.screen.grab(), cell)
            if _rms(now, old) < CHANGED_RMS:
                held = None  # unchanged, or a passing highlight that went away
            elif held is None or _rms(now, held) >= 2.0:
                held, since = now, time.monotonic()
            elif time.monotonic() - since >= SETTLE_QUIET:
                break  # changed, and held that look
            time.sleep(0.01)
        # settled against the board before the click: a flash that turns the whole board red for a moment
        # (sgt-mines at a death) is then seen as one, and waited out, even when it began before this wait
        self.last_frame = self.settled(board_before)
        return self.last_frame

    def board_region(self) -> Rect:
        x, y, w, h = self.require_geometry().bbox
        return Rect(x, y, w, h)

    def settled(self, before: np.ndarray | None = None, quiet: float = SETTLE_QUIET,
                timeout: float = SETTLE_TIMEOUT) -> np.ndarray:
        """The screen once the board has changed from ``before`` (if given; at most ``timeout`` s) and then
        held still for ``quiet`` s. A client that flashes its board at the end of a game (sgt-mines) holds
        still between flashes: a change over most of the board is waited out longer."""
        region = self.board_region()
        start = self.screen.grab(region) if before is None else before
        deadline = time.monotonic() + timeout + quiet
        last = self.screen.grab(region)
        changed = before is None or not np.array_equal(last, before)
        still = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.01)
            now = self.screen.grab(region)
            if not np.array_equal(now, last):
                last, still, changed = now, time.monotonic(), True
            elif changed and time.monotonic() - still >= quiet:
                break
        frame = self.screen.grab()
        moved = (np.abs(last.astype(np.int16) - start.astype(np.int16)).max(axis=2) > 0).mean()
        if quiet < FLASH_QUIET and moved > 0.5:
            return self.settled(None, FLASH_QUIET)
        return frame

    def intact(self, frame: np.ndarray) -> bool:
        """The whole board in sight where it was (no dialog over it): only such frames are kept."""
        geo = self.require_geometry()
        try:
            found = locate(frame)
        except SweepbotError:
            return False
        return (found.rows, found.cols) == (geo.rows, geo.cols) and all(
            abs(a - b) <= 3 for a, b in zip(found.bbox, geo.bbox, strict=True))

    def record(self, frame: np.ndarray, facts: dict[tuple[int, int], str]) -> None:
        if not self.intact(frame):
            self.log("a frame with the board not all in sight was left out")
            return
        kept = self.keep(frame)
        if not self.session.frames or not np.array_equal(self.session.frames[-1], kept):
            self.session.frames.append(kept)
        index = len(self.session.frames) - 1
        self.session.facts.extend(Fact(index, r, c, ch) for (r, c), ch in facts.items())
        opened = [cell for cell, ch in facts.items() if ch == REVEALED]
        if opened:
            win = self.windows(frame)
            geo = self.require_geometry()
            for r, c in opened:
                look = win[r * geo.cols + c]
                if len(self.opened_looks) < 200 and not any(_rms(s, look) < CHANGED_RMS for s in self.opened_looks):
                    self.opened_looks.append(look)
        for (r, c), ch in facts.items():
            if ch == "F" and self.flag_look is None:
                self.flag_look = self.window(frame, (r, c))

    def keep(self, frame: np.ndarray) -> np.ndarray:
        """The part of the screen worth keeping: the board and room around it for a counter or a face."""
        x, y, w, h = self.require_geometry().bbox
        x0, y0 = max(0, x - KEEP_MARGIN[0]), max(0, y - KEEP_MARGIN[1])
        return frame[y0 : y + h + KEEP_MARGIN[3], x0 : x + w + KEEP_MARGIN[2]].copy()

    def windows(self, frame: np.ndarray, inset: float | None = None) -> np.ndarray:
        geo = self.require_geometry()
        return cell_windows(frame, geo, window_crop([geo], self.change_inset if inset is None else inset))

    def window(self, frame: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
        geo = self.require_geometry()
        return self.windows(frame)[cell[0] * geo.cols + cell[1]]

    def kept_geometry(self) -> Geometry:
        x, y, _, _ = self.require_geometry().bbox
        return self.require_geometry().shifted(-max(0, x - KEEP_MARGIN[0]), -max(0, y - KEEP_MARGIN[1]))

    def require_geometry(self) -> Geometry:
        if self.geometry is None:
            raise CalibrationError("no board located yet")
        return self.geometry


def _rms(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(((a.astype(np.float32) - b.astype(np.float32)) ** 2).mean()))


def _flood(cell: tuple[int, int], changed: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The changed cells reachable from ``cell`` through changed cells (an opening spreads that way)."""
    out = {cell} & changed
    todo = list(out)
    while todo:
        r, c = todo.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                n = (r + dr, c + dc)
                if n in changed and n not in out:
                    out.add(n)
                    todo.append(n)
    return out


__all__ = ["LiveCalibration", "LiveSession"]
