"""From a screenshot to a Board: locate, pick the profile that fits, align, classify, read the counter.

The game loop calls :func:`read_screenshot` once to find the board and its profile, then
:func:`read_located` on each new frame with the geometry and profile it got (fast: a few ms at 30x16).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from sweepbot.board import COVERED, ZERO, Board, game_over, holds_no_mine
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, distances, windows_area
from sweepbot.vision.counter import counter_area, counter_pixels, flags_placed, read_counter
from sweepbot.vision.decide import classify
from sweepbot.vision.edges import goes_on_past, without_phantom_line
from sweepbot.vision.fit import best_fit, drawn_at_size, exact, likeliest, pitch_fits, resizes
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.profile import BUILTIN_DIR, Profile, available_profiles, select_profiles
from sweepbot.vision.redraw import even_grid, is_uneven, off_pitch, redraw
from sweepbot.vision.scaled import LARGEST, SMALLEST
from sweepbot.vision.track import Track


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
        scores = _opened(scores, at, profile) if opened_unknown else scores
        if not scores.accepted.all():
            raise refuse(drawn, at, scores, profile)
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
    return profile.folder is not None and profile.folder.parent != BUILTIN_DIR


def _opened(scores: CellScores, geometry: Geometry, profile: Profile) -> CellScores:
    bad = scores.refused()
    cells = geometry.rows * geometry.cols
    # the most cells read as ``=`` on one board (the table's ``max_opened``, ``opened_share``); with a profile
    # drawn at another size, which has every digit to learn, any cell whose nearest look is an opened cell's,
    # as long as ``drawn_fitting_share`` of the board's cells fit the drawn looks as they are
    table = limits.LIMITS
    most = ((1 - table.drawn_fitting_share) * cells if profile.drawn_from
            else max(table.max_opened, cells // table.opened_share))
    # nearest a mine, too, on a board that shows none (a game on, or won with its mines covered): an unseen
    # number drawn in the mines' colour; on a board that shows mines it may be one drawn another way
    shows_mines = bool(np.isin(scores.chars[scores.accepted], list("*!X")).any())
    like_opened = ".12345678~=" if shows_mines else ".12345678~=*"
    if len(bad) > most or any(str(scores.chars[r, c]) not in like_opened for r, c in bad):
        return scores
    windows = None if scores.track is None else scores.track.plain.windows
    if windows is None or not _clear_of_covered(windows[[r * geometry.cols + c for r, c in bad]], profile).all():
        # half-way between a covered tile and an open look (a tile pressed or lit under the pointer, drawn
        # while the client answers a click): not proved open
        return scores
    chars = scores.chars.copy()
    rms, margin = scores.rms.copy(), scores.margin.copy()
    for r, c in bad:
        chars[r, c], rms[r, c], margin[r, c] = "=", 0.0, 1.0
    return replace(scores, chars=chars, rms=rms, margin=margin)


def _clear_of_covered(windows: np.ndarray, profile: Profile) -> np.ndarray:
    """Whether each window (uint8 or float, one a row) is an open cell rather than a covered tile: nearer the
    empty cell's look than a covered tile's by the reader's margin, as :mod:`vision.cells` measures it (a
    profile without an empty cell's look: nearer some look other than a covered tile's); or showing the
    empty cell's ground on most of its pixels and a covered tile's face on fewer (the table's
    ``ground_levels`` and ``ground_share``): an open cell of a number never seen is the empty cell with ink
    on it, however dark the ink."""
    labels = np.array(profile.labels)
    covered, empty = labels == COVERED, labels == ZERO
    if not covered.any() or covered.all():
        return np.ones(len(windows), bool)
    table = limits.LIMITS
    d = distances(windows.astype(np.float32), profile)
    shut, other = np.flatnonzero(covered), np.flatnonzero(empty if empty.any() else ~covered)
    near_shut, near_other = shut[d[:, shut].argmin(axis=1)], other[d[:, other].argmin(axis=1)]
    rows = np.arange(len(windows))
    gap = (d[rows, near_shut] - d[rows, near_other]) / np.maximum(profile.pairs[near_other, near_shut], 1e-9)
    if not empty.any():
        return np.asarray(gap >= table.min_margin)
    ground, face = _ground(windows, profile, empty), _ground(windows, profile, covered)
    return np.asarray((gap >= table.min_margin) | ((ground >= table.ground_share) & (ground > face)))


def _ground(windows: np.ndarray, profile: Profile, looks: np.ndarray) -> np.ndarray:
    """For each window, the largest share of its pixels that show one of ``looks`` (a mask of the profile's
    looks), every channel within the table's ``ground_levels``."""
    pixels = windows.astype(np.float32).reshape(len(windows), -1, 3)
    shares = [(np.abs(pixels - profile.stack[i].reshape(-1, 3)).max(axis=2) <= limits.LIMITS.ground_levels
               ).mean(axis=1) for i in np.flatnonzero(looks)]
    return np.max(shares, axis=0)


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

    The stages, in order: the grid located; the profiles of clients whose cells change size in play, which
    read it with each cell drawn at their size (``vision.redraw``), when its cells are not all at one; else
    the profile that fits it best (:func:`choose`); the grid without an outer line of the window's
    background that lined up with the cells, and its best profile, when the first read shows such a line;
    each cell named or refused."""
    candidates = select_profiles(profile, available_profiles() if profiles is None else profiles)
    if not candidates:
        raise ReadError("no profiles to read with")
    found = geometry or locate(image)
    resizing = _resizing(found, candidates)
    if resizing:
        return _read_uneven(image, found, resizing, opened_unknown)
    best = choose(image, found, candidates)
    trimmed = None if best is None or geometry is not None else without_phantom_line(best[1], best[3])
    if trimmed is not None:
        resizing = _resizing(trimmed, candidates)
        if resizing:
            return _read_uneven(image, trimmed, resizing, opened_unknown)
        found, best = trimmed, choose(image, trimmed, candidates)
    return _named(image, found, candidates, best, opened_unknown)


#: A profile's fit to a board (``vision.fit.best_fit``): its rank, the grid lined up with its looks, the
#: profile and the cells' scores.
Fit = tuple[float, Geometry, Profile, CellScores]


def choose(image: np.ndarray, found: Geometry, candidates: Sequence[Profile]) -> Fit | None:
    """The profile that reads the board best: of those made at its cell size; unless one of them reads it
    nearly exactly, also of the clients likeliest by a sample of its cells, each with every size of its looks
    drawn at the board's (``vision.fit.likeliest``), until one reads every cell. None when no profile fits
    the board's cell size."""
    direct = [p for p in candidates if pitch_fits(p, found.pitch) and p.fits_size(found.rows, found.cols)]
    best = best_fit(image, found, direct)
    if best is None or not exact(best[3]):
        alone, together = drawn_at_size(candidates, direct, found)
        for client in likeliest(image, found, alone, together):
            best = min((x for x in (best, best_fit(image, found, client)) if x is not None), key=lambda x: x[0])
            if best[3].accepted.all():
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


