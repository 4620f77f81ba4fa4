"""The mines-left counter a client shows near its board: seven-segment displays (xdemineur, ace) here,
text (sgt-mines, gnome-mines) in :mod:`sweepbot.vision.text_counter`.

A profile's ``counter`` entry says where the display is, relative to the board's top-left corner, in the
profile's pixels::

    "counter": {"kind": "seven-segment", "colour": [0, 0, 255], "right": -12, "top": -60,
                "digit": [13, 23], "step": 16, "digits": 4}

``right`` is the x of the right edge of the last digit, ``top`` the y of the digits' top, ``digit`` a
digit's width and height, ``step`` the distance between digits. Digits are read right to left until a
blank one; a digit with only the middle bar lit is a minus sign.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from sweepbot.board import Board
from sweepbot.rect import Rect
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile
from sweepbot.vision.text_counter import flags_placed, learn_text_counter, read_text_counter, text_box

#: Segment zones as fractions of the digit box: x0, x1, y0, y1.
SEGMENTS = {
    "a": (0.3, 0.7, 0.0, 0.13),
    "b": (0.78, 1.0, 0.17, 0.4),
    "c": (0.78, 1.0, 0.6, 0.83),
    "d": (0.3, 0.7, 0.87, 1.0),
    "e": (0.0, 0.22, 0.6, 0.83),
    "f": (0.0, 0.22, 0.17, 0.4),
    "g": (0.3, 0.7, 0.43, 0.57),
}
DIGITS = {
    "abcdef": 0, "bc": 1, "abdeg": 2, "abcdg": 3, "bcfg": 4, "acdfg": 5, "acdefg": 6, "cdefg": 6,
    "abc": 7, "abcf": 7, "abcdefg": 8, "abcdfg": 9, "abcfg": 9,
}
COLOUR_TOLERANCE = 70


def lit_mask(image: np.ndarray, colour: Sequence[int], tol: int = COLOUR_TOLERANCE) -> np.ndarray:
    diff = cv2.absdiff(image, np.array(colour, np.uint8).reshape(1, 1, 3) * np.ones_like(image))
    return (diff.max(axis=2) <= tol) if diff.size else np.zeros(image.shape[:2], bool)


def _segments(mask: np.ndarray) -> str:
    h, w = mask.shape
    lit = ""
    for name, (x0, x1, y0, y1) in SEGMENTS.items():
        zone = mask[int(y0 * h) : max(int(y0 * h) + 1, round(y1 * h)),
                    int(x0 * w) : max(int(x0 * w) + 1, round(x1 * w))]
        if zone.size and zone.mean() >= 0.3:
            lit += name
    return lit


def decode(mask: np.ndarray, right: int, top: int, dw: int, dh: int, step: float, digits: int) -> int | None:
    """The number on a seven-segment display in ``mask``; None when a digit is not a digit."""
    value = 0
    place = 1
    for i in range(digits):
        x1 = round(right - i * step)
        x0 = x1 - dw
        if x0 < 0 or top < 0 or top + dh > mask.shape[0] or x1 > mask.shape[1]:
            return None if i == 0 else value
        lit = _segments(mask[top : top + dh, x0:x1])
        if not lit:
            return value if i else None
        if lit == "g":
            return -value
        digit = DIGITS.get(lit)
        if digit is None:
            return None
        value += digit * place
        place *= 10
    return value


def read_counter(image: np.ndarray, geometry: Geometry, profile: Profile) -> int | None:
    """The mines-left counter, or None when the profile has none or it cannot be read."""
    spec = profile.counter
    if spec.get("kind") == "text":
        fraction = read_text_counter(image, geometry, spec)
        return None if fraction is None else fraction[1] - fraction[0]
    if spec.get("kind") != "seven-segment":
        return None
    dw, dh = spec["digit"]
    x0, y0, x1, y1 = _digits_box(geometry, spec)
    region = image[y0:y1, x0:x1]
    if region.shape[0] != dh or region.size == 0:
        return None
    mask = lit_mask(region, spec["colour"])
    return decode(mask, x1 - x0, 0, dw, dh, float(spec["step"]), int(spec["digits"]))


def _digits_box(geometry: Geometry, spec: dict[str, Any]) -> tuple[int, int, int, int]:
    """Left, top, right and bottom of a seven-segment counter's digits (left and top at least 0)."""
    bx, by, _, _ = geometry.bbox
    dw, dh = spec["digit"]
    right, top = bx + int(spec["right"]), by + int(spec["top"])
    x0 = max(0, int(right - spec["step"] * spec["digits"] - dw))
    return x0, max(0, top), max(x0, right), top + dh


def counter_pixels(image: np.ndarray, geometry: Geometry, profile: Profile) -> np.ndarray | None:
    """The pixels :func:`read_counter` reads (a view into ``image``); None when the profile has no counter.
    The same pixels read as the same count."""
    area = counter_area(geometry, profile)
    return None if area is None else image[area.y:area.bottom, area.x:area.right]


