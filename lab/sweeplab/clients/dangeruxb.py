"""DangerUXB (PyPI, tkinter): white 3D buttons that fit the window; a new game with the Start smiley.

Started on ``launchers/dangeruxb.py``, which builds the game's window itself (its entry module starts the
game when imported) with the requested size added to its level list. Its buttons act on release of the
mouse button. The buttons' size follows the window (about 32 px at the window's first size), so the grid
is found in a screenshot of the fresh board, where every button is white.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab.clients import tiles
from sweeplab.clients.base import DEFAULT_SCREEN, Grid, LaunchPlan, Size
from sweeplab.clients.pypi import PypiClient
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

#: A covered button's face, BGR.
COVERED_BGR = (255, 255, 255)
#: The smileys of the toolbar (Start, then Hint), BGR; Start is the one furthest left.
SMILEY_BGR = (1, 255, 255)
SMILEY_TOLERANCE = 12
#: Measured on 1.0 at its first window size: buttons 33 px apart, a 70 px toolbar and a status line.
PITCH = 33
TOOLBAR_AND_STATUS = 110


class DangerUXB(PypiClient):
    name = "dangeruxb"
    package = "DangerUXB (PyPI)"
    launcher = "dangeruxb.py"
    #: its own level list: 8*8-10, 16*16-40, 30*16-99
    levels = {  # noqa: RUF012
        "beginner": Size(8, 8, 10),
        "intermediate": Size(16, 16, 40),
        "expert": Size(30, 16, 99),
    }
    default_level = "beginner"
    custom_sizes = True
    window_name = "^Danger UXB$"

    def check_custom(self, size: Size) -> None:
        if size.cols < 2 or size.rows < 2:
            raise DesktopError("DangerUXB boards are at least 2x2")

    def screen_size(self, size: Size) -> tuple[int, int]:
        width = size.cols * PITCH + 60
        height = size.rows * PITCH + TOOLBAR_AND_STATUS + 60
        return max(DEFAULT_SCREEN[0], width), max(DEFAULT_SCREEN[1], height)

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("dangeruxb has neither seeds nor tile sizes")
        return LaunchPlan(self.command(size))

    def start_button(self, client: LaunchedClient) -> tuple[int, int]:
        """The Start smiley (new game) relative to the client area: the leftmost smiley above the board."""
        grid = client.grid()
        image = client.screen.grab(client.window_geometry())[: int(grid.y0)]
        mask = tiles.colour_mask(image, SMILEY_BGR, SMILEY_TOLERANCE)
        boxes = [(x, y, w, h) for x, y, w, h, _ in tiles.blobs(mask) if w >= 16 and h >= 16]
        if not boxes:
            raise DesktopError("no Start smiley above the DangerUXB board")
        x, y, w, h = min(boxes)
        return x + w // 2, y + h // 2

    def new_game(self, client: LaunchedClient) -> None:
        x, y = self.start_button(client)
        client.click(x, y)

    def grid(self, client: LaunchedClient) -> Grid:
        client.park_pointer()  # the button under the pointer is drawn highlighted
        image = client.screen.grab(client.window_geometry())
        return tiles.find_tiles(image, client.size.rows, client.size.cols, COVERED_BGR, client=self.name, tolerance=0)
