"""Calibration: naming looks from what the game proves, and whole calibrations from recorded screenshots."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from sweepbot.board import Board
from sweepbot.calibration.across import SizeNaming, other_size_hints
from sweepbot.calibration.calibrate import calibrate_frames
from sweepbot.calibration.facts import AT_LOSS, QUESTION_AT_LOSS, REVEALED, Fact, Name
from sweepbot.calibration.looks import Looks
from sweepbot.calibration.naming import name_looks, no_empty_by_covered
from sweepbot.cli import main
from sweepbot.playing.vision_reader import VisionReader
from sweepbot.vision.capture import load_image
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.learn import neighbour_count
from sweepbot.vision.locate import locate
from sweepbot.vision.profile import UNNAMED, Profile, make_profile
from sweepbot.vision.read import ReadError, read_located, read_screenshot

FIXTURES = Path(__file__).parents[1] / "fixtures"
CHARS = "#.12345678*!FX?"


def dealt(rng: np.random.Generator, rows: int, cols: int, mines: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A board of ``mines`` mines laid at random: where they are, each cell's count, and its character."""
    layout = np.zeros(rows * cols, bool)
    layout[rng.choice(rows * cols, mines, replace=False)] = True
    layout = layout.reshape(rows, cols)
    counts = neighbour_count(layout)
    number = np.array(["." if v == 0 else str(v) for v in counts.ravel()]).reshape(rows, cols)
    return layout, counts, number


