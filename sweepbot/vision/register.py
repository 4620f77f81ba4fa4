"""Looks drawn at another size registered at a board's pixels (:func:`registered`).

A client draws each of its sizes' looks at its own place in the cell: drawn at the board's size, one look may
fit the board's cells a pixel or two off the others (sgt-mines's 12 px covered tiles drawn at 20 px, 1 px down
and right; its flags, 2 px). Every cell of such a look is then refused where it is and named by a second look
(``vision.shifted``), a search of every move of its window, on every frame a board is read afresh. Once a board
shows where each such look lies, the profile is drawn again with every look at that place: the windows cut a
few pixels smaller (by the span of the moves) and each look cut from its template where the board shows it,
so that its cells are named where they are, by the one pass over the board's cells. A profile registered so
is registered again from the profile it was drawn as: a look a later board shows off takes its move from
there, and the windows stay within the table's share of the drawn ones however many boards move a look. A
text counter (a status line below the board) is looked for by a drawn profile in a band two or three lines
tall; once the board shows the line its text is on, the box is narrowed to that line.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.cells import CellScores
from sweepbot.vision.derived import derived, derived_before
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile, make_profile
from sweepbot.vision.text_counter import box_at_line, text_counter_line

#: A move of a look (rows down, columns across, px), by the look's index.
Moves = dict[int, tuple[int, int]]


@dataclass(frozen=True)
class Registration:
    """What a registered profile was made from: the profile drawn at the board's size (held weakly: a
    registered profile must not keep it alive, as the drawn profile keeps what is made from it), each look's
    move from it, and the text counter's box (None: the drawn profile's)."""

    drawn: weakref.ref[Profile]
    moves: Moves
    box: list[int] | None


def registration(profile: Profile) -> tuple[Profile, Moves, list[int] | None]:
    """The profile ``profile`` was registered from, the looks' moves from it and the counter's box: ``profile``
    itself, no move and no box when it is not a registered profile (or the one it came from is gone)."""
    made: Registration | None = derived_before(profile, "registration")
    drawn = None if made is None else made.drawn()
    if made is None or drawn is None:
        return profile, {}, None
    return drawn, made.moves, made.box


def registered(profile: Profile, scores: CellScores, image: np.ndarray, geometry: Geometry) -> Profile:
    """``profile`` (drawn at another size) with each look that the board (``scores``: its read with the
    profile on ``image`` at ``geometry``, second looks kept in its track) showed a few pixels off moved to where
    the board shows it (:func:`board_moves`), and a text counter's box narrowed to the line the board shows its
    text on (:func:`counter_line`); ``profile`` itself when neither changes, or the profile was made at the
    board's size (its looks are the client's own at this size), or its looks were fitted to the screen's
    brightness. A registered profile is registered again from the profile it was drawn as (:func:`registration`),
    each look's move added to the one it had. Made once for the same moves and box (kept beside the drawn
    profile), so that a board read again is read with the same profile."""
    if not profile.drawn_from or scores.leveled:
        return profile
    drawn, before, narrowed = registration(profile)
    moves = board_moves(drawn, scores, before)
    box = counter_line(profile, image, geometry) or narrowed
    if moves == before and box == narrowed:
        return profile
    key = (tuple(sorted(moves.items())), None if box is None else tuple(box))

    def made() -> Profile:
        moved = _moved(drawn, moves, box)
        derived(moved, "registration", lambda: Registration(weakref.ref(drawn), moves, box))
        return moved

    return derived(drawn, ("registered", key), made, family="registered")


def counter_line(profile: Profile, image: np.ndarray, geometry: Geometry) -> list[int] | None:
    """A drawn profile's text counter box narrowed to the line the board shows its text on (None: no text
    counter, the text not read, or the box no taller than that). A drawn profile looks for its client's text
    in a band from where the board drawn larger or smaller would put it to where it was (``vision.scaled``),
    two or three lines tall, and every frame read afresh looks through all of it."""
    spec = profile.counter
    if spec.get("kind") != "text":
        return None
    found = text_counter_line(image, geometry, spec)
    if found is None:
        return None
    box = box_at_line(geometry, spec, found[1])
    return box if box[3] < spec["box"][3] else None


def board_moves(drawn: Profile, scores: CellScores, before: Moves | None = None) -> Moves:
    """The looks' moves from ``drawn`` (the profile drawn at the board's size) that the board (``scores``, read
    with ``drawn`` registered by the moves ``before``, or with ``drawn`` itself) shows: those ``before``, and
    each look whose cells the board names by a second look, at least the table's ``register_cells`` of them,
    every one by the same move, and more than it names where they are (a look of few edges, an empty cell,
    may fit a cell in place and a pixel off alike), that move added to the look's move before; the most seen
    first, while the moves' span leaves ``drawn``'s window its ``register_inset_share``."""
    before = {} if before is None else before
    track = scores.track
    if track is None or not len(track.looks.cells):
        return dict(before)
    table = limits.LIMITS
    named = scores.accepted.reshape(-1)
    best = scores.best.reshape(-1)
    plain = track.plain.scores.rms.reshape(-1)
    looked = np.zeros(len(named), bool)
    looked[track.looks.cells] = True
    moves: dict[int, set[tuple[int, int]]] = defaultdict(set)
    counts: dict[int, int] = defaultdict(int)
    for cell, look in zip(track.looks.cells.tolist(), track.looks.found, strict=True):
        # a cell named by its second look (the read took the look: nearer than where the window is)
        if named[cell] and look.best == best[cell] and look.rms < plain[cell]:
            moves[look.best].add(look.move)
            counts[look.best] += 1
    in_place = np.bincount(best[named & ~looked], minlength=len(drawn.labels))
    wanted = [t for t, seen in moves.items() if len(seen) == 1 and seen != {(0, 0)}
              and counts[t] >= table.register_cells and counts[t] > in_place[t]]
    _, _, w, h = drawn.crop
    taken: Moves = dict(before)
    for t in sorted(wanted, key=lambda t: (-counts[t], t)):
        (dy, dx), (by, bx) = next(iter(moves[t])), before.get(t, (0, 0))
        trial = {k: m for k, m in {**taken, t: (by + dy, bx + dx)}.items() if m != (0, 0)}
        dys, dxs = [m[0] for m in trial.values()] + [0], [m[1] for m in trial.values()] + [0]
        if (max(dys) - min(dys) <= table.register_inset_share * h
                and max(dxs) - min(dxs) <= table.register_inset_share * w):
            taken = trial
    return taken


def _moved(profile: Profile, moves: Moves, box: list[int] | None) -> Profile:
    """``profile`` with its window cut by the moves' span and every look cut where its move puts it, and its
    text counter's ``box`` (None: as it is)."""
    ox, oy, w, h = profile.crop
    dys, dxs = [m[0] for m in moves.values()] + [0], [m[1] for m in moves.values()] + [0]
    top, left = max(dys), max(dxs)
    height, width = h - top + min(dys), w - left + min(dxs)
    looks = []
    for i, ch in enumerate(profile.labels):
        dy, dx = moves.get(i, (0, 0))
        # the board's pixel (top + j, left + i) of the window lies at the look's (top + j - dy, left + i - dx)
        cut = profile.template(i)[top - dy:top - dy + height, left - dx:left - dx + width]
        looks.append((ch, np.ascontiguousarray(cut)))
    return make_profile(profile.name, profile.client, profile.pitch, (ox + left, oy + top, width, height), looks,
                        profile.sizes, profile.counter if box is None else {**profile.counter, "box": box},
                        profile.folder, profile.play, profile.max_rms,
                        profile.drawn_from, profile.built_in)
