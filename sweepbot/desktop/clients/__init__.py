"""The four real clients the harness can start, by name, and :func:`launch_client` to start one."""

from __future__ import annotations

from sweepbot.desktop.clients.ace_minesweeper import AceMinesweeper
from sweepbot.desktop.clients.base import ClientSpec, Grid, LaunchPlan, Size
from sweepbot.desktop.clients.gnome_mines import GnomeMines
from sweepbot.desktop.clients.launched import LaunchedClient, launch
from sweepbot.desktop.clients.sgt_mines import SgtMines
from sweepbot.desktop.clients.xdemineur import Xdemineur
from sweepbot.desktop.display import VirtualDisplay
from sweepbot.desktop.errors import DesktopError

CLIENTS: dict[str, ClientSpec] = {spec.name: spec for spec in (Xdemineur(), SgtMines(), AceMinesweeper(), GnomeMines())}


def get_spec(name: str) -> ClientSpec:
    try:
        return CLIENTS[name]
    except KeyError:
        raise DesktopError(f"unknown client {name!r}; known: {', '.join(CLIENTS)}") from None


def launch_client(
    display: VirtualDisplay,
    name: str,
    level: str | Size | None = None,
    *,
    seed: str | None = None,
    tile_size: int | None = None,
    theme: str | None = None,
    timeout: float = 20.0,
) -> LaunchedClient:
    """Start client ``name`` (``xdemineur``, ``sgt-mines``, ``ace-minesweeper``, ``gnome-mines``) at ``level``.

    ``level`` is one of the client's level names (``CLIENTS[name].levels``) or ``"COLSxROWS/MINES"``;
    ``theme`` a tile theme (gnome-mines: ``bgcolors`` (its default), ``classic``, ``default``).
    """
    return launch(display, get_spec(name), level, seed=seed, tile_size=tile_size, theme=theme, timeout=timeout)


__all__ = [
    "CLIENTS",
    "ClientSpec",
    "Grid",
    "LaunchPlan",
    "LaunchedClient",
    "Size",
    "get_spec",
    "launch",
    "launch_client",
]
