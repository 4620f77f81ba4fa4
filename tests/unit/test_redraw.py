"""A board whose columns change width by a pixel or two, drawn back onto the new game's cells: a covered
tile's image stretched to its column and a digit centred at its own size both come back as they were."""

from __future__ import annotations

import numpy as np

from sweepbot.calibration.live.follow import Follower
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile
from sweepbot.vision.read import read_located
from sweepbot.vision.redraw import spans
from sweepbot.vision.rules import PlayRules

SIZE = 26
LINE, BEVEL, FACE, DARK = 211, 255, 192, 123
INK = (200, 40, 0)


def covered(width: int, height: int) -> np.ndarray:
    """A covered tile as a web page draws it: a grid line of two pixels along its top and left, the tile
    image stretched to the rest (its light bevel just inside the line, its dark one at the far side)."""
    cell = np.full((height, width, 3), FACE, np.uint8)
    cell[2, 2:] = cell[2:, 2] = BEVEL
    cell[-1, 2:] = cell[2:, -1] = DARK
    cell[:2, :] = cell[:, :2] = LINE
    return cell


def digit(width: int, height: int) -> np.ndarray:
    """An open cell with a digit (a 6x10 block) centred at its own size, whatever the cell's size."""
    cell = np.full((height, width, 3), FACE, np.uint8)
    cell[:2, :] = cell[:, :2] = LINE
    x, y = (width - 6) // 2 + 1, (height - 10) // 2 + 1
    cell[y:y + 10, x:x + 6] = INK
    return cell


def board(widths: list[int], cells: list[list[str]]) -> tuple[np.ndarray, Geometry]:
    """A frame with a board of ``cells`` ("#" covered, "1" a digit) in columns of ``widths``, rows SIZE high."""
    x0, y0 = 20, 30
    xs = tuple(x0 + sum(widths[:k]) for k in range(len(widths) + 1))
    ys = tuple(y0 + SIZE * k for k in range(len(cells) + 1))
    frame = np.full((ys[-1] + 30, xs[-1] + 30, 3), (90, 120, 60), np.uint8)
    for r, row in enumerate(cells):
        for c, ch in enumerate(row):
            draw = covered if ch == "#" else digit
            frame[ys[r]:ys[r + 1], xs[c]:xs[c + 1]] = draw(xs[c + 1] - xs[c], SIZE)
    return frame, Geometry(xs, ys)


NEW_GAME = [["#", "#", "#"], ["#", "#", "#"]]
#: the first column 2 px wider, the second 1 px narrower: a covered tile and a digit in each
LATER = [["#", "#", "#"], ["1", "1", "#"]]
LATER_WIDTHS = [SIZE + 2, SIZE - 1, SIZE]


def test_cells_a_pixel_or_two_off_are_drawn_back_as_the_new_game_shows_them() -> None:
    """Calibration draws every frame onto the new game's cells: a covered tile in a column 2 px wider keeps
    its bevel (moving its middle with only two pixels kept at each side would lose it, a new look), a tile
    in a column a pixel narrower has no bevel doubled, and a digit keeps its size and place in the cell."""
    first, layout = board([SIZE] * 3, NEW_GAME)
    later, shown = board(LATER_WIDTHS, LATER)
    follower = Follower.of_new_game(layout, first)
    follower.columns = spans(shown.xs)
    drawn = follower.drawn(later)
    want, _ = board([SIZE] * 3, LATER)
    for r in range(2):
        for c in range(3):
            x, y, w, h = layout.cell_rect(r, c)
            cell, wanted = drawn[y:y + h, x:x + w], want[y:y + h, x:x + w]
            if LATER[r][c] == "#":
                assert np.array_equal(cell, wanted), (r, c)
            else:
                assert np.array_equal((cell == INK).all(axis=2), (wanted == INK).all(axis=2)), (r, c)


def test_a_board_read_with_cells_a_pixel_or_two_off_matches_its_looks_exactly() -> None:
    """Reading draws the cells onto the profile's size the same way, each cell the way that matches a look
    the profile knows: both covered tiles read as close as they were learnt, and both digits read."""
    learnt, layout = board([SIZE] * 3, [["#", "1", "#"], ["#", "#", "#"]])
    crop = (0, 0, SIZE, SIZE)
    windows = cell_windows(learnt, layout, crop)
    profile = Profile("drawn-26px", "drawn", (SIZE, SIZE), crop, ("#", "1"), windows[[0, 1]],
                      play=PlayRules(cells_resize=True))
    later, shown = board(LATER_WIDTHS, LATER)
    reading = read_located(later, shown, profile)
    assert reading.board.grid == ("###", "11#")
    covered = np.array([[ch == "#" for ch in row] for row in LATER])
    assert float(reading.scores.rms[covered].max()) < 1.0
    assert reading.geometry == shown


def test_cells_of_a_fractional_pitch_are_read_at_the_sizes_they_were_learnt() -> None:
    """A toolkit draws a pitch of 26.67 px in columns of 27, 27 and 26 (its own order of the two sizes): a
    profile of a client whose cells change size learnt both, and reads each column at its own size, exactly
    as learnt, not drawn onto another order of the two sizes."""
    cells = [["#", "1", "#"], ["1", "#", "1"]]
    learnt, layout = board([27, 27, 26], cells)
    crop = (0, 0, 26, SIZE)
    profile = Profile("drawn-27px", "drawn", (80 / 3, SIZE), crop, tuple(ch for row in cells for ch in row),
                      cell_windows(learnt, layout, crop), play=PlayRules(cells_resize=True), max_rms=2.0)
    reading = read_located(learnt, layout, profile)
    assert reading.board.grid == ("#1#", "1#1")
    assert float(reading.scores.rms.max()) < 1.0
    assert reading.geometry == layout
