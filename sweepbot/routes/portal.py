"""The desktop portal's remote desktop (``org.freedesktop.portal.RemoteDesktop`` with ``.ScreenCast``): the way a
program sees and clicks a Wayland desktop with the user's leave, on GNOME, KDE and others.

The portal asks the user once, in a dialog of the desktop's own, to share a monitor and allow input. Where
the portal can keep that answer (RemoteDesktop version 2), a restore token comes back, kept in the user's
data folder, and the next run asks no more. Frames come over the PipeWire connection the portal hands over;
the pointer is placed in the stream's pixels, which the compositor maps to the monitor.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Any

from sweepbot.routes.dbus import Bus, BusError
from sweepbot.routes.pipewire import PipeWireFrames
from sweepbot.routes.remote_input import RemoteInput
from sweepbot.routes.route import Route, RouteError
from sweepbot.vision.capture import CaptureError

PORTAL = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
REMOTE = "org.freedesktop.portal.RemoteDesktop"
CAST = "org.freedesktop.portal.ScreenCast"
REQUEST = "org.freedesktop.portal.Request"
#: devices asked for (keyboard, pointer), sources (a monitor), the cursor left out of the frames
KEYBOARD, POINTER = 1, 2
KEYBOARD_AND_POINTER = KEYBOARD | POINTER
MONITOR = 1
CURSOR_HIDDEN = 1
#: keep the user's leave until they take it back (RemoteDesktop version 2 and later)
PERSIST_UNTIL_REVOKED = 2
#: seconds the user has to answer the portal's dialog
ANSWER_TIMEOUT = 180.0
#: seconds for a step no person answers
STEP_TIMEOUT = 20.0
#: where the restore token is kept, in the user's data folder
TOKEN_FILE = "remote-desktop-token"
#: the portal's answers: 0 granted, 1 the user said no, 2 any other end
ANSWERS = {1: "the user did not allow it", 2: "the portal ended the request"}


def token_path() -> Path:
    """Where the restore token lives (``SWEEPBOT_PROFILES`` moves the user's data folder, this with it)."""
    moved = os.environ.get("SWEEPBOT_PROFILES")
    if moved:
        return Path(moved).parent / TOKEN_FILE
    from platformdirs import user_data_dir

    return Path(user_data_dir("sweepbot")) / TOKEN_FILE


class PortalSession:
    """One remote-desktop session of the portal, opened step by step."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.sender = bus.unique_name.lstrip(":").replace(".", "_")
        self.session = ""

    def ask(self, interface: str, method: str, signature: str, *args: Any, options: dict[str, Any],
            timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
        """Call a portal method that answers through a Request's Response signal; its results."""
        token = "sweepbot_" + secrets.token_hex(6)
        request = f"{PATH}/request/{self.sender}/{token}"
        with self.bus.signals(request, REQUEST, "Response") as next_signal:
            self.bus.call(PORTAL, PATH, interface, method, signature, *args, {"handle_token": ("s", token), **options})
            answer, results = next_signal(timeout)
        if answer != 0:
            raise RouteError(f"route portal: {method}: {ANSWERS.get(int(answer), f'answer {answer}')}")
        return {key: value[1] for key, value in results.items()}

    def open(self, restore: str | None) -> tuple[int, int, str | None]:
        """Create, choose, start: the stream's PipeWire node, the PipeWire connection's descriptor, and the
        restore token for the next run (None where the portal keeps none)."""
        made = self.ask(REMOTE, "CreateSession", "a{sv}",
                        options={"session_handle_token": ("s", "sweepbot_" + secrets.token_hex(6))})
        self.session = str(made["session_handle"])
        version = int(self.bus.property(PORTAL, PATH, REMOTE, "version"))
        devices: dict[str, Any] = {"types": ("u", KEYBOARD_AND_POINTER)}
        if version >= 2:
            devices["persist_mode"] = ("u", PERSIST_UNTIL_REVOKED)
            if restore:
                devices["restore_token"] = ("s", restore)
        self.ask(REMOTE, "SelectDevices", "oa{sv}", self.session, options=devices)
        sources: dict[str, Any] = {"types": ("u", MONITOR), "multiple": ("b", False)}
        if int(self.bus.property(PORTAL, PATH, CAST, "AvailableCursorModes")) & CURSOR_HIDDEN:
            sources["cursor_mode"] = ("u", CURSOR_HIDDEN)  # else the portal's default, which hides it too
        self.ask(CAST, "SelectSources", "oa{sv}", self.session, options=sources)
        started = self.ask(REMOTE, "Start", "osa{sv}", self.session, "", options={}, timeout=ANSWER_TIMEOUT)
        streams = started.get("streams") or []
        if not streams:
            raise RouteError("route portal: the portal started a session with no screen shared")
        if not int(started.get("devices", 0)) & POINTER:
            raise RouteError("route portal: the screen is shared but the pointer is not: allow remote interaction "
                             "(input) in the portal's dialog")
        (fd,) = self.bus.call(PORTAL, PATH, CAST, "OpenPipeWireRemote", "oa{sv}", self.session, {})
        return int(streams[0][0]), fd.to_raw_fd(), started.get("restore_token")

    def notify(self, method: str, signature: str, *args: Any) -> None:
        self.bus.call(PORTAL, PATH, REMOTE, method, "oa{sv}" + signature, self.session, {}, *args)

    def close(self) -> None:
        if self.session:
            with contextlib.suppress(BusError):
                self.bus.call(PORTAL, self.session, "org.freedesktop.portal.Session", "Close")
            self.session = ""


def available(bus: Bus) -> bool:
    return bus.has(PORTAL)


def open_portal() -> Route:
    """A remote-desktop session through the portal (the user asked once; the restore token kept)."""
    try:
        bus = Bus()
    except BusError as err:
        raise RouteError(f"route portal: {err}") from None
    portal = PortalSession(bus)
    fd = -1
    try:
        if not available(bus):
            raise RouteError("route portal: no desktop portal (org.freedesktop.portal.Desktop) on the session bus: "
                             "install xdg-desktop-portal and the one of your desktop (xdg-desktop-portal-gnome, "
                             "-kde)")
        kept = token_path()
        restore = kept.read_text(encoding="utf-8").strip() if kept.is_file() else None
        node, fd, token = portal.open(restore)
        if token:
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_text(token + "\n", encoding="utf-8")
        frames = PipeWireFrames(node, fd=fd, what="the screen the portal shares")
    except (BusError, CaptureError) as err:
        portal.close()
        bus.close()
        raise RouteError(f"route portal: {err}") from None
    except RouteError:
        portal.close()
        bus.close()
        raise
    finally:
        if fd >= 0:
            os.close(fd)  # the child process holds its own copy
    height, width = frames.grab().shape[:2]
    device = RemoteInput(
        motion=lambda x, y: portal.notify("NotifyPointerMotionAbsolute", "udd", node, x, y),
        button=lambda code, pressed: portal.notify("NotifyPointerButton", "iu", code, int(pressed)),
        key=lambda sym, pressed: portal.notify("NotifyKeyboardKeysym", "iu", sym, int(pressed)),
        size=(width, height))
    return Route("portal", frames, lambda: device, closers=[bus.close, portal.close])
