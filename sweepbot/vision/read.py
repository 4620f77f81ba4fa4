"""From a screenshot to a Board, in stages, each run once: locate the grid, fit the profile that reads it,
check the board, read it and its counter (:func:`read_screenshot`).

The game loop calls :func:`read_screenshot` once to find the board and its profile, then
:func:`read_located` on each new frame with the geometry and profile it got, keeping what the frame before
saw (a few ms at 30x16; only the cells whose pixels changed are scored again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from sweepbot.board import NUMBERS, Board, game_over, holds_no_mine
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, windows_area
from sweepbot.vision.counter import counter_area, counter_pixels, flags_placed, read_counter
from sweepbot.vision.decide import classify
from sweepbot.vision.edges import goes_on_past, without_phantom_line
from sweepbot.vision.fit import Fit, best_fit, drawn_at_size, exact, likeliest, pitch_fits, rank, resizes
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.opened import as_opened
from sweepbot.vision.profile import Profile, available_profiles, select_profiles
from sweepbot.vision.redraw import even_grid, is_uneven, off_pitch, redraw
from sweepbot.vision.scaled import LARGEST, SMALLEST
from sweepbot.vision.track import Track, score_frame


class ReadError(SweepbotError):
    """Cells that match no template well: named, with their crops for a person to look at (kept in memory;
    the command line writes them only where the user asks)."""

    def __init__(self, message: str, cells: Sequence[tuple[int, int]] = (),
                 crops: dict[tuple[int, int], np.ndarray] | None = None, board_but_unread: PartRead | None = None,
                 ) -> None:
        super().__init__(message)
        self.cells = list(cells)
        self.crops = crops or {}
        self.board_but_unread = board_but_unread


@dataclass(frozen=True)
class PartRead:
    """A board read but for some cells: each row's characters with ``REFUSED`` where a cell matched no look
    well, and the cells' edges on the frame (``xs``: cols + 1 values, ``ys``: rows + 1)."""

    grid: tuple[str, ...]
    xs: tuple[int, ...]
    ys: tuple[int, ...]


#: A cell of a :class:`PartRead` read that matched no look well.
REFUSED = "~"


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


#: The most crops of unread cells one error carries.
MAX_CROPS = 200


def refuse(image: np.ndarray, geometry: Geometry, scores: CellScores, profile: Profile) -> ReadError:
    """The error for cells that match nothing, with their crops."""
    bad = scores.refused()
    crops: dict[tuple[int, int], np.ndarray] = {}
    for r, c in bad[:MAX_CROPS]:
        x, y, w, h = geometry.cell_rect(r, c)
        crop = image[max(y, 0) : y + h, max(x, 0) : x + w]
        if crop.size:
            crops[(r, c)] = crop.copy()
    names = ", ".join(
        f"({r}, {c}) ~{scores.chars[r, c]} rms {scores.rms[r, c]:.0f} margin {scores.margin[r, c]:.2f}"
        + (" beside a covered tile" if scores.odd is not None and scores.odd[r, c] else "")
        for r, c in bad[:8]
    )
    more = f" and {len(bad) - 8} more" if len(bad) > 8 else ""
    if profile.lacks_numbers:
        missing = ", ".join(ch for ch in NUMBERS if ch not in profile.chars)
        more += (f" ({profile.name} has no look for {missing}: such a cell is refused here; play reads it as an "
                 "open cell of unknown number and learns it)")
    grid = np.where(scores.accepted, scores.chars, REFUSED)
    part_read = PartRead(tuple("".join(row) for row in grid), tuple(geometry.xs), tuple(geometry.ys))
    return ReadError(f"{len(bad)} cell(s) match no template of profile {profile.name} well: {names}{more}", bad, crops,
                     part_read)


def read_located(
    image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float | None = None, levels: bool = True,
    opened_unknown: bool = False, last: Seen | None = None,
) -> Reading:
    """Read a board whose geometry and profile are known (the game loop's per-frame call).

    Raises :class:`ReadError` naming every cell that matches no template well. With ``opened_unknown`` (a
    calibrated profile still learning), a few such cells that look most like an open cell (a number, the
    empty cell, an open cell of unknown number, or a look calibration left unnamed) are read as ``=``: open,
    number not known. With ``last`` (``seen`` of the last reading of this board) only the cells whose pixels
    changed are classified again, and the counter is read again only if its pixels changed; the reading is
    the same. A board whose cells differ in size, of a client whose cells grow in play, is read with each
    cell drawn at the profile's size (see ``vision.redraw``); the reading keeps the board's own geometry.
    """
    drawn, at = as_read(image, geometry, profile)
    scores = classify(drawn, at, profile, levels=levels, max_rms=max_rms, last=None if last is None else last.cells)
    if not scores.accepted.all():
        scores = as_opened(scores, at, profile) if opened_unknown else scores
        if not scores.accepted.all():
            raise refuse(drawn, at, scores, profile)
        if holds_no_mine(scores.grid()):
            # the cells no look fits, taken for open ones, leave no cell a mine could be under
            raise all_open(at)
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


