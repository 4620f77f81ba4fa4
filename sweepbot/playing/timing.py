"""Where a game's time goes: capture, read, solve, click, wait for the client, record."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields

from sweepbot.clock import Clock


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
    def measure(self, step: str, clock: Clock) -> Iterator[None]:
        """Add the time spent in the block to ``step``, by the clock the game is played on."""
        start = clock.now()
        try:
            yield
        finally:
            setattr(self, step, getattr(self, step) + clock.now() - start)

    def add(self, other: TimeSplit) -> None:
        for name in self.steps():
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @staticmethod
    def steps() -> list[str]:
        return [f.name for f in fields(TimeSplit)]

    def to_json(self) -> dict[str, float]:
        """Milliseconds per step (to the microsecond)."""
        return {name: round(getattr(self, name) * 1000, 3) for name in self.steps()}
