"""A brute-force reference: mine probabilities by trying every placement of the remaining mines."""

from __future__ import annotations

import numpy as np

from sweepbot.board import FLAG, UNKNOWN_CHARS, Board, Cell, count_value, neighbours

_POPCOUNT = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int8)


def brute_force_layouts(board: Board, mines: int) -> tuple[list[Cell], np.ndarray]:
    """The unknown cells and every layout (a bit mask over them) with ``mines`` mines that fits every
    number (flags are mines). Only for up to 16 unknown cells."""
    unknown = [cell for cell in board.cells() if board[cell] in UNKNOWN_CHARS]
    n = len(unknown)
    assert n <= 16, "too many unknown cells for brute force"
    index = {cell: i for i, cell in enumerate(unknown)}
    masks = np.arange(1 << n, dtype=np.int64)
    ok = _POPCOUNT[masks] == mines - board.flags
    for cell in board.cells():
        value = count_value(board[cell])
        if value is None:
            continue
        bits = 0
        flags = 0
        for nb in board.neighbours(cell):
            if nb in index:
                bits |= 1 << index[nb]
            elif board[nb] == FLAG:
                flags += 1
        ok &= _POPCOUNT[masks & bits] == value - flags
    return unknown, masks[ok]


def brute_force_probabilities(board: Board, mines: int) -> dict[Cell, float] | None:
    """Probability that each unknown cell is a mine, counting every layout that fits (see
    :func:`brute_force_layouts`); None when no layout fits."""
    unknown, layouts = brute_force_layouts(board, mines)
    if len(layouts) == 0:
        return None
    return {cell: float(((layouts >> i) & 1).sum()) / len(layouts) for i, cell in enumerate(unknown)}


def random_position(rng: np.random.Generator) -> tuple[Board, int]:
    """A random small board with a true layout behind it: some safe cells revealed, some mines flagged,
    some covered cells shown as question marks; at most 16 cells left unknown."""
    while True:
        rows, cols = int(rng.integers(2, 7)), int(rng.integers(2, 7))
        cells = rows * cols
        mines = int(rng.integers(1, max(2, cells // 2)))
        layout = set(map(int, rng.choice(cells, size=mines, replace=False)))
        grid = []
        for r in range(rows):
            row = ""
            for c in range(cols):
                i = r * cols + c
                if i in layout:
                    row += FLAG if rng.random() < 0.15 else "#"
                    continue
                roll = rng.random()
                if roll < 0.55:
                    count = sum(1 for nr, nc in neighbours((r, c), rows, cols) if nr * cols + nc in layout)
                    row += "." if count == 0 else str(count)
                else:
                    row += "?" if roll > 0.95 else "#"
            grid.append(row)
        board = Board(tuple(grid), mines)
        if 0 < board.count(UNKNOWN_CHARS) <= 16:
            return board, mines