def spread(opened: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``opened`` grown as a client grows it: every cell around an open 0 is open too."""
    while True:
        grown = opened | (neighbour_count(opened & (counts == 0)) > 0)
        if (grown == opened).all():
            return opened
        opened = grown


def game_frames(seed: int, rows: int = 16, cols: int = 30, mines: int = 99, played: int = 15) -> list[np.ndarray]:
    """Character grids of one game: new, part-way (with flags, one wrong), and lost with every mine shown."""
    layout, counts, number = dealt(np.random.default_rng(seed), rows, cols, mines)
    # open every safe cell of the ``played`` columns on the left (as if played there), flag some mines and one
    # safe cell
    opened = spread(~layout & (np.arange(cols)[None, :] < played), counts)
    mid = np.where(opened, number, "#")
    flagged = np.argwhere(layout & (np.arange(cols)[None, :] < played))[:4]
    for r, c in flagged:
        mid[r, c] = "F"
    wrong = np.argwhere(~layout & ~opened)[0]
    mid[tuple(wrong)] = "F"
    lost = mid.copy()
    lost[layout & (mid == "#")] = "*"
    lost[tuple(wrong)] = "X"
    # the mine that went off: one clicked next to the opened cells, as a player does (one far from every number
    # is proved by nothing: a wrong flag's cross there looks the same to the counts)
    hit = np.argwhere(layout & (mid == "#") & (neighbour_count(opened) > 0))[-1]
    lost[tuple(hit)] = "!"
    return [np.full((rows, cols), "#"), mid, lost]


def as_looks(char_grids: list[np.ndarray]) -> tuple[Looks, dict[int, str]]:
    ids = {ch: i for i, ch in enumerate(CHARS)}
    grids = tuple(np.vectorize(ids.__getitem__)(g) for g in char_grids)
    counts = np.bincount(np.concatenate([g.ravel() for g in grids]), minlength=len(CHARS))
    images = np.zeros((len(CHARS), 4, 4, 3), np.uint8)
    for i in range(len(CHARS)):
        images[i] = i * 16  # plainly different looks
    return Looks(images, grids, counts), {i: ch for ch, i in ids.items()}


def test_naming_proves_numbers_and_mines_from_lost_games() -> None:
    frames = [g for seed in range(4) for g in game_frames(seed)]
    looks, truth = as_looks(frames)
    names = name_looks(looks, with_hints=False)
    proved = {truth[k]: n.char for k, n in names.items()}
    assert all(got == want for want, got in proved.items()), proved
    # covered, empty, the common numbers, and the three mine marks are all proved
    assert {"#", ".", "1", "2", "3", "*", "!", "F"} <= set(proved)


def test_naming_never_names_what_it_cannot_prove() -> None:
    # only new and part-way boards: no mine is shown, so only cells whose every neighbour is open or flagged
    # can be counted, and nothing of a loss can be named
    frames = [g for seed in range(3) for g in game_frames(seed)[:2]]
    looks, truth = as_looks(frames)
    names = name_looks(looks, with_hints=False)
    assert all(truth[k] == n.char for k, n in names.items())
    assert not {"*", "!", "X"} & {n.char for n in names.values()}
    assert len(names) < len({ch for g in frames for ch in g.ravel()})


@pytest.mark.parametrize("seed", [54, 61, 81, 91])
def test_a_loss_that_shows_only_the_mine_hit_names_no_number_by_covered_cells_taken_as_no_mines(seed: int) -> None:
    """A client that shows only the mine that went off (sgt-mines, a web page): its lost board is no board of
    every mine, though the few numbers beside the mine hit count right with covered cells taken as no mines
    (and every empty cell does). Numbers are named from what proves them, never by such a count: a 3 beside
    the mine hit and two covered mines is no 1."""
    new, mid, lost = game_frames(seed, 9, 9, 10, 4)
    only_hit = np.where(lost == "X", "F", np.where(lost == "*", "#", lost))
    looks, truth = as_looks([new, mid, only_hit])
    names = name_looks(looks, with_hints=False)
    named = {truth[k]: n.char for k, n in names.items() if truth[k] in ".12345678" or n.char in ".12345678"}
    assert all(got == want for want, got in named.items()), named


def test_a_cell_opened_in_two_games_names_nothing_when_the_second_games_new_board_was_left_out() -> None:
    """A cell keeps its number for the rest of its game, not into the next: when the next game's new board
    was left out (a toast lay over it), the next game starts where a cell opened in this one is covered
    again. Looks: 0 covered, 1 empty, 2 a 1, 3 a 4 not named yet."""
    from sweepbot.calibration.facts import REVEALED
    from sweepbot.calibration.naming import kept_numbers

    new = np.zeros((3, 3), int)
    first = np.array([[2, 1, 1], [0, 0, 0], [0, 0, 0]])
    second = np.array([[3, 0, 0], [0, 0, 0], [0, 0, 0]])  # the 1 at (0, 0) is a 4 in the next game
    facts = [*(Fact(0, r, c, "#") for r in range(3) for c in range(3)),
             Fact(1, 0, 0, REVEALED), Fact(1, 0, 1, REVEALED), Fact(1, 0, 2, REVEALED),
             Fact(2, 0, 0, REVEALED)]
    names = {0: Name("#", "new board"), 1: Name(".", "counted"), 2: Name("1", "counted")}
    kept_numbers([new, first, second], facts, names)
    assert 3 not in names
    # the same frames with the new board kept: the same, as before
    with_new = [*facts[:-1], *(Fact(2, r, c, "#") for r in range(3) for c in range(3) if (r, c) != (0, 0)),
                Fact(3, 0, 0, REVEALED)]
    kept_numbers([new, first, new, second], with_new, names)
    assert 3 not in names
    # within one game a cell that shows another look later is named by the number it showed
    again = np.array([[3, 1, 1], [0, 0, 0], [0, 0, 0]])
    kept_numbers([new, first, again], [*facts[:-1], Fact(2, 0, 0, REVEALED)], names)
    assert names[3].char == "1"


def test_a_covered_tile_lit_like_an_empty_cell_is_not_named_by_the_number_it_opened_to() -> None:
    """A frame grabbed before the client answered a click shows the clicked cell, still covered, lit under the
    pointer much as an empty cell (gnome-mines): one look with the empty cells, "opened" beside covered cells,
    so not proved empty. The next frame shows that cell's number. The empty cells, which count no mine around
    them, are not named that number."""
    from sweepbot.calibration.facts import REVEALED

    others = [g for seed in range(4) for g in game_frames(seed)]  # games that prove the numbers
    new, mid, lost = game_frames(5, played=6)
    counts = neighbour_count(np.isin(lost, list("*!F")))
    numbered = np.argwhere((lost == "#") & (counts > 0) & (neighbour_count(np.isin(mid, list(".12345678"))) > 0)
                           & (neighbour_count(mid == "F") == 0))
    r, c = (int(v) for v in numbered[0])
    answered = mid.copy()
    answered[r, c] = str(counts[r, c])
    lit = mid.copy()
    lit[r, c] = "."  # drawn as the empty cells are
    looks, truth = as_looks([*others, new, lit, answered, lost])
    at = len(others)
    facts = [Fact(at, 0, 0, "#"), Fact(at + 1, r, c, REVEALED), Fact(at + 2, r, c, REVEALED)]
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    wrong = [(truth[k], n.char) for k, n in names.items()
             if n.char != truth[k] and not (n.char == "=" and truth[k] in ".12345678")]
    assert not wrong  # a number not proved is left to play to learn ("="), never named another


def test_a_number_is_never_named_empty_by_the_look_a_cell_showed_before() -> None:
    """A cell seen as the empty look and then as another look in one game: the empty look was a covered tile
    lit under the pointer, not the cell's answer, so the other look is not named empty. Looks: 0 covered, 1
    empty, 2 a 1, 3 not named yet."""
    from sweepbot.calibration.facts import REVEALED
    from sweepbot.calibration.naming import kept_numbers

    new = np.zeros((3, 3), int)
    lit = np.array([[1, 2, 0], [0, 0, 0], [0, 0, 0]])
    answered = np.array([[3, 2, 0], [0, 0, 0], [0, 0, 0]])
    facts = [*(Fact(0, r, c, "#") for r in range(3) for c in range(3)),
             Fact(1, 0, 0, REVEALED), Fact(1, 0, 1, REVEALED), Fact(2, 0, 0, REVEALED)]
    names = {0: Name("#", "new board"), 1: Name(".", "counted"), 2: Name("1", "counted")}
    kept_numbers([new, lit, answered], facts, names)
    assert 3 not in names


def test_a_client_with_no_flags_has_no_flag_named_in_play() -> None:
    """A live session on a client that puts no flag where it was seen (a web page whose right-click opens
    a menu): a look that only mines show while the game is on (covered tiles of a column drawn narrower) is
    no flag, and stays unnamed; with a flag seen put, it is the flag."""
    from sweepbot.calibration.facts import REVEALED

    new, mid, lost = game_frames(2)
    looks, truth = as_looks([new, mid, lost])
    flag = CHARS.index("F")
    opened = [Fact(1, int(r), int(c), REVEALED) for r, c in np.argwhere(np.isin(mid, list(".12345678")))]
    hit = np.argwhere(lost == "!")[0]
    facts = [Fact(0, 0, 0, "#"), *opened, Fact(2, int(hit[0]), int(hit[1]), "!"),
             *(Fact(2, int(r), int(c), AT_LOSS) for r, c in np.argwhere(lost == "*"))]
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    assert flag not in names
    assert all(truth[k] == n.char for k, n in names.items())
    r, c = np.argwhere(mid == "F")[0]
    names = name_looks(looks, [*facts, Fact(1, int(r), int(c), "F")], min_cells=1, with_hints=False)
    assert names[flag].char == "F"


def test_facts_name_what_was_seen_happen() -> None:
    frames = game_frames(7)
    looks, truth = as_looks(frames)
    lost = frames[2]
    r, c = np.argwhere(lost == "!")[0]
    fr, fc = np.argwhere(lost == "X")[0]
    facts = [Fact(0, 0, 0, "#"), Fact(2, int(r), int(c), "!"), Fact(2, int(fr), int(fc), "X")]
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    assert all(truth[k] == n.char for k, n in names.items())
    assert {"#", "!", "X", "*"} <= {n.char for n in names.values()}


def test_mines_shown_at_a_loss_far_from_every_number_are_named_by_those_near_one() -> None:
    """A loss early in a big game: most mines shown touch no number. The few that do prove the look; the
    rest, which the counts say nothing about, do not count against it (gnome-mines at 30 px: a mine look of
    225 cells had been left unnamed)."""
    frames = [g for seed in range(3) for g in game_frames(seed, played=1)]
    looks, truth = as_looks(frames)
    facts = [Fact(0, 0, 0, "#")]
    for i in range(2, len(frames), 3):
        facts += [Fact(i, int(r), int(c), AT_LOSS) for r, c in np.argwhere(frames[i] == "*")]
        facts += [Fact(i, int(r), int(c), "!") for r, c in np.argwhere(frames[i] == "!")]
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    assert all(truth[k] == n.char for k, n in names.items()), {truth[k]: n.char for k, n in names.items()}
    assert names[CHARS.index("*")].char == "*"
    # the wrong flag's cross (no fact about it) makes no count agree better: not a mine, left unnamed
    assert CHARS.index("X") not in names


def few_clicks_game(seed: int, rows: int = 32, cols: int = 32, mines: int = 200, clicks: int = 4) -> list[np.ndarray]:
    """Character grids of one game on a dense board lost after a few clicks on cells far apart and one small
    opening: new, and lost with every mine shown."""
    rng = np.random.default_rng(seed)
    layout, counts, number = dealt(rng, rows, cols, mines)
    opened = np.zeros((rows, cols), bool)
    for r, c in rng.permutation(np.argwhere(~layout & (counts > 0)))[:clicks]:
        opened[r, c] = True
    zeros = np.argwhere(~layout & (counts == 0))
    if len(zeros):  # and one small opening, as the first click often gives
        opened[tuple(zeros[0])] = True
        opened = spread(opened, counts)
    lost = np.where(opened, number, np.where(layout, "*", "#"))
    lost[tuple(np.argwhere(layout)[0])] = "!"
    return [np.full((rows, cols), "#"), lost]


def test_numbers_and_mines_are_proved_by_a_few_clicks_on_a_dense_board_whose_losses_show_every_mine() -> None:
    """ace-minesweeper at 32x32 with 200 mines, its games lost after a click or a few: every number opened
    has covered cells around it that are no mines, none has its mines all in sight but at the losses, which
    show every mine. Taken as showing every mine, the losses name the mine look and the numbers, and the
    numbers named count right there, which proves it."""
    frames: list[np.ndarray] = []
    facts = [Fact(0, r, c, "#") for r in range(32) for c in range(32)]
    for seed in range(4):
        new, lost = few_clicks_game(seed)
        at = len(frames) + 1
        frames += [new, lost]
        facts += [Fact(at, int(r), int(c), AT_LOSS) for r, c in np.argwhere(lost == "*")]
        facts += [Fact(at, int(r), int(c), "!") for r, c in np.argwhere(lost == "!")]
        facts += [Fact(at, int(r), int(c), REVEALED) for r, c in np.argwhere(np.isin(lost, list("12345678")))]
    looks, truth = as_looks(frames)
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    named = {truth[k]: n.char for k, n in names.items()}
    assert all(got == want for want, got in named.items()), named
    opened = {ch for g in frames for ch in g.ravel() if ch in "12345678"}
    assert len(opened) >= 3 and {"*", *opened} <= set(named)


def test_a_loss_that_shows_every_mine_but_those_under_question_marks_names_no_number_by_them() -> None:
    """pygame-minesweeper leaves its question marks at a loss, a mine under one unshown: a number beside a
    question mark does not have its mines all in sight, even on a board that shows every other mine."""
    frames: list[np.ndarray] = []
    facts = [Fact(0, r, c, "#") for r in range(32) for c in range(32)]
    for seed in range(4):
        new, lost = few_clicks_game(seed, clicks=12)
        for r, c in np.argwhere(np.isin(lost, list("345")))[:3]:  # a mine beside a few numbers kept covered, marked
            near = [(int(y), int(x)) for y, x in np.argwhere(lost[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] == "*")]
            if near:
                lost[max(r - 1, 0) + near[0][0], max(c - 1, 0) + near[0][1]] = "?"
        at = len(frames) + 1
        frames += [new, lost]
        facts += [Fact(at, int(r), int(c), AT_LOSS) for r, c in np.argwhere(lost == "*")]
        facts += [Fact(at, int(r), int(c), "!") for r, c in np.argwhere(lost == "!")]
        facts += [Fact(at, int(r), int(c), REVEALED) for r, c in np.argwhere(np.isin(lost, list("12345678")))]
        facts += [Fact(at, int(r), int(c), "?") for r, c in np.argwhere(lost == "?")]
    looks, truth = as_looks(frames)
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    named = {truth[k]: n.char for k, n in names.items()}
    # a number counted wrong is misnamed; one not proved is only known opened ("=")
    assert all(got == want or (want in "12345678" and got == "=") for want, got in named.items()), named
    assert {"*", "?"} <= set(named)


def test_mines_drawn_like_a_covered_tile_at_a_loss_are_left_unnamed() -> None:
    """A web page shows its mines at a loss as images; one not drawn yet leaves a tile that looks covered.
    The counts take that look as a mine, but a profile that named it so would read covered cells as mines
    too: it stays unnamed, and the mines drawn as mines are named."""
    frames: list[np.ndarray] = []
    facts = [Fact(0, r, c, "#") for r in range(32) for c in range(32)]
    for seed in range(4):
        new, lost = few_clicks_game(seed)
        blank = np.argwhere(lost == "*")[::8]
        lost[tuple(blank.T)] = "b"
        at = len(frames) + 1
        frames += [new, lost]
        facts += [Fact(at, int(r), int(c), AT_LOSS) for r, c in np.argwhere(np.isin(lost, ["*", "b"]))]
        facts += [Fact(at, int(r), int(c), "!") for r, c in np.argwhere(lost == "!")]
        facts += [Fact(at, int(r), int(c), REVEALED) for r, c in np.argwhere(np.isin(lost, list("12345678")))]
    chars = CHARS + "b"
    ids = {ch: i for i, ch in enumerate(chars)}
    grids = tuple(np.vectorize(ids.__getitem__)(g) for g in frames)
    images = np.zeros((len(chars), 4, 4, 3), np.uint8)
    for i in range(len(CHARS)):
        images[i] = 40 + i * 14  # plainly different looks, each far from the covered one
    images[ids["#"]] = 0
    images[ids["b"]] = 6  # the blank mine: a covered tile a little lighter
    looks = Looks(images, grids, np.bincount(np.concatenate([g.ravel() for g in grids]), minlength=len(chars)))
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    named = {chars[k]: n.char for k, n in names.items()}
    assert all(got == want for want, got in named.items()), named
    assert "*" in named and "b" not in named


def test_contradicting_facts_are_an_error() -> None:
    looks, _ = as_looks(game_frames(1))
    from sweepbot.calibration.facts import CalibrationError

    # the covered look seen as a flag as often as covered: the board changed under the calibration
    facts = [Fact(0, 0, c, "#") for c in range(3)] + [Fact(0, 1, c, "F") for c in range(3)]
    with pytest.raises(CalibrationError):
        name_looks(looks, facts)
    # one stray fact among many is outvoted
    names = name_looks(looks, [Fact(0, 0, c, "#") for c in range(9)] + [Fact(0, 1, 0, "F")], with_hints=False)
    assert names[int(looks.grids[0][0, 0])].char == "#"


def test_cells_that_changed_at_a_loss_agree_whether_covered_flagged_or_question_marked_before() -> None:
    """A client that takes a wrong flag off at a loss shows the number under it (DangerUXB), as it shows the
    covered cells: one look is then a covered cell changed at the loss and a flag changed at the loss, as
    often as each other. Those facts agree (the counts tell the look); against a covered look they do not."""
    from sweepbot.calibration.facts import FLAG_AT_LOSS, CalibrationError, from_facts

    grids = [np.array([[0, 0, 1, 1], [1, 1, 2, 2]])]
    facts = [Fact(0, 0, 0, "#"), Fact(0, 0, 1, "#"), Fact(0, 0, 2, AT_LOSS), Fact(0, 0, 3, AT_LOSS),
             Fact(0, 1, 0, FLAG_AT_LOSS), Fact(0, 1, 1, FLAG_AT_LOSS), Fact(0, 1, 2, AT_LOSS),
             Fact(0, 1, 3, QUESTION_AT_LOSS)]
    names: dict[int, Name] = {}
    assert from_facts(grids, facts, names) == {1, 2}
    assert {k: n.char for k, n in names.items()} == {0: "#"}
    facts += [Fact(0, 0, 2, "#"), Fact(0, 0, 3, "#"), Fact(0, 1, 0, "#")]
    with pytest.raises(CalibrationError):
        from_facts(grids, facts, {})


def test_a_flag_that_changed_at_a_loss_names_a_wrong_flag_only_if_no_other_cell_shows_its_look() -> None:
    """A client that takes a wrong flag off at a loss shows the number under it (DangerUXB): covered cells
    change to that look too, or opened cells show it, and it is no wrong flag's. A look that only flags
    changed to may be one (a screenshot with no facts may show it anywhere)."""
    from sweepbot.calibration.facts import FLAG_AT_LOSS, REVEALED
    from sweepbot.calibration.naming import flag_only_looks

    grids = [np.array([[0, 5, 6], [5, 7, 0]]), np.array([[0, 5, 6], [7, 6, 6]])]
    facts = [Fact(0, 0, 1, FLAG_AT_LOSS), Fact(0, 0, 2, FLAG_AT_LOSS), Fact(0, 1, 0, AT_LOSS),
             Fact(0, 1, 1, FLAG_AT_LOSS), Fact(1, 1, 0, REVEALED)]
    assert flag_only_looks(grids, facts) == {6}


def _fixture_boards(client: str) -> tuple[list[Path], list[np.ndarray]]:
    pngs = sorted((FIXTURES / client).glob("*.png"))
    return pngs, [load_image(p) for p in pngs]


@pytest.mark.slow
def test_xdemineur_calibrated_from_scratch_reads_every_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWEEPBOT_NO_BUILTIN", "1")
    pngs, images = _fixture_boards("xdemineur")
    cals = calibrate_frames(images, "xdemineur")
    assert len(cals) == 1 and cals[0].misread == 0
    cal = cals[0]
    # every name the game proved is right: compare each look with the fixtures' expected boards
    for frame_index, grid in zip(cal.frame_indices, cal.looks.grids, strict=True):
        want = np.array([list(row) for row in Board.parse(pngs[frame_index].with_suffix(".board").read_text()).grid])
        for k, name in cal.names.items():
            cells = want[grid == k]
            assert set(cells) <= {name.char}, (k, name, set(cells))
    proved = {n.char for n in cal.names.values() if n.proved}
    assert {"#", ".", "1", "2", "*", "!", "F"} <= proved
    # a fixture whose looks were all proved reads exactly, counter included; one with a look only hinted at
    # (a 7 seen once) is refused, never read with a guessed name
    unproved = set(cal.unnamed)
    read = 0
    for n, (png, image) in enumerate(zip(pngs, images, strict=True)):
        want_board = Board.parse(png.with_suffix(".board").read_text())
        grid = cal.looks.grids[cal.frame_indices.index(n)]
        if np.isin(grid, list(unproved)).any():
            with pytest.raises(ReadError):
                read_screenshot(image, profiles=[cal.profile])
            continue
        reading = read_screenshot(image, profiles=[cal.profile])
        read += 1
        assert reading.board.grid == want_board.grid, png.name
        if want_board.mines is not None:
            assert reading.board.mines == want_board.mines, png.name
    assert read >= len(pngs) // 2


def test_calibrate_and_profiles_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SWEEPBOT_PROFILES", str(tmp_path / "profiles"))
    monkeypatch.setenv("SWEEPBOT_NO_BUILTIN", "1")
    shots = [str(p) for p in sorted((FIXTURES / "xdemineur").glob("12x9-*.png"))]
    # --yes or not, a hinted look stays unnamed: the profile holds the proved names only
    assert main(["calibrate", *shots, "--client", "mine-clone", "--json", "--yes"]) == 0
    out = json.loads(capsys.readouterr().out)["profiles"][0]
    assert out["profile"] == "mine-clone-21px"
    hinted = {k for k, v in out["named"].items() if not v["proved"]}
    assert {int(k) for k in hinted} <= set(out["unnamed"])
    saved = json.loads((Path(out["folder"]) / "profile.json").read_text())["templates"]
    assert set(saved) == set(out["chars"]) | ({UNNAMED} if out["unnamed"] else set())
    assert Path(out["sheet"]).is_file()
    assert main(["profiles", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["profiles"]
    assert [p["name"] for p in listed] == ["mine-clone-21px"] and listed[0]["source"] == "calibrated"
    # the new profile is chosen by itself for a screenshot of that client
    assert main(["read", shots[0], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["profile"] == "mine-clone-21px"


def test_calibrate_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.png"
    bad.write_text("not an image")
    assert main(["calibrate", str(bad), "--client", "x"]) == 2
    assert "not an image" in capsys.readouterr().err
    blank = tmp_path / "blank.png"
    import cv2

    cv2.imwrite(str(blank), np.full((200, 300, 3), 255, np.uint8))
    assert main(["calibrate", str(blank), "--client", "x"]) == 2
    assert main(["calibrate", str(blank), "--client", "../evil"]) == 2


def test_a_calibration_that_proved_no_opened_cell_saves_nothing(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    fresh = FIXTURES / "ace-minesweeper" / "level1-fresh.png"  # every cell covered
    assert main(["calibrate", str(fresh), "--client", "t", "--out", str(tmp_path / "out")]) == 2
    assert "no look of an opened cell" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_profile_that_misreads_its_own_frames_is_not_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Names that a profile made of them would misread on the frames they came from (the game's facts and the
    looks disagree: cells followed to the wrong place, a look taken for another) make no profile: the command
    says how many cells, shows the looks, and exits non-zero."""
    from dataclasses import replace

    import sweepbot.calibration.client as client_module

    real = client_module.calibrate_frames
    monkeypatch.setattr(client_module, "calibrate_frames",
                        lambda *a, **k: [replace(cal, misread=3) for cal in real(*a, **k)])
    shots = [str(p) for p in sorted((FIXTURES / "xdemineur").glob("12x9-*.png"))]
    out = tmp_path / "out"
    assert main(["calibrate", *shots, "--client", "clone", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "misreads 3 named cells" in err and "not saved" in err
    assert not (out / "clone-21px").exists() and (out / "clone-21px-looks.png").is_file()


def test_a_look_named_empty_next_to_a_covered_cell_loses_its_name() -> None:
    """Looks 0 covered, 1 truly empty (never beside a covered cell), 2 wrongly named empty (beside one)."""
    grid = np.array([[1, 1, 2, 0, 0],
                     [1, 1, 2, 0, 0],
                     [1, 1, 2, 0, 0]])
    names = {0: Name("#", "new board"), 1: Name(".", "counted"), 2: Name(".", "counted")}
    no_empty_by_covered([grid], names)
    assert names.get(1) == Name(".", "counted")
    assert 2 not in names
    assert names[0].char == "#"


def test_an_empty_cell_beside_a_flag_may_touch_a_covered_one() -> None:
    """A client may stop opening at a 0 that touches a flag (DangerUXB opens a cell's neighbours only when the
    flags around it match its count): such a cell beside a covered one keeps its name; one beside a covered
    cell and no flag does not. Looks: 0 covered, 1 empty, 2 flag, 3 named empty wrongly."""
    beside_flags = np.array([[1, 1, 2, 1, 1],
                             [1, 1, 0, 1, 1],
                             [2, 2, 2, 2, 2]])
    beside_covered = np.array([[3, 3, 0],
                               [3, 3, 0]])
    names = {0: Name("#", "new board"), 1: Name(".", "counted"), 2: Name("F", "right click"),
             3: Name(".", "counted")}
    no_empty_by_covered([beside_flags, beside_covered], names)
    assert names.get(1) == Name(".", "counted")
    assert 3 not in names


def test_a_question_mark_changed_at_a_loss_is_named_so() -> None:
    """gnome-mines draws a question mark left on a mine over the mine's background when the game is lost:
    that look ('q' here) is named a question mark by the fact that a question mark was there and changed at
    the loss; without the fact it stays unnamed (one cell is too few to count as a number)."""
    frames = game_frames(5)
    mid, lost = frames[1], frames[2]
    r, c = (int(v) for v in np.argwhere((mid == "#") & (lost == "*"))[0])
    mid[r, c] = "?"
    lost[r, c] = "q"
    chars = CHARS + "q"
    ids = {ch: i for i, ch in enumerate(chars)}
    grids = tuple(np.vectorize(ids.__getitem__)(g) for g in frames)
    counts = np.bincount(np.concatenate([g.ravel() for g in grids]), minlength=len(chars))
    images = np.array([np.full((4, 4, 3), i * 16, np.uint8) for i in range(len(chars))])
    looks = Looks(images, grids, counts)
    hit = tuple(int(v) for v in np.argwhere(lost == "!")[0])
    facts = [Fact(0, 0, 0, "#"), Fact(1, r, c, "?"), Fact(2, *hit, "!")]
    without = name_looks(looks, facts, with_hints=False)
    assert ids["q"] not in without
    named = name_looks(looks, [*facts, Fact(2, r, c, QUESTION_AT_LOSS)], with_hints=False)
    assert named[ids["q"]].char == "?"
    assert all(chars[k] == n.char or (chars[k], n.char) == ("q", "?") for k, n in named.items())


def _tile(glyph: str, side: int) -> np.ndarray:
    """A tile drawn large and scaled to ``side`` pixels, as a client with vector tiles draws each size."""
    tile = np.full((64, 64, 3), 190, np.uint8)
    if glyph:
        colour = (0, 0, 200) if glyph == "3" else (120, 0, 0)
        cv2.putText(tile, glyph, (16, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.8, colour, 6)
    return cv2.resize(tile, (side, side), interpolation=cv2.INTER_AREA)


def _size(pitch: int, glyphs: list[str], names: dict[int, Name]) -> SizeNaming:
    images = np.array([_tile(g, pitch) for g in glyphs])
    grid = np.arange(len(glyphs))[None, :]
    return SizeNaming(pitch, 0.0, Looks(images, (grid,), np.ones(len(glyphs), int)), dict(names))


def test_a_look_proved_at_another_cell_size_is_a_hint_there() -> None:
    small = _size(16, ["", "3", "5"], {0: Name("#", "new board"), 1: Name("3", "counted"), 2: Name("5", "counted")})
    big = _size(40, ["", "3", "X"], {0: Name("#", "new board")})
    other_size_hints([small, big])
    assert big.names[1] == Name("3", "looks like the 3 proved at 16 px cells", proved=False)
    assert 2 not in big.names  # like nothing proved elsewhere: no hint
    assert big.names[0].proved and small.names[1].proved  # proved names are left as they are


def test_a_lost_board_with_question_marks_tells_no_mine_total() -> None:
    from sweepbot.calibration.build import LabelledFrame
    from sweepbot.calibration.calibrate import mine_totals

    def frame(rows: list[str]) -> LabelledFrame:
        return LabelledFrame(np.zeros((1, 1, 3), np.uint8), None, np.array([list(r) for r in rows]))  # type: ignore[arg-type]

    every_mine = frame(["!*1.", "2211", "*1..", "11.."])
    hidden_under_mark = frame(["!?1.", "2211", "*1..", "11.."])  # the mark may hide the third mine
    other_size = frame(["!*.", "...", "..."])
    totals = mine_totals([every_mine, hidden_under_mark, frame(["####"] * 4), other_size])
    # the marked loss is no total of its own; it takes its size's total from the loss that shows every mine
    assert totals == [3, 3, 3, 2]
    assert mine_totals([hidden_under_mark]) == [None]


def test_a_board_size_whose_frames_tell_two_mine_totals_keeps_the_least_only_if_two_frames_tell_it() -> None:
    """A game judged won that was not leaves a safe cell covered: its total is too high, never too low."""
    from sweepbot.calibration.build import LabelledFrame
    from sweepbot.calibration.calibrate import known_totals

    def frame(rows: list[str]) -> LabelledFrame:
        return LabelledFrame(np.zeros((1, 1, 3), np.uint8), None, np.array([list(r) for r in rows]))  # type: ignore[arg-type]

    loss = frame(["!*1.", "2211", "*1..", "11.."])  # every mine shown: 3
    won = frame(["#21.", "2#21", "1211", ".1#1"])  # judged won: its covered cells are the mines, 3
    not_won = frame(["#21.", "2#21", "1211", ".1##"])  # judged won after a click the client missed: 4
    assert known_totals([loss, won], won={1}) == [[4, 4, 3]]
    assert known_totals([won, not_won], won={0, 1}) == []
    assert known_totals([loss, won, not_won], won={1, 2}) == [[4, 4, 3]]
    assert known_totals([loss, not_won, not_won], won={1, 2}) == []
    assert known_totals([loss, frame(["!*."] + ["..."] * 2), not_won], won={2}) == [[3, 3, 2]]


def test_a_counter_is_learnt_despite_a_client_counting_flags_its_own_way() -> None:
    from sweepbot.vision.counter import counter_fits

    plain = [(99, False)] * 4
    marked = [(98, True)] * 5
    # a flag opened by an opening, still counted by the client: one marked sample of five reads one less
    assert counter_fits([99] * 4 + [98, 98, 98, 98, 97], plain + marked)
    # on a board with no marks the display must read the total, always
    assert not counter_fits([99, 99, 99, 98] + [98] * 5, plain + marked)
    # a display that is something else (a clock) agrees now and then, not on most marked samples
    assert not counter_fits([99] * 4 + [98, 97, 97, 96, 95], plain + marked)
    # nothing read on some sample: not the counter
    assert not counter_fits([99, None, 99, 99], plain)
    assert not counter_fits([], [])


@pytest.mark.slow
def test_a_calibrated_profile_refuses_a_digit_it_never_learnt(monkeypatch: pytest.MonkeyPatch) -> None:
    """xdemineur draws its tiles pixel for pixel, so its calibrated profile reads only near-exact matches:
    a digit its screenshots never proved (kept out of the profile) is refused where it shows, not read as
    the nearest look it knows (a 5 is within the reader's general limit of an empty cell)."""
    monkeypatch.setenv("SWEEPBOT_NO_BUILTIN", "1")
    pngs, images = _fixture_boards("xdemineur")
    profile = calibrate_frames(images, "xdemineur")[0].profile
    assert profile.max_rms is not None
    proved = make_profile(profile.name, profile.client, profile.pitch, profile.crop,
                          [(ch, profile.template(i)) for i, ch in enumerate(profile.labels) if ch != UNNAMED],
                          max_rms=profile.max_rms)
    tried = 0
    for png, image in zip(pngs, images, strict=True):
        want = Board.parse(png.with_suffix(".board").read_text())
        unknown = {(r, c) for r, row in enumerate(want.grid) for c, ch in enumerate(row) if ch not in proved.labels}
        if not unknown:
            continue
        with pytest.raises(ReadError) as refused:
            read_located(image, locate(image), proved)
        assert set(refused.value.cells) == unknown, png.name
        tried += 1
    assert tried >= 2


def test_a_look_seen_only_on_cells_just_opened_is_named_opened_and_nothing_more() -> None:
    """Look 2 showed only on cells play had just opened, and no count proved its number: it is an open cell
    of unknown number ('='), read as open, never as covered or a guessed number. Look 3 was also seen as a
    flag, so it is not taken; look 0 is named already."""
    from sweepbot.calibration.facts import REVEALED
    from sweepbot.calibration.naming import opened_only

    grid = np.array([[0, 0, 2], [2, 3, 3]])
    facts = [Fact(0, 0, 2, REVEALED), Fact(0, 1, 0, REVEALED), Fact(0, 1, 1, REVEALED), Fact(0, 1, 2, "F"),
             Fact(0, 0, 0, "#")]
    names = {0: Name("#", "every cell before the first click")}
    opened_only([grid], facts, names)
    assert names[2].char == "=" and names[2].proved
    assert 3 not in names and names[0].char == "#"


def test_a_look_learnt_in_play_replaces_its_open_cell_template_once() -> None:
    """Learning in play adds a number's look once, however many cells showed it, and drops the template of
    the open cell of unknown number (=) it was read as."""
    from sweepbot.vision.learn import with_templates

    covered = np.full((8, 8, 3), 200, np.uint8)
    two = np.full((8, 8, 3), 90, np.uint8)
    two[2:6, 3:5] = (0, 130, 0)
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [("#", covered), ("=", two)])
    again = two.copy()
    again[0, 0] = (95, 95, 95)  # the same look, a pixel off in colour
    learnt = with_templates(profile, [("2", two), ("2", again)])
    assert sorted(learnt.labels) == ["#", "2"]


def test_a_row_of_looks_never_learnt_is_read_open_with_numbers_unknown() -> None:
    """A calibrated profile meets a look it never learnt on a whole row of a 12x12 board (a client that draws
    the digits of a shorter row smaller): those cells are read as open, number unknown, while they are at most
    one in the table's ``opened_share``; a board where most cells fit no template is refused."""
    from sweepbot.vision.geometry import Geometry
    from sweepbot.vision.read import read_located

    covered = np.full((8, 8, 3), 200, np.uint8)
    empty = np.full((8, 8, 3), 160, np.uint8)
    one = empty.copy()
    one[1:7, 3:5] = (200, 0, 0)
    folder = Path("/calibrated/t-10px")  # a calibrated profile, which learns in play
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [("#", covered), (".", empty), ("1", one)],
                           folder=folder)
    geometry = Geometry(tuple(range(0, 130, 10)), tuple(range(0, 130, 10)))
    image = np.full((120, 120, 3), 120, np.uint8)
    for r in range(12):
        for c in range(12):
            tile = covered if r < 6 else empty
            if r == 8:
                tile = empty.copy()
                tile[2:6, 2:6] = (0, 0, 255)  # a number drawn as calibration never saw it
            image[r * 10 + 1:r * 10 + 9, c * 10 + 1:c * 10 + 9] = tile
    board = read_located(image, geometry, profile, opened_unknown=True).board
    assert board.grid[8] == "=" * 12
    assert board.grid[0] == "#" * 12 and board.grid[9] == "." * 12
    image[90:120, :] = (0, 0, 255)  # three more rows of it: the profile does not fit
    with pytest.raises(ReadError):
        read_located(image, geometry, profile, opened_unknown=True)


def test_a_cell_proved_empty_beside_a_covered_tile_teaches_nothing() -> None:
    """An empty cell opens every cell around it: an unread cell whose neighbours the solver proves free of
    mines, one of them still covered, is a board read wrongly or caught half drawn, and is not learnt as an
    empty cell; the same cell with every neighbour open is."""
    from sweepbot.vision.learn import learn_proved

    geometry = Geometry(tuple(range(0, 40, 10)), tuple(range(0, 40, 10)))
    image = np.full((30, 30, 3), 120, np.uint8)
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [("#", np.full((8, 8, 3), 200, np.uint8))])
    board = Board(("=#.", "...", "..="))
    learnt = learn_proved(image, geometry, profile, board, mines=set(), safe={(0, 1)})
    assert [ch for ch, _ in learnt] == ["."]  # (2, 2) only
    assert learn_proved(image, geometry, profile, Board(("=#.", "...", "...")), set(), {(0, 1)}) == []


def test_a_number_never_learnt_is_named_in_play_once_the_solver_proves_every_cell_around_it(
        tmp_path: Path) -> None:
    """A calibrated profile that never saw a 1 reads its cells as open, number unknown. Once every cell
    around one is open or proved a mine or safe by the numbers read (the 2s prove the corner tile a mine),
    the reader learns the look as the count of mines around it, and the next frame reads every cell drawn
    so as a 1; a cell with a covered neighbour nothing proves teaches nothing."""
    from dataclasses import replace

    from sweepbot.solver import solve

    # the 2s are proved by the two covered tiles beside them; the 1s by the mine at the corner or by nothing
    truth = ["#2.", "#2.", "11."]  # (0, 0) and (1, 0): mines; (2, 0), (2, 1): 1s
    image, profile, _ = _board_of_looks(truth, "#.2", tmp_path)
    reader = _reader_at_the_grid_kept(profile)
    view = reader.read(image)
    assert view.board.grid == ("#2.", "#2.", "==.")
    analysis = solve(view.board)
    assert set(analysis.mines) == {(0, 0), (1, 0)}
    reader.learn(image, view, analysis)
    assert reader.learnt == ["1", "1"] and "1" in reader.profile.labels
    assert reader.read(image).board.grid == tuple(truth)
    learnt = reader.profile
    reader.learn(image, view, analysis)  # the same cells again: the profile holds their look already
    assert reader.profile is learnt and reader.learnt == ["1", "1"]
    # the 2s unread too: nothing proves the covered tiles, and no cell teaches anything
    blind = _reader_at_the_grid_kept(profile)
    unproved = replace(view, board=Board(("#=.", "#=.", "==.")))
    blind.learn(image, unproved, solve(unproved.board))
    assert blind.learnt == [] and blind.profile is profile


def _board_of_looks(truth: list[str], drawn: str, tmp_path: Path, down: int = 0) \
        -> tuple[np.ndarray, Profile, np.ndarray]:
    """A 3x3 board of 10 px cells (``truth``, its characters) drawn ``down`` pixels below the grid at (0, 0),
    the profile of the looks ``drawn`` (learning: a folder of its own) and the look of a 1, which calibration
    never saw."""
    covered = np.full((8, 8, 3), 200, np.uint8)
    empty = np.full((8, 8, 3), 160, np.uint8)
    two, mine, one = empty.copy(), empty.copy(), empty.copy()
    two[1:7, 2:6] = (0, 150, 0)
    mine[2:6, 2:6] = (20, 20, 20)
    one[1:7, 3:5] = (200, 0, 0)
    looks = {"#": covered, ".": empty, "2": two, "*": mine, "1": one}
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [(ch, looks[ch]) for ch in drawn],
                           folder=tmp_path / "t-10px")
    image = np.full((30 + down + 2, 32, 3), 120, np.uint8)
    for r, row in enumerate(truth):
        for c, ch in enumerate(row):
            image[r * 10 + 1 + down:r * 10 + 9 + down, c * 10 + 1:c * 10 + 9] = looks[ch]
    return image, profile, one


