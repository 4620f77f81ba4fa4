"""The live screen and input device, put together as a watcher: what ``sweepbot play`` and ``sweepbot calibrate
--live`` look and click with."""

from __future__ import annotations

import os
import sys

import numpy as np

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
            return self.source.grab()
        return self.source.grab(Rect(region.x + self.origin[0], region.y + self.origin[1], region.w, region.h))


def check_session() -> None:
    """Refuse at once where no input can be sent: no display, or a Wayland session."""
    if sys.platform.startswith("linux"):
        if os.environ.get("XDG_SESSION_TYPE") == "wayland" and not os.environ.get("DISPLAY"):
            raise SweepbotError("this is a Wayland session without X11: sweepbot cannot see or click other windows")
        if not os.environ.get("DISPLAY"):
            raise SweepbotError("no display: DISPLAY is not set (start the game on an X11 screen first)")


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
