"""Screenshots of a virtual display with mss, and waiting until a region stops changing."""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType

import cv2
import mss
import numpy as np

from sweepbot.rect import Rect
from sweeplab.errors import DesktopError


class Screen:
    """Grabs pixels of one X display (``":N"``) as BGR numpy arrays; close it (or use ``with``) when done."""

    def __init__(self, display: str) -> None:
        self.display = display
        self._mss = mss.MSS(display=display)

    def grab(self, region: Rect | None = None) -> np.ndarray:
        """The whole screen, or ``region`` of it, as an ``H x W x 3`` BGR array."""
        if region is None:
            monitor = self._mss.monitors[0]
        else:
            monitor = {"left": region.x, "top": region.y, "width": region.w, "height": region.h}
        shot = self._mss.grab(monitor)
        return cv2.cvtColor(np.asarray(shot), cv2.COLOR_BGRA2BGR)

    def save_png(self, path: str | Path, region: Rect | None = None, compression: int = 9) -> Path:
        """Grab and write a PNG with the strongest zlib compression; returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(path), self.grab(region), [cv2.IMWRITE_PNG_COMPRESSION, compression]):
            raise DesktopError(f"could not write {path}")
        return path

    def wait_stable(
        self, region: Rect | None = None, *, quiet: float = 0.25, timeout: float = 10.0, interval: float = 0.02
    ) -> np.ndarray:
        """Poll until ``region`` has not changed for ``quiet`` seconds; return the last image.

        Raises :class:`DesktopError` after ``timeout`` seconds of change. Watch the board, not a whole window
        with a ticking clock. The harness keeps this minimal loop of its own: ``desktop`` sits beside the
        stack and may not import ``vision`` (tests/test_layout.py), whose ``settle`` is the loop the bot
        waits with.
        """
        deadline = time.monotonic() + timeout
        last = self.grab(region)
        since = time.monotonic()
        while True:
            time.sleep(interval)
            now_img = self.grab(region)
            now = time.monotonic()
            if now_img.shape != last.shape or not np.array_equal(now_img, last):
                last, since = now_img, now
            elif now - since >= quiet:
                return last
            if now >= deadline:
                raise DesktopError(f"the screen region {region} kept changing for {timeout:g} s")

    def close(self) -> None:
        self._mss.close()

    def __enter__(self) -> Screen:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
