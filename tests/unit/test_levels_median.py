"""The median a board's mean levels are judged by (vision.levels)."""

from __future__ import annotations

import numpy as np

from sweepbot.vision.levels import median_of


def test_the_median_of_levels_is_numpys_to_the_last_bit() -> None:
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 81, 256, 480):
        for _ in range(50):
            values = rng.normal(size=n) * rng.uniform(0.1, 200.0)
            assert median_of(values) == float(np.median(values))
    assert median_of(np.array([3.0, 1.0, 2.0, 10.0])) == 2.5