def _reader_at_the_grid_kept(profile: Profile) -> VisionReader:
    """A reader that found a 3x3 board of 10 px cells at (0, 0) with ``profile``."""
    reader = VisionReader()
    reader.geometry = Geometry(tuple(range(0, 40, 10)), tuple(range(0, 40, 10)))
    reader.profile, reader.size = profile, (3, 3)
    return reader


def _learnt_ones(profile: Profile) -> list[np.ndarray]:
    return [profile.template(i) for i, ch in enumerate(profile.labels) if ch == "1"]


def test_a_look_is_learnt_where_the_grid_lines_up_on_a_board_that_moved(tmp_path: Path) -> None:
    """A board that moved two pixels down since its grid was found (a page laid out again) still reads at the
    grid kept, by second looks; a number learnt there is cut where the grid lines up with the profile's looks
    on that frame, not two pixels off its place (such a look would name an empty cell on a grid as far off as
    that a number), and the reader takes the grid lined up from then on."""
    from sweepbot.solver import solve

    truth = ["#2.", "#2.", "11."]
    image, profile, one = _board_of_looks(truth, "#.2", tmp_path, down=2)
    reader = _reader_at_the_grid_kept(profile)
    view = reader.read(image)
    assert view.board.grid == ("#2.", "#2.", "==.")
    reader.learn(image, view, solve(view.board))
    assert reader.learnt == ["1", "1"]
    assert reader.geometry == Geometry(tuple(range(0, 40, 10)), tuple(range(2, 42, 10)))
    learnt = _learnt_ones(reader.profile)
    assert len(learnt) == 1 and np.array_equal(learnt[0], one)
    assert reader.read(image).board.grid == tuple(truth)


