"""ace-minesweeper (The Ace of Penguins): a fixed window, four levels picked by keys 1-4, F2 for new."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab.clients.base import ClientSpec, Grid, LaunchPlan, Size
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

#: level key -> size, cell pitch in px, and the board's top-left in the client area (measured on 1.4: the
#: 11x11 board is 396 px wide and sits higher and further left than the 384 px ones).
LEVELS = {
    "1": (Size(8, 8, 6), 48, (8.0, 34.0)),
    "2": (Size(11, 11, 20), 36, (2.5, 28.5)),
    "3": (Size(16, 16, 45), 24, (8.0, 34.0)),
    "4": (Size(32, 32, 200), 12, (8.5, 34.5)),
}


class AceMinesweeper(ClientSpec):
    name = "ace-minesweeper"
    package = "ace-of-penguins"
    binary = "ace-minesweeper"
    levels = {key: size for key, (size, _, _) in LEVELS.items()}  # noqa: RUF012
    default_level = "4"
    closes_on_request = False
    custom_sizes = False
    window_name = "ace-minesweeper"
    #: any first click may hit a mine; F2 starts a new game
    play = {"first_click": "none", "new_game_keys": [["f2"]]}  # noqa: RUF012

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("ace-minesweeper has neither seeds nor tile sizes")
        return LaunchPlan([str(self.executable)])

    def after_start(self, client: LaunchedClient) -> None:
        client.key(client.level)

    def new_game(self, client: LaunchedClient) -> None:
        client.key("F2")

    def grid(self, client: LaunchedClient) -> Grid:
        size, cell, (x0, y0) = LEVELS[client.level]
        return Grid.uniform(size.rows, size.cols, x0, y0, cell)