def all_open(grid: Geometry) -> ReadError:
    """The error for a board every cell of which reads as opened (cells of unknown number among them)."""
    return ReadError(f"every cell of the board found ({grid.rows}x{grid.cols} cells) reads as an opened cell: no "
                     "game shows a board without mines; not read")


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




def learning(profile: Profile) -> bool:
    """A calibrated profile (not a built-in one) learns the looks it meets in play."""
    return profile.folder is not None and not profile.in_package


def reads_unknown(profile: Profile) -> bool:
    """Whether a few cells no look fits may read as open cells of unknown number (``=``, with
    ``opened_unknown``): with a profile still learning, or a built-in one made at the board's size whose games
    never showed every number (gnome-mines's 46 px profile has no 6, 7 or 8). Such a profile holds the numbers
    it has within ``unseen_number_share`` (``vision.cells``), so that a number it lacks is not named as one it
    has; play reads such a cell open and goes on, where refusing it would stop the game."""
    return learning(profile) or profile.lacks_numbers


def read_screenshot(
    image: np.ndarray,
    profile: str | None = None,
    profiles: Sequence[Profile] | None = None,
    geometry: Geometry | None = None,
    opened_unknown: bool = False,
) -> Reading:
    """Locate the board (unless ``geometry`` is given), pick the client whose looks fit it best and read every
    cell.

    Each client is tried at the board's own cell size: its profile made at that size, or else its profile of
    the nearest size drawn at this one (``vision.scaled``: a window resized, a desktop or browser scale, a
    HiDPI screen). The client whose looks fit best reads the board; a cell no look fits is refused, never read
    as another client's look. A profile made at this size that reads every cell nearly exactly is taken at
    once.

    The stages, in order, each run once:

    1. the profiles to try (``profile``: those of that name; ``profiles``: these; else every one known);
    2. the grid of cells, located on the image (``vision.locate``) unless given;
    3. the fit (:func:`fit_board`): the profile that reads the grid best, with the grid lined up with its looks
       and every cell's scores, each cell named or refused (``vision.decide``), an outer line of the window's
       background lined up with the cells left out;
    4. the board's own checks on the fit (:func:`unreadable`): every cell named, the board not all open, the
       grid not going on past an edge;
    5. the board read with the fit's profile on its grid, the scores the fit took kept (:func:`read_located`:
       cells read as open with their number unknown, the mines-left counter).
    """
    candidates = select_profiles(profile, available_profiles() if profiles is None else profiles)
    if not candidates:
        raise ReadError("no profiles to read with")
    found = geometry or locate(image)
    seen, fit, placed = fit_board(image, found, candidates, opened_unknown, trim=geometry is None)
    kept = None if fit.scores.track is None else Seen(fit.scores.track, None, None)
    reading = read_located(seen, fit.grid, fit.profile, opened_unknown=opened_unknown and reads_unknown(fit.profile),
                           last=kept)
    return reading if placed is None else replace(reading, geometry=placed)


def fit_board(image: np.ndarray, found: Geometry, candidates: Sequence[Profile], opened_unknown: bool,
              trim: bool = True) -> tuple[np.ndarray, Fit, Geometry | None]:
    """The profile that reads the board found, and where: the image it reads (``image``, or each cell drawn at
    the profile's size), its fit there, and the grid on ``image`` when the cells were drawn anew (else None).
    Raises the :class:`ReadError` that says why no profile reads it.

    The grid is read as it is (:func:`choose`) unless its cells differ in size (or grew) for a client whose cells
    change size in play (:func:`_resizing`, read by :func:`_uneven_fit`). With ``trim``, an outer line of the
    window's background that lined up with the cells and reads as empty open cells beside covered ones
    (``vision.edges.without_phantom_line``) is left out of the fit: the profile and the other cells' scores
    stand (the board is then read without the scores the fit took, :func:`read_located` scoring its cells
    afresh)."""
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
    if error is not None:
        raise error
    assert best is not None
    return image, best, None


def choose(image: np.ndarray, found: Geometry, candidates: Sequence[Profile]) -> Fit | None:
    """The profile that reads the board best: of those whose looks fit its cell size as they are (one made at
    that size that reads it nearly exactly taken at once, before the others are tried); unless the best of
    them reads it nearly exactly, also of the clients likeliest by a sample of its cells, each with every
    size of its looks drawn at the board's (``vision.fit.likeliest``), until one reads every cell. None when
    no profile fits the board's cell size."""
    direct = [p for p in candidates if pitch_fits(p, found.pitch) and p.fits_size(found.rows, found.cols)]
    best = best_fit(image, found, direct, take_exact=True)
    if best is None or not exact(best.scores):
        alone, together = drawn_at_size(candidates, direct, found)
        for client in likeliest(image, found, alone, together):
            fit = best_fit(image, found, client)
            best = fit if fit is not None and fit.beats(best) else best
            if best is not None and best.reads_all:
                break
    return best


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
