"""The real clients the harness can start, by name, and :func:`launch_client` to start one.

Four come from Debian's packages (xdemineur, sgt-mines, ace-minesweeper, gnome-mines) and four from PyPI,
each in a virtual env of its own (pygame-minesweeper, nicegui-minesweeper, dangeruxb,
mfranceschi-minesweeper); scripts/install-clients installs them all.
"""

from __future__ import annotations

from sweeplab.clients.ace_minesweeper import AceMinesweeper
from sweeplab.clients.base import ClientSpec, Grid, LaunchPlan, Size
from sweeplab.clients.dangeruxb import DangerUXB
from sweeplab.clients.generated import PREFIX, GeneratedClient
from sweeplab.clients.gnome_mines import GnomeMines
from sweeplab.clients.launched import LaunchedClient, launch
from sweeplab.clients.mfranceschi_minesweeper import MfranceschiMinesweeper
from sweeplab.clients.nicegui_minesweeper import NiceguiMinesweeper
from sweeplab.clients.pygame_minesweeper import PygameMinesweeper
from sweeplab.clients.pypi import PypiClient
from sweeplab.clients.sgt_mines import SgtMines
from sweeplab.clients.xdemineur import Xdemineur
from sweeplab.display import VirtualDisplay
from sweeplab.errors import DesktopError

CLIENTS: dict[str, ClientSpec] = {
    spec.name: spec
    for spec in (
        Xdemineur(),
        SgtMines(),
        AceMinesweeper(),
        GnomeMines(),
        PygameMinesweeper(),
        NiceguiMinesweeper(),
        DangerUXB(),
        MfranceschiMinesweeper(),
    )
}
#: The clients installed from PyPI, each into a virtual env of its own.
PYPI_CLIENTS: dict[str, PypiClient] = {name: spec for name, spec in CLIENTS.items() if isinstance(spec, PypiClient)}


def get_spec(name: str) -> ClientSpec:
    """The spec of client ``name`` (``generated-SEED``: the client generated from that seed); raises
    :class:`DesktopError` naming the known ones."""
    if name.startswith(PREFIX) and name[len(PREFIX):].isdigit():
        return GeneratedClient(int(name[len(PREFIX):]))
    try:
        return CLIENTS[name]
    except KeyError:
        raise DesktopError(f"unknown client {name!r}; known: {', '.join(CLIENTS)}, {PREFIX}SEED") from None


def launch_client(
    display: VirtualDisplay,
    name: str,
    level: str | Size | None = None,
    *,
    seed: str | None = None,
    tile_size: int | None = None,
    theme: str | None = None,
    scale: float | None = None,
    zoom: float | None = None,
    timeout: float = 20.0,
) -> LaunchedClient:
    """Start client ``name`` (one of :data:`CLIENTS`) at ``level``.

    ``level`` is one of the client's level names (``CLIENTS[name].levels``) or ``"COLSxROWS/MINES"``;
    ``theme`` a tile theme (gnome-mines: ``bgcolors`` (its default), ``classic``, ``default``); ``scale`` draws
    the board that many times its usual size (gnome-mines: a larger window; nicegui-minesweeper: a HiDPI
    screen), ``zoom`` zooms a web page.
    """
    return launch(display, get_spec(name), level, seed=seed, tile_size=tile_size, theme=theme, scale=scale,
                  zoom=zoom, timeout=timeout)


def screen_for(name: str, level: str | Size | None = None, scale: float = 1.0) -> tuple[int, int]:
    """The size of virtual screen (width, height) that client ``name`` needs at ``level`` all through a game,
    its board drawn ``scale`` times its usual size."""
    spec = get_spec(name)
    _, size = spec.resolve_level(level)
    return spec.screen_size(size) if scale == 1.0 else spec.scaled_screen(size, scale)


__all__ = [
    "CLIENTS",
    "PYPI_CLIENTS",
    "ClientSpec",
    "Grid",
    "LaunchPlan",
    "LaunchedClient",
    "PypiClient",
    "Size",
    "get_spec",
    "launch",
    "launch_client",
    "screen_for",
]
