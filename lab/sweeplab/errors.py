"""The error raised when the virtual desktop or a client cannot be started or driven."""

from sweepbot.errors import SweepbotError


class DesktopError(SweepbotError, RuntimeError):
    """Xvfb, the window manager or a client failed, was missing or did not answer in time."""
