"""Which look each cell of a located board is, or refused, in stages, each run once: the plain scores
(``vision.cells``) held to the board's limits (a board of one look to a near-exact match, unless that look's
shape pins the screen's brightness: ``vision.levels``); the looks fitted to the screen's brightness when the
screen differs from them all over (``vision.levels``); a second look at the cells the looks chosen refuse
(``vision.shifted``); for looks drawn at another size, numbers taken only when held close, far nearer their
look than any other, or drawn in their digit's colour (``vision.ink``); empty cells beside covered tiles
refused. Every number that decides is the table's (``vision.limits``).

With the track of the frame before (``vision.track``), only what changed is looked at again, and the looks
fitted to the screen's brightness on a frame before are tried before a fit afresh.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from sweepbot.board import COVERED, ZERO, unheld_numbers
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.ink import margins_among
from sweepbot.vision.levels import fit_profile_levels, levels_differ, pinned_alone, pinned_by_shape
from sweepbot.vision.profile import Profile
from sweepbot.vision.shifted import ToBeat, nudged
from sweepbot.vision.track import Fitted, Kept, Scored, Track, score_frame


def classify(
    image: np.ndarray, geometry: Geometry, profile: Profile, levels: bool = True, max_rms: float | None = None,
    last: Track | None = None, whole: bool = True, ranked: bool = False, within: int | None = None,
) -> CellScores:
    """Score every cell; with ``levels``, undo a brightness/contrast change when the screen shows one. With
    ``last`` (the ``track`` of an earlier frame's scores), only the cells whose pixels changed are looked at
    afresh (see ``vision.track``); the result is the same as without, but on a screen brighter or darker than
    the looks, where the looks fitted to it on the frame before are used again while they read every cell
    (a fit made afresh would be made on this frame's cells). A profile's own ``max_rms`` is the most it accepts
    (None: the table's ``max_rms``). ``whole``: the geometry holds a whole board, every cell around a number
    among its cells (not a line of cells beside one, whose refused cells get no second look). ``ranked``:
    scores fitted to the screen's brightness keep the mean residual the looks as they are left (``shown_rms``),
    to rank fits by. ``within``: the most cells a fit of the board may refuse and still be chosen (the fewest
    a fit made before refuses, ``vision.fit.best_fit``): scores that cannot come within it are not looked at
    again cell by cell, and refuse more."""
    max_rms = limits.LIMITS.max_rms if max_rms is None else max_rms
    if profile.max_rms is not None:
        # a profile drawn at another size sets its own limit (see vision.scaled); any other may only tighten it
        max_rms = profile.max_rms if profile.drawn_from else min(max_rms, profile.max_rms)
    plain = score_frame(image, geometry, profile, max_rms, None if last is None else last.plain)
    kept = Kept.after(last, geometry, profile, max_rms)
    # a cell farther than this from every look is never named: drawn numbers are taken by their colour that far
    named_rms = max(max_rms, limits.LIMITS.drawn_ink_rms) if profile.drawn_from else max_rms
    to_beat = None if within is None else ToBeat(within, named_rms)
    scores, looks, shown = _scored(image, geometry, profile, plain, levels, max_rms, whole, kept, ranked, to_beat)
    if ranked and shown is not None:
        # the residual the looks as they are left (what a read without the fit finds)
        if profile.drawn_from:
            shown = _numbers_held_close(plain, profile, shown, Kept())
        scores = replace(scores, shown_rms=float(shown.rms.mean()))
    if profile.drawn_from:
        # the numbers' colours as the looks that scored them show them: fitted to the screen's brightness (checks
        # against fitted looks are not kept from frame to frame)
        scores = _numbers_held_close(plain, looks, scores, kept if looks is profile else Kept())
    if whole and profile.drawn_from:
        scores = _flood_kept(scores)
    elif whole and profile.lacks_numbers:
        scores = _flood_kept(scores, limits.LIMITS.exact_rms)
    return replace(scores, track=kept.track(plain))


def _numbers_held_close(plain: Scored, profile: Profile, scores: CellScores,
                        kept: Kept) -> CellScores:
    """``scores`` with the numbers neither held close (the table's ``drawn_number_rms`` and
    ``drawn_number_margin``, the margin a share of the cell's own distance to its look too) nor inked as
    their digit (up to ``drawn_ink_rms``, see ``vision.ink``) refused (``plain``: the cells' windows as cut
    from the image): a profile drawn at another size never names a number it only comes near, nor one that
    comes nearly as near another character (digits drawn small differ by a few pixels: a cell far from both
    looks is nearly as near one as the other). A number taken by its colour is held apart only from the looks
    its colour does not rule out (``vision.ink.colour_rules``): a digit drawn anew may come nearer another
    digit's shape, or the empty cell it is drawn on, than to its own look."""
    table = limits.LIMITS
    codes = scores.chars.view(np.uint32)  # one code point a cell: a digit's are those of "1" to "8"
    # the margin is taken as well as a share of the cell's own distance to its look (squared, as the margin's
    # distances are): a cell far from two looks drawn close together is nearly as near one as the other,
    # however large a share of their distance it is nearer
    nearer = scores.rival ** 2 - scores.rms ** 2
    # farther than drawn_number_rms, only a cell far nearer its look than any other's is named by its shape
    far = (scores.rms > table.drawn_number_rms) & (scores.rival < table.drawn_number_apart * scores.rms)
    loose = (codes >= ord("1")) & (codes <= ord("8")) & (
        far | (scores.margin < table.drawn_number_margin) | (nearer < table.drawn_number_margin * scores.rms ** 2))
    if not loose.any():
        return scores
    cells = np.flatnonzero(loose & (scores.rms <= table.drawn_ink_rms))
    digits = scores.chars.reshape(-1)[cells]
    # what a check found: the margin of a number taken by its colour, NaN where it is not
    apart = np.full(len(cells), np.nan)
    # cells drawn alike (a board's many 1s) are looked at once, and once only while their pixels stay
    unknown: dict[tuple[bytes, str], list[int]] = {}
    for k in range(len(cells)):
        key = (plain.windows[cells[k]].tobytes(), str(digits[k]))
        if key in kept.inks:
            apart[k] = kept.inks[key]
        else:
            unknown.setdefault(key, []).append(k)
    if unknown:
        firsts = [ks[0] for ks in unknown.values()]
        found = margins_among(plain.windows[cells[firsts]], [str(digits[k]) for k in firsts], profile)
        for (key, ks), one in zip(unknown.items(), found, strict=True):
            kept.inks[key] = np.nan if one is None else one
            apart[ks] = kept.inks[key]
        kept.inked += len(unknown)
    taken = cells[~np.isnan(apart)]
    loose.reshape(-1)[taken] = False
    rms, margin = scores.rms.copy(), scores.margin.copy()
    # taken by its colour: within the profile's limit
    rms.reshape(-1)[taken] = np.minimum(rms.reshape(-1)[taken], scores.max_rms)
    margin.reshape(-1)[taken] = np.maximum(margin.reshape(-1)[taken], apart[~np.isnan(apart)])
    return replace(scores, chars=np.where(loose, "~", scores.chars), rms=rms, margin=margin)


def _flood_kept(scores: CellScores, exact: float | None = None) -> CellScores:
    """``scores`` with the empty cells read beside a covered tile refused (with ``exact``, those not matched
    within it, pixel for pixel): looks drawn at another size, held only loosely, may name another client's
    tiles, or a brightened covered tile, an empty cell; and a number a profile never saw (it lacks that
    number's look) may come nearer the empty cell's look than the limits tell apart (an 8 drawn small, in
    grey, on a darker ground), where on a board it lies among covered tiles. No number matches the empty cell
    pixel for pixel."""
    odd = zeros_beside_covered(scores.chars, scores.accepted)
    if exact is not None:
        odd &= scores.rms > exact
    return replace(scores, odd=odd) if odd.any() else scores


def zeros_beside_covered(chars: np.ndarray, named: np.ndarray | None = None) -> np.ndarray:
    """Which cells of a board (rows x cols characters; of them, those ``named``, or all) are empty revealed
    cells with a covered tile around them: a client opens every cell around an empty one, so no settled board
    shows one, and a board read with one was read wrongly (or caught half drawn). Flags and question marks
    may lie beside one (an opening passes over marked tiles)."""
    codes = chars.view(np.uint32)  # one code point a cell
    covered, zero = codes == ord(COVERED), codes == ord(ZERO)
    if named is not None:
        covered, zero = covered & named, zero & named
    near = cv2.dilate(covered.astype(np.uint8), _AROUND)  # every cell beside a covered tile, and the tile
    return zero & near.astype(bool)


#: A cell and the eight around it.
_AROUND = np.ones((3, 3), np.uint8)


def _scored(image: np.ndarray, geometry: Geometry, profile: Profile, plain: Scored, levels: bool,
            max_rms: float, whole: bool, kept: Kept, ranked: bool,
            to_beat: ToBeat | None) -> tuple[CellScores, Profile, CellScores | None]:
    """The cells' scores, the looks that scored them (``profile``'s, or fitted to the screen's brightness),
    and, where they were fitted and the fit is ``ranked``, the scores the looks as they are gave (None: the
    same). In stages, each run once: the plain scores held to the board's limits; where the screen differs
    from the looks all over, the looks fitted to it (on a frame before, or afresh); then, on a whole board, a
    second look at the cells the looks chosen refuse (a line of cells beside a board is read where it is: a
    window beyond the board's edge moved toward it would take in the board's own edge). With ``to_beat``, a
    fit that cannot be chosen takes no second looks (the scores the looks as they are leave, ``ranked``, are
    taken in full: they rank a fit that may be)."""
    held = _held_when_alike(plain, profile, max_rms, kept)
    if levels and levels_differ(lambda: kept.window_means(plain), profile, held.chars, held.best,
                                 float(held.rms.mean()), bool(held.accepted.all())):
        fitted = _fitted_before(image, geometry, profile, plain, held, max_rms, whole, kept) \
            or _fitted_afresh(image, geometry, profile, plain, held, max_rms, whole, kept, to_beat)
        if fitted is not None:
            return fitted[0], fitted[1], nudged(image, geometry, profile, held, kept) if ranked else None
    return (nudged(image, geometry, profile, held, kept, to_beat) if whole else held), profile, None


def _held_when_alike(plain: Scored, profile: Profile, max_rms: float, kept: Kept) -> CellScores:
    """The plain scores held to the table's ``unanchored_rms`` where too few kinds of cell are named to pin a fit
    to the screen's brightness (see :func:`_anchored`): on a board of cells all alike (a fresh board) only a
    near-exact match tells covered from revealed on a screen that may be brighter or darker. With a profile
    drawn at another size, whose looks come only so close, a cell unlike the rest (the mine that went off at a
    first click) keeps the profile's limit (:func:`_minority_kept`), and every cell does where the look most
    of them show pins the screen by its shape (``vision.levels.pinned_by_shape``: no other look comes near
    them at any brightness)."""
    scores = plain.scores
    if _anchored(scores) or max_rms <= limits.LIMITS.unanchored_rms:
        return scores
    if not profile.drawn_from:
        return replace(scores, max_rms=limits.LIMITS.unanchored_rms)
    return scores if pinned_by_shape(profile, scores, lambda: kept.shape_residuals(plain)) else _minority_kept(scores)


def _fitted_before(image: np.ndarray, geometry: Geometry, profile: Profile, plain: Scored, scores: CellScores,
                   max_rms: float, whole: bool, kept: Kept) -> tuple[CellScores, Profile] | None:
    """The cells' scores against the looks fitted to the screen's brightness on a frame before (scored again
    only where the pixels changed), and those looks, while they read every cell (None: no such looks, or
    they do not)."""
    before = kept.fitted_before
    if before is None:
        return None
    again = score_frame(image, geometry, before.plain.profile, max_rms, before.plain, plain.windows)
    looks = Kept(looks_before=before.looks)
    held = _fit_taken(image, geometry, profile, again, scores, whole, looks)
    if held is None or not held.accepted.all():
        return None
    kept.fitted = Fitted(again, looks.looks)
    return held, again.profile


def _fitted_afresh(image: np.ndarray, geometry: Geometry, profile: Profile, plain: Scored, scores: CellScores,
                   max_rms: float, whole: bool, kept: Kept,
                   to_beat: ToBeat | None = None) -> tuple[CellScores, Profile] | None:
    """The cells' scores against the looks fitted to the screen's brightness on this frame's cells, and those
    looks (None: no fit found, or not to be trusted: :func:`_fit_taken`)."""
    adjusted = fit_profile_levels(plain.windows, profile)
    if adjusted is profile:
        return None
    fitted = score_frame(image, geometry, adjusted, max_rms, windows=plain.windows)
    looks = Kept()
    taken = _fit_taken(image, geometry, profile, fitted, scores, whole, looks, to_beat)
    if taken is None:
        return None
    kept.fitted = Fitted(fitted, looks.looks)
    return taken, adjusted


def _fit_taken(image: np.ndarray, geometry: Geometry, profile: Profile, fitted: Scored, scores: CellScores,
               whole: bool, looks: Kept, to_beat: ToBeat | None = None) -> CellScores | None:
    """The cells' scores against looks fitted to the screen's brightness (``fitted``: their plain scores), with
    second looks at the cells they refuse (``looks``: those that may be taken again, and those taken); None
    when the fit is not to be trusted: it pins neither two kinds of cell nor one by its shape alone
    (``vision.levels.pinned_alone``), comes no nearer than the looks as they are (``scores``: their plain
    scores held to the board's limits), or makes a covered tile look like an open empty cell, around numbers
    that then count more mines than their neighbours can hold."""
    nearer = limits.LIMITS.fitted_nearer
    if not ((_anchored(fitted.scores) or pinned_alone(fitted.windows, profile, fitted.scores))
            and float(fitted.scores.rms.mean()) < float(scores.rms.mean()) - nearer
            and not (whole and unheld_numbers(fitted.scores.grid()))):
        return None
    return replace(nudged(image, geometry, fitted.profile, fitted.scores, looks, to_beat), leveled=True)


def _minority_kept(scores: CellScores) -> CellScores:
    """The cells of the board's most common look held to ``unanchored_rms``, the others to the profile's limit.
    A held cell that misses is refused as the look it is nearest (a covered tile a pixel off stays a covered
    tile refused, never an open cell of unknown number)."""
    values, counts = np.unique(scores.chars, return_counts=True)
    return replace(scores, held=scores.chars == values[int(counts.argmax())])


def _anchored(scores: CellScores) -> bool:
    """A brightness fit is trusted only when at least two kinds of cell pin it down (each named on the table's
    ``anchor_cells``): on a board of covered cells alone, a brighter screen and a board of revealed cells look
    the same; a gain and an offset need two levels."""
    _, counts = np.unique(scores.chars[scores.accepted], return_counts=True)
    return int((counts >= limits.LIMITS.anchor_cells).sum()) >= 2
