"""Tests never read or write the user's own calibrated profiles; every test in tests/e2e/ is marked e2e.

A bare ``pytest`` runs the quick set: no real client, nothing marked slow. ``pytest --full`` (what
``./scripts/test`` runs) runs every test; a test that names tests or a marker runs what it names.

``SWEEPBOT_TEST_LIMITS`` (JSON: ``{"max_rms": 15}``) runs the tests with numbers of the reader's table changed
(``sweepbot/vision/limits.py``): ``benchmarks/limits.py`` finds so which tests each number guards."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

E2E = Path(__file__).parent / "e2e"
QUICK = "not e2e and not slow"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true",
                     help="every test, real clients included; a real client that cannot start fails the test")


def pytest_configure(config: pytest.Config) -> None:
    named = config.args_source != pytest.Config.ArgsSource.TESTPATHS
    if not config.getoption("full") and not config.option.markexpr and not named:
        config.option.markexpr = QUICK
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):
        # tests run side by side (pytest -n): each worker's virtual screens take display numbers of their own
        os.environ["SWEEPBOT_FIRST_DISPLAY"] = str(100 + 60 * int(worker[2:]))
    changed = os.environ.get("SWEEPBOT_TEST_LIMITS")
    if changed:
        from dataclasses import replace

        from sweepbot.vision import limits

        limits.LIMITS = replace(limits.LIMITS, **{name: tuple(map(tuple, value)) if isinstance(value, list)
                                                  else value for name, value in json.loads(changed).items()})


@pytest.fixture(autouse=True)
def _private_profiles(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    folder: Path = tmp_path_factory.mktemp("user-profiles")
    monkeypatch.setenv("SWEEPBOT_PROFILES", str(folder))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)
    # the long tests first: run side by side (pytest -n), the quick ones then fill the gaps, not a long tail
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow") or item.get_closest_marker("e2e") else 1)
