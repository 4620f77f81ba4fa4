"""End to end: generated clients (sweeplab/generated) met as a new user meets a client. From an empty
profile store with the built-in profiles hidden, `sweepbot calibrate --live --client generated-SEED --yes`
learns the client on a virtual screen under openbox's stock settings; no look it names is another look (held
against the seed's own truth); `sweepbot play` then plays games with what was learnt, every game ending in a
win or a loss. Seeds for the ways of starting a new game that calibration finds (a key, a button near the
board or far from it among others), a client that takes a press only when it is held, dark clients whose
open cells are near black; and the pointer resting on a tile the client lights."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from sweepbot.calibration.truth import misnamed_in_store
from sweeplab import xtools
from sweeplab.clients import launch_client
from sweeplab.clients.generated import GeneratedClient
from sweeplab.display import VirtualDisplay
from sweeplab.generated.tiles import truth_sheet
from tests.e2e.conftest import Needs

pytestmark = pytest.mark.e2e

GAMES = 3

#: seed: how the client starts a new game, its kind, its palette, the seconds a press must be held
#: (spec.make_up; checked against the seed): a key on a page, buttons near and far from the board, a client
#: that takes only a held press, and dark clients whose open cells are near black (30 of 255)
CASES = {
    31: ("key", "page", "dark", 0.0),
    28: ("button-near", "window", "coloured", 0.0),
    4: ("button-near", "window", "dark", 0.0),
    2: ("button-far", "window", "light", 0.0),
    200: ("button-far", "window", "light", 0.08),
}


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sweepbot", *args], env=env, capture_output=True, text=True,
                          timeout=900, check=False)


def calibrated(env: dict[str, str], name: str, store: Path) -> None:
    """`sweepbot calibrate --live --client NAME --yes` into an empty ``store``: one profile, its looks sheet."""
    done = run(["calibrate", "--live", "--client", name, "--yes"], env)
    assert done.returncode == 0, done.stderr[-3000:]
    saved = [p for p in store.iterdir() if (p / "profile.json").is_file()]
    assert len(saved) == 1 and (store / f"{saved[0].name}-looks.png").is_file()


def played(env: dict[str, str], games: int) -> None:
    """`sweepbot play --games GAMES`: every game ended in a win or a loss, with no error."""
    done = run(["play", "--games", str(games), "--json"], env)
    assert done.stdout.strip(), done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["games"] == games and summary["errors"] == 0, (summary, done.stderr[-2000:])
    assert summary["wins"] + summary["losses"] == games


@pytest.mark.parametrize("seed", list(CASES), ids=[f"{CASES[s][0]}-{s}" for s in CASES])
def test_a_generated_client_is_calibrated_with_every_name_right_then_played(seed: int, tmp_path: Path,
                                                                          needs: Needs) -> None:
    name = f"generated-{seed}"
    spec = GeneratedClient(seed)
    needs(name)
    way, kind, scheme, hold = CASES[seed]
    manners = spec.make.manners
    assert (manners.new_game, spec.make.kind, spec.make.palette.scheme, manners.hold) == (way, kind, scheme, hold)
    store = tmp_path / "profiles"
    with VirtualDisplay() as display, launch_client(display, name, seed=str(seed)):
        env = dict(display.env, SWEEPBOT_PROFILES=str(store), SWEEPBOT_NO_BUILTIN="1")
        calibrated(env, name, store)
        image, xs, ys, truth = truth_sheet(spec.make)
        wrong, named = misnamed_in_store(cv2.cvtColor(image, cv2.COLOR_RGB2BGR), xs, ys, truth, store)
        assert wrong == [] and named >= 6, (wrong, named)
        played(env, GAMES)


def test_a_pointer_resting_on_a_generated_board_that_lights_the_tile_under_it_never_fails_the_read(
        tmp_path: Path, needs: Needs) -> None:
    """A client that lights the tile under the pointer, calibrated, then played with the pointer resting on
    its board (as when a user starts sweepbot from a terminal beside the game): the pointer is moved off the
    board before the first read, and the games play."""
    seed = 2
    needs(f"generated-{seed}")
    spec = GeneratedClient(seed)
    assert spec.make.tiles.hover == "lit"
    name, store = f"generated-{seed}", tmp_path / "profiles"
    with VirtualDisplay() as display:
        env = dict(display.env, SWEEPBOT_PROFILES=str(store), SWEEPBOT_NO_BUILTIN="1")
        with launch_client(display, name, seed=str(seed)):
            calibrated(env, name, store)
        with launch_client(display, name, seed=str(seed + 1)) as client:
            xtools.move_pointer(client.env, *client.cell_center(4, 4))
            played(env, 2)