def test_a_look_a_lost_board_proves_is_learnt_where_the_grid_lines_up_on_a_board_that_moved(tmp_path: Path) -> None:
    """The same at a game's end: a lost board showing every mine, two pixels below the grid kept, proves its
    open cells of unknown number 1s; their look is cut where the grid lines up with the profile's looks on that
    frame, the look the cells show."""
    truth = ["*1.", "11.", "..."]
    image, profile, one = _board_of_looks(truth, "#.*", tmp_path, down=2)
    reader = _reader_at_the_grid_kept(profile)
    view = reader.read(image)
    assert view.board.grid == tuple(truth)
    assert reader.learnt == ["1", "1", "1"]
    learnt = _learnt_ones(reader.profile)
    assert len(learnt) == 1 and np.array_equal(learnt[0], one)

def test_numbers_a_client_shows_at_a_loss_in_another_look_are_never_named_covered() -> None:
    """A client that opens its whole board at a loss, drawing the cells it opens then in looks of their own
    (DangerUXB; "7" and "8" stand for two such looks here, seen nowhere else): they changed at the loss and
    the counts refuse them as mines, but they look nothing like a covered cell, so they are not named covered
    (a number named covered reads every board wrong)."""
    frames = [g for seed in range(3) for g in game_frames(seed)]
    rng = np.random.default_rng(0)
    for i in range(2, len(frames), 3):
        opened_at_loss = frames[i] == "#"  # covered, no mine: the client shows it at the loss
        frames[i] = np.where(opened_at_loss, np.where(rng.random(frames[i].shape) < 0.5, "7", "8"), frames[i])
    looks, truth = as_looks(frames)
    facts = [Fact(0, 0, 0, "#")]
    for i in range(2, len(frames), 3):
        changed = (frames[i] != frames[i - 1]) & (frames[i - 1] == "#")
        facts += [Fact(i, int(r), int(c), "!" if frames[i][r, c] == "!" else AT_LOSS)
                  for r, c in np.argwhere(changed)]
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    assert names[CHARS.index("#")].char == "#"
    assert all(n.char != "#" for k, n in names.items() if truth[k] in "78")


