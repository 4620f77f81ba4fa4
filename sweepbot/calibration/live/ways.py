"""The ways to try for a new game, in the order a person tries them, from the controls beside the board.

A face first (a yellow control with no words on it, or a square one with none read surely: a smiley), then
the keys no program takes amiss (F2, N), then the controls whose label says new game (its words: "New game",
"Restart", "Play again" ...; then a level's name), then a game's own shortcut where the keys go to the game's
own window (Ctrl+N: gnome-mines goes to its level chooser on it, where its "Play Again" starts the next game
at once), then Space. A control whose label says something else ("Settings", "Help", a link) is never
clicked: a bot does not click what it cannot name. Where no label can be read (no text recognition here), no
unnamed control is clicked either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from sweepbot.rect import Rect
from sweepbot.vision.controls import MAX_CONTROLS, Control, controls_near
from sweepbot.vision.face import looks_like_a_face
from sweepbot.vision.labels import LEVEL_WORDS, has_words, read_label, says_new_game, sure_words, words
from sweepbot.vision.rules import Keys

#: Keys clients commonly use for a new game that other programs leave alone. Never Escape or Q: some clients
#: quit on them (xdemineur, pygame-minesweeper on Escape).
SAFE_KEYS: tuple[Keys, ...] = ((("f2",),), (("n",),))
#: A new game in GNOME's and KDE's games, a browser's new window: pressed only when the keyboard focus is on
#: the game's own window and that is not a browser's (``control.keys``).
GAME_KEYS: tuple[Keys, ...] = ((("ctrl", "n"),),)
#: Keys tried last: Space presses the focused button (a page may scroll on it).
OTHER_KEYS: tuple[Keys, ...] = ((("space",),),)
#: Every key tried, in order (the named controls come between the safe keys and the game's).
NEW_GAME_KEYS: tuple[Keys, ...] = SAFE_KEYS + GAME_KEYS + OTHER_KEYS
#: A control within this share of the cell size each way is a tile, not a dialog's button
TILE_LIKE = 0.25
#: A patch this wide or this tall may be a panel or a dialog with buttons of its own inside
PANEL = (150, 60)
#: A smiley's box is square, within this ratio of its sides; a button with words is wider than tall
FACE_SIDES = 1.25
#: A board size written in a label ("16x16", "30 × 16")
SIZE_WRITTEN = re.compile(r"(\d+)\s*[x×]\s*(\d+)")


@dataclass(frozen=True)
class Ways:
    """What to try, in order (a control or keys), and the controls left alone with what they say."""

    steps: list[Control | Keys]
    left_alone: list[str]


def square(box: Rect) -> bool:
    """Whether ``box`` is square as a smiley's is (see FACE_SIDES)."""
    return max(box.w, box.h) <= FACE_SIDES * min(box.w, box.h)


def size_rank(label: str, size: tuple[int, int] | None) -> int:
    """0 for a label that names the board's size (``size``: rows, cols), 2 for one that names another size, 1
    for one that names none: a level menu's entry for the board being played is the one a person picks."""
    written = [(int(a), int(b)) for a, b in SIZE_WRITTEN.findall(label.lower())]
    if not written or size is None:
        return 1
    return 0 if size in written or size[::-1] in written else 2


def ways_to_try(controls: list[Control], frame: np.ndarray, size: tuple[int, int] | None = None) -> Ways:
    """The steps for the controls found beside the board on ``frame`` (a board of ``size``: rows, cols)."""
    faces: list[Control] = []
    named: list[tuple[tuple[int, int], Control]] = []
    left_alone: list[str] = []
    for control in controls:
        label = read_label(frame, control.box)
        yellow = control.yellow or looks_like_a_face(frame, control.centre)
        if yellow and not has_words(label or ""):
            faces.append(control)  # a smiley says nothing: its look is its name (a letter read into it is none)
        elif yellow and square(control.box) and not has_words(sure_words(frame, control.box) or ""):
            faces.append(control)  # ... nor a word read into it unsure; a yellow button wider than tall has words
        elif label is not None and says_new_game(label):
            level = words(label).split()[0] in LEVEL_WORDS
            named.append(((1 if level else 0, size_rank(label, size)), control))
        else:
            said = f"'{label.strip()}'" if label and label.strip() else ("no label it could read" if label is None
                                                                          else "no words")
            left_alone.append(f"the control at {control.centre} ({said})")
    ordered = [control for _, control in sorted(named, key=lambda pair: pair[0])]
    return Ways([*faces, *SAFE_KEYS, *ordered, *GAME_KEYS, *OTHER_KEYS], left_alone)


def labelled_new_game(frame: np.ndarray, area: Rect, cell: float,
                      size: tuple[int, int] | None = None) -> list[Control]:
    """The controls in ``area`` (the client's window), over the board too, whose label says new game: a "New
    game" beside the board, or a dialog's "Play again" over it, as a person sees them when a game ends; a
    level that names the size of the board played (``size``: rows, cols) before the others. A patch of a
    tile's size is a tile, not read."""
    found: list[tuple[int, Control]] = []

    def not_tiles(controls: list[Control]) -> list[Control]:
        return [c for c in controls if not (abs(c.box.w - cell) <= TILE_LIKE * cell
                                            and abs(c.box.h - cell) <= TILE_LIKE * cell)][:MAX_CONTROLS]

    # the board's tiles (a number drawn on a face) are no controls: left out before the first few are taken
    outer = not_tiles(controls_near(frame, Rect(0, 0, 0, 0), area, most=None))
    # a panel or a dialog is a flat patch of its own: its buttons are found inside it
    inner = [c for panel in outer if panel.box.w >= PANEL[0] or panel.box.h >= PANEL[1]
             for c in not_tiles(controls_near(frame, Rect(0, 0, 0, 0), panel.box, most=None))]
    for control in outer + inner:
        label = read_label(frame, control.box)
        if label is not None and says_new_game(label):
            found.append((size_rank(label, size), control))
    return [control for _, control in sorted(found, key=lambda pair: pair[0])]
