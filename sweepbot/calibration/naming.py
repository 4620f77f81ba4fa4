"""Naming tile looks by what the game proves, not by how they look.

Input: each frame as a grid of look ids (:mod:`sweepbot.calibration.looks`), and optionally facts the
calibration saw happen (the cell it right-clicked became a flag, the cell it clicked last exploded). The
steps, in order:

1. covered: the look every cell has when a game starts (a fact in a live calibration);
2. mines: the smallest set of looks that, taken as mines, makes every revealed cell with no covered
   neighbour show one and the same count per look (at a loss every mine is shown; at a win every mine is
   flagged, and a number's mines are then all in sight);
3. numbers: each such look's count is its number (0 is the empty cell);
4. marks: a mine look seen while other mines were still hidden is a flag; one seen once in every frame that
   shows a loss is the exploded mine; one seen many at a time, only when all mines are shown, a mine;
5. bounds: a look not yet named that can only be one number (no more than the covered cells and mines
   around any of its cells, and every smaller number already has a look) is that number.

What none of the steps proves stays unnamed: it is never guessed (see :mod:`sweepbot.calibration.hints`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from sweepbot.calibration.looks import Looks
from sweepbot.errors import SweepbotError

MARKS = "F!*"
#: The most looks taken as mines (mine, exploded, flag, each perhaps drawn a few ways).
MAX_MINE_LOOKS = 12
#: A number look's counts must agree this often (a flag placed wrongly during play spoils a few).
AGREEMENT = 0.9
#: Two looks closer than this (RMS) may be one tile drawn a little differently: the bounds step leaves them.
VARIANT_RMS = 30.0


class CalibrationError(SweepbotError):
    """The frames do not let a profile be made."""


@dataclass(frozen=True)
class Fact:
    """Something the calibration saw happen: in frame ``frame``, cell (row, col) is ``char``."""

    frame: int
    row: int
    col: int
    char: str


@dataclass(frozen=True)
class Name:
    char: str
    reason: str
    proved: bool = True  # False: a hint, used only once the user confirms it


Naming = dict[int, Name]


def neighbour_count(mask: np.ndarray) -> np.ndarray:
    """For each cell, how many of its (up to 8) neighbours are set in ``mask``."""
    p = np.pad(mask.astype(np.int16), 1)
    rows, cols = mask.shape
    total = sum(p[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
                for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    return np.asarray(total)


def name_looks(looks: Looks, facts: Sequence[Fact] = (), min_cells: int = 3, with_hints: bool = True) -> Naming:
    """Name every look the frames prove; see the module's steps. With ``with_hints``, looks the frames do not
    prove get a hint (``proved=False``): used only if the user confirms them."""
    grids = looks.grids
    names: Naming = {}
    from_facts(grids, facts, names)
    if not any(n.char == "#" for n in names.values()):
        covered(grids, names)
    # first from cells with no covered neighbour; then again with the frames that turn out to show every mine
    complete: set[int] = set()
    for _ in range(3):
        mines = mine_looks(grids, names, looks.count, complete)
        trial = dict(names)
        numbers(grids, trial, mines, looks.count, complete, min_cells)
        found = complete_frames(grids, trial, mines)
        if found == complete:
            break
        complete = found
    numbers(grids, names, mines, looks.count, complete, min_cells)
    distinct_numbers(looks, names)
    marks(grids, names, mines, complete)
    if with_hints:
        hints(looks, names, complete)
    return names


def from_facts(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming) -> None:
    for f in facts:
        look = int(grids[f.frame][f.row, f.col])
        known = names.get(look)
        if known is not None and known.char != f.char:
            raise CalibrationError(
                f"one look was seen as both {known.char!r} and {f.char!r} (frame {f.frame}, cell {f.row},{f.col}): "
                "the board moved or changed while calibrating"
            )
        names[look] = Name(f.char, _FACT_REASONS.get(f.char, "seen in play"))


_FACT_REASONS = {
    "#": "every cell before the first click",
    "F": "a right-clicked cell turned into it",
    "?": "a second right-click turned the flag into it",
    "!": "the cell clicked last when the game was lost",
    "*": "appeared on covered cells when the game was lost",
    "X": "a flagged cell that was not a mine, after the loss",
}


def covered(grids: Sequence[np.ndarray], names: Naming) -> None:
    """The look that fills the most of a single frame: a new board is all covered (some clients open a few
    cells by themselves)."""
    best = (0.0, -1)
    for grid in grids:
        ids, counts = np.unique(grid, return_counts=True)
        share = float(counts.max()) / grid.size
        best = max(best, (share, int(ids[counts.argmax()])))
    if best[0] < 0.5:
        raise CalibrationError("no frame shows a new board (one look on most cells): start from a new game")
    names[best[1]] = Name("#", f"fills {best[0]:.0%} of a frame, as a new board does")


def _unknown(names: Naming) -> set[int]:
    """Looks that may hide a mine: covered and question marks."""
    return {k for k, n in names.items() if n.char in "#?"}


def _exact_counts(
    grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int] = frozenset()  # type: ignore[assignment]
) -> dict[int, np.ndarray]:
    """For each look, over its cells whose mines are all in sight: how many neighbours have each look
    (an n_looks x cells matrix). A cell's mines are in sight when it has no covered neighbour, or, in a
    frame shown at a loss (``complete``), always: there every mine is shown and covered cells are not mines."""
    unknown = sorted(_unknown(names))
    per_look: dict[int, list[np.ndarray]] = {}
    for i, grid in enumerate(grids):
        hidden = neighbour_count(np.isin(grid, unknown)) if unknown and i not in complete else np.zeros(grid.shape)
        exact = (hidden == 0) & ~np.isin(grid, unknown)
        if not exact.any():
            continue
        counts = np.stack([neighbour_count(grid == k) for k in range(n_looks)])  # L x rows x cols
        for look in np.unique(grid[exact]):
            where = exact & (grid == look)
            per_look.setdefault(int(look), []).append(counts[:, where])
    return {k: np.concatenate(v, axis=1) for k, v in per_look.items()}


def complete_frames(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int]) -> set[int]:
    """Frames that show every mine (a loss in a client that shows them all): every number already named
    counts its mines there with covered cells taken as no mines, and some of them have covered neighbours."""
    unknown = sorted(_unknown(names))
    numbers = {k: int(n.char) if n.char != "." else 0 for k, n in names.items() if n.char in ".12345678"}
    out: set[int] = set()
    for i, grid in enumerate(grids):
        if not np.isin(grid, list(mines)).any() or not numbers:
            continue
        count = neighbour_count(np.isin(grid, list(mines)))
        hidden = neighbour_count(np.isin(grid, unknown))
        tested = np.isin(grid, list(numbers))
        want = np.vectorize(lambda k: numbers.get(int(k), -1))(grid)
        if (hidden[tested] > 0).any() and (count[tested] == want[tested]).mean() >= AGREEMENT:
            out.add(i)
    return out


def _agreement(values: np.ndarray) -> tuple[int, int, int]:
    """(most common value, how many agree, how many differ)."""
    counts = np.bincount(values)
    top = int(counts.argmax())
    return top, int(counts[top]), int(len(values) - counts[top])


def _touching(grids: Sequence[np.ndarray], names: Naming) -> set[int]:
    """Looks with a cell next to a covered cell: never the empty cell (a client opens all around a 0)."""
    unknown = sorted(_unknown(names))
    out: set[int] = set()
    for grid in grids:
        if unknown:
            out |= {int(k) for k in np.unique(grid[neighbour_count(np.isin(grid, unknown)) > 0])}
    return out


def _score(exact: dict[int, np.ndarray], chosen: Sequence[int], fixed: set[int], touching: set[int]) -> int:
    idx = list(chosen)
    total = 0
    for look, matrix in exact.items():
        # every look is scored, also those taken as mines: taking a look as a mine must help the counts around
        # it, not merely hide its own disagreeing counts
        if look in fixed:
            continue
        value, agree, differ = _agreement(matrix[idx].sum(axis=0) if idx else np.zeros(matrix.shape[1], int))
        if value > 8 or (value == 0 and look in touching):
            total -= 3 * (agree + differ)
        else:
            total += agree - 3 * differ
    return total


def _next_to_empty(grids: Sequence[np.ndarray], touching: set[int], n_looks: int) -> set[int]:
    """Looks seen next to the empty cell: revealed cells, never mines. The empty cell is the commonest look
    that is never next to a covered cell (a client opens every cell around a 0)."""
    counts = np.bincount(np.concatenate([g.ravel() for g in grids]), minlength=n_looks)
    never = [k for k in range(n_looks) if k not in touching and counts[k] > 0]
    if not never:
        return set()
    empty = max(never, key=lambda k: counts[k])
    out: set[int] = {empty}
    for grid in grids:
        near = neighbour_count(grid == empty) > 0
        out |= {int(k) for k in np.unique(grid[near])}
    return out


def mine_looks(grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int]) -> list[int]:
    """The looks that stand for mines (mine, exploded, flag): the smallest set that makes the counts around
    fully revealed cells agree best; a look is kept only if the counts need it."""
    exact = _exact_counts(grids, names, n_looks, complete)
    touching = _touching(grids, names)
    given = [k for k, n in names.items() if n.char in MARKS]
    fixed = set(names)
    revealed = _next_to_empty(grids, touching, n_looks)
    free = [k for k in range(n_looks) if k not in fixed and k not in revealed]
    chosen = list(given)
    current = _score(exact, chosen, fixed, touching)
    while len(chosen) < MAX_MINE_LOOKS + len(given):
        # add the look that helps the counts most (a mine drawn a few ways is several looks), while one helps
        trials = [(_score(exact, [*chosen, k], fixed, touching), k) for k in free if k not in chosen]
        if not trials or max(trials)[0] <= current:
            break
        current, k = max(trials)
        chosen.append(k)
    for look in list(chosen):
        if look in given:
            continue
        rest = [k for k in chosen if k != look]
        if _score(exact, rest, fixed, touching) >= _score(exact, chosen, fixed, touching):
            chosen = rest  # the counts do not need it: not proved a mine
    return chosen


def numbers(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], n_looks: int,
            complete: set[int], min_cells: int = 2) -> None:
    exact = _exact_counts(grids, names, n_looks, complete)
    touching = _touching(grids, names)
    for look, matrix in exact.items():
        if look in names or look in mines:
            continue
        value, agree, differ = _agreement(matrix[list(mines)].sum(axis=0) if mines else np.zeros(matrix.shape[1], int))
        if value == 0 and look in touching:
            continue
        if value <= 8 and agree >= min_cells and agree >= AGREEMENT * (agree + differ):
            char = "." if value == 0 else str(value)
            names[look] = Name(char, f"{agree} of its {agree + differ} cells with no covered neighbour have "
                                     f"{value} mine(s) around them")


def distinct_numbers(looks: Looks, names: Naming) -> None:
    """Two looks that are plainly different tiles cannot both be the same number: the one with fewer cells is
    something else (a question mark counted by chance), unless both have many."""
    for a, b in combinations(sorted(names), 2):
        na, nb = names.get(a), names.get(b)
        if na is None or nb is None or na.char != nb.char or na.char not in ".12345678":
            continue
        if looks.distance(a, b) < VARIANT_RMS:
            continue
        small, _ = sorted((a, b), key=lambda k: looks.counts[k])
        if looks.counts[small] < 3:
            del names[small]


def marks(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], complete: set[int]) -> None:
    """Tell the mine looks apart by the frames they appear in; what the frames do not settle stays unnamed."""
    open_ = [k for k in mines if k not in names]
    present = [{int(k): int(n) for k, n in zip(*np.unique(g, return_counts=True), strict=True)} for g in grids]
    mine_set = set(mines)
    once = {k for k in open_ if max(p.get(k, 0) for p in present) == 1}
    for k in open_:
        frames = [i for i, p in enumerate(present) if k in p]
        alone = any(not (mine_set - {k}) & set(present[i]) for i in frames)
        if alone and any(i not in complete for i in frames) and (k not in once or len(once) > 1):
            names[k] = Name("F", "a mine look seen with no other, while mines were still hidden: a flag")
        elif k in once and len(frames) >= 2:
            names[k] = Name("!", "a mine look never more than once in a frame: the mine that was clicked")
        elif k not in once:
            names[k] = Name("*", "a mine look seen many at a time, with the exploded one: the mines shown at a loss")


def bounds(looks: Looks, names: Naming) -> None:
    """Name a look that can only be one number: every value up to the most it could be is taken."""
    changed = True
    while changed:
        changed = False
        taken = {n.char for n in names.values()}
        non_mine = [k for k, n in names.items() if n.char in ".12345678X"]
        for k in range(looks.count):
            if k in names or any(looks.distance(k, j) < VARIANT_RMS for j, n in names.items()
                                 if n.char in ".12345678"):
                continue
            most = 8
            for grid in looks.grids:
                where = grid == k
                if where.any():
                    # a mine can only be on a neighbour that shows no number
                    maybe = neighbour_count(~np.isin(grid, non_mine))
                    most = min(most, int(maybe[where].min()))
            free = [v for v in range(most + 1) if ("." if v == 0 else str(v)) not in taken]
            if len(free) == 1 and most > 0:
                v = free[0]
                names[k] = Name("." if v == 0 else str(v),
                                f"at most {most} mine(s) around one of its cells, and every smaller number has "
                                "its own look")
                changed = True
                break


def hints(looks: Looks, names: Naming, complete: set[int]) -> None:
    """A likely name for each look no step proved, to show the user once: a number counted from one or two
    cells at a loss, a wrong flag (seen only after a loss), a question mark (looks most like a flag)."""
    grids = looks.grids
    mines = [k for k, n in names.items() if n.char in "*!F" and n.proved]
    lost = {i for i, g in enumerate(grids) if any(names.get(int(k), Name("", "")).char in "*!" for k in np.unique(g))}
    shown = {i for i, g in enumerate(grids) if any(names.get(int(k), Name("", "")).char == "*" for k in np.unique(g))}
    exact = _exact_counts(grids, names, looks.count, complete | shown)
    taken = {n.char for n in names.values()}
    for k in range(looks.count):
        if k in names:
            continue
        frames = {i for i, g in enumerate(grids) if (g == k).any()}
        matrix = exact.get(k)
        nearest = min((j for j in names), key=lambda j: looks.distance(k, j), default=None)
        near = names[nearest].char if nearest is not None else ""
        if matrix is not None and mines and near not in "F?X":
            values = matrix[mines].sum(axis=0)
            value = int(values[0])
            ch = "." if value == 0 else str(value)
            if (values == value).all() and value <= 8 and ch not in taken:
                names[k] = Name(ch, f"{len(values)} cell(s) with {value} mine(s) around them", proved=False)
                continue
        if near == "#":
            names[k] = Name("?", "looks most like a covered cell, and is not one: a question mark", proved=False)
        elif frames and frames <= lost:
            names[k] = Name("X", "seen only after a loss, and no number: a wrong flag", proved=False)
        elif near == "F":
            names[k] = Name("?", "looks most like a flag, and is not one: a question mark", proved=False)
