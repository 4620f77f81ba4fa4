"""From a screenshot to a Board, in stages, each run once: locate the grid, fit the profile that reads it,
check the board, register drawn looks where the board shows them, read it and its counter
(:func:`read_screenshot`).

The game loop calls :func:`read_screenshot` once to find the board and its profile, then
:func:`read_located` on each new frame with the geometry and profile it got, keeping what the frame before
saw (a few ms at 30x16; only the cells whose pixels changed are scored again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from sweepbot.board import OPENED, Board, game_over, holds_no_mine
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision import limits
from sweepbot.vision.board_fit import fit_first
from sweepbot.vision.cells import CellScores, windows_area
from sweepbot.vision.counter import counter_area, counter_pixels, flags_placed, read_counter
from sweepbot.vision.decide import classify
from sweepbot.vision.fit import Fit, resizes
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.in_use import InUse
from sweepbot.vision.locate import Grids, grids
from sweepbot.vision.opened import as_opened, reads_unknown
from sweepbot.vision.profile import Profile, available_profiles, select_profiles
from sweepbot.vision.redraw import even_grid, off_pitch, redraw
from sweepbot.vision.refusal import ReadError, all_open, refuse
from sweepbot.vision.register import registered
from sweepbot.vision.track import Track


@dataclass(frozen=True, eq=False)
class Seen:
    """What a read of a located board saw, for the next read of the same board: each cell's window and
    scores, and the counter's pixels and the count they showed."""

    cells: Track
    counter: np.ndarray | None
    mines_left: int | None

    def counter_holds(self, geometry: Geometry, profile: Profile, pixels: np.ndarray | None) -> bool:
        """Whether the counter at this place, read with this profile, shows the pixels seen last time."""
        return (self.cells.plain.profile is profile and self.cells.plain.geometry == geometry and pixels is not None
                and self.counter is not None and same_pixels(pixels, self.counter))


def same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


@dataclass(frozen=True)
class Reading:
    """What was read from one screenshot; ``seen`` (from :func:`read_located`) is what the next read of the
    same board may keep."""

    board: Board
    geometry: Geometry
    profile: Profile
    scores: CellScores
    mines_left: int | None = None
    seen: Seen | None = field(default=None, compare=False, repr=False)

    @property
    def exact(self) -> bool:
        """Whether every cell matches its look pixel for pixel (each within the table's ``exact_rms``): nothing
        lies over the pixels read, whatever lies beside them."""
        return bool(self.scores.accepted.all()) and float(self.scores.rms.max()) <= limits.LIMITS.exact_rms

    def to_json(self) -> dict[str, object]:
        pw, ph = self.geometry.pitch
        out: dict[str, object] = {
            "rows": self.board.rows,
            "cols": self.board.cols,
            "board": list(self.board.grid),
            "bbox": list(self.geometry.bbox),
            "cell": [round(pw, 2), round(ph, 2)],
            "profile": self.profile.name,
        }
        if self.mines_left is not None:
            out["mines_left"] = self.mines_left
        if self.board.state is not None:
            out["state"] = self.board.state
        return out


def game_state(grid: Sequence[str], total: int | None) -> str | None:
    """``won`` or ``lost`` by the board's own rule (:func:`sweepbot.board.game_over`); else ``playing`` when
    the mine total is known, None when it is not."""
    over = game_over(Board(tuple(grid), total))
    return over or ("playing" if total is not None else None)


