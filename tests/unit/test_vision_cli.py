"""``sweepbot read`` on input it cannot read: a clear message, a non-zero exit, no traceback; with ``--json``
one object with ``"error"`` on stdout; nothing written but where the user asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.unit.test_vision_locate import draw_board


def run_read(*args: str, tmpdir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TMPDIR=str(tmpdir)) if tmpdir else None
    return subprocess.run([sys.executable, "-m", "sweepbot", "read", *args], capture_output=True, text=True,
                          check=False, env=env)


def assert_refused(proc: subprocess.CompletedProcess[str], words: str) -> dict[str, object] | None:
    """The refusal's exit, message and, with --json, its one answer on stdout (returned)."""
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert words in proc.stderr, proc.stderr
    if "--json" not in proc.args:
        assert proc.stdout == ""
        return None
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    answer: dict[str, object] = json.loads(lines[0])
    assert words in str(answer["error"])
    return answer


def test_not_an_image(tmp_path: Path) -> None:
    path = tmp_path / "notes.png"
    path.write_text("hello, not a picture\n")
    assert_refused(run_read(str(path), "--json"), "not an image")


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    assert_refused(run_read(str(path), "--json"), "empty")


def test_missing_file(tmp_path: Path) -> None:
    assert_refused(run_read(str(tmp_path / "nothing.png")), "cannot read")


def test_no_board(tmp_path: Path) -> None:
    path = tmp_path / "desktop.png"
    img = np.full((600, 800, 3), (90, 60, 30), np.uint8)
    cv2.rectangle(img, (100, 100), (500, 400), (230, 230, 230), -1)
    cv2.putText(img, "Hello", (150, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 2)
    cv2.imwrite(str(path), img)
    assert_refused(run_read(str(path), "--json"), "no board")


def test_two_boards(tmp_path: Path) -> None:
    path = tmp_path / "two.png"
    img, _ = draw_board(9, 9, 20, 0, 2, (20, 20), 4, size=(400, 800))
    img[:, 400:] = img[:, :400]
    cv2.imwrite(str(path), img)
    assert_refused(run_read(str(path)), "two boards")


def test_unknown_profile(tmp_path: Path) -> None:
    path = tmp_path / "board.png"
    img, _ = draw_board(9, 9, 20, 0, 2, (20, 20), 4, size=(400, 400))
    cv2.imwrite(str(path), img)
    assert_refused(run_read(str(path), "--profile", "no-such-client"), "no profile named")


@pytest.mark.parametrize("pitch", [17, 45])
def test_board_no_profile_fits(tmp_path: Path, pitch: int) -> None:
    """A board of a look no profile knows: refused, naming the cells or the missing profile, never guessed."""
    path = tmp_path / "board.png"
    img, _ = draw_board(9, 9, pitch, 0, 2, (20, 20), 4, size=(pitch * 9 + 60, pitch * 9 + 60))
    cv2.imwrite(str(path), img)
    proc = run_read(str(path))
    assert proc.returncode != 0 and "Traceback" not in proc.stderr and proc.stdout == ""


def test_cells_it_cannot_read_leave_nothing_behind_unless_asked(tmp_path: Path) -> None:
    """A board whose cells match no profile's looks: the refusal names the cells, writes no file (TMPDIR
    stays empty), and --save-unread DIR keeps their crops there."""
    path = tmp_path / "board.png"
    img, _ = draw_board(8, 8, 20, 0, 2, (20, 20), 4, size=(220, 220))
    img[20:180, 20:180] = img[20:180, 20:180] // 2 + 60  # washed out: no built-in profile reads it
    cv2.imwrite(str(path), img)
    profile = str(Path(__file__).parents[2] / "sweepbot/profiles/xdemineur-21px")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    answer = assert_refused(run_read(str(path), "--json", "--profile", profile, tmpdir=tmpdir), "--save-unread")
    assert answer is not None and answer["unread"] and "crops" not in answer
    assert list(tmpdir.iterdir()) == []
    crops = tmp_path / "crops"
    answer = assert_refused(run_read(str(path), "--json", "--profile", profile, "--save-unread", str(crops),
                                     tmpdir=tmpdir), "their crops are in")
    assert answer is not None and answer["crops"] == str(crops)
    saved = sorted(p.name for p in crops.iterdir())
    assert len(saved) == min(len(answer["unread"]), 200) > 0  # type: ignore[arg-type]
    assert all(cv2.imread(str(crops / name)) is not None for name in saved)
    assert list(tmpdir.iterdir()) == []


def test_vision_never_imports_pyautogui() -> None:
    code = (
        "import sys, pkgutil, importlib, sweepbot.vision as v\n"
        "for m in pkgutil.iter_modules(v.__path__): importlib.import_module('sweepbot.vision.' + m.name)\n"
        "import sweepbot.cli.read_cmd\n"
        "assert 'pyautogui' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
