"""How a client takes a click: a client that takes only a press held for a moment (a web page that opens a
cell on a long press) is found at the first click of all, taken by nothing, and clicked with the button held
longer and longer; the shortest hold it took is kept for play."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sweepbot.calibration.live.driver import BoardDriver, Cell
from sweepbot.calibration.live.session import LiveSession

#: Seconds the button is held, in turn.
PRESS_HOLDS = (0.1, 0.25, 0.5, 1.0)


def shortest_hold(board: BoardDriver, cell: Cell, before: np.ndarray, session: LiveSession,
                  log: Callable[[str], None]) -> tuple[np.ndarray, set[Cell]] | None:
    """Click ``cell`` with the button held each of PRESS_HOLDS in turn; at the first hold that changed the board
    from ``before``, learn it into the ``session``'s rules for play: the screen then and the cells it changed.
    None (plain clicks again) if no hold did."""
    mouse = board.watcher.input()
    for hold in PRESS_HOLDS:
        mouse.hold = hold
        frame = board.click(cell, "left")
        changed = board.changes(before, frame, cell)
        if changed:
            session.learn(press_hold=hold)
            log(f"the client takes a click only with the button held {hold:g} s")
            return frame, changed
    mouse.hold = 0.0
    return None
