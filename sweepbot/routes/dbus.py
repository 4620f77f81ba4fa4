"""The session bus, for the remote-desktop routes: method calls, properties and signals, through jeepney.

jeepney is pure Python (nothing to build, nothing beyond the standard library), maintained, passes file
descriptors (the portal hands over its PipeWire connection as one), and its blocking API fits a bot that
waits for one answer at a time. It is imported only here, when a remote-desktop route opens.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from sweepbot.errors import SweepbotError

#: seconds a method call may take before the service is taken as not answering
CALL_TIMEOUT = 10.0


class BusError(SweepbotError):
    """The session bus cannot be reached, or a service on it refused a call."""


class Bus:
    """A connection to the session bus (``DBUS_SESSION_BUS_ADDRESS``)."""

    def __init__(self) -> None:
        try:
            from jeepney.io.blocking import open_dbus_connection
        except ImportError:
            raise BusError("the Python package jeepney is missing (pip install jeepney): the remote-desktop "
                           "routes talk to the desktop over D-Bus with it") from None
        try:
            self._conn: Any = open_dbus_connection(bus="SESSION", enable_fds=True)
        except Exception as err:  # jeepney raises KeyError, OSError and its own kinds
            raise BusError(f"cannot reach the session bus: {type(err).__name__} {err}") from None
        self.unique_name: str = self._conn.unique_name

    def call(self, service: str, path: str, interface: str, method: str, signature: str | None = None,
             *args: Any, timeout: float = CALL_TIMEOUT) -> tuple[Any, ...]:
        """Call a method and return its answer's values; BusError with the service's message on an error."""
        from jeepney import DBusAddress, MessageType, new_method_call

        message = new_method_call(DBusAddress(path, service, interface), method, signature, args)
        try:
            reply = self._conn.send_and_get_reply(message, timeout=timeout)
        except TimeoutError:
            raise BusError(f"{service} did not answer {method} within {timeout:.0f} s") from None
        except Exception as err:
            raise BusError(f"{service} {method}: {type(err).__name__} {err}") from None
        if reply.header.message_type == MessageType.error:
            name = reply.header.fields.get(4, "an error")  # 4: the error's name
            detail = reply.body[0] if reply.body else ""
            raise BusError(f"{service} refused {method}: {name} {detail}".rstrip())
        return tuple(reply.body)

    def property(self, service: str, path: str, interface: str, name: str) -> Any:
        """A property's value (its variant unwrapped)."""
        (variant,) = self.call(service, path, "org.freedesktop.DBus.Properties", "Get", "ss", interface, name)
        return variant[1]

    def has(self, service: str) -> bool:
        """Whether ``service`` is on the bus now or can be started on it."""
        names = set(self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames")[0])
        names |= set(self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "ListActivatableNames")[0])
        return service in names

    @contextlib.contextmanager
    def signals(self, path: str, interface: str, member: str) -> Iterator[Callable[[float], tuple[Any, ...]]]:
        """While open: a function that waits up to its timeout for the next such signal and returns its values
        (BusError when none came). The rule is in place before the block runs, so a signal that the block's
        own call sets off is not missed."""
        from jeepney import MatchRule, message_bus
        from jeepney.io.blocking import Proxy

        rule = MatchRule(type="signal", path=path, interface=interface, member=member)
        bus = Proxy(message_bus, self._conn)
        bus.AddMatch(rule)
        try:
            with self._conn.filter(rule, bufsize=16) as queue:
                def next_signal(timeout: float) -> tuple[Any, ...]:
                    try:
                        return tuple(self._conn.recv_until_filtered(queue, timeout=timeout).body)
                    except TimeoutError:
                        raise BusError(f"no {member} signal came from {path} within {timeout:.0f} s") from None

                yield next_signal
        finally:
            with contextlib.suppress(Exception):
                bus.RemoveMatch(rule)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._conn.close()
