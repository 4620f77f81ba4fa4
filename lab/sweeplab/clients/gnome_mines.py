"""gnome-mines: levels by flag, custom sizes through a GSettings keyfile, Ctrl+R (and its dialog) for new.

A custom size is written to the keyfile (``GSETTINGS_BACKEND=keyfile`` under the private XDG_CONFIG_HOME)
and started through the application's D-Bus actions ``custom-size`` and ``start-custom``.

Its tiles are scaled to the window with fractional steps, so the grid is found in a screenshot of the fresh
board (every tile covered) rather than computed.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from sweeplab import procs, xtools
from sweeplab.clients import tiles
from sweeplab.clients.base import DEFAULT_SCREEN, ClientSpec, Grid, LaunchPlan, Size
from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

APP_ID = "org.gnome.Mines"
LEVEL_FLAGS = {"small": "--small", "medium": "--medium", "big": "--big"}
#: GSettings `mode` for a custom size (0-2 are the three levels).
CUSTOM_MODE = 3
KEYFILE = "config/glib-2.0/settings/keyfile"
#: A covered tile, BGR, in the default `bgcolors` theme.
COVERED_BGR = (182, 189, 186)
#: Window sizes (GSettings window-width/-height) that show the whole board with tiles of about 28-46 px;
#: gnome-mines keeps its 600x400 default otherwise and clips big boards.
WINDOW_SIZES = {"small": (600, 400), "medium": (760, 640), "big": (1100, 640)}
#: The largest window a custom size gets (it must fit a 1280x1024 screen with the title bar).
MAX_WINDOW = (1240, 960)
THEMES = ("bgcolors", "classic", "default")
#: How long a Ctrl+R waits for the "start a new game?" dialog before deciding there is none.
DIALOG_WAIT = 1.0


def keyfile_text(size: Size | None, window: tuple[int, int] | None = None) -> str:
    """The GSettings keyfile: custom size (``mode=3``) when given, and the window size when given."""
    lines = ["[org/gnome/Mines]"]
    if size is not None:
        lines += [f"mode={CUSTOM_MODE}", f"xsize={size.cols}", f"ysize={size.rows}", f"nmines={size.mines}"]
    if window is not None:
        lines += [f"window-width={window[0]}", f"window-height={window[1]}"]
    return "\n".join(lines) + "\n"


def custom_window(size: Size) -> tuple[int, int]:
    """A window size for a custom board: about 34 px per tile plus the side panel, within MAX_WINDOW."""
    return min(MAX_WINDOW[0], size.cols * 34 + 300), min(MAX_WINDOW[1], max(400, size.rows * 34 + 120))


def find_tiles(image: np.ndarray, rows: int, cols: int) -> Grid:
    """Find a fresh board's ``rows x cols`` covered tiles in a BGR image of the client area."""
    return tiles.find_tiles(image, rows, cols, COVERED_BGR, client="gnome-mines")


def activate_action(client: LaunchedClient, action: str) -> None:
    """Activate one of gnome-mines's GApplication actions (``new-game``, ``start-custom`` ...) over D-Bus."""
    argv = [
        "gdbus", "call", "--session", "--dest", APP_ID, "--object-path", "/" + APP_ID.replace(".", "/"),
        "--method", "org.gtk.Actions.Activate", action, "[]", "{}",
    ]  # fmt: skip
    result = procs.run_quiet(argv, client.env)
    if result.returncode != 0:
        raise DesktopError(f"gnome-mines action {action!r} failed: {result.stderr.strip()}")


