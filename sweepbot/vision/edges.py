"""Whether the grid found is the board, all of it and only it: no line of the window's background taken for
cells, no line of cells left out."""

from __future__ import annotations

import numpy as np

from sweepbot.board import COVERED
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores, batched_distances, window_pixels
from sweepbot.vision.decide import classify
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile


def without_phantom_line(geometry: Geometry, scores: CellScores) -> tuple[Geometry, CellScores] | None:
    """The board without an outer row or column that reads as empty open cells beside covered ones, and its
    cells' scores: no game shows that (an empty cell's neighbours open with it), so it is the window's
    background lined up with the cells, not part of the board. The grid keeps every other edge where it was
    lined up; an outer edge that the line left goes one usual step from the next. None when no side is such
    a line."""
    chars = scores.chars
    if min(chars.shape) < 3:
        return None
    xs, ys = geometry.xs, geometry.ys
    step_x, step_y = int(np.median(np.diff(xs))), int(np.median(np.diff(ys)))
    every = slice(None)
    # each side: its outer line, the line next to it, the grid without the outer one, and its cells' place
    sides = (
        (chars[0], chars[1], Geometry(xs, ys[1:]), (slice(1, None), every)),
        (chars[-1], chars[-2], Geometry(xs, (*ys[:-2], min(ys[-2], ys[-3] + step_y))), (slice(None, -1), every)),
        (chars[:, 0], chars[:, 1], Geometry(xs[1:], ys), (every, slice(1, None))),
        (chars[:, -1], chars[:, -2], Geometry((*xs[:-2], min(xs[-2], xs[-3] + step_x)), ys),
         (every, slice(None, -1))),
    )
    for outer, inner, kept, (rows, cols) in sides:
        if (outer == ".").all() and (inner == COVERED).any():
            return kept, scores.cut(rows, cols)
    return None


def _outside_lines(geometry: Geometry) -> list[tuple[str, Geometry]]:
    """One line of cells just beyond each side of the board."""
    px, py = round(geometry.pitch[0]), round(geometry.pitch[1])
    xs, ys = geometry.xs, geometry.ys
    return [
        ("top", Geometry(xs, (ys[0] - py, ys[0]))),
        ("bottom", Geometry(xs, (ys[-1], ys[-1] + py))),
        ("left", Geometry((xs[0] - px, xs[0]), ys)),
        ("right", Geometry((xs[-1], xs[-1] + px), ys)),
    ]


def _plain(rows: np.ndarray) -> np.ndarray:
    """Which windows (one a row: looks, or cells as the screen shows them) are plain patches, no bevel or glyph
    in them (the table's ``flat_std``)."""
    return np.asarray(rows.std(axis=1) < limits.LIMITS.flat_std)


def _plain_looks(profile: Profile) -> np.ndarray:
    """Which of the profile's looks are plain patches (:func:`_plain`)."""
    return _plain(profile.stack)


def goes_on_past(image: np.ndarray, geometry: Geometry, profile: Profile, board: CellScores | None = None) \
        -> str | None:
    """The side past which the board seems to go on, or None: cells beyond it that read as covered cells,
    flags or numbers mean the edge was missed (a washed-out bevel, say) and the board read would be the wrong
    size. They count within the table's ``edge_rms`` of a look, or, read with looks drawn at another size,
    within the farthest that the board's own such cells (``board``: its scores) came: those looks come only
    so close to any cell, the board's and those of a line of it left out alike. A line whose cells are
    drawn as the board's own on the screen goes on too (:func:`_drawn_as_the_boards`). The lines are scored
    with the looks the board was read with, fitted to the screen's brightness where the board's were (a line
    is not fitted on its own: one kind of cell pins no fit)."""
    fitted = None if board is None or board.track is None else board.track.fitted
    looks = profile if fitted is None else fitted.plain.profile
    # a plain look (a covered tile without a bevel, or one drawn so small, or washed out so far, that its bevel
    # fades) is matched by any plain window background, and by the board's own frame beside it
    plain = _plain_looks(looks)
    limit = limits.LIMITS.edge_rms
    ours = None  # the board's own numbers and flags as the screen shows them
    if board is not None:
        own = board.accepted & ~plain[board.best] & ~np.isin(board.chars, [".", "="])
        if profile.drawn_from and own.any():
            limit = max(limit, float(board.rms[own].max()))
        ours = _own_windows(image, geometry, profile, own & (board.chars != COVERED))
    for side, line in _outside_lines(geometry):
        x, y, w, h = line.bbox
        if x < 0 or y < 0 or x + w > image.shape[1] or y + h > image.shape[0]:
            continue
        scores = classify(image, line, looks, levels=False, whole=False)
        # revealed zeros (and open cells of a number not learnt yet) are left out: some clients (ace-minesweeper,
        # dangeruxb) draw them in the window's own colour
        clear = scores.accepted & (scores.rms <= limit) & ~np.isin(scores.chars, [".", "="])
        clear &= ~plain[scores.best]
        if clear.mean() >= limits.LIMITS.edge_share or (ours is not None and _drawn_as_the_boards(
                _windows(image, line, profile), *ours)):
            return side
    return None


def _windows(image: np.ndarray, geometry: Geometry, profile: Profile) -> np.ndarray:
    """Every cell's window at ``profile``'s crop, one row each."""
    windows = window_pixels(image, geometry, profile.crop)
    return windows.reshape(geometry.rows * geometry.cols, -1)


def _own_windows(image: np.ndarray, geometry: Geometry, profile: Profile,
                 own: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The distinct windows of the board's cells ``own`` (rows x cols, True where taken) that are no plain
    patch on the screen (:func:`_plain`), in float32, and their squared norms; None when there are none."""
    if not own.any():
        return None
    windows = _windows(image, geometry, profile)[own.reshape(-1)]
    windows = windows[distinct_rows(windows)[0]]
    windows = windows[~_plain(windows)].astype(np.float32)
    return (windows, np.einsum("ij,ij->i", windows, windows)) if len(windows) else None


def _drawn_as_the_boards(windows: np.ndarray, ours: np.ndarray, norms: np.ndarray) -> bool:
    """Whether a line of cell ``windows`` beyond the board holds cells drawn as the board's own (``ours``:
    its numbers and flags, no plain patch, with their squared ``norms``), as the screen shows both: of its
    windows that are no plain patch, at least the table's ``edge_cells`` and ``edge_share`` come within
    ``edge_rms`` of one of the board's. On a screen brighter than the looks, a line of cells left out
    is far from every look but drawn as the board's own. Its covered tiles are no sign: washed out, a covered
    tile's window may be a plain patch with its neighbour's edge along it, as is the window's background
    beside the board's last line."""
    table = limits.LIMITS
    marked = windows[~_plain(windows)].astype(np.float32)
    if len(marked) < table.edge_cells:
        return False
    d = batched_distances(marked, ours, norms)
    like = np.sqrt(d.min(axis=1) / windows.shape[1]) <= table.edge_rms
    return int(like.sum()) >= table.edge_cells and float(like.mean()) >= table.edge_share