def read_located(
    image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float | None = None, levels: bool = True,
    opened_unknown: bool = False, last: Seen | None = None, unknown_before: int | None = None,
) -> Reading:
    """Read a board whose geometry and profile are known (the game loop's per-frame call).

    Raises :class:`ReadError` naming every cell that matches no template well. With ``opened_unknown`` (a
    calibrated profile still learning), a few such cells that look most like an open cell (a number, the
    empty cell, an open cell of unknown number, or a look calibration left unnamed) are read as ``=``: open,
    number not known. With ``last`` (``seen`` of the last reading of this board) only the cells whose pixels
    changed are classified again, and the counter is read again only if its pixels changed; the reading is
    the same. A board whose cells differ in size, of a client whose cells grow in play, is read with each
    cell drawn at the profile's size (see ``vision.redraw``); the reading keeps the board's own geometry.
    With ``unknown_before`` (the open cells of unknown number the last reading left), a board read with more
    is lined up again (:func:`lined_up`): the reading's geometry and profile are then those that read it.
    """
    drawn, at = as_read(image, geometry, profile)
    scores = named(drawn, at, profile, opened_unknown, classify(
        drawn, at, profile, levels=levels, max_rms=max_rms, last=None if last is None else last.cells))
    if unknown_before is not None and drawn is image and opened_cells(scores) > unknown_before:
        geometry, profile, scores = lined_up(image, geometry, profile, scores)
        at = geometry
    grid = scores.grid()
    pixels = counter_pixels(drawn, at, profile)
    if last is not None and last.counter_holds(at, profile, pixels):
        mines_left = last.mines_left
    else:
        mines_left = read_counter(drawn, at, profile)
    flags = flags_placed(grid)
    total = None if mines_left is None else mines_left + flags
    if total is not None and not 0 <= total <= geometry.rows * geometry.cols:
        total = None
    board = Board(grid, total, game_state(grid, total))
    seen = None if scores.track is None else Seen(scores.track, None if pixels is None else pixels.copy(),
                                                  mines_left)
    return Reading(board, geometry, profile, scores, mines_left, seen=seen)


def lined_up(image: np.ndarray, geometry: Geometry, profile: Profile,
             scores: CellScores) -> tuple[Geometry, Profile, CellScores]:
    """The board's grid, profile and cells as read (``scores``), or the grid lined up again with the same
    profile (drawn at the board's size where that fits better, registered where the board shows its looks:
    :func:`fitted`; beside its client's other sizes where it was not made at the board's size,
    ``vision.board_fit.with_kin``) when that reads fewer open cells of unknown number: a new board of plain
    tiles lines the grid up only roughly, and cells opened since show where they really are (a grid a few
    pixels off reads their numbers as unknown), and looks drawn from one size may not name a number that
    another size's, drawn there, name."""
    try:
        _, fit, placed, unknown = fitted(image, Grids((geometry,)), [profile], True, trim=False,
                                        in_use=InUse(profile, geometry))
        if placed is not None:  # its cells drawn anew: a client whose cells change size, never read so here
            return geometry, profile, scores
        again = named(image, fit.grid, fit.profile, unknown, classify(
            image, fit.grid, fit.profile, last=fit.scores.track))
    except SweepbotError:
        return geometry, profile, scores
    if opened_cells(again) >= opened_cells(scores):
        return geometry, profile, scores
    return fit.grid, fit.profile, again


def opened_cells(scores: CellScores) -> int:
    """Open cells of unknown number among the cells read."""
    return int(np.count_nonzero(scores.chars == OPENED))


def named(image: np.ndarray, geometry: Geometry, profile: Profile, opened_unknown: bool,
          scores: CellScores) -> CellScores:
    """The board's cells as read: ``scores`` with its refused cells read as open cells of unknown number with
    ``opened_unknown`` (``vision.opened.as_opened``). Raises :class:`ReadError` naming the cells still
    refused, or when the cells so read leave no cell a mine could be under."""
    if scores.accepted.all():
        return scores
    scores = as_opened(scores, geometry, profile) if opened_unknown else scores
    if not scores.accepted.all():
        raise refuse(image, geometry, scores, profile)
    if holds_no_mine(scores.grid()):
        # the cells no look fits, taken for open ones, leave no cell a mine could be under
        raise all_open(geometry)
    return scores


def as_read(image: np.ndarray, geometry: Geometry, profile: Profile) -> tuple[np.ndarray, Geometry]:
    """The image and grid a board is read on with ``profile``: as they are, or, for a client whose cells change
    size in play on a board whose cells are not all at the profile's size, each cell drawn at that size
    (``vision.redraw``) on an even grid from the board's corner."""
    if not (resizes(profile) and off_pitch(geometry, profile.pitch)):
        return image, geometry
    even = even_grid(geometry, profile.pitch)
    return redraw(image, geometry, even, profile), even


def reading_area(geometry: Geometry, profile: Profile) -> Rect:
    """The rectangle of an image that :func:`read_located` reads, with the whole board: the cells (with the
    few pixels a refused cell's window may move by) and the mines-left counter. Pixels outside it may be
    anything: a frame current only there reads the same as a whole one."""
    parts = [Rect(*geometry.bbox), windows_area(geometry, profile.crop), counter_area(geometry, profile)]
    kept = [part for part in parts if part is not None and part.w > 0 and part.h > 0]
    x0, y0 = min(part.x for part in kept), min(part.y for part in kept)
    return Rect(x0, y0, max(part.right for part in kept) - x0, max(part.bottom for part in kept) - y0)




