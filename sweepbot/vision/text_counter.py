"""Text counters such as sgt-mines's ``Marked: 3 / 99`` and gnome-mines's ``3/99``: flags and total.

The profile's ``counter`` entry says where the text is relative to the board's top-left corner and holds
one small mask per character seen (``#`` ink, ``.`` background), so a person can read and edit it::

    "counter": {"kind": "text", "anchor": "bottom-left", "box": [-10, 30, 260, 24],
                "glyphs": {"9": [".##.", "#..#", ...], ...}}

``box`` is x, y, w, h from the board corner ``anchor`` (the text below a board moves with its bottom edge).

Glyphs are dark (or light) connected shapes against the text's background; each is matched to the glyph
masks by overlap; the first ``number / number`` in the text is flags / total.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import cv2
import numpy as np

from sweepbot.board import FLAG, WRONG_FLAG, Board
from sweepbot.vision.geometry import Geometry


def flags_placed(grid: Sequence[str]) -> int:
    """Flags the player has put down, as counters count them (a wrong flag shown at a loss is one)."""
    return sum(row.count(FLAG) + row.count(WRONG_FLAG) for row in grid)

INK_CONTRAST = 70
MIN_OVERLAP = 0.85
_FRACTION = re.compile(r"(?:^| )(\d+) ?/ ?(\d+)(?: |$)")


@dataclass(frozen=True)
class Glyph:
    x: int
    y: int
    mask: np.ndarray  # bool, h x w

    @property
    def w(self) -> int:
        return int(self.mask.shape[1])

    @property
    def h(self) -> int:
        return int(self.mask.shape[0])


def glyphs(region: np.ndarray) -> list[Glyph]:
    """Ink shapes in a BGR region, left to right; parts above one another (``:``, ``i``) join."""
    if region.size == 0:
        return []
    gray = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    background = cv2.medianBlur(gray, 15)  # the ground around each stroke, wherever the text sits
    ink = (cv2.absdiff(gray, background) > INK_CONTRAST).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    boxes = [list(map(int, stats[i, :4])) for i in range(1, n) if 1 <= stats[i, 3] <= 40 and stats[i, 2] <= 30]
    boxes.sort()
    merged: list[list[int]] = []
    for x, y, w, h in boxes:
        for m in merged:
            mx, my, mw, mh = m
            near = y <= my + mh + max(2, mh // 2) and my <= y + h + max(2, h // 2)
            dot = min(w * h, mw * mh) <= 9  # an i's dot, a colon's points
            if near and dot and x < mx + mw and x + w > mx:  # overlapping columns: one glyph
                x0, y0 = min(mx, x), min(my, y)
                m[:] = [x0, y0, max(mx + mw, x + w) - x0, max(my + mh, y + h) - y0]
                break
        else:
            merged.append([x, y, w, h])
    return [Glyph(x, y, ink[y : y + h, x : x + w].astype(bool)) for x, y, w, h in merged]


def _text_lines(items: list[Glyph]) -> list[list[Glyph]]:
    lines: list[list[Glyph]] = []
    for g in sorted(items, key=lambda g: (g.y + g.h / 2, g.x)):
        for line in lines:
            ref = max(line, key=lambda q: q.h)
            if abs((g.y + g.h / 2) - (ref.y + ref.h / 2)) <= max(3, ref.h * 0.35):
                line.append(g)
                break
        else:
            lines.append([g])
    return [sorted(line, key=lambda g: g.x) for line in lines]


def _mask_text(mask: np.ndarray) -> list[str]:
    return ["".join("#" if v else "." for v in row) for row in mask]


def _mask_of(rows: list[str]) -> np.ndarray:
    return (np.frombuffer("".join(rows).encode("ascii"), np.uint8) == ord("#")).reshape(len(rows), -1)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    if abs(a.shape[0] - b.shape[0]) > 1 or abs(a.shape[1] - b.shape[1]) > 1:
        return 0.0
    h, w = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])
    pa = np.zeros((h, w), bool)
    pb = np.zeros((h, w), bool)
    pa[: a.shape[0], : a.shape[1]] = a
    pb[: b.shape[0], : b.shape[1]] = b
    union = (pa | pb).sum()
    return float((pa & pb).sum() / union) if union else 0.0


def _gap(a: Glyph, b: Glyph) -> bool:
    """Whether a space separates two glyphs on a line."""
    return b.x - (a.x + a.w) > max(3, 0.3 * max(a.h, b.h))


def text_of(items: list[Glyph], known: dict[str, list[np.ndarray]]) -> str:
    """The glyphs as text: known characters, ``~`` for others, a space at each wider gap."""
    out = ""
    prev: Glyph | None = None
    for g in items:
        if prev is not None and _gap(prev, g):
            out += " "
        best, score = "~", MIN_OVERLAP
        for ch, masks in known.items():
            for m in masks:
                s = _overlap(g.mask, m)
                if s >= score:
                    best, score = ch, s
        out += best
        prev = g
    return out


def read_text_counter(image: np.ndarray, geometry: Geometry, spec: dict[str, Any]) -> tuple[int, int] | None:
    """``(flags, total)`` from the text at the profile's box, or None when it cannot be read."""
    found = text_counter_line(image, geometry, spec)
    return None if found is None else found[0]


