"""Stand-ins for the screen, the reader and the mouse, driven by the simulated game (no display needed).

The fake screen paints each cell as an 8x8 block whose blue value is the cell's character code, on a
canvas with a margin, so the loop's capture, read, click and settle steps all run for real on pixels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sweepbot.board import Board
from sweepbot.clock import Clock, FakeClock
from sweepbot.control.mouse import BoardInput
from sweepbot.errors import SweepbotError
from sweepbot.game import Game
from sweepbot.playing.view import BoardView
from sweepbot.rect import Rect
from sweepbot.watch import Watcher

CELL = 8
MARGIN_X, MARGIN_Y = 40, 24


def watcher(screen: Any, mouse: BoardInput | None = None, clock: Clock | None = None) -> Watcher:
    """A watcher of a drawn screen on a fake clock: the screen's own (``screen.clock``, when its looks change
    with time), else ``clock``, else a new one. The mouse waits on the same clock."""
    chosen = getattr(screen, "clock", None) or clock or FakeClock()
    if mouse is not None:
        mouse.clock = chosen
    return Watcher(screen, mouse, chosen)


class SimScreen:
    def __init__(self, game: Game, clock: FakeClock | None = None) -> None:
        self.game = game
        self.grabs = 0
        self.clock = clock or FakeClock()  # the time a screen that changes by itself goes by

    def frame(self) -> np.ndarray:
        view = self.game.view()
        canvas = np.full((view.rows * CELL + 2 * MARGIN_Y, view.cols * CELL + 2 * MARGIN_X, 3), 30, np.uint8)
        codes = np.array([[ord(ch) for ch in row] for row in view.grid], np.uint8)
        block = np.kron(codes, np.ones((CELL, CELL), np.uint8))
        canvas[MARGIN_Y:MARGIN_Y + block.shape[0], MARGIN_X:MARGIN_X + block.shape[1], 0] = block
        state = {"playing": 0, "won": 1, "lost": 2}[self.game.state]
        canvas[0, 0, 1] = state
        return canvas

    def grab(self, region: Rect | None = None) -> np.ndarray:
        self.grabs += 1
        image = self.frame()
        if region is None:
            return image
        return image[region.y:region.y + region.h, region.x:region.x + region.w]


class SimReader:
    def __init__(self, rows: int, cols: int, mines: int) -> None:
        self.rows, self.cols, self.mines = rows, cols, mines

    def grid(self, frame: np.ndarray) -> tuple[str, ...]:
        """The characters the simulated screen draws, one a cell."""
        sub = frame[MARGIN_Y:MARGIN_Y + self.rows * CELL:CELL, MARGIN_X:MARGIN_X + self.cols * CELL:CELL, 0]
        if sub.shape != (self.rows, self.cols):
            raise SweepbotError("no board found")
        return tuple("".join(chr(v) for v in row) for row in sub)

    def read(self, frame: np.ndarray) -> BoardView:
        grid = self.grid(frame)
        if int(frame[0, 0, 1]) > 2:
            raise SweepbotError("no board found")
        board = Board(grid, self.mines, ("playing", "won", "lost")[int(frame[0, 0, 1])])
        return BoardView(board, tuple(float(MARGIN_X + c * CELL) for c in range(self.cols + 1)),
                       tuple(float(MARGIN_Y + r * CELL) for r in range(self.rows + 1)))

    def area(self) -> Rect:
        """The board and the pixel that tells the game's state (at the canvas's top-left corner)."""
        return Rect(0, 0, MARGIN_X + self.cols * CELL, MARGIN_Y + self.rows * CELL)

    def read_in_area(self, frame: np.ndarray) -> BoardView:
        return self.read(frame)


class SimDevice:
    """Clicks land on the simulated game; the pointer position is tracked (and can be moved 'by hand')."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pointer = (600, 400)
        self.clicks: list[tuple[int, int, str]] = []
        self.outside = 0

    def position(self) -> tuple[int, int]:
        return self.pointer

    def move(self, x: int, y: int) -> None:
        self.pointer = (x, y)

    def click(self, x: int, y: int, button: str) -> None:
        self.pointer = (x, y)
        self.clicks.append((x, y, button))
        c, r = (x - MARGIN_X) // CELL, (y - MARGIN_Y) // CELL
        if not (0 <= r < self.game.rows and 0 <= c < self.game.cols):
            self.outside += 1
            return
        if button == "left":
            self.game.open((r, c))
        else:
            self.game.flag((r, c))

    def press(self, keys: list[str]) -> None:
        pass

    def size(self) -> tuple[int, int]:
        return (1280, 1024)



class LaggingDevice(SimDevice):
    """A pointer that shows each move only after ``lag`` reads of its position, as an X server does while a
    window manager holds a button press in its grab: later input waits in the server's queue, in order.
    ``hand(x, y)`` queues a move made by a person."""

    def __init__(self, game: Game, lag: int) -> None:
        super().__init__(game)
        self.lag = lag
        self.shown = self.pointer
        self.queue: list[tuple[int, int]] = []  # moves not shown yet, oldest first
        self.reads_left = 0  # reads before the oldest queued move shows

    def _queue(self, point: tuple[int, int]) -> None:
        if not self.queue:
            self.reads_left = self.lag
        self.queue.append(point)

    def position(self) -> tuple[int, int]:
        if self.queue:
            self.reads_left -= 1
            if self.reads_left <= 0:
                self.shown = self.queue.pop(0)
                self.reads_left = self.lag
        return self.shown

    def move(self, x: int, y: int) -> None:
        super().move(x, y)
        self._queue((x, y))

    def click(self, x: int, y: int, button: str) -> None:
        super().click(x, y, button)
        self._queue((x, y))

    def hand(self, x: int, y: int) -> None:
        self.pointer = (x, y)
        self._queue((x, y))
