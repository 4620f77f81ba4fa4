"""``sweepbot solve BOARD_FILE... [--mines N]``: certain cells, exact probabilities and the move."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sweepbot.board import Board, BoardError
from sweepbot.errors import SweepbotError
from sweepbot.game import FIRST_CLICK_RULES
from sweepbot.solver import Analysis, solve


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "solve", help="analyse board files", description="Analyse board text files: safe cells, mines, "
        "the mine probability of every covered cell and the move to make.")
    parser.add_argument("files", nargs="+", metavar="BOARD_FILE", help="board text file ('-' for stdin)")
    parser.add_argument("--mines", type=int, help="total mines in the game (overrides the file's header)")
    parser.add_argument("--first-click", choices=FIRST_CLICK_RULES, default="opening",
                        help="the game's first-click rule, for the first move (default: opening)")
    return parser


def load_board(name: str) -> Board:
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SweepbotError(f"{name}: cannot read the board file: {err}") from None
    try:
        return Board.parse(text)
    except BoardError as err:
        raise BoardError(f"{name}: {err}") from None


def run(args: argparse.Namespace) -> int:
    if args.mines is not None and args.mines < 0:
        raise SweepbotError("--mines must not be negative")
    failed = 0
    for name in args.files:
        try:
            analysis = solve(load_board(name), mines=args.mines, first_click=args.first_click)
        except SweepbotError as err:
            message = str(err) if str(err).startswith(name) else f"{name}: {err}"
            print(f"sweepbot solve: {message}", file=sys.stderr)
            if args.json:
                print(json.dumps({"file": name, "error": message}), flush=True)
            failed += 1
            continue
        if args.json:
            print(json.dumps(analysis.to_json()), flush=True)
        else:
            print(render(name, analysis), flush=True)
    return 2 if failed else 0


def render(name: str, analysis: Analysis) -> str:
    """The board as a grid: revealed cells as they are, covered cells as their mine probability in %."""
    board = analysis.board
    move = analysis.move
    head = (f"{name}: {board.rows}x{board.cols}, {len(analysis.safe)} safe, {len(analysis.mines)} certain "
            f"mines, move: {move.action + ' ' + str(move.cell) if move else 'none (nothing covered)'}"
            f"{'' if analysis.exact else ' (estimated)'}, {analysis.ms:.1f} ms")
    grid = analysis.probability_grid()
    lines = [head, "     " + "".join(f"{c:>4}" for c in range(board.cols))]
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            p = grid[r][c]
            ch = board[(r, c)]
            if p is None:
                cells.append(f"{ch:>4}")
            elif ch == "F":
                cells.append("   F")
            elif p == 0:
                cells.append("  ok")
            elif p == 1:
                cells.append("   *")
            else:
                cells.append(f"{round(p * 100):>3}%" if 0.005 <= p <= 0.995 else f"{p * 100:>3.1f}"[:4])
        lines.append(f"{r:>4} " + "".join(cells))
    return "\n".join(lines)
