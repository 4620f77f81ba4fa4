"""A live calibration session on disk: ``frame-NNNN.png``, ``facts.jsonl`` (one fact a line) and
``play.json`` (how the client starts a new game), so that a calibration can be made again from it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from sweepbot.calibration.live import LiveSession
from sweepbot.calibration.naming import CalibrationError, Fact
from sweepbot.vision.capture import load_image


def save_session(session: LiveSession, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, frame in enumerate(session.frames):
        cv2.imwrite(str(folder / f"frame-{i:04d}.png"), frame)
    with open(folder / "facts.jsonl", "w", encoding="utf-8") as out:
        for f in session.facts:
            out.write(json.dumps({"frame": f.frame, "cell": [f.row, f.col], "char": f.char}) + "\n")
    (folder / "play.json").write_text(json.dumps(
        {k: v for k, v in session.play.items() if not k.startswith("_")}) + "\n", encoding="utf-8")
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
        play = json.loads((folder / "play.json").read_text(encoding="utf-8")) if (folder / "play.json").exists() else {}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as err:
        raise CalibrationError(f"{folder}: malformed recording: {err}") from None
    if any(not 0 <= f.frame < len(frames) for f in facts):
        raise CalibrationError(f"{folder}: a fact names a frame that is not there")
    return LiveSession(frames, facts, play)
