"""The median and the means a board's levels are judged by (vision.levels)."""

from __future__ import annotations

import numpy as np

from sweepbot.vision.levels import median_of, medians_by, row_means


def test_the_median_of_levels_is_numpys_to_the_last_bit() -> None:
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 81, 256, 480):
        for _ in range(50):
            values = rng.normal(size=n) * rng.uniform(0.1, 200.0)
            assert median_of(values) == float(np.median(values))
    assert median_of(np.array([3.0, 1.0, 2.0, 10.0])) == 2.5


def test_the_median_of_each_looks_cells_is_numpys_to_the_last_bit() -> None:
    rng = np.random.default_rng(5)
    for n, kinds in ((1, 1), (2, 2), (5, 5), (81, 3), (480, 12)):
        for _ in range(20):
            looks = rng.integers(0, kinds, n) * 3  # looks' indices, not all of them named
            offsets = rng.normal(size=n) * 20.0
            expected = [float(np.median(offsets[looks == look])) for look in np.unique(looks)]
            assert medians_by(looks, offsets).tolist() == expected
    assert medians_by(np.array([4, 1, 4, 1, 1]), np.array([9.0, 3.0, 1.0, 2.0, 7.0])).tolist() == [3.0, 5.0]


def test_the_mean_of_each_window_is_numpys_to_the_last_bit() -> None:
    rng = np.random.default_rng(11)
    for n, width in ((1, 3), (7, 675), (480, 2028), (3, 1)):
        rows = rng.integers(0, 256, (n, width), dtype=np.uint8)
        assert np.array_equal(row_means(rows), rows.mean(axis=1))
    # a window of white pixels: sums past 16 bits stay exact
    white = np.full((2, 100 * 100 * 3), 255, np.uint8)
    assert np.array_equal(row_means(white), np.full(2, 255.0))
    assert row_means(np.zeros((0, 12), np.uint8)).shape == (0,)
