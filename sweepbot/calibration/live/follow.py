"""Following a board whose cells grow in play (a column that widens once a digit shows in it).

Live calibration compares frames cell by cell at the places the new game showed. When the band of screen
around the board changes, the board is located again near where it was; once the same cells were seen at
other sizes, every whole frame is drawn back onto the new game's layout (see ``vision.redraw``), so that
each cell shows where the first frame showed it, drawn as reading will draw it. A located grid may be a
pixel off, which would make every cell look changed: each column and row has its sides moved by up to
REACH pixels to where its cells look most like on the new game or on the frame drawn last (cells still
covered, or unchanged). Clicks go where the cells are on screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sweepbot.calibration.looks import window_crop
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.redraw import Spans, redraw_cells, spans
from sweepbot.vision.settle import Grabber
from sweepbot.vision.surround import band, band_differs

#: Edges within this many pixels of the layout's are the layout (a grid located a pixel off).
SAME_EDGE = 3
#: How far beyond the board (a share of its size, right and below) it is looked for when it grows.
GROWTH = 0.5
#: How far (px) a located column or row is moved to line up with the frames before.
REACH = 2
#: A column (row) lines up where a quarter of its cells (LINED_UP) are at most MATCH_RMS (RMS) from the same
#: cells on the new game or on the frame drawn last (cells still covered, or unchanged by the last click).
LINED_UP = 0.25
MATCH_RMS = 10.0
#: How far inside a cell (share of the cell) it is compared when lining columns up (as the tiles are).
INSET = 0.05


@dataclass
class Follower:
    """Where the board's cells are on screen (``columns``, ``rows``) and the new game's ``layout`` frames
    are drawn on."""

    layout: Geometry
    #: the band around the board on the new game
    reference: np.ndarray
    #: the cells' windows on the new game, and on the frame drawn last
    new_game: np.ndarray
    last: np.ndarray
    columns: Spans = field(init=False)
    rows: Spans = field(init=False)
    #: whether cells were seen at other sizes than the layout's
    resized: bool = False

    def __post_init__(self) -> None:
        self.columns, self.rows = spans(self.layout.xs), spans(self.layout.ys)

    @classmethod
    def of_new_game(cls, layout: Geometry, frame: np.ndarray) -> Follower:
        windows = _windows(frame, layout)
        return cls(layout, band(frame, layout.bbox), windows, windows)

    @property
    def shown(self) -> Geometry:
        """Where the cells are on screen (a pixel between two cells' spans goes to the one before)."""
        xs = (*(start for start, _ in self.columns), self.columns[-1][0] + self.columns[-1][1])
        ys = (*(start for start, _ in self.rows), self.rows[-1][0] + self.rows[-1][1])
        return Geometry(xs, ys)

    def redraw(self, frame: np.ndarray) -> np.ndarray:
        """A whole screen with the board drawn onto the layout, following it when its cells changed size."""
        drawn = redraw_cells(frame, self.columns, self.rows, self.layout)
        if not self.resized and not band_differs(self.reference, drawn, self.layout.bbox):
            return drawn
        found = self.locate(frame)
        if found is None or (found == self.layout and not self.resized):
            return drawn
        self.resized = True
        self.columns, self.rows = self.line_up(frame, found)
        drawn = redraw_cells(frame, self.columns, self.rows, self.layout)
        self.last = _windows(drawn, self.layout)
        return drawn

    def locate(self, frame: np.ndarray) -> Geometry | None:
        """The board's cells near the layout: the layout itself when every edge is within SAME_EDGE pixels of
        it; a grid of the same cells grown from about the same corner; else None (something over the board)."""
        x, y, w, h = self.layout.bbox
        px, py = self.layout.pitch
        x0, y0 = max(0, int(x - 2 * px)), max(0, int(y - 2 * py))
        x1 = min(frame.shape[1], int(x + w * (1 + GROWTH) + 2 * px))
        y1 = min(frame.shape[0], int(y + h * (1 + GROWTH) + 2 * py))
        try:
            found = locate(frame[y0:y1, x0:x1]).shifted(x0, y0)
        except SweepbotError:
            return None
        if (found.rows, found.cols) != (self.layout.rows, self.layout.cols):
            return None
        moved = [abs(a - b) for a, b in zip(found.xs + found.ys, self.layout.xs + self.layout.ys, strict=True)]
        if max(moved) <= SAME_EDGE:
            return self.layout
        if max(moved[0], moved[len(found.xs)]) > SAME_EDGE or not _grown(found, self.layout):
            return None
        return found

    def line_up(self, frame: np.ndarray, found: Geometry) -> tuple[Spans, Spans]:
        """``found``'s columns, then its rows, each with its two sides moved by up to REACH pixels to where
        its cells look most like on the new game or on the frame drawn last (see :func:`_kept` for where they
        start from)."""
        columns, rows = _kept(spans(found.xs), self.columns), _kept(spans(found.ys), self.rows)
        columns = self._best(frame, columns, rows, across=True)
        rows = self._best(frame, columns, rows, across=False)
        return columns, rows

    def _best(self, frame: np.ndarray, columns: Spans, rows: Spans, across: bool) -> Spans:
        geo = self.layout
        lines = columns if across else rows
        tries = [(d, e) for d in range(-REACH, REACH + 1) for e in range(-REACH, REACH + 1)]
        cost = []
        for d, e in tries:
            moved = tuple((start + d, size + e) for start, size in lines)
            windows = self._drawn(frame, moved, rows) if across else self._drawn(frame, columns, moved)
            far = np.minimum(_rms(windows, self.new_game), _rms(windows, self.last)).reshape(geo.rows, geo.cols)
            cost.append(np.quantile(far, LINED_UP, axis=0 if across else 1))
        # the smallest move among the best; none where nothing matches (every cell of the line just changed)
        costs = np.asarray(cost) + 0.01 * np.array([abs(d) + abs(e) for d, e in tries])[:, None]
        best = np.where(costs.min(axis=0) <= MATCH_RMS, np.argmin(costs, axis=0), tries.index((0, 0)))
        return tuple((start + tries[k][0], size + tries[k][1]) for (start, size), k in zip(lines, best, strict=True))

    def _drawn(self, frame: np.ndarray, columns: Spans, rows: Spans) -> np.ndarray:
        """The cells' windows with the board drawn from ``columns`` and ``rows`` (only the board's part of the
        screen is drawn)."""
        x0 = max(0, min(columns[0][0], self.layout.xs[0]) - 1)
        y0 = max(0, min(rows[0][0], self.layout.ys[0]) - 1)
        x1 = max(columns[-1][0] + columns[-1][1], self.layout.xs[-1]) + 1
        y1 = max(rows[-1][0] + rows[-1][1], self.layout.ys[-1]) + 1
        part = frame[y0:y1, x0:x1]
        layout = self.layout.shifted(-x0, -y0)
        drawn = redraw_cells(part, tuple((a - x0, n) for a, n in columns), tuple((a - y0, n) for a, n in rows), layout)
        return _windows(drawn, layout)


def _kept(found: Spans, before: Spans) -> Spans:
    """The spans found, except where a line is within REACH pixels of where it was (located a pixel off, or
    not changed): there it stays, as lined up before."""
    return tuple(old if abs(new[0] - old[0]) <= REACH and abs(new[1] - old[1]) <= REACH else new
                 for new, old in zip(found, before, strict=True))


def _windows(frame: np.ndarray, layout: Geometry) -> np.ndarray:
    return cell_windows(frame, layout, window_crop([layout], INSET))


def _rms(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sqrt(((a - b) ** 2).mean(axis=1))


def _grown(found: Geometry, layout: Geometry) -> bool:
    """Every cell at least as large as on the layout (within a pixel)."""
    return all(int((np.diff(a) - np.diff(b)).min()) >= -1 for a, b in ((found.xs, layout.xs), (found.ys, layout.ys)))


class FollowingScreen:
    """The screen as calibration sees it: whole grabs drawn onto the layout (see :class:`Follower`); a region
    is grabbed as it is."""

    def __init__(self, screen: Grabber, follower: Follower) -> None:
        self.screen = screen
        self.follower = follower

    def grab(self, region: Rect | None = None) -> np.ndarray:
        if region is not None:
            return self.screen.grab(region)
        return self.follower.redraw(self.screen.grab())
