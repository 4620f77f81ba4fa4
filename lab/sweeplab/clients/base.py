"""What every client spec provides, the board size type, and the cell grid the harness clicks on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sweeplab.errors import DesktopError

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

GAMES_DIR = Path("/usr/games")
#: The screen the harness starts by default; a client whose window needs more says so in screen_size().
DEFAULT_SCREEN = (1280, 1024)
#: Seconds a client's window may take to appear before the client is started again.
WINDOW_TIMEOUT = 6.0

_SIZE_RE = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Size:
    """A board size: columns, rows and mines."""

    cols: int
    rows: int
    mines: int

    @classmethod
    def parse(cls, text: str) -> Size:
        """``"30x16/99"`` (columns x rows / mines)."""
        match = _SIZE_RE.match(text)
        if not match:
            raise DesktopError(f"bad board size {text!r}: expected COLSxROWS/MINES, e.g. 30x16/99")
        cols, rows, mines = (int(g) for g in match.groups())
        if cols < 1 or rows < 1 or not 0 < mines < cols * rows:
            raise DesktopError(f"impossible board size {text!r}")
        return cls(cols, rows, mines)

    def __str__(self) -> str:
        return f"{self.cols}x{self.rows}/{self.mines}"


@dataclass(frozen=True)
class Grid:
    """Where the cells are, in pixels relative to the window's client area (floats: gnome-mines drifts).

    Cell ``(row, col)`` spans ``x0 + col * pitch_x`` .. ``+ cell_w`` and likewise in y.
    """

    rows: int
    cols: int
    x0: float
    y0: float
    pitch_x: float
    pitch_y: float
    cell_w: float
    cell_h: float

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise DesktopError(f"cell ({row}, {col}) is outside the {self.rows}x{self.cols} board")
        return (
            round(self.x0 + col * self.pitch_x + self.cell_w / 2 - 0.5),
            round(self.y0 + row * self.pitch_y + self.cell_h / 2 - 0.5),
        )

    @property
    def bbox(self) -> tuple[int, int, int, int]:
        """``(x, y, w, h)`` of the whole board relative to the client area."""
        w = (self.cols - 1) * self.pitch_x + self.cell_w
        h = (self.rows - 1) * self.pitch_y + self.cell_h
        return int(self.x0), int(self.y0), round(w), round(h)

    @classmethod
    def uniform(cls, rows: int, cols: int, x0: float, y0: float, cell: float) -> Grid:
        return cls(rows, cols, x0, y0, cell, cell, cell, cell)


@dataclass(frozen=True)
class LaunchPlan:
    """How to start one client: command line, extra environment, files to write under the private home."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    #: relative path under the private home (the XDG folders live there) -> file text
    files: dict[str, str] = field(default_factory=dict)


class ClientSpec:
    """One Minesweeper client: how to start it at a level, find its window, start a new game, find its cells.

    Subclasses set the class attributes and override the hooks; none of them holds state about a running
    client (that is :class:`LaunchedClient`).
    """

    #: the name used everywhere (profiles, fixtures folders): ``xdemineur``, ``sgt-mines``, ...
    name: str = ""
    #: the Debian package that installs it
    package: str = ""
    #: the binary under /usr/games
    binary: str = ""
    #: level names this client understands, with their sizes
    levels: dict[str, Size] = {}  # noqa: RUF012 - overridden per subclass, never mutated
    #: the level used when none is given
    default_level: str = ""
    #: whether any ``COLSxROWS/MINES`` is accepted besides the named levels
    custom_sizes: bool = False
    #: regex matched against window titles when the client does not set _NET_WM_PID
    window_name: str = "."
    #: whether the client quits when its window is asked to close (WM_DELETE_WINDOW); else it is killed
    closes_on_request: bool = True
    #: seconds its window may take to appear (a web page served and shown in a browser takes longer)
    window_timeout: float = WINDOW_TIMEOUT
    #: how `sweepbot play` plays it, in the profile's "play" format (sweepbot.playing.clients): its first-click
    #: rule and how a new game starts. The client's built-in profiles carry it; a client without built-in
    #: profiles leaves it empty and calibration learns it.
    play: dict[str, Any] = {}  # noqa: RUF012 - overridden per subclass, never mutated

    @property
    def executable(self) -> Path:
        return GAMES_DIR / self.binary

    def installed(self) -> bool:
        """Whether the client is installed (scripts/install-clients installs every client)."""
        return self.executable.exists()

    def resolve_level(self, level: str | Size | None) -> tuple[str, Size]:
        """A level name or size -> ``(label, Size)``; raises :class:`DesktopError` for one it cannot play."""
        if level is None:
            level = self.default_level
        if isinstance(level, str) and level in self.levels:
            return level, self.levels[level]
        size = level if isinstance(level, Size) else Size.parse(level)
        for name, known in self.levels.items():
            if known == size:
                return name, size
        if not self.custom_sizes:
            names = ", ".join(self.levels)
            raise DesktopError(f"{self.name} plays only its levels ({names}), not {size}")
        self.check_custom(size)
        return str(size), size

    def check_custom(self, size: Size) -> None:
        """Raise :class:`DesktopError` if the client cannot play this custom size."""

    def screen_size(self, size: Size) -> tuple[int, int]:
        """The virtual screen (width, height) the client's window needs at ``size``, all through a game."""
        return DEFAULT_SCREEN

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        """The command line, environment and settings files for this level."""
        raise NotImplementedError

    def with_theme(self, plan: LaunchPlan, theme: str) -> LaunchPlan:
        """The plan with a tile theme; only clients that have themes override this."""
        raise DesktopError(f"{self.name} has no tile themes")

    def with_scale(self, plan: LaunchPlan, size: Size, scale: float) -> LaunchPlan:
        """The plan with the board drawn ``scale`` times its usual size (a bigger window, a desktop or browser
        scale); only clients that draw at other sizes override this."""
        raise DesktopError(f"{self.name} draws its board at one size only")

    def with_zoom(self, plan: LaunchPlan, zoom: float) -> LaunchPlan:
        """The plan with the page zoomed (a browser zoom); only web pages override this."""
        raise DesktopError(f"{self.name} is no web page: it has no zoom")

    def scaled_screen(self, size: Size, scale: float) -> tuple[int, int]:
        """The virtual screen the client needs at ``scale`` (its usual one grown by ``scale``, when larger)."""
        width, height = self.screen_size(size)
        return max(width, round(width * scale)), max(height, round(height * scale))

    def after_start(self, client: LaunchedClient) -> None:
        """Steps after the window is painted (ace-minesweeper picks its level by key here)."""

    def new_game(self, client: LaunchedClient) -> None:
        """Start a new game with the same size, as a user would."""
        raise NotImplementedError

    def grid(self, client: LaunchedClient) -> Grid:
        """Where the cells are in the window (measured for each client, or found in a screenshot)."""
        raise NotImplementedError
