"""Board-level checks of a read (vision.decide)."""

from __future__ import annotations

import numpy as np

from sweepbot.vision.decide import zeros_beside_covered


def cells(*rows: str) -> list[tuple[int, int]]:
    mask = zeros_beside_covered(np.array([list(row) for row in rows]))
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


def test_an_empty_cell_beside_a_covered_tile_is_one_no_client_leaves() -> None:
    # an empty cell's every neighbour is opened by the client: a covered tile beside one (corners too) is not
    assert cells("#.1", "111") == [(0, 1)]
    assert cells(".1#", "11#") == []
    assert cells("..", ".#") == [(0, 0), (0, 1), (1, 0)]
    assert cells("#..", "...", "..#") == [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
    # a flag or a question mark beside one may be (the opening passes over marked tiles)
    assert cells(".F", "?1") == []


def test_only_the_cells_named_count_as_empty_or_covered_beside_each_other() -> None:
    board = np.array([list("#.."), list("..."), list("..#")])
    named = np.array([[False, True, True], [True, True, True], [True, True, False]])
    # the covered tiles unnamed (refused): no empty cell lies beside a covered tile
    assert not zeros_beside_covered(board, named).any()
    # an empty cell unnamed is not one either
    named = np.ones((3, 3), bool)
    named[1, 1] = False
    assert [(int(r), int(c)) for r, c in zip(*np.nonzero(zeros_beside_covered(board, named)), strict=True)] == \
        [(0, 1), (1, 0), (1, 2), (2, 1)]
