"""A generated client's tiles, drawn from its make-up: one image per look, cell by cell, with Pillow.

The looks are the board file's names (``#`` covered, ``F`` flag, ``?``, ``.`` opened empty, ``1``-``8``,
``*`` a mine shown, ``!`` the mine that went off, ``X`` a wrong flag) and two that are no cell's state:
``lit`` (a covered tile under the pointer) and ``pressed`` (a covered tile while the button is down on it).
Both front ends (the window and the page) show exactly these pixels, so a look's truth is its image.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sweeplab.generated.spec import FONTS, RGB, ClientMakeUp

#: every look a generated client draws
LOOKS = ("#", "F", "?", ".", "1", "2", "3", "4", "5", "6", "7", "8", "*", "!", "X", "lit", "pressed")


def _covered(make: ClientMakeUp, draw: ImageDraw.ImageDraw, fill: RGB) -> None:
    p, t, n = make.palette, make.tiles, make.cell
    if t.covered == "bevel":
        draw.rectangle([0, 0, n - 1, n - 1], fill=fill)
        for i in range(t.bevel):
            draw.line([(i, i), (n - 1 - i, i)], fill=p.covered_light)
            draw.line([(i, i), (i, n - 1 - i)], fill=p.covered_light)
            draw.line([(i, n - 1 - i), (n - 1 - i, n - 1 - i)], fill=p.covered_dark)
            draw.line([(n - 1 - i, i), (n - 1 - i, n - 1 - i)], fill=p.covered_dark)
    elif t.covered == "rounded":
        draw.rectangle([0, 0, n - 1, n - 1], fill=p.background)
        draw.rounded_rectangle([0, 0, n - 1, n - 1], radius=max(2, n // 5), fill=fill)
    elif t.covered == "gradient":
        for y in range(n):
            shade = tuple(int(c + (30 - 60 * y / max(1, n - 1)) * (1 if sum(fill) < 600 else -1) / 2) for c in fill)
            draw.line([(0, y), (n - 1, y)], fill=tuple(max(0, min(255, v)) for v in shade))
    else:
        draw.rectangle([0, 0, n - 1, n - 1], fill=fill)
    if t.covered in ("flat", "gradient") and t.gap == 0:
        # tiles drawn edge to edge with nothing between them show a grid line, as real clients do: else no
        # one, person or program, could see where one covered cell ends and the next begins
        line = tuple(max(0, c - 35) for c in fill) if sum(fill) > 150 else tuple(min(255, c + 35) for c in fill)
        draw.line([(n - 1, 0), (n - 1, n - 1)], fill=line)
        draw.line([(0, n - 1), (n - 1, n - 1)], fill=line)


def _opened(make: ClientMakeUp, draw: ImageDraw.ImageDraw, fill: RGB | None = None) -> None:
    n = make.cell
    draw.rectangle([0, 0, n - 1, n - 1], fill=fill or make.palette.opened)
    if make.tiles.opened_edge:
        edge = tuple(max(0, c - 40) for c in make.palette.opened)
        draw.line([(0, 0), (n - 1, 0)], fill=edge)
        draw.line([(0, 0), (0, n - 1)], fill=edge)


@cache
def _font(name: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONTS[name], size)
    except OSError:
        return ImageFont.load_default()


def _glyph(make: ClientMakeUp, draw: ImageDraw.ImageDraw, text: str, colour: RGB) -> None:
    n = make.cell
    font = _font(make.digits.font, max(6, round(n * make.digits.scale)))
    stroke = max(1, n // 24) if make.digits.outline else 0
    outline = (255, 255, 255) if sum(colour) < 250 else (0, 0, 0)
    draw.text((n / 2, n / 2), text, fill=colour, font=font, anchor="mm", stroke_width=stroke, stroke_fill=outline)


def _flag(make: ClientMakeUp, draw: ImageDraw.ImageDraw) -> None:
    n, colour = make.cell, make.palette.flag
    if make.tiles.flag == "letter":
        _glyph(make, draw, "F", colour)
    elif make.tiles.flag == "square":
        draw.rectangle([n * 0.3, n * 0.3, n * 0.7, n * 0.7], fill=colour)
    else:
        pole = make.palette.mine
        draw.line([(n * 0.55, n * 0.2), (n * 0.55, n * 0.8)], fill=pole, width=max(1, n // 14))
        draw.polygon([(n * 0.55, n * 0.2), (n * 0.25, n * 0.35), (n * 0.55, n * 0.5)], fill=colour)
        draw.line([(n * 0.3, n * 0.8), (n * 0.75, n * 0.8)], fill=pole, width=max(1, n // 14))


def _mine(make: ClientMakeUp, draw: ImageDraw.ImageDraw) -> None:
    n, colour = make.cell, make.palette.mine
    if make.tiles.mine == "star":
        _glyph(make, draw, "*", colour)
        return
    r = n * 0.25
    draw.ellipse([n / 2 - r, n / 2 - r, n / 2 + r, n / 2 + r], fill=colour)
    if make.tiles.mine == "spiked":
        w = max(1, n // 14)
        draw.line([(n * 0.15, n / 2), (n * 0.85, n / 2)], fill=colour, width=w)
        draw.line([(n / 2, n * 0.15), (n / 2, n * 0.85)], fill=colour, width=w)
        draw.line([(n * 0.25, n * 0.25), (n * 0.75, n * 0.75)], fill=colour, width=w)
        draw.line([(n * 0.25, n * 0.75), (n * 0.75, n * 0.25)], fill=colour, width=w)


def _cross(make: ClientMakeUp, draw: ImageDraw.ImageDraw) -> None:
    n, w = make.cell, max(1, make.cell // 10)
    draw.line([(n * 0.2, n * 0.2), (n * 0.8, n * 0.8)], fill=(230, 0, 0), width=w)
    draw.line([(n * 0.2, n * 0.8), (n * 0.8, n * 0.2)], fill=(230, 0, 0), width=w)


def draw_look(make: ClientMakeUp, look: str) -> np.ndarray:
    """The ``cell`` x ``cell`` RGB image of ``look``."""
    n = make.cell
    image = Image.new("RGB", (n, n), make.palette.background)
    draw = ImageDraw.Draw(image)
    p, t = make.palette, make.tiles
    if look in ("#", "F", "?", "lit"):
        _covered(make, draw, p.lit if look == "lit" else p.covered)
        if look == "lit" and t.hover == "outline":
            _covered(make, draw, p.covered)
            draw.rectangle([0, 0, n - 1, n - 1], outline=p.text, width=max(1, n // 16))
        if look == "F":
            _flag(make, draw)
        elif look == "?":
            _glyph(make, draw, "?", p.text if p.scheme != "coloured" else (0, 0, 0))
    elif look == "pressed":
        _opened(make, draw)
    elif look in ".12345678":
        _opened(make, draw)
        if look != "." or make.digits.zero:
            digit = 0 if look == "." else int(look)
            r, g, b = p.opened
            colour = make.digits.colours[digit - 1] if digit else (max(0, r - 60), max(0, g - 60), max(0, b - 60))
            _glyph(make, draw, str(digit), colour)
    elif look == "*":
        _opened(make, draw)
        _mine(make, draw)
    elif look == "!":
        if t.exploded == "ground":
            _opened(make, draw, p.exploded)
            _mine(make, draw)
        else:
            _opened(make, draw)
            _mine(make, draw)
            draw.ellipse([1, 1, n - 2, n - 2], outline=p.exploded, width=max(2, n // 8))
    elif look == "X":
        if t.wrong == "cross-flag":
            _covered(make, draw, p.covered)
            _flag(make, draw)
        else:
            _opened(make, draw)
            _mine(make, draw)
        _cross(make, draw)
    else:
        raise ValueError(f"no look {look!r}")
    return np.asarray(image, np.uint8).copy()


def sheet(make: ClientMakeUp) -> dict[str, np.ndarray]:
    """Every look's image."""
    return {look: draw_look(make, look) for look in LOOKS}


