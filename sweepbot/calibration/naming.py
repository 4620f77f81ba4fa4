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
   shows a loss is the exploded mine; one seen many at a time, only when all mines are shown, a mine, unless
   no mine went off where it shows (a won board, whose mines a client may flag: a flag);
5. kept numbers: an opened cell shows one number until its game ends: a look that a cell seen opened takes
   later in the same game (a number drawn on another background when it has too many flags around it) is
   the number it showed before;
6. bounds: a look not yet named that can only be one number (no more than the covered cells and mines
   around any of its cells, and every smaller number already has a look) is that number.

The counting steps (2 and 3) are in :mod:`sweepbot.calibration.counts`, the bounds (6) in
:mod:`sweepbot.calibration.possible`. What none of the steps proves stays unnamed: it is never guessed (see
:mod:`sweepbot.calibration.hints`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

import numpy as np

from sweepbot.board import OPENED
from sweepbot.calibration.counts import (
    AGREEMENT,
    FEW_CELLS,
    complete_frames,
    exact_counts,
    frames_in_play,
    mine_looks,
    next_to_empty,
    numbers,
    refused_mines,
    touching_covered,
)
from sweepbot.calibration.facts import (
    AT_LOSS,
    CHANGED_AT_LOSS,
    FACT_REASONS,
    FLAG_AT_LOSS,
    QUESTION_AT_LOSS,
    REVEALED,
    WON_COVERED,
    CalibrationError,
    Fact,
    Name,
    Naming,
    from_facts,
    look_votes,
    mostly,
)
from sweepbot.calibration.hints import hints
from sweepbot.calibration.looks import STRICT_LOOK_RMS, Looks
from sweepbot.calibration.possible import only_possible
from sweepbot.vision.learn import neighbour_count

#: The marks: a look not named yet whose nearest look is one of them is named a number only by counts on
#: enough cells (:data:`sweepbot.calibration.counts.FEW_CELLS`).
MARK_LOOKS = "*!F?X"
#: Two looks closer than this (RMS) may be one tile drawn a little differently: the bounds step leaves them.
VARIANT_RMS = 30.0
#: A look whose pixels correlate this well with a covered look's is that tile in another brightness.
SAME_SHAPE = 0.9


def name_looks(looks: Looks, facts: Sequence[Fact] = (), min_cells: int = 3, with_hints: bool = True) -> Naming:
    """Name every look the frames prove; see the module's steps. With ``with_hints``, looks the frames do not
    prove get a hint (``proved=False``): used only if the user confirms them."""
    grids = looks.grids
    names: Naming = {}
    at_loss = from_facts(grids, facts, names)
    if not any(n.char == "#" for n in names.values()):
        covered(grids, names)
    # first from cells with no covered neighbour and the losses that showed mines (taken to show every mine
    # till the numbers named count them right there, or wrong); then again with the frames that turn out to
    # show every mine
    complete = losses_with_mines(facts)
    doubtful = like_marks(looks, names)
    marked = flagged_at_loss(grids, facts)
    for _ in range(3):
        mines = mine_looks(grids, names, looks.count, complete, at_loss, marked)
        trial = dict(names)
        numbers(grids, trial, mines, looks.count, complete, min_cells, doubtful)
        found = complete_frames(grids, trial, mines)
        if found == complete:
            break
        complete = found
    flags_at_loss = flag_only_looks(grids, facts)
    questions_at_loss = mostly(grids, facts, QUESTION_AT_LOSS, CHANGED_AT_LOSS)
    refused = refused_mines(grids, names, looks.count, complete, mines, at_loss)
    blank_mines: set[int] = set()
    for k in at_loss - set(names):
        # changed at the loss: a mine if the counts take it as one, a covered cell redrawn if they refuse it as
        # one (with the counts silent, nothing is proved); a flag that changed: right (drawn another way) if the
        # counts take it as a mine, else wrong (a client shows a wrong flag at a loss)
        if k in questions_at_loss:
            names[k] = Name("?", "question marks that changed at the loss (drawn over what they hid)")
        elif k in flags_at_loss:
            names[k] = Name("F", "a flag redrawn at the loss, and the counts show it is on a mine") if k in mines \
                else Name("X", "a flag that changed at the loss, and the counts show it is on no mine")
        elif k in mines and like_covered(looks, names, k):
            # a mine drawn like a covered tile (a web page's mine whose image had not shown yet): read as a
            # mine, a covered cell would be too; left unnamed
            blank_mines.add(k)
        elif k in mines:
            names[k] = Name("*", FACT_REASONS["*"])
        elif k in refused and like_covered(looks, names, k):
            # a covered cell drawn another way still looks like one (a number a client shows at a loss
            # does not, and stays unnamed)
            names[k] = Name("#", "a covered cell that changed at the loss, and the counts show it is no mine")
    # a live session whose client never put a flag where it was seen (no marks) shows none in play: a mine
    # look there is something else (a covered tile drawn otherwise)
    flags = not facts or any(f.char == "F" for f in facts)
    marks(grids, names, [k for k in mines if k not in blank_mines], complete,
          frames_in_play(grids, trial, mines, complete), flags)
    numbers(grids, names, mines, looks.count, complete, min_cells, like_marks(looks, names),
            looks.mixed(STRICT_LOOK_RMS))
    distinct_numbers(looks, names)
    kept_numbers(grids, facts, names, lambda: {k: m[list(mines)].sum(axis=0) for k, m in exact_counts(
        grids, names, looks.count, complete, mines).items()})
    revealed = {int(grids[f.frame][f.row, f.col]) for f in facts if f.char == REVEALED}
    empty = next((k for k, n in names.items() if n.char == "."), None)
    revealed |= next_to_empty(grids, touching_covered(grids, names), looks.count, set(names) | at_loss, empty, marked)
    only_possible(grids, names, revealed, complete, looks.mixed(STRICT_LOOK_RMS))
    no_empty_by_covered(grids, names)
    opened_only(grids, facts, names)
    if with_hints:
        hints(looks, names, complete)
    return names


def losses_with_mines(facts: Sequence[Fact]) -> set[int]:
    """Frames of a loss (the exploded mine seen) where covered cells changed at the loss (other mines shown,
    or covered cells drawn another way)."""
    exploded = {f.frame for f in facts if f.char == "!"}
    changed = Counter(f.frame for f in facts if f.char == AT_LOSS)
    return {i for i in exploded if changed[i] >= 2}


def flagged_at_loss(grids: Sequence[np.ndarray], facts: Sequence[Fact]) -> list[np.ndarray]:
    """Per frame, the cells that held a flag when the game was lost, whatever the loss drew them as."""
    masks = [np.zeros(g.shape, bool) for g in grids]
    for f in facts:
        if f.char == FLAG_AT_LOSS:
            masks[f.frame][f.row, f.col] = True
    return masks


def flag_only_looks(grids: Sequence[np.ndarray], facts: Sequence[Fact]) -> set[int]:
    """The looks that flags changed to at a loss and that no other fact is about: a client may take a wrong
    flag off at a loss and show the number under it (DangerUXB), a look that covered cells changed to as
    well, or that opened cells show."""
    kinds: dict[int, set[str]] = defaultdict(set)
    for f in facts:
        if f.char != WON_COVERED:
            kinds[int(grids[f.frame][f.row, f.col])].add(f.char)
    return {k for k, chars in kinds.items() if chars == {FLAG_AT_LOSS}}


def like_covered(looks: Looks, names: Naming, look: int) -> bool:
    """``look`` is a covered tile drawn another way: close to a covered look, or the same shape in another
    brightness (gnome-mines darkens the covered cells at a loss; a number drawn on a tile is neither)."""
    image = looks.images[look].astype(np.float32).ravel()
    for k in (k for k, n in names.items() if n.char == "#"):
        if looks.distance(look, k) < VARIANT_RMS:
            return True
        covered = looks.images[k].astype(np.float32).ravel()
        if image.std() > 0 and covered.std() > 0 and float(np.corrcoef(image, covered)[0, 1]) >= SAME_SHAPE:
            return True
    return False


def opened_only(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming) -> None:
    """A look still unnamed that play showed only on cells it had just opened is an opened cell whose number
    is not proved yet (``=``): read as open, never as covered or as a guessed number, and learnt when a game
    ends on a board that shows every mine."""
    for look, counts in look_votes(grids, facts).items():
        if look not in names and counts[REVEALED] >= 2 and counts[REVEALED] == sum(counts.values()):
            names[look] = Name(OPENED, f"seen opened {counts[REVEALED]} times; its number is learnt in play")


def no_empty_by_covered(grids: Sequence[np.ndarray], names: Naming) -> None:
    """A check on the steps above: a client opens every cell around an empty one, so a look named empty
    that is seen next to a covered cell was named wrongly (frames counted as showing every mine that did not,
    say): it loses its name, and is learnt in play or asked, never guessed. A cell next to a mark is left out
    (see :func:`sweepbot.calibration.counts.touching_covered`)."""
    covered_looks = [k for k, n in names.items() if n.char == "#"]
    if not covered_looks:
        return
    marks = [k for k, n in names.items() if n.char in "F?"]
    for k in [k for k, n in names.items() if n.char == "."]:
        if any(((grid == k) & (neighbour_count(np.isin(grid, covered_looks)) > 0)
                & (neighbour_count(np.isin(grid, marks)) == 0)).any() for grid in grids):
            del names[k]


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


def kept_numbers(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming,
                 counted: Callable[[], Mapping[int, np.ndarray]] | None = None) -> None:
    """A cell a fact shows opened keeps its number for the rest of its game: each look such a cell shows
    at another time is named by the looks it showed, when they are one number and nothing says otherwise.
    ``counted`` gives, per look, the mines around each of its cells with every mine in sight (asked only when
    a look gets a vote): a look most of whose cells count another number is not that number (a frame grabbed
    before the client answered a click, its covered tile lit under the pointer much as an empty cell, seen
    "opened" and later as the number)."""
    games = game_of_frames(grids, facts, names)
    seen: dict[tuple[int, int, int], set[int]] = {}
    for f in facts:
        if f.char == REVEALED:
            seen.setdefault((games[f.frame], f.row, f.col), set()).add(int(grids[f.frame][f.row, f.col]))
    votes: dict[int, set[str]] = {}
    for looks in seen.values():
        named = {names[k].char for k in looks if k in names}
        if len(named) != 1 or not named <= set("12345678"):
            # nothing to name it by, a cell that seems to change number (a misjudged fact), or an empty cell:
            # no number is drawn otherwise for its flags, and a covered tile lit under the pointer may look empty
            continue
        for k in looks - set(names):
            votes.setdefault(k, set()).update(named)
    counts = counted() if counted is not None and votes else {}
    for k, chars in votes.items():
        if len(chars) == 1 and not refuted(counts.get(k), next(iter(chars))):
            names[k] = Name(next(iter(chars)), "a cell seen opened showed this number in the same game")


def refuted(counts: np.ndarray | None, char: str) -> bool:
    """Whether ``counts`` (the mines around a look's cells with every mine in sight) say the look is not the
    number ``char`` (a digit): enough of them, most counting another."""
    if counts is None or len(counts) < FEW_CELLS:
        return False
    return float((counts == int(char)).mean()) < AGREEMENT


def game_of_frames(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming) -> dict[int, int]:
    """Which game each frame with facts belongs to, counted from 0: a game starts at a frame with new-board
    facts, or at one where a cell seen opened in the game is covered again (the new board's frame was left
    out: a toast lay over it)."""
    new_game = {f.frame for f in facts if f.char == "#"}
    covered_looks = [k for k, n in names.items() if n.char == "#"]
    opened: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for f in facts:
        if f.char == REVEALED:
            opened[f.frame].append((f.row, f.col))
    game, games = -1, {}
    seen_opened: list[tuple[int, int]] = []
    for i in sorted({f.frame for f in facts}):
        if game < 0 or i in new_game or any(int(grids[i][cell]) in covered_looks for cell in seen_opened):
            game, seen_opened = game + 1, []
        games[i] = game
        seen_opened.extend(opened[i])
    return games


def marks(grids: Sequence[np.ndarray], names: Naming, mines: Sequence[int], complete: set[int],
          in_play: set[int], flags: bool = True) -> None:
    """Tell the mine looks apart by the frames they appear in; what the frames do not settle stays unnamed.
    Without ``flags`` (the client has none), a mine look seen in play is no flag, and stays unnamed."""
    open_ = [k for k in mines if k not in names]
    present = [{int(k): int(n) for k, n in zip(*np.unique(g, return_counts=True), strict=True)} for g in grids]
    many = []
    for k in open_:
        frames = [i for i, p in enumerate(present) if k in p]
        most = max(present[i][k] for i in frames)
        if any(i in in_play for i in frames):
            if flags:
                names[k] = Name("F", "a mine look seen while the game was still on: a flag")
        elif most == 1 and len(frames) >= 2:
            names[k] = Name("!", "a mine look once in each frame after a loss: the mine that was clicked")
        elif most >= 2:
            many.append((k, frames))
    exploded = {k for k, name in names.items() if name.char == "!"}
    for k, frames in many:
        if exploded and not any(e in present[i] for i in frames for e in exploded):
            # every mine shown, and none gone off: a won board, on which a client flags every mine
            names[k] = Name("F", "a mine look seen many at a time, only on boards where no mine went off: the "
                                 "flags a client puts on every mine at a win")
        else:
            names[k] = Name("*", "a mine look seen many at a time, after a loss: the mines shown")
