"""The clock everything that waits reads: the real one, or a clock whose time passes only when it is slept.

Waiting code never calls ``time`` itself: it is handed a :class:`Clock` and asks it for the time and for
sleeps. A test hands it a :class:`FakeClock` and a drawn client, and a wait of seconds then costs the CPU
time of the frames it looks at, not the seconds.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds on a monotonic scale, and a way to let them pass."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clock: ``time.monotonic`` and ``time.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


#: The one real clock; the default wherever a clock may be passed in.
SYSTEM_CLOCK = SystemClock()


class FakeClock:
    """A clock whose time moves only when it is slept, and by ``tick`` seconds each time it is read, so that a
    loop that reads it and never sleeps still comes to its end."""

    #: seconds each reading of the time moves it on
    TICK = 1e-5

    def __init__(self, start: float = 1000.0, tick: float = TICK) -> None:
        self.time = start
        self.tick = tick
        self.slept = 0.0  # seconds slept in all

    def now(self) -> float:
        self.time += self.tick
        return self.time

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.time += seconds
            self.slept += seconds
