"""Calibrating, playing and every command read boards with numpy's matrix products on one thread, and give the
caller's setting back after (``sweepbot.threads``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import sweepbot
from sweepbot import solver
from sweepbot.cli import main
from sweepbot.vision import decide
from tests.tile_client import TileClient

#: a caller's own setting: any count of threads but one
CALLERS = 3


def blas_threads() -> set[int]:
    return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}


def counting_threads(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[set[int]]:
    """Each call of ``module.name``, by whichever of sweepbot's modules imported it, notes the BLAS threads it
    ran with."""
    seen: list[set[int]] = []
    real = getattr(module, name)

    def noted(*args: Any, **kwargs: Any) -> Any:
        seen.append(blas_threads())
        return real(*args, **kwargs)

    for holder in [m for key, m in sys.modules.items() if key.startswith("sweepbot")]:
        if getattr(holder, name, None) is real:
            monkeypatch.setattr(holder, name, noted)
    return seen


def test_a_calibration_and_play_read_every_board_on_one_thread_and_leave_the_callers_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = counting_threads(monkeypatch, decide, "classify")
    client = TileClient("9x9/10", seed=4)
    watcher = sweepbot.Watcher.of(client, client, clock=client.clock)
    with threadpool_limits(limits=CALLERS, user_api="blas"):
        made = sweepbot.calibrate("my-client", live=True, watcher=watcher, games=4, save_to=tmp_path)
        assert blas_threads() == {CALLERS}
        calibrating = len(seen)
        summary = sweepbot.play(games=2, profile=str(made[0].folder), watcher=watcher)
        assert blas_threads() == {CALLERS}
    assert summary.wins + summary.losses == 2
    assert calibrating and len(seen) > calibrating
    assert all(threads == {1} for threads in seen)


def test_a_command_solves_on_one_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    seen = counting_threads(monkeypatch, solver, "solve")
    board = tmp_path / "a.board"
    board.write_text("mines: 2\n\n###\n121\n...\n")
    with threadpool_limits(limits=CALLERS, user_api="blas"):
        assert main(["solve", "--json", str(board)]) == 0
        assert blas_threads() == {CALLERS}
    assert seen == [{1}]
    assert '"safe"' in capsys.readouterr().out
