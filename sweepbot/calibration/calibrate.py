"""Calibration from frames: locate, group by cell size, collect looks, name them, build and check a profile.

The steps for each cell size, in order: :func:`locate_frames`, :func:`best_naming` (looks at a few window
insets, the one that names the most cells wins), :func:`labelled` frames, :func:`mine_totals` (for the
counter), :func:`build_profile`, :func:`check` (the new profile must read every named cell of every frame
as named).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from sweepbot.board import NUMBERS, OPENED, Board
from sweepbot.calibration.across import SizeNaming, other_size_hints
from sweepbot.calibration.build import LabelledFrame, build_profile
from sweepbot.calibration.facts import WON_COVERED, CalibrationError, CoveredLookMerged, Fact, Naming
from sweepbot.calibration.looks import SAME_LOOK_RMS, SPLIT_LOOK_RMS, STRICT_LOOK_RMS, Looks, collect_looks
from sweepbot.calibration.naming import name_looks
from sweepbot.vision import limits
from sweepbot.vision.cells import number_spacing
from sweepbot.vision.counter import learn_counter
from sweepbot.vision.decide import classify
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import LocateError, locate
from sweepbot.vision.profile import UNNAMED, Profile
from sweepbot.vision.rules import PlayRules

#: Window insets tried, as a fraction of the cell: a thin bevel tells covered from open on some clients,
#: tile gaps drawn at fractional positions spoil the edge on others.
INSETS = (0.05, 0.12, 0.2)
#: What a named cell the trial profile misreads costs in the choice of inset (a cell named is worth 1).
MISREAD_COST = 2
#: A calibrated profile reads a cell at up to this many times the RMS its farthest named cell had ...
TOLERANCE_FACTOR = 2.0
#: ... and at least at this RMS (a client that draws every tile pixel for pixel has 0 there).
MIN_TOLERANCE = 12.0


@dataclass
class Calibration:
    """What calibrating one cell size gave: the profile, the looks with their names, and the check."""

    profile: Profile
    looks: Looks
    names: Naming
    inset: float
    frames: list[LabelledFrame]
    misread: int  # named cells the new profile does not read as named
    frame_indices: list[int] = field(default_factory=list)

    @property
    def unnamed(self) -> list[int]:
        """Looks the game did not prove (a hint is no name)."""
        return [k for k in range(self.looks.count) if k not in self.names or not self.names[k].proved]

    def summary(self) -> dict[str, Any]:
        return {
            "profile": self.profile.name,
            "cell": [round(p, 2) for p in self.profile.pitch],
            "frames": len(self.frames),
            "looks": self.looks.count,
            "named": {str(k): {"char": n.char, "reason": n.reason, "proved": n.proved}
                      for k, n in sorted(self.names.items())},
            "unnamed": self.unnamed,
            "chars": "".join(sorted({n.char for n in self.names.values() if n.proved})),
            "misread": self.misread,
        }


def locate_frames(images: Sequence[np.ndarray], known: Sequence[Geometry | None] = ()) -> list[tuple[int, Geometry]]:
    """Each frame's board: ``known[i]`` where given (a live session's frames share one), else located."""
    out = []
    for i, image in enumerate(images):
        given = known[i] if i < len(known) else None
        if given is not None:
            out.append((i, given))
            continue
        try:
            out.append((i, locate(image)))
        except LocateError:
            continue  # a frame with no board (a dialog over it): left out
    if not out:
        raise CalibrationError("no board found in any frame")
    return out


def best_naming(
    images: Sequence[np.ndarray], geometries: Sequence[Geometry], facts: Sequence[Fact], min_cells: int,
    with_hints: bool = True, judge: bool = True,
) -> tuple[float, Looks, Naming]:
    """The inset whose looks name the most cells, and its looks and names. With ``judge``, cells that a
    profile made from the names would misread count against an inset (the live driver, which names the
    looks after every game only to choose its moves, does without: it is slow)."""
    best: tuple[tuple[bool, float], float, Looks, Naming] | None = None
    split_wanted = False
    failure: CalibrationError | None = None
    tries: list[tuple[float, float]] = [(inset, SAME_LOOK_RMS) for inset in INSETS]
    while tries:
        inset, threshold = tries.pop(0)
        looks = collect_looks(images, geometries, inset, threshold)
        try:
            names = name_looks(looks, facts, min_cells, with_hints)
        except CoveredLookMerged as err:
            failure = err
            if threshold > SPLIT_LOOK_RMS:
                tries.insert(0, (inset, SPLIT_LOOK_RMS))  # the same windows, grouped more strictly
            continue
        except CalibrationError as err:
            failure = err
            continue
        # a new board drawn as one look (no covered cell split into variants) first, then the most cells named,
        # less those a profile made from the names would misread (looks alike with different names: a
        # naming gone wrong); an opened cell whose number is not known is not named yet
        named = int(sum(looks.counts[k] for k, n in names.items() if n.proved and n.char != OPENED))
        if judge:
            frames = labelled(images, geometries, looks, names)
            profile, aligned = build_profile("trial", "trial", frames, inset)
            named -= MISREAD_COST * check(profile, frames, aligned, levels=False)
        key = (_new_board_share(looks) >= 0.95, named)
        # tried for a number look of unlike cells: on a tie, the finer grouping (two tiles grouped as one are
        # named as one)
        finer = threshold == STRICT_LOOK_RMS and split_wanted
        if best is None or key > best[0] or (finer and key == best[0]):
            best = (key, inset, looks, names)
        unproved = any(k not in best[3] or not best[3][k].proved for k in range(best[2].count))
        mixed_named = bool(best[2].mixed(STRICT_LOOK_RMS) & {k for k, n in best[3].items() if n.char in NUMBERS})
        if not tries and threshold == SAME_LOOK_RMS and (unproved or mixed_named):
            # a look left unnamed may be several tiles drawn alike (small digits all in one colour, drawn pixel
            # for pixel the same): grouped more strictly, they may each be proved; and a number look whose
            # cells are not all alike may hold a second number its counts never saw apart (a 4 among 1s)
            tries.append((best[1], STRICT_LOOK_RMS))
            split_wanted = mixed_named
    if best is None:
        raise failure or CalibrationError("no frames to calibrate from")
    return best[1], best[2], best[3]


def _new_board_share(looks: Looks) -> float:
    """The largest share of a frame that one look fills (a new board: every cell covered)."""
    return max(float(np.bincount(g.ravel()).max()) / g.size for g in looks.grids)


def labelled(images: Sequence[np.ndarray], geometries: Sequence[Geometry], looks: Looks,
             names: Naming) -> list[LabelledFrame]:
    table = np.array([names[k].char if k in names else UNNAMED for k in range(looks.count)])
    return [LabelledFrame(img, geo, table[grid])
            for img, geo, grid in zip(images, geometries, looks.grids, strict=True)]


def mine_totals(frames: Sequence[LabelledFrame], won: set[int] = frozenset()) -> list[int | None]:  # type: ignore[assignment]
    """Each frame's mine total where the frames show it: a loss that shows every mine, a win where every
    mine is flagged, or a frame the game proved won (``won``: its covered cells and flags are the mines);
    other frames of the same board size take that size's total when all such frames agree.
    A frame with a look not named (a wrong flag, say) or a question mark tells no total: either may be on a
    mine or not (a client may leave question marks in place at a loss)."""
    own: list[int | None] = []
    for i, f in enumerate(frames):
        chars = f.labels
        shown = int(np.isin(chars, list("*!F")).sum())
        covered = int(np.isin(chars, list("#?")).sum())
        if (chars == UNNAMED).any() or (chars == "?").any():
            own.append(None)
        elif i in won and "!" not in chars and "*" not in chars:
            own.append(covered + shown)
        elif "*" in chars or ("!" not in chars and covered == 0 and "F" in chars):
            own.append(shown)
        else:
            own.append(None)
    by_size: dict[tuple[int, int], set[int]] = defaultdict(set)
    for f, total in zip(frames, own, strict=True):
        if total is not None:
            by_size[f.labels.shape].add(total)
    return [total if total is not None else (next(iter(by_size[f.labels.shape])) if len(by_size[f.labels.shape]) == 1
                                             else None)
            for f, total in zip(frames, own, strict=True)]


def check(profile: Profile, frames: Sequence[LabelledFrame], geometries: Sequence[Geometry],
          levels: bool = True) -> int:
    """How many named cells the profile reads as something else (``levels``: as :func:`classify`)."""
    bad = 0
    for f, g in zip(frames, geometries, strict=True):
        scores = classify(f.image, g, profile, levels=levels)
        named = f.labels != UNNAMED
        bad += int(((scores.chars != f.labels) & named).sum())
    return bad


def calibrate_frames(
    images: Sequence[np.ndarray],
    client: str,
    facts: Sequence[Fact] = (),
    play: PlayRules | None = None,
    min_cells: int = 3,
    geometries: Sequence[Geometry | None] = (),
    fixed_sizes: bool = False,
    with_hints: bool = True,
) -> list[Calibration]:
    """One calibration per cell size found in ``images`` (facts refer to indices into ``images``;
    ``geometries`` gives the board of frames where it is known). With ``fixed_sizes`` (a client that plays
    only a few board sizes at each cell size, such as ace-minesweeper's levels) each profile keeps the board
    sizes its frames showed, and fits only those. The profiles hold only what the frames prove; with ``with_hints``
    the other looks carry a hint in ``names`` (``proved=False``), for the sheet a user looks at."""
    located = locate_frames(images, geometries)
    groups: dict[int, list[tuple[int, Geometry]]] = defaultdict(list)
    for i, geo in located:
        groups[round(geo.pitch[0])].append((i, geo))
    named: list[tuple[list[tuple[int, Geometry]], SizeNaming]] = []
    for pitch, members in sorted(groups.items()):
        index = {i: n for n, (i, _) in enumerate(members)}
        own = [Fact(index[f.frame], f.row, f.col, f.char) for f in facts if f.frame in index]
        inset, looks, names = best_naming([images[i] for i, _ in members], [g for _, g in members], own,
                                          min_cells, with_hints)
        named.append((members, SizeNaming(pitch, inset, looks, names)))
    if with_hints:
        other_size_hints([size for _, size in named])
    out = []
    for members, size in named:
        own_index = {i: n for n, (i, _) in enumerate(members)}
        imgs = [images[i] for i, _ in members]
        geos = [g for _, g in members]
        looks, names = size.looks, size.names
        # the profile holds only what the game proved; a hint is shown on the sheet, never read as a name
        frames = labelled(imgs, geos, looks, {k: n for k, n in names.items() if n.proved})
        # the boards a counter is learnt from may lean on hints: a counter is kept only if it reads them all
        hinted = labelled(imgs, geos, looks, names)
        won = {own_index[f.frame] for f in facts if f.char == WON_COVERED and f.frame in own_index}
        samples = [(f.image, f.geometry, Board(tuple("".join(r) for r in np.where(f.labels == UNNAMED, "#", f.labels)),
                                               total))
                   for i, (f, total) in enumerate(zip(hinted, mine_totals(hinted, won), strict=True))
                   if total is not None and i not in won]  # a won board's counter may show 0 or the total
        counter = learn_counter(samples, client) if samples else {}
        rules = play or PlayRules()
        if not counter and not rules.mines and (totals := known_totals(frames, won)):
            # no counter on screen: the totals the games proved (a won board's covered cells), for play
            rules = rules.learnt(mines=totals)
        sizes = sorted({(g.rows, g.cols) for g in geos}) if fixed_sizes else []
        profile, aligned = build_profile(f"{client}-{size.pitch}px", client, frames, size.inset, sizes,
                                         extra={"counter": counter, "play": rules})
        profile = replace(profile, max_rms=tolerance(profile, frames, aligned))
        out.append(Calibration(profile, looks, names, size.inset, frames, check(profile, frames, aligned),
                               [i for i, _ in members]))
    return out


def known_totals(frames: Sequence[LabelledFrame], won: set[int]) -> list[list[int]]:
    """The mine total of each board size whose frames prove one (see :func:`mine_totals`), as [rows, cols,
    total] rows: for play on a client that shows no counter. A size whose frames tell two totals (a game
    judged won that was not: a safe cell left covered counts as a mine) keeps the least, if two frames tell
    it; else none, and play learns it from the games it wins."""
    sizes: dict[tuple[int, int], list[int]] = defaultdict(list)
    for f, total in zip(frames, mine_totals(frames, won), strict=True):
        if total is not None:
            sizes[f.labels.shape].append(total)
    return [[rows, cols, min(totals)] for (rows, cols), totals in sorted(sizes.items())
            if len(set(totals)) == 1 or totals.count(min(totals)) >= 2]


def tolerance(profile: Profile, frames: Sequence[LabelledFrame], geometries: Sequence[Geometry]) -> float | None:
    """How far a cell may be from its template and still be read: TOLERANCE_FACTOR times the farthest named
    cell of the frames, at least MIN_TOLERANCE, but under half the distance between the two closest numbers
    (digits drawn small and in one colour: a digit never seen is about as far from the others as they are
    from each other, and must not be taken for one); None (the reader's own) for a client whose named cells
    are far from their templates already (tiles drawn at fractional positions)."""
    worst = 0.0
    for f, g in zip(frames, geometries, strict=True):
        named = f.labels != UNNAMED
        if named.any():
            worst = max(worst, float(classify(f.image, g, profile, levels=False).rms[named].max()))
    seen = TOLERANCE_FACTOR * worst
    limit = max(MIN_TOLERANCE, seen)
    limit = min(limit, max(seen, number_spacing(profile) / 2))
    return limit if limit < limits.LIMITS.max_rms else None

