"""Frames of the screen as the rest of the bot asks for them, and two grabs compared pixel for pixel."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from sweepbot.rect import Rect


class Grabber(Protocol):
    """A live screen or recorded frames: the whole screen, or a region of it, as BGR pixels."""

    def grab(self, region: Rect | None = None) -> np.ndarray: ...


def same_frame(frame: np.ndarray, other: np.ndarray) -> bool:
    """True when two screen grabs are identical (same size, same pixels)."""
    return frame.shape == other.shape and bool(np.array_equal(frame, other))
