"""The solver's probabilities equal a brute-force count of every mine placement."""

from __future__ import annotations

import numpy as np
import pytest

from sweepbot.board import Board
from sweepbot.solver import ContradictionError, solve
from tests.brute_force import brute_force_probabilities, random_position

POSITIONS = 1200


def test_probabilities_match_brute_force_on_random_positions() -> None:
    rng = np.random.default_rng(20261122)
    checked = off_frontier = with_flags = 0
    for _ in range(POSITIONS):
        board, mines = random_position(rng)
        expected = brute_force_probabilities(board, mines)
        assert expected is not None  # a true layout exists behind every position
        analysis = solve(board)
        assert analysis.exact
        for cell, p in expected.items():
            assert analysis.probabilities[cell] == pytest.approx(p, abs=1e-9), (board.to_text(), cell)
        assert set(analysis.safe) == {cell for cell, p in expected.items() if p == 0}
        assert set(analysis.mines) == {cell for cell, p in expected.items() if p == 1}
        checked += 1
        off_frontier += any(
            all(board[n] not in ".12345678" for n in board.neighbours(cell)) for cell in expected
        )
        with_flags += board.flags > 0
    assert checked == POSITIONS
    assert off_frontier > POSITIONS // 4 and with_flags > POSITIONS // 4


def test_impossible_mine_counts_are_errors_not_guesses() -> None:
    rng = np.random.default_rng(7)
    refused = 0
    for _ in range(300):
        board, mines = random_position(rng)
        for wrong in (mines - 1, mines + 1):
            if not 0 <= wrong <= board.rows * board.cols:
                continue
            if brute_force_probabilities(board, wrong) is None:
                with pytest.raises(ContradictionError):
                    solve(board, mines=wrong)
                refused += 1
    assert refused > 50


def test_unknown_total_weighs_off_frontier_at_one_fifth() -> None:
    board = Board.parse("1##\n###\n###\n")
    analysis = solve(board)
    assert analysis.probabilities[(2, 2)] == pytest.approx(1 / 5)
    # frontier solutions weighed at odds 1:4 per mine: one mine among three cells beats none
    assert analysis.probabilities[(0, 1)] == pytest.approx(1 / 3)
