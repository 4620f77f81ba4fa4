"""End to end: Wayland desktops as users run them, each started headless by the test (``sweeplab.wayland``)
and stopped with everything it started.

An X11 client under Xwayland plays on GNOME (mutter 43), KDE (KWin 5.27) and sway (1.7) through the route that
reads the game's own window; gnome-mines as a native Wayland window plays through GNOME's remote-desktop
interfaces; the desktop portal's dialog, answered as a user answers it, lets the bot play; a desktop where no
route shows a board is refused with every route named. Every game is recorded and replayed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from sweeplab.wayland import SessionClient, WaylandSession, start_client
from tests.e2e.conftest import Needs

pytestmark = pytest.mark.e2e

GAMES = 3
#: seconds a client may take to show its board on a fresh desktop
BOARD_TIMEOUT = 30.0


@pytest.fixture
def needs_desktop(request: pytest.FixtureRequest, needs: Needs) -> Callable[[str, str], None]:
    """``needs_desktop(compositor, client)``: fail (``--full``) or skip unless the desktop and client are there."""

    def check(compositor: str, client: str) -> None:
        needs(client)
        binary = {"gnome": "mutter", "kde": "kwin_wayland", "sway": "sway"}[compositor]
        if shutil.which(binary) is None or shutil.which("Xwayland") is None:
            reason = f"{binary} or Xwayland not installed: run scripts/install-clients"
            if request.config.getoption("full"):
                pytest.fail(reason)
            pytest.skip(reason)

    return check


@contextmanager
def environment(env: dict[str, str]) -> Iterator[None]:
    """This process seeing the desktop of ``env`` for a while (to look at its screen as the bot will)."""
    keys = ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS",
            "XDG_SESSION_TYPE")
    saved = {key: os.environ.get(key) for key in keys}
    try:
        for key in keys:
            if key in env:
                os.environ[key] = env[key]
            else:
                os.environ.pop(key, None)
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def board_shows(client: SessionClient, route: str) -> np.ndarray:
    """Wait until ``route`` shows a board on the client's desktop; the frame that shows it."""
    from sweepbot.routes.choose import open_route, shows_board

    with environment(client.env):
        opened = open_route(route)
        try:
            deadline = time.monotonic() + BOARD_TIMEOUT
            while True:
                assert client.running(), client.log()
                frame = opened.source.grab()
                if shows_board(frame):
                    return frame
                assert time.monotonic() < deadline, f"no board within {BOARD_TIMEOUT:.0f} s: {client.log()}"
                time.sleep(0.2)
        finally:
            opened.close()


