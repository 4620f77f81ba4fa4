"""Numbers told apart by the colour they are drawn in (vision.ink): a digit's colour holds at any size."""

from __future__ import annotations

import numpy as np

from sweepbot.vision.ink import inked_as

BLUE, GREEN, RED = (200, 40, 30), (30, 150, 30), (30, 30, 210)
GREY = (190, 190, 190)


def cell(ink: tuple[int, int, int], share: float = 0.2) -> np.ndarray:
    """A grey cell's pixels (N x 3) with ``share`` of them in ``ink``."""
    pixels = np.tile(np.array(GREY, np.uint8), (400, 1))
    pixels[: int(400 * share)] = ink
    return pixels


def test_a_number_is_taken_only_in_its_own_digits_colour_and_no_other() -> None:
    inks = {"1": np.array(BLUE, np.float32), "2": np.array(GREEN, np.float32), "3": np.array(RED, np.float32)}
    assert inked_as(cell(BLUE), "1", inks)
    assert not inked_as(cell(BLUE), "2", inks)  # read as a 2 by its pixels, drawn in a 1's colour: refused
    assert not inked_as(cell(GREY), "1", inks)  # no colour at all
    assert not inked_as(cell(BLUE, share=0.005), "1", inks)  # a speck of colour proves nothing
    assert not inked_as(cell(BLUE), "4", inks)  # a digit of no known colour


def test_digits_drawn_in_one_colour_are_never_told_apart_by_it() -> None:
    inks = {"1": np.array(BLUE, np.float32), "2": np.array((205, 45, 35), np.float32)}
    assert not inked_as(cell(BLUE), "1", inks) and not inked_as(cell(BLUE), "2", inks)


def test_a_digits_colour_is_its_strokes_core_not_the_edges_blended_with_the_ground() -> None:
    """A thin blue stroke drawn larger blends its edges with the grey ground: most of its coloured pixels are
    blends. Its colour is still the stroke's own blue, and a cell drawn crisp in that blue is read as that
    digit."""
    from sweepbot.vision.ink import ink

    pixels = np.tile(np.array(GREY, np.uint8), (400, 1))
    pixels[:30] = BLUE
    for k in range(90):  # blends from the blue towards the grey
        share = 0.6 * k / 90
        pixels[30 + k] = np.round(np.array(BLUE) * (1 - share) + np.array(GREY) * share)
    colour = ink(pixels)
    assert colour is not None and np.abs(colour - np.array(BLUE)).max() <= 10
    inks = {"1": colour, "2": np.array(GREEN, np.float32), "3": np.array(RED, np.float32)}
    assert inked_as(cell(BLUE), "1", inks) and not inked_as(cell(BLUE), "2", inks)


def test_a_cell_in_its_digits_colour_rules_out_only_the_looks_drawn_in_no_colour_or_one_far_off() -> None:
    """A cell drawn in a 1's blue cannot be an empty cell or a covered tile (grey: no colour), nor a 3 or a
    flag drawn in red; a look drawn in its blue too (a question mark, here) it does not rule out."""
    from sweepbot.vision.ink import colour_rules
    from sweepbot.vision.profile import make_profile

    def look(ink: tuple[int, int, int], share: float = 0.2) -> np.ndarray:
        return cell(ink, share).reshape(20, 20, 3)

    looks = [("#", look(GREY)), (".", look(GREY)), ("1", look(BLUE)), ("3", look(RED)), ("F", look(RED, 0.3)),
             ("?", look((198, 44, 33)))]
    profile = make_profile("t", "t", (22.0, 22.0), (1, 1, 20, 20), looks)
    taken, out = colour_rules(cell(BLUE)[None], ["1"], profile)
    assert taken[0]
    assert dict(zip(profile.labels, out[0].tolist(), strict=True)) == {
        "#": True, ".": True, "1": False, "3": True, "F": True, "?": False}
    taken, out = colour_rules(cell(RED)[None], ["1"], profile)
    assert not taken[0] and not out[0].any()  # not in its digit's colour: nothing is ruled out


def test_cells_checked_together_are_each_checked_as_alone() -> None:
    """A frame's numbers are checked in one pass: each cell's colour and the looks it rules out are what a
    check of that cell alone gives, whatever cells stand beside it (a cell of no colour, another digit's)."""
    from sweepbot.vision.ink import colour_rules, ink, inks
    from sweepbot.vision.profile import make_profile

    def look(colour: tuple[int, int, int], share: float = 0.2) -> np.ndarray:
        return cell(colour, share).reshape(20, 20, 3)

    profile = make_profile("t", "t", (22.0, 22.0), (1, 1, 20, 20),
                           [("#", look(GREY)), ("1", look(BLUE)), ("2", look(GREEN)), ("3", look(RED))])
    cells = np.stack([cell(BLUE), cell(GREY), cell(GREEN, 0.3), cell(RED, 0.05), cell(BLUE, 0.004)])
    digits = ["1", "1", "2", "3", "1"]
    together = inks(cells)
    for k in range(len(cells)):
        alone = ink(cells[k])
        assert (alone is None and np.isnan(together[k]).all()) or np.array_equal(alone, together[k])
    taken, out = colour_rules(cells, digits, profile)
    assert taken.tolist() == [True, False, True, True, False]
    for k, digit in enumerate(digits):
        alone_taken, alone_out = colour_rules(cells[k][None], [digit], profile)
        assert alone_taken[0] == taken[k] and np.array_equal(alone_out[0], out[k])
