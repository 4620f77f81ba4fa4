"""Hints: a likely name for each look that no step of the naming proves, shown to the user once and used only
if the user confirms it (``proved=False``); and the glyphs that tell a number drawn on another background.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sweepbot.calibration.counts import exact_counts
from sweepbot.calibration.facts import NO_NAME, Name, Naming
from sweepbot.calibration.looks import Looks
from sweepbot.calibration.possible import frame_board, frames_with, possible_game

#: A glyph pixel differs from the tile's background by more than this (sum over channels); two glyphs are
#: the same when their masks overlap this much (intersection over union) and their colours this closely.
GLYPH_CONTRAST = 120
GLYPH_OVERLAP = 0.85
GLYPH_COLOUR = 40


def hints(looks: Looks, names: Naming, complete: set[int]) -> None:
    """A likely name for each look no step proved, to show the user once, in this order: a number counted
    on a cell or two at a loss; a number's glyph on another background (sgt-mines draws a number with too
    many flags around it on pink); the exploded mine (once in a frame that shows a loss and has none yet); a
    flag (seen during play, when no flag is named); after a loss, a wrong flag (looks most like a mine or a
    flag) or a question mark (looks most like a covered cell); the only number a look can be."""
    grids = looks.grids
    mines = [k for k, n in names.items() if n.char in "*!F" and n.proved]
    shown = {i for i, g in enumerate(grids) if any(names.get(int(k), NO_NAME).char == "*" for k in np.unique(g))}
    exact = exact_counts(grids, names, looks.count, complete | shown)
    open_ = [k for k in range(looks.count) if k not in names]
    present = [{int(k): int(n) for k, n in zip(*np.unique(g, return_counts=True), strict=True)} for g in grids]
    frames_of = {k: {i for i, p in enumerate(present) if k in p} for k in open_}
    tested = {k: frames_with(grids, k) for k in open_}

    def lost(i: int) -> bool:
        return any(names.get(k, NO_NAME).char in "*!" for k in present[i])

    def nearest(k: int) -> str:
        j = min(names, key=lambda j: looks.distance(k, j))
        return names[j].char

    for k in open_:  # numbers counted at a loss
        matrix = exact.get(k)
        if matrix is None or not mines or nearest(k) in "F?X#*!":
            continue
        values = matrix[mines].sum(axis=0)
        value = int(values[0])
        ch = "." if value == 0 else str(value)
        if (values == value).all() and value <= 8 and ch not in {n.char for n in names.values()}:
            names[k] = Name(ch, f"{len(values)} cell(s) with {value} mine(s) around them", proved=False)
    number_glyphs = [(n.char, *glyph(looks.images[j])) for j, n in names.items() if n.char in "12345678" and n.proved]
    for k in open_:  # a named number's glyph on another background (a client's highlight of an error)
        same = same_glyph(looks.images[k], number_glyphs) if k not in names else None
        if same is not None:
            names[k] = Name(same, f"the glyph of a {same} on another background", proved=False)
    for k in sorted(open_, key=lambda k: -looks.counts[k]):
        if k in names:
            continue
        frames = frames_of[k]
        once = all(present[i][k] == 1 for i in frames)
        after_loss = all(lost(i) for i in frames)
        if once and not any(names.get(j, NO_NAME).char == "!" for i in frames for j in present[i]):
            names[k] = Name("!", "once in a frame, where no exploded mine is named: the mine clicked", proved=False)
        elif not after_loss and not any(n.char == "F" for n in names.values()):
            names[k] = Name("F", "seen during play, and no flag is named: a flag", proved=False)
        elif after_loss and nearest(k) in "*!F":
            names[k] = Name("X", "seen only after a loss, most like a mine or flag: a wrong flag", proved=False)
        elif nearest(k) in "#F":
            names[k] = Name("?", "most like a covered cell or a flag, and no number: a question mark", proved=False)
    table = np.array([names[k].char if k in names else "-" for k in range(looks.count)])
    for k in open_:  # the only number a look can be, if it is a number
        if k in names:
            continue
        fits: list[str] = []
        for digit in ".12345678":
            trial = table.copy()
            trial[k] = digit
            if all(possible_game(frame_board(grids[i], trial, i in complete)) for i in tested[k]):
                fits.append(digit)
        if len(fits) == 1:
            names[k] = Name(fits[0], "if it is a number, no other makes every frame a possible game", proved=False)


def glyph(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tile's glyph: the mask of pixels far from its background (its commonest colour; at least half as
    far as the farthest, so that antialiased edges on a light or a dark background count alike), and their
    mean colour."""
    pixels = image.reshape(-1, 3).astype(np.int16)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    background = colours[np.argmax(counts)]
    distance = np.abs(pixels - background).sum(axis=1)
    mask = distance > max(GLYPH_CONTRAST, distance.max() / 2)
    colour = pixels[mask].mean(axis=0) if mask.any() else np.zeros(3)
    return mask.reshape(image.shape[:2]), colour


def same_glyph(image: np.ndarray, numbers: Sequence[tuple[str, np.ndarray, np.ndarray]]) -> str | None:
    """The number whose glyph (shape and colour) the tile ``image`` shows, if exactly one does (``numbers``:
    each named number's character with its :func:`glyph`)."""
    mask, colour = glyph(image)
    if mask.sum() < 4:
        return None
    found = set()
    for char, other, other_colour in numbers:
        shifted = [np.roll(mask, (dy, dx), (0, 1)) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        overlap = max(float((m & other).sum()) / float((m | other).sum() or 1) for m in shifted)
        if overlap >= GLYPH_OVERLAP and np.abs(colour - other_colour).max() <= GLYPH_COLOUR:
            found.add(char)
    return found.pop() if len(found) == 1 else None
