"""The simulated game: layouts, first-click rules, openings, chords, flags, end states and 3BV."""

from __future__ import annotations

import pytest

from sweepbot.board import neighbours
from sweepbot.errors import SweepbotError
from sweepbot.game import LEVELS, Game, Level, parse_level


def test_levels() -> None:
    assert parse_level("expert") == Level(16, 30, 99, "expert")
    assert parse_level("Beginner").mines == 10
    custom = parse_level("20x10/30")
    assert (custom.rows, custom.cols, custom.mines) == (10, 20, 30)
    for bad in ("huge", "10x10/100", "0x5/1", "10x10"):
        with pytest.raises(SweepbotError):
            parse_level(bad)


def test_same_seed_same_board_whatever_is_played() -> None:
    one, two = Game(LEVELS["expert"], 42), Game(LEVELS["expert"], 42)
    one.open((3, 3))
    two.open((3, 3))
    assert one.mines == two.mines and len(one.mines) == 99
    three = Game(LEVELS["expert"], 43)
    three.open((3, 3))
    assert three.mines != one.mines


@pytest.mark.parametrize("seed", range(30))
def test_opening_rule_clears_the_first_cell_and_its_neighbours(seed: int) -> None:
    game = Game(LEVELS["expert"], seed, "opening")
    opened = game.open((0, 0))
    assert game.count((0, 0)) == 0 and (0, 0) in opened
    assert not {(0, 0), *neighbours((0, 0), 16, 30)} & game.mines


def test_safe_rule_never_loses_on_the_first_click_and_none_can() -> None:
    for seed in range(200):
        game = Game(LEVELS["expert"], seed, "safe")
        game.open((5, 5))
        assert game.state == "playing" and (5, 5) not in game.mines
    losses = 0
    for seed in range(200):
        game = Game(LEVELS["expert"], seed, "none")
        game.open((5, 5))
        losses += game.state == "lost"
    assert 20 < losses < 70  # about 99/480 of 200


def small_game() -> Game:
    game = Game(Level(3, 4, 2), seed=0)
    game.place({(0, 3), (2, 3)})
    return game


def test_flood_fill_win_and_three_bv() -> None:
    game = small_game()
    # 0 0 1 *
    # 0 0 2 #
    # 0 0 1 *
    assert game.three_bv() == 2  # the opening on the left, then the 2 at (1, 3) that no opening reveals
    opened = game.open((0, 0))
    assert sorted(opened) == [(r, c) for r in range(3) for c in range(3)]
    assert game.view().grid == ("..1#", "..2#", "..1#")
    game.open((1, 3))
    assert game.state == "won"


def test_loss_view_shows_mines_exploded_and_wrong_flags() -> None:
    game = small_game()
    game.open((0, 0))
    game.flag((1, 3))  # wrong flag
    game.open((0, 3))
    view = game.view()
    assert game.state == "lost" and view.state == "lost"
    assert view.grid == ("..1!", "..2X", "..1*")


def test_flags_toggle_and_chord_opens_around_a_satisfied_number() -> None:
    game = Game(Level(3, 3, 1), seed=0)
    game.place({(0, 0)})
    game.open((2, 2))
    assert game.view().grid == ("#1.", "11.", "...") and game.state == "won"
    game2 = Game(Level(2, 3, 1), seed=0)
    game2.place({(0, 0)})
    game2.open((0, 1))
    game2.flag((0, 0))
    assert game2.view().grid == ("F1#", "###")
    assert game2.chord((0, 1)) and game2.state == "won"
    game2.flag((0, 0))  # no effect after the end
    assert game2.view().grid == ("F1.", "11.")


def test_chord_with_a_wrong_flag_loses() -> None:
    game = Game(Level(2, 3, 1), seed=0)
    game.place({(0, 0)})
    game.open((0, 1))
    game.flag((1, 0))
    game.chord((0, 1))
    assert game.state == "lost" and game.exploded == (0, 0)


def test_three_bv_counts_openings_and_lone_numbers() -> None:
    game = Game(Level(1, 5, 1), seed=0)
    game.place({(0, 2)})
    # 0 1 * 1 0 : two openings, each clearing its 1
    assert game.three_bv() == 2
    game = Game(Level(1, 3, 2), seed=0)
    game.place({(0, 0), (0, 2)})
    assert game.three_bv() == 1  # a lone 2


def test_three_bv_read_off_a_won_board_equals_the_layout_value() -> None:
    from sweepbot.game import won_board_three_bv
    from sweepbot.simulate import BenchSettings, play_game

    checked = 0
    for seed in range(30):
        settings = BenchSettings(LEVELS["beginner"])
        result = play_game(settings, seed)
        if not result.won:
            continue
        game = Game(LEVELS["beginner"], seed)
        game.open((3, 3))
        for cell in [(r, c) for r in range(9) for c in range(9) if (r, c) not in game.mines]:
            game.open(cell)
        assert game.state == "won"
        assert won_board_three_bv(game.view()) == game.three_bv() == result.three_bv
        checked += 1
    assert checked > 20
