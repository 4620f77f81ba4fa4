"""Which route this desktop gets: the one named, or the first that shows a board.

On X11, mss and XTEST. In a Wayland session, the game's X11 window when one shows a board (a game run under
Xwayland), else the desktop's remote-desktop interfaces (the portal, or GNOME's own). On other platforms,
mss and pyautogui. A route that cannot open says why, and the message of the last resort lists every route
tried and what the user can do.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import numpy as np

from sweepbot.control.device import InputDevice, open_device, wayland_session
from sweepbot.routes.route import ROUTES, Route, RouteError
from sweepbot.vision.capture import CaptureError
from sweepbot.vision.locate import LocateError, grids

#: How to run a game under Xwayland, where the xwayland route sees and clicks it (docs/screens.md).
XWAYLAND_HOW = ("run the game under Xwayland: GTK programs with GDK_BACKEND=x11, Qt programs with "
                "QT_QPA_PLATFORM=xcb, SDL/pygame with SDL_VIDEODRIVER=x11, Chromium with --ozone-platform=x11, "
                "Firefox with MOZ_ENABLE_WAYLAND=0 (see docs/screens.md)")


def shows_board(frame: np.ndarray) -> bool:
    """Whether a grid of cells shows anywhere on ``frame`` (one or more: which one is the board, the read
    tells)."""
    try:
        grids(frame)
    except LocateError:
        return False
    return True


def open_route(name: str = "auto") -> Route:
    """The route ``name`` (one of ``ROUTES``), or with ``auto`` the one that fits this desktop; RouteError when
    it cannot be opened, naming the route and what to do."""
    if name == "auto":
        return _auto()
    opener = OPENERS.get(name)
    if opener is None:
        raise RouteError(f"unknown route {name!r} (known: auto, {', '.join(ROUTES)})")
    return opener()


def _auto() -> Route:
    if not sys.platform.startswith("linux"):
        return _pyautogui()
    if not wayland_session():
        if not os.environ.get("DISPLAY"):
            raise RouteError("no display: DISPLAY is not set (start the game on an X11 screen, or in a Wayland "
                             "session)")
        return _x11()
    tried: list[str] = []
    if os.environ.get("DISPLAY"):
        seen = _first_board(_xwayland(), tried)
        if seen is not None:
            return seen
    else:
        tried.append("xwayland: DISPLAY is not set (no Xwayland in this session)")
    for opener in (_portal, _mutter):
        try:
            route = opener()
        except RouteError as err:
            tried.append(str(err).removeprefix("route "))
            continue
        seen = _first_board(route, tried)
        if seen is not None:
            return seen
    raise RouteError("no Minesweeper board is seen on this Wayland desktop: " + "; ".join(tried) + ". To play a "
                     "game there, show it on the monitor shared, or " + XWAYLAND_HOW)


def _first_board(route: Route, tried: list[str]) -> Route | None:
    """``route`` when a board shows in its first frame; else closed, with what it saw added to ``tried``."""
    try:
        frame = route.source.grab()
    except CaptureError as err:
        route.close()
        tried.append(f"{route.name}: {err}")
        return None
    if shows_board(frame):
        return route
    windows = getattr(route.source, "drawn", None)
    seen = (f"{len(windows)} X11 window(s) shown, none with a board" if windows is not None else
            "no board on the screen it shows")
    tried.append(f"{route.name}: {'the screen reads all black' if not frame.any() else seen}")
    route.close()
    return None


def _x11() -> Route:
    """mss grabs of the screen; under a compositing manager, the windows' own pixels: what a compositor shows
    can lag behind what a window drew (mutter on X11 left opened cells drawn covered on screen until something
    else made it paint them again)."""
    from sweepbot.routes.xcb import Connection, XcbError
    from sweepbot.vision.capture import ScreenSource

    source = ScreenSource()
    try:
        connection = Connection()
        composited = connection.composited()
        connection.close()
    except XcbError:
        composited = False
    if not composited:
        return Route("x11", source, open_device)
    from sweepbot.routes.xwindows import XWindowsSource

    monitors = source.monitors()[1:]
    source.close()
    return Route("x11", XWindowsSource(monitors=monitors), open_device)


def _xwayland() -> Route:
    from sweepbot.routes.xwindows import XWindowsSource
    from sweepbot.vision.capture import ScreenSource

    if not os.environ.get("DISPLAY"):
        raise RouteError("route xwayland: DISPLAY is not set (no Xwayland in this session); " + XWAYLAND_HOW)
    try:
        with ScreenSource() as listing:  # mss lists Xwayland's monitors; only its grabs read black
            monitors = listing.monitors()[1:]
    except CaptureError:
        monitors = []
    try:
        source = XWindowsSource(monitors=monitors)
    except CaptureError as err:
        raise RouteError(f"route xwayland: {err}") from None
    return Route("xwayland", source, open_device)


def _pyautogui() -> Route:
    from sweepbot.vision.capture import ScreenSource

    def device() -> InputDevice:
        from sweepbot.control.device import ensure_xauthority
        from sweepbot.control.pyautogui_device import PyAutoGuiDevice

        ensure_xauthority()  # on X11, pyautogui opens the display through python-xlib
        return PyAutoGuiDevice()

    return Route("pyautogui", ScreenSource(), device)


def _mutter() -> Route:
    from sweepbot.routes.mutter import open_mutter

    return open_mutter()


def _portal() -> Route:
    from sweepbot.routes.portal import open_portal

    return open_portal()


OPENERS: dict[str, Callable[[], Route]] = {"x11": _x11, "xwayland": _xwayland, "mutter": _mutter,
                                           "portal": _portal, "pyautogui": _pyautogui}
