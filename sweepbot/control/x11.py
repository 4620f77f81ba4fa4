"""Input on an X11 display through the XTEST extension (python-xlib): motion, buttons and keys.

A click waits on the X server twice. A window manager that grabs the buttons (openbox's stock settings do,
to focus and raise the window clicked) holds each press until it has passed it on, and the server keeps
later input queued meanwhile: a press sent before the pointer reached its cell, or a release sent while the
press is held, does not reach the game. So a click moves the pointer and waits until it shows there, presses,
moves it one pixel further and waits until that shows (the press has been passed on), and releases. Each
wait asks where the pointer is, and the server answers only after handling the input sent before the
question, so the input of a click goes out without a round trip of its own. A wait is usually a fraction of
a millisecond; a click takes about 0.3 ms on an idle virtual display.
Key names are pyautogui's (``f2``, ``ctrl``, ``n``).
"""

from __future__ import annotations

import contextlib
import io
import os
import time
from typing import Any

from sweepbot.control.errors import ControlError, InputHeld, UserTookOver
from sweepbot.control.keys import BROWSER, BROWSERS, GAME_DIALOG, GAME_WINDOW
from sweepbot.control.xauth import xlib_cookie

BUTTONS = {"left": 1, "middle": 2, "right": 3}
#: Times the window at a point is looked for when windows close while it is looked at.
WINDOW_LOOKS = 3
#: seconds the pointer may take to reach a cell before the click is given up (a window manager that holds a
#: press that long has stopped passing input on)
REACH_TIMEOUT = 5.0
#: seconds the pointer is asked for again at once, without a pause, while waiting for it to reach a point: a
#: window manager passes a press on within a fraction of a millisecond, and a pause of the shortest sleep
#: the system gives would cost more than the wait itself
ASK_AT_ONCE = 0.002
#: pyautogui's key names that are not X keysym names
KEYSYMS = {
    "ctrl": "Control_L", "ctrlleft": "Control_L", "ctrlright": "Control_R", "shift": "Shift_L",
    "shiftleft": "Shift_L", "shiftright": "Shift_R", "alt": "Alt_L", "altleft": "Alt_L", "altright": "Alt_R",
    "win": "Super_L", "super": "Super_L", "escape": "Escape", "esc": "Escape", "enter": "Return",
    "return": "Return", "tab": "Tab", "space": " ", "backspace": "BackSpace", "delete": "Delete",
    "del": "Delete", "insert": "Insert", "home": "Home", "end": "End", "pageup": "Prior", "pagedown": "Next",
    "up": "Up", "down": "Down", "left": "Left", "right": "Right",
    **{f"f{n}": f"F{n}" for n in range(1, 25)},
}


