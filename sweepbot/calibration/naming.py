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
5. kept numbers: an opened cell shows one number until its game ends: a look that a cell seen opened takes
   later in the same game (a number drawn on another background when it has too many flags around it) is
   the number it showed before;
6. bounds: a look not yet named that can only be one number (no more than the covered cells and mines
   around any of its cells, and every smaller number already has a look) is that number.

What none of the steps proves stays unnamed: it is never guessed (see :mod:`sweepbot.calibration.hints`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

import numpy as np

from sweepbot.board import Board
from sweepbot.calibration.looks import Looks
from sweepbot.errors import SweepbotError
from sweepbot.solver.analysis import analyse
from sweepbot.solver.problem import ContradictionError
from sweepbot.vision.learn import neighbour_count

MARKS = "F!*"
#: The most looks taken as mines (mine, exploded, flag, each perhaps drawn a few ways).
MAX_MINE_LOOKS = 12
#: A number look's counts must agree this often (a flag placed wrongly during play spoils a few).
AGREEMENT = 0.9
#: The share of a look's facts that may disagree with the rest (a misjudged click) before it is an error.
FACT_DOUBT = 0.25
#: How many cells next to an empty cell a look must be seen on to count as an opened cell.
MIN_NEXT_TO_EMPTY = 2
#: A glyph pixel differs from the tile's background by more than this (sum over channels); two glyphs are
#: the same when their masks overlap this much (intersection over union) and their colours this closely.
GLYPH_CONTRAST = 120
GLYPH_OVERLAP = 0.85
GLYPH_COLOUR = 40
#: Frames the solver checks per look when trying which numbers it can be (the checks are the slow part).
MAX_TESTED_FRAMES = 24
#: The most joint number assignments tried for the opened looks not named yet.
MAX_TRIALS = 400
#: What taking a look as a mine costs per cell of it counted (see _score).
MINE_COST = 1.5
#: ... and for a look that changed at a loss (no number of its own to hide): a tie-break, so that a look the
#: counts are silent about is not taken.
SILENT_MINE_COST = 0.1
#: A frame shows every mine when this share of its numbers count right with covered cells taken as no mines
#: (numbers around a mine look not found yet count wrong; in play, most numbers next to covered cells do).
COMPLETE_AGREEMENT = 0.75
#: Marks: a look that looks most like one is named a number only by counts on this many cells.
MARK_LOOKS = "*!F?X"
FEW_CELLS = 3
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
NO_NAME = Name("-", "no name")
#: A fact's character for "this cell was opened and the game went on": a number or an empty cell.
REVEALED = "="
#: A fact's character for "this covered cell changed when the game was lost": a mine shown, or a covered
#: cell the client draws another way after a loss.
AT_LOSS = "^"
#: A fact's character for "this flag changed when the game was lost": a wrong flag, or a right one the client
#: draws another way after a loss (the counts tell).
FLAG_AT_LOSS = "%"
#: A fact's character for "this question mark changed when the game was lost": the mark drawn over what it
#: hid (gnome-mines draws it on a mine's background); a look that mostly such facts name is a question mark.
QUESTION_AT_LOSS = "&"


def name_looks(looks: Looks, facts: Sequence[Fact] = (), min_cells: int = 3, with_hints: bool = True) -> Naming:
    """Name every look the frames prove; see the module's steps. With ``with_hints``, looks the frames do not
    prove get a hint (``proved=False``): used only if the user confirms them."""
    grids = looks.grids
    names: Naming = {}
    at_loss = from_facts(grids, facts, names)
    if not any(n.char == "#" for n in names.values()):
        covered(grids, names)
    # first from cells with no covered neighbour; then again with the frames that turn out to show every mine
    complete: set[int] = set()
    doubtful = like_marks(looks, names)
    for _ in range(3):
        mines = mine_looks(grids, names, looks.count, complete, at_loss)
        trial = dict(names)
        numbers(grids, trial, mines, looks.count, complete, min_cells, doubtful)
        found = complete_frames(grids, trial, mines)
        if found == complete:
            break
        complete = found
    flags_at_loss = {int(grids[f.frame][f.row, f.col]) for f in facts if f.char == FLAG_AT_LOSS}
    questions_at_loss = _mostly(grids, facts, QUESTION_AT_LOSS, CHANGED_AT_LOSS)
    refused = _refused_mines(grids, names, looks.count, complete, mines, at_loss)
    for k in at_loss - set(names):
        # changed at the loss: a mine if the counts take it as one, a covered cell redrawn if they refuse it as
        # one (with the counts silent, nothing is proved); a flag that changed: right (drawn another way) if the
        # counts take it as a mine, else wrong (a client shows a wrong flag at a loss)
        if k in questions_at_loss:
            names[k] = Name("?", "question marks that changed at the loss (drawn over what they hid)")
        elif k in flags_at_loss:
            names[k] = Name("F", "a flag redrawn at the loss, and the counts show it is on a mine") if k in mines \
                else Name("X", "a flag that changed at the loss, and the counts show it is on no mine")
        elif k in mines:
            names[k] = Name("*", _FACT_REASONS["*"])
        elif k in refused:
            names[k] = Name("#", "a covered cell that changed at the loss, and the counts show it is no mine")
    marks(grids, names, mines, complete, _in_play(grids, trial, mines, complete))
    numbers(grids, names, mines, looks.count, complete, min_cells, like_marks(looks, names))
    distinct_numbers(looks, names)
    kept_numbers(grids, facts, names)
    revealed = {int(grids[f.frame][f.row, f.col]) for f in facts if f.char == REVEALED}
    empty = next((k for k, n in names.items() if n.char == "."), None)
    revealed |= _next_to_empty(grids, _touching(grids, names), looks.count, set(names) | at_loss, empty)
    only_possible(grids, names, revealed, complete)
    no_empty_by_covered(grids, names)
    if with_hints:
        hints(looks, names, complete)
    return names


def no_empty_by_covered(grids: Sequence[np.ndarray], names: Naming) -> None:
    """A check on the steps above: a client opens every cell around an empty one, so a look named empty
    that is seen next to a covered cell was named wrongly (frames counted as showing every mine that did not,
    say): it loses its name, and is learnt in play or asked, never guessed."""
    covered_looks = [k for k, n in names.items() if n.char == "#"]
    if not covered_looks:
        return
    for k in [k for k, n in names.items() if n.char == "."]:
        if any(((grid == k) & (neighbour_count(np.isin(grid, covered_looks)) > 0)).any() for grid in grids):
            del names[k]


def from_facts(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming) -> set[int]:
    """Each look takes the name its facts give it; a look given two names by nearly as many facts each is
    an error (the board moved or changed while calibrating); a stray fact or two is outvoted. Returns the
    looks that changed at a loss (mines, or covered cells drawn another way): the counts name them later."""
    votes: dict[int, Counter[str]] = {}
    for f in facts:
        look = int(grids[f.frame][f.row, f.col])
        votes.setdefault(look, Counter())[f.char] += 1
    for look, counts in votes.items():
        if counts[REVEALED] and counts[AT_LOSS]:
            # a look that opened cells show cannot be a covered cell changed by the loss: those were cells a
            # click just before had opened, drawn late (xdemineur), and are left out
            del counts[AT_LOSS]
        (char, n), *rest = counts.most_common()
        against = sum(m for _, m in rest)
        if against >= 2 and against > FACT_DOUBT * (n + against):
            raise CalibrationError(
                f"one look was seen as {dict(counts)}: the board moved or changed while calibrating"
            )
        if char not in (REVEALED, *CHANGED_AT_LOSS):
            names[look] = Name(char, _FACT_REASONS.get(char, "seen in play"))
    return {look for look, counts in votes.items() if counts.most_common(1)[0][0] in CHANGED_AT_LOSS}


CHANGED_AT_LOSS = (AT_LOSS, FLAG_AT_LOSS, QUESTION_AT_LOSS)


def _mostly(grids: Sequence[np.ndarray], facts: Sequence[Fact], char: str, among: Sequence[str]) -> set[int]:
    """The looks whose facts of the kinds ``among`` are mostly ``char``."""
    votes: dict[int, Counter[str]] = defaultdict(Counter)
    for f in facts:
        if f.char in among:
            votes[int(grids[f.frame][f.row, f.col])][f.char] += 1
    return {look for look, counts in votes.items() if counts[char] * 2 > sum(counts.values())}


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
    frame shown at a loss (``complete``), always: there every mine is shown and covered cells are not mines.
    Flags count as mines only where the game vouches for them: at a loss, or at a win (no covered cell left);
    during play a flag is the player's guess."""
    unknown = sorted(_unknown(names))
    flags = [k for k, n in names.items() if n.char == "F"]
    per_look: dict[int, list[np.ndarray]] = {}
    for i, grid in enumerate(grids):
        doubt = unknown + flags if np.isin(grid, unknown).any() else unknown
        hidden = neighbour_count(np.isin(grid, doubt)) if doubt and i not in complete else np.zeros(grid.shape)
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
    can count mostly right all the same)."""
    unknown = sorted(_unknown(names))
    numbers = {k: int(n.char) if n.char != "." else 0 for k, n in names.items() if n.char in ".12345678"}
    shown = [k for k in mines if names.get(k, NO_NAME).char != "F"]
    out: set[int] = set()
    for i, grid in enumerate(grids):
        if not np.isin(grid, shown).any() or not numbers:
            continue
        count = neighbour_count(np.isin(grid, list(mines)))
        hidden = neighbour_count(np.isin(grid, unknown))
        tested = np.isin(grid, list(numbers))
        want = np.vectorize(lambda k: numbers.get(int(k), -1))(grid)
        if (hidden[tested] > 0).any() and (count[tested] == want[tested]).mean() >= COMPLETE_AGREEMENT:
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


def _touching(grids: Sequence[np.ndarray], names: Naming) -> set[int]:
    """Looks with a cell next to a covered cell: never the empty cell (a client opens all around a 0)."""
    unknown = sorted(_unknown(names))
    out: set[int] = set()
    for grid in grids:
        if unknown:
            out |= {int(k) for k in np.unique(grid[neighbour_count(np.isin(grid, unknown)) > 0])}
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
            total -= (SILENT_MINE_COST if look in no_number else MINE_COST) * matrix.shape[1]
            continue
        if look in no_number:
            continue  # covered before the loss: a mine or a covered cell, no number to agree
        value, agree, differ = _agreement(matrix[idx].sum(axis=0) if idx else np.zeros(matrix.shape[1], int))
        if value > 8 or (value == 0 and look in touching):
            total -= 3 * (agree + differ)
        else:
            total += agree - 3 * differ
    return total


def _next_to_empty(grids: Sequence[np.ndarray], touching: set[int], n_looks: int,
                   not_empty: set[int] = frozenset(), empty: int | None = None) -> set[int]:  # type: ignore[assignment]
    """Looks seen next to the empty cell: revealed cells, never mines. The empty cell is ``empty`` (the look
    named so) or else the commonest look that is never next to a covered cell (a client opens every cell
    around a 0), among those not known to be something else (``not_empty``: named, or changed at a loss)."""
    if empty is None:
        counts = np.bincount(np.concatenate([g.ravel() for g in grids]), minlength=n_looks)
        never = [k for k in range(n_looks) if k not in touching and k not in not_empty and counts[k] > 0]
        if not never:
            return set()
        empty = max(never, key=lambda k: counts[k])
    seen = np.zeros(n_looks, int)
    for grid in grids:
        near = neighbour_count(grid == empty) > 0
        seen += np.bincount(grid[near], minlength=n_looks)
    # a client leaves marked cells (flags, question marks) closed around a 0: a look seen there only once
    # may be such a mark, drawn another way (gnome-mines dims its marks at a game's end)
    return {empty} | {int(k) for k in np.flatnonzero(seen >= MIN_NEXT_TO_EMPTY)}


def _refused_mines(grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int],
                   mines: Sequence[int], candidates: set[int]) -> set[int]:
    """The ``candidates`` that the counts refuse as mines: taken as one more mine look, the counts around them
    agree less (a look whose cells no counted number touches is not refused: the counts are silent)."""
    exact = _exact_counts(grids, names, n_looks, complete)
    touching = _touching(grids, names)
    out = set()
    for k in candidates - set(mines):
        fixed = set(names) | {k}
        if _score(exact, [*mines, k], fixed, touching, candidates) < _score(exact, list(mines), fixed, touching,
                                                                             candidates):
            out.add(k)
    return out


def mine_looks(grids: Sequence[np.ndarray], names: Naming, n_looks: int, complete: set[int],
               not_empty: set[int] = frozenset()) -> list[int]:  # type: ignore[assignment]
    """The looks that stand for mines (mine, exploded, flag): the smallest set that makes the counts around
    fully revealed cells agree best; a look is kept only if the counts need it."""
    exact = _exact_counts(grids, names, n_looks, complete)
    touching = _touching(grids, names)
    given = [k for k, n in names.items() if n.char in MARKS]
    fixed = set(names)
    revealed = _next_to_empty(grids, touching, n_looks, set(names) | not_empty)
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
            complete: set[int], min_cells: int = 2, doubtful: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Each look whose cells with every mine in sight agree on one count is that number. A ``doubtful``
    look (one that looks like a mark) needs FEW_CELLS cells or more: a mark left on the board at a loss
    (gnome-mines draws a question mark over the mine it hid) has some count of mines around it too."""
    exact = _exact_counts(grids, names, n_looks, complete)
    touching = _touching(grids, names)
    for look, matrix in exact.items():
        if look in names or look in mines:
            continue
        value, agree, differ = _agreement(matrix[list(mines)].sum(axis=0) if mines else np.zeros(matrix.shape[1], int))
        if value == 0 and look in touching:
            continue
        if look in doubtful and agree < FEW_CELLS:
            continue
        if value <= 8 and agree >= min_cells and agree >= AGREEMENT * (agree + differ):
            char = "." if value == 0 else str(value)
            names[look] = Name(char, f"{agree} of its {agree + differ} cells with no covered neighbour have "
                                     f"{value} mine(s) around them")


