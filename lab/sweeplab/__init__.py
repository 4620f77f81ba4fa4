"""The virtual-desktop harness: Xvfb + openbox + D-Bus, real Minesweeper clients on it, screenshots.

Used by the end-to-end tests, the demo (``scripts/demo``), the benchmarks and ``scripts/capture_fixtures.py``; needs
the Debian packages and the PyPI clients' virtual envs that ``scripts/install-clients`` installs (see
:mod:`sweeplab.install`). Nothing here imports pyautogui:
input goes through xdotool (XTEST) with the display's own environment.

    with VirtualDisplay() as display, launch_client(display, "sgt-mines", "expert", seed="7") as game:
        game.click_cell(8, 15)                     # left click, waits until the board settles
        game.screen.save_png("shot.png")           # whole virtual screen
"""

from sweepbot.rect import Rect
from sweeplab.clients import CLIENTS, ClientSpec, Grid, LaunchedClient, Size, get_spec, launch_client
from sweeplab.display import VirtualDisplay
from sweeplab.errors import DesktopError
from sweeplab.install import describe_missing, ensure_installed, install_clients, missing_packages
from sweeplab.screen import Screen

__all__ = [
    "CLIENTS",
    "ClientSpec",
    "DesktopError",
    "Grid",
    "LaunchedClient",
    "Rect",
    "Screen",
    "Size",
    "VirtualDisplay",
    "describe_missing",
    "ensure_installed",
    "get_spec",
    "install_clients",
    "launch_client",
    "missing_packages",
]
