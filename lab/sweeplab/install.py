"""What the harness needs from the system, what is missing, and installing it with scripts/install-clients.

Debian packages bring the virtual screen and four clients; four more clients come from PyPI, each in a
virtual env of its own that the same script makes (see :mod:`sweeplab.clients.pypi`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from sweeplab.clients import PYPI_CLIENTS
from sweeplab.errors import DesktopError

#: Debian packages, kept equal to the list in scripts/install-clients (a test checks it).
PACKAGES = (
    "xvfb",
    "xdotool",
    "openbox",
    "x11-utils",
    "x11-xserver-utils",
    "xauth",
    "xfonts-75dpi",
    "xfonts-100dpi",
    "dbus-x11",
    "libglib2.0-bin",
    "imagemagick",
    "fonts-dejavu-core",
    "fonts-urw-base35",
    "tesseract-ocr",
    "xdemineur",
    "gnome-mines",
    "sgt-puzzles",
    "ace-of-penguins",
    "chromium",
    "python3-tk",
    "python3-venv",
    "mutter",
    "xwayland",
    "pipewire",
    "wireplumber",
    "gstreamer1.0-pipewire",
    "gstreamer1.0-tools",
    "xdg-desktop-portal",
    "xdg-desktop-portal-gnome",
    "kwin-wayland",
    "kwin-x11",
    "sway",
)
#: Programs the harness runs, with the package that brings each.
PROGRAMS = {
    "Xvfb": "xvfb",
    "xdotool": "xdotool",
    "openbox": "openbox",
    "xdpyinfo": "x11-utils",
    "xwininfo": "x11-utils",
    "xprop": "x11-utils",
    "xrandr": "x11-xserver-utils",
    "dbus-daemon": "dbus-x11",
    "gdbus": "libglib2.0-bin",
    "/usr/games/xdemineur": "xdemineur",
    "/usr/games/gnome-mines": "gnome-mines",
    "/usr/games/sgt-mines": "sgt-puzzles",
    "/usr/games/ace-minesweeper": "ace-of-penguins",
    "chromium": "chromium",
}
INSTALL_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "install-clients"


def missing_programs() -> list[str]:
    """The programs of :data:`PROGRAMS` that cannot be found (games by path, the rest on PATH)."""
    missing = []
    for program in PROGRAMS:
        found = Path(program).is_file() if program.startswith("/") else shutil.which(program) is not None
        if not found:
            missing.append(program)
    return missing


def missing_packages() -> list[str]:
    """The packages of :data:`PACKAGES` dpkg does not report as installed (all of them without dpkg)."""
    if shutil.which("dpkg-query") is None:
        return list(PACKAGES)
    result = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package} ${db:Status-Status}\n", *PACKAGES],
        capture_output=True,
        text=True,
        check=False,
    )
    installed = {line.split()[0] for line in result.stdout.splitlines() if line.split()[1:] == ["installed"]}
    return [pkg for pkg in PACKAGES if pkg not in installed]


def missing_pypi_clients() -> list[str]:
    """The clients from PyPI whose virtual env scripts/install-clients has not finished."""
    return [name for name, spec in PYPI_CLIENTS.items() if not spec.installed()]


def describe_missing() -> str:
    """A one-line report of what is missing, or '' when everything the harness runs is there."""
    programs = missing_programs()
    clients = missing_pypi_clients()
    parts = []
    if programs:
        packages = sorted({PROGRAMS[p] for p in programs})
        parts.append(f"missing programs {', '.join(programs)} (packages: {' '.join(packages)})")
    if clients:
        parts.append(f"missing PyPI clients {', '.join(clients)}")
    return "; ".join(parts) + f"; run {INSTALL_SCRIPT}" if parts else ""


def install_clients(script: Path = INSTALL_SCRIPT, timeout: float = 900.0) -> None:
    """Run scripts/install-clients (apt-get, with sudo when not root); raise :class:`DesktopError` on failure."""
    if not script.is_file():
        raise DesktopError(f"{script} not found: install by hand: apt-get install {' '.join(PACKAGES)}")
    try:
        result = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise DesktopError(f"{script} did not finish in {timeout:g} s") from exc
    if result.returncode != 0:
        tail = " | ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
        raise DesktopError(f"{script} failed (status {result.returncode}): {tail}")


def ensure_installed(*, install: bool = False) -> None:
    """Make sure every program is there: install them when ``install`` is true, else explain what is missing."""
    problem = describe_missing()
    if not problem:
        return
    if not install:
        raise DesktopError(problem)
    install_clients()
    problem = describe_missing()
    if problem:
        raise DesktopError(f"still {problem}")
