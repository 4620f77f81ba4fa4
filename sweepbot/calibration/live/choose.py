"""Choosing the cell to click next: the frame read as a board with the looks the session has named so far,
and the solver's safe cell or least likely mine on that board (else a covered cell at random)."""

from __future__ import annotations

import random
from collections.abc import Set
from dataclasses import dataclass, field

import numpy as np

from sweepbot.board import Board
from sweepbot.calibration.calibrate import best_naming
from sweepbot.calibration.facts import CalibrationError, Naming
from sweepbot.calibration.live.driver import Cell
from sweepbot.calibration.live.session import LiveSession, kept_geometry
from sweepbot.calibration.live.tiles import Tiles
from sweepbot.calibration.looks import Looks, window_crop
from sweepbot.errors import SweepbotError
from sweepbot.solver.analysis import Analysis, analyse
from sweepbot.solver.budget import Budget
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry

#: The work spent on the board read so far to choose the next click (see sweepbot.solver.budget)
CHOOSE_WORK = 300_000


@dataclass(frozen=True)
class SessionLooks:
    """What frames are read with: the looks named from a session, at their window inset, and the names
    the session proved."""

    inset: float
    looks: Looks
    names: Naming

    def board(self, frame: np.ndarray, geometry: Geometry) -> Board | None:
        """The frame as a board from the names known (unknown looks count as covered), or None."""
        if not self.names:
            return None
        looks = self.looks
        crop = window_crop([geometry], self.inset)
        win = cell_windows(frame, geometry, crop)
        known = [(k, looks.images[k].reshape(-1).astype(np.float32)) for k in self.names
                 if looks.images[k].shape[:2] == (crop[3], crop[2])]
        if not known:
            return None
        stack = np.stack([v for _, v in known])
        d = np.sqrt(((win[:, None, :] - stack[None, :, :]) ** 2).mean(axis=2))
        best = d.argmin(axis=1)
        chars = np.array([self.names[known[i][0]].char for i in best])
        chars = np.where(d.min(axis=1) < 25, chars, "#")
        chars = np.where(np.isin(chars, list(".12345678F?#")), chars, "#")
        grid = tuple("".join(row) for row in chars.reshape(geometry.rows, geometry.cols))
        return Board(grid)


def read_session(session: LiveSession, geometry: Geometry) -> SessionLooks | None:
    """The looks of the session's frames named from everything so far, keeping the proved names; None when
    the frames cannot be named yet."""
    geos = [kept_geometry(geometry)] * len(session.frames)
    try:
        inset, looks, names = best_naming(session.frames, geos, session.facts, 1, with_hints=False, judge=False)
    except CalibrationError:
        return None
    return SessionLooks(inset, looks, {k: n for k, n in names.items() if n.proved})


@dataclass
class Chooser:
    """Chooses covered cells to click, from the board as the latest reading of the session reads it."""

    tiles: Tiles
    rng: random.Random
    reading: SessionLooks | None = None
    #: safe cells of the last board solved, not clicked yet: a safe cell stays safe while the game goes on
    pending: list[Cell] = field(default_factory=list)

    def rename(self, session: LiveSession) -> None:
        """Name the looks from everything so far (used to choose the next game's moves)."""
        self.reading = read_session(session, self.tiles.cells.geometry)
        self.pending = []

    @property
    def knows_open_looks(self) -> bool:
        """Whether the latest reading names an empty cell and a number (1 to 8): what every game on shows."""
        if self.reading is None:
            return False
        named = {n.char for n in self.reading.names.values()}
        return "." in named and bool(named & set("12345678"))

    def board_now(self, frame: np.ndarray) -> Board | None:
        """The frame as a board from the names known so far, or None."""
        return None if self.reading is None else self.reading.board(frame, self.tiles.cells.geometry)

    def choose(self, frame: np.ndarray, avoid: Set[Cell] = frozenset(), end: bool = False) -> Cell | None:
        """A covered cell not in ``avoid``: a safe one if the solver finds one on the board read, else the
        least likely mine, else one at random; None if no covered cell is left. With ``end`` (a game long
        enough), a mine the solver is sure of, else the likeliest one: the loss shows the mines sooner."""
        covered = self.tiles.covered(frame) - set(avoid)
        if not covered:
            return None
        while self.pending and not end:
            cell = self.pending.pop(0)
            if cell in covered:
                return cell
        board = self.board_now(frame)
        if board is not None:
            try:
                analysis = analyse(board, None, Budget(CHOOSE_WORK))
                if end:
                    return self._likeliest_mine(analysis, covered)
                safe = [c for c in analysis.safe if c in covered]
                if safe:
                    self.pending = safe[1:]
                    return safe[0]
                probs = {c: p for c, p in analysis.probabilities.items() if c in covered}
                if probs:
                    return min(probs, key=lambda c: (probs[c], self.rng.random()))
            except SweepbotError:
                pass
        return self.rng.choice(sorted(covered))

    def _likeliest_mine(self, analysis: Analysis, covered: set[Cell]) -> Cell:
        mines = sorted(c for c in analysis.mines if c in covered)
        if mines:
            return self.rng.choice(mines)
        probs = {c: p for c, p in analysis.probabilities.items() if c in covered}
        if probs:
            return max(probs, key=lambda c: (probs[c], self.rng.random()))
        return self.rng.choice(sorted(covered))
