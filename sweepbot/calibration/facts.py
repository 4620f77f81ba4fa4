"""What naming starts from: the facts a live calibration sees happen, the names looks are given, and the
names the facts give.

A fact is one cell's character in one frame, seen in play: every cell covered before the first click, a flag
or a question mark after right-clicks, the mine clicked last at a loss; or one of the characters below for
what play shows without naming it (a cell opened, a cell that changed at a loss): the counts name those.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sweepbot.errors import SweepbotError

#: The share of a look's facts that may disagree with the rest (a misjudged click) before it is an error.
FACT_DOUBT = 0.25
#: The share of the opened cells that may look like covered ones (a misjudged click) before the windows are
#: known to miss what tells them apart: empty cells are a fifth to a third of the opened ones.
OPENED_AS_COVERED = 0.1


class CalibrationError(SweepbotError):
    """The frames do not let a profile be made."""


class CoveredLookMerged(CalibrationError):
    """Opened cells fell into the covered look: the windows, or the grouping, miss what tells them apart."""


@dataclass(frozen=True)
class Fact:
    """Something the calibration saw happen: in frame ``frame``, cell (row, col) is ``char``."""

    frame: int
    row: int
    col: int
    char: str


@dataclass(frozen=True)
class Name:
    """A look's name: its character, why it has it, and whether the frames prove it."""

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
#: A fact's character for "the game was won here and this cell is still covered": a client that leaves the
#: mines covered at a win (its frame's covered cells and flags are every mine), put on the cell whose click
#: the finished game no longer took. It names no look.
WON_COVERED = "$"
#: The fact characters for a cell that changed at a loss: what the look is, the counts tell.
CHANGED_AT_LOSS = (AT_LOSS, FLAG_AT_LOSS, QUESTION_AT_LOSS)
#: Why a look has the name its facts give it.
FACT_REASONS = {
    "#": "every cell before the first click",
    "F": "a right-clicked cell turned into it",
    "?": "a second right-click turned the flag into it",
    "!": "the cell clicked last when the game was lost",
    "*": "appeared on covered cells when the game was lost",
    "X": "a flagged cell that was not a mine, after the loss",
}


def from_facts(grids: Sequence[np.ndarray], facts: Sequence[Fact], names: Naming) -> set[int]:
    """Each look takes the name its facts give it; a look given two names by nearly as many facts each is
    an error (the board moved or changed while calibrating); a stray fact or two is outvoted. Returns the
    looks that changed at a loss (mines, or covered cells drawn another way): the counts name them later."""
    votes = look_votes(grids, facts)
    opened = sum(counts[REVEALED] for counts in votes.values())
    at_loss: set[int] = set()
    for look, counts in votes.items():
        if counts["#"] and counts[REVEALED] >= 2 and counts[REVEALED] > OPENED_AS_COVERED * opened:
            # opened cells drawn as the covered look: these windows miss what tells them apart (a bevel)
            raise CoveredLookMerged(f"{counts[REVEALED]} of {opened} opened cells look like covered ones")
        if counts[REVEALED] and counts[AT_LOSS]:
            # a look that opened cells show cannot be a covered cell changed by the loss: those were cells a
            # click just before had opened, drawn late (xdemineur), and are left out
            del counts[AT_LOSS]
        # the characters of cells that changed at a loss agree with each other: the counts tell what they are
        # (a wrong flag DangerUXB takes off shows the number under it, as a covered cell does at its loss)
        kinds: Counter[str] = Counter()
        for ch, m in counts.items():
            kinds[AT_LOSS if ch in CHANGED_AT_LOSS else ch] += m
        (kind, n), *rest = kinds.most_common()
        against = sum(m for _, m in rest)
        if against >= 2 and against > FACT_DOUBT * (n + against):
            raise CalibrationError(
                f"one look was seen as {dict(counts)}: the board moved or changed while calibrating"
            )
        if kind == AT_LOSS:
            at_loss.add(look)
        elif kind != REVEALED:
            names[look] = Name(kind, FACT_REASONS.get(kind, "seen in play"))
    return at_loss


def mostly(grids: Sequence[np.ndarray], facts: Sequence[Fact], char: str, among: Sequence[str]) -> set[int]:
    """The looks whose facts of the kinds ``among`` are mostly ``char``."""
    votes = look_votes(grids, [f for f in facts if f.char in among])
    return {look for look, counts in votes.items() if counts[char] * 2 > sum(counts.values())}


def look_votes(grids: Sequence[np.ndarray], facts: Sequence[Fact]) -> dict[int, Counter[str]]:
    """For each look, how many facts gave it each character (a won game's marker names no look: left out)."""
    votes: dict[int, Counter[str]] = defaultdict(Counter)
    for f in facts:
        if f.char != WON_COVERED:
            votes[int(grids[f.frame][f.row, f.col])][f.char] += 1
    return votes
