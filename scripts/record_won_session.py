#!/usr/bin/env python3
"""Record a calibration session of a dense sgt-mines board played to a win by undoing every death.

    record_won_session.py SIZE --tile N --out DIR [--seed S]
    e.g. record_won_session.py 16x12/125 --tile 12 --out tests/fixtures/calibration/sgt-mines-12px-won

A live calibration (``sweepbot calibrate --live``) seldom sees a 7 or an 8: they need dense boards, which it
loses at once, and sgt-mines shows only the mine that went off. sgt-mines can undo a death (``u``): here a
dense board is played by random clicks, each death undone and its mine flagged, until every safe cell is
open. The session (same format as ``calibrate --live --record``) keeps two frames, cropped around the board:
the new game (every cell covered) and the won board, with the facts the play proved: the cells flagged
(right-clicked, each after its mine went off) and every other cell opened. At that win every mine is
flagged, so the calibration counts every number, the rare ones too.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from capture_fixtures import covered_cells, covered_reference, undo_death, window_image  # noqa: E402

from sweepbot.calibration.facts import REVEALED, Fact  # noqa: E402
from sweepbot.calibration.live.session import KEEP_MARGIN, LiveSession  # noqa: E402
from sweepbot.calibration.recording import save_session  # noqa: E402
from sweepbot.vision.locate import locate  # noqa: E402
from sweeplab import CLIENTS, DesktopError, Grid, LaunchedClient, VirtualDisplay, launch_client  # noqa: E402

Cell = tuple[int, int]


def play_to_win(game: LaunchedClient, grid: Grid, rng: random.Random) -> tuple[set[Cell], set[Cell]]:
    """Random clicks on covered cells; each death undone (``u``) and its mine flagged. Returns the mines
    flagged, and the cells still covered before the click that won (but that one): mines that never went
    off (the client flags them itself at the win)."""
    reference = covered_reference(window_image(game), grid, "sgt-mines")
    mines: set[Cell] = set()
    left: set[Cell] = set()
    for _ in range(6 * grid.rows * grid.cols):
        image = window_image(game)
        boom = undo_death(game, grid, image)
        if boom is not None:
            mines.add(boom)
            continue
        choices = sorted(covered_cells(image, grid, reference) - mines)
        if not choices:
            return mines, left
        cell = rng.choice(choices)
        left = set(choices) - {cell}
        game.click_cell(*cell)
    raise DesktopError("sgt-mines: the game did not end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("size", help="COLSxROWS/MINES, dense (e.g. 16x12/125)")
    parser.add_argument("--tile", type=int, required=True, help="MINES_TILESIZE")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    CLIENTS["sgt-mines"].allow_guessing = True  # dense boards cannot be made guess-free
    rng = random.Random(args.seed)
    with VirtualDisplay(1280, 1024) as display, launch_client(
            display, "sgt-mines", args.size, seed=str(rng.randrange(10**9)), tile_size=args.tile) as game:
        grid = game.grid()
        game.park_pointer()
        fresh = game.wait_settled(quiet=0.2)
        fresh = game.screen.grab()
        geometry = locate(fresh)
        if (geometry.rows, geometry.cols) != (grid.rows, grid.cols):
            raise SystemExit(f"located {geometry.rows}x{geometry.cols}, the client plays {grid.rows}x{grid.cols}")
        game.click_cell(grid.rows // 2, grid.cols // 2)
        mines, unflagged = play_to_win(game, grid, rng)
        game.park_pointer()
        game.wait_settled(quiet=0.5)
        won = game.screen.grab()
    if len(mines) + len(unflagged) != grid_mines(args.size):
        raise SystemExit(f"{len(mines)} mines flagged and {len(unflagged)} left, the board has "
                         f"{grid_mines(args.size)}")
    x, y, w, h = geometry.bbox
    x0, y0 = max(0, x - KEEP_MARGIN[0]), max(0, y - KEEP_MARGIN[1])
    x1, y1 = x + w + KEEP_MARGIN[2], y + h + KEEP_MARGIN[3]
    frames = [fresh[y0:y1, x0:x1].copy(), won[y0:y1, x0:x1].copy()]
    cells = [(r, c) for r in range(grid.rows) for c in range(grid.cols)]
    facts = [Fact(0, r, c, "#") for r, c in cells]
    # no fact for the mines that never went off: flagged by the client, not by a right-click seen here
    facts += [Fact(1, r, c, "F" if (r, c) in mines else REVEALED) for r, c in cells if (r, c) not in unflagged]
    folder = save_session(LiveSession(frames, facts, {"new_game_keys": [["n"]]}, 1, 1), Path(args.out))
    print(f"{folder}: won; {len(mines)} mines flagged after their deaths were undone, {len(unflagged)} never hit")
    return 0


def grid_mines(size: str) -> int:
    return int(size.split("/")[1])


if __name__ == "__main__":
    sys.exit(main())
