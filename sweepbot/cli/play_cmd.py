"""``sweepbot play``: play the game on screen, several games in a row, and sum them up."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2

from sweepbot.errors import SweepbotError
from sweepbot.game import FIRST_CLICK_RULES
from sweepbot.playing.loop import Player
from sweepbot.playing.record import Recorder
from sweepbot.playing.session import play_games
from sweepbot.playing.settings import GameReport, PlaySettings, settings_for
from sweepbot.playing.vision_reader import VisionReader
from sweepbot.routes.route import ABOUT, ROUTES
from sweepbot.solver.strategy import parse_strategy
from sweepbot.vision.rules import PlayRules
from sweepbot.watch.live import ScreenGrabber, live_watcher


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "play", help="play the Minesweeper game open on screen",
        description="Find the Minesweeper board on screen and play it with the mouse. Move the mouse (or push "
        "it into a screen corner) to stop the bot at once.")
    parser.add_argument("--profile", help="the client profile to read with (default: the one that fits)")
    parser.add_argument("--games", type=int, default=1, help="games to play in a row (default 1)")
    parser.add_argument("--record", metavar="DIR", help="save every frame acted on, what was read and the move")
    parser.add_argument("--dry-run", action="store_true", help="read and plan the moves, draw them, click nothing")
    parser.add_argument("--annotate", metavar="OUT.png", help="with --dry-run: where to draw the planned moves")
    parser.add_argument("--first-click", choices=FIRST_CLICK_RULES, help="the client's first-click rule "
                        "(default: known per client, else none)")
    parser.add_argument("--mines", type=int, help="total mines, when the client shows no counter")
    parser.add_argument("--strategy", default="full", help="solver strategy (see sweepbot bench)")
    parser.add_argument("--max-clicks", type=int, default=20_000,
                        help="stop a game after this many clicks (default 20000)")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="stop a game after this long")
    add_route_option(parser)
    return parser


def add_route_option(parser: argparse.ArgumentParser) -> None:
    """``--route``: how the screen is seen and input sent (docs/screens.md)."""
    parser.add_argument("--route", choices=("auto", *ROUTES), default="auto",
                        help="how the screen is seen and input sent (default auto: the one that shows a board "
                        "here): " + "; ".join(f"{name}: {about}" for name, about in ABOUT.items()))


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise SweepbotError("--games must be at least 1")
    if args.max_clicks < 1 or args.max_seconds <= 0:
        raise SweepbotError("--max-clicks and --max-seconds must be positive")
    if args.mines is not None and args.mines < 1:
        raise SweepbotError("--mines must be at least 1")
    screen = ScreenGrabber(args.route)
    try:
        return play_on(screen, args)
    finally:
        screen.close()


def play_on(screen: ScreenGrabber, args: argparse.Namespace) -> int:
    reader = VisionReader(args.profile)
    watcher = live_watcher(screen, inputs=not args.dry_run)
    frame = watcher.off_board(screen.grab())  # a tile under a resting pointer may be lit
    reader.read(frame)  # refuses clearly when no board is on screen
    rules = reader.profile.play if reader.profile else PlayRules()
    settings = settings_for(rules, args.first_click, mines=args.mines, strategy=parse_strategy(args.strategy),
                            max_seconds=args.max_seconds, dry_run=args.dry_run, max_clicks=args.max_clicks)
    recorder = Recorder(Path(args.record), args.strategy, settings.first_click,
                        lambda: reader.profile) if args.record else None
    if args.dry_run:
        return dry_run(screen, reader, settings, recorder, args)

    def progress(number: int, report: GameReport) -> None:
        print(f"game {number}/{args.games}: {report.result} in {report.seconds:.1f} s, {report.clicks} clicks"
              + (f" ({report.error})" if report.error else ""), file=sys.stderr, flush=True)

    summary = play_games(watcher, reader, settings, args.games, rules, recorder, progress)
    if args.json:
        print(json.dumps({**summary.to_json(), "route": screen.route.name}))
    else:
        rate = summary.to_json()["three_bv_per_second"]
        print(f"{summary.games} games: {summary.wins} won, {summary.losses} lost, {summary.errors} errors; "
              f"{summary.clicks} clicks in {summary.seconds:.1f} s"
              + (f"; 3BV/s of the wins {rate}" if rate is not None else "") + f" (route {screen.route.name})")
    return 0 if summary.errors == 0 else 1


def dry_run(screen: ScreenGrabber, reader: VisionReader, settings: PlaySettings, recorder: Recorder | None,
            args: argparse.Namespace) -> int:
    from sweepbot.vision.annotate import annotate

    player = Player(live_watcher(screen, inputs=False), reader, settings, recorder)
    frame = screen.grab()
    report = player.play_game()
    reading = reader.read_vision(frame)
    out = annotate(frame, reading.geometry, reading.board)
    for r, c in report.planned:
        x, y = reading.geometry.center(r, c)
        cv2.circle(out, (x, y), max(3, int(min(reading.geometry.pitch) / 3)), (0, 160, 255), 2)
    path = Path(args.annotate or "sweepbot-dry-run.png")
    cv2.imwrite(str(path), out)
    result = {"result": report.result, "planned": [list(cell) for cell in report.planned], "annotated": str(path),
              "board": list(reading.board.grid), "profile": reading.profile.name}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"dry run: {report.result}; would click {len(report.planned)} cell(s) {report.planned[:8]}; "
              f"drawn on {path}")
    return 0