def text_counter_line(image: np.ndarray, geometry: Geometry, spec: dict[str, Any]) \
        -> tuple[tuple[int, int], tuple[int, int]] | None:
    """``(flags, total)`` from the text at the profile's box, and the top and bottom rows of the image the
    line it is read on spans; None when it cannot be read."""
    x0, y0, x1, y1 = text_box(geometry, spec)
    region = image[y0:y1, x0:x1]
    known = {ch: [_mask_of(rows) for rows in variants] for ch, variants in spec["glyphs"].items()}
    for line in _text_lines(glyphs(region)):
        match = _FRACTION.search(text_of(line, known))
        if match:
            top, bottom = min(g.y for g in line), max(g.y + g.h for g in line)
            return (int(match.group(1)), int(match.group(2))), (y0 + top, y0 + bottom)
    return None


#: Rows of the text's ground kept above and below a line of text in a counter's box: the box a counter is
#: learnt with, or narrowed to where a board shows its text (``vision.register``)
LINE_MARGIN = 4


def box_at_line(geometry: Geometry, spec: dict[str, Any], rows: tuple[int, int]) -> list[int]:
    """The profile's box (as wide as it is) narrowed to ``rows``, the top and bottom rows of the image that a
    line of its text spans, and ``LINE_MARGIN`` above and below."""
    _, by = _corner(geometry, spec.get("anchor", "top-left"))
    dx, _, w, _ = spec["box"]
    top, bottom = rows
    return [int(dx), top - LINE_MARGIN - by, int(w), bottom - top + 2 * LINE_MARGIN]


def text_box(geometry: Geometry, spec: dict[str, Any]) -> tuple[int, int, int, int]:
    """Left, top, right and bottom of the profile's text box (left and top at least 0)."""
    bx, by = _corner(geometry, spec.get("anchor", "top-left"))
    dx, dy, w, h = spec["box"]
    return max(0, bx + dx), max(0, by + dy), bx + dx + w, by + dy + h


ANCHORS = ("top-left", "bottom-left", "top-right", "bottom-right")


def _corner(geometry: Geometry, anchor: str) -> tuple[int, int]:
    x, y, w, h = geometry.bbox
    return x + (w if anchor.endswith("right") else 0), y + (h if anchor.startswith("bottom") else 0)


