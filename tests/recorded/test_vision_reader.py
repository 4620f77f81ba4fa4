"""The loop's reader: a board found again at another size is taken only when a second frame agrees; a
board that no profile reads is reported with every reason."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sweepbot
from sweepbot.board import Board, game_over
from sweepbot.errors import SweepbotError
from sweepbot.playing.consistency import won_beneath_unread
from sweepbot.playing.view import BoardView
from sweepbot.playing.vision_reader import VisionReader
from sweepbot.vision import limits
from sweepbot.vision.capture import load_image
from sweepbot.vision.in_use import InUse
from sweepbot.vision.profile import load_profile
from sweepbot.vision.read import ReadError, read_screenshot
from sweepbot.vision.refusal import REFUSED

FIXTURES = Path(__file__).parents[1] / "fixtures"
SGT = FIXTURES / "sgt-mines"


def size(view: BoardView) -> tuple[int, int]:
    return view.board.rows, view.board.cols


def with_pop_up(image: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    """``image`` with a plain green pop-up over these rows and columns of pixels."""
    shown = image.copy()
    shown[rows, cols] = (40, 200, 90)
    return shown


def finds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each time a board is located afresh from now on, how many profiles each rank of the fit was given (the
    profile in use first, then every one)."""
    import sweepbot.vision.board_fit as board_fit

    tried: list[int] = []
    real = board_fit._first_read

    def counted(*args: Any, **kwargs: Any) -> Any:
        tried.append(len(args[2]))
        return real(*args, **kwargs)

    monkeypatch.setattr(board_fit, "_first_read", counted)
    return tried


def test_a_board_of_another_size_is_read_only_when_two_frames_agree() -> None:
    reader = VisionReader()
    big, small = load_image(SGT / "30x16-first.png"), load_image(SGT / "9x9-first.png")
    assert size(reader.read(big)) == (16, 30)
    # a frame where the old place no longer reads and a smaller board is found (gnome-mines once showed a
    # new board part-drawn, 9 of its 30 columns): not taken at once, the loop captures again
    with pytest.raises(SweepbotError, match="changed from 16x30 to 9x9"):
        reader.read(small)
    assert size(reader.read(small)) == (9, 9)  # a second frame shows it too: a real change
    assert reader.relocations == 2


def test_after_a_game_ends_the_next_board_is_found_afresh() -> None:
    reader = VisionReader()
    assert game_over(reader.read(load_image(SGT / "30x16-won.png")).board) == "won"
    # the won board's place is forgotten (a dialog may have cut it short): the next frame is located afresh
    assert reader.geometry is None
    assert reader.profile is not None
    # a profile that learnt in play (a copy stands for it here) is kept for the next game
    kept = reader.profile = replace(reader.profile)
    assert size(reader.read(load_image(SGT / "30x16-fresh.png"))) == (16, 30)
    assert reader.relocations == 0 and reader.geometry is not None
    assert reader.profile is kept
    assert size(reader.read(load_image(SGT / "30x16-first.png"))) == (16, 30)


def test_when_both_reads_fail_the_error_gives_both_reasons() -> None:
    # the profile in use (one of another client, as if the game window had been swapped) reads the board
    # badly, and the client asked for on the command line, drawn at the board's cell size, does not fit its
    # looks: the user is told both, and no cell is read as another client's look
    reader = VisionReader("gnome-mines")
    reader.profile = load_profile(Path(sweepbot.__file__).parent / "profiles" / "xdemineur-21px")
    with pytest.raises(ReadError) as caught:
        reader.read(load_image(SGT / "30x16-first.png"))
    message = str(caught.value)
    assert re.search(r"match no template of profile gnome-mines(-\d+px)?@20\.0px", message)
    assert "with the profile in use (xdemineur-21px)" in message
    assert "match no template of profile xdemineur-21px" in message


