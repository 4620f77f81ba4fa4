"""Parts of the desktop harness that need no display: sizes, grids, levels, settings files, package lists."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sweeplab import CLIENTS, DesktopError, Grid, Size, get_spec
from sweeplab.clients import PYPI_CLIENTS, screen_for, tiles
from sweeplab.clients.gnome_mines import COVERED_BGR, find_tiles, keyfile_text
from sweeplab.clients.pypi import ENV_VAR, LAUNCHERS_DIR, STAMP, PypiClient, clients_dir
from sweeplab.display import display_in_use, free_displays
from sweeplab.install import PACKAGES, PROGRAMS, missing_pypi_clients

ROOT = Path(__file__).resolve().parents[2]


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
    assert set(CLIENTS) == {
        "xdemineur", "sgt-mines", "ace-minesweeper", "gnome-mines",
        "pygame-minesweeper", "nicegui-minesweeper", "dangeruxb", "mfranceschi-minesweeper",
    }  # fmt: skip
    assert set(PYPI_CLIENTS) == {"pygame-minesweeper", "nicegui-minesweeper", "dangeruxb", "mfranceschi-minesweeper"}


def test_pypi_client_levels() -> None:
    assert get_spec("pygame-minesweeper").resolve_level("expert") == ("expert", Size(30, 16, 99))
    assert get_spec("pygame-minesweeper").resolve_level("20x12/40") == ("20x12/40", Size(20, 12, 40))
    with pytest.raises(DesktopError, match="9 cells"):
        get_spec("pygame-minesweeper").resolve_level("4x4/8")
    assert get_spec("nicegui-minesweeper").resolve_level("expert") == ("expert", Size(22, 22, 99))
    assert get_spec("nicegui-minesweeper").resolve_level("12x12/20") == ("12x12/20", Size(12, 12, 20))
    with pytest.raises(DesktopError, match="square"):
        get_spec("nicegui-minesweeper").resolve_level("30x16/99")
    assert get_spec("dangeruxb").resolve_level(None) == ("beginner", Size(8, 8, 10))
    assert get_spec("dangeruxb").resolve_level("12x7/9") == ("12x7/9", Size(12, 7, 9))
    assert get_spec("mfranceschi-minesweeper").resolve_level("16x16/40") == ("intermediate", Size(16, 16, 40))


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


def test_pypi_launch_plans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert clients_dir() == tmp_path
    pygame = get_spec("pygame-minesweeper")
    assert pygame.executable == tmp_path / "pygame-minesweeper" / "bin" / "python"
    plan = pygame.plan("20x12/40", Size(20, 12, 40), seed=None, tile_size=None)
    assert plan.argv[1:] == ["-m", "minesweeper", "custom", "--rows", "12", "--cols", "20", "--mines", "40"]
    assert plan.env["SDL_AUDIODRIVER"] == "dummy"
    expert = pygame.plan("expert", Size(30, 16, 99), seed=None, tile_size=None)
    assert expert.argv[1:] == ["-m", "minesweeper", "expert"]
    for name in ("dangeruxb", "mfranceschi-minesweeper", "nicegui-minesweeper"):
        spec = get_spec(name)
        assert isinstance(spec, PypiClient)
        argv = spec.plan("x", Size(9, 9, 10), seed=None, tile_size=None).argv
        assert argv[0] == str(tmp_path / name / "bin" / "python")
        assert Path(argv[1]).parent == LAUNCHERS_DIR and Path(argv[1]).is_file()
        assert argv[2:8] == ["--cols", "9", "--rows", "9", "--mines", "10"]
        with pytest.raises(DesktopError):
            spec.plan("x", Size(9, 9, 10), seed="1", tile_size=None)
    nicegui = get_spec("nicegui-minesweeper").plan("expert", Size(22, 22, 99), seed=None, tile_size=None)
    assert nicegui.argv[8:] == ["--width", str(22 * 40 + 64), "--height", str(22 * 40 + 110)]
    assert set(missing_pypi_clients()) == set(PYPI_CLIENTS)
    env = tmp_path / "dangeruxb"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").touch()
    assert "dangeruxb" in missing_pypi_clients()  # no stamp: the install did not finish
    (env / STAMP).write_text("DangerUXB==1.0\n")
    assert "dangeruxb" not in missing_pypi_clients()


def test_screen_sizes() -> None:
    assert screen_for("xdemineur", "expert") == (1280, 1024)
    assert screen_for("nicegui-minesweeper", "expert") == (1280, 1024)
    assert screen_for("pygame-minesweeper", "expert") == (1280, 1024)
    wide, _ = screen_for("mfranceschi-minesweeper", "expert")
    assert wide >= 240 + 30 * 39 + 150  # the window grows as digits widen its columns
    assert screen_for("nicegui-minesweeper", "30x30/200")[1] > 30 * 40 + 110
    assert screen_for("pygame-minesweeper", "60x40/400") > (1280, 1024)


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


def test_tile_grid_keeps_the_tile_sized_blobs() -> None:
    image = np.full((200, 300, 3), 40, np.uint8)
    for r in range(3):
        for c in range(4):
            x, y = 30 + c * 34, 60 + r * 31
            image[y : y + 27, x : x + 30] = (255, 0, 0)
    image[5:35, 5:45] = (255, 0, 0)  # a bigger button of the same colour
    image[5:30, 200:260] = (0, 255, 255)
    image[40:50, 200:210] = (0, 255, 255)
    grid = tiles.find_tiles(image, 3, 4, (255, 0, 0), client="test")
    assert (grid.x0, grid.y0, grid.pitch_x, grid.pitch_y, grid.cell_w, grid.cell_h) == (30, 60, 34, 31, 30, 27)
    assert tiles.largest_box(image, (0, 255, 255)) == (200, 5, 60, 25)
    with pytest.raises(DesktopError, match="expected 9"):
        tiles.find_tiles(image, 3, 3, (255, 0, 0), client="test")
    with pytest.raises(DesktopError):
        tiles.largest_box(image, (0, 0, 255))


def test_package_list_matches_install_script() -> None:
    script = (ROOT / "scripts" / "install-clients").read_text()
    block = re.search(r"^PACKAGES=\((.*?)\)", script, re.S | re.M)
    assert block is not None
    assert sorted(block.group(1).split()) == sorted(PACKAGES)
    assert set(PROGRAMS.values()) <= set(PACKAGES)
    # --client NAME installs the harness and that client's packages: with the Wayland desktops, every package
    harness = re.search(r"^HARNESS=\((.*?)\)", script, re.S | re.M)
    desktops = re.search(r"^DESKTOPS=\((.*?)\)", script, re.S | re.M)
    per_client = dict(re.findall(r'^\s+\[([\w-]+)\]="([^"]*)"', script, re.M))
    assert harness is not None and desktops is not None and set(per_client) == set(CLIENTS)
    assert set(harness.group(1).split()) | set(desktops.group(1).split()) | {
        p for v in per_client.values() for p in v.split()} == set(PACKAGES)
    pypi = re.search(r"PYPI_CLIENTS=\((.*?)\n\)", script, re.S)
    assert pypi is not None
    names = re.findall(r'^\s*"([a-z-]+)\|', pypi.group(1), re.M)
    assert sorted(names) == sorted(PYPI_CLIENTS)


def test_free_displays_skip_used_numbers() -> None:
    numbers = free_displays(90, 120)
    assert numbers and all(90 <= n <= 120 and not display_in_use(n) for n in numbers)


def test_built_in_profiles_carry_their_clients_rules_for_play() -> None:
    from sweepbot.vision.profile import BUILTIN_DIR, load_profile
    from sweepbot.vision.rules import PlayRules

    profiles = [load_profile(folder) for folder in sorted(BUILTIN_DIR.iterdir()) if folder.is_dir()]
    assert profiles
    for profile in profiles:  # a new-game control's place and look are the profile's own, at its size
        assert replace(profile.play, new_game_control=None) == PlayRules.from_json(get_spec(profile.client).play)
    controls = {p.name: p.play.new_game_control for p in profiles if p.client == "gnome-mines"}
    assert len(controls) == 3 and all(c is not None and c.looks for c in controls.values())
    rules = {p.client: p.play for p in profiles}
    assert rules["xdemineur"] == PlayRules("none", face_above_board=41)
    assert rules["sgt-mines"] == PlayRules("opening", new_game_keys=(("n",),))
    assert replace(rules["gnome-mines"], new_game_control=None) == PlayRules("opening", dismiss_keys=(("escape",),))
    assert PlayRules.from_json(None) == PlayRules.from_json({}) == PlayRules("none")
    # the clients met as a user meets them have no built-in rules: calibration learns them
    assert all(not spec.play for spec in PYPI_CLIENTS.values())


def test_tiles_drawn_so_small_that_their_gaps_blend_in_are_the_even_parts_of_the_boards_blob() -> None:
    """A page zoomed far out: its tiles' gaps are drawn within a few levels of the tiles' grey, and the fresh
    board is one grey blob; cut into its rows and columns, it is the board. A blob not of the board's shape
    is no board."""
    grey = (158, 158, 158)
    image = np.full((200, 240, 3), 250, np.uint8)
    image[27:171, 6:150] = grey
    for k in range(1, 9):
        image[27:171, 6 + 16 * k] = (156, 156, 156)  # a gap blended into the grey
        image[27 + 16 * k, 6:150] = (156, 156, 156)
    grid = tiles.find_tiles(image, 9, 9, grey, client="test", tolerance=3)
    assert (grid.x0, grid.y0, grid.pitch_x, grid.pitch_y) == (6, 27, 16, 16)
    with pytest.raises(DesktopError):
        tiles.find_tiles(image, 9, 4, grey, client="test", tolerance=3)
    # a little further out, some gaps stand apart from the grey and cut the blob in four, the others blend in
    image[27 + 16 * 5, 6:150] = (150, 150, 150)
    image[27:171, 6 + 16 * 4] = (150, 150, 150)
    grid = tiles.find_tiles(image, 9, 9, grey, client="test", tolerance=3)
    assert (grid.x0, grid.y0, grid.pitch_x, grid.pitch_y) == (6, 27, 16, 16)
    # tiles drawn large with gaps of two pixels are found one by one, never as one blob (its edges are not
    # the tiles' where a shadow meets them)
    large = np.full((420, 420, 3), 250, np.uint8)
    for r in range(9):
        for c in range(9):
            large[10 + 40 * r : 48 + 40 * r, 10 + 40 * c : 48 + 40 * c] = grey
    assert tiles.merged_board(large, grey, 3, 9, 9) is None


def test_tiles_a_few_pixels_apart_in_size_at_fractional_places_are_all_tiles() -> None:
    """Tiles drawn at fractional places (a page zoomed to 80 %): most 31x29 px, the last row and column up to
    four pixels larger, all of them tiles."""
    image = np.full((400, 400, 3), 250, np.uint8)
    for r in range(9):
        for c in range(9):
            x, y = 13 + 32 * c, 54 + 32 * r
            image[y : y + (33 if r == 8 else 29), x : x + (32 if c == 8 else 31)] = (158, 158, 158)
    grid = tiles.find_tiles(image, 9, 9, (158, 158, 158), client="test", tolerance=3)
    assert (grid.rows, grid.cols, grid.x0, grid.y0, grid.pitch_x, grid.pitch_y) == (9, 9, 13, 54, 32, 32)
