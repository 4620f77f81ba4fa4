"""Naming mines and numbers by counting: the looks that, taken as mines, make each number look's count agree.

A cell's mines are all in sight when it has no covered neighbour, or in a frame that shows every mine (a loss,
in a client that shows them all; such frames are found by the counts too). Over those cells the smallest set
of looks that makes every other look show one and the same count is the mine looks (mine, exploded, flag), and
each other look's count is its number (0 is the empty cell).
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from sweepbot.calibration.facts import NO_NAME, Name, Naming
from sweepbot.vision.learn import neighbour_count

#: The characters of the looks that stand for mines: a flag, the exploded mine, a mine shown.
MARKS = "F!*"
#: The most looks taken as mines (mine, exploded, flag, each perhaps drawn a few ways).
MAX_MINE_LOOKS = 12
#: A number look's counts must agree this often (a flag placed wrongly during play spoils a few).
AGREEMENT = 0.9
#: How many cells next to an empty cell a look must be seen on to count as an opened cell.
MIN_NEXT_TO_EMPTY = 2
#: What taking a look as a mine costs per cell of it counted (see _score).
MINE_COST = 1.5
#: ... and for a look that changed at a loss (no number of its own to hide), once, however many its cells: a
#: tie-break, so that a look the counts are silent about is not taken.
SILENT_MINE_COST = 1.0
#: A frame shows every mine when this share of its numbers next to covered cells count right with covered
#: cells taken as no mines (numbers around a mine look not found yet count wrong; in play, most of them do).
COMPLETE_AGREEMENT = 0.75
#: A look that looks most like a mark is named a number only by counts on this many cells.
FEW_CELLS = 3


def unknown_looks(names: Naming) -> set[int]:
    """Looks that may hide a mine: covered and question marks."""
    return {k for k, n in names.items() if n.char in "#?"}


def exact_counts(
    grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int] = frozenset(),  # type: ignore[assignment]
    mines: Sequence[int] | None = None,
) -> dict[int, np.ndarray]:
    """For each look, over its cells whose mines are all in sight: how many neighbours have each look
    (an n_looks x cells matrix). A cell's mines are in sight when it has no covered neighbour, or, in a
    frame shown at a loss (``complete``), when it has no question mark beside it: there every mine is shown
    but those under a question mark, and covered cells are not mines.
    Flags count as mines only where the game vouches for them: at a loss, or at a win (no covered cell left);
    during play a flag is the player's guess. Given the ``mines`` looks, a frame with no covered cell that
    shows none of them is left out: a loss whose mines are drawn in a look not known yet, where every count
    would be 0 (a client that shows its whole board at a loss)."""
    unknown = sorted(unknown_looks(names))
    flags = [k for k, n in names.items() if n.char == "F"]
    questions = [k for k, n in names.items() if n.char == "?"]
    per_look: dict[int, list[np.ndarray]] = {}
    for i, grid in enumerate(grids):
        if mines is not None and not np.isin(grid, unknown).any() and not np.isin(grid, list(mines)).any():
            continue
        doubt = unknown + flags if np.isin(grid, unknown).any() else unknown
        hidden = neighbour_count(np.isin(grid, questions if i in complete else doubt))
        exact = (hidden == 0) & ~np.isin(grid, doubt)
        if not exact.any():
            continue
        counts = np.stack([neighbour_count(grid == k) for k in range(n_looks)])  # L x rows x cols
        for look in np.unique(grid[exact]):
            where = exact & (grid == look)
            per_look.setdefault(int(look), []).append(counts[:, where])
    return {k: np.concatenate(v, axis=1) for k, v in per_look.items()}


def complete_frames(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int]) -> set[int]:
    """Frames that show every mine (a loss in a client that shows them all): every number already named
    counts its mines there with covered cells taken as no mines, and some of them have covered neighbours.
    Flags alone are no such frame: a player puts them during play (a small board in play with a few flags
    can count mostly right all the same), nor is a frame that shows one mine only: the mine that went off,
    in a client that shows no other (a few numbers beside it would count right)."""
    unknown = sorted(unknown_looks(names))
    numbers = {k: int(n.char) if n.char != "." else 0 for k, n in names.items() if n.char in ".12345678"}
    shown = [k for k in mines if names.get(k, NO_NAME).char != "F"]
    out: set[int] = set()
    for i, grid in enumerate(grids):
        if np.isin(grid, shown).sum() < 2 or not numbers:
            continue
        count = neighbour_count(np.isin(grid, list(mines)))
        hidden = neighbour_count(np.isin(grid, unknown))
        # only a number next to a covered cell tells: with no covered neighbour it counts right in any frame
        # (the empty cells of a board would outvote the rest, and a client that shows only the mine hit at a
        # loss would pass)
        tested = np.isin(grid, list(numbers)) & (hidden > 0)
        want = np.vectorize(lambda k: numbers.get(int(k), -1))(grid)
        if tested.any() and (count[tested] == want[tested]).mean() >= COMPLETE_AGREEMENT:
            out.add(i)
    # a client that showed every mine at one loss (the exploded mine's frame counts right) shows them at every
    # loss: a frame with the exploded mine and other mines shown, too few named numbers in it to tell
    exploded = [k for k, n in names.items() if n.char == "!"]
    losses = {i for i, grid in enumerate(grids)
              if np.isin(grid, exploded).any() and np.isin(grid, [k for k in shown if k not in exploded]).any()}
    if out & losses:
        out |= losses
    return out


def _agreement(values: np.ndarray) -> tuple[int, int, int]:
    """(most common value, how many agree, how many differ)."""
    counts = np.bincount(values)
    top = int(counts.argmax())
    return top, int(counts[top]), int(len(values) - counts[top])


def touching_covered(grids: Sequence[np.ndarray], names: Naming) -> set[int]:
    """Looks with a cell next to a covered cell: never the empty cell (a client opens all around a 0, but
    leaves marked cells closed, so a question mark beside a cell says nothing). A cell next to a mark says
    nothing either: a client may stop opening at a 0 that touches a flag (DangerUXB opens the neighbours of a
    cell only when the flags around it match its count)."""
    covered_looks = [k for k, n in names.items() if n.char == "#"]
    marks = [k for k, n in names.items() if n.char in "F?"]
    out: set[int] = set()
    for grid in grids:
        if covered_looks:
            beside = (neighbour_count(np.isin(grid, covered_looks)) > 0) & (neighbour_count(np.isin(grid, marks)) == 0)
            out |= {int(k) for k in np.unique(grid[beside])}
    return out


def _score(exact: dict[int, np.ndarray], chosen: Sequence[int], fixed: set[int], touching: set[int],
           no_number: set[int] = frozenset()) -> float:  # type: ignore[assignment]
    """How well the counts agree when ``chosen`` are the mine looks: each look not taken as a mine scores its
    agreeing cells less three times its disagreeing ones; each look taken as a mine costs 1.5 per counted
    cell of its own, so that a look is taken only when it makes the counts around it agree, not to hide its
    own disagreement (a wrong flag's cross)."""
    idx = list(chosen)
    total = 0.0
    for look, matrix in exact.items():
        if look in fixed:
            continue
        if look in idx:
            total -= SILENT_MINE_COST if look in no_number else MINE_COST * matrix.shape[1]
            continue
        if look in no_number:
            continue  # covered before the loss: a mine or a covered cell, no number to agree
        value, agree, differ = _agreement(matrix[idx].sum(axis=0) if idx else np.zeros(matrix.shape[1], int))
        if value > 8 or (value == 0 and look in touching):
            total -= 3 * (agree + differ)
        else:
            total += agree - 3 * differ
    return total


def next_to_empty(grids: Sequence[np.ndarray], touching: set[int], n_looks: int,
                   not_empty: set[int] = frozenset(), empty: int | None = None,  # type: ignore[assignment]
                   marked: Sequence[np.ndarray] = ()) -> set[int]:
    """Looks seen next to the empty cell: revealed cells, never mines. The empty cell is ``empty`` (the look
    named so) or else the commonest look that is never next to a covered cell (a client opens every cell
    around a 0), among those not known to be something else (``not_empty``: named, or changed at a loss).
    A cell in ``marked`` (one mask per frame: flags, whatever a loss drew them as) is never the empty cell:
    xbomb draws a wrong flag at a loss as a blank opened cell, with mines beside it."""
    if empty is None:
        counts = np.bincount(np.concatenate([g.ravel() for g in grids]), minlength=n_looks)
        never = [k for k in range(n_looks) if k not in touching and k not in not_empty and counts[k] > 0]
        if not never:
            return set()
        empty = max(never, key=lambda k: counts[k])
    seen = np.zeros(n_looks, int)
    for i, grid in enumerate(grids):
        near = neighbour_count((grid == empty) & ~marked[i] if marked else grid == empty) > 0
        seen += np.bincount(grid[near], minlength=n_looks)
    # a client leaves marked cells (flags, question marks) closed around a 0: a look seen there only once
    # may be such a mark, drawn another way (gnome-mines dims its marks at a game's end)
    return {empty} | {int(k) for k in np.flatnonzero(seen >= MIN_NEXT_TO_EMPTY)}


def refused_mines(grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int],
                   mines: Sequence[int], candidates: set[int]) -> set[int]:
    """The ``candidates`` that the counts refuse as mines: taken as one more mine look, the counts around them
    agree less (a look whose cells no counted number touches is not refused: the counts are silent)."""
    exact = exact_counts(grids, names, n_looks, complete)
    touching = touching_covered(grids, names)
    out = set()
    for k in candidates - set(mines):
        fixed = set(names) | {k}
        if _score(exact, [*mines, k], fixed, touching, candidates) < _score(exact, list(mines), fixed, touching,
                                                                             candidates):
            out.add(k)
    return out