def read_screenshot(
    image: np.ndarray,
    profile: str | None = None,
    profiles: Sequence[Profile] | None = None,
    geometry: Geometry | None = None,
    opened_unknown: bool = False,
    in_use: InUse | None = None,
) -> Reading:
    """Locate the board (unless ``geometry`` is given), pick the client whose looks fit it best and read every
    cell.

    Each client is tried at the board's own cell size: its profile made at that size, or else its profile of
    the nearest size drawn at this one (``vision.scaled``: a window resized, a desktop or browser scale, a
    HiDPI screen). The client whose looks fit best reads the board; a cell no look fits is refused, never read
    as another client's look. A profile made at this size that reads every cell nearly exactly is taken at
    once.

    The stages, in order, each run once:

    1. the profiles to try (``profile``: those of that name; ``profiles``: these; else every one known), the
       profile in use (``in_use``: the one that read the board on the frames before) ranked first;
    2. the grids of cells, located on the image (``vision.locate.grids``: the likeliest board first, any other
       grid beside it after) unless given;
    3. the fit (``vision.board_fit.fit_first``): of the first grid a profile reads, the profile that reads it
       best (the profile in use when it reads it: ``vision.in_use``), with the grid lined up
       with its looks and every cell's scores, each cell named or refused (``vision.decide``), an outer line of
       the window's background lined up with the cells left out;
    4. the board's own checks on the fit (``vision.board_fit.unreadable``): every cell named, the board not all
       open, the grid not going on past an edge;
    5. a profile drawn at another size registered where the board shows its looks and its counter's line
       (:func:`registered_fit`), when its looks name every cell as the fit did: the profile the board and the
       next frames are read with;
    6. the board read with that profile on the fit's grid, the cells' scores kept (:func:`read_located`:
       cells read as open with their number unknown, the mines-left counter).
    """
    candidates = select_profiles(profile, available_profiles() if profiles is None else profiles)
    if not candidates:
        raise ReadError("no profiles to read with")
    found = Grids((geometry,)) if geometry is not None else grids(image)
    seen, fit, placed, unknown = fitted(image, found, candidates, opened_unknown, geometry is None, in_use)
    kept = None if fit.scores.track is None else Seen(fit.scores.track, None, None)
    reading = read_located(seen, fit.grid, fit.profile, opened_unknown=unknown, last=kept)
    return reading if placed is None else replace(reading, geometry=placed)


def fitted(image: np.ndarray, found: Grids, candidates: Sequence[Profile], opened_unknown: bool, trim: bool,
           in_use: InUse | None = None) -> tuple[np.ndarray, Fit, Geometry | None, bool]:
    """Stages 3 to 5 of :func:`read_screenshot`: the fit of the first of the grids ``found`` that a profile
    reads (``vision.board_fit.fit_first``: the image it reads, the fit, and the grid on ``image`` where the
    cells were drawn anew), a profile drawn at another size registered where the board shows its looks
    (:func:`registered_fit`), and whether open cells of unknown number are read (``opened_unknown`` and a
    profile that reads them so)."""
    seen, fit, placed = fit_first(image, found, candidates, opened_unknown, trim=trim, in_use=in_use)
    unknown = opened_unknown and reads_unknown(fit.profile)
    return seen, registered_fit(seen, fit, unknown), placed, unknown


def registered_fit(image: np.ndarray, fit: Fit, opened_unknown: bool) -> Fit:
    """``fit`` (of a board by a profile drawn at another size) with the looks that its cells showed a few
    pixels off registered where the board shows them (``vision.register``), and the cells scored with them,
    when they name every cell as ``fit`` did: the board is then read, and the next frames, with them, most
    cells where they are rather than by a second look. ``fit`` as it is when no look is registered, or the
    looks registered name the cells otherwise."""
    try:
        read = named(image, fit.grid, fit.profile, opened_unknown, fit.scores)
    except ReadError:
        return fit  # (the board is refused when it is read)
    moved = registered(fit.profile, read, image, fit.grid)
    if moved is fit.profile:
        return fit
    scores = classify(image, fit.grid, moved)
    try:
        if named(image, fit.grid, moved, opened_unknown, scores).grid() != read.grid():
            return fit
    except ReadError:
        return fit
    return replace(fit, profile=moved, scores=scores)
