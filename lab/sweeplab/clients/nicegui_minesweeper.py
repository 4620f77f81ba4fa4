"""nicegui-minesweeper (PyPI): a web page of square boards, shown in a Chromium app window; RESTART button.

Started on ``launchers/nicegui_page.py``: a NiceGUI server on a free port of 127.0.0.1 serves the game's
board at the requested size, and Chromium shows it (``--app``, a private profile in the client's home).
Boards are square only, 40 CSS px a square (38 px of grey tile); the first click is not protected. The
page is ready once its title is set and its grey tiles are drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab import procs
from sweeplab.clients import tiles
from sweeplab.clients.base import DEFAULT_SCREEN, Grid, LaunchPlan, Size
from sweeplab.clients.pypi import PypiClient
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

#: A covered tile, BGR (Quasar's grey), and the RESTART button (Quasar's primary blue).
COVERED_BGR = (158, 158, 158)
RESTART_BGR = (212, 152, 88)
TOLERANCE = 3
#: One square in px, and the page's margins around the board: 16 px at the sides, the RESTART row above.
SQUARE = 40
SIDE_MARGIN = 64
TOP_AND_BOTTOM = 110
MIN_WINDOW = (420, 300)
#: The largest board shown: 30 squares need a 1300 px tall screen.
MAX_SIDE = 30


def window_size(size: Size) -> tuple[int, int]:
    """The browser window that shows the whole board and the row above it."""
    return max(MIN_WINDOW[0], size.cols * SQUARE + SIDE_MARGIN), max(MIN_WINDOW[1], size.rows * SQUARE + TOP_AND_BOTTOM)


class NiceguiMinesweeper(PypiClient):
    name = "nicegui-minesweeper"
    package = "nicegui-minesweeper (PyPI) and chromium"
    launcher = "nicegui_page.py"
    #: square boards only: 22x22/99 has the cells and the mine density of 30x16/99
    levels = {  # noqa: RUF012
        "beginner": Size(9, 9, 10),
        "intermediate": Size(16, 16, 40),
        "expert": Size(22, 22, 99),
    }
    default_level = "beginner"
    custom_sizes = True
    window_name = "^Minesweeper$"
    #: the server starts, then Chromium, then the page connects back to the server
    window_timeout = 30.0
    #: Chromium keeps running when its window is destroyed: the launcher is stopped instead (SIGTERM stops
    #: its server, then the browser)
    closes_on_request = False

    def check_custom(self, size: Size) -> None:
        if size.cols != size.rows:
            raise DesktopError(f"nicegui-minesweeper boards are square, not {size}")
        if not 2 <= size.cols <= MAX_SIDE:
            raise DesktopError(f"nicegui-minesweeper boards are 2 to {MAX_SIDE} squares a side")

    def screen_size(self, size: Size) -> tuple[int, int]:
        width, height = window_size(size)
        # openbox puts the window at the top left, under a 20 px title bar
        return max(DEFAULT_SCREEN[0], width + 30), max(DEFAULT_SCREEN[1], height + 30)

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("nicegui-minesweeper has neither seeds nor tile sizes")
        width, height = window_size(size)
        return LaunchPlan(self.command(size, "--width", str(width), "--height", str(height)))

    def with_scale(self, plan: LaunchPlan, size: Size, scale: float) -> LaunchPlan:
        """A screen of ``scale`` device pixels to the CSS pixel (Chromium's --force-device-scale-factor, as on a
        HiDPI screen or a desktop scaled up), the window grown to match."""
        return LaunchPlan([*plan.argv, "--scale", f"{scale:g}"], plan.env, plan.files)

    def with_zoom(self, plan: LaunchPlan, zoom: float) -> LaunchPlan:
        """The page zoomed to ``zoom`` (as a user's browser zoom of 67-200 % sets it), the window grown to match."""
        return LaunchPlan([*plan.argv, "--zoom", f"{zoom:g}"], plan.env, plan.files)

    def scaled_screen(self, size: Size, scale: float) -> tuple[int, int]:
        width, height = self.screen_size(size)
        return max(width, round(width * scale)), max(height, round(height * scale))

    def after_start(self, client: LaunchedClient) -> None:
        # the window's title is set before the page has drawn its board
        procs.wait_for(lambda: self._board_shown(client), 20.0, "nicegui-minesweeper's board", interval=0.1)

    def _board_shown(self, client: LaunchedClient) -> bool:
        try:
            client.grid(refresh=True)
        except DesktopError:
            return False
        return True

    def restart_button(self, client: LaunchedClient) -> tuple[int, int]:
        """The RESTART button relative to the client area: the blue button above the board."""
        grid = client.grid()
        above = client.screen.grab(client.window_geometry())[: int(grid.y0)]
        x, y, w, h = tiles.largest_box(above, RESTART_BGR, TOLERANCE, what="RESTART button")
        return x + w // 2, y + h // 2

    def new_game(self, client: LaunchedClient) -> None:
        x, y = self.restart_button(client)
        client.click(x, y)
        # the click goes to the server and the page redraws when it answers, which on a busy machine is
        # later than the harness's stillness wait: wait until every tile shows covered again
        procs.wait_for(lambda: self._board_shown(client), 10.0, "nicegui-minesweeper's new board", interval=0.1)

    def grid(self, client: LaunchedClient) -> Grid:
        client.park_pointer()  # the tile under the pointer is drawn lighter
        image = client.screen.grab(client.window_geometry())
        return tiles.find_tiles(image, client.size.rows, client.size.cols, COVERED_BGR, client=self.name,
                                tolerance=TOLERANCE)
