"""The ways to try for a new game, in the order a person tries them, from the controls beside the board.

A face first (a yellow control with no words on it: a smiley), then the keys no program takes amiss (F2,
N), a game's own shortcut where the keys go to the game's own window (Ctrl+N), then the controls whose label
says new game (its words: "New game", "Restart", "Play again" ...; then a level's name), then Space. A control
whose label says something else ("Settings", "Help", a link) is never clicked: a bot does not click what it
cannot name. Where no label can be read (no text recognition here), no unnamed control is clicked either.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweepbot.vision.controls import Control
from sweepbot.vision.labels import LEVEL_WORDS, read_label, says_new_game, words
from sweepbot.vision.rules import Keys

#: Keys clients commonly use for a new game that other programs leave alone. Never Escape or Q: some clients
#: quit on them (xdemineur, pygame-minesweeper on Escape).
SAFE_KEYS: tuple[Keys, ...] = ((("f2",),), (("n",),))
#: A new game in GNOME's and KDE's games, a browser's new window: pressed only when the keyboard focus is on
#: the game's own window and that is not a browser's (``control.keys``).
GAME_KEYS: tuple[Keys, ...] = ((("ctrl", "n"),),)
#: Keys tried last: Space presses the focused button (a page may scroll on it).
OTHER_KEYS: tuple[Keys, ...] = ((("space",),),)
#: Every key tried, in order (the named controls come between the game's keys and the others).
NEW_GAME_KEYS: tuple[Keys, ...] = SAFE_KEYS + GAME_KEYS + OTHER_KEYS


@dataclass(frozen=True)
class Ways:
    """What to try, in order (a control or keys), and the controls left alone with what they say."""

    steps: list[Control | Keys]
    left_alone: list[str]


def ways_to_try(controls: list[Control], frame: np.ndarray) -> Ways:
    """The steps for the controls found beside the board on ``frame``."""
    faces: list[Control] = []
    named: list[tuple[int, Control]] = []
    left_alone: list[str] = []
    for control in controls:
        label = read_label(frame, control.box)
        if control.yellow and not words(label or ""):
            faces.append(control)  # a smiley says nothing: its look is its name
        elif label is not None and says_new_game(label):
            level = words(label).split()[0] in LEVEL_WORDS
            named.append((1 if level else 0, control))
        else:
            said = f"'{label.strip()}'" if label and label.strip() else ("no label it could read" if label is None
                                                                          else "no words")
            left_alone.append(f"the control at {control.centre} ({said})")
    ordered = [control for _, control in sorted(named, key=lambda pair: pair[0])]
    return Ways([*faces, *SAFE_KEYS, *GAME_KEYS, *ordered, *OTHER_KEYS], left_alone)
