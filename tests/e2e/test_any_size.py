"""End to end: gnome-mines drawn at sizes no profile was made at, played by `sweepbot play` with the built-in
profiles only, and a window resized in play, followed to its new size."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sweepbot import Board, solve
from sweepbot.board import OPENED
from sweeplab import xtools
from sweeplab.clients import launch_client, screen_for
from sweeplab.display import VirtualDisplay
from tests.e2e.conftest import Needs

pytestmark = pytest.mark.e2e

GAMES = 3


def answer(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.stdout.strip(), done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def read_and_lost_on_guesses(record: Path, results: list[str]) -> None:
    """Every board play read (``record``'s steps) holds no open cell of unknown number, and every game lost
    (``results``, game by game) went off on a guess: its last board, solved again, gives a cell clicked a mine
    probability over 0 (a game lost on a click the board called safe was read wrongly)."""
    steps = [json.loads(line) for line in (record / "session.jsonl").read_text(encoding="utf-8").splitlines()]
    assert not [step["frame"] for step in steps if OPENED in "".join(step["board"])]
    for game, result in enumerate(results):
        if result != "lost":
            continue
        last = [step for step in steps if step["game"] == game][-1]
        analysis = solve(Board(tuple(last["board"]), last.get("mines")), last.get("mines"))
        risks = [analysis.probabilities.get((r, c), 0.0) for r, c in last["clicks"]]
        assert max(risks) > 0, (game, last["frame"], last["clicks"])


def replayed_clean(record: Path, env: dict[str, str]) -> None:
    """Every recorded frame reads again as play read it, with the profile play read it with."""
    done = subprocess.run([sys.executable, "-m", "sweepbot", "replay", str(record), "--json"], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert answer(done)["read_differences"] == [], done.stdout[-2000:]


@pytest.mark.parametrize(("level", "scale"), [("small", 1.3), ("medium", 0.8)], ids=["small-1.3x", "medium-0.8x"])
def test_gnome_mines_in_a_window_of_a_size_no_profile_was_made_at_plays(level: str, scale: float, tmp_path: Path,
                                                                        needs: Needs) -> None:
    needs("gnome-mines")
    record = tmp_path / "record"
    with VirtualDisplay(*screen_for("gnome-mines", level, scale)) as display, launch_client(
            display, "gnome-mines", level, scale=scale):
        env = dict(display.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json", "--record",
                               str(record)], env=env, capture_output=True, text=True, timeout=600, check=False)
    summary = answer(done)
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary, done.stderr[-2000:])
    assert summary["wins"] + summary["losses"] == GAMES and summary["refused_clicks"] == 0  # type: ignore[operator]
    # its numbers read, not played blind, and no game lost but on a guess
    read_and_lost_on_guesses(record, [game["result"] for game in summary["per_game"]])  # type: ignore[attr-defined]
    replayed_clean(record, env)


def test_a_window_resized_in_play_is_followed_to_its_new_size(tmp_path: Path, needs: Needs) -> None:
    """gnome-mines's window is made larger while the bot plays its second game: its tiles grow with it, and
    the bot finds the board again, reads it at the new size and plays on, with no error."""
    needs("gnome-mines")
    record = tmp_path / "record"
    with VirtualDisplay(*screen_for("gnome-mines", "small", 1.5)) as display, launch_client(
            display, "gnome-mines", "small") as client:
        env = dict(display.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        proc = subprocess.Popen([sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json",
                                 "--record", str(record)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline and not any(
                step["game"] >= 1 for step in steps(record)):
            time.sleep(0.01)
        assert proc.poll() is None, "the bot stopped before its second game"
        rect = client.window_geometry()
        subprocess.run(["xdotool", "windowsize", str(client.wid), str(round(rect.w * 1.4)), str(round(rect.h * 1.4))],
                       env=dict(display.env), check=True, timeout=10)
        out, err = proc.communicate(timeout=600)
    summary = json.loads(out) if out.strip() else {"error": err[-2000:]}
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary, err[-2000:])
    pitches = {round(step["x_edges"][1] - step["x_edges"][0]) for step in steps(record)}
    assert len(pitches) >= 2, pitches  # it played at both sizes


def steps(record: Path) -> list[dict[str, object]]:
    path = record / "session.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_pointer_resting_on_a_board_drawn_at_a_new_size_is_moved_off_it_before_the_first_read(
        tmp_path: Path, needs: Needs) -> None:
    """gnome-mines lights the tile under the pointer, as it rests there when a user starts sweepbot from a
    terminal beside the game: the pointer is moved off the board before the board is first read."""
    needs("gnome-mines")
    record = tmp_path / "record"
    with VirtualDisplay(*screen_for("gnome-mines", "big", 0.95)) as display, launch_client(
            display, "gnome-mines", "big", scale=0.95) as client:
        xtools.move_pointer(client.env, *client.cell_center(7, 12))
        env = dict(display.env, SWEEPBOT_PROFILES=str(tmp_path / "profiles"))
        done = subprocess.run([sys.executable, "-m", "sweepbot", "play", "--games", "1", "--json", "--record",
                               str(record)], env=env, capture_output=True, text=True, timeout=600, check=False)
    summary = answer(done)
    assert summary["games"] == 1 and summary["errors"] == 0, (summary, done.stderr[-2000:])
    replayed_clean(record, env)