def mine_looks(grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int],
               not_empty: set[int] = frozenset(), marked: Sequence[np.ndarray] = ()) -> list[int]:  # type: ignore[assignment]
    """The looks that stand for mines (mine, exploded, flag): the smallest set that makes the counts around
    fully revealed cells agree best; a look is kept only if the counts need it (``marked``: see
    :func:`next_to_empty`)."""
    exact = exact_counts(grids, names, n_looks, complete)
    touching = touching_covered(grids, names)
    given = [k for k, n in names.items() if n.char in MARKS]
    fixed = set(names)
    revealed = next_to_empty(grids, touching, n_looks, set(names) | not_empty, marked=marked)
    free = [k for k in range(n_looks) if k not in fixed and k not in revealed]
    chosen = list(given)
    current = _score(exact, chosen, fixed, touching, not_empty)
    while len(chosen) < MAX_MINE_LOOKS + len(given):
        # add the look that helps the counts most (a mine drawn a few ways is several looks), while one helps
        trials = [(_score(exact, [*chosen, k], fixed, touching, not_empty), k) for k in free
                  if k not in chosen and _helps(exact, chosen, k, fixed, touching, not_empty)]
        if not trials or max(trials)[0] <= current:
            break
        current, k = max(trials)
        chosen.append(k)
    improved = True
    while improved:  # a look taken early can be a poor stand-in for another: try swapping each one out
        improved = False
        for i, old in enumerate(chosen):
            if old in given:
                continue
            for k in free:
                if k in chosen:
                    continue
                trial = [*chosen[:i], k, *chosen[i + 1 :]]
                score = _score(exact, trial, fixed, touching, not_empty)
                if score > current:
                    chosen, current, improved = trial, score, True
                    break
            if improved:
                break
    for look in list(chosen):
        if look in given:
            continue
        rest = [k for k in chosen if k != look]
        if _score(exact, rest, fixed, touching, not_empty) >= _score(exact, chosen, fixed, touching, not_empty) \
                or not _helps(exact, rest, look, fixed, touching, not_empty):
            chosen = rest  # the counts do not need it: not proved a mine
    return chosen


