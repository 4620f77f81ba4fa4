#!/usr/bin/env python3
"""Make the built-in vision profiles from recorded screenshots and their expected boards.

    make_profiles.py calibrate [--fixtures tests/fixtures] [--out sweepbot/profiles] [--client NAME] [--hints]
        How the built-in profiles are made: for each client, ``sweepbot calibrate``'s own calibration (built-in
        profiles hidden) from its recorded screenshots, ``<client>/*.png`` together with its kept live
        sessions ``calibration/<client>-<N>px/``, naming looks only from what the game proves (``--hints``:
        take the hints too, as a user who confirmed them would); the ``.board`` files are not used to name
        anything. Then every fixture of the client is read with the new profiles alone and compared with its
        ``.board`` (cells, state, and the counter where the client shows one). The profiles are written only
        if every fixture reads exactly (``--check`` writes nothing).

    make_profiles.py build [--fixtures tests/fixtures] [--out sweepbot/profiles]
        For every fixture ``<client>/<name>.png`` with a ``.board``: locate the board, group the fixtures by
        client and cell size, cut each labelled cell's template window, align the cells to the templates and
        cut again, keep the per-character median (plus variants for looks that differ), then check that the
        new profile reads every fixture of its group exactly. Writes ``<out>/<client>-<pitch>px/``. (The old
        way, from the hand-checked boards: kept to compare with.)

    make_profiles.py looks --fixtures DIR --client NAME --out /tmp/looks
        For a client whose fixtures have no boards yet: cluster every cell's look, save one enlarged montage
        of the distinct looks with their numbers (``looks.png``) and ``looks.json``; a person names each look
        once in a ``labels.json`` (``{"0": "#", "1": "1", ...}``).

    make_profiles.py draft --looks /tmp/looks --labels labels.json
        Draft boards ``<client>__<name>.board`` in the looks folder, to be checked by eye before use.

    make_profiles.py sheet IMAGE... --out /tmp/sheets
        Each board enlarged with its expected characters in the cells' corners, to check by eye.

The profiles are the same files ``sweepbot calibrate`` will make: templates as PNG plus ``profile.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from sweepbot.board import Board
from sweepbot.calibration.build import LabelledFrame, build_profile
from sweepbot.calibration.facts import CalibrationError
from sweepbot.calibration.looks import window_crop
from sweepbot.calibration.recorded import FIXED_SIZES, calibrate_recorded, load_recorded
from sweepbot.vision.annotate import zoomed_sheet
from sweepbot.vision.capture import load_image
from sweepbot.vision.cells import cell_windows
from sweepbot.vision.counter import learn_counter
from sweepbot.vision.decide import classify
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import locate
from sweepbot.vision.profile import Profile, make_profile, save_profile
from sweepbot.vision.read import ReadError, read_screenshot
from sweepbot.vision.rules import PlayRules
from sweeplab.clients import get_spec

ROOT = Path(__file__).resolve().parent.parent
#: Clients drawn at fractional positions (gnome-mines) antialias tile edges differently from cell to cell:
#: their windows keep further inside the tile, where the colour and the glyph are. sgt-mines's covered and
#: revealed cells differ mostly by a thin bevel: its windows keep close to the edge.
INSETS = {"gnome-mines": 0.2, "sgt-mines": 0.05}
#: Clients whose mines-left counter the built-in profiles must read (tests/test_vision_fixtures.py checks it).
COUNTER_CLIENTS = {"xdemineur", "ace-minesweeper"}


@dataclass
class Fixture:
    path: Path
    client: str
    image: np.ndarray
    geometry: Geometry
    board: Board | None


def load_fixtures(root: Path, client: str | None = None, need_board: bool = True) -> list[Fixture]:
    out: list[Fixture] = []
    for png in sorted(root.glob("*/*.png")):
        board_file = png.with_suffix(".board")
        board = Board.parse(board_file.read_text()) if board_file.exists() else None
        name = (board.headers.get("client") if board else None) or png.parent.name
        if client and name != client:
            continue
        if need_board and board is None:
            continue
        image = load_image(png)
        geometry = locate(image)
        if board is not None and (geometry.rows, geometry.cols) != (board.rows, board.cols):
            print(f"{png}: located {geometry.rows}x{geometry.cols} but the board is {board.rows}x{board.cols}",
                  file=sys.stderr)
            continue
        out.append(Fixture(png, name, image, geometry, board))
    return out


def build_group(client: str, pitch: int, fixtures: list[Fixture], out_dir: Path) -> tuple[Profile, int]:
    """The calibration's own profile building (sweepbot.calibration.build), on cells named by the boards."""
    name = f"{client}-{pitch}px"
    sizes = sorted({(f.geometry.rows, f.geometry.cols) for f in fixtures}) if client in FIXED_SIZES else []
    frames = [LabelledFrame(f.image, f.geometry, np.array([list(row) for row in f.board.grid]))
              for f in fixtures if f.board is not None]
    profile, geometries = build_profile(name, client, frames, INSETS.get(client, 0.1), sizes)
    counter = learn_counter(
        [(f.image, g, f.board) for f, g in zip(fixtures, geometries, strict=True) if f.board is not None], client
    )
    profile = make_profile(name, client, profile.pitch, profile.crop,
                           [(ch, profile.template(i)) for i, ch in enumerate(profile.labels)], sizes, counter)
    save_profile(profile, out_dir / name)
    bad = 0
    for f, g in zip(fixtures, geometries, strict=True):
        scores = classify(f.image, g, profile)
        assert f.board is not None
        if scores.grid() != f.board.grid or not scores.accepted.all():
            bad += 1
            print(f"  {f.path}: the new profile does not read it exactly", file=sys.stderr)
    return profile, bad


