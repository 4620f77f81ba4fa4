"""The colour a number is drawn in: most clients draw each digit in a colour of its own (1 blue, 2 green,
3 red, or a background of its own), which stays the same at any size while the digit's shape, drawn anew,
does not. A number read by a profile drawn at another size whose pixels do not come close to the template
is taken only when its colour is its digit's and no other digit's; its colour then rules out every look
drawn in no colour or in one as far off (see :func:`ruled_out`)."""

from __future__ import annotations

import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.derived import derived
from sweepbot.vision.profile import Profile

DIGITS = "12345678"


def ink(pixels: np.ndarray) -> np.ndarray | None:
    """The colour of the coloured pixels among ``pixels`` (N x 3), None if too few are coloured (the table's
    ``ink_spread`` and ``min_ink``): the median of the most coloured quarter of them, a stroke's core, which
    a digit drawn larger or smaller (its edges blended with the ground) keeps."""
    table = limits.LIMITS
    spread = pixels.max(axis=1).astype(np.int16) - pixels.min(axis=1).astype(np.int16)
    coloured = spread >= table.ink_spread
    if coloured.sum() < table.min_ink * len(pixels) or not coloured.any():
        return None
    core = spread >= np.percentile(spread[coloured], 75)
    return np.median(pixels[core].astype(np.float32), axis=0)


def look_inks(profile: Profile) -> list[np.ndarray | None]:
    """Each look's colour (None: drawn in no colour)."""
    return derived(profile, "look inks", lambda: [ink(profile.template(i).reshape(-1, 3))
                                                   for i in range(len(profile.labels))])


def digit_inks(profile: Profile) -> dict[str, np.ndarray]:
    """Each digit's colour, from the first of its looks drawn in a colour (digits drawn in none left out)."""
    def made() -> dict[str, np.ndarray]:
        inks: dict[str, np.ndarray] = {}
        for ch, colour in zip(profile.labels, look_inks(profile), strict=True):
            if ch in DIGITS and ch not in inks and colour is not None:
                inks[ch] = colour
        return inks

    return derived(profile, "digit inks", made)


def inked_as(pixels: np.ndarray, digit: str, inks: dict[str, np.ndarray]) -> bool:
    """Whether a cell's ``pixels`` (N x 3) are drawn in ``digit``'s colour, and in no other digit's (the
    table's ``ink_match`` and ``ink_apart``)."""
    return _inked(pixels, digit, inks) is not None


def ruled_out(pixels: np.ndarray, digit: str, profile: Profile) -> np.ndarray | None:
    """For a cell read as ``digit``: None unless its ``pixels`` are inked as that digit (:func:`inked_as`);
    else which of the profile's looks its colour rules out: every look drawn in no colour (its pixels give
    no cell coloured ones) or in a colour as far from the cell's as another digit's must be."""
    found = _inked(pixels, digit, digit_inks(profile))
    if found is None:
        return None
    mine, near = found
    apart = limits.LIMITS.ink_apart * max(near, 4.0)
    return np.array([colour is None or float(np.linalg.norm(mine - colour)) >= apart
                     for colour in look_inks(profile)])


def _inked(pixels: np.ndarray, digit: str, inks: dict[str, np.ndarray]) -> tuple[np.ndarray, float] | None:
    """The cell's colour and its distance to ``digit``'s, when it is drawn in that digit's colour and in no
    other digit's; else None."""
    mine = ink(pixels)
    if mine is None or digit not in inks:
        return None
    near = float(np.linalg.norm(mine - inks[digit]))
    others = [float(np.linalg.norm(mine - c)) for ch, c in inks.items() if ch != digit]
    table = limits.LIMITS
    if near <= table.ink_match and all(v >= table.ink_apart * max(near, 4.0) for v in others):
        return mine, near
    return None
