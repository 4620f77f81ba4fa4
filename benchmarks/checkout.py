"""The ``sweepbot`` command of the checkout a benchmark belongs to, whatever directory it is started from.

``python -m sweepbot`` finds the package first in the working directory, then on ``PYTHONPATH``, then where
it is installed: a benchmark copied into another revision's worktree, or started from another checkout, would
run some other revision's code. The command here leaves the working directory off the path (``-P``) and puts
this checkout's root first on ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

#: The checkout this benchmark belongs to.
ROOT = Path(__file__).resolve().parents[1]


def sweepbot(*args: str) -> list[str]:
    """The command line that runs ``sweepbot ARGS`` from this checkout (with :func:`env`)."""
    return [sys.executable, "-P", "-m", "sweepbot", *args]


def env(base: Mapping[str, str] | None = None, **more: str) -> dict[str, str]:
    """``base`` (the process's own environment when None), and ``more``, with this checkout first on
    ``PYTHONPATH``."""
    out = dict(os.environ if base is None else base, **more)
    out["PYTHONPATH"] = os.pathsep.join([str(ROOT), *([out["PYTHONPATH"]] if out.get("PYTHONPATH") else [])])
    return out
