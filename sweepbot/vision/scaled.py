"""A client's look at any cell size: a profile's templates drawn at another pitch.

A profile holds a client's looks at the cell size it was made at. A board on screen at another size (a
window resized, a desktop or browser scale, a HiDPI screen) is read with the same profile drawn at the
board's size: every template resized, the window inside a cell and a seven-segment counter's place scaled
with it. Which client a board belongs to is then decided by how each client's looks fit it
(``vision.read``), never by its cell size alone.

A client's digits are drawn anew at each size (a font is hinted for it), not scaled: a look the scaled
templates do not fit is read as an open cell of unknown number and learnt when a game shows what it is
(``vision.learn``), as a calibrated profile learns in play. What a scaled profile learns is kept in the
user's profile store, under its own name, for the next time the board is shown at that size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from sweepbot.board import NUMBERS
from sweepbot.vision import limits
from sweepbot.vision.controls import decode_look, encode_look
from sweepbot.vision.derived import derived
from sweepbot.vision.profile import SIZES_JOINED, Profile, built_in_digest, make_profile, user_profiles_dir
from sweepbot.vision.rules import NewGameControl, PlayRules

#: Cell sizes (px) a profile is drawn at: the range a board is read in.
SMALLEST, LARGEST = 10.0, 100.0
#: Pitches closer than this (px) are one size: the scaled profile made for one serves the other.
SAME_PITCH = 0.1
#: The smallest window (px, each side) a client's sizes drawn together are compared in.
MIN_WINDOW = 6


def at_pitch(profile: Profile, pitch: tuple[float, float]) -> Profile:
    """``profile`` drawn at cells of ``pitch`` (x, y): itself when that is its own size. Kept beside the
    profile, one per size asked for, for the last few sizes asked for (``vision.derived``)."""
    key = (round(pitch[0] / SAME_PITCH), round(pitch[1] / SAME_PITCH))
    if key == (round(profile.pitch[0] / SAME_PITCH), round(profile.pitch[1] / SAME_PITCH)):
        return profile
    return derived(profile, ("at pitch", key), lambda: _drawn_at(profile, (key[0] * SAME_PITCH, key[1] * SAME_PITCH)),
                   family="at pitch")


def _drawn_at(profile: Profile, pitch: tuple[float, float]) -> Profile:
    fx, fy = pitch[0] / profile.pitch[0], pitch[1] / profile.pitch[1]
    ox, oy, w, h = profile.crop
    size = (max(3, round(w * fx)), max(3, round(h * fy)))
    crop = (round(ox * fx), round(oy * fy), *size)
    shrink = fx * fy < 1
    templates = [(ch, cv2.resize(profile.template(i), size, interpolation=cv2.INTER_AREA if shrink
                                 else cv2.INTER_LINEAR)) for i, ch in enumerate(profile.labels)]
    scaled_rms = limits.LIMITS.scaled_rms
    limit = scaled_rms if profile.max_rms is None else max(profile.max_rms, scaled_rms)
    name = f"{_source_name(profile)}@{pitch[0]:.1f}px"
    return make_profile(name, profile.client, pitch, crop, templates, profile.sizes,
                        _counter_at(profile.counter, fx, fy), user_profiles_dir() / name,
                        _rules_at(profile.play, fx, fy), limit, profile.drawn_from or profile.name,
                        profile.built_in if profile.drawn_from else built_in_digest([profile]))


def _source_name(profile: Profile) -> str:
    """What a profile drawn at another size is named after: the profile it was drawn from (itself when made at
    its size), or its client for a client's sizes drawn together (``drawn_from`` joined by "+", one name per
    size kept: a name made of them all grows with every size a user plays, past what a folder's name may
    hold), as :func:`client_at_pitch` names them."""
    if not profile.drawn_from:
        return profile.name
    return profile.client if SIZES_JOINED in profile.drawn_from else profile.drawn_from


def with_kin_numbers(profile: Profile, kin: Sequence[Profile]) -> Profile:
    """A profile drawn at a board's size with the numbers of its client's other profiles drawn at the same
    size added, each cut to its window where theirs holds it: a client draws its digits anew at each size,
    and the digits of the size nearest the board's may fit where those of the profile whose tiles fit best
    do not. Itself when none adds any; made once for the same kin (kept beside the profile, as ``at_pitch``
    keeps the drawn profiles), so that a board found again is read with the same profile."""
    if not profile.drawn_from:
        return profile
    ox, oy, w, h = profile.crop

    def holds(other: Profile) -> bool:
        kx, ky, kw, kh = other.crop
        return (other is not profile and other.client == profile.client and other.pitch == profile.pitch
                and kx <= ox and ky <= oy and kx + kw >= ox + w and ky + kh >= oy + h)

    givers = [other for other in kin if holds(other) and any(ch in NUMBERS for ch in other.labels)]
    if not givers:
        return profile

    def made() -> Profile:
        extra = [(ch, other.template(i)[oy - other.crop[1]:oy - other.crop[1] + h,
                                        ox - other.crop[0]:ox - other.crop[0] + w])
                 for other in givers for i, ch in enumerate(other.labels) if ch in NUMBERS]
        own = [(ch, profile.template(i)) for i, ch in enumerate(profile.labels)]
        return make_profile(profile.name, profile.client, profile.pitch, profile.crop, own + extra, profile.sizes,
                            profile.counter, profile.folder, profile.play, profile.max_rms, profile.drawn_from,
                            profile.built_in)

    return derived(profile, ("with kin", tuple(other.name for other in givers)), made)


def client_at_pitch(profiles: Sequence[Profile], pitch: tuple[float, float]) -> Profile:
    """One client's profiles (made at other cell sizes) drawn at cells of ``pitch`` as one profile: every look
    of every size, cut to the window all of them hold. A client draws its tiles, digits and mines anew at each
    size, so that at a size between two of its own one look may fit best as drawn from the smaller size and
    another as drawn from the larger (sgt-mines at 28 px: its tiles as at 20 px, its digits as at 32 px); the
    cell is named by whichever fits. Its counter and rules are those of the size nearest the board's. Made
    once for the same profiles and size (kept beside the first), so that a board found again is read with
    the same profile."""
    ordered = sorted(profiles, key=lambda p: p.name)
    if len({p.client for p in ordered}) != 1:
        raise ValueError("the profiles of one client are drawn together, never those of several")
    if len(ordered) == 1:
        return at_pitch(ordered[0], pitch)
    key = (round(pitch[0] / SAME_PITCH), round(pitch[1] / SAME_PITCH))

    def made() -> Profile:
        drawn = [at_pitch(p, pitch) for p in ordered]
        nearest = min(zip(ordered, drawn, strict=True), key=lambda pair: abs(pair[0].pitch[0] - pitch[0]))[1]
        x0, y0 = max(p.crop[0] for p in drawn), max(p.crop[1] for p in drawn)
        x1, y1 = min(p.crop[0] + p.crop[2] for p in drawn), min(p.crop[1] + p.crop[3] for p in drawn)
        if min(x1 - x0, y1 - y0) < MIN_WINDOW:  # windows that hardly overlap: the nearest size's looks alone
            return nearest
        looks = [(ch, np.ascontiguousarray(p.template(i)[y0 - p.crop[1]:y1 - p.crop[1], x0 - p.crop[0]:x1 - p.crop[0]]))
                 for p in drawn for i, ch in enumerate(p.labels)]
        limit = max(p.max_rms for p in drawn if p.max_rms is not None)
        # the sizes of the board every profile offers (none named: any size)
        sizes = set() if any(not p.sizes for p in drawn) else {size for p in drawn for size in p.sizes}
        name = f"{ordered[0].client}@{nearest.pitch[0]:.1f}px"
        return make_profile(name, nearest.client, nearest.pitch, (x0, y0, x1 - x0, y1 - y0), looks, sizes,
                            nearest.counter, user_profiles_dir() / name, nearest.play, limit,
                            SIZES_JOINED.join(p.name for p in ordered), built_in_digest(ordered))

    return derived(ordered[0], ("client at pitch", tuple(p.name for p in ordered), key), made,
                   family="client at pitch")


def _rules_at(rules: PlayRules, fx: float, fy: float) -> PlayRules:
    """The client's rules with its new-game face or control where it lies beside a board drawn that much
    larger (a window, a page or a screen scaled as a whole), its looks resized with it."""
    changes: dict[str, Any] = {}
    if rules.face_above_board is not None:
        changes["face_above_board"] = round(rules.face_above_board * fy)
    control = rules.new_game_control
    if control is not None:
        # the looks as made too: a window resized may draw its buttons at their usual size
        looks = list(control.looks)
        for text in control.looks:
            look = decode_look(text)
            size = (max(1, round(look.shape[1] * fx)), max(1, round(look.shape[0] * fy)))
            looks.append(encode_look(cv2.resize(look, size, interpolation=cv2.INTER_AREA if fx * fy < 1
                                                else cv2.INTER_LINEAR)))
        changes["new_game_control"] = NewGameControl((round(control.offset[0] * fx), round(control.offset[1] * fy)),
                                                     tuple(looks))
    return rules.learnt(**changes) if changes else rules


def _counter_at(counter: dict[str, Any], fx: float, fy: float) -> dict[str, Any]:
    """A seven-segment counter's place and digit size scaled with the board. A text counter's glyphs as they
    are (a client's status text is set in the desktop's font, whatever the size of its cells), looked for in
    a band around its place: from where the scaled board would put it to where it was (a window sized to its
    board moves its text), widened by a quarter of its height up and down; across, the box as learnt holds
    room enough on both sides of the text (``vision.text_counter.learn_text_counter``)."""
    if counter.get("kind") == "text":
        dx, dy, w, h = counter["box"]
        x0, x1 = min(dx, round(dx * fx)), max(dx, round(dx * fx)) + w
        y0, y1 = min(dy, round(dy * fy)) - h // 4, max(dy, round(dy * fy)) + h + h // 4
        return {**counter, "box": [x0, y0, x1 - x0, y1 - y0]}
    if counter.get("kind") != "seven-segment":
        return {}
    out = dict(counter)
    out["right"], out["top"] = round(counter["right"] * fx), round(counter["top"] * fy)
    out["digit"] = [round(counter["digit"][0] * fx), round(counter["digit"][1] * fy)]
    out["step"] = counter["step"] * fx
    return out


def in_range(pitch: tuple[float, float]) -> bool:
    """Whether cells of ``pitch`` are in the range profiles are drawn at."""
    return bool(min(pitch) >= SMALLEST and max(pitch) <= LARGEST and np.isfinite(pitch).all())
