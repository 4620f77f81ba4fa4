"""Screens sweepbot cannot see or click are refused at once with a message that names the route and says what
to do: no display, a Wayland session where no route shows a board, a screen that reads all black."""

from __future__ import annotations

import numpy as np
import pytest

from sweepbot.cli import main
from sweepbot.errors import SweepbotError
from sweepbot.watch.live import check_capture


def test_a_wayland_session_without_x11_is_told_how_to_run_the_game_under_xwayland(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert main(["play", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "Wayland" in err and "GDK_BACKEND=x11" in err and "--ozone-platform=x11" in err
    assert "Traceback" not in err


def test_no_display_is_refused_before_anything_is_sent(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    assert main(["play", "--games", "1"]) == 2
    assert "DISPLAY is not set" in capsys.readouterr().err


def test_a_screen_that_reads_all_black_is_refused_naming_the_route_and_what_works(
        monkeypatch: pytest.MonkeyPatch) -> None:
    black = np.zeros((40, 60, 3), np.uint8)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    check_capture(np.full((40, 60, 3), 30, np.uint8), "x11")  # something shows: fine
    check_capture(black, "x11")  # an X11 screen may be black: it shows no board, and the reader says so
    with pytest.raises(SweepbotError, match=r"route xwayland: the screen reads all black.*QT_QPA_PLATFORM=xcb"):
        check_capture(black, "xwayland")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    with pytest.raises(SweepbotError, match=r"route x11: .*the xwayland route"):
        check_capture(black, "x11")  # in a Wayland session an X11 grab is black: the route is wrong


def test_an_unknown_route_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from sweepbot.routes.choose import open_route
    from sweepbot.routes.route import RouteError

    with pytest.raises(RouteError, match=r"unknown route 'vnc'.*xwayland"):
        open_route("vnc")


def test_under_xwayland_input_goes_to_the_x11_windows_as_under_x11(monkeypatch: pytest.MonkeyPatch) -> None:
    from sweepbot.control.device import open_device
    from sweepbot.control.errors import ControlError

    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(ControlError, match="Wayland session without X11"):
        open_device()
    monkeypatch.setenv("DISPLAY", ":597")  # Xwayland's display (none here: the X11 backend says so)
    with pytest.raises(ControlError) as err:
        open_device()
    assert "Wayland" not in str(err.value)
