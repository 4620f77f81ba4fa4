"""A generated client's whole make-up, drawn from a seed: how it looks and how it behaves.

Everything a real client varies is a field here: the palette (light, dark, low contrast, coloured covered
tiles, open cells darker than covered ones), the digits (font, size, colours, outlined, a drawn 0 or none),
the looks of covered tiles, flags, question marks, mines, the mine that went off and wrong flags; gaps,
borders and bevels; the cell size; a tile lit under the pointer or drawn pressed; presses taken only when
held; how a new game starts (a key, a face, a labelled button near the board or far from it among buttons
and links that do other things, a level menu between games, a dialog after a game); a mine counter or none;
the first-click rule. The same seed gives the same client on every machine. Half the seeds are desktop
windows (Tk), half web pages (Chromium).
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field, replace
from typing import Any

#: fonts every machine with Debian's fonts-dejavu-core and fonts-urw-base35 has (name, file)
FONTS = {
    "dejavu-sans-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "dejavu-sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "dejavu-mono-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
    "dejavu-serif-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "nimbus-sans-bold": "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "nimbus-mono-bold": "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Bold.otf",
    "urw-gothic": "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
    "c059-bold": "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf",
}
#: the classic colours of the numbers 1-8 (RGB)
CLASSIC_DIGITS = [(0, 0, 255), (0, 128, 0), (255, 0, 0), (0, 0, 128), (128, 0, 0), (0, 128, 128), (0, 0, 0),
                  (128, 128, 128)]
#: labels of buttons that start a new game, and of buttons and links that do something else
NEW_GAME_LABELS = ["New game", "New Game", "Restart", "Reset", "Play again", "Start over", "New"]
DECOY_LABELS = ["Settings", "Help", "Scores", "About", "Hint", "Options", "Statistics", "Themes", "Pause"]
LINK_LABELS = ["Home", "Rules", "More games", "Sign in", "Share", "Privacy"]
#: how a new game starts
NEW_GAME_WAYS = ["key", "face", "button-near", "button-far", "menu", "dialog"]
#: keys that start a new game: F2 and N anywhere; Ctrl+N only in a window of its own (a browser's command)
WINDOW_KEYS = [["f2"], ["n"], ["ctrl", "n"], ["space"]]
PAGE_KEYS = [["f2"], ["n"], ["space"]]
#: levels a generated client offers (cols, rows, mines)
LEVELS = {"small": (9, 9, 10), "medium": (16, 16, 40), "large": (30, 16, 99)}
#: the largest board area on the 1280x1024 screen (a window's frame, a page's controls around it)
MAX_BOARD = (1100, 760)

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """The colours of one client (RGB)."""

    scheme: str  # light, dark, low-contrast, coloured, open-darker
    background: RGB  # around the board and between its cells
    covered: RGB
    covered_light: RGB  # a raised tile's lit edge
    covered_dark: RGB  # its shadowed edge
    opened: RGB
    text: RGB  # labels, the counter
    mine: RGB
    flag: RGB
    exploded: RGB  # the ground under the mine that went off
    lit: RGB  # a covered tile under the pointer


@dataclass(frozen=True)
class Digits:
    font: str  # a key of FONTS
    scale: float  # glyph height / cell size
    colours: list[RGB]  # of 1..8
    outline: bool  # a thin dark or light stroke around the glyph
    zero: bool  # an opened empty cell shows "0"


@dataclass(frozen=True)
class Tiles:
    covered: str  # bevel, flat, rounded, gradient
    bevel: int  # px of a raised tile's edges (bevel style)
    gap: int  # px between cells
    border: int  # px of the frame around the board
    flag: str  # pennant, letter, square
    mine: str  # spiked, disc, star
    wrong: str  # cross-flag, cross-mine
    exploded: str  # ground, ring
    opened_edge: bool  # an opened cell has a thin darker line on two sides
    hover: str  # none, lit, outline
    pressed: str  # none, sunken: a covered tile drawn open while the button is down on it


@dataclass(frozen=True)
class Manners:
    first_click: str  # none, safe, opening
    hold: float  # seconds a press must be held to be taken (0: any press)
    right_click: str  # flag, cycle (flag, question mark, covered), none
    new_game: str  # one of NEW_GAME_WAYS
    new_game_key: list[str]  # with new_game "key"
    new_game_label: str  # the label of the new-game button (button-near, button-far, dialog), or a level's name
    decoys: list[str]  # other buttons, which do something else
    links: list[str]  # links, which leave the page (a page only)
    counter: str  # none, digital, text, fraction
    shows_mines_at_loss: bool
    flags_mines_at_win: bool
    message_at_end: bool  # a line of text says "You won" / "Game over"


@dataclass(frozen=True)
class ClientMakeUp:
    """One generated client: ``kind`` window or page, its level, cell size, palette, digits, tiles, manners."""

    seed: int
    kind: str
    level: str
    cell: int
    palette: Palette
    digits: Digits
    tiles: Tiles
    manners: Manners
    title: str = field(default="")

    @property
    def size(self) -> tuple[int, int, int]:
        return LEVELS[self.level]

    @property
    def pitch(self) -> int:
        return self.cell + self.tiles.gap

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ClientMakeUp:
        data = json.loads(text)
        tuples: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value
                                  for key, value in data["palette"].items()}
        digits = dict(data["digits"])
        digits["colours"] = [tuple(c) for c in digits["colours"]]
        return cls(data["seed"], data["kind"], data["level"], data["cell"], Palette(**tuples), Digits(**digits),
                   Tiles(**data["tiles"]), Manners(**data["manners"]), data.get("title", ""))


def _grey(value: int) -> RGB:
    value = max(0, min(255, value))
    return (value, value, value)


def _shift(colour: RGB, by: int) -> RGB:
    r, g, b = colour
    return (max(0, min(255, r + by)), max(0, min(255, g + by)), max(0, min(255, b + by)))


def _palette(rnd: random.Random) -> Palette:
    scheme = rnd.choice(["light", "light", "dark", "dark", "low-contrast", "coloured", "open-darker"])
    if scheme == "light":
        covered = _grey(rnd.randint(170, 205))
        opened = _grey(rnd.randint(215, 245))
        background = _grey(rnd.randint(120, 160))
        text = (0, 0, 0)
    elif scheme == "dark":
        covered = _grey(rnd.randint(70, 100))
        opened = _grey(rnd.randint(18, 40))  # near black
        background = _grey(rnd.randint(5, 15))
        text = (230, 230, 230)
    elif scheme == "low-contrast":
        base = rnd.randint(150, 190)
        covered = _grey(base)
        opened = _grey(base + rnd.choice([-14, 14]))
        background = _grey(base - 30)
        text = (40, 40, 40)
    elif scheme == "coloured":
        hue = rnd.choice([(80, 140, 200), (90, 170, 90), (200, 120, 60), (150, 100, 190), (60, 150, 150)])
        covered = hue
        opened = _grey(rnd.randint(220, 240))
        background = _shift(hue, -60)
        text = (20, 20, 20)
    else:  # open-darker: covered tiles light, opened cells darker
        covered = _grey(rnd.randint(215, 235))
        opened = _grey(rnd.randint(140, 170))
        background = _grey(rnd.randint(90, 120))
        text = (0, 0, 0)
    dark_theme = scheme == "dark"
    return Palette(
        scheme=scheme, background=background, covered=covered, covered_light=_shift(covered, 45),
        covered_dark=_shift(covered, -55), opened=opened, text=text,
        mine=(235, 235, 235) if dark_theme else (20, 20, 20),
        flag=rnd.choice([(220, 0, 0), (230, 90, 0), (200, 0, 120)]), exploded=(220, 30, 30),
        lit=_shift(covered, 25 if sum(covered) < 600 else -20))


def _digits(rnd: random.Random, palette: Palette) -> Digits:
    way = rnd.choice(["classic", "classic", "one", "random"])
    if way == "classic":
        colours = list(CLASSIC_DIGITS)
        if palette.scheme == "dark":
            colours = [_shift(c, 90) for c in colours]
    elif way == "one":
        colours = [palette.text] * 8
    else:
        colours = [(rnd.randint(0, 255), rnd.randint(0, 255), rnd.randint(0, 255)) for _ in range(8)]
    return Digits(font=rnd.choice(sorted(FONTS)), scale=round(rnd.uniform(0.5, 0.8), 2), colours=colours,
                  outline=rnd.random() < 0.2, zero=rnd.random() < 0.15)


def _tiles(rnd: random.Random) -> Tiles:
    """The tiles' styles; a bevel's width is set once the cell size is known."""
    covered = rnd.choice(["bevel", "bevel", "flat", "rounded", "gradient"])
    return Tiles(covered=covered, bevel=0,
                 gap=rnd.choice([0, 0, 1, 1, 2, 3]), border=rnd.choice([0, 2, 4, 8]),
                 flag=rnd.choice(["pennant", "pennant", "letter", "square"]),
                 mine=rnd.choice(["spiked", "disc", "star"]),
                 wrong=rnd.choice(["cross-flag", "cross-mine"]), exploded=rnd.choice(["ground", "ring"]),
                 opened_edge=rnd.random() < 0.5, hover=rnd.choice(["none", "none", "lit", "outline"]),
                 pressed=rnd.choice(["none", "sunken"]))


def _manners(rnd: random.Random, kind: str) -> Manners:
    new_game = rnd.choice(NEW_GAME_WAYS)
    keys = WINDOW_KEYS if kind == "window" else PAGE_KEYS
    label = rnd.choice(NEW_GAME_LABELS)
    decoys = rnd.sample(DECOY_LABELS, rnd.randint(0, 4))
    links = rnd.sample(LINK_LABELS, rnd.randint(0, 3)) if kind == "page" else []
    return Manners(first_click=rnd.choice(["none", "safe", "opening"]),
                   hold=rnd.choice([0.0] * 5 + [0.08, 0.15]),
                   right_click=rnd.choice(["flag", "flag", "cycle"]), new_game=new_game,
                   new_game_key=rnd.choice(keys), new_game_label=label, decoys=decoys, links=links,
                   counter=rnd.choice(["none", "digital", "text", "fraction"]),
                   shows_mines_at_loss=rnd.random() < 0.8, flags_mines_at_win=rnd.random() < 0.5,
                   message_at_end=rnd.random() < 0.5)


def at_cell(make: ClientMakeUp, cell: int) -> ClientMakeUp:
    """The same client with its cells drawn ``cell`` px wide (its bevel follows); ValueError when its board
    would not fit the screen."""
    cols, rows, _ = LEVELS[make.level]
    pitch = cell + make.tiles.gap
    if cell < 12 or pitch * cols > MAX_BOARD[0] or pitch * rows > MAX_BOARD[1]:
        raise ValueError(f"a {cols}x{rows} board of {cell} px cells does not fit the screen")
    tiles = replace(make.tiles, bevel=max(1, min(4, cell // 8))) if make.tiles.covered == "bevel" else make.tiles
    return replace(make, cell=cell, tiles=tiles)


def make_up(seed: int) -> ClientMakeUp:
    """The client of ``seed``: a window for even seeds, a page for odd ones."""
    rnd = random.Random(seed)
    kind = "window" if seed % 2 == 0 else "page"
    level = rnd.choice(["small", "medium", "medium", "large"])
    cols, rows, _ = LEVELS[level]
    palette = _palette(rnd)
    tiles = _tiles(rnd)
    largest = min(64, MAX_BOARD[0] // cols - tiles.gap, MAX_BOARD[1] // rows - tiles.gap)
    cell = rnd.randint(12, max(12, largest))
    if tiles.covered == "bevel":
        tiles = replace(tiles, bevel=max(1, min(4, cell // 8)))
    return ClientMakeUp(seed=seed, kind=kind, level=level, cell=cell, palette=palette, digits=_digits(rnd, palette),
                        tiles=tiles, manners=_manners(rnd, kind), title=f"Mines {seed}")
