"""Naming by what the solver allows: each frame, read with a trial naming, must be a possible Minesweeper
position; a look that every fitting trial names the same number is that number.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from itertools import product

import numpy as np

from sweepbot.board import Board
from sweepbot.calibration.counts import touching_covered
from sweepbot.calibration.facts import Name, Naming
from sweepbot.solver.analysis import analyse
from sweepbot.solver.budget import Budget
from sweepbot.solver.problem import ContradictionError
from sweepbot.vision.learn import neighbour_count

#: Frames the solver checks per look when trying which numbers it can be (the checks are the slow part).
MAX_TESTED_FRAMES = 24
#: The most joint number assignments tried for the opened looks not named yet.
MAX_TRIALS = 400


#: The work spent on telling whether a board can be (see sweepbot.solver.budget); a larger one is taken to be
POSSIBLE_WORK = 200_000

def frame_board(grid: np.ndarray, chars: np.ndarray, complete: bool) -> Board:
    """A frame as a board the solver takes: shown mines become flags; unnamed looks, wrong flags and the
    player's flags (during play they may be wrong) are covered cells, which only loosens the constraints."""
    cells = chars[grid]
    has_covered = bool(np.isin(cells, ["#", "?"]).any())
    cells = np.where(np.isin(cells, ["*", "!"]), "F", cells)
    if has_covered and not complete:
        cells = np.where(cells == "F", "#", cells)
    cells = np.where(np.isin(cells, ["X", "-"]), "#", cells)
    return Board(tuple("".join(row) for row in cells))


def frames_with(grids: Sequence[np.ndarray], look: int, most: int = MAX_TESTED_FRAMES) -> list[int]:
    """The frames showing ``look``, those with the most cells of it first, at most ``most`` of them."""
    counts = [(int((g == look).sum()), i) for i, g in enumerate(grids)]
    return [i for n, i in sorted(counts, reverse=True)[:most] if n]


def possible_game(board: Board) -> bool:
    try:
        analyse(board, budget=Budget(POSSIBLE_WORK))
    except ContradictionError:
        return False
    return True


def _candidates(grids: Sequence[np.ndarray], names: Naming, look: int, touching: set[int]) -> list[str]:
    """The numbers a look can show: no more than the cells around it that may hide a mine (covered, flagged,
    shown mines, unnamed), at least the mines shown around it, and not 0 if it is next to a covered cell."""
    safe = [k for k, n in names.items() if n.char in ".12345678X"]
    shown = [k for k, n in names.items() if n.char in "*!"]
    most, least = 8, 0
    for grid in grids:
        where = grid == look
        if where.any():
            most = min(most, int(neighbour_count(~np.isin(grid, safe))[where].min()))
            least = max(least, int(neighbour_count(np.isin(grid, shown))[where].max()))
    low = max(least, 1 if look in touching else 0)
    return ["." if v == 0 else str(v) for v in range(low, most + 1)]


def only_possible(grids: Sequence[np.ndarray], names: Naming, revealed: set[int], complete: set[int],
                  mixed: AbstractSet[int] = frozenset()) -> None:
    """Looks known to be opened cells (next to an empty cell, or seen opened in play) take, together, every
    assignment of numbers that makes every frame a possible Minesweeper position; a look with the same number
    in all of them is that number. A ``mixed`` look (its cells not all alike) is left out: the frames stay
    possible with a 3 taken for a 2 where few mines are shown, so only a look that is one tile is named so."""
    touching = touching_covered(grids, names)
    open_ = sorted(revealed - set(names) - mixed)
    if not open_:
        return
    choices = {k: _candidates(grids, names, k, touching) for k in open_}
    if any(not c for c in choices.values()):
        return
    # the looks with the fewest choices first, as many as keep the trials few
    order = sorted(open_, key=lambda k: len(choices[k]))
    chosen: list[int] = []
    total = 1
    for k in order:
        if total * len(choices[k]) > MAX_TRIALS:
            break
        chosen.append(k)
        total *= len(choices[k])
    frames = sorted({i for k in chosen for i in frames_with(grids, k, MAX_TESTED_FRAMES // 2)})
    n_looks = int(max(int(g.max()) for g in grids)) + 1
    table = np.array([names[k].char if k in names else "-" for k in range(n_looks)])
    fits: list[tuple[str, ...]] = []
    for combo in product(*(choices[k] for k in chosen)):
        trial = table.copy()
        trial[chosen] = combo
        if all(possible_game(frame_board(grids[i], trial, i in complete)) for i in frames):
            fits.append(combo)
    if not fits:
        return  # the frames contradict every choice: something else is wrong; name nothing
    for j, k in enumerate(chosen):
        values = {combo[j] for combo in fits}
        if len(values) == 1:
            names[k] = Name(values.pop(), "an opened cell, and no other number makes every frame a possible game")
