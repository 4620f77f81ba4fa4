"""A small binding to libxcb (ctypes): the X11 requests that reading windows one by one needs.

The top-level windows in stacking order, each one's geometry and state, and its pixels. libxcb is on every
X11 system (mss loads it too), reads the X authority file the way X clients do (wildcard entries included,
as Xwayland's are), and reads a window's image in one call, where python-xlib reassembles a large reply
piece by piece. Only what :mod:`sweepbot.routes.xwindows` asks for is bound here.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sweepbot.errors import SweepbotError


class XcbError(SweepbotError):
    """The X server could not be reached, or refused a request."""


#: map_state of a window shown on screen, and the class of a window that has pixels
IS_VIEWABLE = 2
INPUT_OUTPUT = 1
#: the image format of whole pixels (ZPixmap) and a plane mask of every plane
Z_PIXMAP = 2
ALL_PLANES = 0xFFFFFFFF


class _Cookie(ctypes.Structure):
    _fields_ = [("sequence", ctypes.c_uint)]


class _Screen(ctypes.Structure):
    _fields_ = [
        ("root", ctypes.c_uint32), ("default_colormap", ctypes.c_uint32), ("white_pixel", ctypes.c_uint32),
        ("black_pixel", ctypes.c_uint32), ("current_input_masks", ctypes.c_uint32),
        ("width_in_pixels", ctypes.c_uint16), ("height_in_pixels", ctypes.c_uint16),
        ("width_in_millimeters", ctypes.c_uint16), ("height_in_millimeters", ctypes.c_uint16),
        ("min_installed_maps", ctypes.c_uint16), ("max_installed_maps", ctypes.c_uint16),
        ("root_visual", ctypes.c_uint32), ("backing_stores", ctypes.c_uint8), ("save_unders", ctypes.c_uint8),
        ("root_depth", ctypes.c_uint8), ("allowed_depths_len", ctypes.c_uint8),
    ]


class _ScreenIterator(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(_Screen)), ("rem", ctypes.c_int), ("index", ctypes.c_int)]


class _GenericError(ctypes.Structure):
    _fields_ = [("response_type", ctypes.c_uint8), ("error_code", ctypes.c_uint8), ("sequence", ctypes.c_uint16),
                ("resource_id", ctypes.c_uint32)]


class _Geometry(ctypes.Structure):
    _fields_ = [
        ("response_type", ctypes.c_uint8), ("depth", ctypes.c_uint8), ("sequence", ctypes.c_uint16),
        ("length", ctypes.c_uint32), ("root", ctypes.c_uint32), ("x", ctypes.c_int16), ("y", ctypes.c_int16),
        ("width", ctypes.c_uint16), ("height", ctypes.c_uint16), ("border_width", ctypes.c_uint16),
    ]


class _Attributes(ctypes.Structure):
    _fields_ = [
        ("response_type", ctypes.c_uint8), ("backing_store", ctypes.c_uint8), ("sequence", ctypes.c_uint16),
        ("length", ctypes.c_uint32), ("visual", ctypes.c_uint32), ("klass", ctypes.c_uint16),
        ("bit_gravity", ctypes.c_uint8), ("win_gravity", ctypes.c_uint8), ("backing_planes", ctypes.c_uint32),
        ("backing_pixel", ctypes.c_uint32), ("save_under", ctypes.c_uint8), ("map_is_installed", ctypes.c_uint8),
        ("map_state", ctypes.c_uint8), ("override_redirect", ctypes.c_uint8),
    ]


class _ImageReply(ctypes.Structure):
    _fields_ = [("response_type", ctypes.c_uint8), ("depth", ctypes.c_uint8), ("sequence", ctypes.c_uint16),
                ("length", ctypes.c_uint32), ("visual", ctypes.c_uint32)]


class _AtomReply(ctypes.Structure):
    _fields_ = [("response_type", ctypes.c_uint8), ("pad0", ctypes.c_uint8), ("sequence", ctypes.c_uint16),
                ("length", ctypes.c_uint32), ("atom", ctypes.c_uint32)]


class _OwnerReply(ctypes.Structure):
    _fields_ = [("response_type", ctypes.c_uint8), ("pad0", ctypes.c_uint8), ("sequence", ctypes.c_uint16),
                ("length", ctypes.c_uint32), ("owner", ctypes.c_uint32)]


@dataclass(frozen=True)
class Window:
    """A top-level window: its id, where its inside is on the root (border left out), its size and depth,
    whether it is shown, and whether it has pixels at all (an input-only window has none)."""

    wid: int
    x: int
    y: int
    width: int
    height: int
    depth: int
    shown: bool


@dataclass(frozen=True)
class Image:
    """A window's pixels as the server sent them: 32 bits a pixel, rows of ``width`` pixels."""

    data: bytes
    width: int
    height: int
    depth: int


