"""A client's looks at any cell size: profiles drawn at a board's size, the client chosen by how its looks fit,
numbers held close, and what a drawn profile learns kept for the next time (fixtures of real clients, drawn
larger or smaller as a resized window or a scaled screen shows them)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from sweepbot.board import Board
from sweepbot.playing.consistency import won_beneath_unread
from sweepbot.vision import decide, limits
from sweepbot.vision import read as read_module
from sweepbot.vision.capture import load_image
from sweepbot.vision.controls import decode_look, encode_look
from sweepbot.vision.counter import counter_area
from sweepbot.vision.fit import drawn_at_size, likeliest, sample_fit
from sweepbot.vision.locate import locate
from sweepbot.vision.profile import (
    BUILTIN_DIR,
    Profile,
    available_profiles,
    load_profile,
    make_profile,
    user_profiles_dir,
)
from sweepbot.vision.read import read_located, read_screenshot
from sweepbot.vision.refusal import REFUSED, ReadError
from sweepbot.vision.rules import NewGameControl, PlayRules
from sweepbot.vision.scaled import at_pitch

FIXTURES = Path(__file__).parents[1] / "fixtures"


def resized(image: np.ndarray, factor: float) -> np.ndarray:
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA if factor < 1
                      else cv2.INTER_LINEAR)


def test_a_profile_drawn_at_another_size_scales_its_window_counter_and_new_game_control() -> None:
    look = np.tile(np.arange(20, dtype=np.uint8) * 10, (10, 1))
    tile = np.zeros((10, 10, 3), np.uint8)
    tile[2:8, 2:8] = 200
    rules = PlayRules("none", face_above_board=40, new_game_control=NewGameControl((10, -30), (encode_look(look),)))
    counter = {"kind": "seven-segment", "colour": [0, 0, 255], "right": -12, "top": -60, "digit": [13, 23],
               "step": 16, "digits": 3}
    profile = make_profile("drawn-20px", "drawn", (20.0, 20.0), (5, 5, 10, 10), [("#", tile)], counter=counter,
                           play=rules, max_rms=12.0)
    assert at_pitch(profile, (20.0, 20.0)) is profile
    big = at_pitch(profile, (30.0, 30.0))
    assert at_pitch(profile, (30.02, 29.98)) is big  # one size: made once
    assert big.pitch == (30.0, 30.0) and big.crop == (8, 8, 15, 15) and big.template(0).shape == (15, 15, 3)
    assert big.counter["digit"] == [20, 34] and big.counter["top"] == -90 and big.counter["step"] == 24.0
    assert big.play.face_above_board == 60 and big.play.new_game_control is not None
    assert big.play.new_game_control.offset == (15, -45)
    # the look as made, and drawn at the board's scale (a window may keep its buttons at their size)
    assert [decode_look(t).shape for t in big.play.new_game_control.looks] == [(10, 20), (15, 30)]
    assert big.drawn_from == "drawn-20px" and big.max_rms is not None and big.max_rms > profile.max_rms
    assert big.folder == user_profiles_dir() / big.name  # what it learns is kept in the user's store


@pytest.mark.parametrize(("fixture", "factor"), [("gnome-mines/small-first", 49 / 46.0),
                                                 ("gnome-mines/digits-34-1", 0.8),
                                                 ("sgt-mines/9x9-first", 1.5)])
def test_a_board_at_a_size_no_profile_was_made_at_is_read_by_its_own_client(fixture: str, factor: float) -> None:
    """gnome-mines at 49 px, where ace-minesweeper has a profile of that size: the board is gnome-mines's by
    how its looks fit, not ace-minesweeper's by its size; every cell read is the cell on screen, and a
    number the drawn looks do not hold close is refused, never read as another."""
    path = FIXTURES / f"{fixture}.png"
    want = Board.parse(path.with_suffix(".board").read_text())
    image = resized(load_image(path), factor)
    try:
        reading = read_screenshot(image, opened_unknown=True)
    except ReadError as refused:
        pytest.fail(f"not read: {refused}")
    assert reading.profile.client == path.parent.name and reading.profile.drawn_from is not None
    got = np.array([list(row) for row in reading.board.grid])
    truth = np.array([list(row) for row in want.grid])
    unknown = got == "="
    assert (got[~unknown] == truth[~unknown]).all()
    assert set(truth[unknown]) <= set(".12345678")
    assert unknown.mean() < 0.5


@pytest.mark.parametrize(("fixture", "client"), [("xdemineur/30x16-first", "xdemineur"),
                                                 ("ace-minesweeper/level4-first", "ace-minesweeper"),
                                                 ("gnome-mines/small-fresh", "gnome-mines"),
                                                 ("sgt-mines/9x9-t32-won", "sgt-mines")])
def test_the_client_whose_looks_fit_a_lined_up_sample_of_cells_is_read_first(fixture: str, client: str) -> None:
    """Boards shown 25 % larger, where no profile was made: every client's looks drawn at the board's size,
    ranked on a sample of its cells lined up with each, put the board's own client first (on xdemineur's and
    ace-minesweeper's boards, 5 and 9 profiles of other clients fit the sample better where it is not lined
    up: ``align_radius`` 0)."""
    image = resized(load_image(FIXTURES / f"{fixture}.png"), 1.25)
    found = locate(image)
    alone, together = drawn_at_size(available_profiles(), [], found)
    ranked = likeliest(image, found, alone, together)
    assert [p.client for p in ranked[0]] == [client] * len(ranked[0])
    assert len(ranked) == limits.LIMITS.likeliest and ranked[1][0].client != client
    own, other = sample_fit(image, found, ranked[0][0]), sample_fit(image, found, ranked[1][0])
    assert own < other


def test_the_sample_that_ranks_clients_holds_enough_cells_to_see_past_the_covered_ones() -> None:
    """sgt-mines's 32 px lost board shown 25 % larger: a sample of the table's ``sample_cells`` cells, spread
    over the board, puts its own client first; a sample of 4 cells, all in its first column (an empty cell, a
    1 and two covered tiles), puts gnome-mines first."""
    image = resized(load_image(FIXTURES / "sgt-mines" / "16x16-t32-lost.png"), 1.25)
    found = locate(image)
    alone, together = drawn_at_size(available_profiles(), [], found)
    assert likeliest(image, found, alone, together)[0][0].client == "sgt-mines"
    with limits.using(sample_cells=4):
        assert likeliest(image, found, alone, together)[0][0].client == "gnome-mines"


@pytest.mark.parametrize("name", ["16x16-t32-first", "16x16-t32-flags"])
def test_a_washed_out_board_at_a_size_its_client_has_a_profile_for_is_refused_not_read_with_its_other_sizes(
        name: str) -> None:
    """sgt-mines's 32 px boards on a screen of 15 % more contrast and 10 levels brighter, where its empty cells
    and covered tiles both come near white: its 32 px looks refuse them, and its other sizes are not drawn at
    the size that profile was made at. Drawn at 32 px, the 20 px looks, held only loosely, misread them."""
    path = FIXTURES / "sgt-mines" / f"{name}.png"
    image = np.clip(load_image(path).astype(np.float32) * 1.15 + 10, 0, 255).astype(np.uint8)
    with pytest.raises(ReadError):
        read_screenshot(image)
    others = [p for p in available_profiles() if p.name != "sgt-mines-32px"]
    wrong = read_screenshot(image, profiles=others)
    assert wrong.profile.client == "sgt-mines" and wrong.profile.drawn_from
    assert wrong.board.grid != Board.parse(path.with_suffix(".board").read_text()).grid


def test_what_a_drawn_profile_learns_in_play_is_read_next_time(tmp_path: Path) -> None:
    """A number learnt in play by a profile drawn at another size is kept in the user's store, under the drawn
    profile's name, and that size is then read with it."""
    from sweepbot.vision.learn import with_templates

    built_in = load_profile(BUILTIN_DIR / "sgt-mines-20px")
    drawn = at_pitch(built_in, (27.0, 27.0))
    one = drawn.template(drawn.labels.index("1"))
    learnt = with_templates(drawn, [("2", np.clip(one.astype(int) + 40, 0, 255).astype(np.uint8))])
    assert learnt.folder is not None and (learnt.folder / "profile.json").is_file()
    kept = {p.name: p for p in available_profiles()}[drawn.name]
    assert kept.drawn_from == "sgt-mines-20px" and kept.labels.count("2") == drawn.labels.count("2") + 1


