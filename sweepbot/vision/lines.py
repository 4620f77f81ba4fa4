"""Where a located board's cell edges lie, from the positions and sizes of the flat patches in each row or
column: straight lines through their centres (a pixel off where a client lays columns out unevenly), or,
where cells of one kind differ in width from column to column (a column that widens when a digit shows in
it), the middle of the gaps between their faces."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from sweepbot.vision.lattice import NARROWER

#: Faces of one kind whose widths (heights) differ by this many pixels between columns (rows) mean columns
#: (rows) of different sizes: the edges follow the gaps between faces instead of a line through centres.
UNEVEN_SIZE = 3


def centres(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """The median position of each row/column, filled in by a straight-line fit where none is known."""
    known = medians(index, values, count)
    have = ~np.isnan(known)
    ks = np.arange(count)
    if have.sum() >= 2:
        slope, icept = np.polyfit(ks[have], known[have], 1)
        known[~have] = icept + slope * ks[~have]
        # a median far off the line (a stray patch) gives way to the line
        off = np.abs(known - (icept + slope * ks)) > 0.25 * slope
        known[off] = icept + slope * ks[off]
    return known


def uneven(fitted: np.ndarray, index: np.ndarray, values: np.ndarray, same: np.ndarray) -> np.ndarray:
    """The ``fitted`` line moved, row by row or column by column, to where that line's own patches sit when
    it is a pixel or more off somewhere; within a pixel everywhere, the line stands.

    A line's place is the median of its patches of the common kind (``same``); a line with none (a row of
    the web page, drawn 2 px shorter once no covered cell is left in it) takes the median of its other
    patches, less how far such patches sit from the common kind's in the lines that hold both; a line with
    no patch at all keeps its offset from ``fitted`` that its neighbours have. gnome-mines lays a 30-column
    board out as 21 columns 30 px wide and 9 of 29 px: a straight line is up to 4 px off in the middle.
    Lines whose steps would not fit one board (a step far from the others) give way to the line."""
    count = len(fitted)
    if count < 2:
        return fitted
    step = float(np.median(np.diff(fitted)))
    sits = medians(index[same], values[same], count)
    others = ~same & ~np.isnan(sits)[index]
    if others.any() and np.isnan(sits).any():
        offset = float(np.median(values[others] - sits[index[others]]))
        theirs = medians(index[~same], values[~same] - offset, count)
        sits = np.where(np.isnan(sits), theirs, sits)
    have = ~np.isnan(sits)
    if not have.any():
        return fitted
    ks = np.arange(count)
    placed = fitted + np.interp(ks, ks[have], (sits - fitted)[have])
    if float(np.abs(placed - fitted).max()) < 1.0:
        return fitted
    steps = np.diff(placed)
    if float(steps.min()) < NARROWER * step or float(steps.max()) > step / NARROWER:
        return fitted
    return placed


def kind_edges(index: np.ndarray, centre: np.ndarray, size: np.ndarray, across: np.ndarray, same: np.ndarray,
               middles: np.ndarray, pitch: float) -> tuple[int, ...] | None:
    """Edges from where each line's patches begin and end, when some line holds no patch of the common kind
    (``same``); None when every line does, or the edges would not fit the board.

    Faces of the common kind lie in the middle of their cells: an edge halves the gap between two such
    faces. Every other kind of patch (told by its size ``across`` this axis) lies as far inside its cell on
    every line, as learnt on the lines that hold both kinds. A row drawn shorter than the rest (the web
    page's opened rows) then has both its edges where its own patches put them, not halfway to its
    neighbours' centres, which would put an edge a pixel off on either side of it."""
    count = len(middles)
    held = np.zeros(count, bool)
    held[index[same]] = True
    if held.all() or not held.any() or count < 2:
        return None
    low, high = centre - (size - 1) / 2, centre + (size - 1) / 2
    lows, highs = medians(index[same], low[same], count), medians(index[same], high[same], count)
    pairs = held[:-1] & held[1:]
    gap = (float(np.median(lows[1:][pairs] - highs[:-1][pairs] - 1)) if pairs.any()
           else pitch - float(np.median(size[same])))
    # each line's first pixel, and the next line's, as halfway between centres puts them on an even board
    tops, bottoms = lows - gap / 2 - 0.5, highs + gap / 2 + 0.5
    first, last = tops.copy(), bottoms.copy()
    kind = np.round(across).astype(int)
    lone = ~held[index]
    for k in np.unique(kind[lone]):
        # the common kind too: a face of it that changed size along this axis is no longer ``same``
        sure = (np.abs(kind - k) <= 1) & held[index]
        mine = lone & (kind == k)
        if not sure.any():
            continue
        into = float(np.median(low[sure] - tops[index[sure]]))
        short = float(np.median(bottoms[index[sure]] - high[sure]))
        got_top = medians(index[mine], low[mine] - into, count)
        got_bottom = medians(index[mine], high[mine] + short, count)
        fill = ~held & np.isnan(first)
        first[fill], last[fill] = got_top[fill], got_bottom[fill]
    if np.isnan(first).any():
        return None
    bounds = np.concatenate([[first[0]], (last[:-1] + first[1:]) / 2, [last[-1]]])
    out = tuple(int(np.floor(b + 0.5)) for b in bounds)
    mids = edges(middles, pitch)
    if any(b <= a for a, b in pairwise(out)) or max(
            abs(a - b) for a, b in zip(out, mids, strict=True)) > pitch / 4:
        return None
    return out


def medians(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """The median of ``values`` for each row/column number 0..count-1 in ``index``; nan where it has none."""
    return np.array([float(np.median(values[index == k])) if (index == k).any() else np.nan
                     for k in range(count)])


def line(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """Positions ``a + b * k`` fitted through the patches; a step within 0.06 px of a whole number is one
    (most clients draw on whole pixels; a fit over a few columns is rarely that exact)."""
    step, start = np.polyfit(index, values, 1)
    if abs(step - round(step)) <= 0.06:
        step = float(round(step))
        start = float(np.median(values - step * index))
    return start + step * np.arange(count)


def edges(middles: np.ndarray, pitch: float) -> tuple[int, ...]:
    """Edges halfway between cell centres, and half a pitch beyond the outer ones."""
    bounds = np.concatenate([[middles[0] - pitch / 2], (middles[:-1] + middles[1:]) / 2, [middles[-1] + pitch / 2]])
    return tuple(int(np.floor(b + 0.5)) for b in bounds)


def face_edges(index: np.ndarray, centre: np.ndarray, size: np.ndarray, other: np.ndarray,
               count: int) -> tuple[int, ...] | None:
    """Edges halfway across the gaps between faces, when faces of the most common kind (told by their size
    ``other`` across this axis) differ in ``size`` by UNEVEN_SIZE or more between columns; None when they do
    not, or when a column has no such face or the faces overlap."""
    kind = np.round(other)
    values, counts = np.unique(kind, return_counts=True)
    same = np.abs(kind - values[int(np.argmax(counts))]) <= 1
    if count < 2 or not same.any():
        return None
    lows = medians(index[same], (centre - (size - 1) / 2)[same], count)
    highs = medians(index[same], (centre + (size - 1) / 2)[same], count)
    if np.isnan(lows).any():
        return None
    sizes = highs - lows
    if float(sizes.max() - sizes.min()) < UNEVEN_SIZE:
        return None
    gaps = lows[1:] - highs[:-1] - 1
    if (gaps < 0).any():
        return None
    gap = float(np.median(gaps))
    bounds = np.concatenate([[lows[0] - gap / 2], (highs[:-1] + lows[1:] + 1) / 2, [highs[-1] + 1 + gap / 2]])
    return tuple(int(np.floor(b + 0.5)) for b in bounds)


def stepped_edges(index: np.ndarray, values: np.ndarray, fitted: np.ndarray) -> tuple[int, ...] | None:
    """Edges halfway between each column's (row's) own centre, the median of its patches, when the fitted
    line is more than a quarter of a step off somewhere (columns of two widths with no face of one kind in
    every column: the line through one kind runs off the others); None when it is not, or a column has no
    patch, or the centres do not increase."""
    sits = medians(index, values, len(fitted))
    if len(sits) < 2 or np.isnan(sits).any():
        return None
    steps = np.diff(sits)
    if (steps <= 0).any() or float(np.abs(sits - fitted).max()) <= 0.25 * float(np.median(steps)):
        return None
    bounds = np.concatenate([[sits[0] - steps[0] / 2], (sits[:-1] + sits[1:]) / 2, [sits[-1] + steps[-1] / 2]])
    return tuple(int(np.floor(b + 0.5)) for b in bounds)
