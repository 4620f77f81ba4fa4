"""Long-term risk: layouts counted with forced cells, future 50/50 patterns, pseudo 50/50s."""

from __future__ import annotations

import numpy as np

from sweepbot.board import Board, Cell
from sweepbot.solver.analysis import analyse
from sweepbot.solver.guesses import pseudo_fifty, secondary_safety
from sweepbot.solver.longterm import LayoutCounter, long_term_risk
from sweepbot.solver.problem import ContradictionError
from sweepbot.solver.strategy import choose_move, parse_strategy
from tests.brute_force import brute_force_layouts, random_position


def brute_count(board: Board, mines: int, forced: dict[Cell, int]) -> int:
    unknown, layouts = brute_force_layouts(board, mines)
    index = {cell: i for i, cell in enumerate(unknown)}
    keep = np.ones(len(layouts), dtype=bool)
    for cell, value in forced.items():
        keep &= ((layouts >> index[cell]) & 1) == value
    return int(keep.sum())


def test_layouts_with_forced_cells_match_brute_force() -> None:
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 300:
        board, mines = random_position(rng)
        try:
            analysis = analyse(board.with_mines(mines), mines)
        except ContradictionError:
            continue
        if not analysis.weight:
            continue
        counter = LayoutCounter(analysis)
        assert counter.count([], []) == analysis.weight == brute_count(board, mines, {})
        unknown = [cell for cell in board.cells() if board[cell] in "#?"]
        for _ in range(3):
            picked = rng.choice(len(unknown), size=min(len(unknown), int(rng.integers(1, 4))), replace=False)
            forced = {unknown[int(i)]: int(rng.integers(0, 2)) for i in picked}
            got = counter.count([c for c, v in forced.items() if v], [c for c, v in forced.items() if not v])
            assert got == brute_count(board, mines, forced), (board.to_text(), forced)
        checked += 1


# A corner pair (0,0)/(1,0): every other neighbour touches both, and the cells beyond its end, (2,0) and
# (2,1), are flagged. Whenever one of the pair is a mine it is a 50/50 that no number can settle.
CORNER = """mines: 6

#1##########
############
FF##########
3F##########
"""


def test_a_corner_pair_beyond_flags_is_a_pseudo_fifty() -> None:
    analysis = analyse(Board.parse(CORNER))
    risk = long_term_risk(analysis)
    assert risk is not None
    pair = [p for p in risk.patterns if p.cells == ((0, 0), (1, 0))]
    assert pair and pair[0].missing == ()
    # the pattern's layouts are exactly those where (0,0) is the mine: all of its mine layouts
    assert pair[0].weight == LayoutCounter(analysis).count([(0, 0)], [(1, 0)])
    assert abs(pair[0].weight - analysis.probabilities[(0, 0)] * analysis.weight) < 1e-6 * analysis.weight
    assert set(risk.pseudo_fifties()) >= {(0, 0), (1, 0)}
    assert pseudo_fifty(analysis, risk, {}) in {(0, 0), (1, 0)}
    assert risk.factor((0, 0)) > 1.0


def test_the_pseudo_fifty_is_guessed_before_a_safer_cell() -> None:
    analysis = analyse(Board.parse(CORNER))
    safest = min(analysis.probabilities, key=lambda cell: analysis.probabilities[cell])
    assert analysis.probabilities[safest] < analysis.probabilities[(0, 0)]  # a safer cell exists
    move = choose_move(analysis, parse_strategy("full+pseudo"), "opening")
    assert move is not None and move.cell in {(0, 0), (1, 0)}
    without = choose_move(analysis, parse_strategy("full"), "opening")
    assert without is not None and without.cell not in {(0, 0), (1, 0)}


def test_a_pair_with_an_open_end_cell_is_no_pattern() -> None:
    # (2,0) is revealed: it tells (1,0) from (0,0), so the pair can be settled later
    analysis = analyse(Board.parse("mines: 5\n\n#1####\n######\n3F####\n2F####\n"))
    risk = long_term_risk(analysis)
    assert risk is not None
    assert not [p for p in risk.patterns if p.cells == ((0, 0), (1, 0))]


def test_influence_raises_a_guess_score_only_by_the_risk_it_takes_early() -> None:
    analysis = analyse(Board.parse(CORNER))
    risk = long_term_risk(analysis)
    assert risk is not None
    for cell in analysis.probabilities:
        if 0 < analysis.probabilities[cell] < 1:
            mine = analysis.probabilities[cell] * analysis.weight
            assert 0 <= risk.influence(cell) <= min(mine, analysis.weight - mine) + 1e-9
    assert secondary_safety(analysis, {}, avoid_dead=True, risk=risk) is not None