class GnomeMines(ClientSpec):
    name = "gnome-mines"
    package = "gnome-mines"
    binary = "gnome-mines"
    levels = {  # noqa: RUF012
        "small": Size(8, 8, 10),
        "medium": Size(16, 16, 40),
        "big": Size(30, 16, 99),
    }
    default_level = "small"
    custom_sizes = True
    window_name = "^Mines$"
    #: The first click opens an area. A new game starts with its own "Play Again" button beside the board
    #: (each built-in profile keeps its look and place; its keys Ctrl+R and Ctrl+N are a browser's reload and
    #: new window, never sent). After a win gnome-mines may show its scores dialog: Escape closes it.
    play = {"first_click": "opening", "dismiss_keys": [["escape"]]}  # noqa: RUF012

    def check_custom(self, size: Size) -> None:
        if not (4 <= size.cols <= 100 and 4 <= size.rows <= 100):
            raise DesktopError("gnome-mines boards are 4 to 100 cells a side")

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        if seed is not None or tile_size is not None:
            raise DesktopError("gnome-mines has neither seeds nor tile sizes")
        env = {"GSETTINGS_BACKEND": "keyfile"}
        if level in LEVEL_FLAGS:
            keyfile = keyfile_text(None, WINDOW_SIZES[level])
            return LaunchPlan([str(self.executable), LEVEL_FLAGS[level]], env, {KEYFILE: keyfile})
        return LaunchPlan([str(self.executable)], env, {KEYFILE: keyfile_text(size, custom_window(size))})

    def window(self, size: Size) -> tuple[int, int]:
        """The window a board of ``size`` is shown in."""
        level = next((name for name, known in self.levels.items() if known == size), None)
        return WINDOW_SIZES[level] if level is not None else custom_window(size)

    def with_scale(self, plan: LaunchPlan, size: Size, scale: float) -> LaunchPlan:
        """gnome-mines draws its tiles to fill its window: a window ``scale`` times as large."""
        width, height = self.window(size)
        custom = size not in self.levels.values()
        files = dict(plan.files)
        files[KEYFILE] = keyfile_text(size if custom else None, (round(width * scale), round(height * scale)))
        return LaunchPlan(plan.argv, plan.env, files)

    def scaled_screen(self, size: Size, scale: float) -> tuple[int, int]:
        width, height = self.window(size)
        return max(DEFAULT_SCREEN[0], round(width * scale) + 40), max(DEFAULT_SCREEN[1], round(height * scale) + 80)

    def with_theme(self, plan: LaunchPlan, theme: str) -> LaunchPlan:
        if theme not in THEMES:
            raise DesktopError(f"gnome-mines has no theme {theme!r} (known: {', '.join(THEMES)})")
        files = dict(plan.files)
        files[KEYFILE] = files.get(KEYFILE, "[org/gnome/Mines]\n") + f"theme='{theme}'\n"
        return LaunchPlan(plan.argv, plan.env, files)

    def after_start(self, client: LaunchedClient) -> None:
        if client.level in LEVEL_FLAGS:
            return
        # Without a level flag gnome-mines opens on its difficulty chooser; its custom page starts a game
        # with the sizes read from GSettings, and both steps are actions on the session bus.
        activate_action(client, "custom-size")
        for _ in range(10):
            # start-custom is ignored until the custom page is up: repeat it until the board shows.
            activate_action(client, "start-custom")
            try:
                procs.wait_for(lambda: self._board_shown(client), 1.0, "gnome-mines's custom board", interval=0.1)
            except DesktopError:
                continue
            return
        raise DesktopError("gnome-mines did not start its custom game")

    def _board_shown(self, client: LaunchedClient) -> bool:
        try:
            client.grid(refresh=True)
        except DesktopError:
            return False
        return True

    def new_game(self, client: LaunchedClient) -> None:
        client.key("ctrl+r")
        deadline = time.monotonic() + DIALOG_WAIT
        while time.monotonic() < deadline:
            dialogs = [w for w in client.find_windows() if w != client.wid]
            if dialogs:
                # The focus starts on "Keep Current Game"; Tab moves it to "Start New Game".
                xtools.key(client.env, "Tab", "Return", wid=dialogs[0])
                break
            time.sleep(0.05)

    def grid(self, client: LaunchedClient) -> Grid:
        client.park_pointer()  # the tile under the pointer is drawn lighter
        image = client.screen.grab(client.window_geometry())
        return find_tiles(image, client.size.rows, client.size.cols)
