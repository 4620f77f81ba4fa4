"""What the loop needs from vision: a board read from a frame, with where its cells are on that frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from sweepbot.board import Board, Cell
from sweepbot.rect import Rect
from sweepbot.solver import Analysis


@dataclass(frozen=True)
class BoardView:
    """A board read from one frame: what the loop needs of vision. ``x_edges``/``y_edges`` are the cell
    boundaries in frame pixels (cols + 1 and rows + 1 values), so a cell's centre is exact even with a
    fractional pitch. ``client`` names the client whose look was recognised, when known. ``exact``: every
    cell matched its look pixel for pixel, so that nothing lay over the pixels read (something beside the
    board, a toast, may lie there: it hides none of them)."""

    board: Board
    x_edges: tuple[float, ...]
    y_edges: tuple[float, ...]
    client: str | None = None
    exact: bool = False

    @property
    def bbox(self) -> Rect:
        x0, y0 = int(self.x_edges[0]), int(self.y_edges[0])
        return Rect(x0, y0, round(self.x_edges[-1]) - x0, round(self.y_edges[-1]) - y0)

    def centre(self, cell: Cell) -> tuple[float, float]:
        r, c = cell
        return ((self.x_edges[c] + self.x_edges[c + 1]) / 2, (self.y_edges[r] + self.y_edges[r + 1]) / 2)


class Reader(Protocol):
    """Locates and reads the board on a frame; raises SweepbotError when it cannot."""

    def read(self, frame: np.ndarray) -> BoardView: ...


@runtime_checkable
class PlacedReader(Reader, Protocol):
    """A reader that can read a frame where a recorded step says the board was read (``replay``)."""

    def read_at(self, frame: np.ndarray, xs: tuple[int, ...], ys: tuple[int, ...]) -> BoardView: ...


@runtime_checkable
class AreaReader(Reader, Protocol):
    """A reader that knows which part of the frame its next read looks at, so that only that part need be
    grabbed: the board where it was last read, and its counter."""

    def area(self) -> Rect | None:
        """The part of the frame the next read looks at; None when it needs the whole frame."""
        ...

    def read_in_area(self, frame: np.ndarray) -> BoardView:
        """Read a frame that is current only in :meth:`area` (the rest may be old); raises SweepbotError when
        the board is not there."""
        ...


@runtime_checkable
class Learning(Protocol):
    """A reader that learns, from a board it read and the solver's analysis of it, the looks it read as open
    cells of unknown number."""

    def learn(self, frame: np.ndarray, view: BoardView, analysis: Analysis) -> None: ...


@runtime_checkable
class Relocating(Protocol):
    """A reader that keeps where the board was found, and can be told to find it afresh."""

    def relocate(self) -> None:
        """Find the board afresh at the next read: a read that made no sense may have been made where the
        cells no longer are (a row drawn shorter once it holds no covered cell)."""
        ...
