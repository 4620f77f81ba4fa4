"""The built wheel holds the product and nothing of the lab: installed in a clean virtual env, away from the
checkout, it gives every command that needs no virtual screen."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "xdemineur" / "30x16-first.png"


def run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=900,
                            check=False)
    assert result.returncode == 0, f"{argv}: {result.stderr[-2000:]}"
    return result


def test_the_wheel_installed_in_a_clean_venv_reads_solves_and_benches(tmp_path: Path) -> None:
    source = tmp_path / "source"  # the files a wheel is built from, so the build writes nothing in the checkout
    shutil.copytree(ROOT / "sweepbot", source / "sweepbot", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist", source, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("sweepbot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.startswith("sweeplab") or "/desktop/" in n], "the lab is in the wheel"
    assert "sweepbot/py.typed" in names and "sweepbot/profiles/xdemineur-21px/profile.json" in names

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path)
    away = tmp_path / "away"  # no checkout beside it: nothing is imported from the source tree
    away.mkdir()
    sweepbot = venv / "bin" / "sweepbot"
    assert "calibrate" in run(sweepbot, "--help", cwd=away).stdout
    reading = json.loads(run(sweepbot, "read", FIXTURE, "--json", cwd=away).stdout)
    assert reading["profile"] == "xdemineur-21px" and (reading["rows"], reading["cols"]) == (16, 30)
    (away / "board.txt").write_text("mines: 10\n\n..1#####\n..1#####\n112#####\n########\n", encoding="utf-8")
    solved = json.loads(run(sweepbot, "solve", "board.txt", "--json", cwd=away).stdout)
    assert solved["move"]
    bench = json.loads(run(sweepbot, "bench", "--games", "20", "--workers", "1", "--json", cwd=away).stdout)
    assert bench["games"] == 20
    where = run(venv / "bin" / "python", "-c", "import sweepbot; print(sweepbot.__file__)", cwd=away).stdout
    assert Path(where.strip()).is_relative_to(venv)
    lab = subprocess.run([venv / "bin" / "python", "-c", "import sweeplab"], cwd=away, capture_output=True,
                         text=True, check=False)
    assert "No module named 'sweeplab'" in lab.stderr
