"""``sweepbot profiles``: the profiles sweepbot can read with, built-in and calibrated."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        "profiles", help="list the profiles", description="List the built-in and calibrated profiles: name, "
        "client, cell size, the cell characters each can read, and where it lives (learnt: a built-in profile "
        "with the looks play learnt, kept in your folder).")
    return parser


def run(args: argparse.Namespace) -> int:
    from sweepbot.vision.profile import available_profiles, user_profiles_dir

    rows: list[dict[str, Any]] = []
    for p in sorted(available_profiles(), key=lambda p: p.name):
        rows.append({"name": p.name, "client": p.client, "cell": [round(v, 2) for v in p.pitch],
                     "chars": "".join(sorted(p.chars - {"~"})), "unnamed": p.labels.count("~"),
                     "counter": bool(p.counter),
                     "source": "built-in" if p.in_package else "learnt" if p.built_in else "calibrated",
                     "folder": str(p.folder)})
    if args.json:
        print(json.dumps({"user_folder": str(user_profiles_dir()), "profiles": rows}))
        return 0
    print(f"; calibrated profiles are saved in {user_profiles_dir()}")
    for r in rows:
        extra = f", {r['unnamed']} unnamed looks" if r["unnamed"] else ""
        print(f"{r['name']:28} {r['source']:10} cell {r['cell'][0]:g}x{r['cell'][1]:g} px  reads {r['chars']}{extra}")
    return 0
