"""Which look each cell of a located board is, or refused: the plain scores (``vision.cells``) held to the
board's limits, with a second look at refused cells, a fit to the screen's brightness when the screen
differs from the looks all over, and, for looks drawn at another size, numbers taken only when held close
or drawn in their digit's colour. Every number that decides is the table's (``vision.limits``).

With the track of the frame before (``vision.track``), only what changed is looked at again.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweepbot.board import COVERED, ZERO, unheld_numbers
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, distances, score, windows_at
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.ink import colour_rules
from sweepbot.vision.levels import fit_levels, level_guesses, levels_differ, with_levels
from sweepbot.vision.profile import Profile
from sweepbot.vision.track import Kept, Look, Scored, Track, score_frame


def classify(
    image: np.ndarray, geometry: Geometry, profile: Profile, levels: bool = True, max_rms: float | None = None,
    last: Track | None = None, whole: bool = True,
) -> CellScores:
    """Score every cell; with ``levels``, undo a brightness/contrast change when the screen shows one. With
    ``last`` (the ``track`` of an earlier frame's scores), only the cells whose pixels changed are looked at
    afresh (see ``vision.track``); the result is the same as without. A profile's own ``max_rms`` is the
    most it accepts (None: the table's ``max_rms``). ``whole``: the geometry holds a whole board, every cell
    around a number among its cells (not a line of cells beside one)."""
    max_rms = limits.LIMITS.max_rms if max_rms is None else max_rms
    if profile.max_rms is not None:
        # a profile drawn at another size sets its own limit (see vision.scaled); any other may only tighten it
        max_rms = profile.max_rms if profile.drawn_from else min(max_rms, profile.max_rms)
    plain = score_frame(image, geometry, profile, max_rms, None if last is None else last.plain)
    kept = Kept.after(last, geometry, profile, max_rms)
    scores, looks = _scored(image, geometry, profile, plain, levels, max_rms, whole, kept)
    if profile.drawn_from:
        # the numbers' colours as the looks that scored them show them: fitted to the screen's brightness (a fit
        # is made afresh each frame: its checks are not kept)
        scores = _numbers_held_close(plain.windows, geometry, looks, scores, kept if looks is profile else Kept())
        if whole:
            scores = _flood_kept(scores)
    return replace(scores, track=kept.track(plain))


def _numbers_held_close(windows: np.ndarray, geometry: Geometry, profile: Profile, scores: CellScores,
                        kept: Kept) -> CellScores:
    """``scores`` with the numbers neither held close (the table's ``drawn_number_rms`` and
    ``drawn_number_margin``) nor inked as their digit (up to ``drawn_ink_rms``, see ``vision.ink``) refused
    (``windows``: the cells' windows as cut from the image): a profile drawn at another size never names a
    number it only comes near. A number taken by its colour is held apart only from the looks its colour
    does not rule out (``vision.ink.colour_rules``): a digit drawn anew may come nearer another digit's shape,
    or the empty cell it is drawn on, than to its own look."""
    table = limits.LIMITS
    loose = np.isin(scores.chars, list("12345678")) & (
        (scores.rms > table.drawn_number_rms) | (scores.margin < table.drawn_number_margin))
    if not loose.any():
        return scores
    rms, margin = scores.rms.copy(), scores.margin.copy()
    cells = np.flatnonzero(loose & (rms <= table.drawn_ink_rms))
    digits = [str(ch) for ch in scores.chars.reshape(-1)[cells]]
    # cells drawn alike (a board's many 1s) are looked at once, and once only while their pixels stay
    keys = [(windows[i].tobytes(), digit) for i, digit in zip(cells, digits, strict=True)]
    fresh = {key: i for i, key in zip(cells, keys, strict=True) if key not in kept.inks_before}
    if fresh:
        kept.inks.update(zip(fresh, _margins_among(windows[list(fresh.values())], [d for _, d in fresh], profile),
                             strict=True))
        kept.inked += len(fresh)
    for i, key in zip(cells, keys, strict=True):
        apart = kept.inks[key] if key in kept.inks else kept.inks_before[key]
        kept.inks[key] = apart
        if apart is not None:
            r, c = divmod(int(i), geometry.cols)
            loose[r, c] = False
            rms[r, c] = min(rms[r, c], scores.max_rms)  # taken by its colour: within the profile's limit
            margin[r, c] = max(margin[r, c], apart)
    return replace(scores, chars=np.where(loose, "~", scores.chars), rms=rms, margin=margin)


def _flood_kept(scores: CellScores) -> CellScores:
    """``scores`` with the empty cells read beside a covered tile refused: looks drawn at another size, held
    only loosely, may name another client's tiles, or a brightened covered tile, an empty cell."""
    odd = zeros_beside_covered(np.where(scores.accepted, scores.chars, "~"))
    return replace(scores, odd=odd) if odd.any() else scores


def zeros_beside_covered(chars: np.ndarray) -> np.ndarray:
    """Which cells of a board (rows x cols characters) are empty revealed cells with a covered tile around
    them: a client opens every cell around an empty one, so no settled board shows one, and a board read with
    one was read wrongly (or caught half drawn). Flags and question marks may lie beside one (an opening
    passes over marked tiles)."""
    rows, cols = chars.shape
    covered = np.pad(chars == COVERED, 1)
    near = np.zeros((rows, cols), bool)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            near |= covered[dy : dy + rows, dx : dx + cols]
    return np.asarray((chars == ZERO) & near)


def _margins_among(windows: np.ndarray, digits: list[str], profile: Profile) -> list[float | None]:
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


def _scored(image: np.ndarray, geometry: Geometry, profile: Profile, plain: Scored, levels: bool,
            max_rms: float, whole: bool, kept: Kept) -> tuple[CellScores, Profile]:
    """The cells' scores, and the looks that scored them (``profile``'s, or fitted to the screen's
    brightness)."""
    scores = plain.scores
    table = limits.LIMITS
    if not _anchored(scores) and max_rms > table.unanchored_rms:
        # every cell alike (a fresh board): only a near-exact match tells covered from revealed on a screen
        # that may be brighter or darker; with a profile drawn at another size, whose looks come only so
        # close, a cell unlike the rest (the mine that went off at a first click) keeps the profile's limit
        scores = _minority_kept(scores) if profile.drawn_from else replace(scores, max_rms=table.unanchored_rms)
    if not scores.accepted.all():
        scores = _nudge(image, geometry, profile, scores, kept)
    if levels and levels_differ(lambda: kept.window_means(plain), profile, scores.chars, scores.best,
                                 float(scores.rms.mean()), bool(scores.accepted.all())):
        # the screen differs from the templates all over: perhaps brighter or darker
        adjusted = _fit_profile_levels(plain.windows, profile)
        if adjusted is not profile:
            fitted = score(plain.windows.astype(np.float32), adjusted, geometry.rows, geometry.cols, max_rms)
            if _anchored(fitted) and float(fitted.rms.mean()) < float(scores.rms.mean()) - 1.0 \
                    and not (whole and unheld_numbers(fitted.grid())):
                # (a fit may make a covered tile look like an open empty cell, around numbers that then count
                # more mines than their neighbours can hold: that fit is wrong)
                return replace(_nudge(image, geometry, adjusted, fitted, Kept()), leveled=True), adjusted
    return scores, profile


def _fit_profile_levels(windows: np.ndarray, profile: Profile) -> Profile:
    """Templates adjusted to the screen's brightness: the best of a few guesses, then least-squares fits.
    Windows drawn alike pixel for pixel (a board's covered tiles) are worked on once, counted as many."""
    first, inverse = distinct_rows(windows)
    counts = np.bincount(inverse).astype(np.float64)
    windows = windows[first].astype(np.float32)
    best: tuple[float, int] | None = None
    wsq = np.einsum("ij,ij->i", windows, windows)
    for k, (stack, norms) in enumerate(level_guesses(profile)):
        d = wsq[:, None] + norms[None, :] - 2.0 * (windows @ stack.T)
        total = float((np.maximum(d, 0.0).min(axis=1) * counts).sum())
        if best is None or total < best[0]:
            best = (total, k)
    assert best is not None
    g, o = limits.LIMITS.level_guesses[best[1]]
    current = with_levels(profile, (np.full(3, g), np.full(3, o)))
    for _ in range(3):
        scores = score(windows, current, len(windows), 1)
        fit = fit_levels(windows, profile, scores.best, counts)
        if fit is None:
            return current  # no sensible least-squares fit (a plain tile near white): the best guess stands
        current = with_levels(profile, fit)
    return current


def _nudge(image: np.ndarray, geometry: Geometry, profile: Profile, scores: CellScores, kept: Kept) -> CellScores:
    """Second chance for refused cells (up to the table's ``nudge_most``, or a ``nudge_share`` of the board):
    their windows moved by up to ``nudge_reach`` px each way (a client that draws at fractional positions puts
    some glyphs a pixel off). Only a few cells, so cheap; each cell's look depends on the pixels around its
    window alone, and is taken again only when they changed (``kept``)."""
    table = limits.LIMITS
    reach = table.nudge_reach
    bad = scores.refused()
    if not bad or len(bad) > max(table.nudge_most, geometry.rows * geometry.cols // table.nudge_share):
        return scores
    ox, oy, w, h = profile.crop
    origins, arounds, looks = [], [], []
    for r, c in bad:
        x0, y0 = geometry.xs[c] + ox, geometry.ys[r] + oy
        part = image[max(y0 - reach, 0) : y0 + h + reach, max(x0 - reach, 0) : x0 + w + reach]
        around = np.asarray(part.shape).tobytes() + part.tobytes()
        look = kept.looks_before.get(r * geometry.cols + c)
        origins.append((x0, y0))
        arounds.append(around)
        looks.append(look if look is not None and look.around == around else None)
    fresh = [i for i, look in enumerate(looks) if look is None]
    if fresh:
        for i, look in zip(fresh, _looks(image, [origins[i] for i in fresh], profile, scores.max_rms), strict=True):
            looks[i] = replace(look, around=arounds[i])
        kept.looked += len(fresh)
    chars, rms, margin, best = (a.copy() for a in (scores.chars, scores.rms, scores.margin, scores.best))
    for (r, c), look in zip(bad, looks, strict=True):
        assert look is not None
        kept.looks[r * geometry.cols + c] = look
        if look.rms < rms[r, c]:
            chars[r, c], rms[r, c], margin[r, c], best[r, c] = look.char, look.rms, look.margin, look.best
    return CellScores(chars, rms, margin, best, scores.max_rms, held=scores.held)


def _looks(image: np.ndarray, origins: list[tuple[int, int]], profile: Profile, max_rms: float) -> list[Look]:
    """For each window (by its top left pixel), the best of its shifts, scored exactly. One fast product
    finds each window's nearest shifts; those within float32's rounding of the nearest are scored exactly, and
    the exactly nearest taken (the first of equals): the windows looked at beside one change nothing."""
    reach = limits.LIMITS.nudge_reach
    _, _, w, h = profile.crop
    height, width = image.shape[:2]
    steps = np.arange(-reach, reach + 1)
    x0s, y0s = (np.array([o[axis] for o in origins]) for axis in (0, 1))
    # each window's top left pixel for every move (dy, dx), kept inside the image: windows x moves
    ys = np.clip(y0s[:, None, None] + steps[None, :, None], 0, height - h) + np.zeros((1, 1, len(steps)), int)
    xs = np.clip(x0s[:, None, None] + steps[None, None, :], 0, width - w) + np.zeros((1, len(steps), 1), int)
    ys, xs = ys.reshape(len(origins), -1), xs.reshape(len(origins), -1)
    moves = ys.shape[1]
    shifted = windows_at(image, ys, xs, (w, h)).astype(np.float32)
    d = distances(shifted, profile, batched=True).min(axis=1).reshape(len(origins), moves)
    wsq = np.einsum("ij,ij->i", shifted, shifted).reshape(len(origins), moves)
    # float32's rounding of a distance: well under a ten-thousandth of the sums it is taken from
    near = d <= (d.min(axis=1) + 1e-4 * (wsq.max(axis=1) + float(profile.norms.max())))[:, None]
    cells, tried = np.nonzero(near)
    # shifts of a plain tile are often the same pixels: each distinct window is scored once
    first, inverse = distinct_rows(shifted[cells * moves + tried])
    exact = score(shifted[(cells * moves + tried)[first]], profile, len(first), 1, max_rms)
    looks = []
    for i in range(len(origins)):
        these = inverse[cells == i]
        k = these[int(exact.rms[these, 0].argmin())]
        looks.append(Look(b"", str(exact.chars[k, 0]), float(exact.rms[k, 0]), float(exact.margin[k, 0]),
                          int(exact.best[k, 0])))
    return looks


def _minority_kept(scores: CellScores) -> CellScores:
    """The cells of the board's most common look held to ``unanchored_rms``, the others to the profile's limit.
    A held cell that misses is refused as the look it is nearest (a covered tile a pixel off stays a covered
    tile refused, never an open cell of unknown number)."""
    values, counts = np.unique(scores.chars, return_counts=True)
    return replace(scores, held=scores.chars == values[int(counts.argmax())])


def _anchored(scores: CellScores) -> bool:
    """A brightness fit is trusted only when at least two kinds of cell pin it down: on a board of covered
    cells alone, a brighter screen and a board of revealed cells look the same."""
    _, counts = np.unique(scores.chars[scores.accepted], return_counts=True)
    return int((counts >= 2).sum()) >= 2
