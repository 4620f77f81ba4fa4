"""What a live calibration keeps: frames cropped around the board, the facts seen in them, and how the client
starts a new game; and the fact_log that adds to them as the games go on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sweepbot.calibration.facts import Fact
from sweepbot.calibration.live.driver import Cell
from sweepbot.calibration.live.follow import at_place
from sweepbot.calibration.live.tiles import Tiles
from sweepbot.errors import SweepbotError
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import grids
from sweepbot.vision.rules import PlayRules

#: Pixels kept around the board in the session's frames: left, top, right, bottom (a counter may be in a
#: side panel, a face above).
KEEP_MARGIN = (80, 140, 340, 80)


@dataclass
class LiveSession:
    """What a live calibration saw: the frames, the facts, and the client's rules for play it learnt (how it
    starts a new game)."""

    frames: list[np.ndarray] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    play: PlayRules = field(default_factory=PlayRules)
    games: int = 0
    wins: int = 0

    def learn(self, **rules: Any) -> None:
        """Learn rules for play (see :meth:`PlayRules.learnt`)."""
        self.play = self.play.learnt(**rules)


def kept_origin(geometry: Geometry) -> tuple[int, int]:
    """Where on the screen the kept part starts: KEEP_MARGIN left of and above the board, within the screen."""
    x, y, _, _ = geometry.bbox
    return max(0, x - KEEP_MARGIN[0]), max(0, y - KEEP_MARGIN[1])


def keep(frame: np.ndarray, geometry: Geometry) -> np.ndarray:
    """The part of the screen worth keeping: the board and room around it for a counter or a face."""
    x, y, w, h = geometry.bbox
    x0, y0 = kept_origin(geometry)
    return frame[y0 : y + h + KEEP_MARGIN[3], x0 : x + w + KEEP_MARGIN[2]].copy()


def kept_geometry(geometry: Geometry) -> Geometry:
    """The board's place in the kept frames."""
    x0, y0 = kept_origin(geometry)
    return geometry.shifted(-x0, -y0)


def intact(frame: np.ndarray, geometry: Geometry) -> bool:
    """The whole board in sight where it was (no dialog over it), one of the grids on the screen: only such
    frames are kept."""
    try:
        found = grids(frame).ranked
    except SweepbotError:
        return False
    return any((one.rows, one.cols) == (geometry.rows, geometry.cols) and at_place(one, geometry) for one in found)


@dataclass
class FactLog:
    """Adds each frame and its facts to the session (a frame with the board not all in sight is left out),
    and shows the tiles the looks the facts name."""

    session: LiveSession
    tiles: Tiles
    log: Callable[[str], None]
    #: the frame kept last holds only cells that opened (its facts hold on any later frame of the game)
    rolling: bool = False
    #: whether a window lies over the board now (its frames are left out too); None: not known
    window_over: Callable[[], bool] | None = None
    #: whether the whole board was found where it was on a frame, if that is known without locating it again
    #: (the follower located it when it drew the frame); None: not known
    found_whole: Callable[[np.ndarray], bool | None] = lambda _frame: None

    def in_sight(self, frame: np.ndarray) -> bool:
        """Whether the whole board is in sight on ``frame``, where it was, with no window over it."""
        geometry = self.tiles.cells.geometry
        whole = self.found_whole(frame)
        if whole is None:
            whole = intact(keep(frame, geometry), kept_geometry(geometry))
        return whole and not (self.window_over is not None and self.window_over())

    def record(self, frame: np.ndarray, facts: Mapping[Cell, str], roll: bool = False) -> None:
        """Keep ``frame`` with ``facts`` about its cells: not at all if the board is not all in sight, and as
        the frame kept last if it is the same. With ``roll`` (``facts`` only say that cells opened, in a game
        that goes on), a frame kept last with only such facts is replaced by this one, its facts moved onto
        it: an opened cell stays as it is while the game goes on, so a game's openings need one frame, not
        one per click."""
        if not self.in_sight(frame):
            self.log("a frame with the board not all in sight was left out")
            return
        kept = keep(frame, self.tiles.cells.geometry)
        frames = self.session.frames
        if roll and self.rolling and frames:
            frames[-1] = kept
        elif not frames or not np.array_equal(frames[-1], kept):
            frames.append(kept)
        self.rolling = roll
        index = len(frames) - 1
        self.session.facts.extend(Fact(index, r, c, ch) for (r, c), ch in facts.items())
        self.tiles.learn(frame, facts)
