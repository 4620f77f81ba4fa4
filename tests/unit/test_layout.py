"""The parts form the one-way stack that docs/architecture.md describes: no part imports one above it."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "sweepbot"

#: what each part may import (besides itself); the table in docs/architecture.md
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "rect": set(),
    "clock": set(),
    "board": {"errors"},
    "game": {"board", "errors"},
    "solver": {"board", "errors"},
    "simulate": {"board", "game", "solver"},
    "vision": {"board", "errors", "rect"},
    "control": {"clock", "errors", "rect"},
    "routes": {"control", "errors", "rect", "vision"},
    "watch": {"clock", "control", "errors", "rect", "routes", "vision"},
    "play": {"board", "clock", "control", "errors", "game", "rect", "solver", "vision", "watch"},
    "calibration": {"board", "errors", "rect", "solver", "vision", "watch"},
    "desktop": {"errors", "rect"},
    "cli": {"board", "calibration", "desktop", "errors", "game", "play", "routes", "simulate", "solver", "vision",
            "watch"},
}


def imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        part = parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                if name.startswith("sweepbot.") and name.split(".")[1] != part:
                    found[part].add(name.split(".")[1])
    return found


def test_every_part_imports_only_parts_below_it() -> None:
    found = imports()
    assert set(found) - {"__main__", "__init__"} <= set(ALLOWED)
    for part, targets in found.items():
        if part in ("__main__", "__init__"):
            continue
        assert targets <= ALLOWED[part], f"{part} imports {sorted(targets - ALLOWED[part])}"


def test_the_table_in_the_docs_names_every_part_and_what_it_depends_on() -> None:
    """docs/architecture.md's table of parts says what each part imports, exactly."""
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = {name: set() if deps.strip() in ("nothing", "") else {d.strip() for d in deps.split(",")}
             for name, deps in re.findall(r"^\| `(\w+)(?:/|\.py)` \|[^|]*\|([^|]*)\|$", text, re.M)}
    table.pop("profiles", None)
    assert table == ALLOWED
    assert {part: targets for part, targets in imports().items() if part not in ("__main__", "__init__")} == {
        part: targets for part, targets in ALLOWED.items() if targets}


def test_the_docs_name_every_module() -> None:
    """docs/architecture.md's layout names every module, and no module that is gone."""
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout"):]
    modules = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if p.name != "__init__.py" and "launchers" not in p.parts}
    named = set(re.findall(r"^\s*([\w/]+\.py)\s", layout, re.M))
    assert modules - named == set(), "modules the docs do not name"
    assert named - modules == set(), "modules the docs name that do not exist"
