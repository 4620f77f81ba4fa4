"""A board's cells scored against a profile's looks (vision.cells.score): each as it would score alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from sweepbot.vision import cells
from sweepbot.vision.capture import load_image
from sweepbot.vision.cells import score, window_pixels
from sweepbot.vision.profile import available_profiles
from sweepbot.vision.read import read_screenshot
from tests.spies import rows_given

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_a_boards_cells_score_together_as_each_alone_and_cells_drawn_alike_are_compared_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    image = load_image(FIXTURES / "gnome-mines" / "big-lost.png")
    reading = read_screenshot(image, profiles=available_profiles())
    geometry, profile = reading.geometry, reading.profile
    windows = window_pixels(image, geometry, profile.crop)
    compared = rows_given(monkeypatch, cells, "distances")
    together = score(windows, profile, geometry.rows, geometry.cols)
    distinct = len({row.tobytes() for row in windows})
    assert compared == [distinct] and distinct < len(windows) // 10
    for i, window in enumerate(windows):
        alone = score(window[None], profile, 1, 1)
        r, c = divmod(i, geometry.cols)
        assert (alone.chars[0, 0], alone.rms[0, 0], alone.margin[0, 0], alone.best[0, 0]) == \
               (together.chars[r, c], together.rms[r, c], together.margin[r, c], together.best[r, c])
    assert "".join(together.grid()) == "".join(reading.board.grid)