def test_a_clients_sizes_drawn_together_and_kept_are_named_after_the_client_when_drawn_again() -> None:
    """A client's sizes drawn together (``drawn_from``: every size's name joined by "+"), kept in the user's
    store with what play learnt, and then drawn at yet another size, is named after its client, as the sizes
    drawn together are: a name made of every size's grows with each size a user plays, and past what a
    folder's name may hold no look learnt there can be saved (nicegui-minesweeper, played at 16 sizes, ended
    its first game at a 17th with a traceback)."""
    from sweepbot.vision.learn import with_templates
    from sweepbot.vision.scaled import client_at_pitch

    together = client_at_pitch([load_profile(BUILTIN_DIR / f"sgt-mines-{px}px") for px in (12, 20, 32)], (27.0, 27.0))
    assert together.name == "sgt-mines@27.0px"
    assert together.drawn_from == "sgt-mines-12px+sgt-mines-20px+sgt-mines-32px"
    one = together.template(together.labels.index("1"))
    with_templates(together, [("2", np.clip(one.astype(int) + 40, 0, 255).astype(np.uint8))])
    kept = {p.name: p for p in available_profiles()}["sgt-mines@27.0px"]
    again = at_pitch(kept, (41.0, 41.0))
    assert again.name == "sgt-mines@41.0px" and again.drawn_from == kept.drawn_from
    learnt = with_templates(again, [("2", cv2.resize(np.clip(one.astype(int) + 40, 0, 255).astype(np.uint8),
                                                      (again.crop[2], again.crop[3])))])
    assert learnt.folder == user_profiles_dir() / "sgt-mines@41.0px" and (learnt.folder / "profile.json").is_file()