def like_marks(looks: Looks, names: Naming) -> set[int]:
    """The looks not named yet whose nearest look (named or not) is a named mark (a mine, a flag, a
    question mark): a number's nearest look is, as a rule, another number."""
    out = set()
    for k in range(looks.count):
        if k in names or looks.count < 2:
            continue
        nearest = min((j for j in range(looks.count) if j != k), key=lambda j: looks.distance(k, j))
        if nearest in names and names[nearest].char in MARK_LOOKS:
            out.add(k)
    return out


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


def kept_numbers(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming) -> None:
    """A cell a fact shows opened keeps its number for the rest of its game (a game starts at a frame with
    new-board facts): each look such a cell shows later is named by the looks it showed, when they are one
    number and nothing says otherwise."""
    new_game = {f.frame for f in facts if f.char == "#"}
    game, games = -1, {}
    for i in sorted({f.frame for f in facts}):
        game += i in new_game
        games[i] = game
    seen: dict[tuple[int, int, int], set[int]] = {}
    for f in facts:
        if f.char == REVEALED:
            seen.setdefault((games[f.frame], f.row, f.col), set()).add(int(grids[f.frame][f.row, f.col]))
    votes: dict[int, set[str]] = {}
    for looks in seen.values():
        named = {names[k].char for k in looks if k in names}
        if len(named) != 1 or not named <= set(".12345678"):
            continue  # nothing to name it by, or a cell that seems to change number: a misjudged fact
        for k in looks - set(names):
            votes.setdefault(k, set()).update(named)
    for k, chars in votes.items():
        if len(chars) == 1:
            names[k] = Name(next(iter(chars)), "a cell seen opened showed this number earlier in the game")


