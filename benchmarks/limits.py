#!/usr/bin/env python3
"""What each number of the reader's table guards: every recorded fixture read, and the reading tests run, with
one number changed at a time.

    .venv/bin/python benchmarks/limits.py [--tests] [--json] [NAME[=VALUE] ...]

The numbers are those of ``sweepbot/vision/limits.py``. Each is tried tighter and looser (half and twice its
value; a list of moves or guesses cut to its first), or at the VALUE given (JSON). For each try, every
screenshot under ``tests/fixtures/`` with its board written beside it (``NAME.board``) is read from scratch
with the built-in profiles (or as play reads with the profile folder beside it, ``profile/``): how many
read right, read wrong (a board other than the one written down) and are refused, against the table as it
is. With ``--tests`` the reading tests (tests/recorded and the unit tests of reading and calibrating) run with
the changed number too (``SWEEPBOT_TEST_LIMITS``), and the tests that fail are listed: what the number guards.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from sweepbot.board import Board
from sweepbot.errors import SweepbotError
from sweepbot.vision import limits
from sweepbot.vision.capture import load_image
from sweepbot.vision.profile import load_profile
from sweepbot.vision.read import read_screenshot

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/recorded", "tests/unit/test_ink.py", "tests/unit/test_vision_locate.py",
         "tests/unit/test_calibration.py", "tests/unit/test_limits.py"]


def tries(name: str, value: Any) -> list[Any]:
    """A tighter and a looser value of a number (a list cut to its first entry)."""
    if isinstance(value, tuple):
        return [value[:1]]
    if isinstance(value, int):
        return [max(0, value // 2), value * 2]
    return [value / 2, value * 2]


def read_all(fixtures: list[tuple[Path, Board]]) -> dict[str, list[str]]:
    """The fixtures read right, read wrong and refused, by name."""
    out: dict[str, list[str]] = {"right": [], "wrong": [], "refused": []}
    for png, expected in fixtures:
        name = str(png.relative_to(ROOT / "tests" / "fixtures"))
        # a screenshot with a profile folder beside it (a client with no built-in profile) is read with that, as
        # play reads with a calibrated profile (a number it never saw read as open, number unknown)
        own = png.parent / "profile"
        try:
            board = (read_screenshot(load_image(png), profiles=[load_profile(own)], opened_unknown=True) if own.is_dir()
                     else read_screenshot(load_image(png))).board
        except SweepbotError:
            out["refused"].append(name)
            continue
        out["right" if board.grid == expected.grid else "wrong"].append(name)
    return out


def failing_tests(changes: dict[str, Any]) -> list[str]:
    env = dict(os.environ, SWEEPBOT_TEST_LIMITS=json.dumps(changes), OPENBLAS_NUM_THREADS="1")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                             "-n", "2", "-rf", *TESTS], cwd=ROOT, env=env, capture_output=True, text=True,
                            check=False)
    return sorted({line.split()[1].split(" - ")[0] for line in result.stdout.splitlines()
                   if line.startswith("FAILED ")})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("numbers", nargs="*", help="NAME or NAME=VALUE (JSON); default: every number, both ways")
    parser.add_argument("--tests", action="store_true", help="also run the reading tests with each change")
    parser.add_argument("--json", action="store_true", help="one JSON line per try")
    args = parser.parse_args()
    table = {f.name: getattr(limits.LIMITS, f.name) for f in fields(limits.Limits)}
    plan: list[tuple[str, Any]] = []
    for given in args.numbers or list(table):
        name, _, value = given.partition("=")
        if name not in table:
            parser.error(f"no number {name!r} in the table: {', '.join(table)}")
        plan += [(name, json.loads(value))] if value else [(name, v) for v in tries(name, table[name])]
    fixtures = [(png, Board.parse(png.with_suffix(".board").read_text(encoding="utf-8")))
                for png in sorted((ROOT / "tests" / "fixtures").rglob("*.png")) if png.with_suffix(".board").is_file()]
    base = read_all(fixtures)
    print(f"as it is: {len(base['right'])} right, {len(base['wrong'])} wrong, {len(base['refused'])} refused "
          f"of {len(fixtures)}", flush=True)
    for name, value in plan:
        with limits.using(**{name: tuple(map(tuple, value)) if isinstance(value, list) else value}):
            got = read_all(fixtures)
        row: dict[str, Any] = {"number": name, "value": table[name], "tried": value,
                               **{k: len(v) for k, v in got.items()},
                               "newly_wrong": sorted(set(got["wrong"]) - set(base["wrong"])),
                               "newly_refused": sorted(set(got["refused"]) - set(base["refused"]))}
        if args.tests:
            row["failing_tests"] = failing_tests({name: value})
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        print(f"{name} {table[name]!r} -> {value!r}: {row['right']} right, {row['wrong']} wrong, {row['refused']} "
              f"refused; newly wrong {row['newly_wrong'][:4]}, newly refused {row['newly_refused'][:4]}"
              + (f"; failing tests: {row['failing_tests']}" if args.tests else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
