"""The X authority cookie for a display, read as X clients read it, for python-xlib.

python-xlib (the ``python3-xlib`` that pyautogui pulls in) matches an entry of the X authority file only by
this host's name and the display's number; the entries Xwayland's compositors write (GNOME's mutter: one
for this host and one wildcard, neither with a display number) are not matched, and the connection is
refused ("Authorization required"). libxcb and libX11 take such entries for any display. This module reads
the file the way they do and hands python-xlib the cookie while it connects.
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

#: address families of the X authority file: this host by name, and any host
FAMILY_LOCAL = 256
FAMILY_WILD = 65535
COOKIE = b"MIT-MAGIC-COOKIE-1"


def authority_file() -> Path | None:
    named = os.environ.get("XAUTHORITY")
    if named:
        return Path(named)
    home = os.environ.get("HOME")
    return Path(home) / ".Xauthority" if home else None


def entries(data: bytes) -> list[tuple[int, bytes, bytes, bytes, bytes]]:
    """The entries of an X authority file: (family, address, display number, name, data); a cut-off entry at
    the end is left out."""
    out: list[tuple[int, bytes, bytes, bytes, bytes]] = []
    at = 0
    while at + 2 <= len(data):
        (family,) = struct.unpack_from(">H", data, at)
        at += 2
        fields = []
        for _ in range(4):
            if at + 2 > len(data):
                return out
            (length,) = struct.unpack_from(">H", data, at)
            at += 2
            if at + length > len(data):
                return out
            fields.append(data[at : at + length])
            at += length
        out.append((family, fields[0], fields[1], fields[2], fields[3]))
    return out


def cookie_for(number: int, data: bytes, host: str | None = None) -> tuple[bytes, bytes] | None:
    """The cookie (name, data) that an X client would send to local display ``number``: an entry for this
    host or any host, for this display or any display; None when the file has none."""
    here = (host or socket.gethostname()).encode()
    for family, address, display, name, cookie in entries(data):
        host_fits = family == FAMILY_WILD or (family == FAMILY_LOCAL and address == here)
        if name == COOKIE and host_fits and display in (b"", str(number).encode()):
            return name, cookie
    return None


def display_number(display: str) -> int | None:
    """The number of a local display name (``:1024``, ``:0.0``, ``unix:1``); None for another host's."""
    host, _, rest = display.rpartition(":")
    if host not in ("", "unix") or not rest:
        return None
    try:
        return int(rest.split(".")[0])
    except ValueError:
        return None


@contextlib.contextmanager
def xlib_cookie(display: str | None) -> Iterator[None]:
    """While python-xlib connects to ``display`` (``DISPLAY`` when None): give it the cookie libxcb would send,
    where its own look-up finds none."""
    from Xlib.support import connect

    number = display_number(display or os.environ.get("DISPLAY", ""))
    path = authority_file()
    found = None
    if number is not None and path is not None:
        with contextlib.suppress(OSError):
            found = cookie_for(number, path.read_bytes())
    if found is None:
        yield
        return
    own = connect.get_auth

    def get_auth(*args: object) -> tuple[object, object]:
        name, data = own(*args)
        return (name, data) if name else found

    connect.get_auth = get_auth
    try:
        yield
    finally:
        connect.get_auth = own
