"""From a Board to the solver's problem: unknown cells, flags and one constraint per useful number."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sweepbot.board import (
    EXPLODED,
    FLAG,
    MINE,
    UNKNOWN_CHARS,
    WRONG_FLAG,
    Board,
    Cell,
    count_value,
    neighbours,
)
from sweepbot.errors import SweepbotError


class ContradictionError(SweepbotError):
    """The board has no consistent mine placement: the read or the mine count is wrong."""


@dataclass(frozen=True)
class Constraint:
    """``mines`` of the unknown ``cells`` are mines (the number at ``source`` less its flags)."""

    cells: frozenset[Cell]
    mines: int
    source: Cell


@dataclass(frozen=True)
class Problem:
    rows: int
    cols: int
    unknown: tuple[Cell, ...]
    flags: int
    constraints: tuple[Constraint, ...]
    total_mines: int | None

    @property
    def mines_left(self) -> int | None:
        return None if self.total_mines is None else self.total_mines - self.flags


@lru_cache(maxsize=8)
def around(rows: int, cols: int) -> tuple[tuple[Cell, ...], ...]:
    """Every cell's neighbours, row by row, in the order :func:`~sweepbot.board.neighbours` gives them."""
    return tuple(tuple(neighbours((r, c), rows, cols)) for r in range(rows) for c in range(cols))


def number_constraint(board: Board, cell: Cell, value: int) -> Constraint | None:
    """The constraint the number ``value`` at ``cell`` puts on its unknown neighbours (flags count as
    mines), or None when it has none. Raises ContradictionError when the flags or the room cannot fit."""
    around_unknown: list[Cell] = []
    around_flags = 0
    grid = board.grid  # indexed directly: this runs for every number of every board the solver looks at
    for n in around(board.rows, board.cols)[cell[0] * board.cols + cell[1]]:
        ch = grid[n[0]][n[1]]
        if ch in UNKNOWN_CHARS:
            around_unknown.append(n)
        elif ch == FLAG:
            around_flags += 1
    need = value - around_flags
    if need < 0:
        raise ContradictionError(f"the {value} at {cell} has {around_flags} flags around it")
    if need > len(around_unknown):
        raise ContradictionError(
            f"the {value} at {cell} needs {need} more mines but has {len(around_unknown)} covered neighbours")
    return Constraint(frozenset(around_unknown), need, cell) if around_unknown else None


def build_problem(board: Board, mines: int | None = None) -> Problem:
    """Constraints from every number next to an unknown cell; flags count as mines.

    Raises ContradictionError when a number has more flags around it than it shows, or fewer unknown
    neighbours than the mines it still needs, or when the flags outnumber the mines.
    """
    total = board.mines if mines is None else mines
    if board.count(MINE + EXPLODED + WRONG_FLAG):
        raise SweepbotError("the board shows a finished game (mines are visible): nothing to solve")
    grid, rows, cols = board.grid, board.rows, board.cols
    unknown: list[Cell] = []
    flags = 0
    constraints: list[Constraint] = []
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch in UNKNOWN_CHARS:
                unknown.append((r, c))
                continue
            if ch == FLAG:
                flags += 1
                continue
            value = count_value(ch)
            if value is None:
                continue
            con = number_constraint(board, (r, c), value)
            if con is not None:
                constraints.append(con)
    if total is not None and flags > total:
        raise ContradictionError(f"{flags} flags but only {total} mines")
    if total is not None and total - flags > len(unknown):
        raise ContradictionError(f"{total - flags} mines left but only {len(unknown)} covered cells")
    return Problem(rows, cols, tuple(unknown), flags, tuple(constraints), total)


def reveal_problem(problem: Problem, board: Board, cell: Cell, value: int) -> Problem:
    """The problem of ``board`` (whose problem is ``problem``) once the covered ``cell`` shows ``value``,
    without reading the whole board again: ``cell`` leaves the unknown cells and every constraint, and
    its own number joins them. The same as :func:`build_problem` on the revealed board, constraints
    aside from their order. Raises ContradictionError as build_problem does."""
    rows, cols = problem.rows, problem.cols
    constraints: list[Constraint] = []
    for con in problem.constraints:
        if cell in con.cells:
            rest = con.cells - {cell}
            if not rest:
                if con.mines:
                    raise ContradictionError(f"the number at {con.source} needs a mine at {cell}")
                continue
            if con.mines > len(rest):
                raise ContradictionError(
                    f"the number at {con.source} needs {con.mines} more mines but has {len(rest)} covered "
                    "neighbours")
            con = Constraint(rest, con.mines, con.source)
        constraints.append(con)
    own = number_constraint(board, cell, value)
    if own is not None:
        constraints.append(own)
    unknown = tuple(c for c in problem.unknown if c != cell)
    total = problem.total_mines
    if total is not None and total - problem.flags > len(unknown):
        raise ContradictionError(f"{total - problem.flags} mines left but only {len(unknown)} covered cells")
    return Problem(rows, cols, unknown, problem.flags, tuple(constraints), total)
