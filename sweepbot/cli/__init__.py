"""The ``sweepbot`` command line: one module per command, each with ``add_parser`` and ``run``."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import ModuleType

from sweepbot.errors import SweepbotError
from sweepbot.threads import on_one_thread


def _commands() -> list[ModuleType]:
    from sweepbot.cli import (
        bench_cmd,
        calibrate_cmd,
        play_cmd,
        profiles_cmd,
        read_cmd,
        replay_cmd,
        solve_cmd,
    )

    return [play_cmd, calibrate_cmd, profiles_cmd, read_cmd, replay_cmd, solve_cmd, bench_cmd]


DESCRIPTION = """\
Play Minesweeper by looking at the screen and moving the mouse: sweepbot finds the board, reads every cell,
works out the mine probabilities and clicks the move most likely to win. Move the mouse to stop it."""

EPILOG = """\
examples:
  sweepbot play --games 5                      play the game open on screen, five games in a row
  sweepbot play --dry-run --annotate plan.png  draw the moves it would make, click nothing
  sweepbot calibrate --live --client NAME      learn a client sweepbot cannot read yet
  sweepbot solve board.txt                     probabilities and the move for a board written as text

Every command takes --json (one JSON object on stdout, also on errors); 'sweepbot COMMAND --help' tells more."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sweepbot", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")
    for module in _commands():
        command = module.add_parser(sub)
        command.add_argument("--json", action="store_true", help="print one JSON object on stdout")
        command.set_defaults(run=module.run)
    return parser


class Terminated(BaseException):
    """SIGTERM arrived: the command stops as on Ctrl-C, closing what it started (a virtual screen, a client)."""


def _terminate(_signum: int, _frame: object) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return stopping_on_sigterm(args, on_one_thread(args.run))


def stopping_on_sigterm(args: argparse.Namespace, run: Callable[[argparse.Namespace], int]) -> int:
    """Run a command: a ``SweepbotError`` becomes its message and exit code, Ctrl-C and SIGTERM exit 2 after
    what the command started is closed."""
    main_thread = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    try:
        return int(run(args))
    except SweepbotError as err:
        return fail(args, str(err), err.exit_code, err.partial)
    except KeyboardInterrupt:
        return fail(args, "interrupted", 2)
    except Terminated:
        return fail(args, "terminated", 2)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, before)


def fail(args: argparse.Namespace, message: str, code: int, partial: dict[str, object] | None = None) -> int:
    """Say why a command stopped: on stderr always, and with ``--json`` as one object on stdout, with what was
    done before (``partial``)."""
    print(f"sweepbot {args.command}: {message}", file=sys.stderr)
    if getattr(args, "json", False):
        print(json.dumps({"error": message, **(partial or {})}), flush=True)
    return code
