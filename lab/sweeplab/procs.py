"""Starting and stopping the harness's child processes: each in its own process group, stopped as a group."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence

from sweeplab.errors import DesktopError

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux to send SIGTERM when the harness dies, even by SIGKILL."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def spawn(
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    stdout: int | None = subprocess.DEVNULL,
    cwd: str | None = None,
    log: str | os.PathLike[str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` in a new session (its own process group) with ``env``.

    stderr goes to the file ``log`` when given (appended), else it is discarded. On Linux the child gets
    SIGTERM if the process that started it dies, so a killed harness leaves no X server behind.
    """
    try:
        with contextlib.ExitStack() as stack:
            err = stack.enter_context(open(log, "ab")) if log is not None else subprocess.DEVNULL
            return subprocess.Popen(
                list(argv),
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=err,
                cwd=cwd,
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )
    except FileNotFoundError as exc:
        raise DesktopError(f"cannot run {argv[0]!r}: not installed (run scripts/install-clients)") from exc


def log_tail(log: str | os.PathLike[str] | None, lines: int = 5) -> str:
    """The last lines of a log file written by a child, for an error message ('' when there is none)."""
    if log is None:
        return ""
    try:
        with open(log, encoding="utf-8", errors="replace") as fh:
            tail = fh.read().splitlines()[-lines:]
    except OSError:
        return ""
    return " | ".join(line.strip() for line in tail if line.strip())


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop(proc: subprocess.Popen[bytes] | None, timeout: float = 3.0) -> None:
    """Stop a process started by :func:`spawn` and everything left in its process group.

    SIGTERM first, SIGKILL after ``timeout`` seconds; the process is always reaped.
    """
    if proc is None:
        return
    pgid = proc.pid  # start_new_session makes the child the leader of a group with its own pid
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, timeout)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if proc.poll() is not None and not _group_alive(pgid):
                break
            time.sleep(0.01)
        else:
            continue
        break
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=timeout)
    if proc.stdout is not None:
        proc.stdout.close()


def wait_for(condition: Callable[[], bool], timeout: float, what: str, *, interval: float = 0.02) -> None:
    """Poll ``condition`` until it is true; raise :class:`DesktopError` naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return
        if time.monotonic() >= deadline:
            raise DesktopError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)


def run_quiet(argv: Sequence[str], env: Mapping[str, str], timeout: float = 5.0) -> subprocess.CompletedProcess[str]:
    """Run a short X tool to completion and return its result (never raises on a non-zero exit)."""
    try:
        return subprocess.run(
            list(argv),
            env=dict(env),
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise DesktopError(f"cannot run {argv[0]!r}: not installed (run scripts/install-clients)") from exc
    except subprocess.TimeoutExpired as exc:
        raise DesktopError(f"{argv[0]} did not finish within {timeout:g} s") from exc


def marked(name: str, value: str) -> list[int]:
    """The processes whose environment holds ``name=value`` (Linux: read from /proc), this one left out: every
    descendant of a process started with that mark, those that left its process group included."""
    want = f"{name}={value}".encode()
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if want in fh.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue  # gone, or not ours to read
    return found


def stop_marked(name: str, value: str, timeout: float = 3.0) -> None:
    """Stop every process marked ``name=value`` (see :func:`marked`): SIGTERM, then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = marked(name, value)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and marked(name, value):
            time.sleep(0.05)
