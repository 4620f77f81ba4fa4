"""Each guessing strategy on positions made for it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from itertools import product

import numpy as np
import pytest

from sweepbot.board import FLAG, Board, Cell, neighbours
from sweepbot.game import LEVELS, Game
from sweepbot.solver import solve
from sweepbot.solver.analysis import Analysis, analyse
from sweepbot.solver.budget import Budget
from sweepbot.solver.endgame import LayoutSearch, cell_splits, endgame_move, isolated_move, list_layouts
from sweepbot.solver.guesses import (
    KnownNumbers,
    blended_safety,
    dead_cells,
    forced_fifty,
    frontier_cells,
    is_dead,
    next_safety,
    secondary_safety,
    shortlist,
)
from sweepbot.solver.lookahead import outcomes, reveal
from sweepbot.solver.move import Move
from sweepbot.solver.problem import ContradictionError, build_problem, reveal_problem
from sweepbot.solver.strategy import BASIC, PARTS, parse_strategy

PAIR = "mines: 1\n\n##\n11\n..\n"  # two cells share one mine and nothing else touches them
CHECKERBOARD = "mines: 6\n\nF22F\n2##2\n2##2\nF22F\n"  # a 2x2 with two diagonal layouts


def test_forced_fifty_pair_and_two_by_two() -> None:
    assert forced_fifty(analyse(Board.parse(PAIR))) in {(0, 0), (0, 1)}
    assert forced_fifty(analyse(Board.parse(CHECKERBOARD))) in {(1, 1), (1, 2), (2, 1), (2, 2)}


def test_no_forced_fifty_where_more_can_be_learnt() -> None:
    assert forced_fifty(analyse(Board.parse("mines: 5\n\n1####\n#####\n#####\n"))) is None
    # three cells with one mine: revealing one tells about the others
    assert forced_fifty(analyse(Board.parse("mines: 1\n\n###\n111\n...\n"))) is None


def test_dead_cells_can_show_only_one_number() -> None:
    pair = analyse(Board.parse(PAIR))
    assert dead_cells(pair, [(0, 0), (0, 1)], {}) == {(0, 0), (0, 1)}
    open_board = analyse(Board.parse("mines: 5\n\n1####\n#####\n#####\n"))
    assert dead_cells(open_board, [(0, 1), (2, 4)], {}) == set()


DEAD_CORNER = """mines: 12

