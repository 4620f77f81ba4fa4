"""Parts of the desktop harness that need no display: sizes, grids, levels, settings files, package lists."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from sweepbot.desktop import CLIENTS, DesktopError, Grid, Size, get_spec
from sweepbot.desktop.clients.gnome_mines import COVERED_BGR, find_tiles, keyfile_text
from sweepbot.desktop.display import display_in_use, free_displays
from sweepbot.desktop.install import PACKAGES, PROGRAMS

ROOT = Path(__file__).resolve().parents[1]


def test_size_parse_and_str() -> None:
    assert Size.parse("30x16/99") == Size(30, 16, 99)
    assert str(Size(9, 9, 10)) == "9x9/10"
    for bad in ("30x16", "0x5/1", "3x3/9", "axb/c"):
        with pytest.raises(DesktopError):
            Size.parse(bad)


def test_grid_centres_and_bbox() -> None:
    grid = Grid.uniform(9, 12, 16, 81, 21)
    assert grid.cell_center(0, 0) == (26, 91)
    assert grid.cell_center(8, 11) == (16 + 11 * 21 + 10, 81 + 8 * 21 + 10)
    assert grid.bbox == (16, 81, 12 * 21, 9 * 21)
    with pytest.raises(DesktopError):
        grid.cell_center(9, 0)
    drifting = Grid(16, 30, 10.0, 20.0, 27.6, 27.6, 24.0, 24.0)
    assert drifting.cell_center(0, 29) == (round(10 + 29 * 27.6 + 11.5), 32)


def test_levels_resolve() -> None:
    assert get_spec("sgt-mines").resolve_level("expert") == ("expert", Size(30, 16, 99))
    assert get_spec("sgt-mines").resolve_level("9x9/10") == ("beginner", Size(9, 9, 10))
    assert get_spec("sgt-mines").resolve_level("20x10/30") == ("20x10/30", Size(20, 10, 30))
    assert get_spec("ace-minesweeper").resolve_level(None) == ("4", Size(32, 32, 200))
    assert get_spec("gnome-mines").resolve_level("big") == ("big", Size(30, 16, 99))
    with pytest.raises(DesktopError, match="only its levels"):
        get_spec("ace-minesweeper").resolve_level("10x10/10")
    with pytest.raises(DesktopError, match="12 columns"):
        get_spec("xdemineur").resolve_level("9x9/10")
    with pytest.raises(DesktopError, match="unknown client"):
        get_spec("winmine")
    assert set(CLIENTS) == {"xdemineur", "sgt-mines", "ace-minesweeper", "gnome-mines"}


def test_launch_plans() -> None:
    sgt = get_spec("sgt-mines")
    plan = sgt.plan("expert", Size(30, 16, 99), seed="abc", tile_size=12)
    assert plan.argv[1:] == ["30x16n99#abc"]
    assert plan.env == {"MINES_TILESIZE": "12"}
    xd = get_spec("xdemineur").plan("expert", Size(30, 16, 99), seed=None, tile_size=None)
    assert xd.argv[1:] == ["-geometry", "30x16+0+0", "-m", "99"]
    with pytest.raises(DesktopError):
        get_spec("xdemineur").plan("expert", Size(30, 16, 99), seed="1", tile_size=None)
    gm = get_spec("gnome-mines").plan("20x10/30", Size(20, 10, 30), seed=None, tile_size=None)
    assert gm.env["GSETTINGS_BACKEND"] == "keyfile"
    assert "xsize=20" in next(iter(gm.files.values()))


def test_gnome_keyfile() -> None:
    text = keyfile_text(Size(20, 10, 30), (900, 600))
    assert text.splitlines() == [
        "[org/gnome/Mines]",
        "mode=3",
        "xsize=20",
        "ysize=10",
        "nmines=30",
        "window-width=900",
        "window-height=600",
    ]


def test_find_tiles_on_a_drawn_board() -> None:
    image = np.full((300, 400, 3), 245, np.uint8)
    for r in range(4):
        for c in range(5):
            x, y = 20 + round(c * 27.6), 30 + round(r * 27.6)
            image[y : y + 24, x : x + 24] = COVERED_BGR
    image[200, 10:300] = COVERED_BGR  # a thin line of the same grey is not a tile
    grid = find_tiles(image, 4, 5)
    assert (grid.rows, grid.cols, grid.x0, grid.y0) == (4, 5, 20, 30)
    assert grid.pitch_x == pytest.approx(27.5, abs=0.3)
    x, y = grid.cell_center(3, 4)
    assert abs(x - (20 + round(4 * 27.6) + 12)) <= 1
    assert abs(y - (30 + round(3 * 27.6) + 12)) <= 1
    with pytest.raises(DesktopError):
        find_tiles(image, 5, 5)


def test_package_list_matches_install_script() -> None:
    script = (ROOT / "scripts" / "install-clients").read_text()
    block = re.search(r"PACKAGES=\((.*?)\)", script, re.S)
    assert block is not None
    assert sorted(block.group(1).split()) == sorted(PACKAGES)
    assert set(PROGRAMS.values()) <= set(PACKAGES)


def test_free_displays_skip_used_numbers() -> None:
    numbers = free_displays(90, 120)
    assert numbers and all(90 <= n <= 120 and not display_in_use(n) for n in numbers)
