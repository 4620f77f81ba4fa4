"""Driving the board on screen: clicking a cell and waiting until the client has answered and the board holds
still; and the cells as windows of pixels, compared between two frames to tell which cells changed."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sweepbot.calibration.facts import CalibrationError
from sweepbot.calibration.live.follow import Follower
from sweepbot.calibration.looks import window_crop
from sweepbot.rect import Rect
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry
from sweepbot.watch import CALIBRATION, FocusElsewhere, Watcher

#: A cell: (row, column).
Cell = tuple[int, int]

#: A cell counts as changed when its window moved this much (RMS, 0-255).
CHANGED_RMS = 10.0
#: A changed cell's window holds its look while it moves less than this (RMS, 0-255) between two grabs.
HELD_RMS = 2.0
#: How many pixels off where it was a cell may be drawn and still be the same (see CellWindows.changed).
SHIFT = 1
#: How far inside a cell (share of the cell) its middle starts: a focus mark drawn around the cell clicked last
#: (Tk's dotted ring) lies outside it.
MIDDLE_INSET = 0.2
#: A covered tile the pointer lights (gnome-mines) is no answer to a click: the longest wait (s) for the answer
#: while the clicked cell shows it lit (gnome-mines keeps its scores for a while at a win, the tile lit till then),
#: and how long the pointer rests on a tile to see whether the client lights it.
LIT_TIMEOUT = 5.0
LIT_WAIT = 0.4
#: A window this close (RMS) to the lit tile is that tile: a lit tile may look much like an open empty cell.
LIT_RMS = 4.0
#: Grabs of one cell (s apart, at most) while waiting for it to change.
CELL_POLL = 0.01
#: How far right of and below the point clicked (px) a menu opened at the pointer is looked for.
POPUP_PROBE = 4


def rms(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two windows are: the root mean square of their pixel differences (0-255)."""
    return float(np.sqrt(((a.astype(np.float32) - b.astype(np.float32)) ** 2).mean()))


@dataclass(frozen=True)
class CellWindows:
    """The board's cells as windows of pixels, ``inset`` (a share of the cell) in from their edges."""

    geometry: Geometry
    inset: float

    def windows(self, frame: np.ndarray) -> np.ndarray:
        """Every cell's window, row by row, as one row of a cells x pixels array."""
        return cell_windows(frame, self.geometry, window_crop([self.geometry], self.inset))

    def window(self, frame: np.ndarray, cell: Cell, origin: Rect | None = None,
               place: Geometry | None = None) -> np.ndarray:
        """One cell's window; with ``origin``, ``frame`` is only the part of the screen at that rectangle (it
        must hold the window), and ``place`` says where the cells are on it (when they grew in play)."""
        if origin is None:
            return self.windows(frame)[cell[0] * self.geometry.cols + cell[1]]
        ox, oy, w, h = window_crop([self.geometry], self.inset)
        at = place or self.geometry
        x, y = at.xs[cell[1]] + ox - origin.x, at.ys[cell[0]] + oy - origin.y
        return frame[y:y + h, x:x + w].reshape(-1).astype(np.float32)

    def changed(self, before: np.ndarray, after: np.ndarray) -> set[Cell]:
        """The cells whose windows differ between two frames, and not only by where they are drawn: a cell
        drawn SHIFT pixels off where it was is the same (a table that lays its columns out anew when one
        loses its covered cells, located a pixel off)."""
        geo = self.geometry
        was = self.windows(before)
        d = np.sqrt(((was - self.windows(after)) ** 2).mean(axis=1)).reshape(geo.rows, geo.cols)
        ox, oy, w, h = window_crop([geo], self.inset)
        out = set()
        for r, c in np.argwhere(d >= CHANGED_RMS):
            x, y = geo.xs[c] + ox, geo.ys[r] + oy
            old = was[r * geo.cols + c]
            moved = [after[y + dy : y + dy + h, x + dx : x + dx + w] for dx in range(-SHIFT, SHIFT + 1)
                     for dy in range(-SHIFT, SHIFT + 1) if (dx or dy) and min(x + dx, y + dy) >= 0]
            if not any(m.shape[:2] == (h, w) and rms(m.reshape(-1), old) < CHANGED_RMS for m in moved):
                out.add((int(r), int(c)))
        return out


def board_region(geometry: Geometry) -> Rect:
    """The board's rectangle on screen."""
    x, y, w, h = geometry.bbox
    return Rect(x, y, w, h)


#: The share of the board's cells that, changed with no click since the last answer, tell that the board is no
#: longer there (a level menu in its place): no click goes.
REPLACED_SHARE = 0.5


