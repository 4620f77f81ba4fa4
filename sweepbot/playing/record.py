"""Recording a session (every frame acted on, what was read, the move made) and replaying it offline.

Layout of a recording folder: ``session.jsonl`` (one JSON object per step), ``frames/NNNNN.png``, and
``profiles/N/``: the profile each step was read with, as it was then (a calibrated profile learns looks in
play: a new copy is kept each time it changes), so that a replay reads every frame with what play knew.
Diagnostics (frames the bot could not make sense of) go to ``diagnostics/`` with a text file beside each.
docs/formats.md describes every file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sweepbot.board import Board, Cell
from sweepbot.errors import SweepbotError
from sweepbot.playing.consistency import half_taken
from sweepbot.playing.view import BoardView, PlacedReader, Reader
from sweepbot.solver import Analysis, solve
from sweepbot.solver.strategy import Strategy, parse_strategy
from sweepbot.vision.capture import save_crops
from sweepbot.vision.profile import Profile, save_profile

SESSION = "session.jsonl"
PROFILES = "profiles"


class Recorder:
    """Keeps every step of a session in ``folder``; ``profile_of`` tells the profile the board is read with
    now (None: not known)."""

    def __init__(self, folder: Path, strategy: str = "full", first_click: str = "none",
                 profile_of: Callable[[], Profile | None] = lambda: None) -> None:
        self.folder = folder
        (folder / "frames").mkdir(parents=True, exist_ok=True)
        self.count = len(list((folder / "frames").glob("*.png")))
        self.game = 0
        self.game_start = self.count  # the first frame of the game being recorded
        self.settings = {"strategy": strategy, "first_click": first_click}
        self.profile_of = profile_of
        self._kept: tuple[Profile, str] | None = None  # the profile kept last, and its folder in the recording

    def new_game(self) -> None:
        """The next moves are another game's (unless none of this game's was recorded)."""
        if self.count > self.game_start:
            self.game += 1
            self.game_start = self.count

    def step(self, frame: np.ndarray, view: BoardView, analysis: Analysis, cells: list[Cell], button: str) -> None:
        name = f"frames/{self.count:05d}.png"
        self.count += 1
        cv2.imwrite(str(self.folder / name), frame, [cv2.IMWRITE_PNG_COMPRESSION, 3])
        entry: dict[str, Any] = {
            "game": self.game,
            "frame": name,
            "board": list(view.board.grid),
            "mines": view.board.mines,
            "state": view.board.state,
            "x_edges": [round(v, 2) for v in view.x_edges],
            "y_edges": [round(v, 2) for v in view.y_edges],
            "clicks": [list(cell) for cell in cells],
            "button": button,
            **self.settings,
            **({"profile": kept} if (kept := self.keep_profile()) else {}),
        }
        with (self.folder / SESSION).open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")

    def keep_profile(self) -> str | None:
        """The folder (in the recording) of the profile in use now, kept there first if it changed."""
        profile = self.profile_of()
        if profile is None:
            return None
        if self._kept is None or self._kept[0] is not profile:
            root = self.folder / PROFILES
            name = f"{PROFILES}/{len(list(root.iterdir())) if root.is_dir() else 0}"
            save_profile(profile, self.folder / name)
            self._kept = (profile, name)
        return self._kept[1]

    def diagnostic(self, frame: np.ndarray, problems: list[str],
                   crops: dict[tuple[int, int], np.ndarray] | None = None) -> Path:
        """Keep a frame the bot could not make sense of, why, and the crops of cells it could not read
        (``diagnostics/NNNNN.png``, ``.txt`` and ``NNNNN-cells/``); returns the frame's path."""
        folder = self.folder / "diagnostics"
        folder.mkdir(exist_ok=True)
        path = folder / f"{self.count:05d}.png"
        cv2.imwrite(str(path), frame)
        path.with_suffix(".txt").write_text("\n".join(problems) + "\n", encoding="utf-8")
        if crops:
            save_crops(crops, folder / f"{self.count:05d}-cells")
        return path


@dataclass
class ReplayReport:
    steps: int = 0
    read_differences: list[str] = field(default_factory=list)
    move_differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.read_differences and not self.move_differences

    def to_json(self) -> dict[str, object]:
        return {"steps": self.steps, "read_differences": self.read_differences,
                "move_differences": self.move_differences, "ok": self.ok}


def load_session(folder: Path) -> list[dict[str, Any]]:
    path = folder / SESSION
    if not path.is_file():
        raise SweepbotError(f"{folder} is not a recording: {SESSION} is missing")
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise SweepbotError(f"{path}, line {number}: not JSON: {err}") from None
    return entries


def replay(folder: Path, reader: Reader | None, reader_for: Callable[[Path], Reader] | None = None) -> ReplayReport:
    """Read every recorded frame again (when a reader is given) and solve every recorded board again;
    report where the read or the move differs from what was recorded. A step that names the profile it was
    read with (kept in the recording) is read with that profile, through ``reader_for(its folder)``."""
    report = ReplayReport()
    readers: dict[str, Reader] = {}
    clicked: list[tuple[int, int]] = []  # the clicks of the step before, in the same game
    game = None
    for entry in load_session(folder):
        if entry.get("game") != game:
            game, clicked = entry.get("game"), []
        if reader is not None and reader_for is not None and entry.get("profile"):
            reader = readers.setdefault(entry["profile"], reader_for(folder / entry["profile"]))
        report.steps += 1
        where = f"{entry['frame']}"
        board = Board(tuple(entry["board"]), entry.get("mines"), entry.get("state"))
        if reader is not None:
            frame = cv2.imread(str(folder / entry["frame"]))
            if frame is None:
                report.read_differences.append(f"{where}: frame missing or unreadable")
                continue
            try:
                if isinstance(reader, PlacedReader) and entry.get("x_edges") and entry.get("y_edges"):
                    again = reader.read_at(frame, tuple(round(x) for x in entry["x_edges"]),
                                           tuple(round(y) for y in entry["y_edges"])).board
                else:
                    again = reader.read(frame).board
            except SweepbotError as err:
                report.read_differences.append(f"{where}: not readable now: {err}")
                continue
            pressed = half_taken(again, clicked)  # read as play read it: still covered, clicked again
            if pressed:
                again = again.replace(dict.fromkeys(pressed, "#"))
            if again.grid != board.grid:
                cells = [(r, c, a, b) for r, (ra, rb) in enumerate(zip(board.grid, again.grid, strict=False))
                         for c, (a, b) in enumerate(zip(ra, rb, strict=False)) if a != b]
                report.read_differences.append(f"{where}: {len(cells)} cells read differently, e.g. {cells[:3]}")
        strategy: Strategy = parse_strategy(entry.get("strategy", "full"))
        analysis = solve(board, first_click=entry.get("first_click", "none"), strategy=strategy)
        planned = [list(c) for c in analysis.safe] or ([list(analysis.move.cell)] if analysis.move else [])
        if planned != entry["clicks"]:
            report.move_differences.append(f"{where}: recorded {entry['clicks'][:4]}, now {planned[:4]}")
        clicked = [(int(r), int(c)) for r, c in entry["clicks"]]
    return report