def cmd_build(args: argparse.Namespace) -> int:
    fixtures = load_fixtures(Path(args.fixtures), args.client)
    groups: dict[tuple[str, int], list[Fixture]] = defaultdict(list)
    for f in fixtures:
        groups[(f.client, round(f.geometry.pitch[0]))].append(f)
    failed = 0
    for (client, pitch), members in sorted(groups.items()):
        profile, bad = build_group(client, pitch, members, Path(args.out))
        failed += bad
        chars = "".join(sorted(set(profile.labels)))
        print(f"{profile.name}: {len(members)} fixtures, {len(profile.labels)} templates ({chars}), crop "
              f"{profile.crop}, counter {'yes' if profile.counter else 'no'}, {bad} not read exactly")
    return 1 if failed else 0


def misread(profiles: list[Profile], png: Path, client: str) -> tuple[str | None, str | None]:
    """The profile that read ``png``, and why it is not read exactly as its ``.board`` with ``profiles``
    alone (None if it is)."""
    want = Board.parse(png.with_suffix(".board").read_text())
    try:
        reading = read_screenshot(load_image(png), profiles=profiles)
    except ReadError as err:
        return None, f"not read: {err}"
    return reading.profile.name, _difference(reading.board, want, client)


def _difference(got: Board, want: Board, client: str) -> str | None:
    if got.grid != want.grid:
        cells = [(r, c, a, b) for r, (gr, wr) in enumerate(zip(got.grid, want.grid, strict=True))
                 for c, (a, b) in enumerate(zip(gr, wr, strict=True)) if a != b]
        return "cells read wrong (row, col, read, expected): " + ", ".join(map(str, cells[:8]))
    if client in COUNTER_CLIENTS and want.mines is not None and got.mines != want.mines:
        return f"counter read as {got.mines} mines, expected {want.mines}"
    if want.state is not None and (got.state is not None or want.state == "lost") and got.state != want.state:
        return f"state read as {got.state}, expected {want.state}"
    return None


def cmd_calibrate(args: argparse.Namespace) -> int:
    os.environ["SWEEPBOT_NO_BUILTIN"] = "1"  # from scratch: nothing read with the profiles being remade
    root = Path(args.fixtures)
    clients = [args.client] if args.client else sorted(
        p.name for p in root.iterdir() if p.is_dir() and p.name != "calibration" and any(p.glob("*.board")))
    failed = 0
    for client in clients:
        try:
            recorded = load_recorded(root, client)
            cals = calibrate_recorded(recorded, client, with_hints=args.hints)
        except CalibrationError as err:
            print(f"{client}: {err}", file=sys.stderr)
            failed += 1
            continue
        # a built-in profile carries its client's rules for play from the client's module
        play = PlayRules.from_json(get_spec(client).play)
        profiles = [make_profile(c.profile.name, c.profile.client, c.profile.pitch, c.profile.crop,
                                 [(ch, c.profile.template(i)) for i, ch in enumerate(c.profile.labels)],
                                 c.profile.sizes, c.profile.counter, play=play) for c in cals]
        for cal in cals:
            names = cal.names
            print(f"{cal.profile.name}: {len(cal.frames)} frames, {cal.looks.count} looks, named "
                  f"{''.join(sorted({n.char for n in names.values()}))}"
                  f"{' (hints: ' + ''.join(n.char for n in names.values() if not n.proved) + ')' if args.hints else ''}"
                  f", {len(cal.unnamed)} unnamed, {cal.misread} named cells misread")
        pngs = sorted(p for p in (root / client).glob("*.png") if p.with_suffix(".board").exists())
        results = {png.name: misread(profiles, png, client) for png in pngs}
        bad = {name: why for name, (_, why) in results.items() if why is not None}
        for name, why in bad.items():
            print(f"  {client}/{name}: {why}", file=sys.stderr)
        print(f"{client}: {len(pngs) - len(bad)}/{len(pngs)} fixtures read exactly")
        if bad:
            failed += 1
            continue
        if not args.check:
            # only profiles that some fixture checked: a session's cell size no fixture shows is left out
            used = {name for name, _ in results.values()}
            for p in profiles:
                if p.name in used:
                    save_profile(p, Path(args.out) / p.name)
                    print(f"  wrote {Path(args.out) / p.name}")
                else:
                    print(f"  {p.name}: no fixture of this cell size to check it, not written")
    return 1 if failed else 0


