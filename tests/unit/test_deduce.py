"""Worked cases of the local deductions: single numbers, subsets, intersections, derived groups."""

from __future__ import annotations

import pytest

from sweepbot.board import Board, Cell
from sweepbot.solver.deduce import deduce
from sweepbot.solver.problem import Constraint, ContradictionError, build_problem


def group(cells: str, mines: int) -> Constraint:
    """Cells named by letters on row 0: 'abc' is (0,0), (0,1), (0,2)."""
    return Constraint(frozenset(cell(ch) for ch in cells), mines, (9, 9))


def cell(ch: str) -> Cell:
    return (0, ord(ch) - ord("a"))


def cells(names: str) -> set[Cell]:
    return {cell(ch) for ch in names}


def test_single_number_with_its_mines_flagged_clears_the_rest() -> None:
    board = Board.parse("1F#\n###\n")
    safe, mines = deduce(build_problem(board).constraints)
    assert safe == {(1, 0), (1, 1)} and mines == set()


def test_single_number_equal_to_its_covered_cells_marks_them_all() -> None:
    board = Board.parse("#2#\n")
    safe, mines = deduce(build_problem(board).constraints)
    assert mines == {(0, 0), (0, 2)} and safe == set()


@pytest.mark.parametrize(("outer", "expect_safe", "expect_mines"), [(1, "c", ""), (2, "", "c")])
def test_subset(outer: int, expect_safe: str, expect_mines: str) -> None:
    safe, mines = deduce([group("ab", 1), group("abc", outer)])
    assert safe == cells(expect_safe) and mines == cells(expect_mines)


def test_intersection_one_two_pattern() -> None:
    # {a,b,c} holds 2 and {b,c,d} holds 1: b,c hold at most 1, so a is a mine and d is safe
    safe, mines = deduce([group("abc", 2), group("bcd", 1)])
    assert mines == cells("a") and safe == cells("d")


def test_intersection_that_decides_the_shared_cells() -> None:
    # {a,b} holds 1, {b,c} holds 1, {a,b,c} holds 2: a and c are mines, b is safe
    safe, mines = deduce([group("ab", 1), group("bc", 1), group("abc", 2)])
    assert mines == cells("ac") and safe == cells("b")


def test_derived_group_decides_a_third_number() -> None:
    # {a,b,c,d} less {a,b} leaves {c,d} with 1 mine, which fills {c,d,e}: e is safe
    safe, mines = deduce([group("ab", 1), group("abcd", 2), group("cde", 1)])
    assert safe == cells("e") and mines == set()


def test_one_two_one_on_a_real_board() -> None:
    board = Board.parse("###\n121\n...\n")
    safe, mines = deduce(build_problem(board).constraints)
    assert mines == {(0, 0), (0, 2)} and safe == {(0, 1)}


def test_no_deduction_when_nothing_is_certain() -> None:
    assert deduce([group("ab", 1)]) == (set(), set())


def test_contradicting_groups_are_an_error() -> None:
    with pytest.raises(ContradictionError):
        deduce([group("ab", 2), group("abc", 1)])
    with pytest.raises(ContradictionError):
        build_problem(Board.parse("1.\n..\n"))
