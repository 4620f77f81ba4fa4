"""A private X display: Xvfb on a free display number, openbox and a D-Bus session bus, all stopped on exit;
one monitor, or several side by side (RandR monitors, as mss and openbox see a desktop of several screens).

openbox runs with its stock settings (the system's rc.xml, nothing of ours), as on a user's desktop: it grabs
the mouse buttons on every window to focus and raise it, and places windows itself."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from types import TracebackType

from sweeplab import procs
from sweeplab.errors import DesktopError

#: Display numbers below this are left to people and other tools (the vision developer uses :98).
FIRST_DISPLAY = 90
LAST_DISPLAY = 599
#: Where to start looking for a free display number instead (tests run side by side each start elsewhere, so
#: that two never race for one number).
FIRST_DISPLAY_VARIABLE = "SWEEPBOT_FIRST_DISPLAY"
#: Seconds to let openbox settle after it has announced itself on the root window.
WM_SETTLE = 0.3
#: Millimetres per pixel of a monitor shown (96 dpi): RandR monitors have a physical size.
MM_PER_PX = 25.4 / 96
#: The desktops' own window managers on X11, as their sessions start them (openbox is the default)
X11_WINDOW_MANAGERS = {
    "openbox": ["openbox", "--sm-disable"],
    "mutter": ["mutter", "--x11", "--replace", "--sm-disable"],
    "kwin": ["kwin_x11", "--replace"],
}
#: Variables a child must not inherit from whatever display or session the harness itself runs in.
FOREIGN_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SESSION_BUS_PID")


def display_in_use(number: int) -> bool:
    """Whether an X server (or its leftovers) holds display ``:number`` on this machine."""
    return Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists()


def free_displays(start: int = FIRST_DISPLAY, stop: int = LAST_DISPLAY) -> list[int]:
    """Display numbers from ``start`` to ``stop`` that no lock file or socket claims, lowest first."""
    return [n for n in range(start, stop + 1) if not display_in_use(n)]


class VirtualDisplay:
    """Xvfb + openbox + a private D-Bus session bus, as a context manager.

    >>> with VirtualDisplay() as vd:            # doctest: +SKIP
    ...     subprocess.run(["xdpyinfo"], env=vd.env)

    ``env`` is the environment for children (``DISPLAY``, ``DBUS_SESSION_BUS_ADDRESS`` set, foreign display
    variables removed); ``name`` is ``":N"``. Everything started is stopped by :meth:`stop`, also when start-up
    fails half-way. ``window_manager=False`` leaves the screen without one; ``"mutter"`` runs GNOME's window
    manager and compositor, as "GNOME on Xorg" does, and ``"kwin"`` KDE's (``kwin_x11``), instead of openbox.
    ``monitors=2`` shows two monitors of
    ``width`` x ``height`` side by side (the desktop twice as wide), the first of them primary.
    """

    def __init__(
        self,
        width: int = 1280,
        height: int = 1024,
        *,
        window_manager: bool | str = True,
        dbus: bool = True,
        first_display: int | None = None,
        timeout: float = 10.0,
        monitors: int = 1,
    ) -> None:
        if monitors < 1:
            raise DesktopError("a display has at least one monitor")
        self.monitors = monitors
        self.monitor_width = width
        self.width = width * monitors
        self.height = height
        if window_manager not in (True, False, *X11_WINDOW_MANAGERS):
            raise DesktopError(f"unknown window manager {window_manager!r} (known: {', '.join(X11_WINDOW_MANAGERS)})")
        self.window_manager = "openbox" if window_manager is True else window_manager
        self.dbus = dbus
        self.first_display = first_display or int(os.environ.get(FIRST_DISPLAY_VARIABLE, FIRST_DISPLAY))
        self.timeout = timeout
        self.number: int | None = None
        self.dbus_address: str | None = None
        self._xvfb: subprocess.Popen[bytes] | None = None
        self._wm: subprocess.Popen[bytes] | None = None
        self._bus: subprocess.Popen[bytes] | None = None
        self._home: str | None = None

    # -- public view -------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        if self.number is None:
            raise DesktopError("the virtual display is not running")
        return f":{self.number}"

    @property
    def env(self) -> dict[str, str]:
        """The environment for a child process on this display."""
        env = {k: v for k, v in os.environ.items() if k not in FOREIGN_VARS}
        env["DISPLAY"] = self.name
        if self.dbus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.dbus_address
        return env

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @contextlib.contextmanager
    def exported(self) -> Iterator[None]:
        """Point this process at the display (``DISPLAY``, ``DBUS_SESSION_BUS_ADDRESS`` in ``os.environ``).

        For code that reads ``DISPLAY`` itself, like pyautogui when it is imported (import it inside the
        block, and only once per process: it keeps its first connection). The old values come back on exit.
        """
        keys = ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS")
        saved = {key: os.environ.get(key) for key in keys}
        env = self.env
        try:
            for key in keys:
                if key in env:
                    os.environ[key] = env[key]
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def is_running(self) -> bool:
        return self._xvfb is not None and self._xvfb.poll() is None

    # -- life cycle --------------------------------------------------------------------------------------
    def start(self) -> VirtualDisplay:
        if self._xvfb is not None:
            raise DesktopError("the virtual display is already started")
        if shutil.which("Xvfb") is None:
            raise DesktopError("Xvfb is not installed (run scripts/install-clients)")
        try:
            self._start_xvfb()
            if self.monitors > 1:
                self._split_monitors()
            self._home = tempfile.mkdtemp(prefix=f"sweepbot-display{self.number}-")
            if self.dbus:
                self._start_dbus()
            if self.window_manager == "openbox":
                self._start_openbox()
            elif self.window_manager:
                self._start_desktop_wm(X11_WINDOW_MANAGERS[str(self.window_manager)])
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop openbox, the bus and Xvfb (in that order); safe to call twice."""
        procs.stop(self._wm)
        procs.stop(self._bus)
        procs.stop(self._xvfb)
        self._wm = self._bus = self._xvfb = None
        if self._home:
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None
        self.dbus_address = None
        self.number = None

    def __enter__(self) -> VirtualDisplay:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- the parts ---------------------------------------------------------------------------------------
    def _answers(self) -> bool:
        env = {k: v for k, v in os.environ.items() if k not in FOREIGN_VARS}
        result = procs.run_quiet(["xdpyinfo", "-display", f":{self.number}"], env)
        return result.returncode == 0

    def _xvfb_up(self, xvfb: subprocess.Popen[bytes]) -> bool:
        """True once Xvfb answers, or once it has exited (then the caller tries another display)."""
        return xvfb.poll() is not None or self._answers()

    def _start_xvfb(self) -> None:
        tried: list[int] = []
        for number in free_displays(self.first_display):
            if len(tried) >= 5:
                break
            tried.append(number)
            self.number = number
            screen = f"{self.width}x{self.height}x24"
            argv = ["Xvfb", f":{number}", "-screen", "0", screen, "-nolisten", "tcp", "-noreset"]
            self._xvfb = xvfb = procs.spawn(argv, os.environ)
            try:
                procs.wait_for(partial(self._xvfb_up, xvfb), self.timeout, f"Xvfb :{number}")
            except DesktopError:
                procs.stop(xvfb)
                self._xvfb = None
                raise
            if xvfb.poll() is None:
                return
            # Lost a race for this number with another server: try the next one.
            procs.stop(xvfb)
            self._xvfb = None
        self.number = None
        raise DesktopError(f"Xvfb would not start on any of the displays {tried}")

    def monitor_rect(self, index: int) -> tuple[int, int, int, int]:
        """Monitor ``index`` (0: the first, primary) as (left, top, width, height) on the desktop."""
        if not 0 <= index < self.monitors:
            raise DesktopError(f"no monitor {index}: the display has {self.monitors}")
        return index * self.monitor_width, 0, self.monitor_width, self.height

    def _split_monitors(self) -> None:
        """The screen shown as monitors side by side: a RandR monitor each (Xvfb keeps them with -noreset)."""
        env = self.env  # the bus is not started yet: DISPLAY only
        mm_w, mm_h = round(self.monitor_width * MM_PER_PX), round(self.height * MM_PER_PX)
        for i in range(self.monitors):
            x, y, w, h = self.monitor_rect(i)
            geometry = f"{w}/{mm_w}x{h}/{mm_h}+{x}+{y}"
            output = "screen" if i == 0 else "none"
            done = procs.run_quiet(["xrandr", "--setmonitor", f"SWEEPBOT-{i}", geometry, output], env)
            if done.returncode != 0:
                raise DesktopError(f"xrandr would not show monitor {i} ({geometry}): {done.stderr.strip()[:200]}")

    def _start_dbus(self) -> None:
        argv = ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--nosyslog", "--print-address=1"]
        self._bus = procs.spawn(argv, self.env, stdout=subprocess.PIPE)
        assert self._bus.stdout is not None
        line = self._bus.stdout.readline().decode().strip()
        if not line:
            raise DesktopError("dbus-daemon did not print its address")
        self.dbus_address = line

    def _wm_ready(self) -> bool:
        result = procs.run_quiet(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], self.env)
        return "window id" in result.stdout

    def _start_openbox(self) -> None:
        assert self._home is not None
        env = self.env
        env["XDG_CONFIG_HOME"] = os.path.join(self._home, "config")
        env["XDG_CACHE_HOME"] = os.path.join(self._home, "cache")
        log = os.path.join(self._home, "openbox.log")
        # an empty private config folder: openbox reads the system's stock rc.xml
        self._wm = procs.spawn(["openbox", "--sm-disable"], env, log=log)
        wm = self._wm
        procs.wait_for(lambda: wm.poll() is not None or self._wm_ready(), self.timeout, "openbox")
        if wm.poll() is not None:
            raise DesktopError(f"openbox exited at start (status {wm.returncode}): {procs.log_tail(log)}")
        # Clients started in the first instants after openbox announces itself sometimes never get their
        # window managed (seen with xdemineur); a short pause avoids it, and launch() retries anyway.
        time.sleep(WM_SETTLE)

    def _start_desktop_wm(self, argv: list[str]) -> None:
        """A desktop's window manager on this X display, as its X11 session runs it, in its stock settings
        (compositing on): GNOME's mutter, KDE's KWin."""
        assert self._home is not None
        env = self.env
        env["XDG_CONFIG_HOME"] = os.path.join(self._home, "config")
        env["XDG_RUNTIME_DIR"] = os.path.join(self._home, "run")
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        log = os.path.join(self._home, "wm.log")
        self._wm = procs.spawn(argv, env, log=log)
        wm = self._wm
        procs.wait_for(lambda: wm.poll() is not None or self._wm_ready(), self.timeout, argv[0])
        if wm.poll() is not None:
            raise DesktopError(f"{argv[0]} exited at start (status {wm.returncode}): {procs.log_tail(log)}")
        time.sleep(WM_SETTLE)
