"""Starting a client on a virtual display, and the handle to the running client: window, clicks, keys, close."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import numpy as np

from sweepbot.rect import Rect
from sweeplab import procs, xtools
from sweeplab.clients.base import ClientSpec, Grid, Size
from sweeplab.display import VirtualDisplay
from sweeplab.errors import DesktopError
from sweeplab.screen import Screen

#: Windows smaller than this are helpers (leader windows, tooltips), never a game's main window.
_MIN_WINDOW = 60
#: A client whose window has not appeared in its spec's window_timeout is stopped and started again.
LAUNCH_ATTEMPTS = 3


class LaunchedClient:
    """A running client on a :class:`VirtualDisplay`; made by :func:`launch`, closed by :meth:`close`.

    Coordinates given to :meth:`click` are relative to the window's client area; :meth:`cell_center` and
    :meth:`window_geometry` are in screen pixels, the same pixels as a full-screen capture of the display.
    """

    def __init__(
        self,
        spec: ClientSpec,
        display: VirtualDisplay,
        level: str,
        size: Size,
        *,
        tile_size: int | None,
        seed: str | None,
        proc: subprocess.Popen[bytes],
        home: str,
        env: dict[str, str],
    ) -> None:
        self.spec = spec
        self.display = display
        self.level = level
        self.size = size
        self.tile_size = tile_size
        self.seed = seed
        self.proc = proc
        self.home = home
        self.env = env
        self.wid = 0
        self.screen = Screen(display.name)
        self._grid: Grid | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def log_path(self) -> str:
        return os.path.join(self.home, "client.log")

    def __repr__(self) -> str:
        return f"<LaunchedClient {self.name} {self.level} pid={self.proc.pid} wid={self.wid:#x}>"

    # -- state -------------------------------------------------------------------------------------------
    def is_running(self) -> bool:
        """Whether the client's process is alive and its window still exists."""
        return self.proc.poll() is None and bool(self.wid) and bool(xtools.window_info(self.env, self.wid))

    def window_geometry(self) -> Rect:
        """The window's client area on screen (no title bar), from xwininfo."""
        return xtools.window_rect(self.env, self.wid)

    def grid(self, *, refresh: bool = False) -> Grid:
        """The cell grid relative to the client area; measured once, again after ``refresh=True``."""
        if self._grid is None or refresh:
            self._grid = self.spec.grid(self)
        return self._grid

    def board_rect(self) -> Rect:
        """The board's bounding box on screen."""
        win = self.window_geometry()
        x, y, w, h = self.grid().bbox
        return Rect(win.x + x, win.y + y, w, h)

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        """Screen coordinates of the centre of cell ``(row, col)``."""
        win = self.window_geometry()
        x, y = self.grid().cell_center(row, col)
        return win.x + x, win.y + y

    # -- input -------------------------------------------------------------------------------------------
    def click(self, x: int, y: int, button: int = 1) -> None:
        """Click at ``(x, y)`` relative to the client area (1 left, 2 middle, 3 right)."""
        win = self.window_geometry()
        xtools.click(self.env, win.x + x, win.y + y, button)

    def click_cell(
        self, row: int, col: int, button: int = 1, *, settle: bool = True, quiet: float = 0.2
    ) -> np.ndarray | None:
        """Click a cell; with ``settle``, park the pointer and wait until the board has not changed for
        ``quiet`` seconds. Returns the settled board image (BGR) when ``settle`` is true.
        """
        x, y = self.cell_center(row, col)
        xtools.click(self.env, x, y, button)
        if not settle:
            return None
        self.park_pointer()
        return self.wait_settled(quiet=quiet)

    def key(self, *keys: str) -> None:
        """Send keys (xdotool names) to the game window, activating it first."""
        xtools.key(self.env, *keys, wid=self.wid)

    def park_pointer(self) -> None:
        """Move the pointer off every window but away from the screen corners (pyautogui's failsafe)."""
        w, h = self.display.size
        xtools.move_pointer(self.env, w - 40, h - 40)

    # -- waiting -----------------------------------------------------------------------------------------
    def wait_settled(self, *, quiet: float = 0.2, timeout: float = 10.0) -> np.ndarray:
        """Wait until the board has not changed for ``quiet`` seconds; returns its image (BGR)."""
        return self.screen.wait_stable(self.board_rect(), quiet=quiet, timeout=timeout)

    def wait_painted(self, *, timeout: float = 15.0) -> None:
        """Wait until the window is mapped, has something drawn in it and its pixels have stopped changing."""
        deadline = time.monotonic() + timeout

        def painted() -> bool:
            self._check_alive()
            rect = self.window_geometry()
            img = self.screen.grab(_clip(rect, self.display.size))
            return img.size > 0 and float(img.std()) > 4.0

        procs.wait_for(painted, timeout, f"{self.name}'s window to be painted")
        remaining = max(1.0, deadline - time.monotonic())
        # A clock may tick once a second: 0.3 s of calm is enough to know the first paint is over.
        self.screen.wait_stable(_clip(self.window_geometry(), self.display.size), quiet=0.3, timeout=remaining)

    # -- game --------------------------------------------------------------------------------------------
    def new_game(self) -> None:
        """Start a new game of the same size, as a user would, and wait until the board is drawn."""
        self.spec.new_game(self)
        self.park_pointer()
        self.wait_settled()

    def close(self) -> None:
        """Close the window politely, then stop whatever is left of the process group; removes the home."""
        try:
            if self.proc.poll() is None and self.wid and self.spec.closes_on_request:
                xtools.close_window(self.env, self.wid)
                deadline = time.monotonic() + 2.0
                while self.proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.02)
        except DesktopError:
            pass
        finally:
            procs.stop(self.proc)
            self.screen.close()
            shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> LaunchedClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- helpers -----------------------------------------------------------------------------------------
    def _check_alive(self) -> None:
        if self.proc.poll() is not None:
            tail = procs.log_tail(self.log_path)
            raise DesktopError(f"{self.name} exited with status {self.proc.returncode}" + (f": {tail}" if tail else ""))

    def find_windows(self) -> list[int]:
        """The client's mapped windows big enough to be a game window or a dialog, main window first."""
        found = xtools.search_windows(self.env, pid=self.proc.pid)
        if not found:
            found = xtools.search_windows(self.env, name=self.spec.window_name)
        windows = []
        for wid in found:
            info = xtools.window_info(self.env, wid)
            if info.get("Map State") != "IsViewable":
                continue
            if int(info.get("Width", "0")) < _MIN_WINDOW or int(info.get("Height", "0")) < _MIN_WINDOW:
                continue
            windows.append(wid)
        if self.wid in windows:
            windows.remove(self.wid)
            windows.insert(0, self.wid)
        return windows

    def _wait_window(self, timeout: float) -> None:
        def found() -> bool:
            self._check_alive()
            windows = self.find_windows()
            if windows:
                self.wid = windows[0]
            return bool(windows)

        procs.wait_for(found, timeout, f"{self.name}'s window", interval=0.05)


