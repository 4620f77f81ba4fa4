"""Routes to the screen, in parts that need no desktop: the X authority cookie as X clients find it, windows
laid over each other by their alpha, which route a session gets, and a PipeWire stream's frames read from a
stand-in pipeline."""

from __future__ import annotations

import contextlib
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sweepbot.control.xauth import FAMILY_LOCAL, FAMILY_WILD, cookie_for, display_number, entries
from sweepbot.routes.pipewire import PipeWireFrames
from sweepbot.routes.xwindows import lay_over
from sweepbot.vision.capture import CaptureError


def entry(family: int, address: bytes, number: bytes, name: bytes, data: bytes) -> bytes:
    return struct.pack(">H", family) + b"".join(struct.pack(">H", len(f)) + f for f in (address, number, name, data))


COOKIE = b"MIT-MAGIC-COOKIE-1"


def test_the_cookie_of_an_xwayland_authority_file_is_found_for_any_display_number() -> None:
    """mutter writes an entry for this host and a wildcard one, neither with a display number: X clients take
    them for any display (python-xlib alone does not)."""
    data = entry(FAMILY_LOCAL, b"vm", b"", COOKIE, b"\x01" * 16) + entry(FAMILY_WILD, b"vm", b"", COOKIE, b"\x02" * 16)
    assert cookie_for(1024, data, host="vm") == (COOKIE, b"\x01" * 16)
    assert cookie_for(1024, data, host="other") == (COOKIE, b"\x02" * 16)  # the wildcard, for any host


def test_a_cookie_for_another_display_or_host_or_scheme_is_not_taken() -> None:
    data = (entry(FAMILY_LOCAL, b"vm", b"3", COOKIE, b"a" * 16) + entry(FAMILY_LOCAL, b"elsewhere", b"7", COOKIE, b"b")
            + entry(FAMILY_LOCAL, b"vm", b"7", b"XDM-AUTHORIZATION-1", b"c"))
    assert cookie_for(7, data, host="vm") is None
    assert cookie_for(3, data, host="vm") == (COOKIE, b"a" * 16)


def test_a_cut_off_authority_file_keeps_its_whole_entries() -> None:
    whole = entry(FAMILY_LOCAL, b"vm", b"0", COOKIE, b"x" * 16)
    assert len(entries(whole + whole[:9])) == 1
    assert entries(b"") == []


@pytest.mark.parametrize(("name", "number"), [(":1024", 1024), (":0.0", 0), ("unix:3", 3), ("host:2", None),
                                              ("", None), (":x", None)])
def test_display_numbers_of_local_displays_only(name: str, number: int | None) -> None:
    assert display_number(name) == number


def test_a_window_without_alpha_covers_what_is_below_it() -> None:
    below = np.full((2, 3, 3), 50, np.uint8)
    pixels = np.zeros((2, 3, 4), np.uint8)
    pixels[..., :3] = (10, 20, 30)
    lay_over(below, pixels, alpha=False)  # the fourth byte of a 24-bit window is not alpha: 0 there means nothing
    assert (below == (10, 20, 30)).all()


def test_a_window_with_alpha_is_laid_over_by_it_a_shadow_darkens_and_a_clear_part_shows_what_is_below() -> None:
    below = np.full((1, 3, 3), 200, np.uint8)
    pixels = np.array([[[0, 0, 0, 0], [0, 0, 0, 128], [90, 90, 90, 255]]], np.uint8)  # clear, half shadow, opaque
    lay_over(below, pixels, alpha=True)
    assert below[0, 0].tolist() == [200] * 3
    assert below[0, 1].tolist() == [100] * 3
    assert below[0, 2].tolist() == [90] * 3


class FakePortal:
    """The desktop portal as the session bus shows it: each request answered by its Response signal, as
    ``answers`` say; every call kept."""

    unique_name = ":1.42"

    def __init__(self, version: int, answers: dict[str, tuple[int, dict[str, object]]] | None = None) -> None:
        self.version = version
        self.answers = answers or {}
        self.calls: list[tuple[str, tuple[object, ...]]] = []
        self.responses: dict[str, tuple[int, dict[str, tuple[str, object]]]] = {}

    def call(self, service: str, path: str, interface: str, method: str, signature: str | None = None,
             *args: object, timeout: float = 0) -> tuple[object, ...]:
        self.calls.append((method, args))
        if method == "OpenPipeWireRemote":
            return (type("Fd", (), {"to_raw_fd": lambda self: 99})(),)
        options = args[-1]
        assert isinstance(options, dict)
        token = options["handle_token"][1]
        answer, results = self.answers.get(method, (0, {}))
        if method == "CreateSession":
            results = {"session_handle": "/org/freedesktop/portal/desktop/session/1_42/s"}
        if method == "Start" and not results:
            results = {"streams": [(57, {})], "devices": 3, **({"restore_token": "t2"} if self.version >= 2 else {})}
        variants = {key: ("v", value) for key, value in results.items()}
        self.responses[f"/org/freedesktop/portal/desktop/request/1_42/{token}"] = (answer, variants)
        return ()

    def property(self, service: str, path: str, interface: str, name: str) -> object:
        return {"version": self.version, "AvailableCursorModes": 7}[name]

    @contextlib.contextmanager
    def signals(self, path: str, interface: str, member: str) -> Iterator[Callable[[float], tuple[object, ...]]]:
        yield lambda timeout: self.responses.pop(path)

    def options(self, method: str) -> dict[str, object]:
        return next(args[-1] for called, args in self.calls if called == method)  # type: ignore[return-value]