def test_covered_tiles_a_pixel_off_a_drawn_look_are_read_by_a_second_look_never_as_open() -> None:
    """gnome-mines at 1.3x, a fresh board: its 46 px looks drawn at 60.6 px fit the tiles a pixel off only
    loosely. Left where they were located (no lining up) or lined up, every tile is refused where it is and
    read as the covered tile its window comes nearly to when moved by a pixel or two (the table's
    ``nudge_reach``), never as an open cell of unknown number; with no such move, every tile is refused, as
    the board's one look held close. The looks that fit best read every tile."""
    path = FIXTURES / "drawn-sizes" / "gnome-mines-fresh-1.3x.png"
    image = load_image(path)
    expected = Board.parse(path.with_suffix(".board").read_text()).grid
    loose = at_pitch(load_profile(BUILTIN_DIR / "gnome-mines-46px"), (60.6, 60.5))
    for radius in (0, limits.LIMITS.align_radius):
        with limits.using(align_radius=radius):
            assert read_screenshot(image, profiles=[loose], opened_unknown=True).board.grid == expected
        with limits.using(align_radius=radius, nudge_reach=0), pytest.raises(ReadError) as refused:
            read_screenshot(image, profiles=[loose], opened_unknown=True)
        assert (0, 0) in refused.value.cells
    assert read_screenshot(image, opened_unknown=True).board.grid == expected


def test_a_tile_lit_as_the_client_answers_a_click_is_not_read_as_an_open_cell() -> None:
    """gnome-mines at 1.3x lights the tile clicked before it opens it (a busy machine shows that frame): the
    lit tile is half-way between a covered tile and an empty cell, proved neither, and refused."""
    image = load_image(FIXTURES / "drawn-sizes" / "gnome-mines-lit-1.3x.png")
    with pytest.raises(ReadError) as refused:
        read_screenshot(image, opened_unknown=True)
    assert refused.value.cells == [(2, 1)]


