"""The screen as its X11 windows show it, each window read from its own pixels: the way to see a game that runs
under Xwayland.

In a Wayland session the X server (Xwayland) draws no screen of its own: a grab of its root window reads
black, or is refused, while each window still holds its own pixels. The frame is put together from the
top-level windows, bottom of the stack first, each at its place on the root, so that it shows what X11's
input lands on (XTEST input goes to the X11 window under the pointer, by X11's own stacking). A window
drawn with an alpha channel (a toolkit's shadow) is laid over what is below it by its alpha. Where no X11
window is, the frame is black: a native Wayland window is not seen by this route.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sweepbot.rect import Rect
from sweepbot.routes.xcb import Connection, Window, XcbError
from sweepbot.vision.capture import CaptureError, Monitor

#: depth of a window whose pixels carry an alpha channel
ALPHA_DEPTH = 32


class XWindowsSource:
    """Frames of the X11 display ``display`` (``DISPLAY`` when None) put together from its windows' own pixels;
    a :class:`~sweepbot.vision.capture.FrameSource`."""

    def __init__(self, display: str | None = None, monitors: Sequence[Monitor] | None = None) -> None:
        try:
            self._x = Connection(display)
        except XcbError as err:
            raise CaptureError(str(err)) from None
        width, height = self._x.size
        whole = Monitor(0, Rect(0, 0, width, height))
        self._monitors = [whole, *(monitors or [Monitor(1, whole.region)])]
        #: the windows the last grab drew, top of the stack first
        self.drawn: list[Window] = []

    def monitors(self) -> list[Monitor]:
        return list(self._monitors)

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = region or self._monitors[0].region
        if region.w <= 0 or region.h <= 0:
            raise CaptureError(f"empty region {region}")
        try:
            windows = [w for w in self._x.top_windows() if w.shown and w.depth]
            parts: list[tuple[Window, Rect]] = []
            for window in windows:
                inside = Rect(window.x, window.y, window.width, window.height).intersect(region)
                if inside is not None:
                    parts.append((window, inside))
            images = self._x.images([(w.wid, r.x - w.x, r.y - w.y, r.w, r.h) for w, r in parts])
        except XcbError as err:
            raise CaptureError(f"cannot read the X11 windows: {err}") from None
        frame = np.zeros((region.h, region.w, 3), np.uint8)
        drawn = []
        for (window, inside), image in zip(parts, images, strict=True):
            if image is None:
                continue  # the window went between the listing and the reading
            pixels = np.frombuffer(image.data, np.uint8).reshape(inside.h, inside.w, 4)
            y, x = inside.y - region.y, inside.x - region.x
            lay_over(frame[y : y + inside.h, x : x + inside.w], pixels, image.depth == ALPHA_DEPTH)
            drawn.append(window)
        self.drawn = drawn[::-1]
        return frame

    def grab_monitor(self, index: int) -> np.ndarray:
        if not 0 <= index < len(self._monitors):
            raise CaptureError(f"no monitor {index} (there are {len(self._monitors) - 1})")
        return self.grab(self._monitors[index].region)

    def close(self) -> None:
        self._x.close()


def lay_over(below: np.ndarray, pixels: np.ndarray, alpha: bool) -> None:
    """Draw a window's BGRA ``pixels`` over ``below`` (BGR, changed in place): as they are, or by their alpha
    (premultiplied, as X11 compositing keeps it) when the window has an alpha channel."""
    if not alpha:
        below[:] = pixels[:, :, :3]
        return
    a = pixels[:, :, 3:4].astype(np.uint16)
    if bool((a == 255).all()):
        below[:] = pixels[:, :, :3]
        return
    mixed = pixels[:, :, :3].astype(np.uint16) + (below.astype(np.uint16) * (255 - a) + 127) // 255
    below[:] = np.minimum(mixed, 255).astype(np.uint8)
