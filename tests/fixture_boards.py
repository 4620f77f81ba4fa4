"""The recorded-screenshot fixtures with expected boards, for the vision tests."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from sweepbot.board import Board
from sweepbot.vision.capture import load_image
from sweepbot.vision.counter import flags_placed

FIXTURES = Path(os.environ.get("SWEEPBOT_FIXTURES", Path(__file__).resolve().parent / "fixtures"))


@dataclass(frozen=True)
class Fixture:
    path: Path
    board: Board

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.stem}"

    @property
    def client(self) -> str:
        return self.board.headers.get("client", self.path.parent.name)

    def image(self) -> np.ndarray:
        return _image(self.path)

    @property
    def mines_left(self) -> int | None:
        return None if self.board.mines is None else self.board.mines - flags_placed(self.board.grid)


@cache
def _image(path: Path) -> np.ndarray:
    return load_image(path)


def fixtures() -> list[Fixture]:
    out = []
    for png in sorted(FIXTURES.glob("*/*.png")):
        board_file = png.with_suffix(".board")
        if board_file.exists():
            out.append(Fixture(png, Board.parse(board_file.read_text(encoding="utf-8"))))
    return out