def test_numbers_of_the_clients_size_nearest_the_boards_are_read_with_the_looks_that_fit_its_tiles() -> None:
    """gnome-mines at 1.3x: its 30 px looks drawn at 60.6 px fit the new board's tiles best, and play keeps the
    profile that read the new board; its 3s fit only as drawn from the 46 px looks. The drawn profile holds
    its client's other sizes' numbers too, and every 3 of the game is read. Without them, only their colour
    names the 3s: with no colour telling digits apart (the table's ``ink_apart`` out of reach) they are
    refused, or read as open cells of unknown number."""
    fresh = read_screenshot(load_image(FIXTURES / "drawn-sizes" / "gnome-mines-fresh-1.3x.png"), opened_unknown=True)
    assert fresh.profile.drawn_from == "gnome-mines-30px"
    again = read_screenshot(load_image(FIXTURES / "drawn-sizes" / "gnome-mines-fresh-1.3x.png"), opened_unknown=True)
    assert again.profile is fresh.profile  # made once: a board found again keeps what its reads kept
    path = FIXTURES / "drawn-sizes" / "gnome-mines-threes-1.3x.png"
    reading = read_screenshot(load_image(path), profiles=[fresh.profile], opened_unknown=True)
    assert reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    alone = at_pitch(load_profile(BUILTIN_DIR / "gnome-mines-30px"), reading.geometry.pitch)
    assert read_screenshot(load_image(path), profiles=[alone], opened_unknown=True).board.grid == reading.board.grid
    with limits.using(ink_apart=100.0):
        try:
            grid = read_screenshot(load_image(path), profiles=[alone], opened_unknown=True).board.grid
        except ReadError as refused:
            assert {(6, 2), (6, 4), (6, 6)} <= set(refused.cells)
        else:
            assert "3" not in "".join(grid)


def test_numbers_drawn_anew_smaller_are_named_by_their_colour_held_apart_from_the_looks_it_leaves() -> None:
    """gnome-mines's big board in a window 0.8 times its size: 22.3 px cells, under its smallest profile's 30.
    Its 2s, drawn anew that small, come nearer a 1's shape and the empty cell's than their own look drawn
    from 30 px is (a margin of 0.41). Each is drawn on its digit's own background colour, which neither a
    1's green nor the grey of an empty or covered cell gives: held apart only from the looks its colour
    leaves, it is read, and the board reads as written down. With no colour telling digits apart (the
    table's ``ink_apart`` out of reach) the 2s are refused."""
    path = FIXTURES / "drawn-sizes" / "gnome-mines-22px-play.png"
    image = load_image(path)
    reading = read_screenshot(image)
    assert reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    assert reading.profile.drawn_from == "gnome-mines-30px"
    thirty = at_pitch(load_profile(BUILTIN_DIR / "gnome-mines-30px"), reading.geometry.pitch)
    assert read_screenshot(image, profiles=[thirty]).board.grid == reading.board.grid
    with limits.using(ink_apart=100.0), pytest.raises(ReadError) as refused:
        read_screenshot(image, profiles=[thirty])
    assert {(2, 7), (3, 6)} <= set(refused.value.cells)


def test_another_clients_looks_drawn_at_a_brighter_boards_size_do_not_read_it() -> None:
    """The 22 px gnome-mines board on a screen 8 % brighter: its own looks, drawn at that size, refuse its
    numbers (their pale grounds brightened past the colour that names them). sgt-mines's 32 px looks drawn
    at 22.3 px come within their loose limit of every cell, its brightened covered tiles as empty cells and
    its numbers as covered tiles: an empty cell beside a covered tile, which no client leaves, so those cells
    are refused and the board is refused, never read as sgt-mines's."""
    path = FIXTURES / "drawn-sizes" / "gnome-mines-22px-play.png"
    image = np.clip(load_image(path).astype(np.float32) * 1.08 + 6, 0, 255).astype(np.uint8)
    with pytest.raises(ReadError) as refused:
        read_screenshot(image)
    assert "gnome-mines" in str(refused.value)
    geometry = read_screenshot(load_image(path)).geometry
    sgt = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-32px"), geometry.pitch)
    with pytest.raises(ReadError) as foreign:
        read_screenshot(image, profiles=[sgt])
    assert (0, 1) in foreign.value.cells  # a covered tile read as empty, beside 1s read as covered tiles


