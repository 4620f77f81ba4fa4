"""The live screen and input device, put together as a watcher: what ``sweepbot play`` and ``sweepbot calibrate
--live`` look and click with, through the route that fits the desktop (``sweepbot.routes``)."""

from __future__ import annotations

import numpy as np

from sweepbot.control.device import wayland_session
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.routes.choose import XWAYLAND_HOW, open_route
from sweepbot.routes.route import Route
from sweepbot.watch.watcher import Watcher


class ScreenGrabber:
    """The live screen as the bot wants it: whole frames and regions of them, in frame pixels, through one
    route (``auto``: the one that shows a board here)."""

    def __init__(self, route: str | Route = "auto") -> None:
        self.route = route if isinstance(route, Route) else open_route(route)
        self.source = self.route.source
        whole = self.source.monitors()[0].region
        self.origin = (whole.x, whole.y)

    def grab(self, region: Rect | None = None) -> np.ndarray:
        if region is None:
            frame = self.source.grab()
            check_capture(frame, self.route.name)
            return frame
        return self.source.grab(Rect(region.x + self.origin[0], region.y + self.origin[1], region.w, region.h))

    def close(self) -> None:
        self.route.close()


def check_capture(frame: np.ndarray, route: str) -> None:
    """Refuse a whole screen that reads all black in a Wayland session: what the route shows is not what is on
    the screen, and no click may go there. (An X11 screen may be black: it shows no board, the reader says.)"""
    if frame.size and int(frame.max()) == 0 and (route != "x11" or wayland_session()):
        advice = {"x11": "in a Wayland session use the xwayland route (the default there)",
                  "xwayland": f"no X11 window shows: {XWAYLAND_HOW}, or play a native window through the mutter "
                              "or portal route"}.get(route, "is the game's window on the screen this route shows?")
        raise SweepbotError(f"route {route}: the screen reads all black; {advice}")


def live_watcher(screen: ScreenGrabber, inputs: bool = True) -> Watcher:
    """A watcher of the live screen, with the route's input device (none with ``inputs`` False: a dry run)."""
    if not inputs:
        return Watcher(screen)
    from sweepbot.control.mapping import mapping_for
    from sweepbot.control.mouse import BoardInput

    frame = screen.grab()
    device = screen.route.open_device()
    mapping = mapping_for((frame.shape[1], frame.shape[0]), screen.origin, device.size())
    return Watcher(screen, BoardInput(device, mapping))
