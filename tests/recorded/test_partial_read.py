"""A board re-read only where its pixels changed, or from a frame current only where the reader looks, reads
exactly as a full read of the whole frame; on a screen brighter than the looks, the looks fitted to it on one
frame read the next ones, which read as the same boards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sweepbot.vision import decide, levels, track
from sweepbot.vision import fit as fit_module
from sweepbot.vision import read as read_module
from sweepbot.vision.capture import load_image
from sweepbot.vision.counter import counter_area
from sweepbot.vision.locate import locate
from sweepbot.vision.profile import BUILTIN_DIR, load_profile
from sweepbot.vision.read import Reading, read_located, read_screenshot, reading_area
from tests.fixture_boards import Fixture, fixtures
from tests.spies import rows_given, windows_scored

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: one board on screen, captured as started, after the first click, after some flags and when lost (or won)
SEQUENCES = [
    ("xdemineur", "12x9"), ("xdemineur", "30x16"), ("sgt-mines", "9x9"), ("sgt-mines", "30x16"),
    ("sgt-mines", "16x16-t12"), ("gnome-mines", "small"), ("gnome-mines", "big"), ("ace-minesweeper", "level2"),
]
STATES = ["fresh", "first", "flags", "lost", "won"]


def frames(client: str, board: str) -> list[np.ndarray]:
    paths = [FIXTURES / client / f"{board}-{state}.png" for state in STATES]
    return [load_image(path) for path in paths if path.exists()]


def same_reading(full: Reading, partial: Reading) -> None:
    assert partial.board == full.board
    assert partial.mines_left == full.mines_left
    for name in ("chars", "rms", "margin", "best"):
        assert np.array_equal(getattr(partial.scores, name), getattr(full.scores, name)), name
    assert partial.scores.max_rms == full.scores.max_rms


@pytest.mark.parametrize(("client", "board"), SEQUENCES, ids=[f"{c}/{b}" for c, b in SEQUENCES])
def test_a_partial_read_of_each_recorded_frame_is_the_full_read(client: str, board: str) -> None:
    shots = frames(client, board)
    assert len(shots) >= 4
    first = read_screenshot(shots[0], opened_unknown=True)
    geometry, profile = first.geometry, first.profile
    last = read_located(shots[0], geometry, profile).seen
    for shot in shots[1:] + shots[:1]:  # and back to the fresh board: every cell that changed changes back
        full = read_located(shot, geometry, profile)
        partial = read_located(shot, geometry, profile, last=last)
        same_reading(full, partial)
        last = partial.seen


def test_only_the_cells_whose_pixels_changed_are_classified(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, first = frames("xdemineur", "30x16")[:2]
    reading = read_screenshot(fresh)
    geometry, profile = reading.geometry, reading.profile
    scored = rows_given(monkeypatch, track, "score")
    last = read_located(fresh, geometry, profile).seen
    assert scored == [geometry.rows * geometry.cols]
    again = read_located(first, geometry, profile, last=last)
    opened = sum(row.count("#") for row in reading.board.grid) - sum(row.count("#") for row in again.board.grid)
    assert 0 < opened <= scored[1] < geometry.rows * geometry.cols // 2
    read_located(first, geometry, profile, last=again.seen)
    assert len(scored) == 2  # nothing changed: nothing classified


def test_a_cell_painted_over_is_read_again() -> None:
    fresh, first = frames("xdemineur", "30x16")[:2]
    reading = read_screenshot(first)
    geometry, profile = reading.geometry, reading.profile
    last = reading.seen
    opened = next((r, c) for r, row in enumerate(reading.board.grid) for c, ch in enumerate(row) if ch != "#")
    x0, x1 = geometry.xs[opened[1]], geometry.xs[opened[1] + 1]
    y0, y1 = geometry.ys[opened[0]], geometry.ys[opened[0] + 1]
    covered = first.copy()
    covered[y0:y1, x0:x1] = fresh[y0:y1, x0:x1]  # the cell as it looked before it was opened
    one_pixel = first.copy()
    one_pixel[(y0 + y1) // 2, (x0 + x1) // 2] ^= 0x40  # a change too small to change what it reads as
    for shot in (covered, one_pixel):
        full = read_located(shot, geometry, profile)
        partial = read_located(shot, geometry, profile, last=last)
        same_reading(full, partial)
    assert read_located(covered, geometry, profile, last=last).board.grid[opened[0]][opened[1]] == "#"


def test_scores_of_another_board_or_profile_are_not_kept() -> None:
    shot = frames("xdemineur", "30x16")[1]
    reading = read_screenshot(shot)
    assert reading.scores.track is not None
    plain = reading.scores.track.plain
    moved = reading.geometry.shifted(1, 0)
    assert not plain.holds(moved, reading.profile, plain.windows, plain.scores.max_rms)
    other = frames("sgt-mines", "30x16")[1]
    other_profile = read_screenshot(other).profile
    assert not plain.holds(reading.geometry, other_profile, plain.windows, plain.scores.max_rms)
    assert plain.holds(reading.geometry, reading.profile, plain.windows, plain.scores.max_rms)


FIXTURES_READ = [f for f in fixtures() if not f.path.stem.startswith("digits")]


@pytest.mark.parametrize("fixture", FIXTURES_READ, ids=[f.id for f in FIXTURES_READ])
def test_only_the_read_area_of_a_frame_is_read(fixture: Fixture) -> None:
    image = fixture.image()
    reading = read_screenshot(image)
    geometry, profile = reading.geometry, reading.profile
    area = reading_area(geometry, profile)
    x0, y0 = max(0, area.x), max(0, area.y)
    noise = np.random.default_rng(5).integers(0, 256, image.shape, dtype=np.uint8)
    noise[y0:area.bottom, x0:area.right] = image[y0:area.bottom, x0:area.right]
    same_reading(read_located(image, geometry, profile), read_located(noise, geometry, profile))
    left, top, width, height = geometry.bbox
    assert x0 <= left and y0 <= top and area.right >= left + width and area.bottom >= top + height
    assert area.w * area.h <= image.shape[0] * image.shape[1] // 2  # the board and its counter, not the screen


@pytest.mark.parametrize("client", ["xdemineur", "sgt-mines"])  # a seven-segment counter; a text one
def test_the_counter_is_read_again_only_when_its_pixels_changed(client: str, monkeypatch: pytest.MonkeyPatch) -> None:
    first, flags = frames(client, "30x16")[1:3]
    reading = read_screenshot(first)
    geometry, profile = reading.geometry, reading.profile
    assert reading.mines_left is not None
    counted: list[int | None] = []
    real = read_module.read_counter

    def counting(*args: object) -> int | None:
        counted.append(real(*args))  # type: ignore[arg-type]
        return counted[-1]

    monkeypatch.setattr(read_module, "read_counter", counting)
    again = read_located(first, geometry, profile, last=reading.seen)
    assert counted == [] and again.mines_left == reading.mines_left
    flagged = read_located(flags, geometry, profile, last=reading.seen)  # flags placed: the counter went down
    assert counted == [flagged.mines_left] and flagged.mines_left != reading.mines_left
    area = counter_area(geometry, profile)
    assert area is not None
    blank = first.copy()
    blank[area.y:area.bottom, area.x:area.right] = blank[area.y, area.x]  # the counter wiped out
    wiped = read_located(blank, geometry, profile, last=reading.seen)
    same_reading(read_located(blank, geometry, profile), wiped)
    assert wiped.mines_left is None and counted[-1] is None


def test_a_board_read_with_looks_drawn_at_its_size_is_looked_at_again_only_where_it_changed() -> None:
    # gnome-mines at 1.3x, read by its 34 px looks drawn at 60.6 px: some cells are refused at first and found
    # by a second look a few pixels off, some numbers taken by their colour; neither is done again for a cell
    # whose pixels stayed
    image = load_image(FIXTURES / "drawn-sizes" / "gnome-mines-threes-1.3x.png")
    reading = read_screenshot(image, profiles=[load_profile(BUILTIN_DIR / "gnome-mines-34px")])
    geometry, profile = reading.geometry, reading.profile
    assert profile.drawn_from
    fresh = read_located(image, geometry, profile)
    track = fresh.scores.track
    assert track is not None
    assert track.plain.scored == geometry.rows * geometry.cols and track.looked > 0 and track.inked > 0
    same = read_located(image, geometry, profile, last=fresh.seen)
    same_reading(fresh, same)
    assert same.scores.track is not None
    assert (same.scores.track.plain.scored, same.scores.track.looked, same.scores.track.inked) == (0, 0, 0)

    # the 3 at (6, 2) painted over with the 2 at (7, 2) (a covered tile there would lie beside an empty cell)
    three, two = (6, 2), (7, 2)
    assert reading.board.grid[three[0]][three[1]] == "3" and reading.board.grid[two[0]][two[1]] == "2"

    def cell(r: int, c: int) -> tuple[slice, slice]:
        return slice(geometry.ys[r], geometry.ys[r + 1]), slice(geometry.xs[c], geometry.xs[c + 1])

    painted = image.copy()
    h = min(geometry.ys[three[0] + 1] - geometry.ys[three[0]], geometry.ys[two[0] + 1] - geometry.ys[two[0]])
    w = min(geometry.xs[three[1] + 1] - geometry.xs[three[1]], geometry.xs[two[1] + 1] - geometry.xs[two[1]])
    (ty, tx), (cy, cx) = cell(*three), cell(*two)
    painted[ty.start : ty.start + h, tx.start : tx.start + w] = image[cy.start : cy.start + h, cx.start : cx.start + w]
    full = read_located(painted, geometry, profile)
    partial = read_located(painted, geometry, profile, last=fresh.seen)
    same_reading(full, partial)
    assert partial.board.grid[three[0]][three[1]] == "2"
    assert partial.scores.track is not None
    assert partial.scores.track.plain.scored == 1
    assert partial.scores.track.looked + partial.scores.track.inked < track.looked + track.inked
    # the windows' mean levels (is the screen brighter than the looks?) are taken again for the painted cell
    # alone, and are what a fresh read takes
    assert track.means is not None and full.scores.track is not None and full.scores.track.means is not None
    assert partial.scores.track.means is not None
    assert np.array_equal(partial.scores.track.means, full.scores.track.means)
    assert not np.array_equal(partial.scores.track.means, track.means)
    assert same.scores.track.means is track.means


def test_a_fresh_board_read_with_drawn_looks_is_held_against_their_shapes_again_only_where_it_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # gnome-mines's fresh big board, read by its 34 px looks drawn at 29.7 px: one kind of cell alone, so the
    # read asks whether the covered tile's shape pins the screen's brightness (vision.levels.pinned_by_shape);
    # each cell's residuals against the looks' shapes depend on its window alone, and are taken again only for
    # a window that changed
    image = load_image(FIXTURES / "gnome-mines" / "big-fresh.png")
    reading = read_screenshot(image, profiles=[load_profile(BUILTIN_DIR / "gnome-mines-34px")])
    geometry, profile = reading.geometry, reading.profile
    assert profile.drawn_from and set("".join(reading.board.grid)) == {"#"}
    given: list[int] = []
    real = track.shape_residuals

    def counted(windows: np.ndarray, looks: object) -> np.ndarray:
        given.append(len(windows))
        return real(windows, looks)  # type: ignore[arg-type]

    monkeypatch.setattr(track, "shape_residuals", counted)
    fresh = read_located(image, geometry, profile)
    assert fresh.scores.track is not None and fresh.scores.track.residuals is not None
    assert given == [geometry.rows * geometry.cols]
    same = read_located(image, geometry, profile, last=fresh.seen)
    assert same.scores.track is not None and same.scores.track.residuals is fresh.scores.track.residuals
    assert given == [geometry.rows * geometry.cols]

    # one pixel of the cell (3, 4)'s window a level darker: that cell's residuals alone are taken again
    ox, oy, w, h = profile.crop
    y, x = geometry.ys[3] + oy + h // 2, geometry.xs[4] + ox + w // 2
    changed = image.copy()
    changed[y, x] = np.maximum(changed[y, x].astype(np.int16) - 1, 0).astype(np.uint8)
    given.clear()
    full = read_located(changed, geometry, profile)
    partial = read_located(changed, geometry, profile, last=fresh.seen)
    assert given == [geometry.rows * geometry.cols, 1]
    same_reading(full, partial)
    assert full.scores.track is not None and partial.scores.track is not None
    kept, afresh = partial.scores.track.residuals, full.scores.track.residuals
    assert kept is not None and afresh is not None
    assert np.array_equal(kept, afresh)
    assert not np.array_equal(kept, fresh.scores.track.residuals)


def test_a_refused_cell_is_looked_at_again_when_the_pixels_around_its_window_change_and_its_window_stays() -> None:
    # the second look at a refused cell moves its window by a few pixels: a change beside the window, which
    # leaves the window as it was, may change what the look finds, and the look is taken again
    image = load_image(FIXTURES / "drawn-sizes" / "gnome-mines-threes-1.3x.png")
    reading = read_screenshot(image, profiles=[load_profile(BUILTIN_DIR / "gnome-mines-34px")])
    geometry, profile = reading.geometry, reading.profile
    fresh = read_located(image, geometry, profile)
    assert fresh.scores.track is not None
    looked_at = fresh.scores.track.looks.cells
    assert len(looked_at)
    r, c = divmod(int(looked_at[0]), geometry.cols)
    ox, oy, w, _ = profile.crop
    x0, y0 = geometry.xs[c] + ox, geometry.ys[r] + oy
    changed = image.copy()
    changed[y0 - 2 : y0, x0 : x0 + w] = 255 - changed[y0 - 2 : y0, x0 : x0 + w]  # two rows just above the window
    full = read_located(changed, geometry, profile)
    partial = read_located(changed, geometry, profile, last=fresh.seen)
    same_reading(full, partial)
    assert partial.scores.track is not None
    # the cell's own window stayed: it is not scored again, but looked at again
    scored_again = partial.scores.track.plain.changed
    assert scored_again is not None and r * geometry.cols + c not in scored_again
    assert partial.scores.track.looked >= 1
    assert partial.scores.track.looked < fresh.scores.track.looked or fresh.scores.track.looked == 1


def brighter(image: np.ndarray, gain: float = 1.08, offset: float = 6.0) -> np.ndarray:
    """The frame as a screen brighter than the one the looks were made on shows it."""
    return np.clip(image.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)


LEVELED = [("gnome-mines", "small"), ("xdemineur", "30x16"), ("sgt-mines", "9x9")]


@pytest.mark.parametrize(("client", "board"), LEVELED, ids=[f"{c}/{b}" for c, b in LEVELED])
def test_on_a_brighter_screen_the_looks_are_fitted_once_and_cells_scored_again_only_where_they_changed(
        client: str, board: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the frames after the first click, as a brighter screen shows them: each read afresh is fitted to the
    # screen; read one after the other, the fit of the first scores the next where their pixels changed
    shots = [brighter(shot) for shot in frames(client, board)[1:]]
    first = read_screenshot(shots[0])
    geometry, profile = first.geometry, first.profile
    fulls = [read_located(shot, geometry, profile) for shot in shots]
    assert all(full.scores.leveled for full in fulls)
    fits = rows_given(monkeypatch, decide, "fit_profile_levels")
    scored, fitted = rows_given(monkeypatch, track, "score"), rows_given(monkeypatch, levels, "score")
    last = fulls[0].seen
    for shot, full in zip(shots[1:], fulls[1:], strict=True):
        before = sum(scored) + sum(fitted)
        partial = read_located(shot, geometry, profile, last=last)
        assert partial.board == full.board and partial.mines_left == full.mines_left
        assert partial.scores.leveled
        # the cells that changed, against the looks as they are and as fitted
        assert 0 < sum(scored + fitted) - before < geometry.rows * geometry.cols
        last = partial.seen
    assert fits == []


def test_a_frame_the_kept_fit_does_not_read_is_fitted_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    # the screen brightened further between two frames: the looks fitted to the first refuse cells of the
    # second, which is fitted again and read as a fresh read reads it
    shots = frames("gnome-mines", "small")
    first, then = brighter(shots[1]), brighter(shots[2], 1.25, 12.0)
    reading = read_screenshot(first)
    geometry, profile = reading.geometry, reading.profile
    full = read_located(then, geometry, profile)
    assert full.scores.leveled
    fits = rows_given(monkeypatch, decide, "fit_profile_levels")
    partial = read_located(then, geometry, profile, last=read_located(first, geometry, profile).seen)
    assert len(fits) == 2  # the first frame's read afresh, then the second's
    same_reading(full, partial)


def test_a_fit_to_a_brighter_screen_is_ranked_by_what_the_looks_as_they_are_left_without_scoring_them_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # profiles are ranked by the residual their looks leave as the screen shows them, before a fit to its
    # brightness: that residual is kept from the read that fitted them, not found by reading the board again
    shot = brighter(frames("sgt-mines", "30x16")[1])
    geometry, scores = fit_module.attempt(shot, locate(shot), load_profile(BUILTIN_DIR / "sgt-mines-20px"))
    assert scores.leveled and scores.accepted.all()
    as_shown = decide.classify(shot, geometry, load_profile(BUILTIN_DIR / "sgt-mines-20px"), levels=False)
    assert scores.as_shown == float(as_shown.rms.mean()) > float(scores.rms.mean())
    ways: list[bool] = []
    real = fit_module.classify

    def spy(*args: object, **kwargs: object) -> object:
        ways.append(bool(kwargs.get("levels", True)))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fit_module, "classify", spy)
    reading = read_screenshot(shot)
    assert reading.profile.name == "sgt-mines-20px" and reading.scores.leveled
    assert ways and all(ways)  # no profile's board read again without the fit


def test_a_fresh_read_of_a_board_its_own_profile_reads_exactly_scores_its_cells_about_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """xdemineur's 12x9 board of 21 px cells, read from scratch: sgt-mines's 20 px looks fit that cell size as
    they are too, but xdemineur's profile, made at 21 px, reads the board nearly exactly and is taken at once;
    the lines just beyond its edges are scored with its looks as they are (no fit of their own). The windows
    scored against looks come to less than one and a half boards' worth (the board, and a line beyond each
    edge), all against xdemineur's looks (3.9 boards' worth, half of them against sgt-mines's, when every
    profile that fits the size was tried in full)."""
    scored = windows_scored(monkeypatch)
    reading = read_screenshot(load_image(FIXTURES / "xdemineur" / "12x9-first.png"))
    assert reading.profile.name == "xdemineur-21px"
    assert scored and {name for _, name in scored} == {"xdemineur-21px"}
    assert sum(n for n, _ in scored) < 1.5 * reading.board.rows * reading.board.cols
