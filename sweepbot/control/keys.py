"""Keys the bot never sends: keys go to whatever has the focus, and these are commands to a browser or a
desktop (reload, close, quit, a new window or tab, leave the page), never a new game. Every key the bot
presses passes :func:`check_keys` first.

Which window has the focus decides two of them: Ctrl+N and Ctrl+R start a new game in GNOME's and KDE's
games, and open a window or reload the page in a browser. They are pressed only when the focus is known to
be on the game's program, and that program is not a browser (``GAME_WINDOW``, or ``GAME_DIALOG``: a window
the game opened, such as its scores dialog)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sweepbot.control.errors import ControlError

#: Names of one key written otherwise (pyautogui's names and common ones).
ALIASES = {
    "ctrlleft": "ctrl", "ctrlright": "ctrl", "control": "ctrl", "shiftleft": "shift", "shiftright": "shift",
    "altleft": "alt", "altright": "alt", "option": "alt", "return": "enter", "esc": "escape",
    "winleft": "win", "winright": "win", "super": "win", "meta": "win", "cmd": "win", "command": "win",
    "+": "plus", "=": "plus", "-": "minus", "pgup": "pageup", "pgdn": "pagedown",
}
#: Held with any key, these make a desktop command (the Windows/Super key, Ctrl+Alt).
COMMAND_MODIFIERS = ("win",)


def _combo(*keys: str) -> frozenset[str]:
    return frozenset(keys)


#: Combinations a browser or a desktop takes as a command.
COMMAND_KEYS: frozenset[frozenset[str]] = frozenset({
    # reload the page, stop it
    _combo("ctrl", "r"), _combo("ctrl", "shift", "r"), _combo("f5"), _combo("ctrl", "f5"), _combo("shift", "f5"),
    # close a tab or a window, quit a program
    _combo("ctrl", "w"), _combo("ctrl", "shift", "w"), _combo("ctrl", "f4"), _combo("alt", "f4"),
    _combo("ctrl", "q"), _combo("ctrl", "shift", "q"),
    # a new window or tab, or one closed brought back
    _combo("ctrl", "n"), _combo("ctrl", "shift", "n"), _combo("ctrl", "t"), _combo("ctrl", "shift", "t"),
    # leave the page: back, forward, home, the address bar
    _combo("alt", "left"), _combo("alt", "right"), _combo("alt", "home"), _combo("backspace"),
    _combo("ctrl", "l"), _combo("alt", "d"), _combo("f6"), _combo("ctrl", "k"), _combo("ctrl", "e"),
    # dialogs and panels: print, save, open, history, downloads, bookmarks, find, developer tools, source
    _combo("ctrl", "p"), _combo("ctrl", "s"), _combo("ctrl", "o"), _combo("ctrl", "h"), _combo("ctrl", "j"),
    _combo("ctrl", "d"), _combo("ctrl", "f"), _combo("f12"), _combo("ctrl", "shift", "i"),
    _combo("ctrl", "shift", "j"), _combo("ctrl", "shift", "c"), _combo("ctrl", "u"), _combo("ctrl", "shift", "delete"),
    # zoom, full screen, help, the menu bar
    _combo("ctrl", "plus"), _combo("ctrl", "minus"), _combo("ctrl", "0"), _combo("ctrl", "shift", "plus"),
    _combo("f11"), _combo("f1"), _combo("f10"), _combo("alt"),
    # the desktop: switch windows, run a program, a terminal, log out, lock
    _combo("alt", "tab"), _combo("alt", "shift", "tab"), _combo("alt", "f2"), _combo("alt", "f1"),
    _combo("alt", "escape"), _combo("ctrl", "escape"), _combo("win"),
})


#: A game's own shortcuts for a new game (GNOME's and KDE's games) that a browser takes as commands.
GAME_SHORTCUTS: frozenset[frozenset[str]] = frozenset({_combo("ctrl", "n"), _combo("ctrl", "r")})
#: Where the keys go: the game's own window (not a browser's), a browser's window, or not known.
GAME_WINDOW, BROWSER, UNKNOWN = "game", "browser", "unknown"
#: Where the keys go: another window of the game's program (not a browser) than the one the board is in, such
#: as a dialog it opened
GAME_DIALOG = "game dialog"
#: Programs (their WM_CLASS, lower case) that are browsers.
BROWSERS = frozenset({"chromium", "chromium-browser", "google-chrome", "chrome", "firefox", "firefox-esr",
                      "navigator", "brave-browser", "microsoft-edge", "opera", "vivaldi-stable", "epiphany",
                      "org.gnome.epiphany", "falkon", "konqueror", "qutebrowser", "midori", "librewolf"})


class CommandKeyError(ControlError):
    """A key combination that a browser or desktop takes as a command: never sent."""


def normalised(combo: Iterable[str]) -> frozenset[str]:
    """A combination as a set of key names, each written one way."""
    return frozenset(ALIASES.get(k.lower(), k.lower()) for k in combo)


def is_command(combo: Iterable[str], window: str = UNKNOWN) -> bool:
    """Whether ``combo`` (keys held together) is a command to the program or desktop it would reach: a
    browser's and a desktop's, unless ``window`` is the game's own (or a dialog of it) and ``combo`` one of its
    shortcuts."""
    keys = normalised(combo)
    if window in (GAME_WINDOW, GAME_DIALOG) and keys in GAME_SHORTCUTS:
        return False
    return (keys in COMMAND_KEYS or any(m in keys for m in COMMAND_MODIFIERS)
            or {"ctrl", "alt"} <= keys or any(k.startswith("xf86") for k in keys))


def check_keys(combos: Sequence[Sequence[str]], window: str = UNKNOWN) -> None:
    """Raise CommandKeyError for the first combination that is a command where the keys go (``window``)."""
    for combo in combos:
        if is_command(combo, window):
            shortcut = normalised(combo) in GAME_SHORTCUTS
            raise CommandKeyError(
                f"not pressing {'+'.join(combo)}: a browser or desktop takes it as a command (reload, close, "
                "quit, a new window), not a new game"
                + ("; it is a game's own shortcut only where the focus is known to be on the game's own window"
                   if shortcut else "") + "; start games with the client's own control, or calibrate again")
