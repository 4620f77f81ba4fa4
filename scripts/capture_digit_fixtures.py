#!/usr/bin/env python3
"""Capture candidate screenshots that show the rare tiles (digits 4-8, question marks) for the profiles.

The fixtures of ``capture_fixtures.py`` (fresh, first click, flags, lost) seldom show a digit above 3, so
the built-in profiles lacked those templates. This script plays quick games on a private virtual display
and keeps screens that show the rare digits, with a draft board whose numbers are known from the mines:

    capture xdemineur  a dense board (``-m``), question marks set with two right clicks (``--qmarks``), then
                       random left clicks until a mine goes off; the lost board shows every mine
    capture sgt-mines  a dense board (``a``: guessing allowed) at a tile size; random left clicks, each death
                       undone (``u``), until every safe cell is open. With flags (default) the won board shows
                       every mine flagged; with ``--no-flags`` the screen is also taken when one safe cell is
                       left (``-pre``), every mine still covered and known from its death (the 12 px locator
                       cannot find a board that is nearly all flags)
    ace                ace-minesweeper's density is fixed and low, so digits above 4 are rare: its rand() is
                       seeded from time(), which a small LD_PRELOAD library fixes (built with gcc); probe games
                       (seed, game) are lost at random to see their mines, the boards with the wanted digits
                       are dealt again, exactly those cells opened and a mine clicked: a lost board

    .venv/bin/python scripts/capture_digit_fixtures.py capture xdemineur 30x16/300 --per-launch 15 --qmarks 2
    .venv/bin/python scripts/capture_digit_fixtures.py capture sgt-mines 16x12/120 --tile 20
    .venv/bin/python scripts/capture_digit_fixtures.py capture sgt-mines 16x12/125 --tile 12 --no-flags
    .venv/bin/python scripts/capture_digit_fixtures.py ace 3 --want 45678 --minutes 5
    .venv/bin/python scripts/capture_digit_fixtures.py draft /tmp/digit-candidates/xdemineur-30x16n300/game-000-10.png \
        --client xdemineur --mines 300 --state lost --qmarks 8,24 --out tests/fixtures/xdemineur/digits-21-2

Candidates go under ``--out`` (default /tmp/digit-candidates), each with a ``.json`` holding its draft board
and the digits it shows. ``draft`` copies a candidate to a fixture path and writes its draft ``.board``: the
profile's reading for the tiles it knows, every other cell named from the mines around it (``?`` where a
question mark was set). A draft is marked so and must be checked by eye, cell by cell (``make_profiles.py
sheet``), before its comment says it was.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from capture_fixtures import (  # noqa: E402
    Cell,
    covered_cells,
    covered_reference,
    exploded_cell,
    undo_death,
    window_image,
)

from sweepbot.board import Board  # noqa: E402
from sweepbot.vision.align import align  # noqa: E402
from sweepbot.vision.capture import load_image  # noqa: E402
from sweepbot.vision.decide import classify  # noqa: E402
from sweepbot.vision.locate import locate  # noqa: E402
from sweepbot.vision.profile import Profile, available_profiles  # noqa: E402
from sweeplab import (  # noqa: E402
    CLIENTS,
    DesktopError,
    Grid,
    LaunchedClient,
    Size,
    VirtualDisplay,
    launch_client,
)

DIGITS = "12345678"

#: ace-minesweeper seeds its own rand() from time() at start: with time() fixed by this preload every launch
#: deals the same sequence of boards, so a board seen after a loss can be dealt again and played knowingly.
FIXED_TIME_C = r"""
#include <stdlib.h>
#include <time.h>
time_t time(time_t *t) {
    const char *s = getenv("SWEEPBOT_FIXED_TIME");
    time_t v = s ? (time_t)atol(s) : 0;
    if (t) *t = v;
    return v;
}
"""


def fixed_time_library(folder: Path) -> Path:
    import subprocess

    src, lib = folder / "fixtime.c", folder / "fixtime.so"
    if not lib.exists():
        src.write_text(FIXED_TIME_C)
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(lib), str(src)], check=True)
    return lib


def seed_ace(lib: Path) -> None:
    """Make launch_client(..., seed=S) start ace-minesweeper with time() fixed at S."""
    from sweeplab.clients.base import LaunchPlan

    spec = CLIENTS["ace-minesweeper"]
    plain = type(spec).plan

    def plan(level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        base = plain(spec, level, size, seed=None, tile_size=tile_size)
        if seed is None:
            return base
        return LaunchPlan(base.argv, {**base.env, "LD_PRELOAD": str(lib), "SWEEPBOT_FIXED_TIME": seed}, base.files)

    spec.plan = plan  # type: ignore[method-assign]


# -- drafting a board from a screenshot -------------------------------------------------------------------
def profile_for(client: str, pitch: float) -> Profile:
    for profile in available_profiles():
        if profile.client == client and abs(profile.pitch[0] - pitch) < 2.0:
            return profile
    raise SystemExit(f"no built-in profile for {client} at {pitch:.1f} px")


def draft_grid(
    image: np.ndarray, client: str, state: str, qmarks: set[Cell], known_mines: set[Cell] | None = None
) -> tuple[list[str], list[str]]:
    """The draft board and a list of problems (cells that are neither known nor derivable).

    ``state`` lost: the mines are the cells read as ``*``, ``!`` or ``F`` (xdemineur and ace show them all).
    ``state`` won: every covered or flagged cell is a mine (sgt-mines at the end of a game).
    """
    geometry = locate(image)
    profile = profile_for(client, geometry.pitch[0])
    geometry = align(image, geometry, profile)
    scores = classify(image, geometry, profile)
    chars = scores.chars.copy()
    known = scores.accepted.copy()
    rows, cols = chars.shape
    mine_chars = "*!F" if state == "lost" else "#F*!"
    problems: list[str] = []
    for r, c in qmarks:
        # xdemineur shows a mine under a question mark after a loss; gnome-mines keeps the mark
        if chars[r, c] not in "*!" or client == "gnome-mines":
            chars[r, c] = "?"
            known[r, c] = True
    # the clicked mine on its red ground may be refused by a profile that saw it only once: its best match
    # still names it (there is one per lost board)
    exploded = (chars == "!") & ~known
    known |= exploded
    mine = np.isin(chars, list(mine_chars)) & known
    if known_mines is not None:  # sgt-mines before its last safe cell: every mine was hit once and undone
        mine = np.zeros_like(mine)
        for r, c in known_mines:
            mine[r, c] = True

    def around(r: int, c: int) -> int:
        return int(mine[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2].sum()) - int(mine[r, c])

    for r in range(rows):
        for c in range(cols):
            if known[r, c]:
                if chars[r, c] in DIGITS and int(chars[r, c]) != around(r, c):
                    problems.append(f"({r}, {c}) read {chars[r, c]} but {around(r, c)} mines around")
                continue
            n = around(r, c)
            if n == 0:  # a revealed 0 the profile has not seen (or no revealed cell at all: check by eye)
                problems.append(f"({r}, {c}) unknown tile with no mine around: drafted as 0")
            chars[r, c] = str(n) if n else "."

    return ["".join(row) for row in chars], problems


def digits_of(grid: list[str]) -> str:
    return "".join(sorted(set("".join(grid)) & set(DIGITS + "?")))


# -- playing ----------------------------------------------------------------------------------------------
def settle(game: LaunchedClient) -> None:
    game.park_pointer()
    game.wait_settled(quiet=0.15)


def play_to_loss(game: LaunchedClient, grid: Grid, reference: np.ndarray, rng: random.Random, skip: set[Cell]) -> int:
    clicks = 0
    while exploded_cell(window_image(game), grid) is None:
        choices = sorted(covered_cells(window_image(game), grid, reference) - skip)
        if not choices or clicks > grid.rows * grid.cols:
            raise DesktopError(f"no mine went off after {clicks} clicks")
        before = game.screen.grab(game.board_rect())
        after = game.click_cell(*rng.choice(choices))
        clicks += 1
        if after is not None and np.array_equal(before, after):
            break  # a mine drawn without a red ground: the click that changes nothing lost
    return clicks


def play_by_undo(
    game: LaunchedClient,
    grid: Grid,
    reference: np.ndarray,
    rng: random.Random,
    flag: bool = True,
    before_last: Callable[[set[Cell] | None], None] | None = None,
) -> int:
    """sgt-mines: open every safe cell, undoing (`u`) each death and (with ``flag``) flagging its mine."""
    total = game.size.mines
    snapshot: set[Cell] | None = None
    last: Cell | None = None
    mines: set[Cell] = set()
    deaths = 0
    for _ in range(6 * grid.rows * grid.cols):
        image = window_image(game)
        boom = undo_death(game, grid, image, flag)
        if boom is not None:
            mines.add(boom)
            deaths += 1
            continue
        choices = sorted(covered_cells(image, grid, reference) - mines)
        if not choices:
            if snapshot is not None and before_last is not None and last is not None:
                before_last(snapshot - {last})  # the click that won was the one safe cell left
            return deaths
        if before_last is not None and snapshot is None and len(choices) == total - len(mines) + 1:
            # one safe cell left: the screen shows every number with the mines still covered
            snapshot = covered_cells(image, grid, reference)
            before_last(None)
        last = rng.choice(choices)
        game.click_cell(*last)
    game.screen.save_png("/tmp/sgt-stuck.png")
    raise DesktopError("sgt-mines: the game did not end (screen in /tmp/sgt-stuck.png)")


def cmd_capture(args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    client = args.client
    tag = args.level.replace("/", "n") + (f"-t{args.tile}" if args.tile else "")
    folder = Path(args.out) / f"{client}-{tag}"
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    if client == "gnome-mines":
        from sweeplab.clients import gnome_mines

        # a custom size gets the window of the level with the same board size: the same tile size
        windows = {(8, 8): "small", (16, 16): "medium", (30, 16): "big"}
        gnome_mines.custom_window = lambda size: gnome_mines.WINDOW_SIZES[windows[(size.cols, size.rows)]]
    if client == "sgt-mines":
        CLIENTS["sgt-mines"].allow_guessing = True  # dense boards cannot be made guess-free
    seen: dict[str, int] = {}
    deadline = time.monotonic() + args.minutes * 60
    with VirtualDisplay(1280, 1024) as display:
        for k in range(args.games):
            if time.monotonic() > deadline:
                break
            seed = str(rng.randrange(10**9)) if client == "sgt-mines" else None
            try:
                with launch_client(display, client, args.level, seed=seed, tile_size=args.tile) as game:
                    grid = game.grid()
                    for j in range(args.per_launch):
                        if time.monotonic() > deadline:
                            break
                        if j:
                            game.new_game()
                        if client == "gnome-mines":
                            # the first click opens an area; covered tiles are drawn lighter after it
                            game.click_cell(grid.rows // 2, grid.cols // 2)
                        reference = covered_reference(window_image(game), grid, client)
                        qmarks: set[Cell] = set()
                        if client in ("xdemineur", "gnome-mines") and args.qmarks:
                            covered = sorted(covered_cells(window_image(game), grid, reference))
                            qmarks = set(rng.sample(covered, min(args.qmarks, len(covered))))
                            for cell in sorted(qmarks):
                                game.click_cell(*cell, button=3, settle=False)
                                game.click_cell(*cell, button=3)
                        if client == "sgt-mines":
                            game.click_cell(grid.rows // 2, grid.cols // 2)

                            def before_last(
                                mines: set[Cell] | None, name: str = f"game-{k:03d}-{j:02d}", seed: str | None = seed
                            ) -> None:
                                png = folder / f"{name}-pre.png"
                                if mines is None:  # take the screenshot now, draft it at the end
                                    settle(game)
                                    game.screen.save_png(png)
                                    return
                                text, problems = draft_grid(load_image(png), client, "playing", set(), mines)
                                (folder / f"{name}-pre.json").write_text(
                                    json.dumps(
                                        {
                                            "seed": seed,
                                            "state": "playing",
                                            "mines": sorted(mines),
                                            "digits": digits_of(text),
                                            "problems": problems,
                                            "board": text,
                                        },
                                        indent=1,
                                    )
                                )
                                print(f"{name}-pre: digits {digits_of(text)} problems {problems}", flush=True)

                            play_by_undo(
                                game,
                                grid,
                                reference,
                                rng,
                                flag=not args.no_flags,
                                before_last=before_last if args.no_flags else None,
                            )
                            state = "won"
                        else:
                            play_to_loss(game, grid, reference, rng, qmarks)
                            state = "lost"
                        settle(game)
                        name = f"game-{k:03d}-{j:02d}"
                        png = folder / f"{name}.png"
                        game.screen.save_png(png)
                        try:
                            grid_text, problems = draft_grid(load_image(png), client, state, qmarks)
                        except Exception as exc:  # a dense won sgt board may not locate
                            print(f"{png}: not drafted: {exc}", flush=True)
                            continue
                        found = digits_of(grid_text)
                        info = {
                            "client": client,
                            "level": args.level,
                            "tile": args.tile,
                            "seed": seed,
                            "state": state,
                            "qmarks": sorted(qmarks),
                            "digits": found,
                            "problems": problems,
                            "board": grid_text,
                        }
                        (folder / f"{name}.json").write_text(json.dumps(info, indent=1))
                        for ch in found:
                            seen[ch] = seen.get(ch, 0) + 1
                        high = "".join(ch for ch in found if ch in "45678?")
                        print(
                            f"{name}: digits {found} {'HIGH ' + high if high else ''}"
                            f"{' problems: ' + str(len(problems)) if problems else ''}",
                            flush=True,
                        )
            except DesktopError as exc:
                print(f"game {k}: {exc}", file=sys.stderr, flush=True)
    print("screens per digit:", dict(sorted(seen.items())))
    return 0


def mines_of(image: np.ndarray) -> np.ndarray:
    """Where a lost ace-minesweeper board shows mines (read as `*` or `!`)."""
    geometry = locate(image)
    profile = profile_for("ace-minesweeper", geometry.pitch[0])
    geometry = align(image, geometry, profile)
    scores = classify(image, geometry, profile)
    return np.isin(scores.chars, ["*", "!"]) & (scores.accepted | (scores.chars == "!"))


def counts_of(mine: np.ndarray) -> np.ndarray:
    rows, cols = mine.shape
    pad = np.pad(mine.astype(int), 1)
    total = sum(pad[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols] for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return np.where(mine, -1, total - mine)


def cmd_ace(args: argparse.Namespace) -> int:
    """Probe boards (seed, game) by losing them, then deal the best again and open the wanted digits."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    folder = Path(args.out) / f"ace-level{args.level}"
    folder.mkdir(parents=True, exist_ok=True)
    seed_ace(fixed_time_library(folder))
    wanted = set(args.want)
    rng = random.Random(f"ace{args.level}")
    found: list[tuple[int, int, np.ndarray]] = []  # (seed, game index, counts)
    deadline = time.monotonic() + args.minutes * 60
    with VirtualDisplay(1280, 1024) as display:
        seed = args.first_seed
        while time.monotonic() < deadline:
            with launch_client(display, "ace-minesweeper", args.level, seed=str(seed)) as game:
                grid = game.grid()
                for j in range(args.per_launch):
                    if j:
                        game.new_game()
                    reference = covered_reference(window_image(game), grid, "ace-minesweeper")
                    play_to_loss(game, grid, reference, rng, set())
                    settle(game)
                    png = folder / "probe.png"
                    game.screen.save_png(png)
                    counts = counts_of(mines_of(load_image(png)))
                    have = {str(v) for v in np.unique(counts) if v > 0} & wanted
                    found.append((seed, j, counts))
                    if have:
                        print(f"seed {seed} game {j}: {''.join(sorted(have))}", flush=True)
            seed += 1
        # greedy: boards that add the rarest wanted digits first
        chosen: list[tuple[int, int, np.ndarray]] = []
        need = set(wanted)
        while need:
            best = max(found, key=lambda f: (len({str(v) for v in np.unique(f[2])} & need), max(int(f[2].max()), 0)))
            gain = {str(v) for v in np.unique(best[2])} & need
            if not gain:
                break
            chosen.append(best)
            need -= gain
        print("not found on any probed board:", "".join(sorted(need)) or "-", flush=True)
        for seed, j, counts in chosen[: args.keep]:
            with launch_client(display, "ace-minesweeper", args.level, seed=str(seed)) as game:
                grid = game.grid()
                for _ in range(j):
                    game.new_game()
                cells = [tuple(int(v) for v in rc) for rc in np.argwhere(counts >= args.min_digit)]
                cells += [
                    tuple(int(v) for v in rc)
                    for rc in np.argwhere(np.isin(counts, [int(w) for w in wanted if w.isdigit()]))
                ]
                if args.zero and (counts == 0).any():  # one opening shows revealed 0s
                    cells.append(tuple(int(v) for v in np.argwhere(counts == 0)[0]))
                for cell in sorted(set(cells)):
                    game.click_cell(*cell)
                if exploded_cell(window_image(game), grid) is not None:
                    print(f"seed {seed} game {j}: dealt differently (a mine went off)", file=sys.stderr)
                    continue
                mine = np.argwhere(counts < 0)
                game.click_cell(*(int(v) for v in mine[len(mine) // 2]))
                settle(game)
                png = folder / f"seed{seed}-game{j}.png"
                game.screen.save_png(png)
                grid_text, problems = draft_grid(load_image(png), "ace-minesweeper", "lost", set())
                ok = all(
                    ch not in DIGITS or int(ch) == counts[r, c]
                    for r, row in enumerate(grid_text)
                    for c, ch in enumerate(row)
                )
                print(f"{png}: digits {digits_of(grid_text)}; matches the probe: {ok}; problems {problems}", flush=True)
    return 0


def cmd_draft(args: argparse.Namespace) -> int:
    qmarks = {tuple(int(v) for v in q.split(",")) for q in args.qmarks}
    png = Path(args.image)
    grid_text, problems = draft_grid(load_image(png), args.client, args.state, qmarks)  # type: ignore[arg-type]
    board = Board.parse("\n".join(grid_text))
    target = Path(args.out)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(png, target.with_suffix(".png"))
    head = [f"mines: {args.mines}", f"state: {args.state}", f"client: {args.client}", ""]
    head.append("; DRAFT: not yet checked by eye")
    target.with_suffix(".board").write_text("\n".join(head + list(board.grid)) + "\n")
    print(target.with_suffix(".board"), "digits", digits_of(grid_text))
    for p in problems:
        print("  problem:", p)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture", help="play games and keep candidate screenshots")
    c.add_argument("client", choices=["xdemineur", "ace-minesweeper", "sgt-mines", "gnome-mines"])
    c.add_argument("level", help="COLSxROWS/MINES, or ace's level key 1-4")
    c.add_argument("--tile", type=int, help="sgt-mines tile size")
    c.add_argument("--games", type=int, default=20, help="client launches")
    c.add_argument("--per-launch", type=int, default=1, help="games per launch (new game in between)")
    c.add_argument("--no-flags", action="store_true", help="sgt-mines: remember the mines, do not flag them")
    c.add_argument("--qmarks", type=int, default=0, help="xdemineur: question marks to set first")
    c.add_argument("--minutes", type=float, default=10.0, help="stop after this long")
    c.add_argument("--seed", default="digits")
    c.add_argument("--out", default="/tmp/digit-candidates")
    c.set_defaults(run=cmd_capture)
    d = sub.add_parser("draft", help="copy a candidate to a fixture path with a draft .board")
    d.add_argument("image")
    d.add_argument("--client", required=True)
    d.add_argument("--mines", type=int, required=True)
    d.add_argument("--state", choices=["lost", "won"], required=True)
    d.add_argument("--qmarks", nargs="*", default=[], help="cells R,C where a question mark was set")
    d.add_argument("--out", required=True, help="fixture path without suffix")
    d.set_defaults(run=cmd_draft)
    a = sub.add_parser("ace", help="ace-minesweeper: probe boards with a fixed seed, deal the best again")
    a.add_argument("level", choices=["1", "2", "3", "4"])
    a.add_argument("--want", default="345678", help="digits to look for")
    a.add_argument("--min-digit", type=int, default=9, help="also open every cell with at least this count")
    a.add_argument("--zero", action="store_true", help="also open one 0 (an opening)")
    a.add_argument("--minutes", type=float, default=4.0, help="probing time")
    a.add_argument("--per-launch", type=int, default=20)
    a.add_argument("--first-seed", type=int, default=1000)
    a.add_argument("--keep", type=int, default=3, help="boards to deal again")
    a.add_argument("--out", default="/tmp/digit-candidates")
    a.set_defaults(run=cmd_ace)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
