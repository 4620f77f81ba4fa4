"""The reader's table of numbers (sweepbot/vision/limits.py): each number with its reason, changed for a read
by :func:`using` and put back after, and what each guards: a read that goes wrong or is refused with it
moved. docs/limits.md lists, for every number, what ``benchmarks/limits.py`` found it guards."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from sweepbot.board import Board
from sweepbot.errors import SweepbotError
from sweepbot.vision import limits
from sweepbot.vision.capture import load_image
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.profile import Profile
from sweepbot.vision.read import read_screenshot
from sweepbot.vision.rules import PlayRules
from tests.unit.test_redraw import INK, SIZE
from tests.unit.test_redraw import board as drawn_board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def expected(name: str) -> Board:
    return Board.parse((FIXTURES / name).with_suffix(".board").read_text(encoding="utf-8"))


def read(name: str, profile: str | None = None) -> Board | None:
    """The board read from a fixture (with the built-in profiles, or the one named), None when the read is
    refused."""
    try:
        return read_screenshot(load_image(FIXTURES / name), profile).board
    except SweepbotError:
        return None


def test_every_number_has_its_reason_and_the_table_is_never_changed_in_place() -> None:
    for f in fields(limits.Limits):
        assert len(limits.LIMITS.reason(f.name)) > 40, f.name
    with pytest.raises(FrozenInstanceError):
        limits.LIMITS.max_rms = 10.0  # type: ignore[misc]
    with pytest.raises(KeyError):
        limits.LIMITS.reason("no such number")


def test_a_number_changed_for_a_block_changes_the_read_and_is_put_back_after() -> None:
    name = "xdemineur/digits-21-1.png"
    assert read(name, "xdemineur-21px") == expected(name)
    with limits.using(min_margin=1.5) as table:
        assert table.min_margin == 1.5 and limits.LIMITS is table
        assert read(name, "xdemineur-21px") is None  # even an exact match has a margin of 1: refused
    assert limits.LIMITS.min_margin == 0.5 and read(name, "xdemineur-21px") == expected(name)


def read_image(image: np.ndarray) -> Board | None:
    """The board read from an image with the built-in profiles, None when the read is refused."""
    try:
        return read_screenshot(image).board
    except SweepbotError:
        return None


def levelled(name: str, gain: float, offset: float) -> np.ndarray:
    """A fixture as a screen with this gain and offset shows it."""
    return np.clip(load_image(FIXTURES / name).astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("gain, offset", [(1.08, 6.0), (0.9, -8.0), (0.85, 0.0)])
def test_a_fresh_board_on_another_screen_is_read_when_its_tiles_shape_pins_the_brightness(
        gain: float, offset: float) -> None:
    """What ``pin_apart_rms`` guards: a board of covered tiles alone (and a first number) on a screen brighter,
    darker or less contrasted than the looks. ace-minesweeper's bevelled tile pins the screen's gain and offset
    by its shape, which no other look has at any brightness: the board reads right, and is refused with the
    number out of reach. gnome-mines's covered tile is its empty cell's shape at another level: its fresh
    board says nothing of the screen (covered tiles, or a board all open on a darker screen) and is refused,
    and read only with the number at 0."""
    for name in ("ace-minesweeper/level2-fresh.png", "ace-minesweeper/level3-first.png"):
        image = levelled(name, gain, offset)
        assert read_image(image) == expected(name), name
        with limits.using(pin_apart_rms=1000.0):
            assert read_image(image) is None, name
    name = "gnome-mines/small-fresh.png"
    image = levelled(name, gain, offset)
    assert read_image(image) is None
    with limits.using(pin_apart_rms=0.0):
        assert read_image(image) == expected(name)


@pytest.mark.parametrize("name, scale", [("ace-minesweeper/level2-fresh.png", 1.25),
                                         ("ace-minesweeper/level3-first.png", 1.25),
                                         ("ace-minesweeper/level1-fresh.png", 1.5),
                                         ("ace-minesweeper/level2-fresh.png", 1.5)])
def test_a_fresh_board_resized_as_a_whole_is_read_when_its_tiles_shape_pins_it(name: str, scale: float) -> None:
    """What ``pin_apart_rms`` guards at a drawn size: ace-minesweeper's fresh board and its board after a first
    click, resized as a desktop's fractional scale resizes a window, read with looks drawn at the new size,
    which come only so close to a cell (the covered tiles 6-20 from them). The bevelled tile's shape, which no
    other look has at any brightness, tells the covered tiles apart where no near-exact match can: the board
    reads right, and is refused with the number out of reach (a board of one look is then held to a
    near-exact match)."""
    image = cv2.resize(load_image(FIXTURES / name), None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    assert read_image(image) == expected(name)
    with limits.using(pin_apart_rms=1000.0):
        assert read_image(image) is None


def test_a_brighter_screen_is_read_with_the_looks_fitted_to_it_and_pixel_for_pixel() -> None:
    """What ``levels_rms`` and ``level_guesses`` guard: sgt-mines's 20 px board on a screen 8 % brighter, +6.
    Its brightened empty cells, refused where they are, bring the fit before any cell is given a second look,
    and the board reads right, whatever ``levels_rms`` (with no fit taken, second looks name those cells
    wrongly: see the test below).
    On a screen 10 levels brighter all over, every cell is named by the looks as they are, 9 levels off: the
    residual, over ``levels_rms``, brings the fit, and the board reads pixel for pixel (play trusts only such a
    board beside a toast); with ``levels_rms`` out of reach it reads right, but not exactly. On a screen 8 %
    less contrasted and 12 levels darker, a fit started from the screen as it is only finds no fit that names
    every cell: the board is refused."""
    name = "sgt-mines/30x16-first.png"
    shown = load_image(FIXTURES / name).astype(np.float32)
    image = np.clip(shown * 1.08 + 6, 0, 255).astype(np.uint8)
    assert read_screenshot(image, "sgt-mines-20px").board == expected(name)
    with limits.using(levels_rms=1000.0):
        assert read_screenshot(image, "sgt-mines-20px").board == expected(name)  # fitted, for its refused cells
    brighter = np.clip(shown + 10, 0, 255).astype(np.uint8)
    fitted = read_screenshot(brighter, "sgt-mines-20px")
    assert fitted.board == expected(name) and fitted.exact
    with limits.using(levels_rms=1000.0):
        unfitted = read_screenshot(brighter, "sgt-mines-20px")
    assert unfitted.board == expected(name) and not unfitted.exact
    darker = np.clip(load_image(FIXTURES / name).astype(np.float32) * 0.92 - 12, 0, 255).astype(np.uint8)
    assert read_screenshot(darker).board.grid == expected(name).grid
    with limits.using(level_guesses=((1.0, 0.0),)), pytest.raises(SweepbotError):
        read_screenshot(darker)


def test_a_fit_to_a_brighter_screen_is_taken_when_it_comes_nearer_from_enough_pixels_and_two_kinds_of_cell(
        ) -> None:
    """What ``fitted_nearer``, ``level_least_pixels`` and ``anchor_cells`` guard: sgt-mines's 20 px board on a
    screen 8 % brighter, +6, reads right with its looks fitted to the screen. Asked to come far nearer than
    any fit does, or to fit each colour channel from more pixels than a board holds (no channel fitted: the
    looks stay as they are), the fit is not taken and brightened empty cells are read as covered tiles: the
    board is read wrongly. With more cells of each kind asked for than the board shows, no fit is trusted
    and the board is refused."""
    name = "sgt-mines/30x16-first.png"
    image = np.clip(load_image(FIXTURES / name).astype(np.float32) * 1.08 + 6, 0, 255).astype(np.uint8)
    assert read_screenshot(image, "sgt-mines-20px").board.grid == expected(name).grid
    for change in ({"fitted_nearer": 1000.0}, {"level_least_pixels": 1e9}):
        with limits.using(**change):
            assert read_screenshot(image, "sgt-mines-20px").board.grid != expected(name).grid, change
    with limits.using(anchor_cells=1000), pytest.raises(SweepbotError):
        read_screenshot(image, "sgt-mines-20px")


def test_a_fit_of_the_looks_far_from_any_screen_setting_is_not_taken() -> None:
    """What ``min_level_gain`` and ``max_level_offset`` guard: sgt-mines at 28 px on a screen of 30 % more
    contrast, 10 levels darker (far past the guesses a fit starts from), is refused; with a fit of any gain
    and offset taken, it is refused still (its 2s, far from the looks so fitted), or, with drawn numbers named
    only where held close (``drawn_number_apart`` out of reach), read wrongly (the looks fitted to cells
    named wrongly)."""
    name = "drawn-sizes/sgt-mines-28px-lost.png"
    image = np.clip(load_image(FIXTURES / name).astype(np.float32) * 1.3 - 10, 0, 255).astype(np.uint8)
    with pytest.raises(SweepbotError, match="match no template"):
        read_screenshot(image)
    with limits.using(min_level_gain=0.0, max_level_offset=1000.0):
        with pytest.raises(SweepbotError, match="match no template"):
            read_screenshot(image)
        with limits.using(drawn_number_apart=1000.0):
            wrong = read_screenshot(image).board
    assert wrong != expected(name)


def test_cells_drawn_a_pixel_off_are_read_by_a_second_look_however_many() -> None:
    """What ``nudge_reach`` guards: xdemineur's board with three of its numbers, then every one of them, drawn
    a pixel down and right of their cells reads right, each refused cell looked at again with its window
    moved; with no such move (``nudge_reach`` 0), the board is refused at those cells."""
    name = "xdemineur/30x16-lost.png"
    image = load_image(FIXTURES / name)
    grid = read_screenshot(image).geometry
    numbers = [divmod(i, grid.cols) for i, ch in enumerate("".join(expected(name).grid)) if ch in "12345678"]
    for count in (3, len(numbers)):
        moved = image.copy()
        for r, c in numbers[:count]:
            x, y, w, h = grid.cell_rect(r, c)
            moved[y:y + h, x:x + w] = image[y - 1:y + h - 1, x - 1:x + w - 1]
        assert read_screenshot(moved, geometry=grid).board == expected(name)
        with limits.using(nudge_reach=0), pytest.raises(SweepbotError, match=f"{count} cell"):
            read_screenshot(moved, geometry=grid)


def test_a_board_found_a_column_short_is_refused_and_read_short_without_the_edge_check() -> None:
    """What ``edge_rms``, ``flat_std`` and ``edge_share`` guard: sgt-mines's board with its last column left out
    of the grid (an edge missed) is refused, since the cells beyond the edge read as cells. With no cell beyond
    the edge close enough, not even one drawn pixel for pixel as the board's own (``edge_rms`` under 0), its
    covered tile taken for a plain patch that any background matches (``flat_std`` out of reach), or more
    than the whole line asked to read as cells (``edge_share``), the board is read a column short."""
    image = load_image(FIXTURES / "sgt-mines/30x16-first.png")
    found = locate(image)
    short = Geometry(found.xs[:-1], found.ys)
    with pytest.raises(SweepbotError, match="go on past its right edge"):
        read_screenshot(image, geometry=short)
    for change in ({"edge_rms": -1.0}, {"flat_std": 1000.0}, {"edge_share": 1.01}):
        with limits.using(**change):
            assert read_screenshot(image, geometry=short).board.cols == 29, change


def test_a_board_located_a_line_short_on_a_brighter_screen_is_refused_as_its_own_cells_go_on_past_the_edge(
        ) -> None:
    """What ``edge_cells`` guards: sgt-mines's lost 16x16 board of 32 px tiles on a screen 8 % brighter (+6) is
    located a column short. The column beyond the grid does not read as the board's cells by their looks, but
    its numbers and flags are drawn pixel for pixel as the board's own: the board is refused. With more cells
    asked for than a line holds, it is read a column short. Its won 16x30 board of 12 px tiles shown 1.5 times
    larger on that screen, located a row short, is refused either way: the row beyond reads as cells by the
    looks it was read with (its 12 px looks drawn at 18 px)."""
    image = load_image(FIXTURES / "sgt-mines/16x16-t32-lost.png")
    image = np.clip(image.astype(np.float32) * 1.08 + 6, 0, 255).astype(np.uint8)
    with pytest.raises(SweepbotError, match="go on past its right edge"):
        read_screenshot(image)
    with limits.using(edge_cells=1000):
        short = read_screenshot(image).board
    assert (short.rows, short.cols) == (16, 15) and expected("sgt-mines/16x16-t32-lost.png").cols == 16
    image = load_image(FIXTURES / "sgt-mines/30x16-t12-won.png")
    image = cv2.resize(image, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    image = np.clip(image.astype(np.float32) * 1.08 + 6, 0, 255).astype(np.uint8)
    for cells in (limits.LIMITS.edge_cells, 1000):
        with limits.using(edge_cells=cells), pytest.raises(SweepbotError, match="go on past its bottom edge"):
            read_screenshot(image)


def test_a_board_its_own_looks_match_nearly_exactly_is_read_without_trying_other_clients_drawn_at_its_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``exact_rms`` guards: the time of a read. xdemineur's board matches its own looks pixel for pixel,
    and no other client's looks are drawn at its size; with ``exact_rms`` below 0 (no read exact) they are,
    and the board reads the same."""
    from sweepbot.vision import board_fit

    drawn: list[int] = []
    real = board_fit.drawn_at_size

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(board_fit, "drawn_at_size", counted)
    name = "xdemineur/30x16-first.png"
    assert read(name) == expected(name) and not drawn
    with limits.using(exact_rms=-1.0):
        assert read(name) == expected(name)
    assert drawn


