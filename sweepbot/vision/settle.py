"""Watching the screen settle: grabs compared pixel for pixel, and the one loop that waits until the screen
(or a region of it) has answered and holds still.

Both the game loop and live calibration wait on the screen with :func:`settle`; the grabber is the live
screen or recorded frames behind one small protocol.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from sweepbot.rect import Rect


class Grabber(Protocol):
    """A live screen or recorded frames: the whole screen, or a region of it, as BGR pixels."""

    def grab(self, region: Rect | None = None) -> np.ndarray: ...


def same_frame(frame: np.ndarray, other: np.ndarray) -> bool:
    """True when two screen grabs are identical (same size, same pixels)."""
    return frame.shape == other.shape and bool(np.array_equal(frame, other))


@dataclass(frozen=True)
class Settled:
    """How a wait on the screen ended.

    ``frame`` is the last grab of the watched region; ``changed_at`` the moment (``time.monotonic``) it first
    differed from the frame it was compared with (None: it never did; the start when no change was asked
    for); ``longest_pause`` the longest stillness between two changes after that; ``still`` whether it held
    still for the stillness asked for before the time ran out."""

    frame: np.ndarray
    changed_at: float | None
    longest_pause: float
    still: bool


def settle(screen: Grabber, region: Rect | None = None, before: np.ndarray | None = None, *, quiet: float,
           timeout: float, poll: float, stillness: Callable[[np.ndarray], float] | None = None) -> Settled:
    """Wait until ``region`` of the screen (the whole screen: None) has changed from ``before`` and then held
    still, or ``timeout`` seconds have passed.

    Without ``before`` no change is needed: the region only has to hold still. The stillness that ends the
    wait is ``quiet`` seconds, or what ``stillness`` says for the frame last seen (it is asked at each change:
    a wait can end sooner once the frame shows a complete answer). The region is grabbed every ``poll``
    seconds."""
    start = time.monotonic()
    last = screen.grab(region) if before is None else before
    changed_at = start if before is None else None
    still_since = start
    needed = quiet
    longest_pause = 0.0
    while time.monotonic() - start < timeout:
        now = screen.grab(region)
        moment = time.monotonic()
        if not same_frame(now, last):
            if changed_at is None:
                changed_at = moment
            else:
                longest_pause = max(longest_pause, moment - still_since)
            last, still_since = now, moment
            needed = quiet if stillness is None else stillness(now)
        elif changed_at is not None and moment - still_since >= needed:
            return Settled(last, changed_at, longest_pause, True)
        time.sleep(poll)
    return Settled(last, changed_at, longest_pause, False)


def wait_still(screen: Grabber, quiet: float = 0.5, timeout: float = 2.5) -> np.ndarray:
    """Wait until the whole screen has not changed for ``quiet`` seconds (at most ``timeout``); the last frame."""
    return settle(screen, quiet=quiet, timeout=timeout, poll=min(0.05, max(0.002, quiet / 4))).frame
