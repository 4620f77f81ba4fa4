"""What is worked out once from a profile and used again on every frame (its looks drawn at another cell size,
with its kin's numbers, at each brightness guess; each look's mean level; its digits' inks; its first looks
alone), kept beside the profile for as long as the profile lives, never written into the frozen profile
itself.

Values of one family (the profile drawn at each cell size asked for) are kept for the few last asked for
only: a process that reads boards at many sizes (a benchmark, a replay of many recordings) would otherwise
keep every size it ever met, each with what is worked out from it in turn.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

#: The most values of one family kept beside one owner: the last asked for. A board read in play is at one
#: size, or at a few while a window is resized; each size let go is worked out again when next asked for.
FAMILY_KEPT = 8

#: each living profile's derived values, by the profile's id and a key naming the value
_KEPT: dict[int, dict[Hashable, Any]] = {}
#: each living profile's families of values: their keys, by the profile's id and the family, oldest first
_ORDER: dict[int, dict[Hashable, dict[Hashable, None]]] = {}


def derived(owner: object, key: Hashable, make: Callable[[], T], family: Hashable | None = None) -> T:
    """``make()``, worked out once for ``owner`` under ``key`` and kept until ``owner`` is gone (so a value
    must not hold ``owner`` itself: it would keep it alive). With ``family``, the value is one of its
    owner's values of that family, of which only the ``FAMILY_KEPT`` last asked for are kept."""
    kept = _KEPT.get(id(owner))
    if kept is None:
        kept = _KEPT[id(owner)] = {}
        weakref.finalize(owner, _let_go, id(owner))
    if key not in kept:
        made = make()
        if made is owner:
            raise ValueError(f"{key!r}: a value derived from an object must not be the object itself")
        kept[key] = made
    value: T = kept[key]
    if family is not None:
        _asked_for(id(owner), family, key)
    return value


def derived_before(owner: object, key: Hashable) -> Any:
    """The value kept for ``owner`` under ``key`` (None: none is)."""
    return _KEPT.get(id(owner), {}).get(key)


def _asked_for(owner: int, family: Hashable, key: Hashable) -> None:
    """Note ``key`` as the last of ``family`` asked for, and let go of the oldest beyond ``FAMILY_KEPT``."""
    kept = _KEPT[owner]
    order = _ORDER.setdefault(owner, {}).setdefault(family, {})
    order.pop(key, None)
    order[key] = None
    while len(order) > FAMILY_KEPT:
        oldest = next(iter(order))
        del order[oldest]
        kept.pop(oldest, None)


def _let_go(owner: int) -> None:
    _KEPT.pop(owner, None)
    _ORDER.pop(owner, None)


def kept_for(owner: object) -> int:
    """How many derived values ``owner`` has (for tests)."""
    return len(_KEPT.get(id(owner), {}))


def forget_all() -> None:
    """Let go of every derived value (worked out again when next asked for: after the reader's numbers change)."""
    for kept in list(_KEPT.values()):
        kept.clear()
    for families in list(_ORDER.values()):
        families.clear()