_LIB: Any = None
_LIBC: Any = None


def _lib() -> Any:
    global _LIB, _LIBC
    if _LIB is None:
        name = ctypes.util.find_library("xcb") or "libxcb.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError as err:
            raise XcbError(f"libxcb cannot be loaded ({err}): X11 windows cannot be read") from None
        voidp, u32 = ctypes.c_void_p, ctypes.c_uint32
        errp = ctypes.POINTER(ctypes.POINTER(_GenericError))
        lib.xcb_connect.argtypes, lib.xcb_connect.restype = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)], voidp
        lib.xcb_connection_has_error.argtypes, lib.xcb_connection_has_error.restype = [voidp], ctypes.c_int
        lib.xcb_disconnect.argtypes, lib.xcb_disconnect.restype = [voidp], None
        lib.xcb_get_setup.argtypes, lib.xcb_get_setup.restype = [voidp], voidp
        lib.xcb_setup_roots_iterator.argtypes, lib.xcb_setup_roots_iterator.restype = [voidp], _ScreenIterator
        lib.xcb_screen_next.argtypes, lib.xcb_screen_next.restype = [ctypes.POINTER(_ScreenIterator)], None
        lib.xcb_query_tree.argtypes, lib.xcb_query_tree.restype = [voidp, u32], _Cookie
        lib.xcb_query_tree_reply.argtypes, lib.xcb_query_tree_reply.restype = [voidp, _Cookie, errp], voidp
        lib.xcb_query_tree_children.argtypes = [voidp]
        lib.xcb_query_tree_children.restype = ctypes.POINTER(u32)
        lib.xcb_query_tree_children_length.argtypes, lib.xcb_query_tree_children_length.restype = [voidp], ctypes.c_int
        lib.xcb_get_geometry.argtypes, lib.xcb_get_geometry.restype = [voidp, u32], _Cookie
        lib.xcb_get_geometry_reply.argtypes = [voidp, _Cookie, errp]
        lib.xcb_get_geometry_reply.restype = ctypes.POINTER(_Geometry)
        lib.xcb_get_window_attributes.argtypes, lib.xcb_get_window_attributes.restype = [voidp, u32], _Cookie
        lib.xcb_get_window_attributes_reply.argtypes = [voidp, _Cookie, errp]
        lib.xcb_get_window_attributes_reply.restype = ctypes.POINTER(_Attributes)
        lib.xcb_get_image.argtypes = [voidp, ctypes.c_uint8, u32, ctypes.c_int16, ctypes.c_int16, ctypes.c_uint16,
                                      ctypes.c_uint16, u32]
        lib.xcb_get_image.restype = _Cookie
        lib.xcb_get_image_reply.argtypes = [voidp, _Cookie, errp]
        lib.xcb_get_image_reply.restype = ctypes.POINTER(_ImageReply)
        lib.xcb_intern_atom.argtypes = [voidp, ctypes.c_uint8, ctypes.c_uint16, ctypes.c_char_p]
        lib.xcb_intern_atom.restype = _Cookie
        lib.xcb_intern_atom_reply.argtypes = [voidp, _Cookie, errp]
        lib.xcb_intern_atom_reply.restype = ctypes.POINTER(_AtomReply)
        lib.xcb_get_selection_owner.argtypes, lib.xcb_get_selection_owner.restype = [voidp, u32], _Cookie
        lib.xcb_get_selection_owner_reply.argtypes = [voidp, _Cookie, errp]
        lib.xcb_get_selection_owner_reply.restype = ctypes.POINTER(_OwnerReply)
        lib.xcb_get_image_data.argtypes, lib.xcb_get_image_data.restype = [voidp], ctypes.POINTER(ctypes.c_uint8)
        lib.xcb_get_image_data_length.argtypes, lib.xcb_get_image_data_length.restype = [voidp], ctypes.c_int
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.free.argtypes, libc.free.restype = [voidp], None
        _LIB, _LIBC = lib, libc
    return _LIB


