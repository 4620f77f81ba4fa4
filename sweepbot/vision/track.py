"""Between frames of one board: what a read keeps for the next, so that a new frame is scored again only
where its pixels changed.

A cell's plain scores depend on its window alone (``vision.cells.distances``), the second look at a refused
cell (``vision.decide``) on the pixels around its window alone, the colour check of a number on its window
and digit alone, and a cell's residuals against the looks' shapes (``vision.levels.shape_residuals``) on its
window alone. Each is kept with the pixels it came from and used again while they stay the same,
so that a tracked read gives what a fresh one gives.

A fit of the looks to a screen brighter or darker than them is the screen's, not the cells': it is kept
(:class:`Fitted`) and scores the next frames of the board, only where their pixels changed, for as long as
it reads every cell; a frame it does not read is fitted afresh. Those frames are read as a fresh read would
read them but for the fit, made then on other cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sweepbot.vision.cells import CellScores, score, window_pixels
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.levels import row_means, shape_residuals
from sweepbot.vision.profile import Profile


@dataclass(frozen=True, eq=False)
class Scored:
    """The cells' windows on one frame (the image's pixels) and their plain scores (``vision.cells.score``)
    against one profile at one geometry: what the next frame of the same board keeps where a window is
    unchanged."""

    geometry: Geometry
    profile: Profile
    windows: np.ndarray  # cells x pixels, as cut from the image
    scores: CellScores
    #: the indices of the cells whose window changed since the frame before, and were scored again (None: no
    #: frame before held, every cell was scored)
    changed: np.ndarray | None = None

    @property
    def scored(self) -> int:
        """How many cells were scored for this frame (the others kept their scores from the frame before)."""
        return self.geometry.rows * self.geometry.cols if self.changed is None else len(self.changed)

    def holds(self, geometry: Geometry, profile: Profile, windows: np.ndarray, max_rms: float) -> bool:
        """Whether these scores are for the same cells, templates, window size and acceptance."""
        return self.same_board(geometry, profile, max_rms) and self.windows.shape == windows.shape \
            and self.windows.dtype == windows.dtype

    def same_board(self, geometry: Geometry, profile: Profile, max_rms: float) -> bool:
        return self.profile is profile and self.geometry == geometry and self.scores.max_rms == max_rms


def score_frame(image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float,
                last: Scored | None = None, windows: np.ndarray | None = None) -> Scored:
    """Every cell's plain scores on ``image``. With ``last`` (an earlier frame of the board at the same place,
    scored against the same profile) only the cells whose window changed are scored; the others keep their
    scores, which are what scoring them again would give: a cell's scores depend on its window alone.
    ``windows``: the cells' windows on ``image`` at ``profile``'s crop, when they were cut already (the same
    cells scored against the looks as they are, then as fitted to the screen's brightness)."""
    windows = window_pixels(image, geometry, profile.crop) if windows is None else windows
    rows, cols = geometry.rows, geometry.cols
    if last is None or not last.holds(geometry, profile, windows, max_rms):
        return Scored(geometry, profile, windows, score(windows, profile, rows, cols, max_rms))
    changed = np.flatnonzero((windows != last.windows).any(axis=1))
    if not len(changed):
        return Scored(geometry, profile, windows, last.scores, changed)
    fresh = score(windows[changed], profile, len(changed), 1, max_rms)
    kept = last.scores
    parts = []
    for old, new in ((kept.chars, fresh.chars), (kept.rms, fresh.rms), (kept.margin, fresh.margin),
                     (kept.best, fresh.best), (kept.rival, fresh.rival)):
        merged = old.copy().reshape(-1)
        merged[changed] = new.reshape(-1)
        parts.append(merged.reshape(rows, cols))
    return Scored(geometry, profile, windows, CellScores(parts[0], parts[1], parts[2], parts[3], parts[4], max_rms,
                                                         numbers_rms=kept.numbers_rms), changed)


@dataclass(frozen=True)
class Look:
    """A refused cell's second look (its window moved by a few pixels): what it found."""

    char: str
    rms: float
    margin: float
    best: int
    rival: float
    #: where the window was moved to (rows down, columns across, in px)
    move: tuple[int, int] = (0, 0)


@dataclass(frozen=True, eq=False)
class Looks:
    """One frame's second looks: the cells looked at (indices, ascending), the pixels each look depends on
    (one row each: the window grown by the look's reach, kept inside the image) and what each found."""

    cells: np.ndarray
    arounds: np.ndarray
    found: tuple[Look, ...]
    #: the image's height and width (a window near its edge is moved inside it)
    shape: tuple[int, int]

    def reusable(self, cells: np.ndarray, arounds: np.ndarray, shape: tuple[int, int]) -> list[Look | None]:
        """For each of ``cells`` (with its ``arounds`` on a new frame of the same shape), the look found last
        time when the pixels it depends on are the same, else None."""
        if shape != self.shape or not len(self.cells) or arounds.shape[1:] != self.arounds.shape[1:]:
            return [None] * len(cells)
        at = np.minimum(np.searchsorted(self.cells, cells), len(self.cells) - 1)
        same = (self.cells[at] == cells) & (self.arounds[at] == arounds).all(axis=1)
        return [self.found[j] if ok else None for j, ok in zip(at.tolist(), same.tolist(), strict=True)]


NO_LOOKS = Looks(np.zeros(0, np.intp), np.zeros((0, 0), np.uint8), (), (0, 0))


@dataclass(frozen=True, eq=False)
class Fitted:
    """A frame's looks fitted to the screen's brightness (``vision.decide``): the cells' plain scores against
    them (``plain.profile`` is the fitted profile) and the second looks taken with them, for the next frame of
    the board."""

    plain: Scored
    looks: Looks = NO_LOOKS


@dataclass(frozen=True, eq=False)
class Track:
    """What one frame's read keeps for the next: the plain scores, the second looks at refused cells (by cell
    index) and the colour checks of numbers (by window pixels and digit: the margin a number taken by its colour
    has, NaN where its colour is not its digit's), each valid while its pixels stay."""

    plain: Scored
    looks: Looks = NO_LOOKS
    inks: dict[tuple[bytes, str], float] = field(default_factory=dict)
    #: how many second looks and colour checks this frame took afresh
    looked: int = 0
    inked: int = 0
    #: each window's mean level, when the read needed it (see :meth:`Kept.window_means`)
    means: np.ndarray | None = None
    #: each window's shape residuals against the looks, when the read needed them (see
    #: :meth:`Kept.shape_residuals`)
    residuals: np.ndarray | None = None
    #: the looks fitted to the screen's brightness that read this frame, if any
    fitted: Fitted | None = None


@dataclass
class Kept:
    """One read's use of the last frame's track: the looks and checks it may take again, and those it took
    (collected while the read goes on, then kept in its :class:`Track`)."""

    looks_before: Looks = NO_LOOKS
    looks: Looks = NO_LOOKS
    #: every colour check made on this board, by window pixels and digit: the frames before's, and this one's
    inks: dict[tuple[bytes, str], float] = field(default_factory=dict)
    looked: int = 0
    inked: int = 0
    means_before: np.ndarray | None = None
    means: np.ndarray | None = None
    residuals_before: np.ndarray | None = None
    residuals: np.ndarray | None = None
    fitted_before: Fitted | None = None
    fitted: Fitted | None = None

    @classmethod
    def after(cls, last: Track | None, geometry: Geometry, profile: Profile, max_rms: float) -> Kept:
        if last is None or not last.plain.same_board(geometry, profile, max_rms):
            return cls()
        # the frame before's looks are read only; its colour checks, copied, grow with this frame's (a cell
        # drawn as one checked before, a new 1 like the others, is not checked again)
        return cls(looks_before=last.looks, inks=dict(last.inks),
                   means_before=last.means, residuals_before=last.residuals, fitted_before=last.fitted)

    def window_means(self, plain: Scored) -> np.ndarray:
        """Each window's mean level on this frame: the frame before's where the window is unchanged (a mean
        depends on its window alone)."""
        if self.means is None:
            self.means = by_window(plain, self.means_before, row_means)
        return self.means

    def shape_residuals(self, plain: Scored) -> np.ndarray:
        """Each window's :func:`~sweepbot.vision.levels.shape_residuals` against ``plain``'s looks on this frame:
        the frame before's where the window is unchanged (a window's row depends on its pixels alone)."""
        if self.residuals is None:
            self.residuals = by_window(plain, self.residuals_before,
                                       lambda windows: shape_residuals(windows, plain.profile))
        return self.residuals

    def track(self, plain: Scored) -> Track:
        return Track(plain, self.looks, self.inks, self.looked, self.inked, self.means, self.residuals, self.fitted)


def by_window(plain: Scored, before: np.ndarray | None, of: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """One row for each window of ``plain``, as ``of`` gives them (a row depends on its window alone): the frame
    before's rows (``before``) where the window is unchanged, taken afresh where it changed or when none were
    kept."""
    if before is None or plain.changed is None:
        return of(plain.windows)
    if not len(plain.changed):
        return before  # never written to: shared from frame to frame
    rows = before.copy()
    rows[plain.changed] = of(plain.windows[plain.changed])
    return rows
