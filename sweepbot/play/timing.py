"""Where a game's time goes (capture, read, solve, click, wait for the client, record), and how fast the
client answers."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields


@dataclass
class TimeSplit:
    """Seconds spent in each step of the loop, summed over the moves of a game (or of several games)."""

    capture: float = 0.0  # grabbing frames
    read: float = 0.0  # locating and reading the board, checking it against the last read
    solve: float = 0.0  # the solver
    click: float = 0.0  # sending clicks (and waiting for the pointer to show them)
    wait: float = 0.0  # waiting for the client to answer and hold still
    record: float = 0.0  # writing the recording

    @contextmanager
    def measure(self, step: str) -> Iterator[None]:
        """Add the time spent in the block to ``step``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            setattr(self, step, getattr(self, step) + time.perf_counter() - start)

    def add(self, other: TimeSplit) -> None:
        for name in self.steps():
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @staticmethod
    def steps() -> list[str]:
        return [f.name for f in fields(TimeSplit)]

    def to_json(self) -> dict[str, float]:
        """Milliseconds per step."""
        return {name: round(getattr(self, name) * 1000, 1) for name in self.steps()}


class ClientPace:
    """How fast the client answers lately: the slowest first change after a move, and the longest pause
    inside one answer, over the last ``MEMORY`` answers."""

    MEMORY = 50
    #: the longest waits ever asked for, however slow the client looked
    MAX_TIMEOUT = 15.0
    MAX_QUIET = 0.5

    #: the least stillness that ends a complete answer, and the answers needed before trusting the pace
    MIN_REPAINT = 0.003
    LEARNT_AFTER = 3

    def __init__(self) -> None:
        self.first_change: deque[float] = deque(maxlen=self.MEMORY)
        self.pauses: deque[float] = deque(maxlen=self.MEMORY)
        self.latencies: deque[float] = deque(maxlen=self.MEMORY)

    def latency(self, seconds: float) -> None:
        """The client's first change was seen this long after the last click (an upper bound of its delay)."""
        self.latencies.append(seconds)

    def repaint(self) -> float | None:
        """How long the client takes to draw an answer: 1.5 times the 90th percentile of the delays seen and of
        the pauses seen inside one answer (a client that draws a tile, then its number), at least MIN_REPAINT;
        None until LEARNT_AFTER answers were seen."""
        if len(self.latencies) < self.LEARNT_AFTER or len(self.pauses) < self.LEARNT_AFTER:
            return None
        longest = max(_p90(self.latencies), _p90(self.pauses))
        return min(max(self.MIN_REPAINT, 1.5 * longest), self.MAX_QUIET)

    def answered(self, first_change: float, longest_pause: float) -> None:
        self.first_change.append(first_change)
        self.pauses.append(longest_pause)

    def waits(self, timeout: float, quiet: float) -> tuple[float, float]:
        """The time to allow for an answer and the stillness that ends it, at least the given ones."""
        slowest = max(self.first_change, default=0.0)
        pause = _p90(self.pauses)  # one odd pause (an end-of-game flash) is not the client's pace
        return (min(max(timeout, 4 * slowest), self.MAX_TIMEOUT), min(max(quiet, 1.5 * pause), self.MAX_QUIET))


def _p90(values: deque[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1))] if ordered else 0.0
