"""A board among other grids of cells on the screen: every grid the screenshot shows is a candidate, the
likeliest first, and the board is the first a profile reads (``vision.locate.grids``,
``vision.board_fit.fit_first``). The boards are recorded fixtures (their expected boards checked by eye); the
other grid is a chessboard, as a web page beside the game shows one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sweepbot.board import Board
from sweepbot.vision.capture import load_image
from sweepbot.vision.locate import LocateError, grids, locate
from sweepbot.vision.read import read_screenshot
from sweepbot.vision.refusal import ReadError

FIXTURES = Path(__file__).parents[1] / "fixtures"
LIGHT, DARK = (181, 217, 240), (99, 136, 181)


def chessboard(square: int) -> np.ndarray:
    """Eight by eight squares of ``square`` px in a chessboard's two flat colours (BGR)."""
    rows, cols = np.indices((8 * square, 8 * square)) // square
    return np.where(((rows + cols) % 2 == 0)[..., None], np.array(LIGHT, np.uint8), np.array(DARK, np.uint8))


def beside(image: np.ndarray, other: np.ndarray) -> np.ndarray:
    """``image`` with ``other`` to its right on a grey desktop, 30 px apart."""
    h, w = image.shape[:2]
    oh, ow = other.shape[:2]
    out = np.full((max(h, oh + 40), w + ow + 60, 3), 60, np.uint8)
    out[:h, :w] = image
    out[20:20 + oh, w + 30:w + 30 + ow] = other
    return out


@pytest.mark.parametrize("square", [21, 40, 60])
def test_a_board_beside_a_chessboard_is_read(square: int) -> None:
    """xdemineur's 21 px board beside a chessboard of 21 px squares (taken for a second board alike: both are
    read, and only one reads), of 40 px and of 60 px (the chessboard covers more area and is the likeliest
    grid: it is read in vain first). The board read is xdemineur's, as written down, at its place."""
    path = FIXTURES / "xdemineur" / "12x9-first.png"
    image = load_image(path)
    alone = read_screenshot(image)
    shown = beside(image, chessboard(square))
    found = grids(shown)
    assert len(found.ranked) >= 2
    reading = read_screenshot(shown)
    assert reading.profile.name == "xdemineur-21px" and reading.geometry == alone.geometry
    assert reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    assert reading.mines_left == alone.mines_left


def test_the_chessboard_alone_is_refused() -> None:
    """The chessboard with no board beside it is found as a grid and refused: no profile reads its squares."""
    with pytest.raises(ReadError):
        read_screenshot(beside(np.full((300, 300, 3), 60, np.uint8), chessboard(40)))


def test_two_boards_that_both_read_are_refused() -> None:
    """Two of the same board side by side both read: which one is meant is not guessed."""
    image = load_image(FIXTURES / "xdemineur" / "12x9-first.png")
    both = beside(image, image)
    with pytest.raises(LocateError, match="two boards"):
        read_screenshot(both)
    with pytest.raises(LocateError, match="two boards"):
        locate(both)


def test_a_board_partly_hidden_beside_a_chessboard_is_the_error_reported() -> None:
    """The same board with two of its cells painted over (a toast over them) beside a larger chessboard: no
    grid reads, and the error is the board's (the grid read nearest whole), with the board read but for
    those cells, which play judges a game's end from; not the chessboard's, every square refused."""
    path = FIXTURES / "xdemineur" / "12x9-first.png"
    image = load_image(path)
    g = read_screenshot(image).geometry
    hidden = image.copy()
    hidden[g.ys[4]:g.ys[5], g.xs[3]:g.xs[5]] = (40, 200, 40)
    with pytest.raises(ReadError) as refused:
        read_screenshot(beside(hidden, chessboard(40)))
    part = refused.value.board_but_unread
    assert part is not None and (len(part.grid), len(part.grid[0])) == (g.rows, g.cols)
    assert sorted(refused.value.cells) == [(4, 3), (4, 4)]


def test_the_read_command_draws_the_refused_cells_on_the_board_they_belong_to(tmp_path: Path) -> None:
    """``sweepbot read --annotate`` on that screenshot: refused, with a clear message and exit 2, and the
    picture marks the board's two hidden cells, on the board's grid (the chessboard is the likeliest grid)."""
    path = FIXTURES / "xdemineur" / "12x9-first.png"
    image = load_image(path)
    g = read_screenshot(image).geometry
    hidden = image.copy()
    hidden[g.ys[4]:g.ys[5], g.xs[3]:g.xs[5]] = (40, 200, 40)
    shot, drawn = tmp_path / "shot.png", tmp_path / "drawn.png"
    cv2.imwrite(str(shot), beside(hidden, chessboard(40)))
    proc = subprocess.run([sys.executable, "-m", "sweepbot", "read", str(shot), "--annotate", str(drawn)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "(4, 3)" in proc.stderr, proc.stderr
    marked = np.any(cv2.imread(str(drawn)) != beside(hidden, chessboard(40)), axis=2)
    ys, xs = np.nonzero(marked)
    # every mark lies on the board, none on the chessboard beside it
    assert len(xs) and xs.max() < image.shape[1] and ys.max() < image.shape[0]
