"""``sweepbot read IMAGE [--profile NAME] [--annotate OUT.png]``: read a board from a screenshot file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2

from sweepbot.errors import SweepbotError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "read", help="read a board from a screenshot", description="Find the Minesweeper board on a screenshot "
        "and read every cell, the game state and the mines-left counter.")
    parser.add_argument("image", metavar="IMAGE", help="screenshot file (PNG)")
    parser.add_argument("--profile", help="profile name, client name or profile folder (default: the one that fits)")
    parser.add_argument("--annotate", metavar="OUT.png", help="save the screenshot with the grid and what was read")
    parser.add_argument("--save-unread", metavar="DIR",
                        help="when some cells cannot be read, save their crops (cell-rR-cC.png) in DIR")
    return parser


def run(args: argparse.Namespace) -> int:
    from sweepbot.vision.annotate import annotate
    from sweepbot.vision.capture import load_image, save_crops
    from sweepbot.vision.geometry import Geometry
    from sweepbot.vision.locate import locate
    from sweepbot.vision.read import ReadError, read_screenshot

    image = load_image(args.image)
    try:
        reading = read_screenshot(image, profile=args.profile)
    except ReadError as err:
        if args.annotate and err.cells:
            # the grid whose cells were refused (where several grids show, not always the likeliest)
            part = err.board_but_unread
            grid = Geometry(part.xs, part.ys) if part is not None else locate(image)
            _save(args.annotate, annotate(image, grid, None, err.cells))
        err.partial = {"unread": [list(cell) for cell in err.cells]}
        if err.crops and args.save_unread:
            err.partial["crops"] = str(save_crops(err.crops, args.save_unread))
            err.args = (f"{err}; their crops are in {args.save_unread}",)
        elif err.crops:
            err.args = (f"{err}; --save-unread DIR keeps their crops",)
        raise
    if args.annotate:
        _save(args.annotate, annotate(image, reading.geometry, reading.board))
    if args.json:
        print(json.dumps(reading.to_json()))
        return 0
    board = reading.board
    x, y, w, h = reading.geometry.bbox
    pw, ph = reading.geometry.pitch
    facts = [f"{board.rows}x{board.cols}", f"at {x},{y} size {w}x{h}", f"cell {pw:.2f}x{ph:.2f} px",
             f"profile {reading.profile.name}"]
    if reading.mines_left is not None:
        facts.append(f"mines left {reading.mines_left}")
    print(f"; {args.image}: " + ", ".join(facts))
    print(board.to_text(), end="")
    return 0


def _save(path: str, image: Any) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(path, image):
        raise SweepbotError(f"cannot write {path}")