def test_a_plain_look_beyond_a_boards_edge_is_no_sign_that_the_board_goes_on() -> None:
    """sgt-mines with 13 px tiles: its covered tiles are read best by a look drawn from another of its sizes,
    whose bevel, drawn that small, fades to a plain patch (under the table's ``flat_std``). The window's plain
    background around the board, and the board's frame, come as close to that look as the edge check allows;
    a plain look is no sign of a missed line of cells, and the board reads as written down. Counted
    (``flat_std`` 0), the board is taken to go on past its edge and refused."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-13px-play.png"
    image = load_image(path)
    assert read_screenshot(image).board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    with limits.using(flat_std=0.0), pytest.raises(ReadError, match="go on past"):
        read_screenshot(image)


@pytest.mark.parametrize(("fixture", "factor"), [("xdemineur/12x9-first", 0.95), ("sgt-mines/30x16-lost", 0.95),
                                                 ("ace-minesweeper/level1-first", 1.05)])
def test_a_board_a_few_percent_off_a_profiles_size_is_read_with_that_profile_drawn_at_its_size(
        fixture: str, factor: float) -> None:
    """A window or page scaled a little (xdemineur at 20 px, sgt-mines at 19 px, ace-minesweeper at 50.4 px):
    the cells lie within the table's ``pitch_tolerance`` of a profile's size, close enough to be tried as
    they are, but their glyphs are drawn smaller or larger than its looks. The profile is drawn at the
    board's size too, and the board reads as written down."""
    path = FIXTURES / f"{fixture}.png"
    reading = read_screenshot(resized(load_image(path), factor))
    assert reading.profile.drawn_from and reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid


@pytest.mark.parametrize("factor", [0.92, 1.1])
def test_a_line_of_cells_left_out_is_seen_beyond_the_edge_with_looks_drawn_at_another_size(factor: float) -> None:
    """sgt-mines's won 16x16 board with 12 px tiles, shown at 11 and 13.2 px: the grid found leaves lines of
    cells out (14 of its 16 rows; 8 rows of 14 columns). Looks drawn at another size come only so close to
    any cell, the board's own and those beyond its edge alike; cells beyond that read as close as the
    board's own did show that the board goes on, and it is refused, never read as a smaller board."""
    path = FIXTURES / "sgt-mines" / "16x16-t12-won.png"
    with pytest.raises(ReadError, match="go on past"):
        read_screenshot(resized(load_image(path), factor))


