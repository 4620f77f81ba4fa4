"""Locating boards drawn synthetically: many pitches (fractional too), gaps, bevels, covered/revealed mixes."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from sweepbot.vision.capture import RecordedSource, Region, load_image
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import LocateError, locate


def draw_board(
    rows: int, cols: int, pitch: float, gap: int, bevel: int, origin: tuple[int, int], seed: int,
    size: tuple[int, int] = (900, 1400), revealed: float = 0.4,
) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A board of tiles on a plain background; returns the image and each tile's (x0, y0, x1, y1), row-major."""
    rng = np.random.default_rng(seed)
    img = np.full((*size, 3), (236, 240, 242), np.uint8)
    tiles = []
    x0, y0 = origin
    for r in range(rows):
        for c in range(cols):
            left, top = round(x0 + c * pitch), round(y0 + r * pitch)
            right, bottom = round(x0 + (c + 1) * pitch) - gap, round(y0 + (r + 1) * pitch) - gap
            tiles.append((left, top, right, bottom))
            if rng.random() < revealed:
                cv2.rectangle(img, (left, top), (right - 1, bottom - 1), (200, 200, 200), -1)
                if gap == 0:
                    cv2.rectangle(img, (left, top), (right - 1, bottom - 1), (128, 128, 128), 1)
                n = int(rng.integers(0, 4))
                if n:
                    scale = (bottom - top) / 36
                    cv2.putText(img, str(n), (left + (right - left) // 4, bottom - (bottom - top) // 5),
                                cv2.FONT_HERSHEY_SIMPLEX, scale, [(255, 0, 0), (0, 128, 0), (0, 0, 255)][n - 1],
                                max(1, round(scale * 2)))
            else:
                cv2.rectangle(img, (left, top), (right - 1, bottom - 1), (180, 180, 180), -1)
                for k in range(bevel):
                    cv2.line(img, (left + k, top + k), (right - 1 - k, top + k), (255, 255, 255), 1)
                    cv2.line(img, (left + k, top + k), (left + k, bottom - 1 - k), (255, 255, 255), 1)
                    cv2.line(img, (left + k, bottom - 1 - k), (right - 1 - k, bottom - 1 - k), (110, 110, 110), 1)
                    cv2.line(img, (right - 1 - k, top + k), (right - 1 - k, bottom - 1 - k), (110, 110, 110), 1)
    return img, tiles


def assert_tiles_inside(geo: Geometry, rows: int, cols: int, tiles: list[tuple[int, int, int, int]]) -> None:
    assert (geo.rows, geo.cols) == (rows, cols)
    for i, (left, top, right, bottom) in enumerate(tiles):
        r, c = divmod(i, cols)
        x, y, w, h = geo.cell_rect(r, c)
        assert x - 1 <= left and right <= x + w + 1, (r, c, (x, w), (left, right))
        assert y - 1 <= top and bottom <= y + h + 1, (r, c, (y, h), (top, bottom))
        cx, cy = geo.center(r, c)
        assert left <= cx < right and top <= cy < bottom


@pytest.mark.parametrize(
    ("pitch", "gap", "bevel", "rows", "cols"),
    [
        (10, 0, 2, 16, 30), (12, 0, 2, 32, 32), (16, 0, 2, 9, 9), (20, 0, 2, 16, 30), (21, 0, 3, 16, 30),
        (24, 4, 0, 16, 16), (27.6, 5, 0, 16, 30), (34.4, 5, 0, 16, 16), (36, 0, 3, 11, 11),
        (48.7, 5, 0, 8, 8), (48, 0, 4, 8, 8), (62, 6, 0, 8, 10),
    ],
)
def test_locate_synthetic(pitch: float, gap: int, bevel: int, rows: int, cols: int) -> None:
    for seed, origin in ((1, (37, 53)), (2, (101, 9))):
        img, tiles = draw_board(rows, cols, pitch, gap, bevel, origin, seed)
        geo = locate(img)
        assert_tiles_inside(geo, rows, cols, tiles)
        assert geo.pitch[0] == pytest.approx(pitch, abs=0.2)


def test_locate_all_revealed_and_all_covered() -> None:
    for revealed in (0.0, 1.0):
        img, tiles = draw_board(9, 9, 24, 0, 2, (200, 300), 3, revealed=revealed)
        assert_tiles_inside(locate(img), 9, 9, tiles)


def test_no_board_and_two_boards() -> None:
    with pytest.raises(LocateError, match="no board"):
        locate(np.full((600, 800, 3), 127, np.uint8))
    noise = np.random.default_rng(0).integers(0, 256, (600, 800, 3), dtype=np.uint8)
    with pytest.raises(LocateError, match="no board"):
        locate(noise)
    img, _ = draw_board(9, 9, 20, 0, 2, (20, 20), 4, size=(400, 800))
    img[:, 400:] = img[:, :400]
    with pytest.raises(LocateError, match="two boards"):
        locate(img)


def test_geometry_helpers() -> None:
    geo = Geometry((10, 38, 65, 93), (5, 33, 61))
    assert (geo.rows, geo.cols, geo.bbox) == (2, 3, (10, 5, 83, 56))
    assert geo.cell_at(40, 40) == (1, 1)
    assert geo.cell_at(9, 40) is None
    assert geo.center(0, 0) == (24, 19)
    assert geo.shifted(-100, 0).xs[0] == -90
    assert geo.scaled(2).bbox == (20, 10, 166, 112)


def test_recorded_source(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    for i in range(2):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((40, 60, 3), i * 100, np.uint8))
    src = RecordedSource.from_dir(folder)
    assert src.grab()[0, 0, 0] == 0
    second = src.grab(Region(10, 5, 20, 10))
    assert second.shape == (10, 20, 3) and second[0, 0, 0] == 100
    assert src.grab().shape == (40, 60, 3)  # the last frame repeats
    assert src.monitors()[1].region == Region(0, 0, 60, 40)
    assert load_image(folder / "0.png").dtype == np.uint8


def test_locate_follows_unevenly_spaced_columns() -> None:
    """gnome-mines lays a 30-column board out as 21 columns of 30 px and 9 of 29 px (and its rows likewise):
    every tile must start at the same place in its cell, not drift by up to 4 px as a straight fit does."""
    image = load_image(Path(__file__).parents[1] / "fixtures" / "gnome-mines" / "digits-30-4.png")
    geo = locate(image)
    assert (geo.rows, geo.cols) == (16, 30)
    pixels = image.astype(int)
    ground = pixels[geo.ys[0] + 1, geo.xs[0] - 3]  # the light ground between tiles

    def tile_starts(band: np.ndarray, edges: tuple[int, ...]) -> list[int]:
        # per cell, the first pixel line (across the whole board) that is mostly tile, not ground
        tile = (np.abs(band - ground).sum(axis=2) >= 20).mean(axis=0) > 0.5
        return [next(x for x in range(a, b) if tile[x - edges[0]]) - a for a, b in pairwise(edges)]

    x_starts = tile_starts(pixels[geo.ys[0]:geo.ys[-1], geo.xs[0]:geo.xs[-1]], geo.xs)
    y_starts = tile_starts(pixels[geo.ys[0]:geo.ys[-1], geo.xs[0]:geo.xs[-1]].transpose(1, 0, 2), geo.ys)
    assert max(x_starts) - min(x_starts) <= 1, x_starts
    assert max(y_starts) - min(y_starts) <= 1, y_starts


@pytest.mark.parametrize("texture", ["soft-shadow", "stippled"])
def test_tiles_told_apart_only_by_a_soft_shadow_or_a_fine_texture_are_found(texture: str) -> None:
    rows, cols, pitch = 9, 14, 26
    img = np.full((500, 700, 3), 250, np.uint8)
    tiles = []
    x0, y0 = 40, 60
    for r in range(rows):
        for c in range(cols):
            left, top = x0 + c * pitch, y0 + r * pitch
            right, bottom = left + pitch, top + pitch
            tiles.append((left, top, right - 2, bottom - 2))
            if texture == "soft-shadow":
                # a flat face with a shadow below and right that darkens by 2 levels a pixel: no edge of 14
                img[top:bottom, left:right] = 158
                for k, v in enumerate((156, 154, 152, 150)):
                    img[bottom - 4 + k, left:right] = v
                    img[top:bottom, right - 4 + k] = v
            else:
                # a checkerboard stipple of two greys on every tile, one dark line between tiles
                yy, xx = np.mgrid[top:bottom, left:right]
                img[top:bottom, left:right] = np.where(((yy + xx) % 2 == 0)[..., None], 150, 210)
                img[bottom - 2:bottom, left:right] = 60
                img[top:bottom, right - 2:right] = 60
    geo = locate(img)
    assert_tiles_inside(geo, rows, cols, tiles)


def test_locate_follows_columns_of_different_widths() -> None:
    """mfranceschi-minesweeper widens a column from 34 to 39 px once a digit shows in it: each edge must lie
    in the gap between its columns, not on a line fitted through the wide ones (edges checked by eye)."""
    folder = Path(__file__).parents[1] / "fixtures" / "mfranceschi-minesweeper"
    geo = locate(load_image(folder / "widened-columns.png"))
    assert geo.xs == (237, 271, 310, 349, 388, 427, 466, 505, 544)
    assert geo.ys == tuple(range(64, 313, 31))
    # two narrow columns side by side at the right: a step of 34 px among steps of 39
    geo = locate(load_image(folder / "widened-columns-right.png"))
    assert geo.xs == (237, 276, 315, 354, 393, 432, 471, 505, 539)
    assert geo.ys == tuple(range(64, 313, 31))
    # one wide column among narrow ones, next to a column of flat grey cells: a step of 36.5 px among 34
    geo = locate(load_image(folder / "widened-second-column.png"))
    assert geo.xs == (237, 271, 310, 344, 378, 412, 446, 480, 514)
    assert geo.ys == tuple(range(64, 313, 31))


def test_locate_finds_stippled_covered_cells_beside_flat_opened_ones() -> None:
    """xbomb draws covered cells stippled and opened ones flat white: on a board in play the flat cells
    alone make a grid too; the whole 8x8 board is found (edges checked by eye on the 2 px black lines between
    cells)."""
    for name in ("stippled-covered.png", "opened-columns.png"):  # the flat cells alone: 7x4 and 6x4
        geo = locate(load_image(Path(__file__).parents[1] / "fixtures" / "xbomb" / name))
        assert geo.xs == tuple(range(26, 427, 50)), name
        assert geo.ys == tuple(range(38, 439, 50)), name


def test_columns_of_one_width_keep_edges_through_centres() -> None:
    """Faces that differ in width by less than a few pixels (a bevel drawn a pixel wider here and there) give
    no uneven columns: a board drawn on an even pitch is located on that pitch."""
    image, tiles = draw_board(9, 12, 24, 2, 2, (40, 60), seed=3, revealed=0.0)
    geo = locate(image)
    assert_tiles_inside(geo, 9, 12, tiles)
    assert set(np.diff(geo.xs)) == {24} and set(np.diff(geo.ys)) == {24}


def test_locate_finds_rows_of_cells_told_apart_by_fainter_edges() -> None:
    """kmines tells its opened cells apart by edges of 12 levels (covered ones by more): rows of opened cells
    alone are one flat area with the usual edges, and the board was found without them. The whole 9x9 board
    is found (edges checked by eye)."""
    folder = Path(__file__).parents[1] / "fixtures" / "kmines"
    for name in ("lost-opened-top.png", "won-opened-top.png"):
        geo = locate(load_image(folder / name))
        assert geo.xs == tuple(range(79, 341, 29)), name
        assert geo.ys == tuple(range(139, 401, 29)), name


def test_locate_follows_rows_drawn_shorter_once_opened() -> None:
    """The web page draws a row 2 px shorter once no covered cell is left in it: rows 7 and 8 of this board
    are 24 px among rows of 26. Each edge lies on the light line above its row (checked by eye), not on a
    line fitted through the covered rows, which runs up to 4 px off below the short rows."""
    geo = locate(load_image(Path(__file__).parents[1] / "fixtures" / "web-page" / "shrunk-rows.png"))
    lines = (*range(50, 233, 26), 256, 280)
    assert len(geo.ys) == len(lines)
    assert max(abs(a - b) for a, b in zip(geo.ys, lines, strict=True)) <= 1
    assert geo.xs == tuple(range(29, 273, 27))


def test_what_is_worked_out_from_a_profile_is_kept_beside_it_and_goes_with_it() -> None:
    """A profile is frozen: what reading works out from it once (its looks at another size, its first looks)
    is kept beside it, the same object each time, and let go when the profile is."""
    import gc

    from sweepbot.vision.derived import kept_for
    from sweepbot.vision.profile import BUILTIN_DIR, load_profile
    from sweepbot.vision.scaled import at_pitch

    profile = load_profile(BUILTIN_DIR / "xdemineur-21px")
    assert "_at_pitch" not in vars(profile) and kept_for(profile) == 0
    drawn = at_pitch(profile, (30.0, 30.0))
    assert drawn.pitch == (30.0, 30.0) and at_pitch(profile, (30.0, 30.0)) is drawn
    digits = load_profile(BUILTIN_DIR / "sgt-mines-20px")
    assert len(set(digits.labels)) < len(digits.labels)  # a character with two looks
    assert digits.primary() is digits.primary() and kept_for(digits) == 1
    assert profile.primary() is profile  # one look of each character: nothing to keep
    assert kept_for(profile) == 1 and set(vars(profile)) == set(vars(load_profile(BUILTIN_DIR / "xdemineur-21px")))
    key = id(profile)
    del profile, drawn
    gc.collect()
    from sweepbot.vision import derived

    assert key not in derived._KEPT


def test_a_profile_keeps_its_looks_drawn_at_the_last_few_sizes_asked_for_only() -> None:
    """A process reading boards at many sizes keeps the profile drawn at the last ``FAMILY_KEPT`` of them,
    the one asked for again among them the same object: an older size is let go (with what was worked out
    from it), and drawn afresh when asked for again."""
    import gc
    import weakref

    from sweepbot.vision.derived import FAMILY_KEPT, kept_for
    from sweepbot.vision.profile import BUILTIN_DIR, load_profile
    from sweepbot.vision.scaled import at_pitch

    profile = load_profile(BUILTIN_DIR / "xdemineur-21px")
    first = at_pitch(profile, (30.0, 30.0))
    gone = weakref.ref(first)
    for k in range(1, FAMILY_KEPT):
        at_pitch(profile, (30.0 + k, 30.0 + k))
        assert at_pitch(profile, (30.0, 30.0)) is first  # asked for again: the last asked for
    del first
    for k in range(FAMILY_KEPT - 1):
        at_pitch(profile, (50.0 + k, 50.0 + k))
    gc.collect()
    assert gone() is not None  # one of the last FAMILY_KEPT sizes asked for
    at_pitch(profile, (60.0, 60.0))
    gc.collect()
    assert gone() is None
    assert kept_for(profile) == FAMILY_KEPT
    assert at_pitch(profile, (30.0, 30.0)).pitch == (30.0, 30.0)

def touching_tiles(rows: int, cols: int, pitch: float, origin: tuple[int, int],
                   opened: tuple[int, int, float] | None = None) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A board of tiles drawn edge to edge with their corners cut (a dark ground shows only where four meet),
    on that ground; ``opened`` (row, col, radius): the tiles within the radius of that cell opened, in a
    colour of their own, those at its rim with a number. The image and each tile's (x0, y0, x1, y1)."""
    img = np.full((900, 1400, 3), 8, np.uint8)
    cut = max(2, int(pitch // 8))
    tiles = []
    for r in range(rows):
        for c in range(cols):
            left, top = round(origin[0] + c * pitch), round(origin[1] + r * pitch)
            right, bottom = round(origin[0] + (c + 1) * pitch) - 1, round(origin[1] + (r + 1) * pitch) - 1
            tiles.append((left, top, right + 1, bottom + 1))
            near = opened is not None and (r - opened[0]) ** 2 + (c - opened[1]) ** 2 <= opened[2] ** 2
            corners = np.array([[left + cut, top], [right - cut, top], [right, top + cut], [right, bottom - cut],
                                [right - cut, bottom], [left + cut, bottom], [left, bottom - cut], [left, top + cut]])
            cv2.fillPoly(img, [corners.astype(np.int32)], (150, 140, 120) if near else (96, 96, 96))
            if near and opened is not None and (r - opened[0]) ** 2 + (c - opened[1]) ** 2 > (opened[2] - 1.5) ** 2:
                scale = pitch / 36
                cv2.putText(img, str(1 + (r + c) % 3), (left + int(pitch) // 4, bottom - int(pitch) // 5),
                            cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 200), max(1, round(scale * 2)))
    return img, tiles


@pytest.mark.parametrize("pitch", [14, 18, 24.5, 27.6, 33, 40, 48])
def test_tiles_that_touch_told_apart_only_at_their_corners_are_found(pitch: float) -> None:
    """Tiles with cut corners drawn edge to edge (a generated client's dark theme): a fresh board is one flat
    area with a dot of the ground where four tiles meet; found by those dots, fresh and in play."""
    rows, cols = (16, 30) if pitch < 30 else (16, 16)
    for opened in (None, (8, 8, 2.0), (8, 8, 7.0)):
        img, tiles = touching_tiles(rows, cols, pitch, (37, 53), opened)
        geo = locate(img)
        assert_tiles_inside(geo, rows, cols, tiles)
        assert geo.pitch[0] == pytest.approx(pitch, abs=0.2)


def test_a_fresh_board_of_tiles_that_touch_is_found_by_the_dots_at_their_corners() -> None:
    """A generated client's fresh 30x16 board (tests/fixtures/locate/generated-302-fresh.png), its 33 px tiles
    drawn edge to edge: found by the dots where four meet, at the tiles' edges as checked by eye."""
    image = load_image(Path(__file__).parents[1] / "fixtures" / "locate" / "generated-302-fresh.png")
    geo = locate(image)
    assert (geo.rows, geo.cols, geo.pitch) == (16, 30, (33.0, 33.0))
    assert (geo.xs[0], geo.ys[0], geo.xs[-1], geo.ys[-1]) == (45, 83, 1035, 611)
