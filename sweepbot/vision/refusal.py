"""Why a board is not read: the error that names the cells no look fits (with their crops and the board read
but for them), or that says a board reads as no game shows one."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sweepbot.board import NUMBERS
from sweepbot.errors import SweepbotError
from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile


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

    @property
    def unread(self) -> int:
        """How many cells matched no look well."""
        return sum(row.count(REFUSED) for row in self.grid)

    def lies_at(self, xs: Sequence[float], ys: Sequence[float]) -> bool:
        """Whether this board lies at these cell edges, cell for cell: each edge within the table's
        ``same_place_share`` of the cell size (at least ``same_place_px``) of its own."""
        edges, there = tuple(self.xs) + tuple(self.ys), tuple(xs) + tuple(ys)
        if len(self.xs) != len(xs) or len(edges) != len(there):
            return False
        pitch = min(_least_step(xs), _least_step(ys))
        table = limits.LIMITS
        reach = max(table.same_place_px, table.same_place_share * pitch)
        return all(abs(a - b) <= reach for a, b in zip(edges, there, strict=True))


def _least_step(edges: Sequence[float]) -> float:
    """The least spacing of a line of cell edges."""
    return min((b - a for a, b in itertools.pairwise(edges)), default=0.0)


#: A cell of a :class:`PartRead` read that matched no look well.
REFUSED = "~"


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


def all_open(grid: Geometry) -> ReadError:
    """The error for a board every cell of which reads as opened (cells of unknown number among them)."""
    return ReadError(f"every cell of the board found ({grid.rows}x{grid.cols} cells) reads as an opened cell: no "
                     "game shows a board without mines; not read")
