"""The screen watcher below play and calibration: grabs, input, and every wait on the client's answer."""

from sweepbot.control.errors import ControlError, FocusElsewhere
from sweepbot.control.keys import CommandKeyError, check_keys
from sweepbot.watch.overlays import OVERLAY_WAIT, Overlays
from sweepbot.watch.pace import CALIBRATION, PLAY, Pace, Waits
from sweepbot.watch.watcher import Settled, Watcher

__all__ = ["CALIBRATION", "OVERLAY_WAIT", "PLAY", "CommandKeyError", "ControlError", "FocusElsewhere", "Overlays",
           "Pace", "Settled", "Waits", "Watcher", "check_keys"]
