"""End to end: docs/api.md's "Play the game on screen" example, run as written (a Python program that imports
only sweepbot) on a virtual screen with xdemineur open."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import Needs
from tests.unit.test_api import example

pytestmark = pytest.mark.e2e


def test_the_play_example_of_the_docs_plays_three_games_of_a_real_client(tmp_path: Path, needs: Needs) -> None:
    needs("xdemineur")
    from sweeplab.clients import launch_client
    from sweeplab.display import VirtualDisplay

    with VirtualDisplay() as display, launch_client(display, "xdemineur", "12x9/10"):
        # the session's error messages, to tell what went wrong when a game ends in one
        shown = "\nimport sys\nprint(summary.messages, file=sys.stderr)\n"
        program = "import sweepbot\n" + example("Play the game on screen") + shown
        result = subprocess.run([sys.executable, "-c", program],
                                env=dict(display.env), cwd=tmp_path, capture_output=True, text=True, timeout=300,
                                check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    wins, losses, errors = map(int, result.stdout.split())
    assert (wins + losses, errors) == (3, 0), result.stderr[-2000:]
    assert (tmp_path / "run1" / "session.jsonl").is_file()
