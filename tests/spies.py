"""Spies on the product's functions: what a test counts of the calls a read makes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def rows_given(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """The number of rows (windows) each call of ``module.name`` is given as its first argument, in the order
    of the calls; the function itself still answers."""
    given: list[int] = []
    real: Callable[..., Any] = getattr(module, name)

    def counted(rows: Any, *args: Any, **kwargs: Any) -> Any:
        given.append(len(rows))
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return given


def windows_scored(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Each call of ``vision.cells.score`` from any module of ``sweepbot.vision`` that imported it: the number
    of windows it is given and the name of the profile they are scored against, in the order of the calls;
    the function itself still answers."""
    import sys

    from sweepbot.vision import cells

    scored: list[tuple[int, str]] = []
    real = cells.score

    def counted(windows: Any, profile: Any, *args: Any, **kwargs: Any) -> Any:
        scored.append((len(windows), str(profile.name)))
        return real(windows, profile, *args, **kwargs)

    for module in [m for name, m in sys.modules.items() if name.startswith("sweepbot.vision")]:
        if getattr(module, "score", None) is real:
            monkeypatch.setattr(module, "score", counted)
    return scored
