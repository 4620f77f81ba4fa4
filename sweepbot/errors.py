"""The one base class for errors a user should see as a clear message (and a non-zero exit)."""


class SweepbotError(Exception):
    """Bad input or a situation the bot refuses to act in; the CLI prints it without a traceback."""

    exit_code = 2
