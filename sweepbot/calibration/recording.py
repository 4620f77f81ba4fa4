"""A live calibration session on disk: ``frame-NNNN.png``, ``facts.jsonl`` (one fact a line) and
``play.json`` (how the client starts a new game), so that a calibration can be made again from it."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np

from sweepbot.calibration.facts import REVEALED, CalibrationError, Fact
from sweepbot.calibration.live.session import LiveSession
from sweepbot.calibration.live.tiles import new_game_board
from sweepbot.calibration.looks import window_crop
from sweepbot.vision.capture import load_image
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.rules import PlayRules, RulesError


def compact(session: LiveSession) -> LiveSession:
    """The frames that carry what the session proved: every frame with a fact other than "opened" (new
    games, marks, losses), each game's last frame, and a frame wherever an opened cell shows a look not
    kept yet."""
    geometry = new_game_board(session.frames[0])
    crop = window_crop([geometry], 0.12)
    seen: set[bytes] = set()
    by_frame: dict[int, list[Fact]] = {}
    for f in session.facts:
        by_frame.setdefault(f.frame, []).append(f)
    keep: list[int] = []
    frames = sorted(by_frame)
    # the last frame of each game (a win shows every mine flagged there): the frame before a new game's
    new_games = {i for i, facts in by_frame.items() if any(f.char == "#" for f in facts)}
    last = {a for a, b in pairwise(frames) if b in new_games} | set(frames[-1:])
    for i, facts in sorted(by_frame.items()):
        wanted = i in last or any(f.char != REVEALED for f in facts)
        windows = cell_windows(session.frames[i], geometry, crop).astype(np.uint8)
        for f in facts:
            if f.char == REVEALED:
                key = windows[f.row * geometry.cols + f.col].tobytes()
                if key not in seen:
                    seen.add(key)
                    wanted = True
        if wanted:
            keep.append(i)
    index = {old: new for new, old in enumerate(keep)}
    facts = [replace(f, frame=index[f.frame]) for f in session.facts if f.frame in index]
    return LiveSession([session.frames[i] for i in keep], facts, session.play, session.games, session.wins)


def save_session(session: LiveSession, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, frame in enumerate(session.frames):
        cv2.imwrite(str(folder / f"frame-{i:04d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    with open(folder / "facts.jsonl", "w", encoding="utf-8") as out:
        for f in session.facts:
            out.write(json.dumps({"frame": f.frame, "cell": [f.row, f.col], "char": f.char}) + "\n")
    (folder / "play.json").write_text(json.dumps(session.play.to_json()) + "\n", encoding="utf-8")
    return folder


def load_session(folder: Path) -> LiveSession:
    frames = [load_image(p) for p in sorted(folder.glob("frame-*.png"))]
    if not frames:
        raise CalibrationError(f"{folder}: no frames (frame-NNNN.png) in this recording")
    try:
        facts = []
        for line in (folder / "facts.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                facts.append(Fact(int(item["frame"]), int(item["cell"][0]), int(item["cell"][1]), str(item["char"])))
        spec = json.loads((folder / "play.json").read_text(encoding="utf-8")) if (folder / "play.json").exists() else {}
        play = PlayRules.from_json(spec, version=1)  # a recording keeps its rules as they were learnt
    except (OSError, ValueError, KeyError, TypeError, IndexError, RulesError) as err:
        raise CalibrationError(f"{folder}: malformed recording: {err}") from None
    if any(not 0 <= f.frame < len(frames) for f in facts):
        raise CalibrationError(f"{folder}: a fact names a frame that is not there")
    return LiveSession(frames, facts, play)
