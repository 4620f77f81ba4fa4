"""A profile from frames whose cells have names: templates cut from the named cells, lined up, checked.

Every named cell's window is cut, the grid is lined up with the first templates (a located grid may be a
pixel or two off), and each character keeps its most common look plus variants for the looks that differ
(a number on another background, a tile drawn at a fractional position). Unnamed looks are kept as
``~`` templates: a cell that matches one is refused, never read as its nearest named neighbour.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from sweepbot.calibration.looks import window_crop
from sweepbot.vision import limits
from sweepbot.vision.align import align
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.distinct import distinct_rows
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import UNNAMED, Profile, make_profile

VARIANT_RMS = 8.0
#: An unnamed look this close to a named one is that one (see without_named_twins).
TWIN_RMS = 4.0
MAX_VARIANTS = 6
#: A cell size this far from a whole number of pixels means tiles drawn at fractional positions.
FRACTIONAL = 0.05
#: Characters with fewer looks than this get half-pixel moved variants there (see subpixel_variants);
#: plain tiles (pixel spread below the reader's ``flat_std``) look the same moved.
FEW_VARIANTS = 3
HALF_SHIFTS = [(dx, dy) for dx in (-0.5, 0.0, 0.5) for dy in (-0.5, 0.0, 0.5) if dx or dy]


@dataclass
class LabelledFrame:
    """A screenshot, its board's grid, and each cell's character ('' where the look has no name)."""

    image: np.ndarray
    geometry: Geometry
    labels: np.ndarray  # rows x cols '<U1'


def templates_from(
    frames: Sequence[LabelledFrame], geometries: Sequence[Geometry], crop: tuple[int, int, int, int],
    variants: int = MAX_VARIANTS,
) -> list[tuple[str, np.ndarray]]:
    """Per character, the median window of its most common look, plus up to ``variants`` - 1 other looks."""
    _, _, w, h = crop
    by_char: dict[str, list[np.ndarray]] = defaultdict(list)
    for frame, geo in zip(frames, geometries, strict=True):
        win = cell_windows(frame.image, geo, crop)
        chars = frame.labels.ravel()
        for ch in np.unique(chars):
            if ch:
                by_char[str(ch)].append(win[chars == ch])
    out: list[tuple[str, np.ndarray]] = []
    for ch in sorted(by_char):
        inst = np.concatenate(by_char[ch])
        groups = leader_groups(inst, VARIANT_RMS)
        order = sorted(range(len(groups)), key=lambda g: -len(groups[g]))[: variants if ch != UNNAMED else 24]
        for g in order:
            members = inst[groups[g][:: max(1, len(groups[g]) // 300)]]
            look = np.median(members, axis=0)
            out.append((ch, np.clip(look, 0, 255).round().astype(np.uint8).reshape(h, w, 3)))
    return out


def without_named_twins(templates: Sequence[tuple[str, np.ndarray]]) -> list[tuple[str, np.ndarray]]:
    """``templates`` less each unnamed one that is a named one's twin (within TWIN_RMS): a look told apart
    for naming only by what the profile's window leaves out (a focus ring drawn around a number) reads as
    that name anyway, and a twin left unnamed would make every such cell a tie that no read settles."""
    named = [t.astype(np.float64) for ch, t in templates if ch != UNNAMED]
    return [(ch, t) for ch, t in templates if ch != UNNAMED or not any(
        np.sqrt(((t.astype(np.float64) - n) ** 2).mean()) < TWIN_RMS for n in named)]


def leader_groups(windows: np.ndarray, within: float) -> list[list[int]]:
    """Windows grouped in order: each joins the nearest of the groups begun before it (a group's first
    window leads it) if that is within ``within`` RMS, or else begins a group. Windows alike pixel for pixel
    (a client that draws its tiles the same every time) are grouped once. Vectorised: one pass over the
    distinct windows per group begun."""
    n = len(windows)
    first, inverse = distinct_rows(windows)
    group = _leader_groups(windows.reshape(n, -1)[first], within)[inverse]
    return [list(np.flatnonzero(group == g)) for g in range(int(group.max()) + 1)] if n else []


def _leader_groups(windows: np.ndarray, within: float) -> np.ndarray:
    """Each window's group (see :func:`leader_groups`), numbered in the order the groups begin."""
    n = len(windows)
    flat = windows.reshape(n, -1).astype(np.float32)  # float32: squared distances of windows to 1 part in 10^6
    size = flat.shape[1]
    norms = (flat * flat).sum(axis=1)
    limit = within * within * size  # squared distance
    nearest = np.full(n, np.inf)
    group = np.full(n, -1)
    leader = 0
    count = 0
    while n:
        rest = slice(leader, n)
        d = norms[rest] - 2.0 * (flat[rest] @ flat[leader]) + norms[leader]
        closer = d < nearest[rest]
        nearest[rest] = np.where(closer, d, nearest[rest])
        group[rest] = np.where(closer, count, group[rest])
        group[leader] = count
        count += 1
        after = np.flatnonzero(nearest[leader + 1 :] > limit)
        if not len(after):
            break
        leader = leader + 1 + int(after[0])
    return group


