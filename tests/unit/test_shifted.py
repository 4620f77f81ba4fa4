"""A refused cell's second look (vision.shifted): what scoring every move of its window exactly would take."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.capture import load_image
from sweepbot.vision.cells import score, windows_at
from sweepbot.vision.profile import Profile, available_profiles, make_profile
from sweepbot.vision.read import read_screenshot
from sweepbot.vision.shifted import best_moves, grown_windows
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
