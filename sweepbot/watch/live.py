"""The live screen and input device, put together as a watcher: what ``sweepbot play`` and ``sweepbot calibrate
--live`` look and click with."""

from __future__ import annotations

import os
import sys

import numpy as np

from sweepbot.control.device import XWAYLAND_HOW, wayland_session
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.watch.watcher import Watcher


class ScreenGrabber:
    """The live screen as the bot wants it: whole frames and regions of them, in frame pixels."""

    def __init__(self) -> None:
        from sweepbot.vision import ScreenSource

        self.source = ScreenSource()
        whole = self.source.monitors()[0].region
        self.origin = (whole.x, whole.y)

    def grab(self, region: Rect | None = None) -> np.ndarray:
        if region is None:
            frame = self.source.grab()
            check_capture(frame)
            return frame
        return self.source.grab(Rect(region.x + self.origin[0], region.y + self.origin[1], region.w, region.h))


def check_session() -> None:
    """Refuse at once where no input can be sent: no display, or a Wayland session without X11."""
    if sys.platform.startswith("linux"):
        if wayland_session() and not os.environ.get("DISPLAY"):
            raise SweepbotError("this is a Wayland session without X11 (no DISPLAY): sweepbot cannot see or click "
                                f"native Wayland windows; {XWAYLAND_HOW}")
        if not os.environ.get("DISPLAY"):
            raise SweepbotError("no display: DISPLAY is not set (start the game on an X11 screen first)")


def check_capture(frame: np.ndarray) -> None:
    """Refuse a screen that reads all black in a Wayland session: Xwayland shows sweepbot only X11 windows, and
    a game drawn natively by the compositor is not among them."""
    if wayland_session() and frame.size and int(frame.max()) == 0:
        raise SweepbotError("the screen reads all black: in a Wayland session sweepbot sees only windows drawn "
                            f"through Xwayland, and no such window shows; {XWAYLAND_HOW}")


def live_watcher(screen: ScreenGrabber, inputs: bool = True) -> Watcher:
    """A watcher of the live screen, with the desktop's input device (none with ``inputs`` False: a dry run)."""
    if not inputs:
        return Watcher(screen)
    from sweepbot.control.device import open_device
    from sweepbot.control.mapping import mapping_for
    from sweepbot.control.mouse import BoardInput

    frame = screen.grab()
    device = open_device()
    mapping = mapping_for((frame.shape[1], frame.shape[0]), screen.origin, device.size())
    return Watcher(screen, BoardInput(device, mapping))
