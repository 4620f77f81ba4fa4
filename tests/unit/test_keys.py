"""No key the bot sends is one that a browser or desktop takes as a command (reload, close, quit, a new
window): keys go to whatever has the focus. The list is kept here and in sweepbot.control.keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from sweepbot.calibration.live import newgame, ways
from sweepbot.cli import main
from sweepbot.control.errors import ControlError
from sweepbot.control.keys import BROWSER, GAME_DIALOG, GAME_WINDOW, CommandKeyError, check_keys, is_command
from sweepbot.control.mapping import ScreenMapping
from sweepbot.control.mouse import BoardInput
from sweepbot.game import LEVELS, Game
from sweepbot.rect import Rect
from sweepbot.vision.profile import BUILTIN_DIR, load_profile
from sweepbot.vision.rules import PlayRules
from sweeplab import CLIENTS
from tests.fakes import SimDevice, watcher

#: Commands of a browser or a desktop, as a user would list them: none is ever pressed.
COMMANDS = [
    ("ctrl", "r"), ("f5",), ("ctrl", "shift", "r"), ("ctrl", "f5"),  # reload
    ("ctrl", "w"), ("ctrl", "f4"), ("alt", "f4"), ("ctrl", "q"), ("ctrl", "shift", "w"),  # close, quit
    ("ctrl", "n"), ("ctrl", "shift", "n"), ("ctrl", "t"), ("ctrl", "shift", "t"),  # new window or tab
    ("alt", "left"), ("alt", "right"), ("backspace",), ("ctrl", "l"), ("alt", "d"),  # leave the page
    ("ctrl", "p"), ("ctrl", "s"), ("ctrl", "o"), ("f12",), ("ctrl", "shift", "i"), ("f11",),
    ("ctrl", "plus"), ("ctrl", "minus"), ("ctrl", "0"),
    ("alt", "tab"), ("alt", "f2"), ("win",), ("super", "d"), ("ctrl", "alt", "t"), ("ctrl", "alt", "delete"),
    ("ctrlleft", "R"), ("Control", "n"), ("altleft", "F4"),  # written otherwise
]


@pytest.mark.parametrize("combo", COMMANDS, ids="+".join)
def test_browser_and_desktop_commands_are_never_pressed(combo: tuple[str, ...]) -> None:
    assert is_command(combo)
    with pytest.raises(CommandKeyError, match="command"):
        check_keys([("escape",), combo])


def every_key_the_bot_may_send() -> set[tuple[str, ...]]:
    keys: set[tuple[str, ...]] = set()
    for combos in (*ways.NEW_GAME_KEYS, *newgame.CONFIRM_KEYS):
        keys |= set(combos)
    rules = [load_profile(f).play for f in sorted(BUILTIN_DIR.iterdir()) if f.is_dir()]
    rules += [PlayRules.from_json(spec.play) for spec in CLIENTS.values()]
    for r in rules:
        keys |= set(r.new_game_keys) | set(r.confirm_keys) | set(r.dismiss_keys) | set(r.closes_dialogs)
    return keys | {("escape",)}  # play's Escape for a dialog over a new-game control


def test_no_key_that_calibration_tries_or_a_profile_keeps_is_a_command_where_it_is_pressed() -> None:
    """Each is no command anywhere, but for a game's own shortcut, pressed only into the game's own window."""
    keys = every_key_the_bot_may_send()
    assert {("f2",), ("n",), ("escape",), ("tab",), ("enter",), ("ctrl", "n")} <= keys
    assert [k for k in keys if is_command(k, GAME_WINDOW)] == []
    assert [k for k in keys if is_command(k)] == [("ctrl", "n")]


@pytest.mark.parametrize(("combo", "in_game", "in_browser"), [
    (("ctrl", "n"), False, True), (("ctrl", "r"), False, True), (("ctrl", "q"), True, True),
    (("alt", "f4"), True, True), (("ctrl", "w"), True, True), (("f2",), False, False)])
def test_a_games_own_shortcut_is_no_command_in_its_own_window_only(combo: tuple[str, ...], in_game: bool,
                                                                    in_browser: bool) -> None:
    assert is_command(combo, GAME_WINDOW) is in_game
    assert is_command(combo, BROWSER) is in_browser
    assert is_command(combo) is in_browser  # not known where the keys go: as in a browser


def test_keys_go_by_the_window_that_has_the_focus_and_never_to_another() -> None:
    game = Game(LEVELS["beginner"], 1, "opening")
    device = SimDevice(game)
    pressed: list[list[str]] = []
    device.press = pressed.append  # type: ignore[method-assign]
    mouse = BoardInput(device, ScreenMapping())
    mouse.set_board(Rect(0, 0, 100, 100))
    with pytest.raises(CommandKeyError):  # the device cannot tell where keys go: as in a browser
        mouse.press(["ctrl", "n"])
    focus = {"now": GAME_WINDOW}
    device.focus_of = lambda x, y: focus["now"]  # type: ignore[attr-defined]
    mouse.press(["ctrl", "n"])
    focus["now"] = GAME_DIALOG  # a dialog the game opened: the game's own program
    mouse.press(["escape"])
    focus["now"] = BROWSER
    with pytest.raises(CommandKeyError):
        mouse.press(["ctrl", "n"])
    mouse.press(["f2"])
    focus["now"] = "Terminal"
    with pytest.raises(ControlError, match=r"focus is on another window \(Terminal\)"):
        mouse.press(["f2"])
    assert pressed == [["ctrl", "n"], ["escape"], ["f2"]]


def test_a_command_key_reaches_no_device_and_nothing_before_it_is_pressed() -> None:
    game = Game(LEVELS["beginner"], 1, "opening")
    device = SimDevice(game)
    pressed: list[list[str]] = []
    device.press = pressed.append  # type: ignore[method-assign]
    mouse = BoardInput(device, ScreenMapping())
    with pytest.raises(CommandKeyError):
        mouse.press(["ctrl", "r"])
    screen = type("Screen", (), {"grab": lambda self, region=None: None})()
    with pytest.raises(CommandKeyError):
        watcher(screen, mouse).press([["escape"], ["ctrl", "n"]])
    assert pressed == []
    mouse.press(["n"])
    assert pressed == [["n"]]


def test_calibration_refuses_a_command_key_given_for_new_games(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["calibrate", "--live", "--yes", "--client", "page", "--new-game-keys", "ctrl+r", "--out", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "ctrl+r" in err and "command" in err and "Traceback" not in err


def test_keys_reach_the_boards_own_window_only_where_the_device_says_so() -> None:
    """An Escape is sent to the board's own window (a client that may take it as quit) only knowingly:
    the device tells that the window the board is in has the focus, not a dialog of the game or another."""
    device = SimDevice(Game(LEVELS["beginner"], 1, "opening"))
    mouse = BoardInput(device, ScreenMapping())
    mouse.set_board(Rect(0, 0, 100, 100))
    assert not mouse.keys_reach_the_board()  # the device cannot tell
    focus = {"now": GAME_WINDOW}
    device.focus_of = lambda x, y: focus["now"]  # type: ignore[attr-defined]
    seen = []
    for now in (GAME_WINDOW, GAME_DIALOG, BROWSER, "Terminal"):
        focus["now"] = now
        seen.append(mouse.keys_reach_the_board())
    assert seen == [True, False, False, False]
