"""The mouse on one board: clicks only inside the board just read, with limits and the user's hand watched.

Every click names a point in screenshot pixels; ``BoardInput`` refuses any point outside the rectangle of
the board just read, maps it to input coordinates and notices when the user moves the mouse.

Input sent through XTEST is queued by the X server, not applied at once: while a window manager holds a
button press in its passive grab (openbox does on every click into a window, to focus and raise it), the
server freezes the pointer, and the motion of the next click or of the park stays queued until the window
manager lets the press through. The pointer read back then shows a position the bot left a moment ago.
``BoardInput`` keeps the trail of positions it sent since the pointer last showed where the bot put it: a
position on that trail is input still on its way, waited for; any other position is a person's hand.
"""

from __future__ import annotations

from sweepbot.clock import SYSTEM_CLOCK, Clock
from sweepbot.control.device import InputDevice
from sweepbot.control.errors import (
    ControlError,
    FocusElsewhere,
    InputHeld,
    LimitReached,
    OutsideBoardError,
    UserTookOver,
)
from sweepbot.control.keys import BROWSER, GAME_DIALOG, GAME_WINDOW, UNKNOWN, check_keys
from sweepbot.control.mapping import ScreenMapping
from sweepbot.rect import Rect

USER_MOVE_TOLERANCE = 3  # input units the pointer may drift before we call it the user's hand
#: Seconds the pointer may take to show the bot's last move before the bot gives up on its input
#: (a window manager that is slow to pass a press on, on a loaded machine, takes milliseconds)
CATCH_UP_TIMEOUT = 5.0
CATCH_UP_POLL = 0.0005


