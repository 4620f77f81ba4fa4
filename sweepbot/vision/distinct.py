"""Rows of an array grouped by identity: a board's many cells drawn alike pixel for pixel (covered tiles,
empty cells) are compared with the templates once."""

from __future__ import annotations

import numpy as np


def distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)``: the index of the first row of each distinct row, in the order they first come,
    and for every row the number of its distinct row (``rows[first][inverse]`` equals ``rows``)."""
    seen: dict[bytes, int] = {}
    inverse = np.empty(len(rows), np.intp)
    first: list[int] = []
    flat = np.ascontiguousarray(rows.reshape(len(rows), -1))
    for i, row in enumerate(flat):
        k = seen.setdefault(row.tobytes(), len(first))
        if k == len(first):
            first.append(i)
        inverse[i] = k
    return np.array(first, np.intp), inverse
