"""Following a board whose cells change size in play (a column that widens once a digit shows in it, a row
drawn shorter once no covered cell is left in it, columns of a table of fixed width that hand pixels to one
another).

Live calibration compares frames cell by cell at the places the new game showed. Every whole frame whose
board area changed has its board located again near where it was (a row 2 px shorter leaves the band
around the board as it was, and a table's columns that trade pixels leave its outer size as it was);
once the same cells were seen at other sizes, every whole frame is drawn back onto the new game's layout
(see ``vision.redraw``), so that each cell shows where the first frame showed it, drawn as reading will
draw it. A located grid may be a pixel off, which would make every cell look changed: the cells are laid
side by side again, at sizes seen before where they fit, from a first edge up to REACH pixels off the
located one, where they look most like the same cells on the new game or on the frame drawn last (cells
still covered, or unchanged). Clicks go where the cells are on screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import cv2
import numpy as np

from sweepbot.calibration.looks import window_crop
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.frames import Grabber
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.redraw import WAYS, Spans, cell_map, redraw_likest, spans

#: How far (px) a located board's corner may lie from the layout's, and cells lined up from the layout's and
#: still be its cells at its sizes (a grid located a pixel off).
SAME_EDGE = 3
#: How far beyond the board (a share of its size, right and below) it is looked for when it grows.
GROWTH = 0.5
#: How far (px) a located column or row is moved to line up with the frames before.
REACH = 2
#: Lining a board up: a cell that looks like neither the new game nor the frame drawn last, within LIKE_RMS,
#: counts FAR_RMS (a cell the last click changed tells nothing of where it lies, whatever it looks most like);
#: a size is proved by a cell drawn as on the new game within SAME_RMS; a size never seen, but for the
#: located one, costs NEW_SIZE (a column whose every cell changed is where its lines are); a size seen
#: before is tried up to SIZE_REACH pixels from the located one; a cell starts at most START_REACH pixels
#: from its located edge.
FAR_RMS = 40.0
LIKE_RMS = 8.0
SAME_RMS = 2.0
NEW_SIZE = 3.0
SIZE_REACH = 3
START_REACH = 5
#: How far inside a cell (share of the cell) it is compared when lining columns up (as the tiles are).
INSET = 0.05


@dataclass
class Follower:
    """Where the board's cells are on screen (``columns``, ``rows``) and the new game's ``layout`` frames
    are drawn on."""

    layout: Geometry
    #: the cells' windows on the new game, and on the frame drawn last
    new_game: np.ndarray
    last: np.ndarray
    columns: Spans = field(init=False)
    rows: Spans = field(init=False)
    #: the sizes cells were seen at, across and down
    column_sizes: set[int] = field(init=False)
    row_sizes: set[int] = field(init=False)
    #: whether cells were seen at other sizes than the layout's
    resized: bool = False
    #: the part of the screen the board may take, as the last frame showed it
    _seen: np.ndarray | None = field(default=None, init=False, repr=False)
    #: the frame drawn last, and whether the whole board was found on it where the layout has it
    _drawn: np.ndarray | None = field(default=None, init=False, repr=False)
    _whole: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        self.columns, self.rows = spans(self.layout.xs), spans(self.layout.ys)
        self.column_sizes = {n for _, n in self.columns}
        self.row_sizes = {n for _, n in self.rows}

    @classmethod
    def of_new_game(cls, layout: Geometry, frame: np.ndarray) -> Follower:
        windows = _windows(frame, layout)
        return cls(layout, windows, windows)

    @property
    def shown(self) -> Geometry:
        """Where the cells are on screen (a pixel between two cells' spans goes to the one before)."""
        xs = (*(start for start, _ in self.columns), self.columns[-1][0] + self.columns[-1][1])
        ys = (*(start for start, _ in self.rows), self.rows[-1][0] + self.rows[-1][1])
        return Geometry(xs, ys)

    def redraw(self, frame: np.ndarray) -> np.ndarray:
        """A whole screen with the board drawn onto the layout, following it when its cells changed size (the
        board is located again only when the part of the screen it may take changed since the last frame)."""
        area = frame[self._around()]
        if self._seen is not None and np.array_equal(area, self._seen):
            return self._keep(self.drawn(frame), self._whole)
        self._seen = area.copy()
        found = self.locate(frame)
        if found is None:
            return self._keep(self.drawn(frame), False)  # something over the board
        if found != self.layout or self.resized:
            self._follow(frame, found)
        drawn = self.drawn(frame)
        self.last = _windows(drawn, self.layout)
        return self._keep(drawn, self.resized or at_place(found, self.layout))

    def whole(self, drawn: np.ndarray) -> bool | None:
        """Whether the whole board was found, at the layout's place, on ``drawn`` if it is the frame drawn last
        (None for any other frame)."""
        return self._whole if drawn is self._drawn else None

    def _keep(self, drawn: np.ndarray, whole: bool) -> np.ndarray:
        self._drawn, self._whole = drawn, whole
        return drawn

    def _follow(self, frame: np.ndarray, found: Geometry) -> None:
        """Where the cells are, from the board ``found`` on ``frame``: lined up (see :meth:`line_up`), and
        kept at the layout's places while the cells have not been seen at other sizes and nothing proves
        they are."""
        if not self.resized and _same_sizes(spans(found.xs), self.columns) and _same_sizes(spans(found.ys), self.rows):
            return  # the layout's cells, located a pixel or two off (a won board): lining them up proves no more
        columns, rows = self.line_up(frame, found)
        if not self.resized:
            # cells of the new game's sizes, located a pixel or two off (a won board), or a board located near
            # the layout that other sizes explain no better (every cell changed: a loss that shows the whole
            # board); a board whose lines are located further off is not where the layout has it
            layout_sizes = _same_sizes(columns, spans(self.layout.xs)) and _same_sizes(rows, spans(self.layout.ys))
            if layout_sizes or (_near(found, self.layout) and not self._explains(frame, columns, rows)):
                return
        self.resized = True
        self.columns, self.rows = columns, rows

    def drawn(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with the board drawn onto the layout from where its cells are, each cell a pixel or two
        off its size drawn the way (see ``vision.redraw``) that makes it look like the same cell on the new
        game, within LIKE_RMS (a covered tile); other cells are drawn the first way. The drawing depends on
        the frame alone, so that a screen that holds still is drawn the same every time."""
        return redraw_likest(frame, self.columns, self.rows, self.layout,
                             lambda drawn: _rms(_windows(drawn, self.layout), self.new_game), LIKE_RMS)

    def _explains(self, frame: np.ndarray, columns: Spans, rows: Spans) -> bool:
        """Whether cells drawn from ``columns`` and ``rows`` look like the new game or the frame drawn last by
        LIKE_RMS or more in all than drawn from the layout (see :meth:`_cost`)."""
        def unlike(lines: Spans, other: Spans) -> float:
            return sum(self._cost(frame, i, line, other, True)[0] for i, line in enumerate(lines)) * len(other)
        layout = spans(self.layout.xs), spans(self.layout.ys)
        return unlike(*layout) - unlike(columns, rows) >= LIKE_RMS

    def locate(self, frame: np.ndarray) -> Geometry | None:
        """The board's cells as located near the layout: a grid of the same cells, each at most a little
        smaller or larger, from within SAME_EDGE pixels of the same corner; else None (something over the
        board). It may be a pixel or two off (see :meth:`line_up`)."""
        rows, columns = self._around()
        try:
            found = locate(frame[rows, columns]).shifted(columns.start, rows.start)
        except SweepbotError:
            return None
        if (found.rows, found.cols) != (self.layout.rows, self.layout.cols):
            return None
        corner = max(abs(found.xs[0] - self.layout.xs[0]), abs(found.ys[0] - self.layout.ys[0]))
        if corner > SAME_EDGE or not _alike(found, self.layout):
            return None
        return found

    def _around(self) -> tuple[slice, slice]:
        """The part of a screen the board may take: its layout, grown by GROWTH right and below, and two
        cells around."""
        x, y, w, h = self.layout.bbox
        px, py = self.layout.pitch
        x0, y0 = max(0, int(x - 2 * px)), max(0, int(y - 2 * py))
        return slice(y0, int(y + h * (1 + GROWTH) + 2 * py)), slice(x0, int(x + w * (1 + GROWTH) + 2 * px))

    def line_up(self, frame: np.ndarray, found: Geometry) -> tuple[Spans, Spans]:
        """``found``'s columns, then its rows, each lined up (see :meth:`_line_up`)."""
        columns = self._line_up(frame, found.xs, self.rows, self.column_sizes, across=True)
        rows = self._line_up(frame, found.ys, columns, self.row_sizes, across=False)
        return columns, rows

    def _line_up(self, frame: np.ndarray, edges: tuple[int, ...], other: Spans, known: set[int],
                 across: bool) -> Spans:
        """Cells side by side, each starting where the one before ends, the first up to REACH pixels from
        the located first edge: the sizes and first edge whose cells look most like the same cells on the new
        game or on the frame drawn last (covered cells, or cells the last click left). Each cell's size is one
        seen before (within SIZE_REACH of the located one), the located one, or that a pixel either way (at a
        cost: NEW_SIZE); each start stays within START_REACH of the located edge. A size a covered cell proved joins
        the sizes seen."""
        # paths to each start of the next line: (cost, lines, each line's own cost)
        paths: dict[int, tuple[float, tuple[tuple[int, int], ...], tuple[bool, ...]]] = {
            edges[0] + d: (0.01 * abs(d), (), ()) for d in range(-REACH, REACH + 1)}
        for index, (a, b) in enumerate(pairwise(edges)):
            sizes = sorted({k for k in known if abs(k - (b - a)) <= SIZE_REACH} | {b - a - 1, b - a, b - a + 1})
            ahead: dict[int, tuple[float, tuple[tuple[int, int], ...], tuple[bool, ...]]] = {}
            for at, (cost, lines, own) in paths.items():
                if abs(at - a) > START_REACH:
                    continue
                for n in sizes:
                    here, covered = self._cost(frame, index, (at, n), other, across)
                    total = cost + here + (0.0 if n in known or n == b - a else NEW_SIZE) + 0.1 * abs(n - (b - a))
                    if at + n not in ahead or total < ahead[at + n][0]:
                        ahead[at + n] = (total, (*lines, (at, n)), (*own, covered))
            if not ahead:
                return spans(edges)
            paths = ahead
        _, lines, own = min(paths.values(), key=lambda p: p[0])
        known.update(n for (_, n), covered in zip(lines, own, strict=True) if covered)
        return lines

    def _cost(self, frame: np.ndarray, index: int, line: tuple[int, int], other: Spans,
              across: bool) -> tuple[float, bool]:
        """How unlike the new game and the frame drawn last the cells of one column (row) are, drawn from
        ``line``: each cell's distance (RMS) to the nearer of the two, or FAR_RMS beyond LIKE_RMS, averaged;
        and whether a cell of it is drawn as on the new game, pixel for pixel (a size proved by a covered cell,
        not by a frame drawn last that may have had it wrong)."""
        geo = self.layout
        target = (geo.xs if across else geo.ys)[index: index + 2]
        span = geo.ys if across else geo.xs
        length = target[1] - target[0]
        offsets = tuple(int(v - span[0]) for v in span)
        local = Geometry((0, length), offsets) if across else Geometry(offsets, (0, length))
        cells = np.arange(geo.rows) * geo.cols + index if across else index * geo.cols + np.arange(geo.cols)
        as_new = near = np.full(len(cells), np.inf)
        drawn: list[tuple[np.ndarray, np.ndarray]] = []
        for way in WAYS:  # each cell drawn the way it looks most like the cell known
            along = cell_map(line[1], length, way) + line[0]
            cross = np.concatenate([cell_map(n, t1 - t0, way) + a
                                    for (a, n), (t0, t1) in zip(other, pairwise(span), strict=True)])
            if any(np.array_equal(along, a) and np.array_equal(cross, c) for a, c in drawn):
                continue  # no cell here is drawn otherwise this way
            drawn.append((along, cross))
            if across:
                map_x, map_y = np.tile(along, (len(cross), 1)), np.tile(cross[:, None], (1, length))
            else:
                map_x, map_y = np.tile(cross, (length, 1)), np.tile(along[:, None], (1, len(cross)))
            strip = cv2.remap(frame, map_x.astype(np.float32), map_y.astype(np.float32), cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
            windows = cell_windows(strip, local, window_crop([geo], INSET))
            new = _rms(windows, self.new_game[cells])
            as_new = np.minimum(as_new, new)
            near = np.minimum(near, np.minimum(new, _rms(windows, self.last[cells])))
        return float(np.where(near <= LIKE_RMS, near, FAR_RMS).mean()), bool((as_new <= SAME_RMS).any())


def _alike(found: Geometry, layout: Geometry) -> bool:
    """Whether ``found`` may be the layout's cells at other sizes: each cell at least NARROWER of its size on
    the layout and at most its size divided by it."""
    for a, b in ((found.xs, layout.xs), (found.ys, layout.ys)):
        ratio = np.diff(a) / np.diff(b)
        if float(ratio.min()) < NARROWER or float(ratio.max()) > 1 / NARROWER:
            return False
    return True


#: The most a cell may shrink (as a share of its size on the layout), and its inverse the most it may grow.
NARROWER = 0.8


def _same_sizes(lined: Spans, layout: Spans) -> bool:
    """Whether cells lined up have the layout's sizes and start within SAME_EDGE pixels of its cells."""
    return all(n == m and abs(a - b) <= SAME_EDGE for (a, n), (b, m) in zip(lined, layout, strict=True))


def at_place(found: Geometry, layout: Geometry) -> bool:
    """Whether ``found``'s outer edges lie within SAME_EDGE pixels of the layout's."""
    return all(abs(a - b) <= SAME_EDGE for a, b in zip(found.bbox, layout.bbox, strict=True))


def _near(found: Geometry, layout: Geometry) -> bool:
    """Whether every line of ``found`` lies within SAME_EDGE pixels of the layout's."""
    return all(abs(a - b) <= SAME_EDGE for a, b in zip((*found.xs, *found.ys), (*layout.xs, *layout.ys), strict=True))


def _windows(frame: np.ndarray, layout: Geometry) -> np.ndarray:
    return cell_windows(frame, layout, window_crop([layout], INSET))


def _rms(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sqrt(((a - b) ** 2).mean(axis=1))




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
