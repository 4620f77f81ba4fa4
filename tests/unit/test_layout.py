"""The parts form the one-way stack that docs/architecture.md describes: no part imports one above it."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "sweepbot"
LAB = Path(__file__).parents[2] / "lab" / "sweeplab"

#: what the lab (a distribution of its own, not in sweepbot's wheel) may import from sweepbot
LAB_ALLOWED = {"rect", "errors"}
#: and its demo, which runs ``sweepbot play`` and makes the GIF
DEMO_ALLOWED = {"rect", "errors", "cli", "playing"}

#: what each part may import (besides itself); the table in docs/architecture.md
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "rect": set(),
    "clock": set(),
    "threads": set(),
    "board": {"errors"},
    "game": {"board", "errors"},
    "solver": {"board", "errors"},
    "simulate": {"board", "game", "solver"},
    "vision": {"board", "errors", "rect"},
    "control": {"clock", "errors", "rect"},
    "routes": {"control", "errors", "rect", "vision"},
    "watch": {"clock", "control", "errors", "rect", "routes", "vision"},
    "playing": {"board", "clock", "control", "errors", "game", "rect", "solver", "threads", "vision", "watch"},
    "calibration": {"board", "errors", "rect", "solver", "threads", "vision", "watch"},
    "cli": {"board", "calibration", "errors", "game", "playing", "routes", "simulate", "solver", "threads",
            "vision", "watch"},
}


def imported(path: Path) -> set[str]:
    """The parts of sweepbot a file imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
            [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
        found |= {name.split(".")[1] for name in names if name.startswith("sweepbot.")}
    return found


def imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        part = path.relative_to(PACKAGE).with_suffix("").parts[0]
        found[part] |= imported(path) - {part}
    return {part: targets for part, targets in found.items() if targets}


def test_sweepbot_never_imports_the_lab_and_the_lab_uses_only_the_bottom_of_sweepbot() -> None:
    """The wheel holds sweepbot alone: nothing in it imports sweeplab, which a user's install does not have."""
    for path in PACKAGE.rglob("*.py"):
        assert "sweeplab" not in path.read_text(encoding="utf-8"), f"{path} names the lab"
    for path in LAB.rglob("*.py"):
        beyond = imported(path) - (DEMO_ALLOWED if path.name == "demo.py" else LAB_ALLOWED)
        assert not beyond, f"{path} imports {sorted(beyond)}"


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
    modules = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"} | {
        str(p.relative_to(LAB.parent)) for p in LAB.rglob("*.py")
        if p.name != "__init__.py" and "launchers" not in p.parts}
    named = set(re.findall(r"^\s*([\w/]+\.py)\s", layout, re.M))
    assert modules - named == set(), "modules the docs do not name"
    assert named - modules == set(), "modules the docs name that do not exist"
