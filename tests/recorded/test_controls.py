"""Finding the controls beside a board on screenshots of real clients, and finding one again."""

from __future__ import annotations

import json

import pytest

from sweepbot.rect import Rect
from sweepbot.vision.capture import load_image
from sweepbot.vision.controls import around_board, control_look, controls_near, decode_look, encode_look, find_control
from sweepbot.vision.locate import locate
from tests.fixture_boards import FIXTURES

CONTROLS = FIXTURES / "controls"
EXPECTED: dict[str, list[int]] = json.loads((CONTROLS / "controls.json").read_text())


def _near(a: Rect, b: Rect, slack: int = 3) -> bool:
    return all(abs(p - q) <= slack for p, q in zip(a.as_tuple(), b.as_tuple(), strict=True))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_new_game_control_is_among_the_controls_found_beside_the_board(name: str) -> None:
    image = load_image(CONTROLS / name)
    board = Rect(*locate(image).bbox)
    found = controls_near(image, board, around_board(board, (image.shape[1], image.shape[0])))
    want = Rect(*EXPECTED[name])
    boxes = [c.box for c in found]
    assert any(_near(b, want) for b in boxes), (want, boxes)
    # nothing found on the board, nothing smaller than a control
    assert all(b.intersect(board) is None and min(b.w, b.h) >= 10 for b in boxes)
    place = next(i for i, b in enumerate(boxes) if _near(b, want))
    if name.startswith(("gnome-mines", )):
        assert place < 5  # a menu button and a clock come first, from the top down
    else:
        assert place == 0  # a smiley or a yellow button first, else the topmost button


def test_a_control_is_found_again_beside_the_board_from_its_stored_look() -> None:
    image = load_image(CONTROLS / "dangeruxb-fresh.png")
    board = Rect(*locate(image).bbox)
    want = Rect(*EXPECTED["dangeruxb-fresh.png"])
    look = decode_look(encode_look(control_look(image, want)))
    offset = (want.x - board.x, want.y - board.y)
    assert find_control(image, board, offset, [look]) == want
    # the same place on another client's screen holds no such control
    other = load_image(CONTROLS / "xdemineur-fresh.png")
    other_board = Rect(*locate(other).bbox)
    assert find_control(other, other_board, offset, [look]) is None


def test_a_control_whose_label_is_set_in_another_font_is_found_at_its_place_by_its_centre() -> None:
    """gnome-mines on a GNOME desktop sets "Play Again" in the desktop's font: the button is 9 px wider than
    the look the built-in profile keeps, and its left edge 9 px further left, but its centre is where it was."""
    from pathlib import Path

    import sweepbot
    from sweepbot.vision.controls import find_known_control
    from sweepbot.vision.profile import load_profile

    image = load_image(CONTROLS / "gnome-mines-wayland-won.png")
    board = Rect(*locate(image).bbox)
    control = load_profile(Path(sweepbot.__file__).parent / "profiles" / "gnome-mines-30px").play.new_game_control
    assert control is not None
    looks = [decode_look(t) for t in control.looks]
    assert find_control(image, board, control.offset, looks) is None  # its look no longer matches
    area = around_board(board, (image.shape[1], image.shape[0]))
    found = find_known_control(image, board, control.offset, looks, area)
    assert found is not None and _near(found, Rect(*EXPECTED["gnome-mines-wayland-won.png"]))


def test_a_control_of_a_page_zoomed_out_is_found_at_its_place_drawn_a_pixel_off_its_scaled_size() -> None:
    """nicegui-minesweeper's page at 45 % zoom (a frame of `benchmarks/any_size.py`'s recording): its RESTART
    button, 90x35 px where the page was calibrated, is laid out 41x15 px, where its look scaled with the board
    is 40x16; found at its place all the same, and nowhere on another client's screen."""
    from sweepbot.vision.profile import load_profile

    drawn = FIXTURES / "drawn-sizes"
    image = load_image(drawn / "nicegui-zoom0.45-play.png")
    control = load_profile(drawn / "profiles" / "nicegui-minesweeper-40px@18.0px").play.new_game_control
    assert control is not None
    looks = [decode_look(t) for t in control.looks]
    assert (40, 16) in {(look.shape[1], look.shape[0]) for look in looks}
    board = Rect(*locate(image).bbox)
    found = find_control(image, board, control.offset, looks)
    assert found is not None and _near(found, Rect(8, 27, 41, 15), slack=1)  # checked by eye on the frame
    other = load_image(CONTROLS / "xdemineur-fresh.png")
    assert find_control(other, Rect(*locate(other).bbox), control.offset, looks) is None


def test_a_smiley_that_text_recognition_reads_letters_into_unsure_is_tried_first_as_the_new_game_face() -> None:
    """A generated client's page (seed 301) starts its games with a smiley in a grey button (x 89-118, y 31-60,
    checked by eye), into which tesseract reads "ney" (at 24 of 100): tried first, as a face; its buttons
    "Settings", "Pause" and "Statistics", read surely, are left alone."""
    from sweepbot.calibration.live.ways import ways_to_try
    from sweepbot.vision.controls import Control

    image = load_image(CONTROLS / "generated-301-face.png")
    board = Rect(*locate(image).bbox)
    ways = ways_to_try(controls_near(image, board, around_board(board, (image.shape[1], image.shape[0]))), image)
    first = ways.steps[0]
    assert isinstance(first, Control) and Rect(89, 31, 30, 30).contains(*first.centre)
    assert [said.split("(")[-1] for said in ways.left_alone] == ["'Settings')", "'Pause')", "'Statistics')"]
    assert sum(isinstance(step, Control) for step in ways.steps) == 1


def test_a_level_dialog_over_the_board_is_found_past_the_boards_own_cells() -> None:
    """A generated client's page (seed 305) asks for a level in a dialog over its ended 16x16 board: its three
    buttons are found though the board's numbered and mined cells, each a face with something drawn on it,
    come first from the top, and the level that names the board played is tried first."""
    from sweepbot.calibration.live.ways import labelled_new_game

    image = load_image(CONTROLS / "generated-305-levels.png")
    geometry = locate(image)
    assert (geometry.rows, geometry.cols) == (16, 16)
    found = labelled_new_game(image, Rect(0, 0, image.shape[1], image.shape[0]), geometry.pitch[0], (16, 16))
    assert [(c.box.y, c.box.h) for c in found] == [(313, 31)] * 3
    assert [c.box.x for c in found] == [511, 405, 655]  # Medium 16x16, Small 9x9, Large 30x16
