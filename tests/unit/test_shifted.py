"""A refused cell's second look (vision.shifted): what scoring every move of its window exactly would take, and
the bound that leaves a fit that cannot be chosen without it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sweepbot.vision import limits
from sweepbot.vision.capture import load_image
from sweepbot.vision.cells import CellScores, score, windows_at
from sweepbot.vision.decide import classify
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile, available_profiles, make_profile
from sweepbot.vision.read import read_screenshot
from sweepbot.vision.shifted import best_moves, grown_windows, search
from sweepbot.vision.track import Look

FIXTURES = Path(__file__).parent.parent / "fixtures"


def every_move_scored(image: np.ndarray, x0: int, y0: int, profile: Profile, max_rms: float) -> Look:
    """The reference: each move of the window kept inside the image, scored exactly, the first of the least rms
    (with the move it took, inside the image)."""
    reach = limits.LIMITS.nudge_reach
    _, _, w, h = profile.crop
    height, width = image.shape[:2]
    best: Look | None = None
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            y, x = min(max(y0 + dy, 0), height - h), min(max(x0 + dx, 0), width - w)
            window = windows_at(image, np.array([y]), np.array([x]), (w, h)).astype(np.float32)
            s = score(window, profile, 1, 1, max_rms)
            look = Look(str(s.chars[0, 0]), float(s.rms[0, 0]), float(s.margin[0, 0]), int(s.best[0, 0]),
                        float(s.rival[0, 0]), (y - y0, x - x0))
            if best is None or look.rms < best.rms:
                best = look
    assert best is not None
    return best


def moved(image: np.ndarray, x0s: np.ndarray, y0s: np.ndarray, profile: Profile) -> list[Look]:
    """Each window's second look, as a read takes it: from the pixels around the window."""
    _, _, w, h = profile.crop
    grown = grown_windows(image, x0s, y0s, (w, h))
    return best_moves(grown, x0s, y0s, (image.shape[0], image.shape[1]), profile, 40.0)


def test_the_nearest_move_is_taken_where_the_cheap_bound_points_elsewhere() -> None:
    # a look of fine texture (a checkerboard) has the block sums of a plain grey: on a grey ground every move
    # that covers less of the textured cell bounds lower than the move onto it, which alone comes near
    rng = np.random.default_rng(5)
    board = ((np.indices((9, 7)).sum(axis=0) % 2) * 255).astype(np.uint8)
    looks = [("#", np.full((9, 7, 3), 30, np.uint8)), (".", np.full((9, 7, 3), 230, np.uint8)),
             ("1", np.repeat(board[:, :, None], 3, axis=2))]
    profile = make_profile("texture", "texture", (11.0, 11.0), (2, 1, 7, 9), looks)
    image = np.full((40, 50, 3), 128, np.uint8)
    image[13:22, 21:28] = np.clip(looks[2][1].astype(int) + rng.integers(-40, 41, (9, 7, 3)), 0, 255)
    # the window a pixel off the textured cell, and windows anywhere (past the image's edges too)
    x0s, y0s = np.r_[20, rng.integers(-2, 46, 40)], np.r_[12, rng.integers(-2, 34, 40)]
    found = moved(image, x0s, y0s, profile)
    assert found == [every_move_scored(image, int(x), int(y), profile, 40.0) for x, y in zip(x0s, y0s, strict=True)]
    assert found[0].char == "1" and found[0].rms < 40


def test_the_second_look_takes_the_move_every_move_scored_exactly_takes() -> None:
    image = load_image(FIXTURES / "sgt-mines" / "30x16-flags.png")
    profiles = available_profiles()
    own = read_screenshot(image, profiles=profiles)
    # the client's other sizes drawn at this one: looks that come only so close, the moves' nearest near each other
    drawn = read_screenshot(image, profiles=[p for p in profiles if p.name != own.profile.name]).profile
    rng = np.random.default_rng(3)
    ox, oy, _, _ = drawn.crop
    g = own.geometry
    cells = [(int(r), int(c)) for r, c in zip(rng.integers(0, g.rows, 30), rng.integers(0, g.cols, 30), strict=True)]
    # the board's corners too, and windows past the image's edge (moved inside it)
    cells += [(0, 0), (g.rows - 1, g.cols - 1)]
    x0s = np.array([g.xs[c] + ox for _, c in cells] + [-2, image.shape[1] - 3])
    y0s = np.array([g.ys[r] + oy for r, _ in cells] + [1, image.shape[0] - 2])
    found = moved(image, x0s, y0s, drawn)
    assert found == [every_move_scored(image, int(x), int(y), drawn, 40.0) for x, y in zip(x0s, y0s, strict=True)]


def test_a_second_look_on_an_image_smaller_than_a_window_moved_reads_what_it_holds() -> None:
    image = load_image(FIXTURES / "sgt-mines" / "9x9-first.png")
    profile = read_screenshot(image, profiles=available_profiles()).profile
    _, _, w, h = profile.crop
    # an image a pixel larger than a window: every move lands on one of four windows
    small = np.ascontiguousarray(image[100 : 100 + h + 1, 100 : 100 + w + 1])
    found = moved(small, np.array([0, 1]), np.array([1, 0]), profile)
    assert found == [every_move_scored(small, 0, 1, profile, 40.0), every_move_scored(small, 1, 0, profile, 40.0)]