def _helps(exact: dict[int, np.ndarray], chosen: Sequence[int], look: int, fixed: set[int], touching: set[int],
           no_number: set[int]) -> bool:
    """Whether taking ``look`` as one more mine look makes the counts of the other looks agree better: a look
    that cannot be a number (a wrong flag's cross, seen next to no mine) is not a mine for that alone."""
    without = fixed | {look}
    return _score(exact, [*chosen, look], without, touching, no_number) > _score(exact, list(chosen), without,
                                                                                  touching, no_number)


def numbers(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], n_looks: int,
            complete: set[int], min_cells: int = 2, doubtful: set[int] = frozenset(),  # type: ignore[assignment]
            mixed: AbstractSet[int] = frozenset()) -> None:
    """Each look whose cells with every mine in sight agree on one count is that number. A ``doubtful``
    look (one that looks like a mark) needs FEW_CELLS cells or more: a mark left on the board at a loss
    (gnome-mines draws a question mark over the mine it hid) has some count of mines around it too. A
    ``mixed`` look (its cells not all drawn alike) must agree on every cell: a count that differs there is a
    second tile grouped with the first (a 4 drawn like a 1 in a small font), not a flag placed wrongly."""
    exact = exact_counts(grids, names, n_looks, complete, mines)
    touching = touching_covered(grids, names)
    for look, matrix in exact.items():
        if look in names or look in mines:
            continue
        value, agree, differ = _agreement(matrix[list(mines)].sum(axis=0) if mines else np.zeros(matrix.shape[1], int))
        if value == 0 and look in touching:
            continue
        if look in doubtful and agree < FEW_CELLS:
            continue
        if look in mixed and differ:
            continue
        if value <= 8 and agree >= min_cells and agree >= AGREEMENT * (agree + differ):
            char = "." if value == 0 else str(value)
            names[look] = Name(char, f"{agree} of its {agree + differ} cells with no covered neighbour have "
                                     f"{value} mine(s) around them")


def frames_in_play(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], complete: set[int]) -> set[int]:
    """Frames of a game still in play: some number next to a covered cell has fewer mine looks around it
    than it shows, and the frame does not show every mine."""
    unknown = sorted(unknown_looks(names))
    values = {k: int(n.char) if n.char != "." else 0 for k, n in names.items() if n.char in ".12345678"}
    out: set[int] = set()
    for i, grid in enumerate(grids):
        if i in complete or not values:
            continue
        tested = np.isin(grid, list(values)) & (neighbour_count(np.isin(grid, unknown)) > 0)
        want = np.vectorize(lambda k: values.get(int(k), -1))(grid)
        if (neighbour_count(np.isin(grid, list(mines)))[tested] < want[tested]).any():
            out.add(i)
    return out