def _is_slash(g: Glyph) -> bool:
    m = g.mask
    h, w = m.shape
    if h < 5 or w < 2 or w > h:
        return False
    top, bottom = m[: max(1, h // 4)], m[-max(1, h // 4) :]
    cols_top = np.nonzero(top.any(axis=0))[0]
    cols_bottom = np.nonzero(bottom.any(axis=0))[0]
    return bool(len(cols_top) and len(cols_bottom) and cols_top.mean() > cols_bottom.mean() + w * 0.3)


def _search_area(image: np.ndarray, geometry: Geometry) -> tuple[int, int, np.ndarray]:
    bx, by, bw, bh = geometry.bbox
    pw, ph = geometry.pitch
    x0, y0 = max(0, int(bx - 3 * pw)), max(0, int(by - 4 * ph))
    x1, y1 = min(image.shape[1], int(bx + bw + 300)), min(image.shape[0], int(by + bh + 6 * ph))
    area = image[y0:y1, x0:x1].copy()
    area[by - y0 : by - y0 + bh, bx - x0 : bx - x0 + bw] = np.median(area.reshape(-1, 3), axis=0)
    return x0, y0, area


def learn_text_counter(samples: Sequence[tuple[np.ndarray, Geometry, Board]]) -> dict[str, Any]:
    """A ``flags / total`` text near the board that matches every sample's board, or {} if there is none."""
    found: list[tuple[str, tuple[int, int, int, int], dict[str, np.ndarray]]] = []
    for image, geo, board in samples:
        if board.mines is None:
            continue
        want_left, want_right = str(flags_placed(board.grid)), str(board.mines)
        x0, y0, area = _search_area(image, geo)
        for line in _text_lines(glyphs(area)):
            for i, g in enumerate(line):
                if not _is_slash(g):
                    continue
                left, right = line[i - len(want_left) : i], line[i + 1 : i + 1 + len(want_right)]
                if len(left) != len(want_left) or len(right) != len(want_right) or i - len(want_left) < 0:
                    continue
                parts = [*left, g, *right]
                if any(b.x - (a.x + a.w) > 2 * g.h for a, b in pairwise(parts)):
                    continue
                start, end = i - len(want_left), i + len(want_right)
                # the numbers stand apart from the words around them
                if start > 0 and not _gap(line[start - 1], line[start]):
                    continue
                if end + 1 < len(line) and not _gap(line[end], line[end + 1]):
                    continue
                text = want_left + "/" + want_right
                digits = [q for ch, q in zip(text, parts, strict=True) if ch != "/"]
                if max(q.h for q in digits) - min(q.h for q in digits) > 1 or g.h < max(q.h for q in digits) - 1:
                    continue
                masks: dict[str, np.ndarray] = {}
                for ch, q in zip(text, parts, strict=True):
                    if ch in masks and _overlap(masks[ch], q.mask) < 0.9:
                        break  # the same digit twice must look the same
                    masks[ch] = q.mask
                else:
                    top = min(q.y for q in line)
                    height = max(q.y + q.h for q in line) - top
                    for anchor in ANCHORS:
                        bx, by = _corner(geo, anchor)
                        box = (x0 + line[0].x - bx - 40, y0 + top - by - LINE_MARGIN,
                               line[-1].x + line[-1].w - line[0].x + 200, height + 2 * LINE_MARGIN)
                        found.append((anchor, box, masks))
    # try the places where the text was found, most often found first; keep the first that reads every sample
    def place(item: tuple[str, tuple[int, int, int, int], dict[str, np.ndarray]]) -> tuple[str, int, int]:
        anchor, box, _ = item
        return anchor, round(box[0] / 20), round(box[1] / 6)

    places = Counter(place(item) for item in found)
    for key, _ in places.most_common():
        chosen = [(box, masks) for anchor, box, masks in found if place((anchor, box, masks)) == key]
        spec = _spec_from(key[0], chosen)
        # every sample reads right or not at all (sgt-mines shows "DEAD!" instead after a loss)
        results = [(read_text_counter(image, geo, spec), (flags_placed(board.grid), board.mines))
                   for image, geo, board in samples if board.mines is not None]
        if all(got in (None, want) for got, want in results) and sum(got is not None for got, _ in results) >= min(
            2, len(results)
        ):
            return spec
    return {}


def _spec_from(anchor: str, chosen: list[tuple[tuple[int, int, int, int], dict[str, np.ndarray]]]) -> dict[str, Any]:
    x0 = min(b[0] for b, _ in chosen)
    y0 = min(b[1] for b, _ in chosen)
    box = (x0, y0, max(b[0] + b[2] for b, _ in chosen) - x0, max(b[1] + b[3] for b, _ in chosen) - y0)
    glyph_masks: dict[str, list[np.ndarray]] = {}
    for _, masks in chosen:
        for ch, mask in masks.items():
            variants = glyph_masks.setdefault(ch, [])
            if not any(_overlap(mask, v) >= 0.95 for v in variants):
                variants.append(mask)
    return {"kind": "text", "anchor": anchor, "box": [int(v) for v in box],
            "glyphs": {ch: [_mask_text(m) for m in ms] for ch, ms in sorted(glyph_masks.items())}}
