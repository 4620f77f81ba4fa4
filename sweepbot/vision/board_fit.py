"""The fit that reads a located board (:func:`fit_board`): the profile and grid that read it best, the
grid's outer line of background left out, a board whose cells change size in play drawn at its profile's size
first; or the error that says why no profile reads it (:func:`unreadable`). Of the grids a screenshot shows,
the first that a profile reads (:func:`fit_first`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from sweepbot.board import holds_no_mine
from sweepbot.errors import SweepbotError
from sweepbot.vision import limits
from sweepbot.vision.edges import goes_on_past, without_phantom_line
from sweepbot.vision.fit import (
    Fit,
    best_fit,
    drawn_at_size,
    exact,
    likeliest,
    made_at,
    own_at,
    pitch_fits,
    rank,
    resizes,
)
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.in_use import InUse
from sweepbot.vision.locate import Grids, LocateError
from sweepbot.vision.opened import as_opened, reads_unknown
from sweepbot.vision.profile import Profile
from sweepbot.vision.redraw import even_grid, is_uneven, off_pitch, redraw
from sweepbot.vision.refusal import ReadError, all_open, refuse
from sweepbot.vision.scaled import LARGEST, SMALLEST
from sweepbot.vision.track import score_frame


def fit_first(image: np.ndarray, grids: Grids, candidates: Sequence[Profile], opened_unknown: bool,
              trim: bool = True, in_use: InUse | None = None) -> tuple[np.ndarray, Fit, Geometry | None]:
    """:func:`fit_board` of the first of ``grids`` (the grids of cells on the screenshot, the likeliest board
    first: ``vision.locate.grids``) that a profile reads, the profile in use ranked first: ``in_use`` (with its
    client's other sizes, ``InUse.kin``) reads it when it can; the ``candidates`` are tried only where it does
    not, and not where it reads the board where it was but for cells under something (``InUse.mostly_read``).
    When no profile reads a grid, the error says why (both reasons, the profile in use's and the others')."""
    if in_use is None:
        return _first_read(image, grids, candidates, opened_unknown, trim)
    try:
        return _first_read(image, grids, [in_use.profile], opened_unknown, trim, in_use.kin())
    except SweepbotError as error:
        if in_use.mostly_read(error):
            raise
        first = error
    try:
        return _first_read(image, grids, candidates, opened_unknown, trim)
    except SweepbotError as error:
        raise in_use.told_beside(first, error) from error


def _first_read(image: np.ndarray, grids: Grids, candidates: Sequence[Profile], opened_unknown: bool,
                trim: bool, kin: Sequence[Profile] = ()) -> tuple[np.ndarray, Fit, Geometry | None]:
    """:func:`fit_board` of the first grid a profile reads; when none is, the error of the one read nearest
    whole (the fewest of its cells refused: a board under a dialog, not a chessboard beside it). The two
    likeliest taken for two boards (``Grids.twin``) are both read: when both read, or neither does, it is an
    error (which board is meant?); the one read is the board."""
    twin, ranked = grids.twin, grids.ranked
    errors: list[ReadError] = []
    for k, grid in enumerate(ranked):
        try:
            fitted = fit_board(image, grid, candidates, opened_unknown, trim, kin)
        except ReadError as err:
            errors.append(err)
            continue
        if twin is not None and k == 0:
            try:
                fit_board(image, ranked[1], candidates, opened_unknown, trim)
            except ReadError:
                return fitted
            raise LocateError(twin)
        return fitted
    if twin is not None:
        raise LocateError(twin)
    # the grid read nearest whole: a board but for a few cells under something, rather than a grid whose
    # every cell is refused (a chessboard), the likeliest first of equals
    raise min(errors, key=_unread_share)


def _unread_share(error: ReadError) -> float:
    """The share of a grid's cells a read left unread (1: all, or no cell read)."""
    part = error.board_but_unread
    if part is None or not part.grid:
        return 1.0
    return part.unread / (len(part.grid) * len(part.grid[0]))


def fit_board(image: np.ndarray, found: Geometry, candidates: Sequence[Profile], opened_unknown: bool,
              trim: bool = True, kin: Sequence[Profile] = ()) -> tuple[np.ndarray, Fit, Geometry | None]:
    """The profile that reads the board found, and where: the image it reads (``image``, or each cell drawn at
    the profile's size), its fit there, and the grid on ``image`` when the cells were drawn anew (else None).
    Raises the :class:`ReadError` that says why no profile reads it.

    The grid is read as it is (:func:`choose`) unless its cells differ in size (or grew) for a client whose cells
    change size in play (:func:`_resizing`, read by :func:`_uneven_fit`). With ``trim``, an outer line of the
    window's background that lined up with the cells and reads as empty open cells beside covered ones
    (``vision.edges.without_phantom_line``) is left out of the fit: the profile and the other cells' scores
    stand (the board is then read without the scores the fit took, ``vision.read.read_located`` scoring its cells
    afresh). ``kin`` (the candidates' clients' other sizes): tried beside the candidates where no candidate was
    made at the board's cell size and the profile chosen leaves cells to be read as open cells of unknown
    number, or refuses some (:func:`with_kin`)."""
    resizing = _resizing(found, candidates)
    if resizing:
        return _uneven_fit(image, found, resizing, opened_unknown)
    best = choose(image, found, candidates)
    trimmed = None if best is None or not trim else without_phantom_line(best.grid, best.scores)
    if best is not None and trimmed is not None:
        found, cut = trimmed
        resizing = _resizing(found, candidates)
        if resizing:
            return _uneven_fit(image, found, resizing, opened_unknown)
        best = replace(best, grid=found, scores=cut)
    error = unreadable(image, found, candidates, best, opened_unknown)
    fit = None if best is None else with_kin(image, found, candidates, kin, best, opened_unknown, error is None)
    if fit is None:
        assert error is not None
        raise error
    return image, fit, None


def with_kin(image: np.ndarray, found: Geometry, candidates: Sequence[Profile], kin: Sequence[Profile], best: Fit,
             opened_unknown: bool, reads: bool = True) -> Fit | None:
    """``best`` (the fit chosen: it ``reads`` the board, or it does not), or the fit chosen among the
    candidates and ``kin`` (their clients' other sizes, each drawn at the board's size) when that reads the
    board, with fewer cells left open cells of unknown number where ``best`` reads it, where no candidate
    was made at the board's cell size (drawn there from another size is not made there): their looks may name
    the cells of this size only in part (sgt-mines's 12 px looks, their windows moved a pixel, name its 13 px
    empty cells but not its 1s; drawn at 24 px, they name neither its 3s nor the mine that went off, which its
    32 px looks drawn there name), and a profile that leaves none unknown is not tried beside others (what it
    learnt in play is kept). None: ``best`` does not read the board, and no fit beside its kin does."""
    unread = int((~best.scores.accepted).sum())
    if not kin or not unread or any(own_at(p, best.grid.pitch) for p in candidates):
        return best if reads else None
    together = [*candidates, *kin]
    again = choose(image, found, together)
    if again is None or unreadable(image, found, together, again, opened_unknown) is not None:
        return best if reads else None
    return again if not reads or int((~again.scores.accepted).sum()) < unread else best


def choose(image: np.ndarray, found: Geometry, candidates: Sequence[Profile]) -> Fit | None:
    """The profile that reads the board best: of those whose looks fit its cell size as they are (one made at
    that size that reads it nearly exactly taken at once, before the others are tried; one not made there
    wanted first only where it reads every cell, :func:`_near_fit`); unless the best of them reads it nearly
    exactly, also of the clients likeliest by a sample of its cells, each with every size of its looks drawn
    at the board's (``vision.fit.likeliest``), until one reads every cell (a fit refusing more cells than one
    made before gets no second looks); then of the profiles put off. None when no profile fits the board's
    cell size."""
    direct = [p for p in candidates if pitch_fits(p, found.pitch) and p.fits_size(found.rows, found.cols)]
    best = best_fit(image, found, [p for p in direct if made_at(p, found.pitch)], take_exact=True)
    if best is not None and exact(best.scores):
        return best
    best, put_off = _near_fit(image, found, [p for p in direct if not made_at(p, found.pitch)], best)
    if best is not None and exact(best.scores):
        return best
    alone, together = drawn_at_size(candidates, direct, found)
    for client in likeliest(image, found, alone, together):
        best = _better(best_fit(image, found, client, beside=best), best)
        if best is not None and best.reads_all:
            break
    if put_off and (best is None or not best.reads_all):
        best = _better(best_fit(image, found, put_off, beside=best), best)
    return best


def _near_fit(image: np.ndarray, found: Geometry, near: Sequence[Profile],
              best: Fit | None) -> tuple[Fit | None, list[Profile]]:
    """``best`` or a better fit of the profiles ``near`` the board's cell size but not made there (a window or
    page scaled by a few percent: read with its looks as they are), each wanted here only where it reads every
    cell (another client's looks that near refuse them all: their second looks are not taken), and the
    profiles that did not, put off until the looks drawn at the board's size have been tried."""
    put_off: list[Profile] = []
    for p in near:
        fit = best_fit(image, found, [p], within=0)
        if fit is not None and fit.reads_all:
            best = _better(fit, best)
        else:
            put_off.append(p)
    return best, put_off


def _better(fit: Fit | None, best: Fit | None) -> Fit | None:
    return fit if fit is not None and fit.beats(best) else best


def _resizing(found: Geometry, candidates: Sequence[Profile]) -> list[Profile]:
    """The profiles of clients whose cells change size in play that read this board with each cell drawn at
    their size: its cells differ in size (or lie off the profile's even grid) within a pixel of the
    profile's; or, no profile made at its cell size, its cells are the profile's grown (every column widened
    by a digit in it) down to the table's ``grown`` share. None of them: the board is read as it is."""
    widths, heights = np.diff(found.xs), np.diff(found.ys)
    fitting = [p for p in candidates if resizes(p) and widths.min() - 1 <= p.pitch[0] <= widths.max() + 1
               and heights.min() - 1 <= p.pitch[1] <= heights.max() + 1]
    resized = [p for p in fitting if is_uneven(found) or off_pitch(found, p.pitch)]
    if resized or any(pitch_fits(p, found.pitch) and p.fits_size(found.rows, found.cols) for p in candidates):
        return resized
    least = limits.LIMITS.grown
    return [p for p in candidates if resizes(p) and not pitch_fits(p, found.pitch)
            and least * widths.min() <= p.pitch[0] <= widths.min()
            and least * heights.min() <= p.pitch[1] <= heights.min()]


def unreadable(image: np.ndarray, found: Geometry, candidates: Sequence[Profile], best: Fit | None,
               opened_unknown: bool) -> ReadError | None:
    """Why the fit chosen does not read the board (None: it does): no profile fits its cell size, cells
    refused (unless, with ``opened_unknown`` and a profile that reads them so, :func:`reads_unknown`, they
    read as open cells of unknown number), every cell an open one (no game shows a board without mines: a
    plain area matched by another screen's opened cells), or the grid seeming to go on past an edge (a board
    of the wrong size)."""
    if best is None:
        sizes = ", ".join(sorted({f"{p.pitch[0]:g}" for p in candidates}))
        return ReadError(
            f"found a {found.rows}x{found.cols} board with {found.pitch[0]:.1f}x{found.pitch[1]:.1f} px cells, but "
            f"no profile fits it (profile cell sizes: {sizes} px, each read from {SMALLEST:g} to {LARGEST:g} px); "
            "calibrate one for this client"
        )
    grid, chosen, scores = best.grid, best.profile, best.scores
    read = scores
    if not scores.accepted.all() and opened_unknown and reads_unknown(chosen):
        read = as_opened(scores, grid, chosen)
    if not read.accepted.all():
        return refuse(image, grid, scores, chosen)
    if holds_no_mine(read.grid()):
        return all_open(grid)
    side = goes_on_past(image, grid, chosen, scores)
    if side is not None:
        return ReadError(f"the board found ({grid.rows}x{grid.cols} cells) seems to go on past its {side} edge: "
                         "not read, to avoid reading a board of the wrong size")
    return None


def _uneven_fit(image: np.ndarray, found: Geometry, candidates: Sequence[Profile],
                opened_unknown: bool) -> tuple[np.ndarray, Fit, Geometry]:
    """The fit of a board whose cells differ in size (or grew), read with each cell drawn at a profile's size
    (``vision.redraw``) on an even grid from the board's corner, as :func:`fit_board` answers it: each
    profile fitted once, to the cells drawn from where they lie (:func:`_drawn_source`)."""
    widths = np.diff(found.xs)
    first: ReadError | None = None
    for p in [p for p in candidates if p.fits_size(found.rows, found.cols)]:
        fitted, even, drawn = _drawn_source(image, found, p)
        best = choose(drawn, even, [p])
        error = unreadable(drawn, even, [p], best, opened_unknown)
        if error is not None:
            first = first or error
            continue
        assert best is not None
        return drawn, best, fitted.shifted(best.grid.xs[0] - even.xs[0], best.grid.ys[0] - even.ys[0])
    if first is not None:
        raise first
    raise ReadError(f"found a {found.rows}x{found.cols} board with cells from {widths.min()} to {widths.max()} px "
                    "wide, but no profile fits it; calibrate one for this client or size")


def _drawn_source(image: np.ndarray, found: Geometry, profile: Profile) -> tuple[Geometry, Geometry, np.ndarray]:
    """Where a board whose cells are drawn at ``profile``'s size lies: the located grid moved by each of the
    table's ``source_shifts`` in turn (located edges may lie a pixel or two off those calibration drew its
    cells from, and a cell drawn from a wider one is not merely moved then, but squeezed otherwise), the first
    whose cells, drawn, the profile's looks all name, else the one they refuse fewest cells of and come
    nearest (the cells' plain scores: ``vision.track.score_frame``). That grid, the even grid its cells are
    drawn on, and the image with them drawn there."""
    max_rms = limits.LIMITS.max_rms if profile.max_rms is None else profile.max_rms
    best: tuple[float, Geometry, Geometry, np.ndarray] | None = None
    for sx, sy in limits.LIMITS.source_shifts:
        fitted = found.shifted(sx, sy)
        even = even_grid(fitted, profile.pitch)
        drawn = redraw(image, fitted, even, profile)
        scores = score_frame(drawn, even, profile, max_rms).scores
        if scores.accepted.all():
            return fitted, even, drawn
        ranked = rank(scores)
        if best is None or ranked < best[0]:
            best = (ranked, fitted, even, drawn)
    assert best is not None
    return best[1:]