def test_a_grid_lined_up_roughly_on_a_new_board_is_lined_up_again_when_numbers_read_as_unknown() -> None:
    """nicegui-minesweeper at 67 % zoom, read with its calibrated looks drawn at that size: a new board of
    plain tiles lines the grid up only roughly (play had it 3 px off). Once cells open, the grid is lined up
    again on the numbers it read as unknown, and the reader keeps that place: every cell read is the cell on
    screen (its 1s, drawn anew at this size, stay unknown until a game proves them)."""
    drawn = Path(__file__).parents[1] / "fixtures" / "drawn-sizes"
    reader = VisionReader(str(drawn / "profiles" / "nicegui-minesweeper-40px@26.8px"))
    fresh = reader.read(load_image(drawn / "nicegui-zoom0.67-new.png"))
    assert set("".join(fresh.board.grid)) == {"#"}
    assert reader.geometry is not None
    off = reader.geometry.shifted(0, -2)
    reader.geometry, reader.seen = off, None
    opened = load_image(drawn / "nicegui-zoom0.67-opened.png")
    got = reader.read(opened).board.grid
    want = Board.parse((drawn / "nicegui-zoom0.67-opened.txt").read_text()).grid
    unknown = [(r, c) for r, row in enumerate(got) for c, ch in enumerate(row) if ch == "="]
    assert all(got[r][c] == want[r][c] for r in range(9) for c in range(9) if (r, c) not in unknown)
    assert {want[r][c] for r, c in unknown} <= {"1"} and len(unknown) <= 8, got
    assert reader.geometry != off
    # the place kept: the next frame reads the same at once
    assert reader.read(opened).board.grid == got


def test_a_number_drawn_too_small_to_tell_from_another_is_left_unknown_never_misnamed() -> None:
    """nicegui-minesweeper at 35 % zoom (14 px squares, digits 3x5 px), read with its calibrated looks drawn at
    that size: its 3s come nearer a 2 scaled down than a 3 (15 against 15.8, where the two looks lie 5 apart:
    a margin of 0.95). A cell nearly as near another character's look as its own is not named by its shape:
    every cell named is the cell on screen, the numbers left unknown for a game to prove."""
    drawn = Path(__file__).parents[1] / "fixtures" / "drawn-sizes"
    reader = VisionReader(str(drawn / "profiles" / "nicegui-minesweeper-40px@14.0px"))
    got = reader.read(load_image(drawn / "nicegui-zoom0.35-threes.png")).board.grid
    want = Board.parse((drawn / "nicegui-zoom0.35-threes.txt").read_text()).grid
    named = [(r, c) for r in range(9) for c in range(9) if got[r][c] != "="]
    assert [(r, c, got[r][c]) for r, c in named if got[r][c] != want[r][c]] == []
    # every covered tile and empty cell is named: only numbers are left unknown
    assert all(want[r][c] in "12345678" for r in range(9) for c in range(9) if (r, c) not in named)
    assert sum(ch in "#." for row in got for ch in row) == sum(ch in "#." for row in want for ch in row)


def test_a_board_read_better_by_its_profile_drawn_at_its_size_is_read_with_that_profile_from_then_on() -> None:
    """nicegui-minesweeper at 67.5 % zoom (27 px squares), read with a profile kept in the store at 26 px (with
    looks learnt in play there), near enough to be taken as it is: its first numbers read as unknown, and the
    board lined up again is read better by that profile drawn at 27 px. The reader keeps the profile that
    read it, so that the frame read again with what the reader holds (as a replay of the recording reads it)
    reads the same."""
    from sweepbot.vision.geometry import Geometry
    from sweepbot.vision.read import read_located

    drawn = Path(__file__).parents[1] / "fixtures" / "drawn-sizes"
    reader = VisionReader()
    reader.profile = load_profile(drawn / "profiles" / "nicegui-minesweeper-40px@26.0px")
    reader.geometry, reader.size = Geometry(tuple(range(11, 255, 27)), tuple(range(65, 309, 27))), (9, 9)
    frame = load_image(drawn / "nicegui-zoom0.675-learnt.png")
    got = reader.read(frame).board.grid
    assert got[:3] == (".....=###", "111..=###", "##==1=###")  # its 2s left unknown
    assert reader.profile.pitch == (27.0, 27.0)
    assert read_located(frame, reader.geometry, reader.profile, opened_unknown=True).board.grid == got


