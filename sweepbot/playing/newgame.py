"""Starting the next game the client's way, then waiting until the screen shows it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sweepbot.board import Board, game_over
from sweepbot.errors import SweepbotError
from sweepbot.playing.clients import face_rect
from sweepbot.playing.view import BoardView, Reader
from sweepbot.rect import Rect
from sweepbot.vision.controls import around_board, decode_look, find_known_control
from sweepbot.vision.face import looks_like_a_face
from sweepbot.vision.frames import same_frame
from sweepbot.vision.rules import NewGameControl, PlayRules
from sweepbot.watch import PLAY, Waits, Watcher

#: How long the screen must hold still before the new game is asked for, in repaints of the client (a dialog
#: that a client opens a moment after a game ends shows first); SETTLED_UNKNOWN s for a client of unknown pace
SETTLED_REPAINTS = 15
SETTLED_UNKNOWN = 0.5
#: Seconds between the two reads that must agree on the new board, for a client of unknown pace (else one
#: repaint of the client)
STILL_FOR = 0.05
POLL = 0.005  # seconds between frames while waiting for the new game
CONFIRM_AFTER = 1.0  # seconds without a new game before the keys are pressed again (dialogs answered)
DIALOG_ESCAPES = 2  # times the new-game control is looked for again (Escape first where safe) when not in sight
#: Seconds the new-game control may take to come into sight once a game ended, the screen changing meanwhile (a
#: level chooser a client shows in the board's place a moment after the game)
CONTROL_LATE = 3.0
CONTROL_POLL = 0.05  # seconds between looks while it does
NEW_GAME_TIMEOUT = 10.0  # seconds a new game may take to show


def start_new_game(watcher: Watcher, reader: Reader, rules: PlayRules, last: BoardView,
                   timeout: float = NEW_GAME_TIMEOUT, waits: Waits = PLAY,
                   with_mines: Callable[[Board], Board] | None = None) -> BoardView:
    """Press the client's new-game keys or click its face or new-game control, and wait for a board that is not
    over.

    The keys are pressed again (after the confirm keys) only when a frame taken CONFIRM_AFTER seconds or more
    after them shows no new game: the screen has not changed, or it shows no board that reads as a fresh one.
    A frame is judged by when it was taken, not by when its reading ended, since finding a board afresh can
    take longer than CONFIRM_AFTER; keys pressed again over a fresh board can leave the game (gnome-mines
    goes back to its level chooser on Escape, or on Return with the focus on "Change Difficulty").

    The waits here are counted in the client's repaint time (``waits``) once it is known. ``with_mines`` gives a
    board read its mine total where play knows it (a client that shows none): the last game's won board, still
    on screen while the client is slow to start the next, is no new game."""
    repaint = watcher.pace.repaint(waits)
    quiet = SETTLED_UNKNOWN if repaint is None else SETTLED_REPAINTS * repaint
    still_for = STILL_FOR if repaint is None else repaint
    before = watcher.hold_still(quiet=quiet)  # a dialog a client opens a moment after a game ends shows first
    if rules.new_game_keys:
        watcher.press(rules.new_game_keys, rules.key_gap)
    elif rules.new_game_control is not None:
        before = click_control(watcher, rules.new_game_control, before, last, quiet, reader)
    else:
        allowed = face_rect(last.bbox, rules)
        if allowed is None:
            raise SweepbotError("this client has no known way to start a new game: start it by hand")
        centre = (allowed.x + allowed.w // 2, allowed.y + allowed.h // 2)
        if not looks_like_a_face(before, centre):
            raise SweepbotError(f"no new-game face where it should be ({centre}): not clicking")
        watcher.input().click_new_game(*centre, allowed=allowed)
    closing = tuple(k for k in rules.closes_dialogs if k not in rules.confirm_keys + rules.new_game_keys[:1])
    again = rules.confirm_keys + closing + rules.new_game_keys
    clock = watcher.clock
    asked = clock.now()
    again_times = 0  # how many times the new game was asked for again
    candidate: BoardView | None = None
    seen = "nothing: no frame was taken"
    last_frame: np.ndarray | None = None

    def fresh_board() -> BoardView | None:
        nonlocal asked, again_times, candidate, seen, last_frame
        taken = clock.now()
        frame = last_frame = watcher.grab()
        view, seen = look_for_new_game(reader, frame, before, last, with_mines)
        if view is not None:
            if candidate is not None and candidate.board.grid == view.board.grid:
                return view  # the same new board twice in a row: the client has finished repainting
            candidate = view
            watcher.pause(still_for)
            return None
        candidate = None
        if taken - asked <= CONFIRM_AFTER:
            return None
        # a dialog held the new game back (a confirmation, or a scores dialog that opened late and took the
        # keys or the click): answer or close it, then ask for the new game again
        if rules.new_game_keys:
            watcher.press(again, rules.key_gap)
            asked, again_times = clock.now(), again_times + 1
        elif rules.new_game_control is not None:
            hidden = seen.startswith(UNREAD) and watcher.overlays.covered(frame)
            if hidden or old_game_shows(seen):
                # a window over the board that hides it unread (its text over the cells) is a dialog:
                # Escape closes it, as it does one over the control
                if closing:
                    watcher.press(closing, rules.key_gap)
                elif hidden and watcher.escape_is_safe(last.bbox):
                    watcher.press((("escape",),), rules.key_gap)
                click_control(watcher, rules.new_game_control, watcher.hold_still(quiet=quiet), last, quiet,
                              reader)
                asked, again_times = clock.now(), again_times + 1
        return None

    found = watcher.wait_until(fresh_board, timeout, POLL)
    if found is None and candidate is not None:
        found = fresh_board()  # a new board first seen at the deadline: one more look confirms it
    if found is None:
        asking = f"asked for again {again_times} time(s), the last {clock.now() - asked:.1f} s before the end" \
            if again_times else "asked for once"
        raise NoNewGame(f"no new game appeared within {timeout:.0f} s ({asking}); the last screen showed {seen}",
                        last_frame)
    return found


class NoNewGame(SweepbotError):
    """No new game showed in time; ``frame`` is the last screen looked at (None when none was taken)."""

    def __init__(self, message: str, frame: np.ndarray | None) -> None:
        super().__init__(message)
        self.frame = frame


def click_control(watcher: Watcher, control: NewGameControl, before: np.ndarray,
                  last: BoardView, quiet: float, reader: Reader) -> np.ndarray:
    """Click the client's own new-game control, found on ``before`` by its looks; when it is not in sight, or a
    window lies over the board (a modal dialog would take the click, though the control shows beside it: a
    scores dialog calibration never met), looked for again DIALOG_ESCAPES times at most once the screen
    changed and settled (or CONTROL_LATE s passed unchanged), Escape pressed first where a window lies over
    the board, and before the second look where it may close a window that hides the control
    (:meth:`Watcher.escape_is_safe`); the control found is clicked even if a window stays over the board. A
    control found over the board while the board of the game that ended still shows there is none (a level
    menu a client lays in its board's place, found at its place before it came). The frame it was found on."""
    looks = [decode_look(t) for t in control.looks]
    # the client's controls lie in its window, the one that holds the whole board (not in the window manager's
    # title bar above it, nor only in a dialog over the board), else near the board
    window = watcher.input().window_at(*last.bbox.center)
    near = window if window is not None and window.intersect(last.bbox) == last.bbox \
        else around_board(last.bbox, (before.shape[1], before.shape[0]))
    box = in_sight(find_known_control(before, last.bbox, control.offset, looks, near), before, last, reader)
    for attempt in range(DIALOG_ESCAPES):
        over = watcher.window_over(last.bbox)
        if box is not None and not over:
            break
        if over or (attempt and watcher.escape_is_safe(last.bbox)):
            # a dialog over the window hides the control or takes its click (a scores dialog after a win):
            # Escape closes it
            watcher.press([["escape"]])
        # (else, first, the control may be drawn a moment late, or in a panel the client opens a moment after the
        # game ended, longer after than the screen holds still; and where the board's own window has the
        # keyboard, nothing over it, Escape would go to the client, which may take it as quit)
        before = watcher.settle(before=before, quiet=quiet, timeout=CONTROL_LATE, poll=CONTROL_POLL).frame
        box = in_sight(find_known_control(before, last.bbox, control.offset, looks, near), before, last, reader)
    if box is None:
        raise SweepbotError("the new-game control is not beside the board where calibration found it: "
                            "not clicking")
    watcher.click_control(*box.center, allowed=box, board=last.bbox)
    return before


def in_sight(box: Rect | None, frame: np.ndarray, last: BoardView, reader: Reader) -> Rect | None:
    """``box``, a new-game control found on ``frame``, unless it lies over the board while ``reader`` reads the
    board of the game that ended (``last``) there still: a look-alike among its tiles."""
    if box is None or box.intersect(last.bbox) is None:
        return box
    try:
        shown = reader.read(frame).board.grid == last.board.grid
    except SweepbotError:
        return box
    return None if shown else box


#: What :func:`look_for_new_game` says of a screen that still shows the game that ended.
NO_CHANGE = "no change since the new game was asked for"
GAME_OVER = "a board that is over"
LAST_BOARD = "the board of the game that ended"
OLD_GAME = (NO_CHANGE, GAME_OVER, LAST_BOARD)
#: ... and of a screen it could not read.
UNREAD = "no board it could read"


def old_game_shows(seen: str) -> bool:
    """Whether the screen, as :func:`look_for_new_game` saw it, still shows the game that ended (a click on
    the new-game control that a dialog took): never a screen it could not read, which may be the new game."""
    return seen.startswith(OLD_GAME)


def look_for_new_game(reader: Reader, frame: np.ndarray, before: np.ndarray, last: BoardView,
                      with_mines: Callable[[Board], Board] | None = None) -> tuple[BoardView | None, str]:
    """A fresh board on ``frame`` (one that is not over, with the mine total ``with_mines`` gives it, and not the
    last game's), or None and what was seen."""
    if same_frame(frame, before):
        return None, NO_CHANGE
    try:
        view = reader.read(frame)
    except SweepbotError as err:
        return None, f"{UNREAD} ({err})"
    over = game_over(with_mines(view.board) if with_mines else view.board)
    if over:
        return None, f"{GAME_OVER} ({over})"
    if view.board.grid == last.board.grid:
        return None, LAST_BOARD
    return view, "a new board"
