"""numpy's matrix products on one thread while sweepbot plays, calibrates or runs a command.

numpy hands every matrix product to its BLAS library (OpenBLAS in numpy's wheels), which splits it over a
thread per core. The products of a read are small (a board's distinct windows against a profile's few dozen
looks): split, each share waits for a core of its own, and while the machine is busy (the client drawing its
board, a browser, the screen server) it waits long. On a 2-core machine with a core or two kept busy beside,
a board is read from scratch 1.4-2.0 times as fast on one thread (docs/figures.md, "Reading beside a busy
core"); on an idle machine one thread is no slower.

The limit holds for the block it wraps and is undone after it: a program that calls sweepbot keeps its own
setting outside it. OpenCV's own threads are left as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from threadpoolctl import threadpool_limits

P = ParamSpec("P")
R = TypeVar("R")


def on_one_thread(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run with numpy's BLAS library on the calling thread alone (see above)."""
    @wraps(function)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        with threadpool_limits(limits=1, user_api="blas"):
            return function(*args, **kwargs)

    return wrapped
