"""The band around the board: something laid over part of the board's edge, told from a window redrawn."""

from __future__ import annotations

import numpy as np

from sweepbot.vision.surround import SAMPLE, band, laid_over, laid_over_extent, sample

BOX = (40, 30, 90, 60)  # x, y, width, height


def screen() -> np.ndarray:
    frame = np.full((160, 200, 3), (60, 120, 90), np.uint8)
    x, y, w, h = BOX
    frame[y:y + h, x:x + w] = 190
    return frame


def test_nothing_changed_is_nothing_laid_over() -> None:
    reference = band(screen(), BOX)
    assert not laid_over(reference, screen(), BOX)


def test_a_toast_over_the_bottom_edge_is_laid_over() -> None:
    reference = band(screen(), BOX)
    frame = screen()
    frame[80:104, 60:110] = (40, 200, 40)  # over the board's bottom row and below it
    assert laid_over(reference, frame, BOX)


def test_a_toast_inside_the_board_only_is_not_seen_here() -> None:
    reference = band(screen(), BOX)
    frame = screen()
    frame[50:70, 60:100] = 0
    assert not laid_over(reference, frame, BOX)


def test_a_window_recoloured_all_round_is_no_overlay() -> None:
    reference = band(screen(), BOX)
    frame = screen()
    x, y, w, h = BOX
    board = frame[y:y + h, x:x + w].copy()
    frame[:] = (30, 60, 140)  # a brown background after a loss
    frame[y:y + h, x:x + w] = board
    assert not laid_over(reference, frame, BOX)


def test_a_board_at_the_screen_edge_has_a_shorter_band() -> None:
    box = (0, 0, 90, 60)
    frame = screen()
    reference = band(frame, box)
    assert len(reference) > 0
    frame[55:70, 20:60] = 0
    assert laid_over(reference, frame, box)


def framed(lower: int = 0) -> np.ndarray:
    """The screen with a frame line of a pixel around the board, BAND_FROM + 1 px out, drawn ``lower`` px
    lower (a web page that laid the board out a pixel lower or taller)."""
    frame = screen()
    x, y, w, h = BOX
    top, bottom = y - 4 + lower, y + h + 3 + lower
    frame[top, x - 4:x + w + 4] = frame[bottom, x - 4:x + w + 4] = 20
    frame[top:bottom + 1, x - 4] = frame[top:bottom + 1, x + w + 3] = 20
    return frame


def test_a_frame_line_a_pixel_lower_is_nothing_laid_over() -> None:
    reference = band(framed(), BOX)
    assert not laid_over(reference, framed(lower=1), BOX)


def test_a_toast_over_a_frame_line_a_pixel_lower_is_laid_over() -> None:
    reference = band(framed(), BOX)
    frame = framed(lower=1)
    frame[80:104, 60:110] = (40, 200, 40)
    assert laid_over(reference, frame, BOX)


def test_the_extent_of_a_dialog_laid_over_the_board_reaches_past_its_edges_with_it() -> None:
    reference = sample(screen())
    assert laid_over_extent(reference, screen(), BOX) == BOX  # nothing changed: the board alone
    frame = screen()
    frame[12:100, 70:150] = 240  # a dialog over the board's middle, its title above the board, past its right
    frame[150:158, 4:20] = 0  # a change apart from the board and the dialog (a clock ticking)
    x, y, w, h = laid_over_extent(reference, frame, BOX)
    assert (x, y) == (40, 12) and abs(x + w - 150) < SAMPLE and abs(y + h - 100) < SAMPLE
    frame[:] = 0  # the whole screen recoloured: no more than the board with its size on each side
    x, y, w, h = laid_over_extent(reference, frame, BOX)
    assert (x, y, y + h) == (0, 0, 30 + 2 * 60) and abs(x + w - 200) < SAMPLE
    assert laid_over_extent(reference, frame[:100], BOX) == BOX  # another screen's frame: the board alone


def test_what_lies_over_the_board_is_told_at_a_new_game_even_where_overlays_are_no_longer_waited_for() -> None:
    from sweepbot.rect import Rect
    from sweepbot.watch.overlays import Overlays

    overlays, board = Overlays(), Rect(*BOX)
    overlays.keep(screen(), board)
    frame = screen()
    frame[12:70, 70:150] = 240  # a dialog over the board, past its top and right edges
    assert overlays.laid_over(frame) and overlays.covered(frame) and not overlays.covered(screen())
    overlays.stayed()  # one stayed: play no longer waits for what lies over the board to go
    assert not overlays.laid_over(frame) and overlays.covered(frame)
    x, y, w, _ = overlays.extent(frame, board).as_tuple()
    assert (x, y) == (40, 12) and abs(x + w - 150) < SAMPLE