def counter_area(geometry: Geometry, profile: Profile) -> Rect | None:
    """The rectangle of the image that :func:`read_counter` reads; None when the profile has no counter."""
    kind = profile.counter.get("kind")
    if kind not in ("seven-segment", "text"):
        return None
    x0, y0, x1, y1 = (_digits_box if kind == "seven-segment" else text_box)(geometry, profile.counter)
    return Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def _displays(image: np.ndarray, geometry: Geometry) -> list[dict[str, Any]]:
    """Candidate seven-segment displays above the board: runs of lit columns in one saturated colour."""
    bx, by, bw, _ = geometry.bbox
    pw, ph = geometry.pitch
    y0 = max(0, int(by - 12 * ph))
    x0 = max(0, int(bx - 2 * pw))
    area = image[y0:by, x0 : int(bx + bw + 2 * pw)]
    if area.size == 0:
        return []
    hsv = cv2.cvtColor(area, cv2.COLOR_BGR2HSV)
    vivid = (hsv[:, :, 1] > 150) & (hsv[:, :, 2] > 150)
    colours, counts = np.unique(area[vivid].reshape(-1, 3), axis=0, return_counts=True)
    out: list[dict[str, Any]] = []
    for colour in colours[np.argsort(-counts)][:4]:
        mask = lit_mask(area, colour.tolist(), 40).astype(np.uint8)
        merged = cv2.dilate(mask, np.ones((9, 9), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(merged, connectivity=8)
        for i in range(1, n):
            x, y, w, h, _ = stats[i]
            part = mask[y : y + h, x : x + w]
            rows = np.nonzero(part.any(axis=1))[0]
            if len(rows) == 0:
                continue
            top, bottom = int(rows[0]), int(rows[-1]) + 1
            cols = part[top:bottom].any(axis=0)
            runs: list[tuple[int, int]] = []
            start = None
            for j, on in enumerate([*np.asarray(cols, bool).tolist(), False]):
                if on and start is None:
                    start = j
                elif not on and start is not None:
                    runs.append((start, j))
                    start = None
            if not runs or bottom - top < 7:
                continue
            dw = max(b - a for a, b in runs)
            ends = [b for _, b in runs]
            step = float(np.median(np.diff(ends))) if len(ends) > 1 else dw * 1.25
            out.append({
                "colour": [int(c) for c in colour],
                "right": int(x0 + x + ends[-1] - bx), "top": int(y0 + y + top - by),
                "digit": [int(dw), int(bottom - top)], "step": round(step, 2), "digits": len(runs),
            })
    return out


#: Of the samples with marks on the board, the share a counter must read right: clients count flags their own
#: way at times (a flag opened by an opening still counted, say), but a display that shows something else
#: than the mines left reads wrong on most samples.
MARKED_AGREEMENT = 0.8


def counter_fits(values: Sequence[int | None], samples: Sequence[tuple[int, bool]]) -> bool:
    """Whether a display that read ``values`` counts the mines left: it reads a number on every sample
    (``samples``: the mines left and whether marks are on the board), the right one on every sample with no
    marks, and on at least MARKED_AGREEMENT of those with marks."""
    if any(v is None for v in values) or not values:
        return False
    plain = [v == want for v, (want, marked) in zip(values, samples, strict=True) if not marked]
    marked = [v == want for v, (want, marked) in zip(values, samples, strict=True) if marked]
    return all(plain) and (not marked or sum(marked) >= MARKED_AGREEMENT * len(marked)) and bool(plain or marked)


def learn_counter(samples: Sequence[tuple[np.ndarray, Geometry, Board]], client: str) -> dict[str, Any]:
    """A seven-segment mines-left display that shows ``mines - flags`` on the samples (see
    :func:`counter_fits`), or {} if none."""
    known = [(img, geo, b.mines - flags_placed(b.grid)) for img, geo, b in samples if b.mines is not None]
    if not known:
        return {}
    wants = [(b.mines - flags_placed(b.grid), any(ch in row for row in b.grid for ch in "FX?"))
             for _, _, b in samples if b.mines is not None]
    displays = [_displays(img, geo) for img, geo, _ in known]
    for cands in displays:
        for cand in cands:
            spec = {"kind": "seven-segment", **cand}
            # as many digits as the display ever showed lit at this place (leading zeros or blanks)
            spec["digits"] = max(c["digits"] for cs in displays for c in cs
                                 if abs(c["right"] - cand["right"]) <= 2 and abs(c["top"] - cand["top"]) <= 2)
            fake = Profile("probe", client, (0.0, 0.0), (0, 0, 1, 1), ("#",), np.zeros((1, 3), np.float32),
                           counter=spec)
            if counter_fits([read_counter(i, g, fake) for i, g, _ in known], wants):
                return spec
    return learn_text_counter(samples)
