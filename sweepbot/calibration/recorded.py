"""Recorded screenshots of one client, ready to calibrate from: plain screenshots (full screens, each board
located on its own) and kept live sessions (frames cropped around one board, with the facts seen in play).

The frames of all of them go into one list; a session's facts are renumbered to their frames' places in it,
and its frames share the board located on its first frame (a new game), so that a session's frames and
full screenshots of the same cell size are calibrated together: the facts of play (a flag, a question mark,
the mine that went off) name looks in the screenshots too, and the losses in the screenshots count numbers
the session never counted.

On disk (see tests/fixtures/README.md): ``<root>/<client>/*.png`` and ``<root>/calibration/<client>-<N>px[-*]/``
(a session recorded with ``sweepbot calibrate --live --record``; sessions named otherwise, such as another
tile theme's ``gnome-mines-classic-46px``, are not the client's default look and are left out).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from sweepbot.calibration.calibrate import Calibration, calibrate_frames
from sweepbot.calibration.facts import CalibrationError, Fact
from sweepbot.calibration.live.session import LiveSession
from sweepbot.calibration.live.tiles import new_game_board
from sweepbot.calibration.recording import load_session
from sweepbot.vision.capture import load_image
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import LocateError
from sweepbot.vision.rules import PlayRules

#: Clients that play only a few board sizes at each cell size (ace-minesweeper's four levels): their
#: profiles fit only the sizes recorded, so that another client's board of that cell size is not read with them.
FIXED_SIZES = frozenset({"ace-minesweeper"})


@dataclass
class Recorded:
    """Frames to calibrate from, where each came from, the facts about them, and known boards."""

    images: list[np.ndarray] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # a screenshot's path, or "<session folder>/frame-NNNN"
    facts: list[Fact] = field(default_factory=list)
    geometries: list[Geometry | None] = field(default_factory=list)
    play: PlayRules = field(default_factory=PlayRules)

    def add_screenshot(self, image: np.ndarray, source: str) -> None:
        self.images.append(image)
        self.sources.append(source)
        self.geometries.append(None)

    def add_session(self, session: LiveSession, source: str) -> None:
        """A session's frames, with its facts renumbered; its board is located once, on its first frame."""
        if not session.frames:
            raise CalibrationError(f"{source}: a session with no frames")
        try:
            geometry = new_game_board(session.frames[0])
        except LocateError as err:
            raise CalibrationError(f"{source}: no board on the session's first frame: {err}") from None
        start = len(self.images)
        self.facts += [replace(f, frame=f.frame + start) for f in session.facts]
        self.images += session.frames
        self.sources += [f"{source}/frame-{i:04d}" for i in range(len(session.frames))]
        self.geometries += [geometry] * len(session.frames)
        self.play = self.play.merged(session.play)


def session_folders(root: Path, client: str) -> list[Path]:
    """The client's kept sessions under ``<root>/calibration``: folders named ``<client>-<N>px``, or
    ``<client>-<N>px-<what>`` for more than one at a cell size."""
    pattern = re.compile(re.escape(client) + r"-\d+px(-[a-z0-9]+)*")
    folder = root / "calibration"
    return sorted(p for p in folder.iterdir() if p.is_dir() and pattern.fullmatch(p.name)) if folder.is_dir() else []


def screenshot_paths(root: Path, client: str) -> list[Path]:
    return sorted((root / client).glob("*.png"))


def load_recorded(root: Path, client: str, screenshots: Sequence[Path] | None = None,
                  sessions: Sequence[Path] | None = None) -> Recorded:
    """Everything recorded of ``client`` under ``root``: its screenshots and its sessions (or those given)."""
    shots = screenshot_paths(root, client) if screenshots is None else list(screenshots)
    folders = session_folders(root, client) if sessions is None else list(sessions)
    if not shots and not folders:
        raise CalibrationError(f"{root}: nothing recorded of {client!r} (no {client}/*.png, no calibration/"
                               f"{client}-<N>px/)")
    out = Recorded()
    for path in shots:
        out.add_screenshot(load_image(path), str(path))
    for folder in folders:
        out.add_session(load_session(folder), str(folder))
    return out


def calibrate_recorded(recorded: Recorded, client: str, with_hints: bool = False) -> list[Calibration]:
    """One calibration per cell size of everything recorded; without ``with_hints``, named only from what the
    recordings prove. The profiles keep how a new game starts if a session found it."""
    return calibrate_frames(recorded.images, client, recorded.facts, recorded.play,
                            min_cells=1 if recorded.facts else 3, geometries=recorded.geometries,
                            fixed_sizes=client in FIXED_SIZES, with_hints=with_hints)
