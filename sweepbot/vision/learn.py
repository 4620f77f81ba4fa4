"""Learning in play: a look a calibrated profile could not name, read as ``=`` (open, number unknown), is
named by counting the mines around it when the board proves them all: when the game ends on a board that
shows every mine, or, during a game, when every cell around it is open, flagged, or proved a mine or safe by
the solver from the numbers read. Its template joins the profile (saved, so the next game reads it)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sweepbot.board import COVERED, FLAG, OPENED, QUESTION, ZERO, Board, Cell
from sweepbot.vision.align import align
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import UNNAMED, Profile, make_profile, save_profile

#: A learnt look whose pixels differ from a template of the same name by less than this on average (0-255)
#: is that template again and is not added.
SAME_TEMPLATE = 3.0


def neighbour_count(mask: np.ndarray) -> np.ndarray:
    """For each cell, how many of its (up to 8) neighbours are set in ``mask``."""
    p = np.pad(mask.astype(np.int16), 1)
    rows, cols = mask.shape
    total = sum(p[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
                for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    return np.asarray(total)


def board_chars(board: Board) -> np.ndarray:
    """The board's characters, one a cell (rows x cols, '<U1')."""
    return np.array([list(row) for row in board.grid]).reshape(board.rows, board.cols)


def mines_shown(board: Board, won: bool) -> np.ndarray | None:
    """Where the mines are, if the board shows them all: a loss with mines shown, or a win with nothing
    left covered but mines (every covered or flagged cell)."""
    chars = board_chars(board)
    if (chars == "*").any():
        return np.isin(chars, list("*!F"))
    if not (chars == "!").any() and won:
        return np.isin(chars, list("#?F"))
    return None


def final_counts(board: Board, won: bool) -> np.ndarray | None:
    """How many mines lie around each cell (rows x cols) where a final board shows them all
    (:func:`mines_shown`); None where it does not."""
    mines = mines_shown(board, won)
    return None if mines is None else neighbour_count(mines)


def count_chars(counts: np.ndarray) -> np.ndarray:
    """The character each count of mines around a cell names: the empty cell for 0, else its digit."""
    return np.where(counts == 0, ZERO, counts.astype(str)).astype("<U1")


def learn_opened(image: np.ndarray, geometry: Geometry, profile: Profile, board: Board,
                 counts: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The new (character, template) pairs a final board proves, one per ``=`` cell, named by its count of
    mines around it (``counts``: the board's :func:`final_counts`)."""
    chars = board_chars(board)
    return _counted_looks(image, geometry, profile, chars == OPENED, counts)


def learn_proved(image: np.ndarray, geometry: Geometry, profile: Profile, board: Board,
                 mines: set[Cell], safe: set[Cell]) -> list[tuple[str, np.ndarray]]:
    """The new (character, template) pairs a board in play proves, one per ``=`` cell every neighbour of which
    is known: open, flagged (taken for a mine, as the solver takes it), or a covered cell the solver proved a
    mine (``mines``) or safe (``safe``); its number is the count of flags and mines around it. A count of 0
    beside a covered tile is no settled board's: not learnt."""
    chars = board_chars(board)
    if not (chars == OPENED).any():
        return []
    covered = np.isin(chars, [COVERED, QUESTION])
    mine = chars == FLAG
    known = ~covered
    for r, c in mines:
        mine[r, c] = known[r, c] = True
    for r, c in safe:
        known[r, c] = True
    counts = neighbour_count(mine)
    # an empty cell opens every cell around it: one proved empty beside a covered tile is a board read wrongly
    # (or caught half drawn), and teaches nothing
    proved = (chars == OPENED) & (neighbour_count(~known) == 0) & ((counts > 0) | (neighbour_count(covered) == 0))
    return _counted_looks(image, geometry, profile, proved, counts)


def _counted_looks(image: np.ndarray, geometry: Geometry, profile: Profile, cells: np.ndarray,
                   counts: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """For each of ``cells`` (rows x cols, True where learnt), the character its count of mines around it
    (``counts``) names and its window's pixels, the template it is learnt as."""
    if not cells.any():
        return []
    windows = cell_windows(image, geometry, profile.crop)
    _, _, w, h = profile.crop
    named = count_chars(counts)
    return [(str(named[r, c]), windows[r * geometry.cols + c].reshape(h, w, 3).clip(0, 255).astype(np.uint8))
            for r, c in np.argwhere(cells)]


#: What a learner cuts from an image at a grid: (character, template) pairs.
Learnt = list[tuple[str, np.ndarray]]


def lined_up_looks(image: np.ndarray, geometry: Geometry, profile: Profile,
                   cut: Callable[[Geometry], Learnt]) -> tuple[Learnt, Geometry]:
    """The looks ``cut`` learns from ``image`` (:func:`learn_proved` or :func:`learn_opened` at a grid), cut
    where the grid lines up with the profile's looks on this image (``vision.align``), and the grid they were
    cut at. A grid kept from the frames before may lie a few pixels off a board that has moved since (a web
    page laid out again after a toast); its cells still read, by second looks, but a look cut there sits off
    its window's place, and from then on names the cells of a grid as far off as that wrongly (an empty cell
    two pixels up read as a 3 learnt so). Lined up only where something is to be learnt."""
    new = cut(geometry)
    if not new:
        return [], geometry
    grid = align(image, geometry, profile)
    return (new, geometry) if grid == geometry else (cut(grid), grid)


def not_kept(profile: Profile, new: list[tuple[str, np.ndarray]]) -> list[tuple[str, np.ndarray]]:
    """Those of ``new`` that the profile does not hold already (see :func:`_held`)."""
    looks = [(ch, profile.template(i)) for i, ch in enumerate(profile.labels)]
    return [(ch, img) for ch, img in new if not _held(looks, ch, img)]


def _held(looks: list[tuple[str, np.ndarray]], ch: str, img: np.ndarray) -> bool:
    """Whether ``looks`` hold a template of ``ch`` that differs from ``img`` by less than ``SAME_TEMPLATE``."""
    return any(c == ch and _mean_difference(t, img) < SAME_TEMPLATE for c, t in looks)


def with_templates(profile: Profile, new: list[tuple[str, np.ndarray]]) -> Profile:
    """The profile with ``new`` templates added (an unnamed look they replace is dropped) and saved."""
    templates = [(ch, profile.template(i)) for i, ch in enumerate(profile.labels)]
    for ch, img in new:
        if _held(templates, ch, img):
            continue  # this look is in the profile already (the same number on another cell)
        # the unnamed template nearest this look was it: drop it, so that the look reads as its name
        unnamed = [i for i, (c, _) in enumerate(templates) if c in (UNNAMED, OPENED)]
        if unnamed:
            d = [_mean_difference(templates[i][1], img) for i in unnamed]
            if min(d) < 12:
                templates.pop(unnamed[int(np.argmin(d))])
        templates.append((ch, img))
    updated = make_profile(profile.name, profile.client, profile.pitch, profile.crop, templates, profile.sizes,
                           profile.counter, profile.folder, profile.play, profile.max_rms, profile.drawn_from,
                           profile.built_in)
    if profile.folder is not None:
        save_profile(updated, profile.folder)
    return updated


def _mean_difference(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.float32) - b.astype(np.float32)).mean())