def _named(image: np.ndarray, found: Geometry, candidates: Sequence[Profile], best: Fit | None,
           opened_unknown: bool) -> Reading:
    """The board read with the profile chosen, every cell named; or the error that says why not."""
    if best is not None and (best[3].accepted.all() or (opened_unknown and learning(best[2])
                                                        and _opened(best[3], best[1], best[2]).accepted.all())):
        if holds_no_mine(best[3].grid()):
            # a plain area matched by another screen's opened cells (a fresh board washed out)
            raise ReadError(f"every cell of the board found ({best[1].rows}x{best[1].cols} cells) reads as an "
                            "opened cell: no game shows a board without mines; not read")
        side = goes_on_past(image, best[1], best[2], best[3])
        if side is not None:
            raise ReadError(f"the board found ({best[1].rows}x{best[1].cols} cells) seems to go on past its {side} "
                            "edge: not read, to avoid reading a board of the wrong size")
        # the scores the choice took are kept: read_located scores again only what they do not hold
        chosen = None if best[3].track is None else Seen(best[3].track, None, None)
        return read_located(image, best[1], best[2], opened_unknown=opened_unknown and learning(best[2]), last=chosen)
    if best is None:
        sizes = ", ".join(sorted({f"{p.pitch[0]:g}" for p in candidates}))
        raise ReadError(
            f"found a {found.rows}x{found.cols} board with {found.pitch[0]:.1f}x{found.pitch[1]:.1f} px cells, but "
            f"no profile fits it (profile cell sizes: {sizes} px, each read from {SMALLEST:g} to {LARGEST:g} px); "
            "calibrate one for this client"
        )
    raise refuse(image, best[1], best[3], best[2])


def _read_uneven(image: np.ndarray, found: Geometry, candidates: Sequence[Profile], opened_unknown: bool) -> Reading:
    """Read a board whose cells differ in size (or grew) with ``candidates``, each cell drawn at the
    profile's size (see ``vision.redraw``)."""
    widths = np.diff(found.xs)
    fitting = [p for p in candidates if p.fits_size(found.rows, found.cols)]
    first: ReadError | None = None
    for p in fitting:
        # the located edges may lie a pixel or two off those calibration drew its cells from: a cell drawn
        # from a wider one is not merely moved then, but squeezed otherwise; the first shift that reads wins
        for sx, sy in limits.LIMITS.source_shifts:
            fitted = found.shifted(sx, sy)
            even = even_grid(fitted, p.pitch)
            drawn = redraw(image, fitted, even, p)
            try:
                reading = _named(drawn, even, [p], choose(drawn, even, [p]), opened_unknown)
            except ReadError as error:
                first = first or error
                continue
            dx, dy = reading.geometry.xs[0] - even.xs[0], reading.geometry.ys[0] - even.ys[0]
            return replace(reading, geometry=fitted.shifted(dx, dy))
    if first is not None:
        raise first
    raise ReadError(f"found a {found.rows}x{found.cols} board with cells from {widths.min()} to {widths.max()} px "
                    "wide, but no profile fits it; calibrate one for this client or size")