def cmd_looks(args: argparse.Namespace) -> int:
    fixtures = load_fixtures(Path(args.fixtures), args.client, need_board=False)
    if args.pitch:
        fixtures = [f for f in fixtures if round(f.geometry.pitch[0]) == args.pitch]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    crop = window_crop([f.geometry for f in fixtures], 0.1)
    _, _, w, h = crop
    looks: list[np.ndarray] = []
    assign: dict[str, list[list[int]]] = {}
    ox, oy = crop[0], crop[1]
    wide = (ox - 1, oy - 1, w + 2, h + 2)
    for f in fixtures:
        # windows one pixel larger all round: a look matches at any of the 9 shifts (locating is +-1 px)
        win = cell_windows(f.image, f.geometry, wide).reshape(-1, h + 2, w + 2, 3)
        ids: list[int] = []
        for v in win:
            shifts = np.stack([v[dy : dy + h, dx : dx + w].ravel() for dy in range(3) for dx in range(3)])
            if looks:
                stack = np.stack(looks)
                d = np.sqrt(((shifts[:, None, :] - stack[None, :, :]) ** 2).mean(axis=2)).min(axis=0)
                k = int(np.argmin(d))
                if d[k] <= args.threshold:
                    ids.append(k)
                    continue
            looks.append(shifts[4])
            ids.append(len(looks) - 1)
        assign[str(f.path)] = np.array(ids).reshape(f.geometry.rows, f.geometry.cols).tolist()
    scale = max(1, 48 // max(w, h))
    tiles = []
    for i, look in enumerate(looks):
        tile = cv2.resize(look.reshape(h, w, 3).astype(np.uint8), None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_NEAREST)
        tile = cv2.copyMakeBorder(tile, 16, 2, 2, 2, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(tile, str(i), (2, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
        tiles.append(tile)
    per_row = 16
    blank = np.full_like(tiles[0], 255)
    rows = [np.hstack(tiles[i : i + per_row] + [blank] * (per_row - len(tiles[i : i + per_row])))
            for i in range(0, len(tiles), per_row)]
    cv2.imwrite(str(out / "looks.png"), np.vstack(rows))
    (out / "looks.json").write_text(json.dumps({"crop": crop, "fixtures": assign}))
    print(f"{len(looks)} looks in {len(fixtures)} fixtures: {out / 'looks.png'}")
    return 0


def cmd_draft(args: argparse.Namespace) -> int:
    data = json.loads((Path(args.looks) / "looks.json").read_text())
    labels = json.loads(Path(args.labels).read_text())
    for path, ids in data["fixtures"].items():
        grid = ["".join(labels.get(str(i), "?") for i in row) for row in ids]
        draft = Path(args.looks) / f"{Path(path).parent.name}__{Path(path).stem}.board"
        draft.write_text("\n".join(grid) + "\n")
        print(draft)
    return 0


def cmd_sheet(args: argparse.Namespace) -> int:
    """Enlarged boards with each cell's expected character drawn in its corner, to check by eye."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for png in args.images:
        png = Path(png)
        board_file = Path(args.board) if args.board else png.with_suffix(".board")
        board = Board.parse(board_file.read_text())
        image = load_image(png)
        geometry = locate(image)
        sheet = zoomed_sheet(image, geometry, board)
        target = out / f"{png.parent.name}__{png.stem}.png"
        cv2.imwrite(str(target), sheet)
        print(target)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("calibrate")
    c.add_argument("--fixtures", default=str(ROOT / "tests" / "fixtures"))
    c.add_argument("--out", default=str(ROOT / "sweepbot" / "profiles"))
    c.add_argument("--client")
    c.add_argument("--hints", action="store_true", help="take the hints too (as a user who confirmed them)")
    c.add_argument("--check", action="store_true", help="calibrate and check, write nothing")
    c.set_defaults(run=cmd_calibrate)
    b = sub.add_parser("build")
    b.add_argument("--fixtures", default=str(ROOT / "tests" / "fixtures"))
    b.add_argument("--out", default=str(ROOT / "sweepbot" / "profiles"))
    b.add_argument("--client")
    b.set_defaults(run=cmd_build)
    lk = sub.add_parser("looks")
    lk.add_argument("--fixtures", default=str(ROOT / "tests" / "fixtures"))
    lk.add_argument("--client", required=True)
    lk.add_argument("--out", required=True)
    lk.add_argument("--threshold", type=float, default=12.0)
    lk.add_argument("--pitch", type=int, help="only fixtures with this cell size (px)")
    lk.set_defaults(run=cmd_looks)
    d = sub.add_parser("draft")
    d.add_argument("--looks", required=True)
    d.add_argument("--labels", required=True)
    d.set_defaults(run=cmd_draft)
    sh = sub.add_parser("sheet")
    sh.add_argument("images", nargs="+")
    sh.add_argument("--board", help="board file (default: beside the image)")
    sh.add_argument("--out", required=True)
    sh.set_defaults(run=cmd_sheet)
    args = parser.parse_args()
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
