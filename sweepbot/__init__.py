"""sweepbot: plays real Minesweeper clients by reading the screen and moving the mouse.

The public API (docs/api.md has examples). Names are imported when first used, so ``import sweepbot`` stays
light::

    import sweepbot

    reading = sweepbot.read_screenshot(sweepbot.load_image("shot.png"))   # find and read the board
    analysis = sweepbot.solve(reading.board)                            # safe cells, mines, odds, the move
    summary = sweepbot.play(games=3)                                    # play the game open on screen
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: each public name, and the module that holds it
_WHERE = {
    # boards and errors
    "Board": "sweepbot.board",
    "SweepbotError": "sweepbot.errors",
    "Rect": "sweepbot.rect",
    # reading a screenshot
    "load_image": "sweepbot.vision.capture",
    "read_screenshot": "sweepbot.vision.read",
    "Reading": "sweepbot.vision.read",
    "ReadError": "sweepbot.vision.read",
    # profiles
    "Profile": "sweepbot.vision.profile",
    "load_profile": "sweepbot.vision.profile",
    "save_profile": "sweepbot.vision.profile",
    "available_profiles": "sweepbot.vision.profile",
    "PlayRules": "sweepbot.vision.rules",
    # solving a board
    "solve": "sweepbot.solver",
    "Analysis": "sweepbot.solver",
    "Move": "sweepbot.solver",
    "Strategy": "sweepbot.solver",
    "parse_strategy": "sweepbot.solver",
    "Budget": "sweepbot.solver",
    # simulated games
    "Game": "sweepbot.game",
    "parse_level": "sweepbot.game",
    # playing
    "play": "sweepbot.play.session",
    "play_games": "sweepbot.play.session",
    "PlaySettings": "sweepbot.play.settings",
    "SessionSummary": "sweepbot.play.session",
    "Watcher": "sweepbot.watch",
    "Clock": "sweepbot.clock",
    "FakeClock": "sweepbot.clock",
    "SYSTEM_CLOCK": "sweepbot.clock",
}

__all__ = [
    "SYSTEM_CLOCK",
    "Analysis",
    "Board",
    "Budget",
    "Clock",
    "FakeClock",
    "Game",
    "Move",
    "PlayRules",
    "PlaySettings",
    "Profile",
    "ReadError",
    "Reading",
    "Rect",
    "SessionSummary",
    "Strategy",
    "SweepbotError",
    "Watcher",
    "__version__",
    "available_profiles",
    "load_image",
    "load_profile",
    "parse_level",
    "parse_strategy",
    "play",
    "play_games",
    "read_screenshot",
    "save_profile",
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
    from sweepbot.clock import SYSTEM_CLOCK, Clock, FakeClock
    from sweepbot.errors import SweepbotError
    from sweepbot.game import Game, parse_level
    from sweepbot.play.session import SessionSummary, play, play_games
    from sweepbot.play.settings import PlaySettings
    from sweepbot.rect import Rect
    from sweepbot.solver import Analysis, Budget, Move, Strategy, parse_strategy, solve
    from sweepbot.vision.capture import load_image
    from sweepbot.vision.profile import Profile, available_profiles, load_profile, save_profile
    from sweepbot.vision.read import ReadError, Reading, read_screenshot
    from sweepbot.vision.rules import PlayRules
    from sweepbot.watch import Watcher
