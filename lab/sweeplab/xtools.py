"""Thin wrappers over xdotool, xwininfo and xprop: find windows, read their true geometry, send input.

Every function takes the environment of the display (``VirtualDisplay.env``) so that nothing depends on the
harness's own ``DISPLAY``. Input goes through XTEST (xdotool), which is what a real user's events look like.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sweepbot.rect import Rect
from sweeplab import procs
from sweeplab.errors import DesktopError

Env = Mapping[str, str]


def _xdotool(env: Env, *args: str, timeout: float = 5.0) -> str:
    result = procs.run_quiet(["xdotool", *args], env, timeout=timeout)
    if result.returncode != 0 and result.stderr.strip():
        raise DesktopError(f"xdotool {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def search_windows(
    env: Env, *, pid: int | None = None, name: str | None = None, wm_class: str | None = None
) -> list[int]:
    """Ids of the mapped windows matching all the given criteria (``name``/``wm_class`` are regexes)."""
    args = ["search", "--onlyvisible"]
    if pid is not None:
        args += ["--pid", str(pid)]
    if name is not None:
        args += ["--name", name]
    elif wm_class is not None:
        args += ["--class", wm_class]
    if pid is None and name is None and wm_class is None:
        raise ValueError("give at least one of pid, name, wm_class")
    result = procs.run_quiet(["xdotool", *args], env)
    return [int(tok) for tok in result.stdout.split() if tok.isdigit()]


def window_info(env: Env, wid: int) -> dict[str, str]:
    """``xwininfo -id WID`` as a dict of its ``Key: value`` lines (empty if the window is gone)."""
    result = procs.run_quiet(["xwininfo", "-id", str(wid)], env)
    if result.returncode != 0:
        return {}
    info: dict[str, str] = {}
    for line in result.stdout.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value:
            info[key.strip()] = value.strip()
    title = re.search(r'xwininfo: Window id: \S+ "(.*)"', result.stdout)
    if title:
        info["Title"] = title.group(1)
    return info


def window_rect(env: Env, wid: int) -> Rect:
    """The window's true client area on screen, inside its border (xdotool's geometry is wrong under openbox)."""
    info = window_info(env, wid)
    if not info:
        raise DesktopError(f"window {wid:#x} does not exist")
    border = int(info.get("Border width", "0"))
    return Rect(
        int(info["Absolute upper-left X"]) + border,
        int(info["Absolute upper-left Y"]) + border,
        int(info["Width"]),
        int(info["Height"]),
    )


def is_viewable(env: Env, wid: int) -> bool:
    return window_info(env, wid).get("Map State") == "IsViewable"


def window_pid(env: Env, wid: int) -> int | None:
    out = _xdotool(env, "getwindowpid", str(wid))
    return int(out.strip()) if out.strip().isdigit() else None


def activate(env: Env, wid: int) -> None:
    """Raise and focus a window through the window manager, and wait until it has the focus; on a screen
    with no window manager (nothing to ask), give it the keyboard focus directly."""
    try:
        _xdotool(env, "windowactivate", "--sync", str(wid))
    except DesktopError:
        if "_NET_ACTIVE_WINDOW" in procs.run_quiet(["xprop", "-root", "_NET_SUPPORTED"], env).stdout:
            raise
        _xdotool(env, "windowfocus", "--sync", str(wid))


def move_pointer(env: Env, x: int, y: int) -> None:
    _xdotool(env, "mousemove", str(x), str(y))


def click(env: Env, x: int, y: int, button: int = 1) -> None:
    """Move the pointer to screen point ``(x, y)`` and click ``button`` (1 left, 2 middle, 3 right).

    Each step waits until the pointer shows the last one (``--sync``): a window manager that grabs the
    buttons holds the press, and a release sent meanwhile does not reach the window (see control/x11.py)."""
    _xdotool(env, "mousemove", "--sync", str(x), str(y), "mousedown", str(button),
             "mousemove", "--sync", str(x + 1), str(y), "mouseup", str(button))


def key(env: Env, *keys: str, wid: int | None = None) -> None:
    """Press keys (xdotool names: ``n``, ``F2``, ``ctrl+r``, ``Tab``, ``Return``) in the focused window.

    With ``wid`` the window is activated first, so the keys go to it through XTEST.
    """
    if wid is not None:
        activate(env, wid)
    _xdotool(env, "key", "--clearmodifiers", *keys)


def close_window(env: Env, wid: int) -> None:
    """Ask the window to close politely (WM_DELETE_WINDOW through the window manager)."""
    procs.run_quiet(["xdotool", "windowclose", str(wid)], env)
