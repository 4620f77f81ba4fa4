"""Faults on the virtual screen while the bot plays a real client: the window moves, closes, is covered,
or the user takes the mouse. The bot recovers or stops cleanly, and no click is refused or sent elsewhere.

Each fault is applied once the recording shows the bot is mid-game; a game that ends before that is
started again (a few attempts)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sweeplab.clients import LaunchedClient, launch_client
from sweeplab.display import VirtualDisplay
from tests.e2e.conftest import need

pytestmark = pytest.mark.e2e

LEVEL = "30x16/85"
ATTEMPTS = 6



@pytest.fixture(autouse=True)
def _xdemineur(request: pytest.FixtureRequest) -> None:
    need(request, "xdemineur")


def steps(record: Path) -> list[dict[str, object]]:
    path = record / "session.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def play_with_fault(tmp_path: Path, fault: Callable[[VirtualDisplay, LaunchedClient], None], route: str = "auto",
                    ) -> tuple[subprocess.CompletedProcess[str], list[dict[str, object]]] | None:
    """Start the bot on a fresh xdemineur game (through ``route``), apply ``fault`` mid-game, return what the bot
    said and recorded; None when every attempt's game ended before the fault could be applied."""
    for attempt in range(ATTEMPTS):
        record = tmp_path / f"attempt{attempt}"
        with VirtualDisplay() as display, launch_client(display, "xdemineur", LEVEL) as client:
            tmpdir = tmp_path / f"tmp{attempt}"  # the bot's temporary folder: left empty, whatever happens
            tmpdir.mkdir()
            proc = subprocess.Popen(
                [sys.executable, "-m", "sweepbot", "play", "--json", "--record", str(record), "--route", route],
                env=dict(display.env, TMPDIR=str(tmpdir)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            deadline = time.monotonic() + 20
            while len(steps(record)) < 2 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
            if proc.poll() is not None:
                proc.communicate()
                continue  # the game ended first: try another
            fault(display, client)
            out, err = proc.communicate(timeout=60)
        assert list(tmpdir.iterdir()) == [], "the bot left files in its temporary folder"
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), steps(record)
    return None


def xdotool(display: VirtualDisplay, *args: str) -> None:
    subprocess.run(["xdotool", *args], env=dict(display.env), check=True, timeout=10)


def test_window_moved_mid_game_is_found_again(tmp_path: Path) -> None:
    def move(display: VirtualDisplay, client: LaunchedClient) -> None:
        xdotool(display, "windowmove", str(client.wid), "400", "300")

    outcome = play_with_fault(tmp_path, move)
    assert outcome is not None, "every game ended before the window could be moved"
    result, recorded = outcome
    summary = json.loads(result.stdout)
    assert summary["refused_clicks"] == 0 and "Traceback" not in result.stderr
    lefts = {step["x_edges"][0] for step in recorded}  # type: ignore[index]
    assert summary["errors"] == 0 and summary["wins"] + summary["losses"] == 1, summary
    assert len(lefts) >= 2 or len(recorded) <= 2, "the bot never read the board at its new place"


def test_window_closed_mid_game_stops_the_bot_cleanly(tmp_path: Path) -> None:
    def close(display: VirtualDisplay, client: LaunchedClient) -> None:
        client.proc.kill()

    outcome = play_with_fault(tmp_path, close)
    assert outcome is not None
    result, recorded = outcome
    summary = json.loads(result.stdout)
    assert result.returncode == 1 and summary["errors"] == 1 and summary["refused_clicks"] == 0
    assert summary["error"] == summary["messages"][0] and recorded, "the recording folder was not kept"
    assert "Traceback" not in result.stderr and "makes no sense" in summary["messages"][0]


def test_a_window_over_the_board_stops_the_bot_cleanly(tmp_path: Path) -> None:
    def cover(display: VirtualDisplay, client: LaunchedClient) -> None:
        rect = client.board_rect()
        subprocess.Popen(["xmessage", "-geometry", f"{rect.w}x{rect.h}+{rect.x}+{rect.y}", "in the way"],
                         env=dict(display.env))
        time.sleep(0.3)

    outcome = play_with_fault(tmp_path, cover)
    assert outcome is not None
    result, recorded = outcome
    assert "Traceback" not in result.stderr
    summary = json.loads(result.stdout)
    assert summary["refused_clicks"] == 0 and recorded
    # covered before the bot's next read: it stops; covered too late: the game was already over
    assert summary["errors"] == 1 or summary["wins"] + summary["losses"] == 1


def test_the_display_going_away_stops_the_bot_cleanly(tmp_path: Path) -> None:
    def kill_display(display: VirtualDisplay, client: LaunchedClient) -> None:
        assert display._xvfb is not None
        display._xvfb.kill()

    outcome = play_with_fault(tmp_path, kill_display)
    assert outcome is not None
    result, recorded = outcome
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr, result.stderr[-1500:]
    assert "display" in result.stderr.splitlines()[-1] or "grab" in result.stderr.splitlines()[-1]
    assert recorded, "the recording folder was not kept"


@pytest.mark.parametrize("route", ["auto", "pyautogui"])
def test_the_user_moving_the_mouse_stops_the_bot_at_once(route: str, tmp_path: Path) -> None:
    """Through XTEST (the X11 route) and through pyautogui (the route of other platforms, here on X11)."""
    def grab_mouse(display: VirtualDisplay, client: LaunchedClient) -> None:
        # a hand on the mouse moves it along a path, not in one jump (one jump could land while the bot's
        # own click is moving the pointer, and be overridden by it)
        path: list[str] = []
        for step in range(6):
            path += ["mousemove", str(640 + 10 * step), str(900 - 10 * step), "sleep", "0.03"]
        xdotool(display, *path)

    outcome = play_with_fault(tmp_path, grab_mouse, route)
    assert outcome is not None
    result, recorded = outcome
    assert result.returncode == 3, (result.stdout, result.stderr[-1500:])
    assert "the mouse moved" in result.stderr and "Traceback" not in result.stderr
    answer = json.loads(result.stdout)  # --json answers even when the bot stops
    assert "the mouse moved" in answer["error"] and answer["games"] == len(answer["per_game"]) == 0
    assert answer["refused_clicks"] == 0 and recorded, "the recording folder was not kept"


def test_play_with_no_game_on_screen_answers_and_leaves_nothing_behind(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with VirtualDisplay() as display:
        env = dict(display.env, TMPDIR=str(tmpdir))
        result = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--json"], env=env, capture_output=True,
                                text=True, timeout=60, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    answer = json.loads(result.stdout)
    assert "no board" in answer["error"] and answer["error"] in result.stderr
    assert list(tmpdir.iterdir()) == []
