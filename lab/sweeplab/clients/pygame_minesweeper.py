"""pygame-minesweeper (PyPI): the Windows 2000 look in pygame, 16 px cells, any size; new game on the face.

Started as ``python -m minesweeper LEVEL`` (``custom --rows R --cols C --mines M`` for other sizes) with its
default skin. Escape quits it, so nothing here sends keys. The window opens at 10x10 px and is then resized
to the board; the harness ignores windows that small.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab.clients.base import DEFAULT_SCREEN, Grid, LaunchPlan, Size
from sweeplab.clients.pypi import PypiClient
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

#: Measured on 1.0.11 (skin 2000): 16 px tiles; a 9 px frame (2 px bevels around 5 px of grey) on every
#: side, the board drawn against the bottom frame; the 24 px face centred 18 px from the top.
CELL = 16
FRAME = 9
FACE_TOP = 18
FACE_SIZE = 24
#: the counters' height plus the frame's five grey and bevel bands
TOP_PANEL = 23 + 5 * FRAME
#: the game needs room for the 3x3 opening its first click makes
OPENING = 9


class PygameMinesweeper(PypiClient):
    name = "pygame-minesweeper"
    package = "pygame-minesweeper (PyPI)"
    module = "minesweeper"
    levels = {  # noqa: RUF012
        "basic": Size(10, 10, 10),
        "intermediate": Size(16, 16, 40),
        "expert": Size(30, 16, 99),
    }
    default_level = "basic"
    custom_sizes = True
    window_name = "^Pygame - Minesweeper$"

    def check_custom(self, size: Size) -> None:
        if size.mines > size.cols * size.rows - OPENING:
            raise DesktopError(f"pygame-minesweeper needs at least {OPENING} cells free of mines, not {size}")

    def screen_size(self, size: Size) -> tuple[int, int]:
        # openbox centres the first, tiny window; the board's window then grows from there to the right and down
        width = size.cols * CELL + 2 * FRAME
        height = size.rows * CELL + TOP_PANEL
        return max(DEFAULT_SCREEN[0], 2 * width + 40), max(DEFAULT_SCREEN[1], 2 * height + 80)

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("pygame-minesweeper has neither seeds nor tile sizes")
        if level in self.levels:
            args = [level]
        else:
            args = ["custom", "--rows", str(size.rows), "--cols", str(size.cols), "--mines", str(size.mines)]
        # no sound device on a virtual screen; no greeting from pygame on stdout
        env = {"SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        return LaunchPlan([str(self.executable), "-m", self.module, *args], env)

    def face(self, client: LaunchedClient) -> tuple[int, int]:
        """The face (new game) relative to the client area: centred, near the top."""
        return client.window_geometry().w // 2, FACE_TOP + FACE_SIZE // 2

    def new_game(self, client: LaunchedClient) -> None:
        x, y = self.face(client)
        client.click(x, y)

    def grid(self, client: LaunchedClient) -> Grid:
        height = client.window_geometry().h
        y0 = height - FRAME - client.size.rows * CELL
        return Grid.uniform(client.size.rows, client.size.cols, FRAME, y0, CELL)
