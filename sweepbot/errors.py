"""The one base class for errors a user should see as a clear message (and a non-zero exit)."""


from typing import Any


class SweepbotError(Exception):
    """Bad input or a situation the bot refuses to act in; the CLI prints it without a traceback.

    ``partial`` holds what a command had done before the error (the games played, the cells not read):
    with ``--json`` it goes into the answer beside ``"error"``."""

    exit_code = 2
    partial: dict[str, Any] | None = None


class Interrupted(SweepbotError):
    """The user pressed Ctrl-C."""
