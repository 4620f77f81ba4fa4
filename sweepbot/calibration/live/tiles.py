"""Telling the board's tiles apart while playing: the covered look of a new board, the looks that cells were
seen to open to, the flag's look, and the looks of mines that went off."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from sweepbot.calibration.facts import REVEALED
from sweepbot.calibration.live.driver import CHANGED_RMS, MIDDLE_INSET, Cell, CellWindows, rms
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import Grids, LocateError, grids

#: A new game: one look (covered) on at least this share of the cells (xdemineur opens an area by itself).
NEW_BOARD_SHARE = 0.5
#: How far inside a cell (share of the cell) changes are watched: the first at which a new board is one look.
#: Near the edge first (sgt-mines tells covered from open by a thin bevel); further in where tiles are drawn
#: at fractional positions and their edges differ from cell to cell (gnome-mines's larger boards).
CHANGE_INSETS = (0.05, 0.12, 0.2)
#: The most looks of opened cells kept to compare new ones with.
MAX_OPENED_LOOKS = 200
#: How far apart (0-255, in a colour's mean) two empty cells may be drawn, the same but for a background
#: showing through them that grows lighter across the board (kmines).
SHADE = 32


def covered_look(windows: np.ndarray) -> np.ndarray | None:
    """The covered look, if one look is on (nearly) every cell: a new game (some clients open a few cells by
    themselves); None if the board is no new game."""
    middle = np.median(windows, axis=0)
    same = np.sqrt(((windows - middle[None, :]) ** 2).mean(axis=1)) < CHANGED_RMS
    if same.mean() < NEW_BOARD_SHARE:
        return None
    return windows[same].mean(axis=0)


def new_games_first(found: Grids, frame: np.ndarray) -> list[Geometry]:
    """The grids of cells on ``frame`` (``vision.locate.grids``), those that show a new game (one look on most
    cells: :meth:`Tiles.of_new_board`) first, each in its rank: a calibration's board is a new game, a
    chessboard or a table beside it is not. LocateError when the likeliest two are two boards alike."""
    if found.twin is not None:
        raise LocateError(found.twin)
    fresh = [g for g in found.ranked if Tiles.of_new_board(g, frame) is not None]
    return fresh + [g for g in found.ranked if g not in fresh]


def new_game_board(frame: np.ndarray) -> Geometry:
    """The board of a calibration's first frame, a new game: the first of :func:`new_games_first`."""
    return new_games_first(grids(frame), frame)[0]