def half_covered_board(covered: np.ndarray, empty: np.ndarray) -> tuple[Geometry, np.ndarray]:
    """A 6x6 board of 8 px tiles on a 10 px pitch: its first three rows ``covered``, the others ``empty``."""
    image = np.full((60, 60, 3), 120, np.uint8)
    for r in range(6):
        for c in range(6):
            image[r * 10 + 1:r * 10 + 9, c * 10 + 1:c * 10 + 9] = covered if r < 3 else empty
    return Geometry(tuple(range(0, 70, 10)), tuple(range(0, 70, 10))), image


def test_a_cell_nearest_an_open_cell_of_unknown_number_is_read_open() -> None:
    """A number calibration saw only as an open cell of unknown number (=), drawn now a little otherwise (a
    digit never seen, close to it): read as open, number unknown, not refused."""
    from sweepbot.vision.read import read_located

    covered = np.full((8, 8, 3), 200, np.uint8)
    empty = np.full((8, 8, 3), 160, np.uint8)
    unknown = empty.copy()
    unknown[2:6, 3:5] = (0, 0, 255)
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [("#", covered), (".", empty), ("=", unknown)],
                           folder=Path("/calibrated/t-10px"))
    geometry, image = half_covered_board(covered, empty)
    other = empty.copy()
    other[2:6, 2:6] = (0, 0, 255)  # another digit: far from every template, nearest the = look
    image[41:49, 11:19] = other
    assert read_located(image, geometry, profile, opened_unknown=True).board.grid[4] == ".=...."


