"""End to end: real clients on a virtual screen, played by `sweepbot play` as a user would run it.

Each test starts Xvfb and a client (scripts/install-clients installs them; the test script runs it), lets
the bot play a few games at beginner size, and checks that every game finished, no click was refused or
sent outside the board, no read failed, and at least one game was won.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import Needs

pytestmark = pytest.mark.e2e

GAMES = 6

CASES = [
    ("xdemineur", "12x9/10", True),  # xdemineur needs 12 columns at least: the nearest to 9x9/10
    ("gnome-mines", "small", True),  # 8x8/10
    ("xdemineur", "12x9/10", False),  # a screen with no window manager at all
]


@pytest.mark.parametrize(("client", "level", "window_manager"), CASES,
                         ids=[c + ("" if wm else "-no-window-manager") for c, _, wm in CASES])
def test_plays_real_client_games_to_the_end(client: str, level: str, window_manager: bool, tmp_path: Path,
                                            needs: Needs) -> None:
    needs(client)
    from sweeplab.clients import launch_client
    from sweeplab.display import VirtualDisplay

    record = tmp_path / "recording"
    with VirtualDisplay(window_manager=window_manager) as display, launch_client(display, client, level):
        result = subprocess.run(
            [sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json", "--record", str(record)],
            env=dict(display.env), capture_output=True, text=True, timeout=300, check=False,
        )
    assert result.stdout.strip(), result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary["messages"], summary, result.stderr[-2000:])
    assert summary["wins"] + summary["losses"] == GAMES
    assert summary["refused_clicks"] == 0
    assert summary["wins"] >= 1, summary
    steps = [json.loads(line) for line in (record / "session.jsonl").read_text().splitlines()]
    assert steps and all(step["clicks"] for step in steps)
    replayed = subprocess.run([sys.executable, "-m", "sweepbot", "replay", str(record), "--json"],
                              capture_output=True, text=True, timeout=300, check=False)
    assert replayed.stdout.strip(), replayed.stderr[-2000:]
    assert json.loads(replayed.stdout)["read_differences"] == [], replayed.stdout
