"""Routes to the screen, in parts that need no desktop: the X authority cookie as X clients find it, windows
laid over each other by their alpha, and which route a session gets."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from sweepbot.control.xauth import FAMILY_LOCAL, FAMILY_WILD, cookie_for, display_number, entries
from sweepbot.routes.xwindows import lay_over


def entry(family: int, address: bytes, number: bytes, name: bytes, data: bytes) -> bytes:
    return struct.pack(">H", family) + b"".join(struct.pack(">H", len(f)) + f for f in (address, number, name, data))


COOKIE = b"MIT-MAGIC-COOKIE-1"


def test_the_cookie_of_an_xwayland_authority_file_is_found_for_any_display_number() -> None:
    """mutter writes an entry for this host and a wildcard one, neither with a display number: X clients take
    them for any display (python-xlib alone does not)."""
    data = entry(FAMILY_LOCAL, b"vm", b"", COOKIE, b"\x01" * 16) + entry(FAMILY_WILD, b"vm", b"", COOKIE, b"\x02" * 16)
    assert cookie_for(1024, data, host="vm") == (COOKIE, b"\x01" * 16)
    assert cookie_for(1024, data, host="other") == (COOKIE, b"\x02" * 16)  # the wildcard, for any host


def test_a_cookie_for_another_display_or_host_or_scheme_is_not_taken() -> None:
    data = (entry(FAMILY_LOCAL, b"vm", b"3", COOKIE, b"a" * 16) + entry(FAMILY_LOCAL, b"elsewhere", b"7", COOKIE, b"b")
            + entry(FAMILY_LOCAL, b"vm", b"7", b"XDM-AUTHORIZATION-1", b"c"))
    assert cookie_for(7, data, host="vm") is None
    assert cookie_for(3, data, host="vm") == (COOKIE, b"a" * 16)


def test_a_cut_off_authority_file_keeps_its_whole_entries() -> None:
    whole = entry(FAMILY_LOCAL, b"vm", b"0", COOKIE, b"x" * 16)
    assert len(entries(whole + whole[:9])) == 1
    assert entries(b"") == []


@pytest.mark.parametrize(("name", "number"), [(":1024", 1024), (":0.0", 0), ("unix:3", 3), ("host:2", None),
                                              ("", None), (":x", None)])
def test_display_numbers_of_local_displays_only(name: str, number: int | None) -> None:
    assert display_number(name) == number


def test_a_window_without_alpha_covers_what_is_below_it() -> None:
    below = np.full((2, 3, 3), 50, np.uint8)
    pixels = np.zeros((2, 3, 4), np.uint8)
    pixels[..., :3] = (10, 20, 30)
    lay_over(below, pixels, alpha=False)  # the fourth byte of a 24-bit window is not alpha: 0 there means nothing
    assert (below == (10, 20, 30)).all()


def test_a_window_with_alpha_is_laid_over_by_it_a_shadow_darkens_and_a_clear_part_shows_what_is_below() -> None:
    below = np.full((1, 3, 3), 200, np.uint8)
    pixels = np.array([[[0, 0, 0, 0], [0, 0, 0, 128], [90, 90, 90, 255]]], np.uint8)  # clear, half shadow, opaque
    lay_over(below, pixels, alpha=True)
    assert below[0, 0].tolist() == [200] * 3
    assert below[0, 1].tolist() == [100] * 3
    assert below[0, 2].tolist() == [90] * 3