#: the truth of each look as a board character: a lit tile is covered; a tile drawn pressed is covered too,
#: but looks exactly like an opened empty cell, which no name can tell apart: it is left out of the sheet
TRUTH = {look: ("#" if look == "lit" else look) for look in LOOKS if look != "pressed"}
#: a sheet's columns (its looks one per cell, each beside covered cells, as on a board in play)
SHEET_COLS = 8


def truth_sheet(make: ClientMakeUp) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    """Every look of ``make`` laid out as the client lays out its board (its gap, its border, its background):
    the image (RGB), the cells' column and row edges, and each cell's true character."""
    looks = list(TRUTH)
    rows = 2 * ((len(looks) + SHEET_COLS - 1) // SHEET_COLS) + 1
    grid = [["#"] * SHEET_COLS for _ in range(rows)]
    for i, look in enumerate(looks):
        grid[1 + 2 * (i // SHEET_COLS)][i % SHEET_COLS] = look
    pitch, border, n = make.pitch, make.tiles.border, make.cell
    width, height = 2 * border + SHEET_COLS * pitch - make.tiles.gap, 2 * border + rows * pitch - make.tiles.gap
    image = np.zeros((height + 40, width + 40, 3), np.uint8)
    image[:, :] = make.palette.background
    sprites = sheet(make)
    x0, y0 = 20 + border, 20 + border
    for r, row in enumerate(grid):
        for c, look in enumerate(row):
            image[y0 + r * pitch:y0 + r * pitch + n, x0 + c * pitch:x0 + c * pitch + n] = sprites[look]
    half = make.tiles.gap // 2
    x_edges = tuple(x0 - half + c * pitch for c in range(SHEET_COLS + 1))
    y_edges = tuple(y0 - half + r * pitch for r in range(rows + 1))
    return image, x_edges, y_edges, tuple("".join(TRUTH[look] for look in row) for row in grid)
