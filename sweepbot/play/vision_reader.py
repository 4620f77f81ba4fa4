"""The loop's reader on top of vision: find the board once, re-read it each frame, find it again if it moved."""

from __future__ import annotations

import numpy as np

from sweepbot.errors import SweepbotError
from sweepbot.play.view import BoardView
from sweepbot.vision import Geometry, Profile, Reading, read_located, read_screenshot


class VisionReader:
    """Reads frames with the geometry and profile found on the first one. When a frame no longer reads at
    the old place (the window moved), the board is located afresh; only a board read in full is returned."""

    def __init__(self, profile: str | None = None) -> None:
        self.profile_name = profile
        self.geometry: Geometry | None = None
        self.profile: Profile | None = None
        self.relocations = 0

    def read(self, frame: np.ndarray) -> BoardView:
        return to_view(self.read_vision(frame))

    def read_vision(self, frame: np.ndarray) -> Reading:
        if self.geometry is not None and self.profile is not None:
            try:
                return read_located(frame, self.geometry, self.profile)
            except SweepbotError:
                self.relocations += 1
        reading = read_screenshot(frame, profile=self.profile_name)
        if reading.scale == 1.0:
            self.geometry, self.profile = reading.geometry, reading.profile
        else:  # read through a resized copy: no fast path, every frame is read in full
            self.geometry = self.profile = None
        return reading


def to_view(reading: Reading) -> BoardView:
    geometry = reading.geometry
    return BoardView(reading.board, tuple(float(x) for x in geometry.xs), tuple(float(y) for y in geometry.ys),
                     reading.profile.client)
