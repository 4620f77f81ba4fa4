"""The screen watcher: the one way play, live calibration and new-game finding look at the screen, send input
and wait for the client's answer.

It grabs the screen (whole, or a region), clicks and parks the pointer, presses keys, and waits: for an answer
(the board changes, then holds still, at the client's pace), for the screen to hold still, for a toast over
the board to go, or for anything a caller can check on a fresh grab. Every wait reads the clock it was given,
so a test's fake clock makes seconds of waiting cost only the frames looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from sweepbot.clock import SYSTEM_CLOCK, Clock
from sweepbot.control.device import InputDevice
from sweepbot.control.keys import check_keys
from sweepbot.control.mapping import ScreenMapping
from sweepbot.control.mouse import BoardInput
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision.frames import Grabber, same_frame
from sweepbot.vision.locate import LocateError, grids
from sweepbot.watch.overlays import OVERLAY_POLL, OVERLAY_WAIT, Overlays
from sweepbot.watch.pace import Pace, Waits

T = TypeVar("T")

#: Where the pointer rests after input: this many pixels right of the board's left edge and below its bottom
#: edge, off every tile (a tile under the pointer may be lit or hidden) and never in a screen corner.
PARK_RIGHT = 2
PARK_BELOW = 6
#: Waiting for the whole screen to hold still (a dialog opening, a window closing): this long, at most this long.
HOLD_QUIET = 0.5
HOLD_TIMEOUT = 2.5
#: The finest grab interval of a wait, and how many grabs a stillness is watched with at most.
MIN_POLL = 0.002
#: Seconds between grabs while a late answer is waited for
LATE_POLL = 0.05
POLLS_PER_QUIET = 8
#: A change over more than this share of the watched pixels is the whole board flashing (see Waits.flash_quiet).
FLASH_SHARE = 0.5
#: Seconds the screen must hold still after the pointer left the board, before its first read (a tile the
#: pointer lit is drawn again unlit)
OFF_BOARD_QUIET = 0.3
#: Where on the board (shares of its width and height) a window over it is looked for: its centre first.
WINDOW_PROBES = ((0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))


def _foreign(found: Rect | None, board: Rect) -> bool:
    """Whether ``found``, a window's client area, is known and is not the one that holds the whole of ``board``."""
    bx, by, w, h = board.as_tuple()
    return found is not None and not (found.contains(bx + 3, by + 3) and found.contains(bx + w - 4, by + h - 4))


@dataclass(frozen=True)
class Settled:
    """How a wait on the screen ended.

    ``frame`` is the last grab of the watched region; ``changed_at`` the clock's time when it first differed
    from the frame it was compared with (None: it never did; the start when no change was asked for);
    ``longest_pause`` the longest stillness between two changes after that; ``still`` whether it held still
    for the stillness asked for before the time ran out."""

    frame: np.ndarray
    changed_at: float | None
    longest_pause: float
    still: bool


class NoInput(SweepbotError):
    """Input was asked of a watcher that has no input device (a dry run)."""


