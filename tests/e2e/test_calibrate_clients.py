"""End to end: a client sweepbot has no profile for, met as a user meets it. From an empty profile store with
the built-in profiles hidden, `sweepbot calibrate --live --client NAME --yes` learns it on a virtual screen
under openbox's stock settings, then `sweepbot play` plays it with what was learnt: every game ends in a win
or a loss, and the names the game proved read the boards of those games. The web page, calibrated at 100 %, is
then played at 150 % zoom with what was learnt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sweeplab.clients import screen_for
from tests.e2e.conftest import Needs

pytestmark = pytest.mark.e2e

GAMES = 4

#: clients that have no built-in profile, at their default size: a Windows-style desktop game, one whose
#: columns widen in play, and a web page in Chromium
CLIENTS = ["pygame-minesweeper", "mfranceschi-minesweeper", "nicegui-minesweeper"]


@pytest.mark.parametrize("client", CLIENTS)
def test_a_client_never_seen_is_calibrated_live_then_played(client: str, tmp_path: Path, needs: Needs) -> None:
    needs(client)
    from sweeplab.clients import launch_client
    from sweeplab.display import VirtualDisplay

    profiles, record = tmp_path / "profiles", tmp_path / "recording"
    with VirtualDisplay(*screen_for(client)) as display, launch_client(display, client):
        env = dict(display.env, SWEEPBOT_PROFILES=str(profiles), SWEEPBOT_NO_BUILTIN="1")
        calibrated = subprocess.run(
            [sys.executable, "-m", "sweepbot", "calibrate", "--live", "--client", client, "--yes"],
            env=env, capture_output=True, text=True, timeout=600, check=False)
        assert calibrated.returncode == 0, calibrated.stderr[-3000:]
        saved = [p for p in profiles.iterdir() if (p / "profile.json").is_file()]
        assert len(saved) == 1 and (profiles / f"{saved[0].name}-looks.png").is_file()
        summary = played(env, record)
    assert summary["wins"] >= 1, summary  # type: ignore[operator]
    if client == "nicegui-minesweeper":
        zoomed_page_plays(tmp_path, profiles)


def played(env: dict[str, str], record: Path) -> dict[str, object]:
    """`sweepbot play --games GAMES --record RECORD` on the screen of ``env``: every game ended in a win or a
    loss, with no error and no click refused; its summary."""
    result = subprocess.run(
        [sys.executable, "-m", "sweepbot", "play", "--games", str(GAMES), "--json", "--record", str(record)],
        env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.stdout.strip(), result.stderr[-2000:]
    summary: dict[str, object] = json.loads(result.stdout)
    assert summary["games"] == GAMES and summary["errors"] == 0, (summary, result.stderr[-2000:])
    assert summary["wins"] + summary["losses"] == GAMES and summary["refused_clicks"] == 0  # type: ignore[operator]
    return summary


#: A page's zoom no profile was made at (a user's browser zoom).
ZOOM = 1.5


def zoomed_page_plays(tmp_path: Path, profiles: Path) -> None:
    """The same page at 150 % zoom is played with what was learnt at 100 %: its looks drawn at the board's
    size, no error, and every recorded frame read again as play read it."""
    from sweeplab.clients import launch_client
    from sweeplab.display import VirtualDisplay

    client, record = "nicegui-minesweeper", tmp_path / "zoomed"
    with VirtualDisplay(*screen_for(client, None, ZOOM)) as display, launch_client(display, client, zoom=ZOOM):
        env = dict(display.env, SWEEPBOT_PROFILES=str(profiles), SWEEPBOT_NO_BUILTIN="1")
        played(env, record)
    steps = [json.loads(line) for line in (record / "session.jsonl").read_text().splitlines()]
    pitch = steps[0]["x_edges"][1] - steps[0]["x_edges"][0]
    assert pitch > 50, pitch  # 40 CSS px cells drawn at 60
    replayed = subprocess.run([sys.executable, "-m", "sweepbot", "replay", str(record), "--json"], env=env,
                              capture_output=True, text=True, timeout=600, check=False)
    assert json.loads(replayed.stdout)["read_differences"] == [], replayed.stdout[-2000:]
