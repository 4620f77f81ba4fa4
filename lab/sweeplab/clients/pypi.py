"""What the clients from PyPI share: a virtual env of their own, made by scripts/install-clients.

Each such client lives in ``CLIENTS_DIR/NAME`` (``.clients/NAME`` in the project's folder, or under
``$SWEEPBOT_CLIENTS_DIR``) and is started with that env's python, either on one of the launchers in
``launchers/`` (small programs that open the client's window at a chosen size) or as ``python -m MODULE``.
Nothing of sweepbot is installed in those envs, nor any client in sweepbot's.
"""

from __future__ import annotations

import os
from pathlib import Path

from sweeplab.clients.base import ClientSpec, Size

PROJECT_DIR = Path(__file__).resolve().parents[3]
LAUNCHERS_DIR = Path(__file__).resolve().parent / "launchers"
#: The file scripts/install-clients writes in an env once everything is installed in it (its text is the
#: list of what was installed, so a changed list installs again).
STAMP = "sweepbot-installed"
ENV_VAR = "SWEEPBOT_CLIENTS_DIR"


def clients_dir() -> Path:
    """The folder that holds one virtual env per PyPI client (``$SWEEPBOT_CLIENTS_DIR`` or ``.clients``)."""
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else PROJECT_DIR / ".clients"


class PypiClient(ClientSpec):
    """A client installed from PyPI into a virtual env of its own and started with that env's python."""

    #: the launcher file in ``launchers/`` (empty: run ``python -m`` :attr:`module` instead)
    launcher: str = ""
    #: the module run with ``python -m`` when there is no launcher
    module: str = ""

    @property
    def venv(self) -> Path:
        """The client's virtual env."""
        return clients_dir() / self.name

    @property
    def executable(self) -> Path:
        """The env's python: what the harness runs (launch() checks that it exists)."""
        return self.venv / "bin" / "python"

    def installed(self) -> bool:
        """Whether scripts/install-clients finished installing this client."""
        return (self.venv / STAMP).is_file() and self.executable.exists()

    def command(self, size: Size, *extra: str) -> list[str]:
        """The command line that opens the client at ``size``: its launcher with the size, then ``extra``."""
        script = str(LAUNCHERS_DIR / self.launcher)
        size_args = ["--cols", str(size.cols), "--rows", str(size.rows), "--mines", str(size.mines)]
        return [str(self.executable), script, *size_args, *extra]
