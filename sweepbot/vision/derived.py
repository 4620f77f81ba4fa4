"""What is worked out once from a profile and used again on every frame (its looks drawn at another cell size,
with its kin's numbers, at each brightness guess; each look's mean level; its digits' inks; its first looks
alone), kept beside the profile for as long as the profile lives, never written into the frozen profile
itself."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

#: each living profile's derived values, by the profile's id and a key naming the value
_KEPT: dict[int, dict[Hashable, Any]] = {}


def derived(owner: object, key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, worked out once for ``owner`` under ``key`` and kept until ``owner`` is gone (so a value
    must not hold ``owner`` itself: it would keep it alive)."""
    kept = _KEPT.get(id(owner))
    if kept is None:
        kept = _KEPT[id(owner)] = {}
        weakref.finalize(owner, _KEPT.pop, id(owner), None)
    if key not in kept:
        made = make()
        if made is owner:
            raise ValueError(f"{key!r}: a value derived from an object must not be the object itself")
        kept[key] = made
    value: T = kept[key]
    return value


def kept_for(owner: object) -> int:
    """How many derived values ``owner`` has (for tests)."""
    return len(_KEPT.get(id(owner), {}))


def forget_all() -> None:
    """Let go of every derived value (worked out again when next asked for: after the reader's numbers change)."""
    for kept in list(_KEPT.values()):
        kept.clear()
