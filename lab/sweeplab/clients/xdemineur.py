"""xdemineur: the classic look, 21 px cells, any size from 12 columns; a new game by clicking the face."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab.clients.base import ClientSpec, Grid, LaunchPlan, Size
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

#: Measured on xdemineur 2.1.1: cells are 20 px with a 1 px black line between them, the first at (16, 81)
#: of the client area; the face is centred horizontally, 40 px from the top.
CELL = 20
PITCH = 21
BOARD_X = 16
BOARD_Y = 81
FACE_Y = 40
MIN_COLS = 12


class Xdemineur(ClientSpec):
    name = "xdemineur"
    package = "xdemineur"
    binary = "xdemineur"
    levels = {  # noqa: RUF012
        "intermediate": Size(16, 16, 40),
        "expert": Size(30, 16, 99),
    }
    default_level = "intermediate"
    closes_on_request = False
    custom_sizes = True
    window_name = "mineur"
    #: any first click may hit a mine; the face sits 41 px above the board, centred on it
    play = {"first_click": "none", "face_above_board": 41}  # noqa: RUF012

    def check_custom(self, size: Size) -> None:
        if size.cols < MIN_COLS:
            raise DesktopError(f"xdemineur needs at least {MIN_COLS} columns, not {size.cols}")

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("xdemineur has neither seeds nor tile sizes")
        geometry = f"{size.cols}x{size.rows}+0+0"
        return LaunchPlan([str(self.executable), "-geometry", geometry, "-m", str(size.mines)])

    def face(self, client: LaunchedClient) -> tuple[int, int]:
        """The yellow face (new game) relative to the client area."""
        return client.window_geometry().w // 2, FACE_Y

    def new_game(self, client: LaunchedClient) -> None:
        x, y = self.face(client)
        client.click(x, y)

    def grid(self, client: LaunchedClient) -> Grid:
        return Grid(client.size.rows, client.size.cols, BOARD_X, BOARD_Y, PITCH, PITCH, CELL, CELL)