...12#1.
...1##21
221123#1
##1.1#21
22113#2.
..12##2.
..1#5#31
..12####
"""


def test_dead_cell_is_avoided_while_another_choice_exists() -> None:
    # the corner (7, 7) is as likely a mine as (7, 4)-(7, 6), but if safe it can only show one number
    board = Board.parse(DEAD_CORNER)
    analysis = analyse(board)
    assert dead_cells(analysis, [(7, 7)], {}) == {(7, 7)}
    basic = solve(board, strategy=BASIC).move
    assert basic is not None and basic.cell == (7, 7)  # fewest covered neighbours wins the tie
    move = solve(board, strategy=parse_strategy("basic+dead")).move
    assert move is not None and move.cell != (7, 7)
    assert analysis.probabilities[move.cell] == pytest.approx(analysis.probabilities[(7, 7)])
    assert not dead_cells(analysis, [move.cell], {})


def guess_positions(level: str, seeds: Iterable[int]) -> Iterator[Analysis]:
    """Simulated games from (3, 3): every position where no cell is certainly safe, each left by opening
    its safest cell once the caller has looked at it."""
    for seed in seeds:
        game = Game(LEVELS[level], seed)
        game.open((3, 3))
        while game.state == "playing":
            analysis = analyse(game.view())
            if analysis.safe:
                for cell in analysis.safe:
                    game.open(cell)
                continue
            yield analysis
            game.open(min(analysis.probabilities, key=analysis.probabilities.__getitem__))


def test_outcome_chances_add_up_to_the_chance_of_being_safe() -> None:
    rng = np.random.default_rng(4)
    checked = 0
    for analysis in guess_positions("intermediate", range(40)):
        cells = sorted(analysis.probabilities)
        for pick in rng.choice(len(cells), size=min(3, len(cells)), replace=False):
            cell = cells[int(pick)]
            total = sum(o.chance for o in outcomes(analysis, cell))
            assert total == pytest.approx(1 - analysis.probabilities[cell], abs=1e-9)
            checked += 1
    assert checked > 40


def test_secondary_safety_picks_the_best_scoring_candidate() -> None:
    compared = 0
    for seed in range(30):
        game = Game(LEVELS["expert"], seed)
        game.open((3, 3))
        while game.state == "playing" and compared < 20:
            analysis = analyse(game.view())
            if analysis.safe:
                for cell in analysis.safe:
                    game.open(cell)
                continue
            chosen = secondary_safety(analysis, {}, budget=Budget())  # no limit: every candidate scored
            assert chosen is not None

            def score(cell: Cell, analysis: Analysis = analysis) -> float:
                return sum((o.chance * next_safety(o.after) for o in outcomes(analysis, cell)), 0.0)

            best = max(score(cell) for cell in shortlist(analysis))
            assert score(chosen) == pytest.approx(best, abs=1e-9)
            compared += 1
            game.open(chosen)
    assert compared >= 20


def brute_force_win_chance(board: Board) -> float:
    """Best win chance by trying every move against every layout (slow, for tiny boards only)."""
    analysis = analyse(board)
    layouts = list_layouts(analysis, 10_000)
    assert layouts is not None
    cells = [c for c in analysis.probabilities if c not in analysis.mines]
    return brute_force_over(board, set(analysis.mines), cells, layouts)


def brute_force_over(board: Board, mines: set[Cell], cells: list[Cell], layouts: list[frozenset[Cell]]) -> float:
    """Best win chance over equally likely ``layouts`` of ``cells`` (``mines`` certain besides the flags)."""
    certain = mines | {c for c in board.cells() if board[c] == FLAG}

    def shows(cell: Cell, layout: frozenset[Cell]) -> int:
        return sum(1 for n in neighbours(cell, board.rows, board.cols) if n in layout or n in certain)

    @cache
    def best(state: frozenset[frozenset[Cell]]) -> float:
        if len(state) == 1:
            return 1.0
        top = 0.0
        for cell in cells:
            groups: dict[int, set[frozenset[Cell]]] = {}
            for layout in state:
                if cell not in layout:
                    groups.setdefault(shows(cell, layout), set()).add(layout)
            if sum(map(len, groups.values())) == len(state) and len(groups) == 1:
                continue
            top = max(top, sum(len(g) * best(frozenset(g)) for g in groups.values()) / len(state))
        return top

    return best(frozenset(layouts))


@pytest.mark.parametrize(
    "text",
    [
        PAIR,
        CHECKERBOARD,
        "mines: 3\n\n####\n#22#\n####\n",
        "mines: 2\n\n####\n#21#\n####\n",
        "mines: 1\n\n###\n#1#\n###\n",
        "mines: 2\n\n1##\n###\n",
    ],
)
def test_endgame_search_wins_as_often_as_a_brute_force_search(text: str) -> None:
    board = Board.parse(text)
    found = endgame_move(analyse(board))
    assert found is not None
    cell, chance = found
    assert chance == pytest.approx(brute_force_win_chance(board))
    assert board[cell] == "#"


def test_strategy_names() -> None:
    full = parse_strategy("full-endgame")
    assert (full.dead, full.fifty, full.secondary, full.endgame) == (True, True, True, False)
    basic = parse_strategy("basic+secondary")
    assert (basic.dead, basic.fifty, basic.secondary, basic.endgame) == (False, False, True, False)
    with pytest.raises(Exception, match="unknown strategy"):
        parse_strategy("clever")
    assert parse_strategy("full+endgame=60").endgame_layouts == 60
    assert parse_strategy("full").blend and not parse_strategy("full-blend").blend
    with pytest.raises(Exception, match="unknown strategy part 'deep'"):
        parse_strategy("full+deep")
    assert parse_strategy("full").budget == 45_000 and parse_strategy("full+budget=0").budget is None
    assert parse_strategy("basic+budget=200").budget == 200_000
    assert parse_strategy("full").wide and not parse_strategy("full-wide").wide
    assert not any(getattr(parse_strategy("basic"), part) for part in PARTS)
    with pytest.raises(Exception, match="only the endgame"):
        parse_strategy("full-dead=3")


# from a simulated expert game: the covered cells around (1, 5)-(1, 8) touch no other covered cell
ISOLATED = """mines: 99
state: playing

