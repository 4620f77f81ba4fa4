"""pyautogui as the input device, for platforms without the X11 backend. Imported only when input is sent."""

from __future__ import annotations

import contextlib
import io
import os
import time
from typing import Any

from sweepbot.control.errors import ControlError, UserTookOver


class PyAutoGuiDevice:
    """pyautogui with PAUSE=0 and its corner failsafe on. Import happens here, at first use."""

    def __init__(self) -> None:
        said = io.StringIO()
        try:
            # python-xlib prints warnings (an X authority file without this display) on stdout and stderr
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                import pyautogui
        except Exception as err:  # pyautogui raises several kinds when no display can be opened
            raise ControlError(f"cannot open the display for input: {err} {said.getvalue().strip()}") from None
        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = True
        self._gui: Any = pyautogui

    def position(self) -> tuple[int, int]:
        x, y = self._call(self._gui.position)
        return (int(x), int(y))

    def move(self, x: int, y: int) -> None:
        self._call(self._gui.moveTo, x, y)

    def click(self, x: int, y: int, button: str) -> None:
        self._call(self._gui.click, x, y, button=button)

    def hold_click(self, x: int, y: int, button: str, seconds: float) -> None:
        """A click with ``button`` held down ``seconds``."""
        self._call(self._gui.mouseDown, x, y, button=button)
        time.sleep(seconds)
        self._call(self._gui.mouseUp, x, y, button=button)

    def press(self, keys: list[str]) -> None:
        self._call(self._gui.hotkey, *keys) if len(keys) > 1 else self._call(self._gui.press, keys[0])

    def window_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        """Windows are not known here."""
        return None

    def size(self) -> tuple[int, int]:
        width, height = self._call(self._gui.size)
        return (int(width), int(height))

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except self._gui.FailSafeException:
            raise UserTookOver("pyautogui failsafe: the pointer reached a screen corner") from None
        except Exception as err:  # python-xlib raises many kinds once the X server is gone
            raise ControlError(f"input cannot be sent: the display {os.environ.get('DISPLAY', '')} is gone "
                               f"({type(err).__name__})") from None