def test_replay_reads_each_recorded_frame_where_play_read_it(tmp_path: Path) -> None:
    """A step recorded with the grid where play had it (3 px off, the numbers read as unknown) reads again the
    same there: replay reads with what play knew, its profile and its place, not a place it finds afresh."""
    import json
    import shutil

    from sweepbot.playing.record import replay
    from sweepbot.vision.read import read_located, read_screenshot

    drawn = Path(__file__).parents[1] / "fixtures" / "drawn-sizes"
    kept = drawn / "profiles" / "nicegui-minesweeper-40px@26.8px"
    opened = load_image(drawn / "nicegui-zoom0.67-opened.png")
    profile = load_profile(kept)
    right = read_screenshot(opened, profiles=[profile], opened_unknown=True)
    off = right.geometry.shifted(0, -3)
    as_played = read_located(opened, off, profile, opened_unknown=True).board
    assert as_played.grid != right.board.grid
    shutil.copytree(kept, tmp_path / "profiles" / "0")
    (tmp_path / "frames").mkdir()
    shutil.copy(drawn / "nicegui-zoom0.67-opened.png", tmp_path / "frames" / "00000.png")
    entry = {"game": 0, "frame": "frames/00000.png", "board": list(as_played.grid), "mines": None, "state": None,
             "clicks": [], "button": "left", "strategy": "full", "first_click": "none", "profile": "profiles/0",
             "x_edges": list(off.xs), "y_edges": list(off.ys)}
    (tmp_path / "session.jsonl").write_text(json.dumps(entry) + "\n")
    report = replay(tmp_path, VisionReader(), lambda folder: VisionReader(str(folder)))
    assert report.read_differences == []


