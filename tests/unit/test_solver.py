"""The solver's answers: certain cells in one go, guesses, first moves, errors, a board too big to count."""

from __future__ import annotations

import pytest

from sweepbot.board import Board
from sweepbot.errors import SweepbotError
from sweepbot.game import LEVELS, Game
from sweepbot.solver import ContradictionError, solve
from sweepbot.solver.strategy import BASIC


def test_every_certain_safe_cell_comes_in_one_answer() -> None:
    # both 1s are satisfied by the flag; with 2 mines in all, the far corner must be the other one
    board = Board.parse("mines: 2\n\nF1#\n1##\n###\n")
    analysis = solve(board)
    assert analysis.safe == [(0, 2), (1, 1), (1, 2), (2, 0), (2, 1)]
    assert analysis.mines == [(2, 2)]
    assert analysis.move is not None and analysis.move.action == "open" and analysis.move.cell == (0, 2)


def test_safe_cells_of_a_real_game_are_never_mines_and_are_all_listed() -> None:
    game = Game(LEVELS["intermediate"], seed=5)
    game.open((3, 3))
    analysis = solve(game.view())
    assert analysis.safe and not set(analysis.safe) & game.mines
    assert set(analysis.mines) <= game.mines
    assert {cell for cell, p in analysis.probabilities.items() if p == 0} == set(analysis.safe)


@pytest.mark.parametrize(
    ("mines", "expected"),
    [
        (5, (0, 1)),  # 1/3 next to the 1 beats 4/11 elsewhere; (0, 1) has fewest covered neighbours
        (2, (0, 4)),  # 1/11 off the frontier beats 1/3; a corner has fewest covered neighbours
    ],
)
def test_guess_is_the_least_likely_mine(mines: int, expected: tuple[int, int]) -> None:
    board = Board.parse(f"mines: {mines}\n\n1####\n#####\n#####\n")
    analysis = solve(board, strategy=BASIC)
    assert not analysis.safe and analysis.move is not None
    lowest = min(analysis.probabilities.values())
    assert analysis.probabilities[analysis.move.cell] == pytest.approx(lowest)
    assert analysis.move.cell == expected


@pytest.mark.parametrize(("rule", "cell"), [("opening", (3, 3)), ("safe", (0, 0)), ("none", (0, 0))])
def test_first_move_suits_the_rule(rule: str, cell: tuple[int, int]) -> None:
    board = Board(("#" * 30,) * 16, 99)
    analysis = solve(board, first_click=rule)
    assert analysis.move is not None and analysis.move.cell == cell
    assert analysis.probabilities[(5, 5)] == pytest.approx(99 / 480)


def test_only_mines_left_gives_a_flag() -> None:
    analysis = solve(Board.parse("mines: 1\n\n#1\n11\n"))
    assert analysis.mines == [(0, 0)] and analysis.move is not None and analysis.move.action == "flag"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mines: 1\n\n2#\n##\n", "no placement"),  # the 2 needs two mines, the total allows one
        ("1.\n..\n", "needs 1 more mines"),
        ("1F\nF.\n", "has 2 flags"),
        ("2#1\n##.\n", "both safe and mines|cannot hold"),  # the 0 clears what the 1 needs
    ],
)
def test_impossible_boards_are_errors(text: str, message: str) -> None:
    with pytest.raises(ContradictionError, match=message):
        solve(Board.parse(text))


def test_finished_game_is_refused() -> None:
    with pytest.raises(SweepbotError, match="finished game"):
        solve(Board.parse("1*\n..\n"))


def test_a_frontier_too_large_to_count_still_gives_a_move() -> None:
    # two rows, 2s on every other cell of the lower one: over 10^9 placements along one chain
    cols = 80
    board = Board(("#" * cols, "".join("2" if c % 2 == 0 else "#" for c in range(cols))))
    analysis = solve(board, work=50_000)
    assert not analysis.exact and analysis.notes
    assert analysis.move is not None and analysis.move.action == "open"
    assert board[analysis.move.cell] == "#"
    assert all(0 <= p <= 1 for p in analysis.probabilities.values())


def test_the_solver_never_reads_the_clock_to_decide() -> None:
    """Its searches stop at budgets of work, not at deadlines: only ``solve`` times itself, to report it."""
    import ast
    from pathlib import Path

    folder = Path(__file__).parents[2] / "sweepbot" / "solver"
    for path in folder.glob("*.py"):
        uses = {f"{node.value.id}.{node.attr}" for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "time"}
        assert uses <= ({"time.perf_counter"} if path.name == "__init__.py" else set()), (path.name, uses)


def test_a_bench_with_a_seed_repeats_game_for_game() -> None:
    from sweepbot.game import parse_level
    from sweepbot.simulate import BenchSettings, play_many

    settings = BenchSettings(parse_level("16x16/45"), seed=21)
    first = [(r.won, r.guesses, r.first) for r in play_many(settings, 12, workers=1)]
    again = [(r.won, r.guesses, r.first) for r in play_many(settings, 12, workers=2)]
    assert first == again and any(won for won, _, _ in first) and not all(won for won, _, _ in first)