def play(env: dict[str, str], record: Path, *args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--json", "--record", str(record), *args],
                          env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.stdout.strip(), done.stderr[-2000:]
    summary: dict[str, object] = json.loads(done.stdout)
    summary["stderr"] = done.stderr[-2000:]
    return summary


def played_clean(summary: dict[str, object], games: int, record: Path, env: dict[str, str]) -> None:
    """``games`` games with no error and no refused click, every frame read again as play read it."""
    assert summary["games"] == games and summary["errors"] == 0, (
        f"{summary['games']} games, {summary['errors']} errors: {summary.get('messages')}\n{summary['stderr']}")
    assert summary["refused_clicks"] == 0, summary
    replayed = subprocess.run([sys.executable, "-m", "sweepbot", "replay", str(record), "--json"], env=env,
                              capture_output=True, text=True, timeout=600, check=False)
    assert replayed.stdout.strip(), replayed.stderr[-2000:]
    assert json.loads(replayed.stdout)["read_differences"] == [], replayed.stdout[-2000:]


@pytest.mark.parametrize("compositor", ["gnome", "kde", "sway"])
def test_an_x11_game_under_xwayland_plays_on_a_wayland_desktop(compositor: str, tmp_path: Path,
                                                                needs_desktop: Callable[[str, str], None]) -> None:
    """The X server draws no screen of its own there: the bot reads the game's X11 window from its pixels and
    clicks it through XTEST, as under X11."""
    needs_desktop(compositor, "xdemineur")
    record = tmp_path / "record"
    with WaylandSession(compositor) as session, start_client(session, "xdemineur", "expert") as client:
        board_shows(client, "xwayland")
        env = dict(client.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        summary = play(env, record, "--games", str(GAMES))
    assert summary["route"] == "xwayland"
    played_clean(summary, GAMES, record, env)


def test_gnome_mines_as_a_native_wayland_window_plays_through_gnomes_remote_desktop(
        tmp_path: Path, needs_desktop: Callable[[str, str], None]) -> None:
    """gnome-mines drawn by GTK straight to the compositor (no X11 window at all): frames over PipeWire, input
    through mutter; its scores dialog after a win is closed, and its "Play Again" button, set in the desktop's
    own font, is found where calibration saw it."""
    needs_desktop("gnome", "gnome-mines")
    record = tmp_path / "record"
    with WaylandSession("gnome") as session, start_client(session, "gnome-mines", "big", native=True) as client:
        board_shows(client, "mutter")
        env = dict(client.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        summary = play(env, record, "--route", "mutter", "--games", str(GAMES))
    assert summary["route"] == "mutter"
    played_clean(summary, GAMES, record, env)


def answer_the_portal(client: SessionClient, wait: float = 30.0) -> None:
    """Do what a user does with GNOME's remote-desktop dialog (xdg-desktop-portal-gnome 43): turn on "Allow
    remote interaction" and press the blue Share button. The dialog is a native window: it is seen and clicked
    through mutter's own interfaces, as the test's hand."""
    from sweepbot.routes.mutter import open_mutter

    with environment(client.env):
        route = open_mutter()
        try:
            deadline = time.monotonic() + wait
            while True:
                frame = route.source.grab().astype(int)
                blue = (abs(frame[:, :, 0] - 228) < 12) & (abs(frame[:, :, 1] - 132) < 12) & (
                    abs(frame[:, :, 2] - 53) < 12)
                if blue.sum() > 500:
                    break
                assert time.monotonic() < deadline, "the portal's dialog did not show"
                time.sleep(0.2)
            ys, xs = np.nonzero(blue)
            share = (int(xs.mean()), int(ys.mean()))
            device = route.open_device()
            # the row of the switch, in the dialog's layout: left of and below the Share button
            device.click(share[0] - 337, share[1] + 198, "left")
            time.sleep(0.5)
            device.click(*share, "left")
        finally:
            route.close()


def test_the_portal_asks_the_user_once_and_their_answer_lets_the_bot_play(
        tmp_path: Path, needs_desktop: Callable[[str, str], None]) -> None:
    needs_desktop("gnome", "xdemineur")
    if shutil.which("/usr/libexec/xdg-desktop-portal-gnome") is None:
        pytest.fail("xdg-desktop-portal-gnome not installed: run scripts/install-clients")
    record = tmp_path / "record"
    with WaylandSession("gnome") as session, start_client(session, "xdemineur", "intermediate") as client:
        board_shows(client, "xwayland")
        env = dict(client.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        bot = subprocess.Popen([sys.executable, "-m", "sweepbot", "play", "--json", "--route", "portal", "--games",
                                "1", "--record", str(record)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        try:
            answer_the_portal(client)
            out, err = bot.communicate(timeout=300)
        finally:
            bot.kill()
    assert out.strip(), err[-2000:]
    summary = json.loads(out)
    assert summary["route"] == "portal"
    played_clean(summary, 1, record, env)


def test_a_wayland_desktop_where_no_route_shows_a_board_is_refused_naming_each_route(
        tmp_path: Path, needs_desktop: Callable[[str, str], None]) -> None:
    """KDE with no game open: no X11 window shows a board, the portal has no remote desktop there, and GNOME's
    interfaces are not on its bus. Every route is named with what it saw; nothing is clicked."""
    needs_desktop("kde", "xdemineur")
    with WaylandSession("kde") as session:
        env = dict(session.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", "1"], env=env,
                              capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    message = done.stderr
    assert "no Minesweeper board is seen on this Wayland desktop" in message
    assert "xwayland:" in message and "portal:" in message and "mutter:" in message, message
    assert "Traceback" not in message


@pytest.mark.parametrize("compositor", ["gnome", "kde", "sway"])
def test_a_desktop_ends_every_process_it_started_and_no_other(compositor: str,
                                                              needs_desktop: Callable[[str, str], None]) -> None:
    """What a desktop starts carries its mark, those a compositor runs in sessions of their own too (sway's
    commands): all of it ends with the desktop, and a process started beside it goes on."""
    from sweeplab import procs
    from sweeplab.wayland import MARK

    needs_desktop(compositor, "xdemineur")
    beside = subprocess.Popen(["sleep", "60"])
    try:
        session = WaylandSession(compositor).start()
        home = session.folder
        started = procs.marked(MARK, home)
        assert len(started) >= 3, started  # the bus, the compositor, Xwayland, its command...
        session.stop()
        assert procs.marked(MARK, home) == []
        assert beside.poll() is None
    finally:
        beside.kill()
