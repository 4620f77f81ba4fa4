"""The screen watcher's waits (sweepbot/watch/), on scripted screens and a fake clock."""

from __future__ import annotations

import numpy as np

from sweepbot.clock import FakeClock
from sweepbot.rect import Rect
from sweepbot.watch import OVERLAY_WAIT, Watcher

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


def test_wait_until_calls_once_at_least_and_gives_up_after_its_time() -> None:
    screen = Scripted([0.0], [BLANK])
    calls: list[float] = []

    def never() -> None:
        calls.append(screen.elapsed())

    assert screen.watcher.wait_until(never, 0.0, 0.1) is None and len(calls) == 1
    calls.clear()
    assert screen.watcher.wait_until(never, 1.0, 0.1) is None
    assert len(calls) == 11 and calls[-1] >= 1.0
    later = Scripted([0.0, 0.5], [BLANK, shade(9)])
    found = later.watcher.wait_until(lambda: later.grab()[0, 0, 0] or None, 2.0, 0.1)
    assert found == 9 and 0.5 <= later.elapsed() < 0.7


def test_an_answer_teaches_the_pace_and_a_flash_is_waited_out() -> None:
    from sweepbot.watch import CALIBRATION

    region = Rect(0, 0, 4, 4)
    # a click answered 20 ms after it went, in one piece: the pace learns the delay and the (no) pause
    answered = Scripted([0.0, 0.02], [BLANK, shade(1)])
    answered.watcher.clicked_at = answered.start
    result = answered.watcher.answer(region, BLANK, CALIBRATION)
    assert result.still and np.array_equal(result.frame, shade(1))
    assert answered.watcher.pace.pauses[-1] == 0.0 and 0.02 <= answered.watcher.pace.latencies[-1] < 0.03
    assert answered.elapsed() >= 0.02 + CALIBRATION.quiet  # the pace is not trusted after one answer
    # the whole region changes, stays a moment, then changes again (a board flashed red at a death): the
    # wait goes on until it held still for the flash stillness
    flashing = Scripted([0.0, 0.01, 0.3], [BLANK, shade(200), shade(2)])
    result = flashing.watcher.answer(region, BLANK, CALIBRATION)
    assert CALIBRATION.flash_quiet is not None and np.array_equal(result.frame, shade(2))
    assert flashing.elapsed() >= 0.3 + CALIBRATION.flash_quiet


def test_a_toast_over_the_board_edge_is_waited_out_and_one_that_stays_is_not_waited_for_again() -> None:
    board = Rect(20, 20, 40, 40)
    clear = np.zeros((100, 100, 3), np.uint8)
    toast = clear.copy()
    toast[55:70, 25:45] = 255  # over the board's bottom edge, and the band below it
    going = Scripted([0.0, 3.0], [toast, clear])
    going.watcher.overlays.keep(clear, board)
    assert going.watcher.overlay_gone(clear) is clear  # nothing over it: at once
    assert np.array_equal(going.watcher.overlay_gone(toast), clear) and 3.0 <= going.elapsed() < 3.2
    assert going.watcher.overlays.go is True
    staying = Scripted([0.0], [toast])
    staying.watcher.overlays.keep(clear, board)
    assert staying.watcher.overlay_gone(toast) is None and staying.elapsed() >= OVERLAY_WAIT
    assert staying.watcher.overlays.go is False and not staying.watcher.overlays.laid_over(toast)


def test_a_watcher_of_a_screen_and_device_of_ones_own_waits_on_one_clock() -> None:
    """``Watcher.of`` (the public way to play a screen of one's own): its mouse sends to the device in the
    screen's own pixels and waits on the watcher's clock, so a fake clock is never mixed with the real one."""
    from tests.tile_client import TileClient

    client = TileClient("9x9/10", seed=4)
    watcher = Watcher.of(client, client, clock=client.clock)
    assert watcher.clock is client.clock
    assert watcher.mouse is not None and watcher.mouse.clock is client.clock
    assert Watcher.of(client).mouse is None
