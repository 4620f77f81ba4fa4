"""A route: a frame source and the input device whose input lands where its frames show, with a name that
every message about it carries."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

from sweepbot.control.device import InputDevice
from sweepbot.errors import SweepbotError
from sweepbot.vision.capture import FrameSource

#: every route, in the order ``--route`` lists them
ROUTES = ("x11", "xwayland", "mutter", "portal", "pyautogui")
#: what each route is, for messages and ``--help``
ABOUT = {
    "x11": "an X11 screen: mss grabs, XTEST input",
    "xwayland": "the X11 windows of a Wayland session: each read from its own pixels, XTEST input through Xwayland",
    "mutter": "GNOME's own remote-desktop interfaces (org.gnome.Mutter): frames over PipeWire, input through mutter",
    "portal": "the desktop portal's ScreenCast and RemoteDesktop (xdg-desktop-portal): frames over PipeWire, "
              "input through the compositor, allowed once by the user",
    "pyautogui": "mss grabs and pyautogui input (Windows, macOS; X11 too)",
}


class RouteError(SweepbotError):
    """A route cannot be opened here; the message names the route and what the user can do."""


@dataclass
class Route:
    """Frames from ``source``; input from the device ``open_device`` makes, opened only when input is sent (a
    dry run opens none). ``closers`` end what the route started (a remote-desktop session, a stream)."""

    name: str
    source: FrameSource
    open_device: Callable[[], InputDevice]
    closers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def about(self) -> str:
        return f"{self.name} ({ABOUT[self.name]})"

    def close(self) -> None:
        for close in reversed(self.closers):
            with contextlib.suppress(Exception):
                close()
        self.closers.clear()
        with contextlib.suppress(Exception):
            self.source.close()