def test_a_status_text_set_in_the_desktops_font_is_read_at_any_cell_size() -> None:
    """sgt-mines with 14 px tiles, a new board: its status line ("Marked: 0 / 10") is set in the desktop's
    font whatever the tile size, and sits where the window, sized to its board, puts it. Read with looks
    drawn from another size, its glyphs are matched as they are, in a band around the place the profile
    holds: 10 mines, none flagged."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-14px-fresh.png"
    reading = read_screenshot(load_image(path))
    assert reading.profile.drawn_from and reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    assert reading.mines_left == 10 and reading.board.mines == 10


def test_a_client_that_draws_itself_anew_at_each_size_is_read_by_a_second_look_at_every_cell_refused() -> None:
    """sgt-mines with 28 px tiles, a size between its profiles' 20 and 32: its tiles look as at 20 px and its
    digits as at 32 px. Its 32 px looks drawn at 28 px name the digits, and come near the covered tiles only a
    pixel off: a quarter of the board (121 cells) is refused where it is, and each of those cells is read by a
    second look, its window moved by a pixel or two (the table's ``nudge_reach``): the board reads as written
    down, and is refused with no such move. The 12 and 20 px looks drawn alone refuse part of it."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-28px-lost.png"
    image = load_image(path)
    reading = read_screenshot(image)
    assert reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    assert reading.profile.drawn_from == "sgt-mines-32px"
    drawn = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-32px"), reading.geometry.pitch)
    with limits.using(nudge_reach=0), pytest.raises(ReadError) as refused:
        read_screenshot(image, profiles=[drawn], geometry=reading.geometry)
    assert len(refused.value.cells) >= reading.board.rows * reading.board.cols // 4
    for name in ("sgt-mines-12px", "sgt-mines-20px"):
        alone = at_pitch(load_profile(BUILTIN_DIR / name), reading.geometry.pitch)
        with pytest.raises(ReadError):
            read_screenshot(image, profiles=[alone])


def test_looks_drawn_a_pixel_off_a_board_are_registered_where_the_board_shows_them() -> None:
    """On sgt-mines's 28 px board the 32 px covered tile drawn at 28 px fits a quarter of the cells a pixel off
    (above): the read registers that look there (``vision.register``), its windows cut by the move's span and
    every look cut where the board shows it. The looks registered read the board as the drawn ones did, every
    cell where it is: a frame read without the one before takes no second look, and none is needed (with
    ``nudge_reach`` 0 it reads the same). Asked for more cells than the board shows a pixel off
    (``register_cells``), the read keeps the looks as drawn."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-28px-lost.png"
    image = load_image(path)
    reading = read_screenshot(image)
    drawn = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-32px"), reading.geometry.pitch)
    ox, oy, w, h = reading.profile.crop
    dx, dy, dw, dh = drawn.crop
    # the windows inside the drawn ones, smaller by no more than the table's share of them
    assert dx <= ox and dy <= oy and ox + w <= dx + dw and oy + h <= dy + dh and w * h < dw * dh
    share = limits.LIMITS.register_inset_share
    assert dw - w <= share * dw and dh - h <= share * dh
    frame = read_located(image, reading.geometry, reading.profile)
    assert frame.board == reading.board and frame.scores.track is not None and frame.scores.track.looked == 0
    with limits.using(nudge_reach=0):
        assert read_located(image, reading.geometry, reading.profile).board == reading.board
    with limits.using(register_cells=reading.board.rows * reading.board.cols):
        kept = read_screenshot(image)
    assert kept.profile.crop == drawn.crop and kept.board == reading.board
    assert read_located(image, kept.geometry, kept.profile).scores.track.looked > 0  # type: ignore[union-attr]


def test_looks_registered_again_stay_within_the_share_of_the_drawn_window() -> None:
    """The 28 px board above registers the covered tile 2 px up and 1 px left of its drawn look. A later board
    whose 1s lie 2 px lower than their look (each 1 cell's window drawn 2 px down here) is read by a second
    look at every 1; registered from the looks as first registered, the 1s would cut the windows 2 px more,
    4 px in all where the table allows a share of the drawn window (3 px of 24). The moves are added to the
    drawn profile's instead: the 1s' move, 4 px from the covered tile's, is not taken, and the windows stay as
    first registered, the board read the same."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-28px-lost.png"
    image = load_image(path)
    first = read_screenshot(image)
    drawn = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-32px"), first.geometry.pitch)
    assert first.profile.crop != drawn.crop
    lower = image.copy()
    g = first.geometry
    for r, row in enumerate(first.board.grid):
        for c, ch in enumerate(row):
            if ch == "1":
                x, y = g.xs[c], g.ys[r]
                lower[y + 4:y + 26, x + 2:x + 26] = image[y + 2:y + 24, x + 2:x + 26]
    again = read_screenshot(lower, profiles=[first.profile], geometry=g)
    assert again.board == first.board
    _, _, dw, dh = drawn.crop
    _, _, w, h = again.profile.crop
    share = limits.LIMITS.register_inset_share
    assert dw - w <= share * dw and dh - h <= share * dh
    assert again.profile is first.profile


def test_a_drawn_profile_looks_for_its_text_counter_on_the_line_the_board_shows_it() -> None:
    """sgt-mines's 20 px board read without its 20 px looks: its 12 px looks drawn at 20 px look for the status
    line ("Marked: 0 / 99") in a band from where the board drawn larger would put it to where it was, more than
    two lines tall. Once the board shows the line, the box is narrowed to it, and the frames read from then on
    read the same count in it."""
    path = FIXTURES / "sgt-mines" / "30x16-first.png"
    image = load_image(path)
    own = read_screenshot(image)
    reading = read_screenshot(image, profiles=[p for p in available_profiles() if p.name != own.profile.name])
    assert reading.profile.drawn_from == "sgt-mines-12px" and own.mines_left is not None
    drawn = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-12px"), reading.geometry.pitch)
    band, line = counter_area(reading.geometry, drawn), counter_area(reading.geometry, reading.profile)
    assert band is not None and line is not None
    assert line.h < band.h / 2 and band.y <= line.y and line.bottom <= band.bottom
    assert reading.mines_left == own.mines_left
    assert read_located(image, reading.geometry, reading.profile).mines_left == own.mines_left


def test_looks_registered_that_read_a_board_otherwise_are_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registration is kept only when it reads the board as the looks drawn did: looks registered wrongly
    (here every look but the first swapped for the first, as a registration gone wrong would misplace them)
    leave the read with the drawn looks, and the board as it was."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-28px-lost.png"
    image = load_image(path)
    drawn = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-32px"), locate(image).pitch)

    def misplaced(profile: Profile, *board: object) -> Profile:
        first = profile.template(0)
        return make_profile(profile.name, profile.client, profile.pitch, profile.crop,
                            [(ch, first) for ch in profile.labels], profile.sizes, profile.counter, None,
                            profile.play, profile.max_rms, profile.drawn_from, profile.built_in)

    monkeypatch.setattr(read_module, "registered", misplaced)
    reading = read_screenshot(image, profiles=[drawn])
    assert reading.profile is drawn
    assert reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid


def test_one_look_drawn_from_another_size_is_no_sign_of_a_brighter_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """sgt-mines's 32 px board of flags and numbers read without its 32 px looks: the flags drawn from its 20 px
    looks lie 7 levels off the board's (120 of its 192 cells), its numbers 2 to 4. A screen moves every look's
    cells, so the board is not fitted to a brightness (``drawn_levels_offset``, each look's median and then
    theirs); the same board 8 % brighter and 6 levels up is, and reads the same."""
    path = FIXTURES / "sgt-mines" / "digits-32-1.png"
    image = load_image(path)
    others = [p for p in available_profiles() if p.name != "sgt-mines-32px"]
    fits: list[str] = []
    real = decide.fit_profile_levels

    def counted(windows: np.ndarray, profile: Profile) -> Profile:
        fits.append(profile.name)
        return real(windows, profile)

    monkeypatch.setattr(decide, "fit_profile_levels", counted)
    reading = read_screenshot(image, profiles=others)
    assert reading.profile.drawn_from and reading.board.grid == Board.parse(path.with_suffix(".board").read_text()).grid
    fits.clear()
    assert not read_located(image, reading.geometry, reading.profile).scores.leveled and fits == []
    brighter = np.clip(image.astype(np.float32) * 1.08 + 6.0, 0, 255).astype(np.uint8)
    lit = read_screenshot(brighter, profiles=others)
    assert lit.scores.leveled and lit.board == reading.board


@pytest.mark.parametrize(("gain", "offset"), [(1.08, 6.0), (0.9, -8.0)])
def test_a_board_at_a_drawn_size_on_a_brighter_or_darker_screen_is_read_with_its_looks_fitted(
        gain: float, offset: float) -> None:
    """The 28 px sgt-mines board on a screen 8 % brighter or 10 % darker: the drawn looks keep their mean
    level, the cells are off theirs by about 20 levels, and the looks are fitted to the screen. Unfitted (the
    table's ``drawn_levels_offset`` out of reach), the brighter board is read wrongly: empty cells taken for
    covered tiles, which the drawn looks' loose limit lets through."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-28px-lost.png"
    image = np.clip(load_image(path).astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)
    expected = Board.parse(path.with_suffix(".board").read_text()).grid
    assert read_screenshot(image).board.grid == expected
    if gain > 1:
        with limits.using(drawn_levels_offset=1000.0):
            assert read_screenshot(image).board.grid != expected


def written(path: Path) -> dict[str, list[str]]:
    """A note's parts: each ``name:`` line starts a part, whose lines follow (``;`` lines are comments)."""
    parts: dict[str, list[str]] = {}
    name = ""
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        if line.endswith(":") or ": " in line:
            name, _, rest = line.partition(":")
            parts[name] = rest.split() if rest.strip() else []
        else:
            parts[name].append(line)
    return parts


def test_a_won_board_whose_flags_a_drawn_profile_leaves_unread_is_proved_won_by_the_rest() -> None:
    """sgt-mines at 42 px flags every mine once a game is won, a flag beside a flag in a look its 20 px looks
    drawn at 42 px (the profile play chose on the fresh board) come only so near: two flags are refused. The
    rest of the board reads as the screenshot shows it, and with the mine count it proves the game won by the
    last clicks; the flags left unread are not named."""
    path = FIXTURES / "drawn-sizes" / "sgt-mines-42px-won.png"
    note = written(path.with_suffix(".txt"))
    shown, before = note["shown"], Board(tuple(note["before"]), mines=10)
    clicked = [(int(r), int(c)) for r, c in (cell.split(",") for cell in note["clicked"])]
    in_play = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-20px"), (42.0, 42.0))
    with pytest.raises(ReadError) as refused:
        read_screenshot(load_image(path), profiles=[in_play], opened_unknown=True)
    part = refused.value.board_but_unread
    assert part is not None and refused.value.cells
    for r, row in enumerate(part.grid):
        for c, ch in enumerate(row):
            assert ch == shown[r][c] or (ch == REFUSED and shown[r][c] == "F"), (r, c, ch)
    won = won_beneath_unread(before, part.grid, clicked, REFUSED)
    assert won is not None and won.state == "won"
    assert [(r, c) for r, c in refused.value.cells if won.grid[r][c] != "#"] == []
    # the same frame with one clicked cell unread (say, the mine that went off) proves nothing
    hidden = [row[:8] + REFUSED if r == 0 else row for r, row in enumerate(part.grid)]
    assert won_beneath_unread(before, hidden, clicked, REFUSED) is None


def test_a_profile_drawn_at_a_size_and_kept_with_what_it_learnt_leaves_the_clients_other_sizes_drawn_there() -> None:
    """sgt-mines's 20 px looks drawn at 42 px, kept in the user's store with a look learnt in play, refuse two
    of the flags of a won board at 42 px; its 32 px looks drawn at 42 px read the whole board. The kept
    profile is no profile made at that size: the client's other sizes are still drawn there."""
    from sweepbot.vision.learn import with_templates

    path = FIXTURES / "drawn-sizes" / "sgt-mines-42px-won.png"
    drawn = at_pitch(load_profile(BUILTIN_DIR / "sgt-mines-20px"), (42.0, 42.0))
    one = drawn.template(drawn.labels.index("1"))
    with_templates(drawn, [("2", np.clip(one.astype(int) + 40, 0, 255).astype(np.uint8))])
    assert "sgt-mines-20px@42.0px" in {p.name for p in available_profiles()}
    reading = read_screenshot(load_image(path), opened_unknown=True)
    assert list(reading.board.grid) == written(path.with_suffix(".txt"))["shown"]
    assert reading.profile.drawn_from == "sgt-mines-32px"


def test_a_clients_looks_fitted_to_a_brighter_screen_are_chosen_over_its_other_size_naming_cells_loosely() -> None:
    # sgt-mines's won 30x16 board shown 1.5 times larger (30 px cells) on a screen 8 % brighter, +6: its 32 px
    # looks drawn at 30 px name every cell without a fit, its empty cells as covered tiles (rms 18.7, margin
    # 0.57), and come as near the screen as it shows them as its 20 px looks drawn at 30 px, which read every cell
    # right once fitted to the screen's brightness; the fitted ones read the board
    image = load_image(FIXTURES / "sgt-mines" / "30x16-won.png")
    expected = Board.parse((FIXTURES / "sgt-mines" / "30x16-won.board").read_text(encoding="utf-8"))
    shown = np.clip(resized(image, 1.5).astype(np.float32) * 1.08 + 6, 0, 255).astype(np.uint8)
    reading = read_screenshot(shown)
    assert reading.profile.drawn_from == "sgt-mines-20px" and reading.scores.leveled
    assert reading.board.grid == expected.grid