def _in_play(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], complete: set[int]) -> set[int]:
    """Frames of a game still in play: some number next to a covered cell has fewer mine looks around it
    than it shows, and the frame does not show every mine."""
    unknown = sorted(_unknown(names))
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


def marks(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], complete: set[int],
          in_play: set[int]) -> None:
    """Tell the mine looks apart by the frames they appear in; what the frames do not settle stays unnamed."""
    open_ = [k for k in mines if k not in names]
    present = [{int(k): int(n) for k, n in zip(*np.unique(g, return_counts=True), strict=True)} for g in grids]
    for k in open_:
        frames = [i for i, p in enumerate(present) if k in p]
        most = max(present[i][k] for i in frames)
        if any(i in in_play for i in frames):
            names[k] = Name("F", "a mine look seen while the game was still on: a flag")
        elif most == 1 and len(frames) >= 2:
            names[k] = Name("!", "a mine look once in each frame after a loss: the mine that was clicked")
        elif most >= 2:
            names[k] = Name("*", "a mine look seen many at a time, after a loss: the mines shown")


def _frame_board(grid: np.ndarray, chars: np.ndarray, complete: bool) -> Board:
    """A frame as a board the solver takes: shown mines become flags; unnamed looks, wrong flags and the
    player's flags (during play they may be wrong) are covered cells, which only loosens the constraints."""
    cells = chars[grid]
    has_covered = bool(np.isin(cells, ["#", "?"]).any())
    cells = np.where(np.isin(cells, ["*", "!"]), "F", cells)
    if has_covered and not complete:
        cells = np.where(cells == "F", "#", cells)
    cells = np.where(np.isin(cells, ["X", "-"]), "#", cells)
    return Board(tuple("".join(row) for row in cells))


