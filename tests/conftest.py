"""Tests never read or write the user's own calibrated profiles."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_profiles(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    folder: Path = tmp_path_factory.mktemp("user-profiles")
    monkeypatch.setenv("SWEEPBOT_PROFILES", str(folder))
