"""A client's rules for play, as its profile keeps them: its first-click rule, how a new game starts, what closes
a window over its board, its mine total when it shows no counter, whether its cells change size in play.

Built-in profiles carry their client's rules; calibration learns them, and every change goes through
:meth:`PlayRules.learnt`. In ``profile.json`` they are the ``play`` object (see docs/formats.md)::

    "play": {
      "first_click": "opening",                     opening | safe | none
      "new_game_keys": [["f2"]],                    key combinations pressed in turn
      "confirm_keys": [["enter"]],                  pressed if a "new game?" dialog holds the game back
      "key_gap": 0.3,                               seconds between key combinations
      "face_above_board": 25,                       a face this many px above the board's middle starts one
      "new_game_control": {"offset": [x, y], "looks": ["..."]},   a control found beside the board
      "dismiss_keys": [["escape"]],                 pressed once when a window hides the board
      "mines": [[rows, cols, total]],               for a client that shows no counter
      "cells_resize": true,                         columns or rows change size in play
      "press_hold": 0.2                             seconds a click holds the button (0: a plain click)
    }
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from sweepbot.board import FIRST_CLICK_RULES
from sweepbot.errors import SweepbotError

#: Key combinations pressed one after the other, each a tuple of keys held together.
Keys = tuple[tuple[str, ...], ...]
#: The longest a click may hold the button down (seconds).
MAX_HOLD = 2.0
#: Seconds between keys when the client asks a "new game?" question and no gap was learnt.
CONFIRM_GAP = 0.4


class RulesError(SweepbotError):
    """A profile's play section that cannot be read."""


@dataclass(frozen=True)
class NewGameControl:
    """A client's own new-game control beside its board: its top-left corner from the board's (px), and how
    it looked (encoded images, see sweepbot.vision.controls)."""

    offset: tuple[int, int]
    looks: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayRules:
    """How play treats a client (see the module's docstring for each field's meaning)."""

    first_click: str = "none"
    new_game_keys: Keys = ()
    confirm_keys: Keys = ()
    key_gap: float = 0.0
    face_above_board: int | None = None
    new_game_control: NewGameControl | None = None
    dismiss_keys: Keys = ()
    #: the mine total of each board size, as (rows, columns, total)
    mines: tuple[tuple[int, int, int], ...] = ()
    cells_resize: bool = False
    press_hold: float = 0.0

    def __post_init__(self) -> None:
        if self.first_click not in FIRST_CLICK_RULES:
            raise RulesError(f"unknown first-click rule {self.first_click!r} (use {', '.join(FIRST_CLICK_RULES)})")
        if self.key_gap < 0:
            raise RulesError("key_gap must not be negative")
        if not 0 <= self.press_hold <= MAX_HOLD:
            raise RulesError(f"press_hold must be 0 to {MAX_HOLD:g} seconds")

    @property
    def closes_dialogs(self) -> Keys:
        """What to press when a window hides the board: the dismiss keys, or Escape for a client whose new-game
        keys start with it (it is known to open dialogs)."""
        return self.dismiss_keys or tuple(k for k in self.new_game_keys if k == ("escape",))

    def mine_total(self, rows: int, cols: int) -> int | None:
        return next((n for r, c, n in self.mines if (r, c) == (rows, cols)), None)

    def learnt(self, **changes: Any) -> PlayRules:
        """These rules with what was learnt (fields by name, in the JSON form or the typed one): the one way
        calibration and play change a client's rules."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise RulesError(f"no such rule: {', '.join(sorted(unknown))}")
        return PlayRules.from_json({**self.to_json(), **{k: _jsonable(v) for k, v in changes.items()}})

    def merged(self, other: PlayRules) -> PlayRules:
        """These rules with every rule ``other`` holds (one that differs from the default) taken from it."""
        default = PlayRules()
        taken = {f.name: getattr(other, f.name) for f in fields(other)
                 if getattr(other, f.name) != getattr(default, f.name)}
        return replace(self, **taken)

    def to_json(self) -> dict[str, Any]:
        """The ``play`` object of profile.json: only the rules that differ from the defaults."""
        out: dict[str, Any] = {}
        default = PlayRules()
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                out[f.name] = _jsonable(value)
        return out

    @staticmethod
    def from_json(spec: dict[str, Any] | None, version: int = 2) -> PlayRules:
        """Rules from a profile's ``play`` object. Format 1 (profiles saved before the format was numbered)
        may hold keys of its own, left out, and takes a gap of CONFIRM_GAP between keys when it has confirm
        keys and no gap; format 2 refuses a key it does not know."""
        if not spec:
            return PlayRules()
        if not isinstance(spec, dict):
            raise RulesError(f"the play section must be an object, not {type(spec).__name__}")
        names = {f.name for f in fields(PlayRules)}
        unknown = set(spec) - names
        if unknown and version >= 2:
            raise RulesError(f"unknown play rule(s): {', '.join(sorted(unknown))}")
        try:
            control = spec.get("new_game_control")
            confirm = _keys(spec.get("confirm_keys", ()))
            gap = spec.get("key_gap")
            return PlayRules(
                first_click=str(spec.get("first_click", "none")),
                new_game_keys=_keys(spec.get("new_game_keys", ())),
                confirm_keys=confirm,
                key_gap=float(gap) if gap is not None else (CONFIRM_GAP if confirm and version < 2 else 0.0),
                face_above_board=None if spec.get("face_above_board") is None else int(spec["face_above_board"]),
                new_game_control=None if not control else NewGameControl(
                    (int(control["offset"][0]), int(control["offset"][1])),
                    tuple(str(t) for t in control.get("looks", ()))),
                dismiss_keys=_keys(spec.get("dismiss_keys", ())),
                mines=tuple((int(r), int(c), int(n)) for r, c, n in spec.get("mines", ())),
                cells_resize=bool(spec.get("cells_resize", False)),
                press_hold=float(spec.get("press_hold", 0.0)),
            )
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise RulesError(f"malformed play section: {err!r}") from None


def _keys(value: Any) -> Keys:
    if isinstance(value, str) or not all(isinstance(combo, (list, tuple)) for combo in value):
        raise ValueError(f"key combinations must be lists of keys, not {value!r}")
    return tuple(tuple(str(k) for k in combo) for combo in value)


def _jsonable(value: Any) -> Any:
    """A rule's value as JSON holds it: tuples as lists, a control as its object."""
    if isinstance(value, NewGameControl):
        return {"offset": list(value.offset), "looks": list(value.looks)}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value
