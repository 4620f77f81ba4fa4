"""A private headless Wayland desktop: GNOME's mutter, KDE's KWin or sway, each with Xwayland and a D-Bus
session bus of its own, all stopped on exit.

GNOME runs as ``mutter --headless --wayland`` with a virtual monitor, PipeWire and WirePlumber on its bus
(its screen casts need both); KDE as ``kwin_wayland --virtual --xwayland``; sway on its headless backend.
Each compositor starts a small command once it is up, which writes the environment it gives its clients
(``DISPLAY`` of its Xwayland, ``WAYLAND_DISPLAY``, ``XAUTHORITY``): the session's ``env`` is made from it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

from sweeplab import procs
from sweeplab.display import FOREIGN_VARS
from sweeplab.errors import DesktopError

COMPOSITORS = ("gnome", "kde", "sway")
#: what each compositor needs from Debian (the harness's packages: install.py)
PACKAGES = {
    "gnome": ["mutter", "xwayland", "pipewire", "wireplumber", "gstreamer1.0-pipewire", "gstreamer1.0-tools"],
    "kde": ["kwin-wayland", "xwayland"],
    "sway": ["sway", "xwayland", "x11-xserver-utils"],
}
#: the desktop's name as it tells its clients (XDG_CURRENT_DESKTOP)
DESKTOP_NAMES = {"gnome": "GNOME", "kde": "KDE", "sway": "sway"}
#: sway refuses to run as root: it runs as this user (nobody) when the harness is root
SWAY_USER = 65534
#: where every X server's socket lives; Xwayland under mutter needs it writable by all, as X servers make it
X11_UNIX = Path("/tmp/.X11-unix")
#: seconds a compositor may take to start and say what its clients get
START_TIMEOUT = 30.0
#: the variable every process of a session carries (its folder): what it started is found by it and ended, the
#: processes a compositor detached from its process group too (sway runs its commands in sessions of their own)
MARK = "SWEEPBOT_DESKTOP"


class WaylandSession:
    """A headless Wayland desktop of ``compositor`` (gnome, kde, sway), ``width`` x ``height``, as a context
    manager; ``env`` is the environment of a program on it (its X11 programs run under Xwayland)."""

    def __init__(self, compositor: str = "gnome", width: int = 1280, height: int = 1024,
                 timeout: float = START_TIMEOUT) -> None:
        if compositor not in COMPOSITORS:
            raise DesktopError(f"unknown compositor {compositor!r} (known: {', '.join(COMPOSITORS)})")
        self.compositor = compositor
        self.width, self.height = width, height
        self.timeout = timeout
        self._home: str | None = None
        self._procs: list[subprocess.Popen[bytes]] = []
        self._given: dict[str, str] = {}
        self.bus_address: str | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def folder(self) -> str:
        """The session's own folder (its runtime folder, logs, configuration): its processes carry it as MARK."""
        if self._home is None:
            raise DesktopError("the Wayland session is not running")
        return self._home

    @property
    def env(self) -> dict[str, str]:
        if self._home is None or not self._given:
            raise DesktopError("the Wayland session is not running")
        env = {k: v for k, v in os.environ.items() if k not in FOREIGN_VARS}
        env.update(self._given)
        env.update({"XDG_RUNTIME_DIR": self._runtime, "XDG_SESSION_TYPE": "wayland",
                    "XDG_CURRENT_DESKTOP": DESKTOP_NAMES[self.compositor]})
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        if not env.get("XAUTHORITY"):
            env.pop("XAUTHORITY", None)
        return env

    @property
    def _runtime(self) -> str:
        assert self._home is not None
        return os.path.join(self._home, "run")

    def log(self) -> str:
        """The compositor's last lines, for an error message."""
        return procs.log_tail(os.path.join(self._home, "compositor.log")) if self._home else ""

    # -- life cycle --------------------------------------------------------------------------------------
    def __enter__(self) -> WaylandSession:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def start(self) -> WaylandSession:
        missing = [p for p in ("dbus-daemon", *self._binaries()) if shutil.which(p) is None]
        if missing:
            raise DesktopError(f"{', '.join(missing)} not installed (run scripts/install-clients); the "
                               f"{self.compositor} session needs {' '.join(PACKAGES[self.compositor])}")
        try:
            self._home = tempfile.mkdtemp(prefix=f"sweepbot-{self.compositor}-")
            os.makedirs(self._runtime, mode=0o700)
            self._start_bus()
            {"gnome": self._start_gnome, "kde": self._start_kde, "sway": self._start_sway}[self.compositor]()
            self._wait_for_env()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop everything this session started, last started first; safe to call twice."""
        for proc in reversed(self._procs):
            procs.stop(proc)
        self._procs.clear()
        if self._home:
            procs.stop_marked(MARK, self._home)
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None
        self._given = {}
        self.bus_address = None

    # -- the parts ---------------------------------------------------------------------------------------
    def _binaries(self) -> list[str]:
        return {"gnome": ["mutter", "Xwayland", "pipewire", "wireplumber", "gst-launch-1.0"],
                "kde": ["kwin_wayland", "Xwayland"], "sway": ["sway", "Xwayland", "xhost"]}[self.compositor]

    def _base_env(self) -> dict[str, str]:
        assert self._home is not None
        env = {k: v for k, v in os.environ.items() if k not in FOREIGN_VARS}
        env.update({"XDG_RUNTIME_DIR": self._runtime, "HOME": self._home, "XDG_SESSION_TYPE": "wayland",
                    "XDG_CONFIG_HOME": os.path.join(self._home, "config"),
                    "XDG_CURRENT_DESKTOP": DESKTOP_NAMES[self.compositor], MARK: self._home})
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        return env

    def _spawn(self, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        assert self._home is not None
        proc = procs.spawn(argv, env, log=os.path.join(self._home, "compositor.log"), cwd=self._home)
        self._procs.append(proc)
        return proc

    def _start_bus(self) -> None:
        argv = ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--nosyslog", "--print-address=1"]
        bus = procs.spawn(argv, self._base_env(), stdout=subprocess.PIPE)
        self._procs.append(bus)
        assert bus.stdout is not None
        self.bus_address = bus.stdout.readline().decode().strip()
        if not self.bus_address:
            raise DesktopError("dbus-daemon did not print its address")

    def _env_file(self) -> str:
        assert self._home is not None
        return os.path.join(self._home, "given-env")

    def _reporter(self, before: str = "") -> str:
        """The shell script a compositor runs once it is up: write the environment it gives, then wait."""
        target = self._env_file()
        return f"{before}env > {target}.part && mv {target}.part {target} && exec sleep 1000000"

    def _start_gnome(self) -> None:
        if os.geteuid() == 0 and X11_UNIX.is_dir():
            X11_UNIX.chmod(0o1777)  # Xwayland refuses a socket folder others cannot write to
        env = self._base_env()
        self._spawn(["pipewire"], env)
        self._spawn(["wireplumber"], env)
        self._spawn(["mutter", "--headless", "--wayland", "--virtual-monitor", f"{self.width}x{self.height}",
                     "--wayland-display", "wayland-sweepbot", "--", "sh", "-c", self._reporter()], env)

    def _start_kde(self) -> None:
        assert self._home is not None
        # the packaged binary carries a file capability (cap_sys_resource) that a container may refuse to run:
        # a copy has none, and runs the same
        kwin = os.path.join(self._home, "kwin_wayland")
        shutil.copyfile(shutil.which("kwin_wayland") or "kwin_wayland", kwin)
        os.chmod(kwin, 0o755)
        self._spawn([kwin, "--virtual", "--xwayland", "--width", str(self.width), "--height", str(self.height),
                     "--socket", "wayland-sweepbot", "--exit-with-session", f"sh -c '{self._reporter()}'"],
                    self._base_env())

    def _start_sway(self) -> None:
        assert self._home is not None
        as_root = os.geteuid() == 0
        # Xwayland under sway lets in its own user only: root (the harness) is let in by name
        grant = "xhost +si:localuser:root >/dev/null; " if as_root else ""
        config = os.path.join(self._home, "sway.config")
        Path(config).write_text(f"xwayland enable\noutput HEADLESS-1 resolution {self.width}x{self.height}\n"
                                f"exec sh -c '{self._reporter(grant)}'\n", encoding="utf-8")
        env = self._base_env()
        env.update({"WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"})
        argv = ["sway", "-c", config]
        if as_root:
            for path in (self._home, self._runtime):
                os.chown(path, SWAY_USER, SWAY_USER)
            argv = ["setpriv", f"--reuid={SWAY_USER}", f"--regid={SWAY_USER}", "--clear-groups", *argv]
        self._spawn(argv, env)

    def _wait_for_env(self) -> None:
        path = Path(self._env_file())

        def ready() -> bool:
            if any(proc.poll() is not None for proc in self._procs):
                raise DesktopError(f"the {self.compositor} session ended at start: {self.log()}")
            return path.exists()

        procs.wait_for(ready, self.timeout, f"the {self.compositor} session")
        given = dict(line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines() if "=" in line)
        self._given = {key: given[key] for key in ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY") if given.get(key)}
        if "DISPLAY" not in self._given or "WAYLAND_DISPLAY" not in self._given:
            raise DesktopError(f"the {self.compositor} session gave no Xwayland display: {self.log()}")
        # services the bus starts on demand (the desktop portal and its dialogs) show on this desktop
        names = [*self._given, "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "XDG_RUNTIME_DIR"]
        done = procs.run_quiet(["dbus-update-activation-environment", *names], self.env)
        if done.returncode != 0:
            raise DesktopError(f"the session bus did not take the desktop's environment: {done.stderr.strip()}")
        with contextlib.suppress(OSError):
            path.unlink()


class SessionClient:
    """A client started on a :class:`WaylandSession`: its process and private home, both gone after
    :meth:`close`."""

    def __init__(self, proc: subprocess.Popen[bytes], home: str, env: dict[str, str]) -> None:
        self.proc, self.home, self.env = proc, home, env

    def running(self) -> bool:
        return self.proc.poll() is None

    def log(self) -> str:
        return procs.log_tail(os.path.join(self.home, "client.log"))

    def close(self) -> None:
        procs.stop(self.proc)
        shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> SessionClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_client(session: WaylandSession, name: str, level: str | None = None, *,
                 native: bool = False) -> SessionClient:
    """Start client ``name`` at ``level`` on ``session``: under Xwayland, or as a native Wayland window with
    ``native`` (a GTK client: GDK_BACKEND=wayland). Its files go to a private home, as the X11 lab does."""
    from sweeplab.clients import get_spec

    spec = get_spec(name)
    if not spec.installed():
        raise DesktopError(f"{name} is not installed: install {spec.package} (run scripts/install-clients)")
    label, size = spec.resolve_level(level)
    plan = spec.plan(label, size, seed=None, tile_size=None)
    home = tempfile.mkdtemp(prefix=f"sweepbot-{name}-")
    env = session.env
    for part in ("config", "data", "cache"):
        os.makedirs(os.path.join(home, part), exist_ok=True)
        env[f"XDG_{part.upper()}_HOME"] = os.path.join(home, part)
    env.update({"HOME": home, "NO_AT_BRIDGE": "1", "GIO_USE_VFS": "local",
                "GDK_BACKEND": "wayland" if native else "x11", "QT_QPA_PLATFORM": "wayland" if native else "xcb"})
    env.update(plan.env)
    for rel, text in plan.files.items():
        target = Path(home) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    proc = procs.spawn(plan.argv, env, cwd=home, log=os.path.join(home, "client.log"))
    return SessionClient(proc, home, env)