def _clip(rect: Rect, screen: tuple[int, int]) -> Rect:
    x0, y0 = max(rect.x, 0), max(rect.y, 0)
    x1, y1 = min(rect.x + rect.w, screen[0]), min(rect.y + rect.h, screen[1])
    if x1 <= x0 or y1 <= y0:
        raise DesktopError(f"the window {rect} is off the screen")
    return Rect(x0, y0, x1 - x0, y1 - y0)


def launch(
    display: VirtualDisplay,
    spec: ClientSpec,
    level: str | Size | None = None,
    *,
    seed: str | None = None,
    tile_size: int | None = None,
    theme: str | None = None,
    scale: float | None = None,
    zoom: float | None = None,
    timeout: float = 20.0,
) -> LaunchedClient:
    """Start ``spec``'s client on ``display`` at ``level`` and return it once its window is painted; ``scale``
    draws its board that many times its usual size (a larger window, a HiDPI scale), ``zoom`` zooms a page.

    The client gets private XDG config/data/cache and temporary folders in a temporary home (removed by
    ``close``), ``NO_AT_BRIDGE=1`` and the display's D-Bus session bus. ``seed`` and ``tile_size`` are honoured by the
    clients that have them (sgt-mines) and refused by the others.
    """
    if not spec.installed():
        raise DesktopError(f"{spec.name} is not installed ({spec.executable}): install {spec.package} "
                           "(run scripts/install-clients)")
    label, size = spec.resolve_level(level)
    plan = spec.plan(label, size, seed=seed, tile_size=tile_size)
    if theme is not None:
        plan = spec.with_theme(plan, theme)
    if scale is not None:
        plan = spec.with_scale(plan, size, scale)
    if zoom is not None:
        plan = spec.with_zoom(plan, zoom)
    home = tempfile.mkdtemp(prefix=f"sweepbot-{spec.name}-")
    env = display.env
    for part in ("config", "data", "cache"):
        path = os.path.join(home, part)
        os.makedirs(path, exist_ok=True)
        env[f"XDG_{part.upper()}_HOME"] = path
    env["HOME"] = home
    env["TMPDIR"] = os.path.join(home, "tmp")  # a browser's temporary files go with the home
    os.makedirs(env["TMPDIR"], exist_ok=True)
    env["NO_AT_BRIDGE"] = "1"
    env["GIO_USE_VFS"] = "local"
    env.update(plan.env)
    for rel, text in plan.files.items():
        target = Path(home) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    # Xvfb starts with the pointer in the middle of the screen, where boards are: move it away first.
    width, height = display.size
    xtools.move_pointer(env, width - 40, height - 40)
    window_timeout = min(timeout, spec.window_timeout)
    for attempt in range(1, LAUNCH_ATTEMPTS + 1):
        proc = procs.spawn(plan.argv, env, cwd=home, log=os.path.join(home, "client.log"))
        client = LaunchedClient(
            spec, display, label, size, tile_size=tile_size, seed=seed, proc=proc, home=home, env=env
        )
        try:
            client._wait_window(window_timeout)
            client.wait_painted(timeout=timeout)
            xtools.activate(env, client.wid)
        except DesktopError:
            # no window in time (a client started as the window manager settles may never be managed), or the
            # window found went away before it could be activated: start the client again
            procs.stop(proc)
            client.screen.close()
            if proc.returncode not in (None, -15, -9) or attempt == LAUNCH_ATTEMPTS:
                shutil.rmtree(home, ignore_errors=True)
                raise
            continue
        break
    try:
        spec.after_start(client)
        client.park_pointer()
        client.wait_settled(timeout=timeout)
    except BaseException:
        client.close()
        raise
    return client