class BoardInput:
    """Clicks inside one board only, in screenshot pixels, with limits and the user's hand watched."""

    def __init__(self, device: InputDevice, mapping: ScreenMapping, max_clicks: int = 100_000,
                 clock: Clock = SYSTEM_CLOCK) -> None:
        self.device = device
        self.clock = clock
        self.mapping = mapping
        self.max_clicks = max_clicks
        self.clicks = 0
        self.refused = 0
        self.board: Rect | None = None
        #: where the pointer may be without a person having moved it: the last position it was seen at
        #: the bot's bidding, then every position sent since (the last one is where the bot left it)
        self._trail: list[tuple[int, int]] = []
        self._corners: set[tuple[int, int]] | None = None
        #: seconds each click holds the button down (0: a plain click), for a client that takes only a
        #: press held for a moment (calibration finds the shortest; the profile keeps it)
        self.hold = 0.0

    def allow(self, clicks: int) -> None:
        """Allow ``clicks`` more clicks from now on (a game's budget)."""
        self.max_clicks = self.clicks + clicks

    def set_board(self, bbox: Rect) -> None:
        """The rectangle (screenshot pixels) of the board just read: the only place clicks may go."""
        self.board = bbox

    def click_cell(self, x: float, y: float, button: str = "left") -> None:
        self.click_cells([(x, y)], button)

    def click_cells(self, points: list[tuple[float, float]], button: str = "left") -> None:
        """Click every point, in order: all inside the board or none (every point is checked first). The
        user's hand is looked for around every click, but the bot waits for the pointer to show its own moves
        only before the first click and after the last one, so a batch goes out without waiting on the X
        server between its clicks."""
        for x, y in points:
            if self.board is None or not self.board.contains(x, y):
                self.refused += 1
                raise OutsideBoardError(f"refused a click at ({x:.0f}, {y:.0f}): outside the board {self.board}")
        if self.clicks + len(points) > self.max_clicks:
            raise LimitReached(f"click limit of {self.max_clicks} reached")
        self.check_user()
        self._start_trail()
        for x, y in points:
            point = self.mapping.to_input(x, y)
            self._press(point, button)
            self.clicks += 1
            self._trail.append(point)
            self.check_user(wait=False)
        self.check_user()  # a hand that moved the mouse during the clicks

    def click_new_game(self, x: float, y: float, allowed: Rect) -> None:
        """The one click allowed off the board: a client's new-game face, inside ``allowed``."""
        if not allowed.contains(x, y):
            self.refused += 1
            raise OutsideBoardError(f"refused a new-game click at ({x:.0f}, {y:.0f}): outside {allowed}")
        self._click(x, y, "left")

    def window_at(self, x: float, y: float) -> Rect | None:
        """The client area of the window at ``(x, y)`` in screenshot pixels, where the device can tell."""
        found = getattr(self.device, "window_at", None)
        area = found(*self.mapping.to_input(x, y)) if found is not None else None
        if area is None:
            return None
        x0, y0 = self.mapping.to_capture(area[0], area[1])
        x1, y1 = self.mapping.to_capture(area[0] + area[2], area[1] + area[3])
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def focus(self) -> str:
        """Where keys go now (``control.keys``): the game's own window when the window with the focus is the one
        under the board just read and not a browser's, a dialog of the game (another window of its program), a
        browser's window, or not known. Keys never go to another window: ControlError."""
        asked = getattr(self.device, "focus_of", None)
        if asked is None or self.board is None:
            return UNKNOWN
        x, y = self.mapping.to_input(self.board.x + self.board.w / 2, self.board.y + self.board.h / 2)
        found = asked(x, y)
        if found is None:
            return UNKNOWN
        if found not in (GAME_WINDOW, GAME_DIALOG, BROWSER):
            raise FocusElsewhere(f"the keyboard focus is on another window ({found}), not the game's: no key pressed")
        return str(found)

    def keys_reach_the_board(self) -> bool:
        """Whether keys are known to go to the window the board is in: not a dialog of the game, not another
        window, not a device that cannot tell."""
        try:
            return self.focus() == GAME_WINDOW
        except FocusElsewhere:
            return False

    def check_keys(self, combos: list[list[str]]) -> None:
        """CommandKeyError for a combination that is a command where the keys would go now."""
        check_keys(combos, self.focus())

    def press(self, keys: list[str]) -> None:
        """Press ``keys`` together; never a combination a browser or desktop takes as a command, never into a
        window that is not the game's."""
        self.check_keys([keys])
        self.check_user()
        self.device.press(keys)

    def park(self, x: float, y: float) -> None:
        """Move the pointer off the board (never into a corner) so it does not cover or light a tile."""
        self.check_user()
        point = self.mapping.to_input(x, y)
        self._start_trail()
        self.device.move(*point)
        self._trail.append(point)

    def pointer(self) -> tuple[float, float]:
        """Where the pointer is now, in screenshot pixels."""
        return self.mapping.to_capture(*self.device.position())

    def hand_back(self) -> None:
        """The user had the mouse, asked to (to show a new-game control): where the pointer is now is where
        the bot left it, and moves from here on are a person's again."""
        self._trail = [self.device.position()]

    def check_user(self, wait: bool = True) -> None:
        """Stop if the pointer is not where the bot left it: the user has taken the mouse.

        A position the bot sent earlier is input the X server has not applied yet: with ``wait``, wait for it
        to catch up (at most CATCH_UP_TIMEOUT seconds), so the bot's own moves never read as a person's;
        without, accept it as it is."""
        if not self._trail:
            return
        last = self._trail[-1]
        waited_since: float | None = None
        while True:
            x, y = self.device.position()
            if (x, y) in self.corners():
                raise UserTookOver(f"the mouse was pushed into a screen corner ({x}, {y}): stopping")
            if _near((x, y), last):
                self._trail = [last]
                return
            seen = [i for i, earlier in enumerate(self._trail[:-1]) if _near((x, y), earlier)]
            if not seen:
                raise UserTookOver(f"the mouse moved to ({x}, {y}) (the bot left it at {last}): stopping")
            self._trail = self._trail[seen[0]:]  # the pointer has gone past the positions before it
            if not wait:
                return
            now = self.clock.now()
            if waited_since is None:
                waited_since = now
            elif now - waited_since > CATCH_UP_TIMEOUT:
                raise InputHeld(f"the pointer stayed at ({x}, {y}) for {CATCH_UP_TIMEOUT:.0f} s after the bot "
                                f"moved it to {last}: another program holds the mouse")
            self.clock.sleep(CATCH_UP_POLL)

    def corners(self) -> set[tuple[int, int]]:
        """The screen's corners: a pointer pushed into one stops the bot (the bot never sends it there)."""
        if self._corners is None:
            w, h = self.device.size()
            self._corners = {(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)}
        return self._corners

    def _click(self, x: float, y: float, button: str) -> None:
        self.check_user()
        point = self.mapping.to_input(x, y)
        self._start_trail()
        self._press(point, button)
        self.clicks += 1
        self._trail.append(point)
        self.check_user()  # a hand that moved the mouse during the click

    def _press(self, point: tuple[int, int], button: str) -> None:
        """A click at ``point`` (input units), the button held ``hold`` seconds when the client wants it."""
        if not self.hold:
            self.device.click(point[0], point[1], button)
            return
        holding = getattr(self.device, "hold_click", None)
        if holding is None:
            raise ControlError("this input device cannot hold a button down, and the client takes only held "
                               "presses")
        holding(point[0], point[1], button, self.hold)

    def _start_trail(self) -> None:
        """Before the bot's first move, the pointer's own position is where it may still be seen."""
        if not self._trail:
            self._trail.append(self.device.position())


def _near(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) <= USER_MOVE_TOLERANCE and abs(a[1] - b[1]) <= USER_MOVE_TOLERANCE
