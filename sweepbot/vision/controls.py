"""A client's own controls beside its board: where a new-game button or face may be, and finding one again.

A control is a flat face (a button's fill, a face's disc) bounded by edges and holding something drawn on
it (a label, eyes and a mouth), near the board and outside it. Yellow ones (the classic smiley, a yellow
button) come first, the others from the top of the window down, left to right. What one of them does is for
the game to show: calibration clicks them one by one once a game is over, and keeps the one that started a
new game, with its looks, so that play finds it again beside the board and clicks nothing else.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from sweepbot.rect import Rect
from sweepbot.vision.locate import flat_mask

#: The smallest and largest control, in pixels (a window manager's title-bar buttons are smaller); a yellow
#: face may be smaller (pygame-minesweeper's smiley is 14 px across).
MIN_SIDE = 16
MIN_YELLOW_SIDE = 10
MAX_WIDTH, MAX_HEIGHT = 360, 120
#: How far from the board a control may be, when the window around it is not known (pixels).
NEAR_BOARD = 240
#: A control's face fills at least this share of its box (a rectangle, a disc, a rounded button).
MIN_FILL = 0.45
#: ... and something is drawn on it: this share of the middle of its box is not the face.
MIN_DRAWN = 0.02
#: Controls looked at, at most.
MAX_CONTROLS = 10
#: How well a control's look must match one seen in calibration (normalised correlation).
MATCH = 0.75
#: How far (px) a control's centre may be from its place and still be the one found there before.
PLACE_SLACK = 6
#: How much larger or smaller a control found at its place may be drawn than the look seen there (a button
#: whose label is set in another font: the desktop's own, 156 px where the lab's font drew it 147 px)
SIZE_SLACK = 0.15
#: A control whose face changed is known by its frame: the outer 1/BAND_PART of its box, correlated at least
#: BAND_MATCH with a look seen.
BAND_PART = 6
BAND_MATCH = MATCH


@dataclass(frozen=True)
class Control:
    """A control on screen: its box, and whether it is yellow (a smiley or a yellow button)."""

    box: Rect
    yellow: bool

    @property
    def centre(self) -> tuple[int, int]:
        return (self.box.x + self.box.w // 2, self.box.y + self.box.h // 2)


def around_board(board: Rect, screen: tuple[int, int], margin: int = NEAR_BOARD) -> Rect:
    """The part of the screen within ``margin`` pixels of the board."""
    x0, y0 = max(0, board.x - margin), max(0, board.y - margin)
    x1, y1 = min(screen[0], board.right + margin), min(screen[1], board.bottom + margin)
    return Rect(x0, y0, x1 - x0, y1 - y0)


def controls_near(frame: np.ndarray, board: Rect, area: Rect, most: int | None = MAX_CONTROLS) -> list[Control]:
    """Controls inside ``area`` (the client's window, or the screen near the board) and outside the board,
    in the order to try them: yellow first, then from the top down and from the left; the first ``most``
    (None: all)."""
    area = area.intersect(Rect(0, 0, frame.shape[1], frame.shape[0])) or Rect(0, 0, 0, 0)
    if area.w < MIN_SIDE or area.h < MIN_SIDE:
        return []
    part = frame[area.y:area.bottom, area.x:area.right]
    flat = flat_mask(part)
    # the board and a few pixels around it are no control
    bx0, by0 = max(0, board.x - area.x - 4), max(0, board.y - area.y - 4)
    flat[by0:max(by0, board.bottom - area.y + 4), bx0:max(bx0, board.right - area.x + 4)] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(flat, connectivity=4)
    found: list[Control] = []
    hsv = cv2.cvtColor(part, cv2.COLOR_BGR2HSV)
    for i in range(1, n):
        x, y, w, h, size = (int(v) for v in stats[i])
        if not (MIN_YELLOW_SIDE <= w <= MAX_WIDTH and MIN_YELLOW_SIDE <= h <= MAX_HEIGHT) or size < MIN_FILL * w * h:
            continue
        if x == 0 or y == 0 or x + w >= flat.shape[1] or y + h >= flat.shape[0]:
            continue  # cut by the edge of the area: the background, or a part of something larger
        inner = labels[y + h // 4:y + h - h // 4, x + w // 5:x + w - w // 5]
        if inner.size == 0 or (inner != i).mean() < MIN_DRAWN:
            continue  # nothing drawn on it: a plain patch, not a button
        face = labels[y:y + h, x:x + w] == i
        hue, sat, val = (float(np.median(hsv[y:y + h, x:x + w, k][face])) for k in range(3))
        yellow = 18 <= hue <= 38 and sat >= 110 and val >= 150
        if not yellow and min(w, h) < MIN_SIDE:
            continue
        found.append(Control(Rect(area.x + x, area.y + y, w, h), yellow))
    found = _distinct(found)
    found.sort(key=lambda c: (not c.yellow, c.box.y // 12, c.box.x))
    return found if most is None else found[:most]


def _distinct(controls: list[Control]) -> list[Control]:
    """One control per place: of controls whose centres lie inside each other's box, the larger."""
    out: list[Control] = []
    for c in sorted(controls, key=lambda c: -c.box.w * c.box.h):
        if not any(o.box.contains(*c.centre) or c.box.contains(*o.centre) for o in out):
            out.append(c)
    return out


def control_look(frame: np.ndarray, box: Rect) -> np.ndarray:
    """A control's look: its box in grey."""
    return cv2.cvtColor(frame[box.y:box.bottom, box.x:box.right], cv2.COLOR_BGR2GRAY)


def encode_look(look: np.ndarray) -> str:
    """A look as text for a profile (a PNG, base64)."""
    ok, data = cv2.imencode(".png", look)
    assert ok
    return base64.b64encode(data.tobytes()).decode("ascii")


def decode_look(text: str) -> np.ndarray:
    """A look stored by :func:`encode_look`."""
    data = np.frombuffer(base64.b64decode(text), np.uint8)
    look = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    if look is None:
        raise ValueError("not a stored look")
    return look


def find_control(frame: np.ndarray, board: Rect, offset: tuple[int, int], looks: Sequence[np.ndarray],
                 slack: int = 24) -> Rect | None:
    """The control seen in calibration, found again: one of ``looks`` near ``offset`` from the board's top-left
    corner (within ``slack`` pixels); None if none matches well enough."""
    best: tuple[float, Rect] | None = None
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for look in (variant for seen in looks for variant in near_sizes(seen)):
        h, w = look.shape
        x0, y0 = board.x + offset[0] - slack, board.y + offset[1] - slack
        x0c, y0c = max(0, x0), max(0, y0)
        x1, y1 = min(grey.shape[1], x0 + w + 2 * slack), min(grey.shape[0], y0 + h + 2 * slack)
        window = grey[y0c:y1, x0c:x1]
        if window.shape[0] < h or window.shape[1] < w:
            continue
        if float(look.std()) < 1.0:
            continue  # a plain look matches anything
        scores = cv2.matchTemplate(window, look, cv2.TM_CCOEFF_NORMED)
        _, score, _, (mx, my) = cv2.minMaxLoc(scores)
        if score >= MATCH and (best is None or score > best[0]):
            best = (float(score), Rect(x0c + mx, y0c + my, w, h))
    return None if best is None else best[1]


def near_sizes(look: np.ndarray) -> list[np.ndarray]:
    """A look as seen, then resized a pixel narrower or wider, shorter or taller: a window or page scaled as a
    whole lays its controls out to whole pixels, each rounded its own way (a label 90x35 px at 100 % drawn
    41x15 at 45 %, where the look scaled with the board is 40x16)."""
    h, w = look.shape[:2]
    return [look] + [cv2.resize(look, (w + dw, h + dh), interpolation=cv2.INTER_AREA)
                     for dw in (-1, 0, 1) for dh in (-1, 0, 1) if (dw or dh) and min(w + dw, h + dh) >= 3]


def find_known_control(frame: np.ndarray, board: Rect, offset: tuple[int, int], looks: Sequence[np.ndarray],
                       area: Rect) -> Rect | None:
    """The control seen in calibration, found again by one of its ``looks`` near its place or anywhere in
    ``area``, or, looking another way now (a smiley after a loss it was never seen at; a label in another
    font), as a control of about a look's size whose centre is within PLACE_SLACK pixels of its place."""
    box = find_control(frame, board, offset, looks) or find_anywhere(frame, area, looks, away_from=board)
    if box is not None:
        return box
    near = next((c.box for c in controls_near(frame, board, area) if at_place(c.box, board, offset, looks)), None)
    return near if near is not None else framed_alike(frame, board, offset, looks)


def at_place(box: Rect, board: Rect, offset: tuple[int, int], looks: Sequence[np.ndarray]) -> bool:
    """Whether ``box`` stands where a control of one of ``looks`` was, ``offset`` from ``board``: its centre
    within PLACE_SLACK pixels of that control's, its size within SIZE_SLACK of the look's."""
    for look in looks:
        h, w = look.shape[:2]
        centre_x, centre_y = board.x + offset[0] + w / 2, board.y + offset[1] + h / 2
        if (abs(box.x + box.w / 2 - centre_x) <= PLACE_SLACK and abs(box.y + box.h / 2 - centre_y) <= PLACE_SLACK
                and abs(box.w / w - 1) <= SIZE_SLACK and abs(box.h / h - 1) <= SIZE_SLACK):
            return True
    return False


def find_anywhere(frame: np.ndarray, area: Rect, looks: Sequence[np.ndarray],
                  away_from: Rect | None = None) -> Rect | None:
    """One of ``looks`` anywhere in ``area`` (a window laid out otherwise at another size moves its buttons
    away from the board: "Play Again" beside a board drawn larger), never over ``away_from`` (the board, whose
    tiles and lines may match a button's outline); None if none matches well enough."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    x0, y0 = max(0, area.x), max(0, area.y)
    window = grey[y0:min(grey.shape[0], area.bottom), x0:min(grey.shape[1], area.right)]
    best: tuple[float, Rect] | None = None
    for look in looks:
        h, w = look.shape
        if window.shape[0] < h or window.shape[1] < w or float(look.std()) < 1.0:
            continue
        scores = cv2.matchTemplate(window, look, cv2.TM_CCOEFF_NORMED)
        if away_from is not None:
            # a box at (x, y) overlaps the board when x + w > its left and x < its right (and so for y)
            left, top = max(0, away_from.x - x0 - w + 1), max(0, away_from.y - y0 - h + 1)
            scores[top:max(top, away_from.bottom - y0), left:max(left, away_from.right - x0)] = -1.0
        _, score, _, (mx, my) = cv2.minMaxLoc(scores)
        if score >= MATCH and (best is None or score > best[0]):
            best = (float(score), Rect(x0 + mx, y0 + my, w, h))
    return None if best is None else best[1]


def framed_alike(frame: np.ndarray, board: Rect, offset: tuple[int, int], looks: Sequence[np.ndarray]) -> Rect | None:
    """The control at its very place when only its face changed: the outer band of its box (its frame, the
    outline of a smiley) as in one of ``looks`` (a face drawn otherwise after a win than it was ever seen)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for look in looks:
        h, w = look.shape
        box = Rect(board.x + offset[0], board.y + offset[1], w, h)
        if box.x < 0 or box.y < 0 or box.right > grey.shape[1] or box.bottom > grey.shape[0]:
            continue
        band = np.ones((h, w), bool)
        side = max(2, min(w, h) // BAND_PART)
        band[side:h - side, side:w - side] = False
        now = grey[box.y:box.bottom, box.x:box.right][band].astype(np.float32)
        was = look[band].astype(np.float32)
        if now.std() < 1.0 or was.std() < 1.0:
            continue  # a plain band matches anything
        if float(np.corrcoef(now, was)[0, 1]) >= BAND_MATCH:
            return box
    return None
