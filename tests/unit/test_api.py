"""The public API: every name in ``sweepbot.__all__`` is there, and the examples of docs/api.md run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sweepbot

ROOT = Path(__file__).parents[2]


def test_every_public_name_resolves_and_nothing_else_does() -> None:
    for name in sweepbot.__all__:
        assert getattr(sweepbot, name) is not None, name
    with pytest.raises(AttributeError):
        _ = sweepbot.read_located  # internal: not part of the API


def examples() -> list[str]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


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
