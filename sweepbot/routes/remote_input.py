"""Input through a desktop's remote-desktop session: the pointer placed in the cast stream's own pixels, buttons
and keys, each sent as the compositor's interface asks (GNOME's Mutter interface and the portal differ only in
how a call is put).

The compositor does not tell where the pointer is: this device reports the last place it put it, so a hand on
the mouse is not seen by it (docs/screens.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sweepbot.control.errors import ControlError

#: Seconds the first pointer motion of a session is given to take effect: mutter places a new virtual pointer
#: only after a moment, and a press sent sooner goes where the pointer was (measured: a left click sent at once
#: after the first motion opened no cell in 3 of 3 fresh sessions, 0.2 s after it opened one in 3 of 3)
FIRST_MOTION_SETTLE = 0.2
#: The key tapped before a session's first key: mutter drops the first key event of a new virtual keyboard
#: (seen: the first of n, Escape, b reached no window, the next two did), and a lone Shift does nothing where
#: it does arrive
WAKE_KEY = "shift"
#: Linux input event codes of the mouse buttons, as the remote-desktop interfaces take them
BUTTONS = {"left": 0x110, "right": 0x111, "middle": 0x112}
#: pyautogui's key names that are not X keysym names (the keysyms the interfaces take are X11's)
KEYSYM_NAMES = {
    "ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "escape": "Escape", "esc": "Escape",
    "enter": "Return", "return": "Return", "tab": "Tab", "space": "space", "backspace": "BackSpace",
    "delete": "Delete", "home": "Home", "end": "End", "up": "Up", "down": "Down", "left": "Left",
    "right": "Right", **{f"f{n}": f"F{n}" for n in range(1, 25)},
}
#: keysyms of the keys whose names are one character, and of the named keys above (X11's keysymdef.h)
NAMED_KEYSYMS = {
    "Control_L": 0xFFE3, "Shift_L": 0xFFE1, "Alt_L": 0xFFE9, "Escape": 0xFF1B, "Return": 0xFF0D, "Tab": 0xFF09,
    "space": 0x20, "BackSpace": 0xFF08, "Delete": 0xFFFF, "Home": 0xFF50, "End": 0xFF57, "Up": 0xFF52,
    "Down": 0xFF54, "Left": 0xFF51, "Right": 0xFF53, **{f"F{n}": 0xFFBE + n - 1 for n in range(1, 25)},
}


def keysym(key: str) -> int:
    """The X keysym of a key named as pyautogui names it (``f2``, ``n``, ``ctrl``)."""
    name = KEYSYM_NAMES.get(key.lower(), key)
    if name in NAMED_KEYSYMS:
        return NAMED_KEYSYMS[name]
    if len(name) == 1 and 0x20 <= ord(name) <= 0x7E:
        return ord(name.lower())
    raise ControlError(f"no key named {key!r} for the remote-desktop session")


class RemoteInput:
    """An input device over a remote-desktop session: ``motion(x, y)`` in stream pixels, ``button(code,
    pressed)``, ``key(keysym, pressed)``; ``size`` is the stream's."""

    def __init__(self, motion: Callable[[float, float], None], button: Callable[[int, bool], None],
                 key: Callable[[int, bool], None], size: tuple[int, int]) -> None:
        self._motion, self._button, self._key = motion, button, key
        self._size = size
        self._at = (size[0] // 2, size[1] // 2)
        self._moved = False
        self._typed = False

    def position(self) -> tuple[int, int]:
        return self._at

    def move(self, x: int, y: int) -> None:
        self._send(self._motion, float(x), float(y))
        self._at = (x, y)
        if not self._moved:
            self._moved = True
            time.sleep(FIRST_MOTION_SETTLE)

    def click(self, x: int, y: int, button: str) -> None:
        self.hold_click(x, y, button, 0.0)

    def hold_click(self, x: int, y: int, button: str, seconds: float) -> None:
        code = BUTTONS[button]
        self.move(x, y)
        self._send(self._button, code, True)
        if seconds:
            time.sleep(seconds)
        self._send(self._button, code, False)

    def press(self, keys: list[str]) -> None:
        """Press the keys in order and release them in reverse (a combination such as ctrl, n)."""
        syms = [keysym(key) for key in keys]
        if not self._typed:
            self._typed = True
            self._tap(keysym(WAKE_KEY))
        for sym in syms:
            self._send(self._key, sym, True)
        for sym in reversed(syms):
            self._send(self._key, sym, False)

    def _tap(self, sym: int) -> None:
        self._send(self._key, sym, True)
        self._send(self._key, sym, False)

    def size(self) -> tuple[int, int]:
        return self._size

    def window_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        """Windows are not known through a remote-desktop session."""
        return None

    @staticmethod
    def _send(fn: Callable[..., None], *args: object) -> None:
        try:
            fn(*args)
        except ControlError:
            raise
        except Exception as err:  # the bus or the session went
            raise ControlError(f"input cannot be sent through the remote-desktop session: {err}") from None