@dataclass
class BoardDriver:
    """The board on screen, as the ``watcher`` sees it: its cells, and the frame the last click settled on."""

    watcher: Watcher
    cells: CellWindows
    last_frame: np.ndarray = field(default_factory=lambda: np.zeros((1, 1, 3), np.uint8))
    #: whether a note the client draws inside its board at a loss ("You have lost.", kmines) goes by itself
    notes_go: bool | None = None
    #: the cell clicked last, and the one clicked before it
    target: Cell | None = None
    previous: Cell | None = None
    #: where the cells are on screen when they grow in play (the screen's whole grabs are drawn back onto
    #: ``geometry`` by it; see sweepbot.calibration.live.follow); None: always at ``geometry``
    follower: Follower | None = None
    #: the client's window (its client area) on screen; None: not known
    window: Rect | None = None
    #: a covered tile's window while the pointer is over it, when the client lights it; None: not lit
    lit: np.ndarray | None = None

    def changes(self, before: np.ndarray, after: np.ndarray, cell: Cell) -> set[Cell]:
        """The cells that the click on ``cell`` (the last one) changed from ``before`` to ``after``. A mark some
        clients draw around the cell clicked last (a dotted focus ring) moves from the cell clicked before to
        this one: where only the border of those two changed, that is no change (this cell's still is when other
        cells changed too: an empty cell may differ from a covered one only by its border)."""
        changed = self.cells.changed(before, after)
        middles = CellWindows(self.geometry, MIDDLE_INSET).changed(before, after)
        ring = {c for c in (self.previous, cell) if c is not None and c in changed and c not in middles}
        if self.previous in ring:
            changed.discard(self.previous)
        if cell in ring and not changed - {cell} and (self.previous is None or self.previous in ring):
            # ... the ring left the cell clicked before, if one was (an empty cell opened alone, its middle
            # drawn as a covered one's, is no ring)
            changed.discard(cell)
        return changed

    def keep_surround(self, frame: np.ndarray) -> None:
        """Remember the band around the board on ``frame``, a new game with nothing over it."""
        self.watcher.overlays.keep(frame, board_region(self.geometry))

    def unhidden(self, frame: np.ndarray) -> np.ndarray:
        """``frame``, or, when a toast or pop-up lies over part of the board, the screen once it went and the
        board settled (see :meth:`Watcher.overlay_gone`; one that stays is not waited for again)."""
        clear = self.watcher.overlay_gone(frame)
        if clear is frame:
            return frame
        return self.watcher.grab() if clear is None else self.answered()

    def press(self, key: str) -> bool:
        """Press one key (Escape, to close a window over the board); not when the keyboard focus is on a
        window that is not the game's (a menu that took the board's place, another program): False then."""
        try:
            self.watcher.press([[key]])
        except FocusElsewhere:
            return False
        return True

    def escape_is_safe(self) -> bool:
        """Whether Escape may go to a window that keeps the game from its keys (see
        :meth:`Watcher.escape_is_safe`)."""
        return self.watcher.escape_is_safe(self.region)

    def window_over(self) -> bool:
        """Whether another window lies over the board (see :meth:`Watcher.window_over`), once the client's
        window is known."""
        return self.window is not None and self.watcher.window_over(self.region)

    def check_window(self) -> None:
        """Stop when the client's window is gone (see :meth:`board_gone`)."""
        self.board_gone()

    def gave_way(self, since: np.ndarray) -> bool:
        """Whether the board is not there any more, with no click since ``since`` (the screen the game's last
        answer settled on): no window holds it (:meth:`board_gone`), or most of its cells changed (a level menu
        laid in its place)."""
        now = self.watcher.grab()
        return self.board_gone() or len(self.cells.changed(since, now)) > REPLACED_SHARE * self.geometry.rows \
            * self.geometry.cols

    def board_gone(self) -> bool:
        """Whether no window holds the board any more while the client's window is still on screen (a Tk
        window that shrinks to a level menu when a game ends). Stops when the client's window is gone: no window
        holds the board, nor the corner where the client's window began (a window that shrank to a level menu
        still holds that): its program ended, or closed it."""
        if self.window is None:
            return False
        found = self.watcher.input().window_at
        if found(*self.region.center) is not None:
            return False
        if found(self.window.x + 1, self.window.y + 1) is None:
            raise CalibrationError("the game's window closed (its program may have ended): start the client again")
        return True

    def popup_at(self, cell: Cell) -> bool:
        """Whether a window lies just below and right of where ``cell`` was clicked: a menu the click opened
        at the pointer (a web page's context menu on a right-click), no answer of the game."""
        if self.window is None:
            return False
        cx, cy = self.on_screen.center(*cell)
        return self.watcher.foreign_window_at(self.region, cx + POPUP_PROBE, cy + POPUP_PROBE)

    @property
    def quiet(self) -> float:
        """The stillness that ends a wait: the client's repaint time, as calibration waits for it."""
        return self.watcher.pace.stillness(CALIBRATION)

    @property
    def geometry(self) -> Geometry:
        """Where the board's cells are on screen."""
        return self.cells.geometry

    @property
    def on_screen(self) -> Geometry:
        """Where the board's cells are on screen now: ``geometry``, unless they grew since the new game."""
        return self.geometry if self.follower is None else self.follower.shown

    @property
    def region(self) -> Rect:
        """The board's rectangle on screen."""
        return board_region(self.on_screen)

    def park(self) -> None:
        """Move the pointer off the cells, just below the board."""
        self.watcher.park(self.region)

    def answered(self, before: np.ndarray | None = None) -> np.ndarray:
        """The whole screen once the board has changed from ``before`` (its pixels; None: no change needed) and
        held still, as calibration waits (see :data:`sweepbot.watch.CALIBRATION`). Settled against the board
        before a click, a flash that turns the whole board red for a moment (sgt-mines at a death) is seen as
        one, and waited out, even when it began before this wait."""
        self.watcher.answer(self.region, before, CALIBRATION)
        return self.watcher.grab()

    def cell_region(self, cell: Cell) -> Rect:
        """A cell's rectangle on screen, and 2 pixels around it."""
        x, y, w, h = self.on_screen.cell_rect(*cell)
        return Rect(x - 2, y - 2, w + 4, h + 4)

    def click_unless_gone(self, cell: Cell, button: str, since: np.ndarray) -> np.ndarray | None:
        """:meth:`click`, unless the board gave way since ``since`` (:meth:`gave_way`): a click would land on
        whatever took the board's place. None then, and no click; the screen now is the ``last_frame``."""
        if self.gave_way(since):
            self.last_frame = self.watcher.grab()
            return None
        return self.click(cell, button)

    def click(self, cell: Cell, button: str) -> np.ndarray:
        """Click a cell and return the screen once the client has answered and the board settled."""
        self.watcher.grab()  # the board followed to where its cells are now
        board_before = self.watcher.grab(self.region)
        old = self.cell_window(cell)
        self.previous, self.target = self.target, cell
        self.watcher.click([self.on_screen.center(*cell)], button, self.region)
        # wait for the clicked cell itself: a client may light the tile under the pointer at once and
        # answer the click only later (gnome-mines: 0.3 s, seconds at a win)
        self.held_change(cell, old, CALIBRATION.timeout)
        self.last_frame = self.unhidden(self.answered(board_before))
        return self.last_frame

    def learn_lit(self, cell: Cell) -> None:
        """Rest the pointer on covered ``cell`` and keep how its tile looks if the client lights it (``lit``),
        then park the pointer and wait for the tile to go back."""
        old = self.cell_window(cell)
        self.watcher.rest_on(*self.on_screen.center(*cell))
        now = self.held_change(cell, old, LIT_WAIT)
        self.park()
        if now is None:
            return
        self.lit = now
        self.watcher.wait_until(lambda: True if rms(self.cell_window(cell), old) < CHANGED_RMS else None,
                                LIT_WAIT, CELL_POLL)

    def cell_window(self, cell: Cell) -> np.ndarray:
        """``cell``'s window on the screen now."""
        spot = self.cell_region(cell)
        return self.cells.window(self.watcher.grab(spot), cell, spot, self.on_screen)

    def held_change(self, cell: Cell, old: np.ndarray, timeout: float) -> np.ndarray | None:
        """``cell``'s window once it changed from ``old`` and held that look for ``quiet`` s (at most ``timeout``
        s; None if it did not). A tile lit under the pointer is no change: it is waited out for LIT_TIMEOUT s."""
        clock = self.watcher.clock
        start = clock.now()
        quiet = self.quiet
        held: np.ndarray | None = None
        since = 0.0

        def check() -> tuple[np.ndarray | None] | None:
            nonlocal held, since
            now = self.cell_window(cell)
            lit = self.lit is not None and rms(now, self.lit) < LIT_RMS
            if clock.now() - start >= (LIT_TIMEOUT if lit else timeout):
                return (None,)
            if rms(now, old) < CHANGED_RMS or lit:
                held = None  # unchanged, or a passing highlight that went away
            elif held is None or rms(now, held) >= HELD_RMS:
                held, since = now, clock.now()
            elif clock.now() - since >= quiet:
                return (held,)  # changed, and held that look
            return None

        found = self.watcher.wait_until(check, max(LIT_TIMEOUT, timeout), min(CELL_POLL, quiet / 8))
        return None if found is None else found[0]
