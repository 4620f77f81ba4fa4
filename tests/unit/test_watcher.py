"""The screen watcher's waits (sweepbot/watch/), on scripted screens and a fake clock."""

from __future__ import annotations

import numpy as np

from sweepbot.clock import FakeClock
from sweepbot.rect import Rect
from sweepbot.watch import Watcher

BLANK = np.zeros((4, 4, 3), np.uint8)


def shade(value: int) -> np.ndarray:
    return np.full((4, 4, 3), value, np.uint8)


class Scripted:
    """A screen that shows ``frames[i]`` from ``times[i]`` seconds after it was made; records the regions asked."""

    def __init__(self, times: list[float], frames: list[np.ndarray]) -> None:
        self.times, self.frames = times, frames
        self.clock = FakeClock()
        self.start = self.clock.now()
        self.regions: list[Rect | None] = []
        self.watcher = Watcher(self, clock=self.clock)

    def elapsed(self) -> float:
        return self.clock.now() - self.start

    def grab(self, region: Rect | None = None) -> np.ndarray:
        self.regions.append(region)
        elapsed = self.clock.now() - self.start
        shown = [frame for at, frame in zip(self.times, self.frames, strict=True) if at <= elapsed][-1]
        return shown.copy()


def test_waits_for_a_change_then_for_stillness() -> None:
    screen = Scripted([0.0, 0.03, 0.06], [BLANK, shade(1), shade(2)])
    region = Rect(1, 2, 4, 4)
    result = screen.watcher.settle(region, BLANK, quiet=0.05, timeout=2.0, poll=0.001)
    elapsed = screen.elapsed()
    assert result.still and np.array_equal(result.frame, shade(2))
    assert result.changed_at is not None and 0.03 <= result.changed_at - screen.start < 0.05
    assert 0.025 <= result.longest_pause < 0.05  # the stillness between the two changes
    assert 0.11 <= elapsed < 0.5
    assert set(screen.regions) == {region}


def test_a_screen_that_never_changes_times_out() -> None:
    screen = Scripted([0.0], [BLANK])
    result = screen.watcher.settle(None, BLANK, quiet=0.01, timeout=0.1, poll=0.001)
    assert not result.still and result.changed_at is None
    assert screen.elapsed() >= 0.1


def test_without_a_frame_to_compare_only_stillness_is_needed() -> None:
    screen = Scripted([0.0], [shade(3)])
    result = screen.watcher.settle(quiet=0.03, timeout=1.0, poll=0.001)
    assert result.still and np.array_equal(result.frame, shade(3))
    assert 0.03 <= screen.elapsed() < 0.3
    assert np.array_equal(screen.watcher.hold_still(quiet=0.02), shade(3))


def test_the_stillness_asked_for_follows_the_frame_seen() -> None:
    # a complete answer (shade 2) ends the wait after a short stillness, a partial one (shade 1) after a long one
    def stillness(frame: np.ndarray) -> float:
        return 0.01 if frame[0, 0, 0] == 2 else 1.0

    complete = Scripted([0.0, 0.01], [BLANK, shade(2)])
    assert complete.watcher.settle(None, BLANK, quiet=1.0, timeout=3.0, poll=0.001, stillness=stillness).still
    assert complete.elapsed() < 0.5
    partial = Scripted([0.0, 0.01], [BLANK, shade(1)])
    result = partial.watcher.settle(None, BLANK, quiet=0.01, timeout=0.3, poll=0.001, stillness=stillness)
    assert not result.still and np.array_equal(result.frame, shade(1))
