"""The colour a number is drawn in: most clients draw each digit in a colour of its own (1 blue, 2 green,
3 red, or a background of its own), which stays the same at any size while the digit's shape, drawn anew,
does not. A number read by a profile drawn at another size whose pixels do not come close to the template
is taken only when its colour is its digit's and no other digit's; its colour then rules out every look
drawn in no colour or in one as far off. Every cell of a frame is worked on at once (:func:`inks`,
:func:`colour_rules`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.cells import distances
from sweepbot.vision.derived import derived
from sweepbot.vision.profile import Profile

DIGITS = "12345678"


def inks(pixels: np.ndarray) -> np.ndarray:
    """The colour of the coloured pixels of each of K cells (``pixels``: K x N x 3), K x 3 float32, a row of
    NaN where too few are coloured (the table's ``ink_spread`` and ``min_ink``): the median of the most
    coloured quarter of them (at or above the 75th percentile of their spread, interpolated linearly), a
    stroke's core, which a digit drawn larger or smaller (its edges blended with the ground) keeps."""
    table = limits.LIMITS
    k, n = pixels.shape[:2]
    blue, green, red = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    spread = (np.maximum(np.maximum(blue, green), red).astype(np.int16)
              - np.minimum(np.minimum(blue, green), red).astype(np.int16))
    coloured = spread >= table.ink_spread
    count = coloured.sum(axis=1)
    rows = np.arange(k)
    # each cell's coloured spreads are the last ``count`` of its spreads sorted, the others put below them
    ordered = np.sort(np.where(coloured, spread, -1), axis=1).astype(np.float64)
    at = np.minimum((n - count) + 0.75 * np.maximum(count - 1, 0), n - 1)
    low = np.floor(at).astype(np.intp)
    high = np.minimum(low + 1, n - 1)
    below, above = ordered[rows, low], ordered[rows, high]
    quarter = below + (above - below) * (at - low)
    core = spread >= quarter[:, None]
    # the median of each channel over a cell's core: its core pixels sorted first, the others put after them
    size = core.sum(axis=1)
    values = np.sort(np.where(core[:, :, None], pixels.astype(np.float32), np.float32(np.inf)), axis=1)
    middle = (values[rows, np.maximum(size - 1, 0) // 2] + values[rows, size // 2]) / np.float32(2)
    middle[(count < table.min_ink * n) | (count == 0)] = np.nan
    return middle


def ink(pixels: np.ndarray) -> np.ndarray | None:
    """The colour of one cell's coloured pixels (N x 3; see :func:`inks`), None if too few are coloured."""
    colour = inks(pixels[None])[0]
    return None if np.isnan(colour).any() else colour


def look_inks(profile: Profile) -> list[np.ndarray | None]:
    """Each look's colour (None: drawn in no colour)."""
    return derived(profile, "look inks", lambda: [ink(profile.template(i).reshape(-1, 3))
                                                   for i in range(len(profile.labels))])


def digit_inks(profile: Profile) -> dict[str, np.ndarray]:
    """Each digit's colour, from the first of its looks drawn in a colour (digits drawn in none left out)."""
    def made() -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for ch, colour in zip(profile.labels, look_inks(profile), strict=True):
            if ch in DIGITS and ch not in found and colour is not None:
                found[ch] = colour
        return found

    return derived(profile, "digit inks", made)


def inked_as(pixels: np.ndarray, digit: str, known: dict[str, np.ndarray]) -> bool:
    """Whether a cell's ``pixels`` (N x 3) are drawn in ``digit``'s colour, and in no other digit's (the
    table's ``ink_match`` and ``ink_apart``)."""
    return bool(_inked(inks(pixels[None]), [digit], known)[0][0])


def colour_rules(pixels: np.ndarray, digits: Sequence[str], profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """For K cells (``pixels``: K x N x 3) read as ``digits``: which are inked as their digit (in its colour
    and no other digit's: :func:`inked_as`), and, K x looks, which of the profile's looks each one's colour
    rules out: every look drawn in no colour (its pixels give no cell coloured ones) or in a colour as far
    from the cell's as another digit's must be (none for a cell not inked as its digit)."""
    taken, apart, mine = _inked(inks(pixels), digits, digit_inks(profile))
    coloured, colours = _look_colours(profile)
    far = np.zeros((len(digits), len(coloured)), bool)
    far[:, coloured] = _norms(mine[:, None, :] - colours[None, :, :]) >= apart[:, None]
    return taken, (far | ~coloured[None, :]) & taken[:, None]


def _look_colours(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """Which looks are drawn in a colour, and those colours (one row each), worked out once per profile."""
    def made() -> tuple[np.ndarray, np.ndarray]:
        looks = look_inks(profile)
        colours = [c for c in looks if c is not None]
        return (np.array([c is not None for c in looks], bool),
                np.array(colours, np.float32).reshape(len(colours), 3))

    return derived(profile, "look colours", made)


def _inked(colours: np.ndarray, digits: Sequence[str], known: dict[str, np.ndarray]) \
        -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For K cells of these ``colours`` (K x 3, NaN: none) read as ``digits``: which are drawn in their
    digit's colour and in no other digit's, how far a look's colour must be to be ruled out (the table's
    ``ink_apart`` times the cell's distance to its digit's colour, at least ``ink_least_gap``), and the
    colours (NaN-free)."""
    table = limits.LIMITS
    names = list(known)
    found = ~np.isnan(colours).any(axis=1) & np.array([d in known for d in digits], bool)
    mine = np.where(found[:, None], colours, np.float32(0))
    if not names:
        return found, np.zeros(len(digits)), mine
    palette = np.array([known[ch] for ch in names], np.float32)
    gaps = _norms(mine[:, None, :] - palette[None, :, :]).astype(np.float64)  # K x digits
    own = np.array([names.index(d) if d in known else 0 for d in digits], np.intp)
    near = gaps[np.arange(len(digits)), own]
    apart = table.ink_apart * np.maximum(near, table.ink_least_gap)
    others = np.where(np.arange(len(names))[None, :] == own[:, None], np.inf, gaps)
    taken = found & (near <= table.ink_match) & (others >= apart[:, None]).all(axis=1)
    return taken, apart, mine


def _norms(differences: np.ndarray) -> np.ndarray:
    """The length of each colour difference (last axis), in float32 as one cell's would be taken."""
    return np.sqrt(np.einsum("...i,...i->...", differences, differences))


def margins_among(windows: np.ndarray, digits: list[str], profile: Profile) -> list[float | None]:
    """For each window read as its digit: its margin (see ``vision.cells``) against the looks its colour does
    not rule out (``vision.ink.colour_rules``); None when it is not taken by its colour."""
    taken, out = colour_rules(windows.reshape(len(windows), -1, 3), digits, profile)
    labels = np.array(profile.labels)
    own = labels[None, :] == np.array(digits)[:, None]
    wanted = own | ~out  # each cell's own looks and its rivals: the distances to any other are never looked at
    looks = np.flatnonzero(wanted[taken].any(axis=0))
    d = np.full((len(windows), len(labels)), np.inf)
    if taken.any():
        d[np.ix_(np.flatnonzero(taken), looks)] = distances(windows[taken].astype(np.float32), profile, looks=looks)
    margins: list[float | None] = []
    for k in range(len(digits)):
        mine, rivals = np.flatnonzero(own[k]), np.flatnonzero(~own[k] & ~out[k])
        if not taken[k]:
            margins.append(None)
        elif not len(rivals):
            margins.append(1.0)
        else:
            near, far = mine[d[k, mine].argmin()], rivals[d[k, rivals].argmin()]
            margins.append(float((d[k, far] - d[k, near]) / max(float(profile.pairs[near, far]), 1e-9)))
    return margins