def test_a_board_a_little_larger_than_a_profiles_cells_is_read_with_its_looks_as_they_are() -> None:
    """What ``pitch_tolerance`` guards: gnome-mines's 30 px board shown 4.5 % larger (31 px cells) is read with
    its profile's looks as they are; with the tolerance cut to 1 % the looks are drawn at the board's size
    first (the time of a read), and the board reads the same."""
    import cv2

    name = "gnome-mines/big-first.png"
    image = cv2.resize(load_image(FIXTURES / name), None, fx=1.045, fy=1.045, interpolation=cv2.INTER_LINEAR)
    as_they_are = read_screenshot(image)
    assert as_they_are.profile.name == "gnome-mines-30px" and as_they_are.board.grid == expected(name).grid
    with limits.using(pitch_tolerance=0.01):
        drawn = read_screenshot(image)
    assert drawn.profile.name.startswith("gnome-mines@") and drawn.board.grid == expected(name).grid


def test_a_board_at_another_size_is_read_with_the_likeliest_profiles_drawn_at_its_size() -> None:
    """What ``likeliest`` guards: sgt-mines's 20 px board shown 25 % larger (25 px cells, no profile of that
    size) reads with its profile drawn at the board's size, its client the likeliest by a first look at a
    sample of cells; with no client read in full (0), the board is refused."""
    import cv2

    name = "sgt-mines/digits-20-1.png"
    image = cv2.resize(load_image(FIXTURES / name), None, fx=1.25, fy=1.25, interpolation=cv2.INTER_LINEAR)
    reading = read_screenshot(image)
    assert reading.profile.name.startswith("sgt-mines") and "@" in reading.profile.name
    assert reading.board.grid == expected(name).grid
    with limits.using(likeliest=0), pytest.raises(SweepbotError):
        read_screenshot(image)