class XTestDevice:
    """The X11 display named by ``DISPLAY``: clicks, moves and keys through XTEST, the pointer read back."""

    def __init__(self, display: str | None = None) -> None:
        said = io.StringIO()
        try:
            # python-xlib prints warnings (an X authority file without this display) on stdout and stderr
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                from Xlib import XK, X
                from Xlib import display as xdisplay
                from Xlib import error as xerror
                from Xlib.ext import xtest

                with xlib_cookie(display):
                    self._display: Any = xdisplay.Display(display)
            if not self._display.has_extension("XTEST"):
                raise ControlError("the X server has no XTEST extension: input cannot be sent")
        except ControlError:
            raise
        except Exception as err:  # python-xlib raises many kinds when no display can be opened
            raise ControlError(f"cannot open the display {display or os.environ.get('DISPLAY', '')} for input: "
                               f"{err} {said.getvalue().strip()}") from None
        self._X: Any = X
        self._XK: Any = XK
        self._fake: Any = xtest.fake_input
        self._XError: Any = xerror.XError
        self._root: Any = self._display.screen().root
        self._sent: tuple[int, int] | None = None  # the last position sent
        #: each top-level window's client window (found once: the search asks the server at every window)
        self._clients: dict[int, Any] = {}

    def position(self) -> tuple[int, int]:
        reply = self._call(self._root.query_pointer)
        return (int(reply.root_x), int(reply.root_y))

    def move(self, x: int, y: int) -> None:
        self._send([(self._X.MotionNotify, 0, x, y)])
        self._sent = (x, y)

    def click(self, x: int, y: int, button: str) -> None:
        """Move to ``(x, y)`` and press ``button`` once the pointer is there; release it one pixel to the right
        once the press has gone through. A pointer seen anywhere but where the bot put it last or is putting
        it now is a person's hand: UserTookOver."""
        number = BUTTONS[button]
        self._reach(x, y)
        self._send([(self._X.ButtonPress, number, 0, 0)], wait=False)
        self._reach(x + 1, y)
        self._send([(self._X.ButtonRelease, number, 0, 0)], wait=False)

    def hold_click(self, x: int, y: int, button: str, seconds: float) -> None:
        """A click with ``button`` held down ``seconds`` (a client that takes only a press held a moment)."""
        number = BUTTONS[button]
        self._reach(x, y)
        self._send([(self._X.ButtonPress, number, 0, 0)])
        time.sleep(seconds)
        self._reach(x + 1, y)
        self._send([(self._X.ButtonRelease, number, 0, 0)])

    def press(self, keys: list[str]) -> None:
        """Press the keys in order and release them in reverse (a combination such as ctrl, n)."""
        codes = [self._keycode(key) for key in keys]
        events = [(self._X.KeyPress, code, 0, 0) for code in codes]
        events += [(self._X.KeyRelease, code, 0, 0) for code in reversed(codes)]
        self._send(events)

    def window_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        """The client area (x, y, w, h) of the top-level window at ``(x, y)``: the window its program draws
        in, without the window manager's frame and title bar; None where there is no window."""

        def once() -> tuple[int, int, int, int] | None:
            top = self._root.translate_coords(self._root, x, y).child
            if not top:
                return None
            client = self._clients.get(top.id)
            if client is not None:
                try:
                    return self._client_area(client)
                except self._XError:  # the client window is gone (its program drew another, or ended)
                    del self._clients[top.id]
            client = self._client_of(top)
            if client is not None:
                self._clients[top.id] = client
            return self._client_area(client or top)

        def area() -> tuple[int, int, int, int] | None:
            for _ in range(WINDOW_LOOKS):
                try:
                    return once()
                except self._XError:  # a window closed while it was looked at: the one on top now, again
                    continue
            return None

        result: tuple[int, int, int, int] | None = self._call(area)
        return result

    def focus_of(self, x: int, y: int) -> str | None:
        """Where keys go, seen from the window at ``(x, y)`` (the game's): ``game`` when the window with the
        keyboard focus is that window and not a browser's, ``game dialog`` when it is another window of the
        same program (a dialog it opened), ``browser`` when the program is a browser, else the name of the
        window that has the focus ("nothing" when none has it)."""

        def look() -> str | None:
            focus = self._display.get_input_focus().focus
            if not hasattr(focus, "query_tree"):  # None or PointerRoot: no window has the focus
                return "nothing"
            focused = self._top_of(focus)
            here = self._root.translate_coords(self._root, x, y).child
            if not here:
                return "nothing under the board"
            client = self._client_of(here) or here
            elsewhere = focused is None or focused.id != here.id
            if elsewhere:
                other = self._client_of(focused) if focused is not None else None
                if other is None or not self._same_program(client, other):
                    return self._text(other or focus, "WM_NAME") or "a window with no name"
            names = [name.lower() for name in self._text(client, "WM_CLASS").split("\0")]
            if any(name in BROWSERS for name in names):
                return BROWSER
            return GAME_DIALOG if elsewhere else GAME_WINDOW

        found: str | None = self._call(look)
        return found

    def _same_program(self, game: Any, other: Any) -> bool:
        """Whether window ``other`` is the game's own too (a dialog it opened): the same process, by the
        windows' _NET_WM_PID, a window that names the game's window as the one it belongs to, or the same
        program by its WM_CLASS (a Tk program's windows carry no process id)."""
        pid = self._display.intern_atom("_NET_WM_PID")
        mine, theirs = (w.get_full_property(pid, self._X.AnyPropertyType) for w in (game, other))
        if mine is not None and theirs is not None and list(mine.value) == list(theirs.value):
            return True
        owner = other.get_full_property(self._display.intern_atom("WM_TRANSIENT_FOR"), self._X.AnyPropertyType)
        if owner is not None and game.id in list(owner.value):
            return True
        program = self._text(game, "WM_CLASS")
        return bool(program) and program == self._text(other, "WM_CLASS")

    def _text(self, window: Any, name: str) -> str:
        """A window's text property (its parts split by NUL, as WM_CLASS keeps them); "" when it has none."""
        found = window.get_full_property(self._display.intern_atom(name), self._X.AnyPropertyType)
        if found is None:
            return ""
        value = found.value
        return (value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)).strip("\0")

    def _top_of(self, window: Any) -> Any:
        """The top-level window (a child of the root) that holds ``window``; None for the root itself."""
        while True:
            parent = window.query_tree().parent
            if not parent or parent.id == self._root.id:
                return None if window.id == self._root.id else window
            window = parent

    def _client_of(self, top: Any) -> Any:
        """The ICCCM client window of top-level window ``top``: the one with WM_STATE, inside the window
        manager's frame (None when there is none, or not yet: the window manager sets it)."""
        state = self._display.intern_atom("WM_STATE")
        todo = [top]
        while todo:
            window = todo.pop(0)
            if window.get_full_property(state, self._X.AnyPropertyType) is not None:
                return window
            todo += window.query_tree().children
        return None

    def _client_area(self, client: Any) -> tuple[int, int, int, int]:
        geometry = client.get_geometry()
        corner = self._root.translate_coords(client, 0, 0)
        return (int(corner.x), int(corner.y), int(geometry.width), int(geometry.height))

    def size(self) -> tuple[int, int]:
        screen = self._display.screen()
        return (int(screen.width_in_pixels), int(screen.height_in_pixels))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._display.close()

    # -- helpers -----------------------------------------------------------------------------------------
    def _reach(self, x: int, y: int) -> None:
        before, self._sent = self._sent, (x, y)
        self._send([(self._X.MotionNotify, 0, x, y)], wait=False)
        start = time.monotonic()
        deadline = start + REACH_TIMEOUT
        while True:
            seen = self.position()
            if seen == (x, y):
                return
            if before is not None and seen != before:
                raise UserTookOver(f"the mouse moved to {seen} (the bot was moving it to {(x, y)}): stopping")
            if time.monotonic() > deadline:
                raise InputHeld(f"the pointer stayed at {seen} for {REACH_TIMEOUT:.0f} s after the bot moved it "
                                f"to {(x, y)}: another program holds the mouse")
            if time.monotonic() - start > ASK_AT_ONCE:
                time.sleep(0.0001)

    def _keycode(self, key: str) -> int:
        name = KEYSYMS.get(key.lower(), key)
        keysym = self._XK.string_to_keysym(name) if len(name) > 1 else ord(name)
        code = int(self._display.keysym_to_keycode(keysym)) if keysym else 0
        if not code:
            raise ControlError(f"no key named {key!r} on this keyboard")
        return code

    def _send(self, events: list[tuple[int, int, int, int]], wait: bool = True) -> None:
        """Send fake input; with ``wait``, return once the X server has handled it, else once it is sent (a
        pointer query that follows is answered only after the server has handled what was sent before)."""

        def send() -> None:
            for kind, detail, x, y in events:
                if kind == self._X.MotionNotify:
                    self._fake(self._display, kind, x=x, y=y)
                else:
                    self._fake(self._display, kind, detail)
            if wait:
                self._display.sync()
            else:
                self._display.flush()

        self._call(send)

    def _call(self, fn: Any) -> Any:
        try:
            return fn()
        except ControlError:
            raise
        except Exception as err:  # python-xlib raises many kinds once the X server is gone
            raise ControlError(f"input cannot be sent: the display {os.environ.get('DISPLAY', '')} is gone "
                               f"({type(err).__name__})") from None
