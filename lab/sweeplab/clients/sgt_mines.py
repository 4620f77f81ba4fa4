"""sgt-mines (Simon Tatham's Portable Puzzle Collection): sizes and seeds on the command line, `n` for new."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sweeplab.clients.base import ClientSpec, Grid, LaunchPlan, Size
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

DEFAULT_TILE = 20
#: Height of the GTK menu bar above the drawing area (measured, DejaVu Sans at the default size).
MENU_BAR = 25


def border(tile: int) -> int:
    """The margin the puzzle draws around the board: one and a half tiles."""
    return tile * 3 // 2


class SgtMines(ClientSpec):
    name = "sgt-mines"
    package = "sgt-puzzles"
    binary = "sgt-mines"
    levels = {  # noqa: RUF012
        "beginner": Size(9, 9, 10),
        "intermediate": Size(16, 16, 40),
        "expert": Size(30, 16, 99),
    }
    default_level = "beginner"
    custom_sizes = True
    window_name = "^Mines$"
    #: the first click opens an area; N starts a new game
    play = {"first_click": "opening", "new_game_keys": [["n"]]}  # noqa: RUF012
    #: add the `a` flag: allow boards that need guessing (the default never needs a guess)
    allow_guessing = False

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        params = f"{size.cols}x{size.rows}n{size.mines}" + ("a" if self.allow_guessing else "")
        if seed is not None:
            if not seed or any(ch.isspace() for ch in seed):
                raise DesktopError(f"bad seed {seed!r}")
            params += f"#{seed}"
        env = {}
        if tile_size is not None:
            if not 4 <= tile_size <= 256:
                raise DesktopError(f"tile size {tile_size} out of range 4-256")
            env["MINES_TILESIZE"] = str(tile_size)
        return LaunchPlan([str(self.executable), params], env=env)

    def new_game(self, client: LaunchedClient) -> None:
        client.key("n")

    def grid(self, client: LaunchedClient) -> Grid:
        tile = client.tile_size or DEFAULT_TILE
        size = client.size
        margin = border(tile)
        board_w = size.cols * tile + 2 * margin
        win = client.window_geometry()
        x0 = (win.w - board_w) // 2 + margin
        return Grid.uniform(size.rows, size.cols, x0, MENU_BAR + margin, tile)
