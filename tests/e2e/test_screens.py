"""End to end: screens as users have them. A game on the second of two monitors side by side, which mss and
the window manager see as two."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import mss
import pytest

from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay
from tests.e2e.conftest import Needs

pytestmark = pytest.mark.e2e

GAMES = 3


def test_a_game_on_the_second_monitor_is_played_there(tmp_path: Path, needs: Needs) -> None:
    needs("xdemineur")
    width, height = screen_for("xdemineur", "intermediate")
    record = tmp_path / "record"
    with VirtualDisplay(width, height, monitors=2) as display, launch_client(
            display, "xdemineur", "intermediate") as client:
        with mss.MSS(display=display.name) as grabber:
            shown = [(m["left"], m["top"], m["width"], m["height"]) for m in grabber.monitors]
        assert shown == [(0, 0, 2 * width, height), display.monitor_rect(0), display.monitor_rect(1)]
        left = display.monitor_rect(1)[0]
        subprocess.run(["xdotool", "windowmove", str(client.wid), str(left + 30), "10"], env=display.env,
                       check=True, timeout=10)
        deadline = time.monotonic() + 10
        while client.window_geometry().x < left and time.monotonic() < deadline:
            time.sleep(0.05)
        assert client.window_geometry().x >= left, "the window did not move to the second monitor"
        env = dict(display.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json", "--record",
                               str(record)], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.stdout.strip(), done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary, done.stderr[-2000:])
    assert summary["refused_clicks"] == 0
    steps = [json.loads(line) for line in (record / "session.jsonl").read_text().splitlines() if line.strip()]
    assert steps and all(step["x_edges"][0] >= left for step in steps)  # the board read on the second monitor


@pytest.mark.parametrize(("manager", "binary"), [("mutter", "mutter"), ("kwin", "kwin_x11")])
def test_a_game_under_the_window_manager_of_gnome_or_kde_on_x11_plays_with_no_error(
        manager: str, binary: str, tmp_path: Path, needs: Needs) -> None:
    """mutter --x11, as "GNOME on Xorg" runs it, composites the screen, and what it shows of a window can lag
    behind what the window drew (opened cells left drawn covered until something else repaints them); KWin
    composites too. The bot reads the windows' own pixels there, and plays expert games with no error."""
    needs("xdemineur")
    if shutil.which(binary) is None:
        pytest.fail(f"{binary} not installed: run scripts/install-clients")
    record = tmp_path / "record"
    with VirtualDisplay(*screen_for("xdemineur", "expert"), window_manager=manager) as display, launch_client(
            display, "xdemineur", "expert"):
        env = dict(display.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json", "--record",
                               str(record)], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.stdout.strip(), done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary, done.stderr[-2000:])
    assert summary["refused_clicks"] == 0 and summary["route"] == "x11"
    replayed = subprocess.run([sys.executable, "-m", "sweepbot", "replay", str(record), "--json"], env=env,
                              capture_output=True, text=True, timeout=600, check=False)
    assert json.loads(replayed.stdout)["read_differences"] == [], replayed.stdout[-2000:]


def test_the_route_of_other_platforms_pyautogui_plays_games_here_on_x11(tmp_path: Path, needs: Needs) -> None:
    """mss grabs and pyautogui input, the route sweepbot takes on Windows and macOS; pyautogui sends its input
    through its own Xlib backend on X11, so the route runs end to end here."""
    needs("xdemineur")
    record = tmp_path / "record"
    with VirtualDisplay(*screen_for("xdemineur", "intermediate")) as display, launch_client(
            display, "xdemineur", "intermediate"):
        env = dict(display.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json", "--record",
                               str(record), "--route", "pyautogui"], env=env, capture_output=True, text=True,
                              timeout=600, check=False)
    assert done.stdout.strip(), done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["route"] == "pyautogui"
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary, done.stderr[-2000:])
    assert summary["refused_clicks"] == 0 and summary["clicks"] > GAMES


def test_keys_go_by_the_window_that_has_the_focus(needs: Needs) -> None:
    """The X11 device tells the game's own window from a browser's and from another window that has taken the
    focus (a dialog of another program): the game's shortcuts go to the first only, nothing to the last."""
    needs("xdemineur")
    from sweepbot.control.device import open_device
    from sweepbot.control.keys import GAME_WINDOW
    from sweepbot.control.x11 import XTestDevice
    from sweeplab import xtools

    with VirtualDisplay() as display, launch_client(display, "xdemineur", "intermediate") as client, \
            display.exported():
        device = open_device()
        assert isinstance(device, XTestDevice)
        x, y = client.cell_center(3, 3)
        assert device.focus_of(x, y) == GAME_WINDOW
        other = subprocess.Popen(["xmessage", "-name", "sweepbot-other", "-center", "another program"],
                                 env=display.env)
        try:
            deadline = time.monotonic() + 10
            while not xtools.search_windows(display.env, name="sweepbot-other") and time.monotonic() < deadline:
                time.sleep(0.05)
            xtools.activate(display.env, xtools.search_windows(display.env, name="sweepbot-other")[0])
            deadline = time.monotonic() + 5
            while device.focus_of(x, y) == GAME_WINDOW and time.monotonic() < deadline:
                time.sleep(0.05)
            assert device.focus_of(x, y) not in (GAME_WINDOW, "browser", None)
        finally:
            other.terminate()
            other.wait()
            device.close()


def test_a_dialog_the_game_opened_is_the_games_own_window_for_keys(needs: Needs) -> None:
    """A generated client (seed 8, a Tk window) opens a dialog when a game ends, and the dialog takes the focus:
    it is the game's own (the same program), so the game's keys may go to it, and it is told from the board's
    own window (an Escape pressed there goes to the dialog, not to the game)."""
    from sweepbot.control.device import open_device
    from sweepbot.control.keys import GAME_DIALOG, GAME_WINDOW, is_command
    from sweeplab.clients.generated import GeneratedClient

    with VirtualDisplay() as display, launch_client(display, "generated-8", seed="1") as client, \
            display.exported():
        spec = client.spec
        assert isinstance(spec, GeneratedClient) and spec.make.manners.new_game == "dialog"
        device = open_device()
        centre = client.cell_center(4, 4)
        cells = [(r, c) for r in range(client.size.rows) for c in range(client.size.cols)]
        for cell in cells:  # click on until the game is lost (or won)
            client.click_cell(*cell, settle=False)
            time.sleep(0.05)
            if spec.truth(client)["state"] in ("won", "lost"):
                break
        from sweeplab import xtools

        deadline = time.monotonic() + 10
        while not xtools.search_windows(display.env, name="^Game over$") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert xtools.search_windows(display.env, name="^Game over$"), "no dialog opened"
        time.sleep(0.5)
        assert device.focus_of(*centre) == GAME_DIALOG
        assert not is_command(["ctrl", "n"], GAME_DIALOG) and not is_command(["ctrl", "n"], GAME_WINDOW)