def test_numbers_at_a_drawn_size_named_by_their_colour_need_enough_coloured_pixels() -> None:
    """What ``min_ink`` guards, moved far: sgt-mines at 28 px, read with its sizes drawn together, names its
    numbers by their colour where their shapes, drawn anew, are not held close (``drawn_number_apart`` out of
    reach: no shape far nearer its look than any other's names one); asked for 30 % of a cell coloured, no
    digit has a colour, and the board is refused."""
    name = "drawn-sizes/sgt-mines-28px-lost.png"
    assert read(name) == expected(name)
    with limits.using(drawn_number_apart=1000.0):
        assert read(name) == expected(name)
        with limits.using(min_ink=0.3):
            assert read(name) is None


def _cells_grow_profile() -> Profile:
    """A client whose cells change size in play, learnt on a new game of 26 px cells (``tests/unit/
    test_redraw.py``'s drawn board: a covered tile stretched to its column, a digit centred at its own size)."""
    learnt, layout = drawn_board([SIZE] * 3, [["#", "1", "#"], ["#", "#", "#"]])
    crop = (0, 0, SIZE, SIZE)
    return Profile("grows-26px", "grows", (SIZE, SIZE), crop, ("#", "1"), cell_windows(learnt, layout, crop)[[0, 1]],
                   play=PlayRules(cells_resize=True))


