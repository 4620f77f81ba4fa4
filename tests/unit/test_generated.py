"""Generated clients, in the parts that need no screen: a seed's make-up, the game they play, their tiles, and a
profile checked against a sheet of every look's truth."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sweeplab.generated.rules import Minefield
from sweeplab.generated.spec import (
    FONTS,
    LEVELS,
    MAX_BOARD,
    NEW_GAME_WAYS,
    ClientMakeUp,
    at_cell,
    make_up,
)
from sweeplab.generated.tiles import LOOKS, TRUTH, draw_look, truth_sheet


def test_a_seed_makes_the_same_client_on_every_call_and_its_make_up_survives_its_file() -> None:
    for seed in range(20):
        make = make_up(seed)
        assert make == make_up(seed)
        assert ClientMakeUp.from_json(make.to_json()) == make
        assert make.kind == ("window" if seed % 2 == 0 else "page")


def test_the_seeds_vary_what_a_client_varies_within_what_a_screen_holds() -> None:
    makes = [make_up(seed) for seed in range(200)]
    assert {m.palette.scheme for m in makes} == {"light", "dark", "low-contrast", "coloured", "open-darker"}
    assert {m.manners.new_game for m in makes} == set(NEW_GAME_WAYS)
    assert {m.manners.first_click for m in makes} == {"none", "safe", "opening"}
    assert {m.tiles.covered for m in makes} == {"bevel", "flat", "rounded", "gradient"}
    assert {m.digits.font for m in makes} == set(FONTS)
    assert any(m.manners.hold > 0 for m in makes) and any(m.manners.hold == 0 for m in makes)
    assert any(m.digits.zero for m in makes) and any(m.digits.outline for m in makes)
    assert min(m.cell for m in makes) == 12 and max(m.cell for m in makes) >= 56
    for m in makes:
        cols, rows, _ = LEVELS[m.level]
        assert 12 <= m.cell <= 64
        assert cols * m.pitch <= MAX_BOARD[0] + m.tiles.gap and rows * m.pitch <= MAX_BOARD[1] + m.tiles.gap
        assert m.manners.links == [] or m.kind == "page"  # a window has no links
        assert m.manners.new_game_key != ["ctrl", "n"] or m.kind == "window"  # a browser's command: never a page's


def test_a_client_drawn_at_another_cell_size_is_the_same_client_within_the_screen() -> None:
    for seed in range(40):
        make = make_up(seed)
        assert at_cell(make, make.cell) == make
        other = at_cell(make, 12)
        assert other.cell == 12 and other.manners == make.manners and other.palette == make.palette
        assert (other.tiles.bevel >= 1) == (make.tiles.covered == "bevel")
        cols, _, _ = LEVELS[make.level]
        with pytest.raises(ValueError, match="does not fit"):
            at_cell(make, MAX_BOARD[0] // cols + 1)
    with pytest.raises(ValueError):
        at_cell(make_up(0), 11)


@pytest.mark.parametrize("rule", ["none", "safe", "opening"])
def test_the_first_click_follows_the_clients_rule(rule: str) -> None:
    for seed in range(30):
        field = Minefield(9, 9, 70, rule, random.Random(seed))
        field.open((4, 4))
        if rule == "safe":
            assert (4, 4) not in field.mined
        if rule == "opening":
            assert not ({(4, 4), *field.around((4, 4))} & field.mined)
        assert len(field.mined) == 70


def test_an_empty_cell_opens_its_neighbours_a_flag_stops_it_and_the_last_safe_cell_wins() -> None:
    field = Minefield(4, 3, 1, "opening", random.Random(0))
    field.open((0, 0))
    field.mined = {(2, 3)}  # laid again where the test wants it
    field.opened.clear()
    field.mark((0, 3), cycle=True)  # a flag...
    field.open((0, 0))
    assert (0, 3) not in field.opened and field.look((0, 3), True, False) == "F"
    field.mark((0, 3), cycle=True)  # ...then a question mark, which opening does not stop
    assert field.look((0, 3), True, False) == "?"
    field.open((0, 3))
    assert field.state == "won" and field.look((2, 3), True, True) == "F" and field.look((2, 3), True, False) == "#"


def test_a_loss_shows_the_mine_that_went_off_the_others_and_the_wrong_flags_as_the_client_says() -> None:
    field = Minefield(3, 3, 2, "none", random.Random(0))
    field.state, field.mined = "playing", {(0, 0), (2, 2)}
    field.mark((0, 2), cycle=False)
    field.open((0, 0))
    assert field.state == "lost"
    assert [field.look(c, True, False) for c in [(0, 0), (2, 2), (0, 2)]] == ["!", "*", "X"]
    assert [field.look(c, False, False) for c in [(0, 0), (2, 2), (0, 2)]] == ["!", "#", "F"]
    assert not field.open((1, 1)) and not field.mark((1, 1), cycle=False)  # a game over takes no click


def test_every_look_is_drawn_at_the_cell_size_and_looks_of_other_truths_differ() -> None:
    for seed in range(12):
        make = make_up(seed)
        images = {look: draw_look(make, look) for look in LOOKS}
        assert all(image.shape == (make.cell, make.cell, 3) for image in images.values())
        if not make.digits.zero:  # drawn as an opened empty cell: only its behaviour tells it apart
            assert np.array_equal(images["pressed"], images["."])
        truths: dict[bytes, str] = {}
        for look, truth in TRUTH.items():
            key = images[look].tobytes()
            assert truths.setdefault(key, truth) == truth, f"seed {seed}: {look} drawn as another look"


def test_the_sheet_lays_every_look_out_as_the_client_lays_out_its_board() -> None:
    make = make_up(3)
    image, xs, ys, truth = truth_sheet(make)
    looks = "".join(truth)
    assert all(looks.count(ch) >= 1 for ch in "F?.12345678*!X")
    assert xs[1] - xs[0] == make.pitch and ys[1] - ys[0] == make.pitch
    assert image.shape[0] >= ys[-1] and image.shape[1] >= xs[-1]

