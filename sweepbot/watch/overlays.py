"""What a client lays over its board's edge (a "You lost!" toast, a pop-up), told by the band of screen around
the board (see :mod:`sweepbot.vision.surround`) against how it looked when the board was last seen whole; and
whether the client's overlays go by themselves (a toast) or stay (a dialog, closed only by a new game)."""

from __future__ import annotations

import numpy as np

from sweepbot.rect import Rect
from sweepbot.vision.surround import band, laid_over, laid_over_extent, sample

#: The longest wait (s) for a toast or pop-up over part of the board to go ("You lost!" toasts stay 5 s).
OVERLAY_WAIT = 8.0
#: Grabs (s apart) while waiting for an overlay to go.
OVERLAY_POLL = 0.1
#: A board found more than this many pixels from where it was last seen whole, or at another size (a column
#: widened in play), has moved; one closer at the same size is where it was (a toast can move the grid found).
MOVED = 8


class Overlays:
    """The band around the board where it was last seen whole, and what the client's overlays do."""

    def __init__(self) -> None:
        self.kept: tuple[Rect, np.ndarray] | None = None
        self.seen: np.ndarray | None = None  # the whole frame the band was kept from, thinned (surround.sample)
        self.renewed = False  # the band kept was renewed once (see renew)
        #: whether what the client lays over its board goes by itself (True) or stays (False); None: unknown
        self.go: bool | None = None

    def keep(self, frame: np.ndarray, board: Rect) -> None:
        """Remember the band around ``board`` on ``frame``, a whole grab with nothing over the board."""
        self.kept = (board, band(frame, board.as_tuple()))
        self.seen = sample(frame)
        self.renewed = False

    def keep_unless_nearby(self, frame: np.ndarray, board: Rect) -> None:
        """Remember the band, unless the board was found a few pixels off where it was kept (a toast over its
        edge moved the grid found): a band cut there runs over the board's own edge cells."""
        if self.kept is None or self.kept[0] == board or self.moved(board):
            self.keep(frame, board)

    def renew(self, frame: np.ndarray) -> bool:
        """Keep the band as ``frame`` (a whole grab) shows it where the board was kept, once for each band kept
        from a read: a change of the band that stayed is the band as it is now. False when it was renewed
        already (what stays over the board then is not waited out again)."""
        if self.kept is None or self.renewed:
            return False
        self.kept = (self.kept[0], band(frame, self.kept[0].as_tuple()))
        self.renewed = True
        return True

    def moved(self, where: Rect) -> bool:
        """The board found at ``where`` is not where it was last seen whole (see MOVED)."""
        if self.kept is None:
            return True
        was = self.kept[0]
        return (abs(where.x - was.x) > MOVED or abs(where.y - was.y) > MOVED
                or abs(where.w - was.w) > 1 or abs(where.h - was.h) > 1)

    def laid_over(self, frame: np.ndarray, where: Rect | None = None) -> bool:
        """Something lies over part of the board's edge on ``frame`` (a whole grab) that was not there when the
        board was last seen whole (at ``where``, when given); never once one was seen to stay."""
        if self.go is False:
            return False
        return (where is None or not self.moved(where)) and self.covered(frame)

    def covered(self, frame: np.ndarray) -> bool:
        """Something lies over part of the board's edge on ``frame`` (a whole grab), whether or not the client's
        overlays were seen to go by themselves."""
        return self.kept is not None and laid_over(self.kept[1], frame, self.kept[0].as_tuple())

    def extent(self, frame: np.ndarray, board: Rect) -> Rect:
        """``board`` and what lies over it on ``frame`` (a whole grab), in one rectangle: a dialog's whole
        extent, beyond the board's edges (see :func:`sweepbot.vision.surround.laid_over_extent`)."""
        if self.seen is None:
            return board
        return Rect(*laid_over_extent(self.seen, frame, board.as_tuple()))

    def went(self) -> None:
        """One was seen to go by itself."""
        self.go = True

    def stayed(self) -> None:
        """One stayed OVERLAY_WAIT s: not waited for again, unless one was seen to go before."""
        if self.go is None:
            self.go = False