....2####1..1#11#2111111######
111.3#6##21.111223#11#33######
1#1.2##23#2.1122#21113##5#####
111.12212#2.1#2#21...2########
..111..12211222121111224######
113#2.13#2.1#1123#12#313######
1#4#212##2.1112##422#3#4######
12#322#4321...2###11233#######
.12#12#33#311.1232223#3####3#2
..111224##3#2222111##4#23#3222
....12#4#3212##3#3234#32221.1#
....2#4#32124544#4#34#43#2..11
....2#32#22####213#3##4##2....
....111112#34#31.2233#3221....
1221..111111111..1#2322..111..
1##1..1#1........12#2#1..1#1..
"""


def test_an_isolated_region_is_played_by_the_game_tree_search() -> None:
    board = Board.parse(ISOLATED)
    analysis = analyse(board)
    assert analysis.weight > 1000  # far too many layouts for the whole-board search
    assert forced_fifty(analysis) is None  # more than a 50/50
    found = isolated_move(analysis)
    assert found is not None
    cell, chance = found
    open_cells = {c for c, p in analysis.probabilities.items() if 0 < p < 1}
    region, todo = {cell}, [cell]
    while todo:
        for n in neighbours(todo.pop(), board.rows, board.cols):
            if n in open_cells and n not in region:
                region.add(n)
                todo.append(n)
    assert len(region) >= 3
    cells = sorted(region)
    constraints = [(con.cells, con.mines - len(con.cells & set(analysis.mines))) for con in analysis.constraints
                   if con.cells & region]
    layouts = [
        frozenset(c for c, bit in zip(cells, bits, strict=True) if bit)
        for bits in product((0, 1), repeat=len(cells))
        if all(sum(bit for c, bit in zip(cells, bits, strict=True) if c in group) == need
               for group, need in constraints)
    ]
    assert len({len(layout) for layout in layouts}) == 1  # equally likely whatever the rest holds
    assert chance == pytest.approx(brute_force_over(board, set(analysis.mines), cells, layouts))
    assert chance > max(1 - analysis.probabilities[c] for c in cells) * 0.5  # better than two blind guesses


def test_a_cell_whose_number_is_known_is_dead() -> None:
    """The quick test of blended safety never calls a cell dead that could still show two numbers."""
    checked = 0
    for analysis in guess_positions("expert", range(300, 320)):
        for cell in sorted(frontier_cells(analysis)):
            if KnownNumbers(analysis)(cell):
                assert is_dead(analysis, cell, {}), cell
                checked += 1
    assert checked >= 5


def test_blended_safety_counts_only_living_cells() -> None:
    # (1, 0) is safe but dead (both its covered neighbours are mines): opening it is no progress. What is
    # left is the 50/50 at the bottom.
    board = Board.parse("mines: 3\n\n#1\n#2\n#1\n11\n..\n11\n##\n")
    after = analyse(board)
    assert after.safe == [(1, 0)] and KnownNumbers(after)((1, 0))
    assert next_safety(after) == 1.0
    assert blended_safety(after) == pytest.approx(0.5)


def test_blended_safety_weighs_the_three_best_living_cells() -> None:
    # One mine, under the 1: (0, 2) and (1, 2) are safe and could show 0 or 1 (living); (0, 3) and (1, 3)
    # are safe but can only show 0 (dead); the 1's three cells are safe two times in three (living).
    after = analyse(Board.parse("mines: 1\n\n1###\n####\n"))
    assert sorted(after.safe) == [(0, 2), (0, 3), (1, 2), (1, 3)]
    assert blended_safety(after) == pytest.approx(0.6 * 1 + 0.2 * 1 + 0.2 * 2 / 3)


def test_full_values_the_move_after_a_guess_by_its_best_living_cells() -> None:
    # From a simulated intermediate game (classic rules): two corners opened, both numbers. Valued by the
    # single safest cell after it, (0, 2) looks best: with (0, 0)'s 1 its number often leaves one cell
    # certainly safe. Valued by the three best living cells (``blend``, in ``full``), one safe cell with
    # blind guesses around it counts for less than the far corner's chance of an opening.
    board = Board.parse("mines: 40\n\n1" + "#" * 14 + "2\n" + ("#" * 16 + "\n") * 15)
    unhurried = "+budget=0"  # the whole comparison, however busy the machine
    plain = solve(board, first_click="safe", strategy=parse_strategy("full-blend" + unhurried)).move
    assert plain == Move("open", (0, 2))
    move = solve(board, first_click="safe", strategy=parse_strategy("full" + unhurried)).move
    assert move is not None and move.cell in {(15, 0), (15, 15)}


def test_outcomes_read_the_revealed_board_as_a_fresh_analysis_would() -> None:
    """The problem after a reveal is updated, not rebuilt (reveal_problem): the analysis must not change."""
    checked = 0
    for analysis in guess_positions("intermediate", range(12)):
        if not analysis.weight:
            continue
        for cell in shortlist(analysis)[:3]:
            for outcome in outcomes(analysis, cell):
                fresh = analyse(reveal(analysis.board, cell, outcome.value), analysis.board.mines)
                after = outcome.after
                assert (after.probabilities, after.safe, after.mines, after.weight) == (
                    fresh.probabilities, fresh.safe, fresh.mines, fresh.weight)
                assert sorted(after.unknown) == sorted(fresh.unknown)
                checked += 1
    assert checked > 50


def test_reveal_problem_finds_the_contradictions_build_problem_finds() -> None:
    board = Board.parse("mines: 2\n\n1##\n###\n")
    problem = analyse(board).problem
    assert problem is not None
    for value in range(9):
        try:
            expected = build_problem(reveal(board, (1, 0), value))
        except ContradictionError:
            with pytest.raises(ContradictionError):
                reveal_problem(problem, board, (1, 0), value)
            continue
        found = reveal_problem(problem, board, (1, 0), value)
        assert set(found.constraints) == set(expected.constraints) and found.unknown == expected.unknown


# from a simulated intermediate game (seed 391): (12, 10) and (15, 7) score within 3% of each other by
# secondary safety; one move further, (15, 7) is worth more although it is the riskier guess now
CLOSE_CALL = """mines: 40

