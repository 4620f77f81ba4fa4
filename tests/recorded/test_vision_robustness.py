"""Fixtures changed as a real screen might change them: each must be read exactly or refused clearly.

A wrong board is a failure, but for the few listed in KNOWN_WRONG, which must still read wrongly (a known
defect kept in sight: a change that mends one fails here until its entry goes). Each kind prints how many
screenshots were read and how many refused (``pytest -s tests/test_vision_robustness.py``) and records them
as test properties.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from sweepbot.errors import SweepbotError
from sweepbot.vision.locate import locate
from sweepbot.vision.read import read_screenshot
from tests.fixture_boards import Fixture, fixtures

pytestmark = pytest.mark.slow

FIXTURES = fixtures()


def board_region(image: np.ndarray) -> np.ndarray:
    """The board and its surroundings (the counter above it, the status below), as a window might show."""
    x, y, w, h = locate(image).bbox
    mx, my = max(40, w // 8), max(90, h // 3)
    return image[max(0, y - my) : y + h + my, max(0, x - mx) : x + w + mx]


def desktop(part: np.ndarray, at: tuple[int, int], seed: int) -> np.ndarray:
    """``part`` pasted at ``at`` on a larger desktop with other window-like rectangles beside it."""
    rng = np.random.default_rng(seed)
    height, width = part.shape[0] + at[1] + 150, part.shape[1] + at[0] + 420
    canvas = np.full((height, width, 3), (96, 64, 32), np.uint8)
    for _ in range(5):
        w, h = int(rng.integers(120, 400)), int(rng.integers(80, 300))
        x, y = int(rng.integers(0, width - w)), int(rng.integers(0, height - h))
        canvas[y : y + h, x : x + w] = rng.integers(30, 250, 3)
        canvas[y : y + 22, x : x + w] = (220, 180, 140)
        cv2.putText(canvas, "Untitled - Editor", (x + 6, y + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1)
        for k in range(3):  # a row of buttons
            cv2.rectangle(canvas, (x + 10 + 60 * k, y + 40), (x + 60 + 60 * k, y + 64), (200, 200, 200), -1)
    canvas[at[1] : at[1] + part.shape[0], at[0] : at[0] + part.shape[1]] = part
    return canvas


def pointer(image: np.ndarray, seed: int) -> np.ndarray:
    """A mouse arrow with its tip on a random cell."""
    geo = locate(image)
    rng = np.random.default_rng(seed)
    r, c = int(rng.integers(0, geo.rows)), int(rng.integers(0, geo.cols))
    x, y = geo.center(r, c)
    arrow = np.array([[0, 0], [0, 17], [4, 13], [7, 20], [10, 19], [7, 12], [12, 12]]) + np.array([x, y])
    out = image.copy()
    cv2.fillPoly(out, [arrow.astype(np.int32)], (0, 0, 0))
    cv2.polylines(out, [arrow.astype(np.int32)], True, (255, 255, 255), 1)
    return out


def levels(gain: float, offset: float) -> Callable[[np.ndarray, int], np.ndarray]:
    def change(image: np.ndarray, seed: int) -> np.ndarray:
        return np.clip(image.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)

    return change


def noise(sigma: float) -> Callable[[np.ndarray, int], np.ndarray]:
    def change(image: np.ndarray, seed: int) -> np.ndarray:
        part = board_region(image)
        rng = np.random.default_rng(seed)
        return np.clip(part + rng.normal(0, sigma, part.shape), 0, 255).astype(np.uint8)

    return change


def scaled(factor: float) -> Callable[[np.ndarray, int], np.ndarray]:
    def change(image: np.ndarray, seed: int) -> np.ndarray:
        return cv2.resize(board_region(image), None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)

    return change


def both(first: Callable[[np.ndarray, int], np.ndarray],
         then: Callable[[np.ndarray, int], np.ndarray]) -> Callable[[np.ndarray, int], np.ndarray]:
    """One change after another (a screen scaled and brighter: looks drawn at the board's size, then fitted)."""
    def change(image: np.ndarray, seed: int) -> np.ndarray:
        return then(first(image, seed), seed)

    return change


KINDS: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "offset-near": lambda img, seed: desktop(board_region(img), (13, 7), seed),
    "offset-far": lambda img, seed: desktop(board_region(img), (517, 291), seed),
    "pointer": pointer,
    "brighter": levels(1.08, 6),
    "darker": levels(0.9, -8),
    # washed out: light tiles clipped to white, their bevels and the edges between them gone
    "more-contrast": levels(1.15, 0),
    "much-brighter": levels(1.0, 20),
    "washed-out": levels(1.2, 0),
    # dimmer: every level scaled down, or every level 20 lower (dark tiles and digits clipped to black)
    "less-contrast": levels(0.85, 0),
    "much-darker": levels(0.9, -20),
    "noise": noise(2.5),
    "scale-0.8": scaled(0.8),
    "scale-1.25": scaled(1.25),
    "scale-1.5": scaled(1.5),
    "scale-2": scaled(2.0),
    "scale-1.25-brighter": both(scaled(1.25), levels(1.08, 6)),
    "scale-1.5-brighter": both(scaled(1.5), levels(1.08, 6)),
}


def outcome(fixture: Fixture, image: np.ndarray) -> str:
    try:
        reading = read_screenshot(image)
    except SweepbotError as err:
        assert str(err), "a refusal must say why"
        return "refused"
    board = reading.board
    if board.grid != fixture.board.grid:
        return "wrong"
    if reading.mines_left is not None and fixture.mines_left is not None and reading.mines_left != fixture.mines_left:
        return "wrong"
    if board.state is not None and fixture.board.state is not None and board.state != fixture.board.state:
        return "wrong"
    return "read"


@pytest.mark.skipif(not FIXTURES, reason="no fixtures with .board files")
@pytest.mark.parametrize("kind", list(KINDS))
def test_robustness(kind: str, record_property: Callable[[str, object], None]) -> None:
    counts = {"read": 0, "refused": 0, "wrong": 0}
    wrong: list[str] = []
    for i, fixture in enumerate(FIXTURES):
        result = outcome(fixture, KINDS[kind](fixture.image(), i))
        counts[result] += 1
        if result == "wrong":
            wrong.append(fixture.id)
    print(f"\n{kind}: {counts['read']} read exactly, {counts['refused']} refused, {counts['wrong']} wrong"
          f" of {len(FIXTURES)}")
    for key, value in counts.items():
        record_property(f"{kind}-{key}", value)
    known = sorted(name for k, name in KNOWN_WRONG if k == kind)
    assert wrong == known, f"{kind}: read wrongly: {wrong} (known to: {known})"


#: Variations read wrongly by the code as it is, kept in sight rather than left out: each must still read
#: wrongly (a change that mends one shows here, and the entry goes).
KNOWN_WRONG: set[tuple[str, str]] = {
    # sgt-mines at 28 px, no profile made at that size: washed out, its empty cells and covered tiles both near
    # white, its 32 px looks drawn at 28 px name its empty cells covered tiles
    ("washed-out", "drawn-sizes/sgt-mines-28px-lost"),
    # the same at 24 px, its 20 px looks drawn there (read so before its client's other sizes were fitted
    # beside a drawn profile in play: a read from scratch, which tries them all)
    ("washed-out", "drawn-sizes/sgt-mines-24px-three"),
}
