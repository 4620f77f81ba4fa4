"""sweepbot: plays real Minesweeper clients by reading the screen and moving the mouse.

The public API (docs/api.md has examples): four entry points and the types they take and return. Names are
imported when first used, so ``import sweepbot`` stays light::

    import sweepbot

    reading = sweepbot.read_screenshot(sweepbot.load_image("shot.png"))   # find and read the board
    analysis = sweepbot.solve(reading.board)                            # safe cells, mines, odds, the move
    summary = sweepbot.play(games=3)                                    # play the game open on screen
    made = sweepbot.calibrate("my-client", live=True)                   # learn a client never seen
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: each public name, and the module that holds it
_WHERE = {
    # read a screenshot
    "load_image": "sweepbot.vision.capture",
    "read_screenshot": "sweepbot.vision.read",
    "Reading": "sweepbot.vision.read",
    "ReadError": "sweepbot.vision.read",
    # solve a board
    "Board": "sweepbot.board",
    "solve": "sweepbot.solver",
    "Analysis": "sweepbot.solver",
    "Move": "sweepbot.solver",
    "Strategy": "sweepbot.solver",
    "parse_strategy": "sweepbot.solver",
    # play the screen
    "play": "sweepbot.playing.session",
    "PlaySettings": "sweepbot.playing.settings",
    "SessionSummary": "sweepbot.playing.session",
    # calibrate a client
    "calibrate": "sweepbot.calibration.client",
    "Calibrated": "sweepbot.calibration.client",
    # profiles: what reading and playing use, what calibrating makes
    "Profile": "sweepbot.vision.profile",
    "PlayRules": "sweepbot.vision.rules",
    "load_profile": "sweepbot.vision.profile",
    "available_profiles": "sweepbot.vision.profile",
    # a screen, an input device and a clock of your own
    "Watcher": "sweepbot.watch",
    "InputDevice": "sweepbot.control.device",
    "FakeClock": "sweepbot.clock",
    # simulated games
    "Game": "sweepbot.game",
    "parse_level": "sweepbot.game",
    # every error sweepbot raises on purpose
    "SweepbotError": "sweepbot.errors",
}

__all__ = [
    "Analysis",
    "Board",
    "Calibrated",
    "FakeClock",
    "Game",
    "InputDevice",
    "Move",
    "PlayRules",
    "PlaySettings",
    "Profile",
    "ReadError",
    "Reading",
    "SessionSummary",
    "Strategy",
    "SweepbotError",
    "Watcher",
    "__version__",
    "available_profiles",
    "calibrate",
    "load_image",
    "load_profile",
    "parse_level",
    "parse_strategy",
    "play",
    "read_screenshot",
    "solve",
]

def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'sweepbot' has no attribute {name!r}")
    value = getattr(import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from sweepbot.board import Board
    from sweepbot.calibration.client import Calibrated, calibrate
    from sweepbot.clock import FakeClock
    from sweepbot.control.device import InputDevice
    from sweepbot.errors import SweepbotError
    from sweepbot.game import Game, parse_level
    from sweepbot.playing.session import SessionSummary, play
    from sweepbot.playing.settings import PlaySettings
    from sweepbot.solver import Analysis, Move, Strategy, parse_strategy, solve
    from sweepbot.vision.capture import load_image
    from sweepbot.vision.profile import Profile, available_profiles, load_profile
    from sweepbot.vision.read import ReadError, Reading, read_screenshot
    from sweepbot.vision.rules import PlayRules
    from sweepbot.watch import Watcher
