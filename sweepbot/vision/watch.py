"""The game loop's view of the screen: find the board once, then re-read it frame after frame.

    with ScreenSource() as screen:
        eye = BoardWatcher(screen)          # or BoardWatcher(RecordedSource([...]))
        reading = eye.find()                # locate + choose the profile; raises LocateError/ReadError
        x, y = eye.screen_center(r, c)      # where to click, in screen coordinates
        reading = eye.read()                # each new frame: a few ms
"""

from __future__ import annotations

import numpy as np

from sweepbot.errors import SweepbotError
from sweepbot.vision.capture import FrameSource, Region
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile
from sweepbot.vision.read import Reading, read_located, read_screenshot


class BoardWatcher:
    """Holds the board's geometry and profile found on one frame, and reads new frames with them."""

    def __init__(self, source: FrameSource, profile: str | None = None) -> None:
        self.source = source
        self.profile_name = profile
        self._profile: Profile | None = None
        self._geometry: Geometry | None = None
        self._origin = (0, 0)
        self.last_frame: np.ndarray | None = None

    def _grab(self) -> np.ndarray:
        screen = self.source.monitors()[0].region
        self._origin = (screen.x, screen.y)
        frame = self.source.grab()
        self.last_frame = frame
        return frame

    def find(self) -> Reading:
        """Grab the whole screen, locate the board, pick the profile, read it."""
        reading = read_screenshot(self._grab(), profile=self.profile_name)
        if reading.scale != 1.0:
            raise SweepbotError(
                f"the board is drawn at {reading.scale:.2f}x a profile's cell size; calibrate a profile at this size"
            )
        self._profile = reading.profile
        self._geometry = reading.geometry
        return reading

    def read(self) -> Reading:
        """Grab a new frame and read it with the geometry and profile :meth:`find` found."""
        if self._geometry is None or self._profile is None:
            return self.find()
        return read_located(self._grab(), self._geometry, self._profile)

    @property
    def geometry(self) -> Geometry:
        """The board's cells in image coordinates of the grabbed frame."""
        if self._geometry is None:
            raise SweepbotError("the board has not been found yet")
        return self._geometry

    @property
    def screen_geometry(self) -> Geometry:
        """The board's cells in screen coordinates (monitor origins may be negative)."""
        return self.geometry.shifted(*self._origin)

    def screen_center(self, row: int, col: int) -> tuple[int, int]:
        """The screen pixel to click for a cell."""
        return self.screen_geometry.center(row, col)

    def board_region(self, margin: int = 0) -> Region:
        """The board's rectangle on the screen (to watch for changes)."""
        x, y, w, h = self.screen_geometry.bbox
        return Region(x - margin, y - margin, w + 2 * margin, h + 2 * margin)