def test_a_digit_never_seen_nearest_the_mine_is_read_open_while_no_mine_is_shown() -> None:
    """A digit calibration never saw (ace-minesweeper's 7, white on the open cells' green), nearest the
    mine's look: on a board that shows no mine (a game on) it is read as open, number unknown; on a board
    that shows mines it may be a mine drawn otherwise, and is refused."""
    from sweepbot.vision.read import read_located

    covered = np.full((8, 8, 3), 160, np.uint8)
    empty = np.full((8, 8, 3), (0, 100, 0), np.uint8)
    mine = empty.copy()
    mine[2:6, 2:6] = 0
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [("#", covered), (".", empty), ("*", mine)],
                           folder=Path("/calibrated/t-10px"))
    geometry, image = half_covered_board(covered, empty)
    seven = mine.copy()
    seven[2:6, 2:6] = (0, 0, 255)  # far from every template, nearest the mine
    image[41:49, 11:19] = seven
    assert read_located(image, geometry, profile, opened_unknown=True).board.grid[4] == ".=...."
    image[51:59, 31:39] = mine  # a mine shown: the game is lost, and the look may be a mine's
    with pytest.raises(ReadError):
        read_located(image, geometry, profile, opened_unknown=True)


def test_digits_drawn_alike_keep_the_tolerance_under_half_their_spacing() -> None:
    """Digits drawn small and in one colour differ by little: a digit never seen would match a known one
    within the usual tolerance, so the tolerance stays under half the distance between the closest two."""
    from sweepbot.calibration.calibrate import MIN_TOLERANCE, tolerance
    from sweepbot.vision.cells import number_spacing
    from sweepbot.vision.profile import make_profile

    green = np.full((20, 20, 3), (80, 170, 70), np.uint8)

    def digit(strokes: list[tuple[int, int]]) -> np.ndarray:
        image = green.copy()
        for r, c in strokes:
            image[r, c] = 255
        return image

    one = digit([(r, 10) for r in range(4, 16)])
    two = digit([(r, 10) for r in range(4, 16)] + [(4, 9)])
    covered = np.full((20, 20, 3), 160, np.uint8)
    alike = make_profile("alike", "x", (22.0, 22.0), (1, 1, 20, 20), [("#", covered), ("1", one), ("2", two)])
    spacing = number_spacing(alike)
    assert 0 < spacing < MIN_TOLERANCE
    assert tolerance(alike, [], []) == pytest.approx(spacing / 2)
    coloured = make_profile("coloured", "x", (22.0, 22.0), (1, 1, 20, 20),
                            [("#", covered), ("1", one), ("2", np.full((20, 20, 3), (0, 0, 200), np.uint8))])
    assert tolerance(coloured, [], []) == MIN_TOLERANCE
    assert number_spacing(make_profile("one", "x", (22.0, 22.0), (1, 1, 20, 20), [("1", one)])) == float("inf")