def _frames_with(grids: Sequence[np.ndarray], look: int, most: int = MAX_TESTED_FRAMES) -> list[int]:
    """The frames showing ``look``, those with the most cells of it first, at most ``most`` of them."""
    counts = [(int((g == look).sum()), i) for i, g in enumerate(grids)]
    return [i for n, i in sorted(counts, reverse=True)[:most] if n]


def _possible(board: Board) -> bool:
    try:
        analyse(board, time_limit=0.2)
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


def only_possible(grids: Sequence[np.ndarray], names: Naming, revealed: set[int], complete: set[int]) -> None:
    """Looks known to be opened cells (next to an empty cell, or seen opened in play) take, together, every
    assignment of numbers that makes every frame a possible Minesweeper position; a look with the same number
    in all of them is that number."""
    touching = _touching(grids, names)
    open_ = sorted(revealed - set(names))
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
    frames = sorted({i for k in chosen for i in _frames_with(grids, k, MAX_TESTED_FRAMES // 2)})
    n_looks = int(max(int(g.max()) for g in grids)) + 1
    table = np.array([names[k].char if k in names else "-" for k in range(n_looks)])
    fits: list[tuple[str, ...]] = []
    for combo in product(*(choices[k] for k in chosen)):
        trial = table.copy()
        trial[chosen] = combo
        if all(_possible(_frame_board(grids[i], trial, i in complete)) for i in frames):
            fits.append(combo)
    if not fits:
        return  # the frames contradict every choice: something else is wrong; name nothing
    for j, k in enumerate(chosen):
        values = {combo[j] for combo in fits}
        if len(values) == 1:
            names[k] = Name(values.pop(), "an opened cell, and no other number makes every frame a possible game")


def hints(looks: Looks, names: Naming, complete: set[int]) -> None:
    """A likely name for each look no step proved, to show the user once, in this order: a number counted
    on a cell or two at a loss; a number's glyph on another background (sgt-mines draws a number with too
    many flags around it on pink); the exploded mine (once in a frame that shows a loss and has none yet); a
    flag (seen during play, when no flag is named); after a loss, a wrong flag (looks most like a mine or a
    flag) or a question mark (looks most like a covered cell); the only number a look can be."""
    grids = looks.grids
    mines = [k for k, n in names.items() if n.char in "*!F" and n.proved]
    shown = {i for i, g in enumerate(grids) if any(names.get(int(k), NO_NAME).char == "*" for k in np.unique(g))}
    exact = _exact_counts(grids, names, looks.count, complete | shown)
    open_ = [k for k in range(looks.count) if k not in names]
    present = [{int(k): int(n) for k, n in zip(*np.unique(g, return_counts=True), strict=True)} for g in grids]
    frames_of = {k: {i for i, p in enumerate(present) if k in p} for k in open_}
    tested = {k: _frames_with(grids, k) for k in open_}

    def lost(i: int) -> bool:
        return any(names.get(k, NO_NAME).char in "*!" for k in present[i])

    def nearest(k: int) -> str:
        j = min(names, key=lambda j: looks.distance(k, j))
        return names[j].char

    for k in open_:  # numbers counted at a loss
        matrix = exact.get(k)
        if matrix is None or not mines or nearest(k) in "F?X#*!":
            continue
        values = matrix[mines].sum(axis=0)
        value = int(values[0])
        ch = "." if value == 0 else str(value)
        if (values == value).all() and value <= 8 and ch not in {n.char for n in names.values()}:
            names[k] = Name(ch, f"{len(values)} cell(s) with {value} mine(s) around them", proved=False)
    number_glyphs = [(n.char, *glyph(looks.images[j])) for j, n in names.items() if n.char in "12345678" and n.proved]
    for k in open_:  # a named number's glyph on another background (a client's highlight of an error)
        same = same_glyph(looks.images[k], number_glyphs) if k not in names else None
        if same is not None:
            names[k] = Name(same, f"the glyph of a {same} on another background", proved=False)
    for k in sorted(open_, key=lambda k: -looks.counts[k]):
        if k in names:
            continue
        frames = frames_of[k]
        once = all(present[i][k] == 1 for i in frames)
        after_loss = all(lost(i) for i in frames)
        if once and not any(names.get(j, NO_NAME).char == "!" for i in frames for j in present[i]):
            names[k] = Name("!", "once in a frame, where no exploded mine is named: the mine clicked", proved=False)
        elif not after_loss and not any(n.char == "F" for n in names.values()):
            names[k] = Name("F", "seen during play, and no flag is named: a flag", proved=False)
        elif after_loss and nearest(k) in "*!F":
            names[k] = Name("X", "seen only after a loss, most like a mine or flag: a wrong flag", proved=False)
        elif nearest(k) in "#F":
            names[k] = Name("?", "most like a covered cell or a flag, and no number: a question mark", proved=False)
    table = np.array([names[k].char if k in names else "-" for k in range(looks.count)])
    for k in open_:  # the only number a look can be, if it is a number
        if k in names:
            continue
        fits: list[str] = []
        for digit in ".12345678":
            trial = table.copy()
            trial[k] = digit
            if all(_possible(_frame_board(grids[i], trial, i in complete)) for i in tested[k]):
                fits.append(digit)
        if len(fits) == 1:
            names[k] = Name(fits[0], "if it is a number, no other makes every frame a possible game", proved=False)


def glyph(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tile's glyph: the mask of pixels far from its background (its commonest colour; at least half as
    far as the farthest, so that antialiased edges on a light or a dark background count alike), and their
    mean colour."""
    pixels = image.reshape(-1, 3).astype(np.int16)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    background = colours[np.argmax(counts)]
    distance = np.abs(pixels - background).sum(axis=1)
    mask = distance > max(GLYPH_CONTRAST, distance.max() / 2)
    colour = pixels[mask].mean(axis=0) if mask.any() else np.zeros(3)
    return mask.reshape(image.shape[:2]), colour


def same_glyph(image: np.ndarray, numbers: Sequence[tuple[str, np.ndarray, np.ndarray]]) -> str | None:
    """The number whose glyph (shape and colour) the tile ``image`` shows, if exactly one does (``numbers``:
    each named number's character with its :func:`glyph`)."""
    mask, colour = glyph(image)
    if mask.sum() < 4:
        return None
    found = set()
    for char, other, other_colour in numbers:
        shifted = [np.roll(mask, (dy, dx), (0, 1)) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        overlap = max(float((m & other).sum()) / float((m | other).sum() or 1) for m in shifted)
        if overlap >= GLYPH_OVERLAP and np.abs(colour - other_colour).max() <= GLYPH_COLOUR:
            found.add(char)
    return found.pop() if len(found) == 1 else None
