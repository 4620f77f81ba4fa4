"""Screens sweepbot cannot see or click are refused at once with a message that says what to do: no display, a
Wayland session without X11, a Wayland screen that reads black (a native Wayland window)."""

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


def test_a_black_screen_under_wayland_is_a_native_window_not_a_board(monkeypatch: pytest.MonkeyPatch) -> None:
    black = np.zeros((40, 60, 3), np.uint8)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    check_capture(black)  # an X11 screen may be black: nothing to refuse there
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    check_capture(np.full((40, 60, 3), 30, np.uint8))  # Xwayland windows show: fine
    with pytest.raises(SweepbotError, match="QT_QPA_PLATFORM=xcb"):
        check_capture(black)


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
