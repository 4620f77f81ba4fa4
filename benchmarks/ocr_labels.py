#!/usr/bin/env python3
"""Read the labels of generated clients' buttons with each text-recognition engine installed: accuracy and time.

    .venv/bin/python benchmarks/ocr_labels.py [SEED|FROM-TO ...]     (default 0-39)

Each seed's client (a Tk window or a page in Chromium, sweeplab/generated) is started on a virtual
screen; it tells the box and the label of every button and link it shows (its truth file). Each box is cut
from a screenshot, as calibration would cut a control found beside the board, and read by each engine:
tesseract (pytesseract, Debian's tesseract-ocr) and RapidOCR (rapidocr-onnxruntime); an engine that is not
installed is left out. A label is read right when the words match, case and spacing aside. One line per
engine, buttons and links apart (a link is never clicked): labels, read right, median and 95th-percentile ms.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from sweeplab.clients import launch_client
from sweeplab.clients.generated import GeneratedClient
from sweeplab.display import VirtualDisplay


def words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def prepared(image: np.ndarray) -> np.ndarray:
    """A label as the engines read best: inside its outline, grey, three times as large, with a margin of its
    own edge's colour."""
    inner = image[3:-3, 3:-3] if min(image.shape[:2]) > 12 else image  # a button's outline left out
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY)
    big = cv2.resize(grey, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    edge = int(np.median(np.concatenate([big[0], big[-1], big[:, 0], big[:, -1]])))
    return cv2.cvtColor(cv2.copyMakeBorder(big, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=edge), cv2.COLOR_GRAY2BGR)


def engines() -> dict[str, Callable[[np.ndarray], str]]:
    found: dict[str, Callable[[np.ndarray], str]] = {}
    try:
        import pytesseract

        pytesseract.get_tesseract_version()
        found["tesseract"] = lambda image: str(pytesseract.image_to_string(image[:, :, ::-1], config="--psm 7"))
    except Exception:  # not installed, or no binary
        pass
    try:
        from rapidocr_onnxruntime import RapidOCR

        engine: Any = RapidOCR()

        def rapid(image: np.ndarray) -> str:
            result, _ = engine(image)
            return " ".join(str(line[1]) for line in result or [])

        found["rapidocr"] = rapid
    except Exception:
        pass
    return found


def main() -> int:
    seeds: list[int] = []
    for arg in sys.argv[1:] or ["0-39"]:
        first, _, last = arg.partition("-")
        seeds += list(range(int(first), int(last) + 1)) if last else [int(first)]
    readers = engines()
    results: dict[str, list[tuple[bool, float]]] = {f"{name} {kind}": [] for name in readers
                                                      for kind in ("buttons", "links")}
    for seed in seeds:
        with VirtualDisplay() as display, launch_client(display, f"generated-{seed}") as client:
            spec = client.spec
            assert isinstance(spec, GeneratedClient)
            time.sleep(1.0)
            truth = spec.truth(client)
            window = client.window_geometry()
            screen = client.screen.grab()
            for control in truth.get("controls", []):
                x, y, w, h = control["box"]
                crop = screen[window.y + y:window.y + y + h, window.x + x:window.x + x + w]
                if crop.size == 0 or not words(control["label"]):
                    continue
                for name, read in readers.items():
                    started = time.perf_counter()
                    text = read(prepared(np.ascontiguousarray(crop)))
                    kind = "links" if control.get("link") else "buttons"
                    results[f"{name} {kind}"].append((words(text) == words(control["label"]),
                                                      time.perf_counter() - started))
                    if words(text) != words(control["label"]):
                        print(f"seed {seed} {name}: {control['label']!r} read {text.strip()!r}", flush=True)
    print(f"\n{'engine':18} {'labels':>6} {'right':>6} {'ms p50':>7} {'ms p95':>7}")
    for name, rows in results.items():
        if not rows:
            continue
        ms = sorted(1000 * t for _, t in rows)
        print(f"{name:18} {len(rows):>6} {sum(ok for ok, _ in rows):>6} {statistics.median(ms):>7.1f} "
              f"{ms[int(0.95 * (len(ms) - 1))]:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