111..1#1........
2#2..11211..111.
2#2....1#1..1#1.
111....11211111.
......1222#1..11
....112##2221.1#
...12#22211#1.11
...1#21111111...
11.11112#1..1121
#1....1#43212#2#
2321..23##3#3242
1##2111#4##22#3#
1333#223###322##
.1#212#3#####1##
.223122#####222#
.1#2#11#########
"""


# from a simulated intermediate game (seed 2901): secondary safety picks the corner (0, 0), but whatever
# it shows, the single safest living cell after it is (7, 13), which is safer now: open that first
DOMINATED = """mines: 40

####1###########
##31112224######
#42......2#3####
##1..111.12#####
221.13#2..1#####
....1##21122####
221.13321#2#####
##1..1#1123#####
221..222.1#4#4#2
..1111#1.113#311
..1#11221..111..
..111.1#1...111.
.111..111...2#2.
.1#1........2#2.
.111111111..111.
....1#11#1......
"""


# from a simulated intermediate game (seed 105): (11, 15) and (12, 11) have the same secondary safety;
# (12, 11) leaves more living safe cells to open on average
TIED = """mines: 40

11.1111#1..1#1..
#1.1#1111..1221.
11.1221...112#1.
111.1#22112#311.
2#1.13#3#23#2...
#21..2#312#21...
11.112111221....
...1#1112#21....
...1111#23#2....
.....12224#3....
111..1#11##42221
1#1..11113######
111..122123#####
122112##23#32###
1##11#322##3####
1221111.1222####
"""


# from a simulated expert game (seed 62034): 560 layouts, too many for the usual endgame search; secondary
# safety picks (2, 28), which wins 38.0% of them; the search over all 560 finds (6, 28), which wins 40.2%
WIDE = """mines: 99

112##1...1#3#1.1#1.111...1#3##
1#222111223#21122112#111113###
221..12#2#32112#212#432#1.2###
#1...1#223#311#4#12##2#21.12##
11...23423##222#32222322..12##
.11113###223#1112#2112#3112###
.1#22###31.111..123#13###1####
1222#3321........1#212#31124##
2#2112221........222.112111##2
3#4222##111211..12#21..1#11221
3#3##34421#2#1112#3#2113431...
#23332##1112123#3122#23###3111
122#1122211..1##31.23#3#5##11#
13#3211.1#1..234#1.1#331223232
#3#21#1.111..1#322123#31..1#4#
1211111......12#11#12##1..12##
"""


def test_a_wider_endgame_search_plays_a_board_with_more_layouts() -> None:
    board = Board.parse(WIDE)
    analysis = analyse(board)
    assert 400 < analysis.weight <= 1000
    assert endgame_move(analysis) is None  # too many layouts for the usual search
    plain = solve(board, strategy=parse_strategy("full-wide-blend+budget=0")).move  # plain secondary safety
    wide = solve(board, strategy=parse_strategy("full+budget=0")).move  # wide is part of full (given time)
    assert plain is not None and wide is not None
    assert (plain.cell, wide.cell) == ((2, 28), (6, 28))
    layouts = list_layouts(analysis, 1000)
    assert layouts is not None and len(layouts) == analysis.weight
    cells = sorted(c for c in analysis.probabilities if c not in set(analysis.mines))
    search = LayoutSearch(cell_splits(analysis, cells, layouts), Budget())
    state = (1 << len(layouts)) - 1
    living = search.living(state, range(len(cells)))

    def wins(cell: Cell) -> float:
        return search.open_wins(cells.index(cell), state, living, -1) / len(layouts)

    assert wins(wide.cell) == pytest.approx(0.4018, abs=1e-4)
    assert wins(plain.cell) == pytest.approx(0.3804, abs=1e-4)
    assert max(wins(cells[i]) for i in living) == pytest.approx(wins(wide.cell))
