"""From screenshot pixels to input coordinates.

A screenshot may be scaled against the input space (HiDPI: 2 capture pixels per input point) and the
captured monitor may not start at (0, 0). Both are explicit here and checked when the bot starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from sweepbot.control.errors import ControlError


@dataclass(frozen=True)
class ScreenMapping:
    """input = origin + capture / scale. ``origin`` is where the captured image's (0, 0) is in input
    space; ``scale`` is capture pixels per input unit."""

    origin_x: float = 0.0
    origin_y: float = 0.0
    scale_x: float = 1.0
    scale_y: float = 1.0

    def to_input(self, x: float, y: float) -> tuple[int, int]:
        return (round(self.origin_x + x / self.scale_x), round(self.origin_y + y / self.scale_y))

    def to_capture(self, x: float, y: float) -> tuple[int, int]:
        """The inverse: from input coordinates to screenshot pixels."""
        return (round((x - self.origin_x) * self.scale_x), round((y - self.origin_y) * self.scale_y))



def mapping_for(capture_size: tuple[int, int], capture_origin: tuple[int, int],
                input_size: tuple[int, int]) -> ScreenMapping:
    """The mapping for a capture of the whole virtual screen (``capture_size`` pixels whose top-left is at
    ``capture_origin`` in the capture backend's coordinates) when the input space is ``input_size``.

    Refuses scales that are not the same on both axes, or outside 0.5-4: the screen does not make sense."""
    cw, ch = capture_size
    iw, ih = input_size
    if min(cw, ch, iw, ih) <= 0:
        raise ControlError(f"screen sizes must be positive: capture {capture_size}, input {input_size}")
    sx, sy = cw / iw, ch / ih
    if abs(sx - sy) > 0.02 or not 0.5 <= sx <= 4:
        raise ControlError(f"capture {cw}x{ch} and input {iw}x{ih} do not scale alike: refusing to click")
    ox, oy = capture_origin
    return ScreenMapping(ox / sx, oy / sy, sx, sy)