class Connection:
    """A connection to the X server named ``display`` (``DISPLAY`` when None)."""

    def __init__(self, display: str | None = None) -> None:
        lib = _lib()
        number = ctypes.c_int(0)
        self._conn = lib.xcb_connect(display.encode() if display else None, ctypes.byref(number))
        if not self._conn or lib.xcb_connection_has_error(self._conn):
            if self._conn:
                lib.xcb_disconnect(self._conn)
            self._conn = None
            raise XcbError(f"cannot open the X display {display or ''} (no server, or its authority refused)")
        screens = lib.xcb_setup_roots_iterator(lib.xcb_get_setup(self._conn))
        for _ in range(number.value):
            lib.xcb_screen_next(ctypes.byref(screens))
        screen = screens.data.contents
        self.root = int(screen.root)
        self.size = (int(screen.width_in_pixels), int(screen.height_in_pixels))
        self.screen = number.value

    def close(self) -> None:
        if self._conn:
            _lib().xcb_disconnect(self._conn)
            self._conn = None

    def _alive(self) -> Any:
        lib = _lib()
        if not self._conn or lib.xcb_connection_has_error(self._conn):
            raise XcbError("the X display is gone")
        return lib

    @contextmanager
    def _reply(self, fetch: Any, cookie: _Cookie) -> Iterator[Any]:
        """The reply to ``cookie`` (None when the server answered with an error), freed after use."""
        error = ctypes.POINTER(_GenericError)()
        reply = fetch(self._conn, cookie, ctypes.byref(error))
        if error:
            _LIBC.free(ctypes.cast(error, ctypes.c_void_p))
        try:
            yield reply if reply else None
        finally:
            if reply:
                _LIBC.free(ctypes.cast(reply, ctypes.c_void_p))

    def composited(self) -> bool:
        """Whether a compositing manager draws this screen (it owns the selection _NET_WM_CM_Sn)."""
        lib = self._alive()
        name = f"_NET_WM_CM_S{self.screen}".encode()
        with self._reply(lib.xcb_intern_atom_reply, lib.xcb_intern_atom(self._conn, 0, len(name), name)) as atom:
            if not atom:
                return False
            selection = int(atom.contents.atom)
        with self._reply(lib.xcb_get_selection_owner_reply, lib.xcb_get_selection_owner(self._conn, selection)) as got:
            return bool(got and got.contents.owner)

    def top_windows(self) -> list[Window]:
        """The root's children, bottom of the stack first, with their geometry and whether they are shown
        (windows that went while they were asked about are left out)."""
        lib = self._alive()
        with self._reply(lib.xcb_query_tree_reply, lib.xcb_query_tree(self._conn, self.root)) as tree:
            if not tree:
                raise XcbError("the X server would not list its windows")
            count = lib.xcb_query_tree_children_length(tree)
            children = lib.xcb_query_tree_children(tree)
            ids = [int(children[i]) for i in range(count)]
        # every question first, then every answer: one round trip for all the windows
        asked = [(wid, lib.xcb_get_window_attributes(self._conn, wid), lib.xcb_get_geometry(self._conn, wid))
                 for wid in ids]
        windows = []
        for wid, attributes_cookie, geometry_cookie in asked:
            with self._reply(lib.xcb_get_window_attributes_reply, attributes_cookie) as attributes, \
                    self._reply(lib.xcb_get_geometry_reply, geometry_cookie) as geometry:
                if not attributes or not geometry:
                    continue  # gone meanwhile
                a, g = attributes.contents, geometry.contents
                windows.append(Window(wid, g.x + g.border_width, g.y + g.border_width, g.width, g.height, g.depth,
                                      a.map_state == IS_VIEWABLE and a.klass == INPUT_OUTPUT))
        return windows

    def images(self, parts: Sequence[tuple[int, int, int, int, int]]) -> list[Image | None]:
        """The pixels of each ``(window, x, y, width, height)`` (window coordinates), asked for all at once;
        None for a part the server would not give (the window went, or it is not drawable)."""
        lib = self._alive()
        cookies = [lib.xcb_get_image(self._conn, Z_PIXMAP, wid, x, y, w, h, ALL_PLANES) for wid, x, y, w, h in parts]
        out: list[Image | None] = []
        for (_, _, _, w, h), cookie in zip(parts, cookies, strict=True):
            with self._reply(lib.xcb_get_image_reply, cookie) as reply:
                if not reply:
                    out.append(None)
                    continue
                length = lib.xcb_get_image_data_length(reply)
                data = ctypes.string_at(lib.xcb_get_image_data(reply), length)
                out.append(Image(data, w, h, int(reply.contents.depth)) if length == w * h * 4 else None)
        return out