class Watcher:
    """The screen, the input device and the clock, with what was learnt of the client: its pace and what it
    lays over its board."""

    def __init__(self, screen: Grabber, mouse: BoardInput | None = None, clock: Clock = SYSTEM_CLOCK) -> None:
        self.screen = screen
        self.mouse = mouse
        self.clock = clock
        self.pace = Pace()
        self.overlays = Overlays()
        self.clicked_at = 0.0  # when the last click went (0: none since the last answer)

    @classmethod
    def of(cls, screen: Grabber, device: InputDevice | None = None, clock: Clock = SYSTEM_CLOCK) -> Watcher:
        """A watcher of a screen of your own (anything with ``grab(region=None)`` giving a BGR array) clicked
        through ``device`` (an :class:`~sweepbot.control.device.InputDevice` whose coordinates are the
        screen's pixels; None: a watcher that only looks). The mouse waits on ``clock`` too."""
        return cls(screen, BoardInput(device, ScreenMapping(), clock=clock) if device is not None else None, clock)

    def seeing(self, screen: Grabber) -> Watcher:
        """This watcher looking at ``screen`` instead (the same screen seen through a filter), sharing its input,
        clock, pace and overlays."""
        other = Watcher(screen, self.mouse, self.clock)
        other.pace, other.overlays = self.pace, self.overlays
        return other

    # -- input --------------------------------------------------------------------------------------
    def input(self) -> BoardInput:
        if self.mouse is None:
            raise NoInput("no input device: only a dry run can go without one")
        return self.mouse

    def click(self, points: Sequence[tuple[float, float]], button: str, board: Rect) -> None:
        """Click every point, all inside ``board`` (the board just read), then park the pointer below it."""
        mouse = self.input()
        mouse.set_board(board)
        mouse.click_cells(list(points), button)
        self.clicked_at = self.clock.now()
        self.park(board)

    def click_control(self, x: float, y: float, allowed: Rect, board: Rect) -> None:
        """Click a client's own control beside ``board`` (a new-game face or button) inside ``allowed``."""
        self.input().click_new_game(x, y, allowed)
        self.park(board)

    def press(self, combos: Sequence[Sequence[str]], gap: float = 0.0) -> None:
        """Press key combinations one after the other, ``gap`` seconds apart; none if any is a browser's or
        desktop's command (``control.keys``)."""
        if self.mouse is None:
            check_keys(combos)
        else:
            self.mouse.check_keys([list(combo) for combo in combos])  # where the keys would go decides
        for i, combo in enumerate(combos):
            if i and gap:
                self.clock.sleep(gap)
            self.input().press(list(combo))

    def window_over(self, board: Rect) -> bool:
        """Whether another window lies over ``board`` (a dialog the client opened at the end of a game): the
        window at the board's centre or at the middle of a quarter of it does not hold the whole board, as
        the client's window does. A dialog inside the board leaves its edges alone, which the band around the
        board (``overlays``) cannot see. False where the device cannot tell windows apart, and where no window holds
        the board's centre: the board is gone, not hidden (a client's window that shrank to a level menu in its
        place, which Escape would reach as the client itself)."""
        x, y, w, h = board.as_tuple()
        windows = (self.input().window_at(x + fx * w, y + fy * h) for fx, fy in WINDOW_PROBES)
        centre = next(windows)  # the first probe
        return centre is not None and (_foreign(centre, board) or any(_foreign(found, board) for found in windows))

    def foreign_window_at(self, board: Rect, x: float, y: float) -> bool:
        """Whether the window at ``(x, y)`` is known, and is not the one that holds the whole of ``board``."""
        return _foreign(self.input().window_at(x, y), board)

    def escape_is_safe(self, board: Rect) -> bool:
        """Whether Escape may be pressed to close a window that keeps the game from its keys or clicks: a window
        lies over ``board``, or keys are not known to reach the window the board is in (a dialog of the game,
        a browser, a device that cannot tell). Not when the board's own window has the keyboard with nothing
        over it: Escape would go to the client itself, which may take it as quit (xdemineur)."""
        return self.window_over(board) or not self.input().keys_reach_the_board()

    def park(self, board: Rect) -> None:
        """Rest the pointer just below ``board``'s left end (see PARK_RIGHT)."""
        self.input().park(board.x + PARK_RIGHT, board.y + board.h + PARK_BELOW)

    def off_board(self, frame: np.ndarray) -> np.ndarray:
        """The screen with the pointer off the board found on ``frame``: parked below it when it rests on it (a
        client lights or presses the tile under the pointer), and grabbed again once it holds still; ``frame``
        itself when the pointer is elsewhere, no board shows, or there is no input (a dry run)."""
        if self.mouse is None:
            return frame
        try:
            found = grids(frame).ranked
        except LocateError:
            return frame
        pointer = self.mouse.pointer()
        # the grid the pointer rests on (a board among other grids: which one is the board, the read tells)
        boxes = [box for box in (Rect(*grid.bbox) for grid in found) if box.contains(*pointer)]
        if not boxes:
            return frame
        self.park(boxes[0])
        return self.hold_still(quiet=OFF_BOARD_QUIET)

    def rest_on(self, x: float, y: float) -> None:
        """Rest the pointer on a point of the board (to see whether the client lights the tile under it)."""
        self.input().park(x, y)

    # -- the screen ---------------------------------------------------------------------------------
    def grab(self, region: Rect | None = None) -> np.ndarray:
        return self.screen.grab(region)

    def pause(self, seconds: float) -> None:
        self.clock.sleep(seconds)

    def settle(self, region: Rect | None = None, before: np.ndarray | None = None, *, quiet: float,
               timeout: float, poll: float, stillness: Callable[[np.ndarray], float] | None = None) -> Settled:
        """Wait until ``region`` of the screen (the whole screen: None) has changed from ``before`` and then held
        still, or ``timeout`` seconds have passed.

        Without ``before`` no change is needed: the region only has to hold still. The stillness that ends the
        wait is ``quiet`` seconds, or what ``stillness`` says for the frame last seen (it is asked at each
        change: a wait can end sooner once the frame shows a complete answer). The region is grabbed every
        ``poll`` seconds."""
        clock = self.clock
        start = clock.now()
        last = self.grab(region) if before is None else before
        changed_at = start if before is None else None
        still_since = start
        needed = quiet
        longest_pause = 0.0
        while clock.now() - start < timeout:
            now = self.grab(region)
            moment = clock.now()
            if not same_frame(now, last):
                if changed_at is None:
                    changed_at = moment
                else:
                    longest_pause = max(longest_pause, moment - still_since)
                last, still_since = now, moment
                needed = quiet if stillness is None else stillness(now)
            elif changed_at is not None and moment - still_since >= needed:
                return Settled(last, changed_at, longest_pause, True)
            clock.sleep(poll)
        return Settled(last, changed_at, longest_pause, False)

    def answer(self, region: Rect, before: np.ndarray | None, waits: Waits,
               cells: Sequence[Rect] = ()) -> Settled:
        """Wait for the client's answer to the input just sent: ``region`` changes from ``before`` (its pixels
        then; None: no change needed) and holds still, as ``waits`` says at the client's pace, which it learns.

        With ``cells`` (screen rectangles inside ``region``, the cells clicked), an answer that changed every one
        of them is complete once it held still for the client's repaint time; otherwise it needs the longer
        quiet. A change over most of the region is waited out with ``waits.flash_quiet``, when it has one."""
        pace = self.pace
        start = self.clock.now()
        sent, self.clicked_at = self.clicked_at, 0.0
        if cells:
            quiet = pace.quiet(waits)
            repaint = pace.repaint(waits)
            spots = [(c.x - region.x, c.y - region.y, c.w, c.h) for c in cells]
            old = before

            def stillness(now: np.ndarray) -> float:
                complete = old is not None and all(
                    not same_frame(now[y:y + h, x:x + w], old[y:y + h, x:x + w]) for x, y, w, h in spots)
                return repaint if complete and repaint is not None else quiet
        else:
            quiet = pace.stillness(waits)
            stillness = None  # type: ignore[assignment]
        poll = min(waits.poll, max(MIN_POLL, quiet / POLLS_PER_QUIET))
        first = self.grab(region) if before is None else before
        result = self.settle(region, before, quiet=quiet, timeout=pace.timeout(waits) + quiet, poll=poll,
                             stillness=stillness)
        if before is not None and result.changed_at is not None:
            if sent:
                pace.latency(result.changed_at - sent)  # at most this long after the click, the client answered
            if result.still:
                pace.answered(result.changed_at - start, result.longest_pause)
        flash = waits.flash_quiet
        if flash is not None and quiet < flash and changed_share(first, result.frame) > FLASH_SHARE:
            return self.settle(region, None, quiet=flash, timeout=waits.timeout + flash, poll=poll)
        return result

    def late_answer(self, region: Rect, before: np.ndarray, timeout: float) -> bool:
        """Whether ``region`` changes from ``before`` (its pixels when the board was read) within ``timeout``
        seconds: a client that answers clicks late. The client's pace is not learnt from it."""
        return self.settle(region, before, quiet=0.0, timeout=timeout, poll=LATE_POLL).changed_at is not None

    def hold_still(self, region: Rect | None = None, quiet: float = HOLD_QUIET,
                   timeout: float = HOLD_TIMEOUT) -> np.ndarray:
        """The last grab once ``region`` (the whole screen: None) has not changed for ``quiet`` seconds, or
        ``timeout`` seconds have passed."""
        return self.settle(region, quiet=quiet, timeout=timeout,
                           poll=min(0.05, max(MIN_POLL, quiet / 4))).frame

    def wait_until(self, check: Callable[[], T | None], timeout: float, poll: float) -> T | None:
        """Call ``check`` (it looks at the screen itself) every ``poll`` seconds until it returns something, at
        most ``timeout`` seconds (it is called at least once); what it returned, or None."""
        start = self.clock.now()
        while True:
            found = check()
            if found is not None:
                return found
            if self.clock.now() - start >= timeout:
                return None
            self.clock.sleep(poll)

    def overlay_gone(self, frame: np.ndarray) -> np.ndarray | None:
        """``frame`` (a whole grab) when nothing lies over the board's edge on it, else the whole screen once the
        toast or pop-up there went by itself (at most OVERLAY_WAIT s), or None if it stayed (a dialog: the
        client's overlays are not waited for again, unless one was seen to go before)."""
        overlays = self.overlays
        if not overlays.laid_over(frame):
            return frame

        def gone() -> np.ndarray | None:
            now = self.grab()
            return None if overlays.laid_over(now) else now

        clear = self.wait_until(gone, OVERLAY_WAIT, OVERLAY_POLL)
        if clear is None:
            overlays.stayed()
        else:
            overlays.went()
        return clear


def changed_share(before: np.ndarray, after: np.ndarray) -> float:
    """The share of pixels that differ between two grabs of one region (1.0 when their sizes differ)."""
    if before.shape != after.shape:
        return 1.0
    return float((np.abs(after.astype(np.int16) - before.astype(np.int16)).max(axis=2) > 0).mean())
