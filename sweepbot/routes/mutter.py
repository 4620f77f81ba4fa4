"""GNOME's own remote-desktop interfaces (``org.gnome.Mutter.RemoteDesktop`` and ``.ScreenCast``): a session that
casts the primary monitor over PipeWire and takes pointer and key input in the cast's pixels.

The interfaces GNOME Remote Desktop uses. mutter answers them on the session bus with no dialog, so they
serve where no portal runs (a headless session, a test). The cast hides the pointer; the pointer is placed
in stream pixels, which mutter maps to the monitor (its scale included), so a frame pixel is where a click
lands.
"""

from __future__ import annotations

import contextlib
from typing import Any

from sweepbot.routes.dbus import Bus, BusError
from sweepbot.routes.pipewire import FIRST_FRAME_TIMEOUT, PipeWireFrames
from sweepbot.routes.remote_input import RemoteInput
from sweepbot.routes.route import Route, RouteError
from sweepbot.vision.capture import CaptureError

REMOTE = "org.gnome.Mutter.RemoteDesktop"
CAST = "org.gnome.Mutter.ScreenCast"
#: the cast's cursor mode: hidden (the pointer is not drawn in the frames)
CURSOR_HIDDEN = 0


def available(bus: Bus) -> bool:
    return bus.has(REMOTE) and bus.has(CAST)


def open_mutter() -> Route:
    """A remote-desktop session of mutter on the primary monitor; RouteError naming what failed."""
    try:
        bus = Bus()
    except BusError as err:
        raise RouteError(f"route mutter: {err}") from None
    session: str | None = None
    try:
        if not available(bus):
            raise RouteError("route mutter: GNOME's remote-desktop interfaces (org.gnome.Mutter.RemoteDesktop) are "
                             "not on the session bus: this is not a GNOME session under Wayland")
        (session,) = bus.call(REMOTE, "/org/gnome/Mutter/RemoteDesktop", REMOTE, "CreateSession")
        session_id = bus.property(REMOTE, session, f"{REMOTE}.Session", "SessionId")
        (cast,) = bus.call(CAST, "/org/gnome/Mutter/ScreenCast", CAST, "CreateSession", "a{sv}",
                           {"remote-desktop-session-id": ("s", session_id)})
        (stream,) = bus.call(CAST, cast, f"{CAST}.Session", "RecordMonitor", "sa{sv}", "",
                             {"cursor-mode": ("u", CURSOR_HIDDEN)})
        with bus.signals(stream, f"{CAST}.Stream", "PipeWireStreamAdded") as next_signal:
            bus.call(REMOTE, session, f"{REMOTE}.Session", "Start")
            (node,) = next_signal(FIRST_FRAME_TIMEOUT)
        parameters: dict[str, Any] = bus.property(CAST, stream, f"{CAST}.Stream", "Parameters")
        output = parameters.get("output-name", ("s", "the primary monitor"))[1]
        # frame pixels are stream pixels from (0, 0): the unit the pointer is placed in
        frames = PipeWireFrames(int(node), what=f"GNOME's cast of {output}")
    except (BusError, CaptureError) as err:
        if session:
            _stop(bus, session)
        bus.close()
        raise RouteError(f"route mutter: {err}") from None
    except RouteError:
        bus.close()
        raise

    def call(method: str, signature: str, *args: Any) -> None:
        bus.call(REMOTE, session, f"{REMOTE}.Session", method, signature, *args)

    height, width = frames.grab().shape[:2]
    device = RemoteInput(
        motion=lambda x, y: call("NotifyPointerMotionAbsolute", "sdd", stream, x, y),
        button=lambda code, pressed: call("NotifyPointerButton", "ib", code, pressed),
        key=lambda sym, pressed: call("NotifyKeyboardKeysym", "ub", sym, pressed),
        size=(width, height))
    return Route("mutter", frames, lambda: device, closers=[bus.close, lambda: _stop(bus, session)])


def _stop(bus: Bus, session: str) -> None:
    with contextlib.suppress(BusError):
        bus.call(REMOTE, session, f"{REMOTE}.Session", "Stop")
