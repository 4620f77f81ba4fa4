"""Why the bot stopped sending input."""

from sweepbot.errors import SweepbotError


class ControlError(SweepbotError):
    """Input cannot or must not be sent."""


class FocusElsewhere(ControlError):
    """The keyboard focus is on a window that is not the game's: no key goes there."""


class OutsideBoardError(ControlError):
    """A click outside the board just read: refused, always."""


class UserTookOver(ControlError):
    """The user moved the mouse (or hit the failsafe corner): the bot stops at once."""

    exit_code = 3


class InputHeld(ControlError):
    """The pointer does not follow the bot's moves: another program holds the mouse (a grab)."""


class LimitReached(ControlError):
    """The click or time limit of this run is used up."""