def test_cells_grown_wider_are_read_at_the_size_they_were_learnt_and_refused_below_the_grown_share() -> None:
    """What ``grown`` guards: a client whose every column has grown (a digit in each, 26 px cells drawn 32 px
    wide) is read with each cell drawn back at its profile's size; with ``grown`` above 26/32 the profile is
    no longer taken for a grown one, and the board is refused."""
    image, shown = drawn_board([32] * 3, [["#", "1", "#"], ["1", "#", "1"]])
    profile = _cells_grow_profile()
    reading = read_screenshot(image, profiles=[profile], geometry=shown)
    assert reading.board.grid == ("#1#", "1#1") and reading.geometry == shown
    with limits.using(grown=0.9), pytest.raises(SweepbotError, match="no profile fits"):
        read_screenshot(image, profiles=[profile], geometry=shown)


def test_a_learning_profile_reads_a_few_cells_of_an_unlearnt_number_as_open_and_no_more(tmp_path: Path) -> None:
    """What ``max_opened`` guards: a calibrated profile that has learnt covered tiles and 1s reads a board with
    3 cells of a number it never saw (drawn in another colour) as open cells of unknown number, ``=``, which
    play learns; allowed 2 such cells at most, it refuses the board."""
    profile = replace(_cells_grow_profile(), name="learning-26px", folder=tmp_path / "learning-26px",
                      play=PlayRules())
    cells = [["#", "1", "#", "#"], ["#", "2", "2", "#"], ["#", "#", "2", "#"]]
    image, shown = drawn_board([SIZE] * 4, [[ch if ch != "2" else "1" for ch in row] for row in cells])
    for r, row in enumerate(cells):
        for c, ch in enumerate(row):
            if ch == "2":  # the digit drawn in green
                x, y, w, h = shown.cell_rect(r, c)
                window = image[y:y + h, x:x + w]
                window[(window == INK).all(axis=2)] = (0, 160, 0)
    reading = read_screenshot(image, profiles=[profile], geometry=shown, opened_unknown=True)
    assert reading.board.grid == ("#1##", "#==#", "##=#")
    with limits.using(max_opened=2, opened_share=100), pytest.raises(SweepbotError, match="match no template"):
        read_screenshot(image, profiles=[profile], geometry=shown, opened_unknown=True)
