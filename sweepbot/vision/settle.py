"""Watching the screen settle: grabs compared pixel for pixel, and waiting until the screen holds still.

Both the game loop and live calibration wait on the screen this way; the grabber is the live screen or
recorded frames behind one small protocol."""

from __future__ import annotations

import time
from typing import Protocol

import numpy as np

from sweepbot.rect import Rect


class Grabber(Protocol):
    """A live screen or recorded frames: the whole screen, or a region of it, as BGR pixels."""

    def grab(self, region: Rect | None = None) -> np.ndarray: ...


def same_frame(frame: np.ndarray, other: np.ndarray) -> bool:
    """True when two screen grabs are identical (same size, same pixels)."""
    return frame.shape == other.shape and bool(np.array_equal(frame, other))


def wait_still(screen: Grabber, quiet: float = 0.5, timeout: float = 2.5) -> np.ndarray:
    """Wait until the whole screen has not changed for ``quiet`` seconds (at most ``timeout``); the last frame."""
    start = still_since = time.monotonic()
    last = screen.grab()
    poll = min(0.05, max(0.002, quiet / 4))
    while time.monotonic() - start < timeout:
        time.sleep(poll)
        now = screen.grab()
        if not same_frame(now, last):
            last, still_since = now, time.monotonic()
        elif time.monotonic() - still_since >= quiet:
            break
    return last