def test_an_unnamed_look_that_is_a_named_ones_twin_in_the_profiles_window_is_left_out() -> None:
    """A number with a focus ring drawn around it is a look of its own for naming and may stay unnamed; in
    the profile's window, which leaves the ring out, it is the number's twin. The twin is left out (else every
    such number would tie between the two and be refused); an unnamed look unlike every named one stays."""
    from sweepbot.calibration.build import without_named_twins
    from sweepbot.vision.profile import UNNAMED

    rng = np.random.default_rng(0)
    three = rng.integers(0, 256, (20, 20, 3)).astype(np.uint8)
    other = rng.integers(0, 256, (20, 20, 3)).astype(np.uint8)
    twin = np.clip(three.astype(int) + rng.integers(-2, 3, three.shape), 0, 255).astype(np.uint8)
    kept = without_named_twins([("3", three), (UNNAMED, twin), (UNNAMED, other)])
    assert [ch for ch, _ in kept] == ["3", UNNAMED]
    assert kept[1][1] is other


def test_a_look_a_client_puts_on_every_mine_at_a_win_is_never_named_the_mines_a_loss_shows() -> None:
    """A client that flags every mine when a game is won and shows only the mine that went off at a loss, met by
    a session whose own flags were never taken (a right click the client takes only held): the flag look is
    seen many at a time and never while a game is on, but only on won boards, beside no mine that went off.
    It is the client's flag, never a mine shown at a loss."""
    from sweepbot.calibration.facts import REVEALED

    rows, cols = 9, 9
    layout, counts, number = dealt(np.random.default_rng(3), rows, cols, 10)
    new = np.full((rows, cols), "#")
    mid = np.where(spread(~layout & (np.arange(cols)[None, :] < 4), counts), number, "#")
    won = np.where(layout, "F", number)
    hit = np.argwhere(layout & (neighbour_count(mid != "#") > 0))[0]
    lost = mid.copy()
    lost[tuple(hit)] = "!"
    looks, truth = as_looks([new, mid, won, new, mid, lost])
    opened = [Fact(i, int(r), int(c), REVEALED) for i, g in ((1, mid), (4, mid))
              for r, c in np.argwhere(np.isin(g, list(".12345678")))]
    facts = [Fact(0, 0, 0, "#"), *opened, Fact(3, 0, 0, "#"), Fact(5, int(hit[0]), int(hit[1]), "!")]
    names = name_looks(looks, facts, min_cells=1, with_hints=False)
    assert all(truth[k] == n.char for k, n in names.items()), {truth[k]: n for k, n in names.items()}
