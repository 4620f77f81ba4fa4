"""Screen capture, locating the board and reading its cells; pure functions on numpy arrays.

The game loop's path: a :class:`FrameSource` (``ScreenSource`` live, ``RecordedSource`` from PNGs) gives a
BGR frame; :func:`locate` finds the board's :class:`Geometry`; :func:`read_screenshot` picks the profile and
reads a :class:`Reading` (a ``sweepbot.board.Board`` plus geometry, profile, per-cell confidence, counter);
:func:`read_located` re-reads new frames with the geometry and profile already known.
:mod:`.settle` waits until the screen has answered and holds still. ``pyautogui`` is never imported here.
"""

from sweepbot.vision.capture import CaptureError, FrameSource, Monitor, RecordedSource, Region, ScreenSource, load_image
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import LocateError, locate
from sweepbot.vision.profile import Profile, ProfileError, available_profiles, load_profile
from sweepbot.vision.read import ReadError, Reading, read_located, read_screenshot

__all__ = [
    "CaptureError", "FrameSource", "Geometry", "LocateError", "Monitor", "Profile", "ProfileError",
    "ReadError", "Reading", "RecordedSource", "Region", "ScreenSource", "available_profiles", "load_image",
    "load_profile", "locate", "read_located", "read_screenshot",
]