def test_windows_with_the_same_pixels_around_them_take_each_the_moves_it_can_make() -> None:
    # a window at the image's left edge and one 3 px right of it read the same grown window (both kept inside
    # the image); the first cannot move as far right as the textured cell, the second can
    board = ((np.indices((9, 7)).sum(axis=0) % 2) * 255).astype(np.uint8)
    looks = [("#", np.full((9, 7, 3), 30, np.uint8)), ("1", np.repeat(board[:, :, None], 3, axis=2))]
    profile = make_profile("texture", "texture", (11.0, 11.0), (2, 1, 7, 9), looks)
    image = np.full((30, 30, 3), 30, np.uint8)
    image[10:19, 5:12] = looks[1][1]
    x0s, y0s = np.array([0, 3, 3, 0]), np.array([10, 10, 10, 10])
    found = moved(image, x0s, y0s, profile)
    assert found == [every_move_scored(image, int(x), int(y), profile, 40.0) for x, y in zip(x0s, y0s, strict=True)]
    assert [look.char for look in found] == ["#", "1", "1", "#"] and found[1].rms == 0


def test_no_move_comes_nearer_a_look_than_the_search_bounds() -> None:
    # the bound that puts a fit off: each window's least rms over its moves, never over what scoring every move
    # exactly finds, and near it where the looks differ in colour (another client's looks on sgt-mines's board)
    image = load_image(FIXTURES / "sgt-mines" / "30x16-flags.png")
    profiles = available_profiles()
    own = read_screenshot(image, profiles=profiles)
    other = next(p for p in profiles if p.client == "xdemineur")
    rng = np.random.default_rng(7)
    g = own.geometry
    ox, oy, w, h = other.crop
    x0s = np.array([g.xs[c] + ox for c in rng.integers(0, g.cols, 25)])
    y0s = np.array([g.ys[r] + oy for r in rng.integers(0, g.rows, 25)])
    grown = grown_windows(image, x0s, y0s, (w, h))
    least = search(grown, x0s, y0s, (image.shape[0], image.shape[1]), other).least_rms(other)
    exact = np.array([every_move_scored(image, int(x), int(y), other, 40.0).rms
                      for x, y in zip(x0s, y0s, strict=True)])
    assert (least <= exact + 1e-9).all()
    assert (least > limits.LIMITS.max_rms).sum() >= 20  # most of them: another client's cells far from every look


def test_a_fit_that_cannot_be_chosen_takes_no_second_looks() -> None:
    # xdemineur's looks on sgt-mines's board at 20 px (within the pitch tolerance of its 21 px): every cell
    # refused; held to refusing none, the bound shows it cannot, and no cell is looked at again
    image = load_image(FIXTURES / "sgt-mines" / "9x9-flags.png")
    profiles = available_profiles()
    grid = read_screenshot(image, profiles=profiles).geometry
    other = next(p for p in profiles if p.client == "xdemineur")
    full = classify(image, grid, other, ranked=True)
    held = classify(image, grid, other, ranked=True, within=0)
    assert full.track is not None and held.track is not None
    assert full.track.looked > 0 and held.track.looked == 0
    assert int((~held.accepted).sum()) >= int((~full.accepted).sum()) > 0
    # where the bound does not rule the fit out (the client's other sizes drawn at 20 px), it is the same
    drawn = read_screenshot(image, profiles=[p for p in profiles if p.name != "sgt-mines-20px"])
    at, mine = drawn.geometry, drawn.profile
    assert mine.drawn_from
    held, full = classify(image, at, mine, ranked=True, within=0), classify(image, at, mine, ranked=True)
    assert np.array_equal(held.rms, full.rms)


def test_a_fit_put_off_or_given_no_second_looks_leaves_the_choice_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    # gnome-mines at 46 px without the profile made there (ace-minesweeper's 48 px looks near its size) and
    # sgt-mines at 20 px without its own: the reading is the one every fit taken in full gives
    from sweepbot.vision import fit

    profiles = available_profiles()
    real = fit.attempt
    put_off: list[str] = []

    def watched(image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float | None = None,
                within: int | None = None) -> tuple[Geometry, CellScores]:
        geo, scores = real(image, geometry, profile, max_rms, within)
        if within is not None and scores.track is not None and not scores.track.looked \
                and int((~scores.accepted).sum()) > within:
            put_off.append(profile.name)
        return geo, scores

    def in_full(image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float | None = None,
                within: int | None = None) -> tuple[Geometry, CellScores]:
        return real(image, geometry, profile, max_rms)

    cases = (("gnome-mines/digits-46-3.png", "gnome-mines-46px"), ("sgt-mines/9x9-flags.png", "sgt-mines-20px"))
    for name, own in cases:
        image = load_image(FIXTURES / name)
        others = [p for p in profiles if p.name != own]
        put_off.clear()
        with monkeypatch.context() as m:
            m.setattr(fit, "attempt", watched)
            quick = read_screenshot(image, profiles=others)
        assert put_off  # another client's looks near the board's size, given no second looks
        with monkeypatch.context() as m:
            m.setattr(fit, "attempt", in_full)
            full = read_screenshot(image, profiles=others)
        assert (quick.profile.name, quick.geometry, quick.board) == (full.profile.name, full.geometry, full.board)
        assert np.array_equal(quick.scores.rms, full.scores.rms)