@dataclass
class Tiles:
    """The board's tiles as seen so far: the covered look, the looks of cells seen opened (at most
    MAX_OPENED_LOOKS), and the look of the first flag."""

    cells: CellWindows
    covered_look: np.ndarray
    opened_looks: list[np.ndarray] = field(default_factory=list)
    flag_look: np.ndarray | None = None
    exploded_looks: list[np.ndarray] = field(default_factory=list)  # the looks of cells clicked at a loss
    empty_look: np.ndarray | None = None  # the look of a cell an opening spread from

    def saw_empty(self, frame: np.ndarray, cell: Cell) -> None:
        """Keep the middle of ``cell``, an opening spread from it (the first such cell): the middle, since the
        cell clicked last may carry a focus ring."""
        if self.empty_look is None:
            self.empty_look = CellWindows(self.cells.geometry, MIDDLE_INSET).window(frame, cell)

    def may_be_empty(self, frame: np.ndarray, cell: Cell) -> bool:
        """False once an empty cell was seen and the middle of ``cell`` looks otherwise: not the same but for
        its shade (at most SHADE apart)."""
        if self.empty_look is None:
            return True
        return shaded_alike(CellWindows(self.cells.geometry, MIDDLE_INSET).window(frame, cell), self.empty_look)

    def spread_alike(self, frame: np.ndarray, cell: Cell, cells: Iterable[Cell]) -> set[Cell]:
        """``cell`` and the cells of ``cells`` reached from it through neighbours whose middles look alike, step
        by step, as an opening spreads through empty cells (drawn alike, but for a background that may show
        through them and change slowly across the board)."""
        cols = self.cells.geometry.cols
        middles = CellWindows(self.cells.geometry, MIDDLE_INSET).windows(frame)

        def alike(a: Cell, b: Cell) -> bool:
            return rms(middles[a[0] * cols + a[1]], middles[b[0] * cols + b[1]]) < CHANGED_RMS

        return flood(cell, set(cells) | {cell}, alike)

    def unlike_all(self, frame: np.ndarray, cell: Cell, others: Iterable[Cell]) -> bool:
        """True if the middle of ``cell`` looks like the middle of none of ``others``."""
        return not self.like_middle(frame, cell, others)

    @classmethod
    def of_new_board(cls, geometry: Geometry, frame: np.ndarray) -> Tiles | None:
        """The tiles of the new game on ``frame``, its cells watched at the first of CHANGE_INSETS where the
        board is one look; None if the board is no new game at any of them."""
        for inset in CHANGE_INSETS:
            cells = CellWindows(geometry, inset)
            look = covered_look(cells.windows(frame))
            if look is not None:
                return cls(cells, look)
        return None

    def covered(self, frame: np.ndarray) -> set[Cell]:
        """The cells that look covered."""
        geo = self.cells.geometry
        win = self.cells.windows(frame)
        d = np.sqrt(((win - self.covered_look[None, :]) ** 2).mean(axis=1)).reshape(geo.rows, geo.cols)
        return {(int(r), int(c)) for r, c in np.argwhere(d < CHANGED_RMS)}

    def all_covered(self, frame: np.ndarray) -> dict[Cell, str]:
        """A new game's facts: each covered cell is covered."""
        return dict.fromkeys(self.covered(frame), "#")

    def new_look(self, frame: np.ndarray, cell: Cell) -> bool:
        """True unless the cell looks like a cell seen opened before."""
        return not like_any(self.opened_looks, self.cells.window(frame, cell))

    def new_looks(self, frame: np.ndarray, cells: Iterable[Cell]) -> set[Cell]:
        """The cells of ``cells`` that look like no cell seen opened before (the frame's windows cut once)."""
        win, cols = self.cells.windows(frame), self.cells.geometry.cols
        return {(r, c) for r, c in cells if not like_any(self.opened_looks, win[r * cols + c])}

    def flags_among(self, frame: np.ndarray, cells: Iterable[Cell]) -> set[Cell]:
        """The cells of ``cells`` that look like the flag (none before a flag has been seen)."""
        flag = self.flag_look
        if flag is None:
            return set()
        win, cols = self.cells.windows(frame), self.cells.geometry.cols
        return {(r, c) for r, c in cells if rms(win[r * cols + c], flag) < CHANGED_RMS}

    def like_middle(self, frame: np.ndarray, cell: Cell, cells: Iterable[Cell]) -> set[Cell]:
        """The cells of ``cells`` whose middle looks like the middle of ``cell``."""
        cols = self.cells.geometry.cols
        middles = CellWindows(self.cells.geometry, MIDDLE_INSET).windows(frame)
        now = middles[cell[0] * cols + cell[1]]
        return {(r, c) for r, c in cells if rms(middles[r * cols + c], now) < CHANGED_RMS}

    def alike(self, frame: np.ndarray, cells: Iterable[Cell]) -> bool:
        """True if ``cells`` (at least one) all look the same."""
        win, cols = self.cells.windows(frame), self.cells.geometry.cols
        windows = [win[r * cols + c] for r, c in cells]
        return bool(windows) and all(rms(w, windows[0]) < CHANGED_RMS for w in windows[1:])

    def learn(self, frame: np.ndarray, facts: Mapping[Cell, str]) -> None:
        """Keep the looks that facts about ``frame`` show: each opened cell's, if not seen yet, and the first
        flag's."""
        opened = [cell for cell, ch in facts.items() if ch == REVEALED]
        if opened:
            win = self.cells.windows(frame)
            cols = self.cells.geometry.cols
            for r, c in opened:
                look = win[r * cols + c]
                if len(self.opened_looks) < MAX_OPENED_LOOKS and not like_any(self.opened_looks, look):
                    self.opened_looks.append(look)
        for cell, ch in facts.items():
            if ch == "F" and self.flag_look is None:
                self.flag_look = self.cells.window(frame, cell)
            if ch == "!" and not self.seen_exploded(frame, cell):
                self.exploded_looks.append(self.cells.window(frame, cell))

    def seen_exploded(self, frame: np.ndarray, cell: Cell) -> bool:
        """True if ``cell`` looks like a cell clicked when a game was lost."""
        return like_any(self.exploded_looks, self.cells.window(frame, cell))


def flood(cell: Cell, cells: set[Cell], linked: Callable[[Cell, Cell], bool] | None = None) -> set[Cell]:
    """The cells of ``cells`` reachable from ``cell`` (one of them) through neighbours among them (an opening
    spreads that way); with ``linked``, only from a cell to a neighbour it says is linked to it."""
    out = {cell} & cells
    todo = list(out)
    while todo:
        here = todo.pop()
        r, c = here
        for n in [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]:
            if n in cells and n not in out and (linked is None or linked(here, n)):
                out.add(n)
                todo.append(n)
    return out


def shaded_alike(a: np.ndarray, b: np.ndarray) -> bool:
    """True if windows ``a`` and ``b`` are alike once each one's mean colour is taken off, and those means are
    at most SHADE apart."""
    a3, b3 = a.reshape(-1, 3).astype(np.float32), b.reshape(-1, 3).astype(np.float32)
    ma, mb = a3.mean(axis=0), b3.mean(axis=0)
    return bool(np.abs(ma - mb).max() <= SHADE) and rms(a3 - ma, b3 - mb) < CHANGED_RMS


def like_any(seen: list[np.ndarray], look: np.ndarray) -> bool:
    """True if ``look`` is one of the looks ``seen`` (within CHANGED_RMS of one)."""
    return any(rms(s, look) < CHANGED_RMS for s in seen)
