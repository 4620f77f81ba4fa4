"""The public API: every name in ``sweepbot.__all__`` is there, and the examples of docs/api.md run."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import sweepbot
from tests.tile_client import TileClient

ROOT = Path(__file__).parents[2]


def test_every_public_name_resolves_and_nothing_else_does() -> None:
    for name in sweepbot.__all__:
        assert getattr(sweepbot, name) is not None, name
    with pytest.raises(AttributeError):
        _ = sweepbot.read_located  # internal: not part of the API


def examples() -> list[str]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def example(heading: str) -> str:
    """The example under ``## heading`` in docs/api.md."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    part = text[text.index(f"## {heading}\n"):]
    return re.findall(r"```python\n(.*?)```", part, re.S)[0]


def test_the_examples_import_nothing_but_sweepbot_and_use_only_public_names() -> None:
    """A user needs no internal module: the examples import sweepbot alone, and every ``sweepbot.X`` they use
    is in ``__all__``."""
    used: set[str] = set()
    for code in examples():
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert names == ["sweepbot"], f"an example imports {names}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sweepbot":
                used.add(node.attr)
    assert used - set(sweepbot.__all__) == set()
    assert {"read_screenshot", "solve", "play", "calibrate"} <= used


def test_the_api_holds_the_four_entry_points_and_what_they_take_and_return() -> None:
    """Reading, solving, playing, calibrating: each entry point's argument and result types are public too."""
    import typing

    hints = {name: typing.get_type_hints(getattr(sweepbot, name))
             for name in ("read_screenshot", "solve", "play", "calibrate")}
    public = {getattr(sweepbot, n) for n in sweepbot.__all__ if isinstance(getattr(sweepbot, n), type)}
    assert hints["read_screenshot"]["return"] is sweepbot.Reading
    assert hints["solve"]["board"] is sweepbot.Board and hints["solve"]["return"] is sweepbot.Analysis
    assert hints["solve"]["strategy"] is sweepbot.Strategy
    assert hints["play"]["return"] is sweepbot.SessionSummary
    assert sweepbot.PlaySettings in typing.get_args(hints["play"]["settings"])
    assert sweepbot.Watcher in typing.get_args(hints["play"]["watcher"])
    assert typing.get_args(hints["calibrate"]["return"]) == (sweepbot.Calibrated,)
    assert {sweepbot.Reading, sweepbot.Analysis, sweepbot.SessionSummary, sweepbot.Calibrated,
            sweepbot.Profile} <= public


def test_the_reading_and_solving_examples_of_the_docs_run(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    read, boards = examples()[:2]
    exec(read, {"sweepbot": sweepbot})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "xdemineur-21px 16 30"
    assert out[1:17] == list(sweepbot.read_screenshot(sweepbot.load_image(
        "tests/fixtures/xdemineur/30x16-first.png")).board.grid)
    assert "Move(action='open'" in out[-2]
    space: dict[str, object] = {"sweepbot": sweepbot}
    exec(boards, space)
    analysis = space["analysis"]
    assert isinstance(analysis, sweepbot.Analysis) and analysis.move is not None


def test_the_profiles_example_of_the_docs_runs(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    space: dict[str, object] = {"sweepbot": sweepbot}
    exec(example("Profiles"), space)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(sweepbot.available_profiles()) >= 10
    assert any(line.startswith("xdemineur-21px xdemineur") for line in out)
    loaded = space["profile"]
    assert isinstance(loaded, sweepbot.Profile) and loaded.name == "xdemineur-21px"


def test_the_calibration_example_of_the_docs_makes_a_profile_that_reads_its_client(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Four screenshots of xdemineur (a new game, play, flags, a loss) make a profile that names covered,
    open, 1, 2, flags and mines (what those games proved), saved where asked, and reads xdemineur."""
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    exec(example("Calibrate a client"), {"sweepbot": sweepbot})
    (line,) = capsys.readouterr().out.splitlines()
    name, chars, folder, sheet = line.split()
    assert name == "my-xdemineur-21px" and set("#.12F") <= set(chars)
    assert (tmp_path / folder / "profile.json").is_file() and (tmp_path / sheet).is_file()
    shot = sweepbot.load_image(ROOT / "tests/fixtures/xdemineur/30x16-first.png")
    expected = sweepbot.read_screenshot(shot, profile="xdemineur-21px").board.grid
    assert sweepbot.read_screenshot(shot, profile=str(tmp_path / folder)).board.grid == expected


def test_the_own_screen_example_of_the_docs_calibrates_and_plays_a_drawn_client(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A client sweepbot never saw, on a screen of the user's own: calibrated live, then played, through
    public names only."""
    monkeypatch.chdir(tmp_path)
    client = TileClient("9x9/10", seed=4)
    exec(example("A screen of your own"), {"sweepbot": sweepbot, "my_screen": client, "my_device": client,
                                            "my_clock": client.clock})
    played, errors = map(int, capsys.readouterr().out.split())
    assert (played, errors) == (3, 0)
    assert (tmp_path / "my-profiles").is_dir()
