"""The input device: a small interface with one backend per platform, and the one that fits this session.

On X11 the XTEST backend (``x11.py``) sends input; elsewhere pyautogui (``pyautogui_device.py``). Both are
imported only when input is about to be sent, so that everything else works with no display.
"""

from __future__ import annotations

import os
import sys
from typing import Protocol

from sweepbot.control.errors import ControlError


class InputDevice(Protocol):
    def position(self) -> tuple[int, int]: ...
    def move(self, x: int, y: int) -> None: ...
    def click(self, x: int, y: int, button: str) -> None: ...
    def press(self, keys: list[str]) -> None: ...
    def size(self) -> tuple[int, int]: ...
    def window_at(self, x: int, y: int) -> tuple[int, int, int, int] | None: ...


def wayland_session() -> bool:
    """Whether this is a Wayland session (its X11 windows, if any, drawn through Xwayland)."""
    return os.environ.get("XDG_SESSION_TYPE") == "wayland" or bool(os.environ.get("WAYLAND_DISPLAY"))


def open_device() -> InputDevice:
    """The input device for this session; a clear ControlError where no input can be sent (no display,
    a Wayland session)."""
    if sys.platform.startswith("linux"):
        if wayland_session() and not os.environ.get("DISPLAY"):
            # with DISPLAY set (Xwayland), input goes to the X11 windows of the session, as under X11
            raise ControlError("this is a Wayland session without X11 (no DISPLAY): XTEST input cannot be sent; "
                               "the mutter and portal routes send input through the compositor")
        if not os.environ.get("DISPLAY"):
            raise ControlError("no display: DISPLAY is not set")
        ensure_xauthority()
        from sweepbot.control.x11 import XTestDevice

        return XTestDevice()
    from sweepbot.control.pyautogui_device import PyAutoGuiDevice

    return PyAutoGuiDevice()


def ensure_xauthority() -> None:
    """python-xlib refuses to open a display when the X authority file is missing, even for a server that
    needs none (Xvfb started without -auth). Point it at an empty file in that case (no file is made)."""
    if os.name != "posix" or os.environ.get("XAUTHORITY"):
        return
    if not os.path.exists(os.path.expanduser("~/.Xauthority")):
        os.environ["XAUTHORITY"] = os.devnull
