"""Finding how a client starts a new game, once a game is over: a yellow control beside the board (a smiley, a
yellow button), the keys no program takes amiss (F2, N), the other controls beside the board from the top down
(a "New game" or "Restart" button), then Space (it presses the focused button). Never a key that a browser or
desktop takes as a command (``control.keys``: Ctrl+R reloads a page, Ctrl+N opens a window). When nothing
works and a person is there, they are asked to start a new game once: where they clicked is learnt. A new game is judged
by the screen: the whole board covered again, holding still, however long the client's toast or animation
takes. What worked is learnt into the session's rules for play (the keys, or the control's place and looks) for
play to do the same."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from sweepbot.calibration.facts import CalibrationError
from sweepbot.calibration.live.driver import BoardDriver, Cell
from sweepbot.calibration.live.session import LiveSession
from sweepbot.calibration.live.tiles import NEW_BOARD_SHARE, Tiles
from sweepbot.calibration.live.ways import labelled_new_game, ways_to_try
from sweepbot.rect import Rect
from sweepbot.vision.controls import (
    Control,
    around_board,
    control_look,
    controls_near,
    decode_look,
    encode_look,
    find_control,
    find_known_control,
)
from sweepbot.vision.labels import available as labels_readable
from sweepbot.vision.rules import CONFIRM_GAP, Keys, NewGameControl
from sweepbot.watch import CommandKeyError, ControlError

#: Seconds a new game may take to show whole, covered and still once the screen began to change (a toast
#: over the board, an animation, a "get ready" pause), or at all after a way that worked before; and
#: between looks for it.
NEW_GAME_WAIT = 8.0
NEW_GAME_POLL = 0.1
#: Looks of the new-game control kept (as the game ended: lost, won; as a new game began).
MAX_LOOKS = 4
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
#: Times Escape is pressed to close a dialog that hides the new-game control found before.
DIALOG_ESCAPES = 2
#: Pixels that must change after a game ended for a dialog to have opened (a clock changes fewer).
DIALOG_PIXELS = 3000
#: Seconds a person asked to start a new game is given, and between looks at the screen and the pointer.
USER_WAIT = 60.0
USER_POLL = 0.02
#: Half the side of the patch kept as the look of what a person clicked when it is no control found on
#: screen (a link, a line of text).
USER_PATCH = 12


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
    """Starts new games on the board, learning what worked into the ``session``'s rules for play;
    ``given_keys`` (the user's) are tried
    instead of looking for a way. The client's window on screen (``board.window``) is where its controls
    may be (None: not known, the screen near the board)."""

    board: BoardDriver
    tiles: Tiles
    session: LiveSession
    given_keys: Keys = ()
    escape_first: bool = False  # a dialog had to be closed with Escape: play presses it first too
    #: asks the person at the screen to start a new game (None: nobody to ask)
    ask: Callable[[str], None] | None = None

    def start(self, end_screen: np.ndarray, exploded: Cell | None) -> np.ndarray:
        """Start the next game: the way found before, else the first way that works. A dialog that opened over
        the ended game (``end_screen``: a scores dialog, perhaps a moment late) is closed first, with Escape:
        only ever sent to such a window, after its own buttons: one that says new game ("Play again") starts
        the next game as a person would. Returns the new game's screen."""
        rules = self.session.play
        if not rules.new_game_keys and rules.new_game_control is None:
            now = self.board.watcher.hold_still(quiet=DIALOG_QUIET)
            pitch = self.tiles.cells.geometry.pitch
            for control in labelled_new_game(now, self.area(now), (pitch[0] + pitch[1]) / 2, self.size()):
                frame = self.try_control(control, EndedGame(now, exploded))
                if frame is not None:
                    return frame
        if not rules.new_game_keys and rules.new_game_control is not None:
            # the control found before may be in the dialog that opened (a level chooser): clicked, not closed
            now = self.board.watcher.hold_still(quiet=DIALOG_QUIET)
            if self.known_box(now) is not None:
                return self.click_known(EndedGame(now, exploded))
            self.close_dialog(end_screen, now)
        else:
            self.close_dialog(end_screen)
        ended = EndedGame(self.board.watcher.grab(), exploded)
        if rules.new_game_keys:
            return self.again(rules.new_game_keys, ended)
        if rules.new_game_control is not None:
            return self.click_known(ended)
        return self.discover(ended)

    def discover(self, ended: EndedGame) -> np.ndarray:
        """Try each way in turn (see the module's docstring); the screen of the new game it started."""
        if self.given_keys:
            frame = self.try_keys(self.given_keys, (), ended)
            if frame is None:
                raise CalibrationError(f"the new-game key {keys_text(self.given_keys)} did not start a new game")
            return frame
        controls = controls_near(ended.screen, self.board.region, self.area(ended.screen))
        tried: list[str] = []
        ways = ways_to_try(controls, ended.screen, self.size())
        for step in ways.steps:
            if isinstance(step, Control):
                tried.append(f"the control at {step.centre}")
                frame = self.try_control(step, ended)
            elif not self.may_press(step):
                continue  # a command where the keys would go now: never pressed
            else:
                tried.append(keys_text(step))
                frame = self.try_keys(step, (), ended)
            if frame is not None:
                return frame
            self.board.check_window()
        if self.ask is not None:
            return self.shown_by_user(ended, tried)
        alone = f"; left alone, since no label said new game: {', '.join(ways.left_alone)}" if ways.left_alone else ""
        reading = "" if labels_readable() else " (no label can be read here: install tesseract-ocr)"
        raise CalibrationError(f"found no way to start a new game (tried {', '.join(tried)}{alone}){reading}: "
                               "start a new game, then calibrate again with --new-game-keys if the client has a "
                               "key for it")

    def shown_by_user(self, ended: EndedGame, tried: list[str]) -> np.ndarray:
        """Ask the person at the screen to start a new game, watch, and learn what they clicked: the control
        (or, when none is found there, the patch) under the pointer when the board began to change. A new
        game started with a key cannot be seen: the message says to give it."""
        watcher, region = self.board.watcher, self.board.region
        mouse = watcher.input()
        left_at = mouse.pointer()
        assert self.ask is not None
        self.ask(f"found no way to start a new game (tried {', '.join(tried)}): start one yourself now, with the "
                 f"client's own button, link or menu; sweepbot watches where you click (for {USER_WAIT:.0f} s)")
        clicked: tuple[float, float] | None = None

        def shown() -> np.ndarray | None:
            nonlocal clicked
            watcher.pause(USER_POLL)
            point = mouse.pointer()
            now = watcher.grab()
            if clicked is None and self.tiles.cells.changed(ended.screen, now):
                clicked = point
            return now if clicked is not None and self.started(now, ended) else None

        found = watcher.wait_until(shown, USER_WAIT, 0.0)
        mouse.hand_back()
        if found is None or clicked is None:
            raise CalibrationError(f"no new game was started within {USER_WAIT:.0f} s: start a new game, then "
                                   "calibrate again")
        x, y = round(clicked[0]), round(clicked[1])
        if region.contains(x, y) or (abs(x - left_at[0]) <= 2 and abs(y - left_at[1]) <= 2):
            raise CalibrationError("a new game started, but not with a click beside the board (a key?): calibrate "
                                   "again with --new-game-keys KEY")
        box = next((c.box for c in controls_near(ended.screen, region, self.area(ended.screen))
                    if c.box.contains(x, y)), None)
        if box is None:
            height, width = ended.screen.shape[:2]
            box = Rect(x - USER_PATCH, y - USER_PATCH, 2 * USER_PATCH, 2 * USER_PATCH).intersect(
                Rect(0, 0, width, height)) or Rect(x, y, 1, 1)
        self.session.learn(new_game_control=NewGameControl((box.x - region.x, box.y - region.y),
                                                           (encode_look(control_look(ended.screen, box)),)))
        return self.board.unhidden(watcher.hold_still())

    def size(self) -> tuple[int, int]:
        """The board's rows and columns."""
        geometry = self.tiles.cells.geometry
        return geometry.rows, geometry.cols

    def area(self, frame: np.ndarray) -> Rect:
        """Where the client's controls may be: its window, else the screen near the board."""
        return self.board.window or around_board(self.board.region, (frame.shape[1], frame.shape[0]))

    def again(self, combo: Keys, ended: EndedGame) -> np.ndarray:
        """Start a new game with the keys that worked before; if they do nothing at first, a window may have the
        keyboard: Escape goes to it (and play presses Escape first too), unless the device tells that the board's
        own window has the keyboard and no window lies over the board: the keys are then pressed again once
        the screen settles."""
        confirm = self.session.play.confirm_keys
        escaped = False
        for attempt in range(NEW_GAME_TRIES):
            frame = self.try_keys(combo, confirm, ended)
            if frame is not None:
                if escaped and ("escape",) not in combo:
                    # it took an Escape first: play will press it first too (harmless here, then)
                    self.session.learn(new_game_keys=(("escape",), *combo), key_gap=KEY_GAP)
                return frame
            if attempt > 0:
                continue
            if self.board.escape_is_safe():
                # the key that worked before does nothing: a window has the keyboard (gnome-mines's
                # scores dialog after a win, not always in sight). Escape goes to that window.
                escaped = self.board.press("escape")
                self.board.watcher.hold_still()
            else:
                # the board's own window has the keyboard: Escape would go to the client itself, which may
                # take it as quit; the client may answer late, so the keys are tried again once it settles
                self.board.watcher.hold_still(quiet=DIALOG_QUIET)
        self.board.check_window()
        raise CalibrationError(f"the new-game key {keys_text(combo)} worked before and no longer starts a new game "
                               f"(the screen showed {self.seen(ended)})")

    def click_known(self, ended: EndedGame) -> np.ndarray:
        """Click the new-game control found before, found again by its looks (or, looking another way now, at
        its place); the new game's screen. A window over the board is closed with Escape first, though the
        control shows beside it: a modal dialog would take the click (gnome-mines's scores dialog after a win,
        in a window larger than the dialog)."""
        screen = ended.screen
        for attempt in range(DIALOG_ESCAPES + 1):
            box = self.known_box(screen)
            over = self.board.window_over()
            if (box is not None and not over) or attempt == DIALOG_ESCAPES:
                break
            if over:
                # a dialog over the window hides the control or takes its click (a scores dialog after a win):
                # Escape closes it, and play presses it too when a window lies over the board
                self.board.press("escape")
                self.session.learn(dismiss_keys=(("escape",),))
                screen = self.board.watcher.hold_still()
            else:
                # no window over the board: Escape would go to the client itself, which may take it as quit
                # (xdemineur); the control may be drawn a moment late, or look otherwise until the screen settles
                screen = self.board.watcher.hold_still(quiet=DIALOG_QUIET)
        if box is None:
            self.board.check_window()
            raise CalibrationError("the new-game control found before is no longer beside the board "
                                   f"(the screen showed {self.seen(ended)})")
        self.keep_look(screen, box)
        frame = self.try_control(Control(box, False), ended, patient=True)
        if frame is None:
            self.board.check_window()
            raise CalibrationError(f"clicked the new-game control at {box.center} as before, but no new game "
                                   f"started (the screen showed {self.seen(ended)})")
        return frame

    def known_box(self, screen: np.ndarray) -> Rect | None:
        """Where the new-game control found before is on ``screen``, by its looks or its place (None: not in
        sight)."""
        spec = self.session.play.new_game_control
        assert spec is not None
        return find_known_control(screen, self.board.region, spec.offset, [decode_look(t) for t in spec.looks],
                                  self.area(screen))

    def keep_look(self, frame: np.ndarray, box: Rect) -> None:
        """Keep the control's look on ``frame`` if it is new (a smiley looks otherwise after a win)."""
        spec = self.session.play.new_game_control
        assert spec is not None
        look = control_look(frame, box)
        if len(spec.looks) < MAX_LOOKS and find_control(
                frame, self.board.region, spec.offset, [decode_look(t) for t in spec.looks], slack=2) != box:
            self.session.learn(new_game_control=replace(spec, looks=(*spec.looks, encode_look(look))))

    def try_control(self, control: Control, ended: EndedGame, patient: bool = False) -> np.ndarray | None:
        """Click a control beside the board; the screen if a new game started (the control kept in ``play``),
        else None (a menu or list it opened is closed with Escape, where that is safe: :meth:`escape_is_safe`).
        ``patient``: the control started a game before, so a board that stays as it was is waited on (see
        :meth:`wait_new_game`)."""
        watcher = self.board.watcher
        before = watcher.grab(self.board.region)
        screen_before = watcher.grab()
        x, y = control.centre
        watcher.click_control(x, y, control.box, self.board.region)
        frame = self.wait_new_game(before, ended, patient)
        if frame is None:
            if dialog_opened(screen_before, watcher.grab()) and self.escape_is_safe():
                self.board.press("escape")
                watcher.hold_still()
            return None
        if self.session.play.new_game_control is None:
            region = self.board.region
            self.session.learn(new_game_control=NewGameControl(
                (control.box.x - region.x, control.box.y - region.y),
                (encode_look(control_look(ended.screen, control.box)),)))
        self.keep_look(frame, control.box)
        return frame

    def wait_new_game(self, before: np.ndarray, ended: EndedGame, patient: bool = False) -> np.ndarray | None:
        """The screen once a new game shows whole and still, or None: nothing changed on the board (unless
        ``patient``: a way that worked before may answer late, a web page on a loaded machine), or no new game
        came within NEW_GAME_WAIT seconds of the input."""
        board = self.board
        start = board.watcher.clock.now()
        frame = board.answered(before)
        if self.started(frame, ended):
            return board.unhidden(frame)
        if not patient and not self.tiles.cells.changed(ended.screen, frame):
            return None

        def new_game() -> np.ndarray | None:
            board.watcher.pause(NEW_GAME_POLL)
            now = board.answered()
            return board.unhidden(now) if self.started(now, ended) else None

        left = NEW_GAME_WAIT - (board.watcher.clock.now() - start)
        return board.watcher.wait_until(new_game, left, 0.0) if left > 0 else None

    def close_dialog(self, end_screen: np.ndarray, now: np.ndarray | None = None) -> None:
        """Close, with Escape, a dialog that opened since the game ended (``now``: the screen once it held still
        since, when it was just waited for)."""
        watcher = self.board.watcher
        now = watcher.hold_still(quiet=DIALOG_QUIET) if now is None else now
        if dialog_opened(end_screen, now) and self.escape_is_safe():
            # (never into another program's window: a menu that took the board's place may be all there is)
            self.board.press("escape")
            watcher.hold_still()
            self.escape_first = True  # play will close such a dialog the same way before a new game

    def escape_is_safe(self) -> bool:
        """Whether Escape may close what changed on screen: it may be pressed where keys go now, and a window lies
        over the board or keys are not known to reach the board's own window (``BoardDriver.escape_is_safe``):
        never into the client's own window with nothing over the board, which may take it as quit (xdemineur,
        pygame-minesweeper), where the change may be a new game not known as one."""
        return self.board.escape_is_safe() and self.may_press((("escape",),))

    def may_press(self, combo: Keys) -> bool:
        """Whether ``combo`` may be pressed where keys go now (a game's shortcut only into its own window)."""
        try:
            self.board.watcher.input().check_keys([list(keys) for keys in combo])
        except (CommandKeyError, ControlError):  # a command there, or the keys would go to another program
            return False
        return True

    def try_keys(self, combo: Keys, confirm: Keys, ended: EndedGame) -> np.ndarray | None:
        """Press ``combo``; if a dialog opens, answer it (``confirm``, or the usual answers). The screen if a
        new game started (with what worked kept in ``play``), else None."""
        screen_before = self.board.watcher.grab()
        frame = self.press(combo, ended)
        if frame is None and not np.array_equal(self.board.watcher.grab(), screen_before):
            self.board.watcher.pause(DIALOG_WAIT)
            for answer in (confirm,) if confirm else CONFIRM_KEYS:
                frame = self.press(answer, ended)
                if frame is not None:
                    self.session.learn(confirm_keys=answer, key_gap=self.session.play.key_gap or CONFIRM_GAP)
                    break
        if frame is None:
            return None
        if self.escape_first and ("escape",) not in combo:
            self.session.learn(new_game_keys=(("escape",), *combo), key_gap=KEY_GAP)
        else:
            self.session.learn(new_game_keys=combo)
        return frame

    def started(self, frame: np.ndarray, ended: EndedGame) -> bool:
        """A new game: the cell clicked last changed back since the game ended, and most cells are covered, or
        a cell that showed an opened cell's look when the game ended is covered again (no game covers an
        opened cell: a client that opens an area by itself at a game's start, xdemineur, may open most of a
        board of few mines)."""
        changed = self.tiles.cells.changed(ended.screen, frame)
        if not changed or (ended.exploded is not None and ended.exploded not in changed):
            return False
        geo = self.tiles.cells.geometry
        covered = self.tiles.covered(frame)
        if len(covered) >= NEW_BOARD_SHARE * geo.rows * geo.cols:
            return True
        return any(not self.tiles.new_look(ended.screen, cell) for cell in changed & covered)

    def seen(self, ended: EndedGame) -> str:
        """What the board shows now, in words, for a message."""
        frame = self.board.watcher.grab()
        geo = self.tiles.cells.geometry
        covered = len(self.tiles.covered(frame))
        changed = len(self.tiles.cells.changed(ended.screen, frame))
        return (f"{covered} of {geo.rows * geo.cols} cells covered, {changed} changed since the game ended")

    def press(self, combos: Keys, ended: EndedGame) -> np.ndarray | None:
        """Press keys one after the other; the screen once a new game shows (see :meth:`wait_new_game`)."""
        before = self.board.watcher.grab(self.board.region)
        self.board.watcher.press(combos, KEY_GAP)
        self.board.watcher.pause(KEY_GAP)
        return self.wait_new_game(before, ended)


def keys_text(combos: Keys) -> str:
    """Keys as a user writes them: ``ctrl+n``, or ``tab, enter``."""
    return ", ".join("+".join(combo) for combo in combos)
