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
