"""Where frames come from: the live screen (mss) or recorded PNG files, behind one small protocol.

Every frame is an ``H x W x 3`` BGR ``uint8`` numpy array. Monitors carry their origin in the virtual screen
(which may be negative on multi-monitor set-ups); regions are given in virtual-screen coordinates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect


class CaptureError(SweepbotError):
    """A frame could not be grabbed or loaded."""


#: A rectangle of the virtual screen: left, top, width, height (left/top may be negative).
Region = Rect


@dataclass(frozen=True)
class Monitor:
    """One monitor: its index (1-based as mss counts them; 0 is the whole virtual screen) and its region."""

    index: int
    region: Region


@runtime_checkable
class FrameSource(Protocol):
    """Anything that hands out BGR frames: the live screen or a recording."""

    def monitors(self) -> Sequence[Monitor]:
        """Index 0 is the whole virtual screen, then each monitor."""
        ...

    def grab(self, region: Region | None = None) -> np.ndarray:
        """The whole virtual screen, or ``region`` of it, as a BGR array."""
        ...

    def grab_monitor(self, index: int) -> np.ndarray:
        """One monitor (1-based; 0 is the whole virtual screen)."""
        ...

    def close(self) -> None: ...


def bgra_to_bgr(shot: Any) -> np.ndarray:
    """An mss screenshot (or any BGRA buffer) as a contiguous BGR array."""
    return cv2.cvtColor(np.asarray(shot), cv2.COLOR_BGRA2BGR)


def _mss_factory() -> Any:
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss
    return factory


class ScreenSource:
    """The live screen through mss (X11 with XShm, Windows, macOS)."""

    def __init__(self, display: str | None = None) -> None:
        factory = _mss_factory()
        try:
            self._mss = factory(display=display) if display else factory()
        except Exception as err:  # mss raises its own ScreenShotError and OS errors
            raise CaptureError(f"cannot open the screen{' ' + display if display else ''}: {err}") from None

    def monitors(self) -> list[Monitor]:
        return [
            Monitor(i, Region(int(m["left"]), int(m["top"]), int(m["width"]), int(m["height"])))
            for i, m in enumerate(self._mss.monitors)
        ]

    def grab(self, region: Region | None = None) -> np.ndarray:
        if region is None:
            return self.grab_monitor(0)
        if region.w <= 0 or region.h <= 0:
            raise CaptureError(f"empty region {region}")
        box = {"left": region.x, "top": region.y, "width": region.w, "height": region.h}
        try:
            return bgra_to_bgr(self._mss.grab(box))
        except Exception as err:
            raise CaptureError(f"cannot grab {region}: {err}") from None

    def grab_monitor(self, index: int) -> np.ndarray:
        monitors = self._mss.monitors
        if not 0 <= index < len(monitors):
            raise CaptureError(f"no monitor {index} (there are {len(monitors) - 1})")
        try:
            return bgra_to_bgr(self._mss.grab(monitors[index]))
        except Exception as err:
            raise CaptureError(f"cannot grab monitor {index}: {err}") from None

    def close(self) -> None:
        self._mss.close()

    def __enter__(self) -> ScreenSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_image(path: str | Path) -> np.ndarray:
    """A PNG (or any image OpenCV reads) as a BGR array; a clear error when it is not an image."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise CaptureError(f"{path}: cannot read: {err.strerror or err}") from None
    if not data:
        raise CaptureError(f"{path}: the file is empty")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise CaptureError(f"{path}: not an image OpenCV can read")
    return as_bgr(image)


def save_crops(crops: dict[tuple[int, int], np.ndarray], folder: str | Path) -> Path:
    """Write cell crops as ``cell-rR-cC.png`` into ``folder`` (made if missing); returns the folder."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for (r, c), crop in crops.items():
            if not cv2.imwrite(str(folder / f"cell-r{r}-c{c}.png"), crop):
                raise OSError(f"OpenCV could not write cell-r{r}-c{c}.png")
    except OSError as err:
        raise CaptureError(f"cannot save the cells' crops in {folder}: {err}") from None
    return folder


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Gray, BGR or BGRA (8 or 16 bit) as 8-bit BGR."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise CaptureError(f"unsupported pixel type {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] == 3:
        return np.ascontiguousarray(image)
    raise CaptureError(f"unsupported image with {image.shape[2]} channels")


class RecordedSource:
    """Frames from PNG files, one per :meth:`grab` (the last one repeats); a single virtual monitor.

    ``origin`` places the recording in virtual-screen coordinates (a recording of a monitor at -1920,0 keeps
    the coordinates the live screen had).
    """

    def __init__(self, paths: Sequence[str | Path], origin: tuple[int, int] = (0, 0), loop: bool = False) -> None:
        if not paths:
            raise CaptureError("no recorded frames given")
        self._paths = [Path(p) for p in paths]
        self._next = 0
        self._loop = loop
        self._origin = origin
        self._current = load_image(self._paths[0])

    @classmethod
    def from_dir(cls, folder: str | Path, pattern: str = "*.png") -> RecordedSource:
        paths = sorted(Path(folder).glob(pattern))
        if not paths:
            raise CaptureError(f"{folder}: no {pattern} files")
        return cls(paths)

    def _screen(self) -> Region:
        h, w = self._current.shape[:2]
        return Region(self._origin[0], self._origin[1], w, h)

    def monitors(self) -> list[Monitor]:
        return [Monitor(0, self._screen()), Monitor(1, self._screen())]

    def advance(self) -> np.ndarray:
        """Move to the next recorded frame and return it."""
        if self._next < len(self._paths):
            self._current = load_image(self._paths[self._next])
            self._next += 1
        elif self._loop:
            self._next = 0
            return self.advance()
        return self._current

    def grab(self, region: Region | None = None) -> np.ndarray:
        frame = self.advance()
        if region is None:
            return frame.copy()
        screen = self._screen()
        inside = region.intersect(screen)
        if inside is None or inside != region:
            raise CaptureError(f"region {region} is not inside the recorded screen {screen}")
        x, y = region.x - screen.x, region.y - screen.y
        return frame[y : y + region.h, x : x + region.w].copy()

    def grab_monitor(self, index: int) -> np.ndarray:
        if index not in (0, 1):
            raise CaptureError(f"no monitor {index} in a recording")
        return self.grab()

    def close(self) -> None:
        pass
