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


#: A window showing a chessboard (eight by eight flat squares of 40 px, as a chess site shows one), placed at
#: x, y; it says "shown" once on screen.
CHESSBOARD = """
import sys, tkinter
x, y = sys.argv[1:3]
root = tkinter.Tk()
root.geometry(f"+{x}+{y}")
canvas = tkinter.Canvas(root, width=320, height=320, highlightthickness=0)
canvas.pack()
for r in range(8):
    for c in range(8):
        colour = "#f0d9b5" if (r + c) % 2 == 0 else "#b58863"
        canvas.create_rectangle(c * 40, r * 40, c * 40 + 40, r * 40 + 40, fill=colour, width=0)
root.update()
print("shown", flush=True)
root.mainloop()
"""


def test_plays_a_board_shown_beside_a_chessboard(tmp_path: Path, needs: Needs) -> None:
    """xdemineur with a chessboard's window beside it, the larger grid of the two: the bot finds the board
    among both (the chessboard read in vain first), plays every game and clicks nothing outside the board."""
    needs("xdemineur")
    from sweeplab.clients import launch_client
    from sweeplab.display import VirtualDisplay

    record = tmp_path / "recording"
    with VirtualDisplay() as display, launch_client(display, "xdemineur", "12x9/10"):
        chess = subprocess.Popen([sys.executable, "-c", CHESSBOARD, "600", "100"], env=dict(display.env),
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert chess.stdout is not None and chess.stdout.readline().strip() == "shown"
            result = subprocess.run(
                [sys.executable, "-m", "sweepbot", "play", "--games", "3", "--json", "--record", str(record)],
                env=dict(display.env), capture_output=True, text=True, timeout=300, check=False,
            )
        finally:
            chess.kill()
            chess.wait()
    assert result.stdout.strip(), result.stderr
    summary = json.loads(result.stdout)
    assert summary.get("games") == 3 and summary["errors"] == 0, (summary, result.stderr[-2000:])
    assert summary["wins"] + summary["losses"] == 3 and summary["refused_clicks"] == 0
    steps = [json.loads(line) for line in (record / "session.jsonl").read_text().splitlines()]
    assert steps and all(step["clicks"] for step in steps)
