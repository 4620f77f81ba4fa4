"""Tests never read or write the user's own calibrated profiles; every test in tests/e2e/ is marked e2e."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_profiles(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    folder: Path = tmp_path_factory.mktemp("user-profiles")
    monkeypatch.setenv("SWEEPBOT_PROFILES", str(folder))


E2E = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)
