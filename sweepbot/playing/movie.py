"""An animated GIF of a recorded session: the board region of every frame, in order."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from sweepbot.errors import SweepbotError
from sweepbot.playing.record import SESSION

MARGIN = 12


def make_gif(folder: Path, out: Path, frame_ms: int = 120, max_width: int = 640) -> Path:
    """Crop every recorded frame to the board (plus a margin), scale it to ``max_width`` at most and write
    an animated GIF; the last frame of each game is held longer."""
    entries = [json.loads(line) for line in (folder / SESSION).read_text(encoding="utf-8").splitlines() if line]
    if not entries:
        raise SweepbotError(f"{folder}: the recording has no steps")
    images: list[Image.Image] = []
    durations: list[int] = []
    for i, entry in enumerate(entries):
        frame = cv2.imread(str(folder / entry["frame"]))
        if frame is None:
            continue
        xs, ys = entry["x_edges"], entry["y_edges"]
        x0, y0 = max(0, int(xs[0]) - MARGIN), max(0, int(ys[0]) - 6 * MARGIN)
        x1, y1 = min(frame.shape[1], int(xs[-1]) + MARGIN), min(frame.shape[0], int(ys[-1]) + MARGIN)
        crop = frame[y0:y1, x0:x1]
        for r, c in entry["clicks"]:
            cx = int((xs[c] + xs[c + 1]) / 2) - x0
            cy = int((ys[r] + ys[r + 1]) / 2) - y0
            cv2.circle(crop, (cx, cy), max(3, int((xs[1] - xs[0]) / 3)), (0, 140, 255), 2)
        scale = min(1.0, max_width / crop.shape[1])
        if scale < 1.0:
            crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        images.append(Image.fromarray(np.ascontiguousarray(crop[:, :, ::-1])))
        last_of_game = i + 1 == len(entries) or entries[i + 1].get("game") != entry.get("game")
        durations.append(frame_ms * 8 if last_of_game else frame_ms)
    if not images:
        raise SweepbotError(f"{folder}: no readable frames")
    size = images[0].size
    images = [im if im.size == size else im.resize(size) for im in images]
    images[0].save(out, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True)
    return out