def subpixel_variants(templates: Sequence[tuple[str, np.ndarray]]) -> list[tuple[str, np.ndarray]]:
    """For a board drawn at fractional positions (gnome-mines): each character seen in fewer than
    FEW_VARIANTS looks also gets its templates moved by half a pixel each way, since a rare number's one
    sample drawn half a pixel off matches nothing well (a 6 at 30 px: rms 22 as seen, 14 half a pixel over)."""
    counts = Counter(ch for ch, _ in templates)
    out = list(templates)
    for ch, template in templates:
        if ch == UNNAMED or counts[ch] >= FEW_VARIANTS or float(template.std()) < limits.LIMITS.flat_std:
            continue
        for dx, dy in HALF_SHIFTS:
            move = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], np.float32)
            out.append((ch, cv2.warpAffine(template, move, (template.shape[1], template.shape[0]),
                                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)))
    return out


def build_profile(
    name: str,
    client: str,
    frames: Sequence[LabelledFrame],
    inset: float,
    sizes: Sequence[tuple[int, int]] = (),
    extra: dict[str, Any] | None = None,
) -> tuple[Profile, list[Geometry]]:
    """The profile, and each frame's grid lined up with it."""
    geometries = [f.geometry for f in frames]
    crop = window_crop(geometries, inset)
    pitch = (float(np.mean([g.pitch[0] for g in geometries])), float(np.mean([g.pitch[1] for g in geometries])))

    def make(crop: tuple[int, int, int, int], geos: Sequence[Geometry], variants: int) -> Profile:
        return make_profile(name, client, pitch, crop, templates_from(frames, geos, crop, variants), sizes)

    # line every frame up with one look per character first, so that shifted copies never become variants
    profile = make(crop, geometries, 1)
    for _ in range(3):
        geometries = [align(f.image, g, profile) for f, g in zip(frames, geometries, strict=True)]
        profile = make(crop, geometries, 1)
    # move the window by the typical shift, so that a freshly located board needs none
    dx = round(float(np.median(np.concatenate([np.subtract(g.xs, f.geometry.xs)
                                                for f, g in zip(frames, geometries, strict=True)]))))
    dy = round(float(np.median(np.concatenate([np.subtract(g.ys, f.geometry.ys)
                                                for f, g in zip(frames, geometries, strict=True)]))))
    crop = (crop[0] + dx, crop[1] + dy, crop[2], crop[3])
    geometries = [g.shifted(-dx, -dy) for g in geometries]
    templates = without_named_twins(templates_from(frames, geometries, crop, MAX_VARIANTS))
    if any(abs(p - round(p)) > FRACTIONAL for p in pitch):
        templates = subpixel_variants(templates)
    extra = extra or {}
    profile = make_profile(name, client, pitch, crop, templates, sizes, extra.get("counter"),
                           play=extra.get("play"))
    return profile, geometries
