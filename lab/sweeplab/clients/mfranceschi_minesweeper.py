"""mfranceschi-minesweeper (PyPI, tkinter): blue buttons beside a control panel; "New game" starts again.

Started on ``launchers/mfranceschi.py`` (its window, its default theme, the requested size given to its
controller's new-game call). The first click opens an area. A column widens (about 34 to 39 px) once a
digit shows in it, so the grid measured on a fresh board holds until the first digit; a new game brings
the fresh widths back. At 30 columns the window grows past 1280 px during a game: screen_size() asks for
a wider screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab.clients import tiles
from sweeplab.clients.base import DEFAULT_SCREEN, Grid, LaunchPlan, Size
from sweeplab.clients.pypi import PypiClient
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

#: A covered button's face, BGR (Tk's "blue").
COVERED_BGR = (255, 0, 0)
#: The "New game" button's face, BGR (Tk's "yellow"; flagged cells are yellow too, but on the board).
NEW_GAME_BGR = (0, 255, 255)
#: Measured on 0.2.3: the control panel is about 230 px wide; columns are 34 px covered and up to 39 px
#: with a digit; rows 31 px.
PANEL_WIDTH = 240
COLUMN = 34
WIDEST_COLUMN = 39
ROW_HEIGHT = 31


class MfranceschiMinesweeper(PypiClient):
    name = "mfranceschi-minesweeper"
    package = "mfranceschi-minesweeper (PyPI)"
    launcher = "mfranceschi.py"
    #: its own levels (the list under its "OK (new game)" button)
    levels = {  # noqa: RUF012
        "easy": Size(8, 8, 10),
        "intermediate": Size(16, 16, 40),
        "expert": Size(30, 16, 99),
    }
    default_level = "easy"
    custom_sizes = True
    window_name = "^Mfranceschi Minesweeper!$"

    def check_custom(self, size: Size) -> None:
        # the first click must land on a cell with few mines around it, with at least 5 zeros near it
        if size.mines > size.cols * size.rows - 9:
            raise DesktopError(f"mfranceschi-minesweeper needs at least 9 cells free of mines, not {size}")

    def screen_size(self, size: Size) -> tuple[int, int]:
        # openbox centres the window; it then grows to the right by up to 5 px a column
        growth = size.cols * (WIDEST_COLUMN - COLUMN)
        width = PANEL_WIDTH + size.cols * COLUMN + 2 * growth + 40
        height = size.rows * ROW_HEIGHT + 200
        return max(DEFAULT_SCREEN[0], width), max(DEFAULT_SCREEN[1], height)

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("mfranceschi-minesweeper has neither seeds nor tile sizes")
        return LaunchPlan(self.command(size))

    def new_game_button(self, client: LaunchedClient) -> tuple[int, int]:
        """The "New game" button relative to the client area: the yellow button left of the board."""
        grid = client.grid()
        panel = client.screen.grab(client.window_geometry())[:, : int(grid.x0)]
        x, y, w, h = tiles.largest_box(panel, NEW_GAME_BGR, 0, what="New game button")
        return x + w // 2, y + h // 2

    def new_game(self, client: LaunchedClient) -> None:
        x, y = self.new_game_button(client)
        client.click(x, y)

    def grid(self, client: LaunchedClient) -> Grid:
        client.park_pointer()  # the button under the pointer is drawn light grey
        image = client.screen.grab(client.window_geometry())
        return tiles.find_tiles(image, client.size.rows, client.size.cols, COVERED_BGR, client=self.name, tolerance=0)