def test_the_portal_keeps_the_users_leave_where_it_can_and_is_given_the_token_again() -> None:
    from sweepbot.routes.portal import PortalSession

    bus = FakePortal(version=2)
    node, fd, token = PortalSession(bus).open("t1")  # type: ignore[arg-type]
    assert (node, fd, token) == (57, 99, "t2")
    devices = bus.options("SelectDevices")
    assert devices["persist_mode"] == ("u", 2) and devices["restore_token"] == ("s", "t1")
    assert devices["types"] == ("u", 3)  # keyboard and pointer
    assert bus.options("SelectSources")["cursor_mode"] == ("u", 1)  # the pointer is not drawn in the frames


def test_a_portal_that_keeps_no_leave_is_asked_without_a_token() -> None:
    from sweepbot.routes.portal import PortalSession

    bus = FakePortal(version=1)
    _, _, token = PortalSession(bus).open("t1")  # type: ignore[arg-type]
    assert token is None
    assert "persist_mode" not in bus.options("SelectDevices") and "restore_token" not in bus.options("SelectDevices")


def test_a_user_who_says_no_or_shares_no_pointer_gets_a_clear_refusal_and_no_input_is_sent() -> None:
    from sweepbot.routes.portal import PortalSession
    from sweepbot.routes.route import RouteError

    denied = FakePortal(version=2, answers={"Start": (1, {})})
    with pytest.raises(RouteError, match="route portal: Start: the user did not allow it"):
        PortalSession(denied).open(None)  # type: ignore[arg-type]
    watch_only = FakePortal(version=2, answers={"Start": (0, {"streams": [(57, {})], "devices": 1})})
    with pytest.raises(RouteError, match="allow remote interaction"):
        PortalSession(watch_only).open(None)  # type: ignore[arg-type]
    assert not any(method.startswith("Notify") for method, _ in denied.calls + watch_only.calls)


def test_the_restore_token_lives_beside_the_profile_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from sweepbot.routes.portal import TOKEN_FILE, token_path

    monkeypatch.setenv("SWEEPBOT_PROFILES", str(tmp_path / "store" / "profiles"))
    assert token_path() == tmp_path / "store" / TOKEN_FILE


#: A stand-in for ``gst-launch-1.0``: prints the caps line of a 640x480 BGRx stream and writes frames to the
#: pipe ``fdsink fd=N`` names until it is stopped, as pipewiresrc does while the screen changes.
FAKE_GST = """#!{python}
import os, sys, time
fd = int(next(a for a in sys.argv if a.startswith("fd=") and sys.argv[sys.argv.index(a) - 1] == "fdsink")[3:])
print("/GstPipeline:pipeline0/GstFdSink:fdsink0.GstPad:sink: caps = video/x-raw, format=(string)BGRx, "
      "width=(int)640, height=(int)480, framerate=(fraction)0/1", flush=True)
k = 0
while True:
    os.write(fd, bytes([k % 256, 1, 2, 0]) * 640 * 480)
    k += 1
"""


def test_a_pipewire_stream_gives_its_newest_frame_and_closes_without_a_reader_left_failing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the stream while its reader thread waits on the pipe ends the reader quietly: a pipe closed
    under it is the stream's end, not an error raised in a thread."""
    fake = tmp_path / "gst-launch-1.0"
    fake.write_text(FAKE_GST.format(python=sys.executable))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{Path(sys.executable).parent}:/usr/bin:/bin")
    failed: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failed.append(args.exc_value))
    frames = PipeWireFrames(42, timeout=5.0)
    frame = frames.grab()
    assert frame.shape == (480, 640, 3) and (frame[..., 1:] == (1, 2)).all()

    class Slow:
        """The pipe, read a little late: the stream is closed while the reader is between two reads."""

        def __init__(self, pipe: Any) -> None:
            self.pipe = pipe

        def readinto(self, view: memoryview) -> int:
            time.sleep(0.05)
            return int(self.pipe.readinto(view))

        def close(self) -> None:
            self.pipe.close()

    frames._pipe = Slow(frames._pipe)  # type: ignore[assignment]
    time.sleep(0.1)
    frames.close()
    time.sleep(0.3)  # the reader thread finds the pipe closed
    assert failed == []
    with pytest.raises(CaptureError, match="ended"):
        frames.grab()
