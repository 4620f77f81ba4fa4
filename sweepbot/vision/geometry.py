"""Where a board's cells are on a screenshot: per-column x edges and per-row y edges."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Geometry:
    """Cell ``(r, c)`` spans ``xs[c] <= x < xs[c + 1]`` and ``ys[r] <= y < ys[r + 1]`` (image pixels).

    The edges need not be evenly spaced: some clients step 27 or 28 px. Edges are between cells (in a gap
    or on a shared border), so a cell's rectangle holds the whole tile.
    """

    xs: tuple[int, ...]
    ys: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.xs) < 2 or len(self.ys) < 2:
            raise ValueError("a board needs at least one row and one column")
        if any(b <= a for a, b in zip(self.xs, self.xs[1:], strict=False)) or any(
            b <= a for a, b in zip(self.ys, self.ys[1:], strict=False)
        ):
            raise ValueError("cell edges must increase")

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def cols(self) -> int:
        return len(self.xs) - 1

    @property
    def bbox(self) -> tuple[int, int, int, int]:
        """``(x, y, w, h)`` of the whole board."""
        return self.xs[0], self.ys[0], self.xs[-1] - self.xs[0], self.ys[-1] - self.ys[0]

    @property
    def pitch(self) -> tuple[float, float]:
        """Mean cell step in x and y (may be fractional)."""
        return (self.xs[-1] - self.xs[0]) / self.cols, (self.ys[-1] - self.ys[0]) / self.rows

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        """``(x, y, w, h)`` of one cell."""
        return self.xs[col], self.ys[row], self.xs[col + 1] - self.xs[col], self.ys[row + 1] - self.ys[row]

    def center(self, row: int, col: int) -> tuple[int, int]:
        """The pixel to click for a cell."""
        return (self.xs[col] + self.xs[col + 1]) // 2, (self.ys[row] + self.ys[row + 1]) // 2

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The cell ``(row, col)`` holding an image point, or None."""
        c = int(np.searchsorted(self.xs, x, side="right")) - 1
        r = int(np.searchsorted(self.ys, y, side="right")) - 1
        return (r, c) if 0 <= r < self.rows and 0 <= c < self.cols else None

    def shifted(self, dx: int, dy: int) -> Geometry:
        """The same grid moved by whole pixels (image to screen coordinates, for example)."""
        return Geometry(tuple(x + dx for x in self.xs), tuple(y + dy for y in self.ys))

    def scaled(self, factor: float) -> Geometry:
        """The grid on an image scaled by ``factor``."""
        return Geometry(tuple(round(x * factor) for x in self.xs), tuple(round(y * factor) for y in self.ys))

    def to_json(self) -> dict[str, object]:
        pw, ph = self.pitch
        return {"bbox": list(self.bbox), "cell": [round(pw, 2), round(ph, 2)], "xs": list(self.xs), "ys": list(self.ys)}