def test_replay_reads_a_step_at_the_place_of_the_step_before_only_where_its_pixels_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two recorded steps of one game at one place, the second frame with one cell's pixels changed: replay
    reads the second with what the first read saw (only the changed cell scored again) and reads both as a
    read afresh does."""
    import json

    import cv2

    from sweepbot.playing import vision_reader
    from sweepbot.playing.record import replay
    from sweepbot.vision.profile import available_profiles
    from sweepbot.vision.read import read_located, read_screenshot

    first = load_image(SGT / "30x16-first.png")
    found = read_screenshot(first, profiles=available_profiles())
    g = found.geometry
    second = first.copy()
    # a pixel in the middle of covered cell (0, 0) a shade lighter: still a covered tile
    assert found.board.grid[0][0] == "#"
    y, x = (g.ys[0] + g.ys[1]) // 2, (g.xs[0] + g.xs[1]) // 2
    second[y, x] = np.minimum(second[y, x].astype(int) + 3, 255)
    (tmp_path / "frames").mkdir()
    entries = []
    for k, frame in enumerate((first, second)):
        cv2.imwrite(str(tmp_path / "frames" / f"{k:05}.png"), frame)
        board = read_located(frame, g, found.profile).board
        entries.append({"game": 0, "frame": f"frames/{k:05}.png", "board": list(board.grid), "mines": board.mines,
                        "state": board.state, "clicks": [], "button": "left", "strategy": "full",
                        "first_click": "none", "x_edges": list(g.xs), "y_edges": list(g.ys)})
    (tmp_path / "session.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    scored: list[int] = []
    real = vision_reader.read_located

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        reading = real(*args, **kwargs)
        scored.append(reading.seen.cells.plain.scored)
        return reading

    monkeypatch.setattr(vision_reader, "read_located", counted)
    report = replay(tmp_path, VisionReader())
    assert report.read_differences == [] and report.steps == 2
    # the first step's board found afresh (no read at a place yet); the second, read at its place, scores its
    # changed cell alone
    assert scored == [1]


def test_a_frame_that_did_not_read_is_not_read_afresh_while_it_and_what_the_reader_holds_stay_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pop-up over the board is waited out by capturing the screen again and again: a frame the reader could
    not read fails the same way while its pixels and the reader's board, profile and last reading stay, without
    locating the board afresh with every profile each time; a frame that changed is read."""
    reader = VisionReader()
    first = load_image(SGT / "30x16-first.png")
    assert size(reader.read(first)) == (16, 30)
    assert reader.geometry is not None
    x, y, w, h = reader.geometry.bbox
    covered = with_pop_up(first, slice(y + h // 3, y + 2 * h // 3), slice(x + w // 4, x + 3 * w // 4))
    found = finds(monkeypatch)
    with pytest.raises(ReadError) as caught:
        reader.read(covered)
    tried = len(found)
    assert tried >= 1 and reader.relocations == 1
    with pytest.raises(ReadError) as again:
        reader.read(covered.copy())
    assert again.value is caught.value
    assert len(found) == tried and reader.relocations == 2
    # the pop-up moved: another frame, read
    with pytest.raises(ReadError):
        reader.read(with_pop_up(first, slice(y, y + h // 3), slice(x + w // 4, x + 3 * w // 4)))
    assert len(found) > tried
    # the pop-up gone: the board reads, and the frame that did not read is read afresh once the reader holds
    # another reading
    assert size(reader.read(first)) == (16, 30)
    tried = len(found)
    with pytest.raises(ReadError):
        reader.read(covered)
    assert len(found) > tried


def test_a_board_read_pixel_for_pixel_beside_a_toast_says_so_and_one_under_it_is_not_read() -> None:
    """nicegui-minesweeper's "You won!" toast, still up over the edge of the next game's fresh board: it hides
    the bottom few pixels of row 8's tiles, outside the windows read, whose shadow leaves those cells 2.2 from
    the covered look. Every cell read pixel for pixel: the reading says so (play goes on rather than wait for the
    toast to go). The toast as it came up over the last won board hides the lower half of four cells: not
    read."""
    page = Path(__file__).parents[1] / "fixtures" / "web-page"
    profile = load_profile(page / "profiles" / "nicegui-minesweeper-40px")
    reading = read_screenshot(load_image(page / "nicegui-toast-beside.png"), profiles=[profile])
    assert reading.board.grid == ("#" * 9,) * 9
    assert reading.exact
    reader = VisionReader()
    reader.profile = profile
    view = reader.read(load_image(page / "nicegui-toast-beside.png"))
    assert view.exact and view.board.grid == reading.board.grid
    with pytest.raises(ReadError) as caught:
        read_screenshot(load_image(page / "nicegui-toast-over.png"), profiles=[profile])
    assert sorted(caught.value.cells) == [(8, 3), (8, 4), (8, 5), (8, 6)]
    part = caught.value.board_but_unread
    assert part is not None and part.grid[8] == ".11~~~~1."  # its empty cells drawn "0" by the client


def test_a_board_read_where_it_was_but_for_cells_under_a_pop_up_is_not_read_with_every_other_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pop-up over a fifth of the board: the profile in use, locating it afresh, reads it where it was but for
    the cells under the pop-up. That board is its client's: no other profile is tried (a read with every one
    takes several times as long), and the error is the profile in use's. Over most of the board, the board may
    be another client's (a window swapped): every profile is tried, as at a board found elsewhere."""
    first = load_image(SGT / "30x16-first.png")
    reader = VisionReader()
    reader.read(first)
    assert reader.geometry is not None and reader.profile is not None
    x, y, w, h = reader.geometry.bbox
    tried = finds(monkeypatch)
    with pytest.raises(ReadError) as caught:
        reader.read(with_pop_up(first, slice(y + h // 3, y + 2 * h // 3), slice(x + w // 4, x + 3 * w // 4)))
    assert tried == [1]  # the profile in use alone
    assert f"profile {reader.profile.name} well" in str(caught.value) and "with the profile in use" not in str(
        caught.value)
    assert caught.value.board_but_unread is not None
    assert sum(row.count("~") for row in caught.value.board_but_unread.grid) == 96
    tried.clear()
    with pytest.raises(ReadError):
        reader.read(with_pop_up(first, slice(y + h // 8, y + h - h // 8), slice(x + w // 8, x + w - w // 8)))
    assert tried[0] == 1 and len(tried) == 2 and tried[1] > 1  # then every profile


def test_cells_refused_by_a_profile_read_a_pixel_off_its_size_are_read_with_the_clients_other_sizes() -> None:
    """sgt-mines with 13 px tiles: its new board, covered tiles alone, is read pixel for pixel by the 12 px
    profile as it is (a pixel off, within the table's ``pitch_least_px``). After the first opening that
    profile's looks name the empty cells (drawn otherwise at 13 px) on a third of the board only with their
    windows moved by a pixel (the table's ``nudge_reach``), and read the board as written down. Read where they
    are (``nudge_reach`` 0), the profile refuses them, where it was: not a pop-up over the client's board,
    since the profile was never made at this size. The client's other sizes drawn at 13 px are tried, and
    read the board as written down."""
    fresh = FIXTURES / "drawn-sizes" / "sgt-mines-13px-fresh.png"
    opened = FIXTURES / "drawn-sizes" / "sgt-mines-13px-opened.png"
    expected = Board.parse(opened.with_suffix(".board").read_text()).grid
    for reach in (limits.LIMITS.nudge_reach, 0):
        with limits.using(nudge_reach=reach):
            reader = VisionReader()
            first = reader.read(load_image(fresh))
            assert first.board.grid == Board.parse(fresh.with_suffix(".board").read_text()).grid
            assert reader.profile is not None and reader.profile.pitch == (12.0, 12.0)
            in_use = reader.profile
            if reach:
                assert read_screenshot(load_image(opened), profiles=[in_use]).board.grid == expected
            else:
                with pytest.raises(ReadError, match="match no template"):
                    read_screenshot(load_image(opened), profiles=[in_use])
            view = reader.read(load_image(opened))
            assert view.board.grid == expected
            assert reader.profile is not None and (reach or reader.profile.drawn_from)


def test_a_board_the_profile_in_use_reads_with_numbers_unknown_at_another_size_is_read_with_its_client_other_sizes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """sgt-mines with 13 px tiles in play (frames as play captured them): the new board is read pixel for pixel
    by the 12 px looks as they are. After the first click those looks, drawn at 13 px, name the empty cells by
    a second look (their windows moved a pixel) but not the 1s and 2s, which they leave open cells of unknown
    number. Located afresh, the board is read beside the client's other sizes drawn at 13 px, which name every
    number: the board as written down (checked by eye, enlarged). Read with the profile in use alone, 7
    numbers stay unknown."""
    drawn = FIXTURES / "drawn-sizes"
    first = ("..1######", "..1##212#", "..1221.1#", "11.....11", "#1.......", "#2..111..", "#1113#2..",
             "######2..", "######1..")
    for kin in (True, False):
        if not kin:
            monkeypatch.setattr(InUse, "kin", lambda self: [])
        reader = VisionReader()
        assert set("".join(reader.read(load_image(drawn / "sgt-mines-13px-game-fresh.png")).board.grid)) == {"#"}
        assert reader.profile is not None and reader.profile.name == "sgt-mines-12px"
        grid = reader.read(load_image(drawn / "sgt-mines-13px-game-first.png")).board.grid
        if kin:
            assert grid == first
        else:
            assert "".join(grid).count("=") == 7
            assert all(ch == want or ch == "=" for row, want_row in zip(grid, first, strict=True)
                       for ch, want in zip(row, want_row, strict=True))


def test_a_won_board_whose_flags_the_profile_in_use_never_held_close_is_read_beside_its_client_other_sizes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """sgt-mines with 23 px tiles, read in play with its 12 px looks drawn at that size: at the win the client
    flags every mine, in a look those looks do not hold close. The board is read where it was beside the
    client's other sizes drawn at 23 px, which name the flags: won, as written down. Without them (``InUse.kin``
    none) the board is read where it was but for those flags (its covered tiles and cells refused where they
    are named by a second look), no other profile is tried (something lies over a few cells of a board read
    where it was), and the loop judges the game from that board: won, the flags left covered."""
    drawn = FIXTURES / "drawn-sizes"
    expected = {name: Board.parse((drawn / f"sgt-mines-23px-{name}.board").read_text()) for name in
                ("fresh", "before", "won")}
    for kin in (True, False):
        if not kin:
            monkeypatch.setattr(InUse, "kin", lambda self: [])
        reader = VisionReader()
        assert reader.read(load_image(drawn / "sgt-mines-23px-fresh.png")).board.grid == expected["fresh"].grid
        before = reader.read(load_image(drawn / "sgt-mines-23px-before.png")).board
        assert before.grid == expected["before"].grid and before.mines == 10
        assert reader.profile is not None and reader.profile.drawn_from == "sgt-mines-12px"
        if kin:
            view = reader.read(load_image(drawn / "sgt-mines-23px-won.png"))
            assert view.board.grid == expected["won"].grid and view.board.state == "won"
            continue
        with pytest.raises(ReadError) as caught:
            reader.read(load_image(drawn / "sgt-mines-23px-won.png"))
        part = caught.value.board_but_unread
        flags = {(r, c) for r, row in enumerate(expected["won"].grid) for c, ch in enumerate(row) if ch == "F"}
        assert part is not None and {(r, c) for r, row in enumerate(part.grid) for c, ch in enumerate(row)
                                     if ch == REFUSED} == flags
        # the last click opened the 2 at the top (its cascade the rest)
        won = won_beneath_unread(before, part.grid, [(0, 4)], REFUSED)
        assert won is not None and won.state == "won"
        assert won.grid == tuple(row.replace("F", "#") for row in expected["won"].grid)


def test_numbers_and_a_mine_the_profile_in_use_does_not_name_at_a_drawn_size_are_read_with_its_client_other_sizes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """sgt-mines with 24 px tiles in play (frames as play captured them): the new board is read with its 12 px
    looks drawn at 24 px. Those looks name neither its red 3 (an open cell of unknown number) nor, at the loss,
    the mine that went off (refused: far from its look, which sgt-mines draws anew at each size). The board is
    lined up again, and located afresh, beside the client's other sizes drawn at 24 px, whose 32 px looks name
    both: each board as written down (checked by eye). Without them (``InUse.kin`` none) the 3 stays unknown
    and the lost board is not read."""
    drawn = FIXTURES / "drawn-sizes"
    expected = {name: Board.parse((drawn / f"sgt-mines-24px-{name}.board").read_text())
                for name in ("fresh", "three", "lost")}
    for kin in (True, False):
        if not kin:
            monkeypatch.setattr(InUse, "kin", lambda self: [])
        reader = VisionReader()
        assert reader.read(load_image(drawn / "sgt-mines-24px-fresh.png")).board.grid == expected["fresh"].grid
        assert reader.profile is not None and reader.profile.drawn_from == "sgt-mines-12px"
        three = reader.read(load_image(drawn / "sgt-mines-24px-three.png")).board
        if kin:
            assert three.grid == expected["three"].grid
            lost = reader.read(load_image(drawn / "sgt-mines-24px-lost.png")).board
            assert lost.grid == expected["lost"].grid and lost.state == "lost"
            continue
        assert three.grid == tuple(row.replace("3", "=") for row in expected["three"].grid)
        with pytest.raises(ReadError, match=r"\(0, 7\)"):
            reader.read(load_image(drawn / "sgt-mines-24px-lost.png"))


def test_a_digit_a_second_look_finds_nearer_another_characters_look_than_where_it_is_is_left_unknown() -> None:
    """nicegui-minesweeper at 50 % zoom (20 px squares, digits 4x6 px), read with its calibrated looks drawn at
    that size with the digits its other sizes drew there (each number's variants a pixel or two apart). Its 3s
    at (6, 2) and (7, 3) come nearest a 3 where they are (rms 16.5), a 2 nearly as near (17.5: refused), and,
    their windows moved by a second look, one of the 2s nearer still (15.4, and the looks at that place far
    off). A second look that names another character than the one nearest where the cell is must be as much
    nearer as a margin asks of any cell (here 0.07): the 3s are left unknown, never read as 2s, which made the
    board contradict itself and play stop. Every cell named is the cell on screen (board written down by eye)."""
    drawn = Path(__file__).parents[1] / "fixtures" / "drawn-sizes"
    reader = VisionReader(str(drawn / "profiles" / "nicegui-minesweeper-40px@20.0px"))
    got = reader.read(load_image(drawn / "nicegui-zoom0.5-threes.png")).board.grid
    want = Board.parse((drawn / "nicegui-zoom0.5-threes.txt").read_text()).grid
    assert [(r, c, got[r][c]) for r in range(9) for c in range(9) if got[r][c] not in ("=", want[r][c])] == []
    assert got[6][2] == got[7][3] == "="
    # every covered tile and empty cell is named: only numbers are left unknown
    assert sum(ch in "#." for row in got for ch in row) == sum(ch in "#." for row in want for ch in row)
