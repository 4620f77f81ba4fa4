"""How the bot plays (the settings of :class:`~sweepbot.playing.loop.Player`) and what one game came to (its
report)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sweepbot.board import Board
from sweepbot.playing.timing import TimeSplit
from sweepbot.playing.view import BoardView
from sweepbot.solver.strategy import FULL, Strategy
from sweepbot.vision.rules import PlayRules
from sweepbot.watch import PLAY, Waits


@dataclass
class PlaySettings:
    first_click: str = "none"  # a real client's rule; "none" is the cautious default
    mines: int | None = None  # the total when the screen does not show it
    strategy: Strategy = FULL
    tries: int = 6  # captures per step before giving up on a read that makes no sense (about 1.2 s)
    waits: Waits = PLAY  # how the client's answers are waited for (see sweepbot.watch.pace)
    max_seconds: float = 600.0  # per game
    max_clicks: int = 20_000  # per game
    dry_run: bool = False
    #: keys that close a window the client may open over its board at any time (gnome-mines's scores
    #: dialog can open late, after the next game started): pressed once when the board is gone
    dismiss_keys: tuple[tuple[str, ...], ...] = ()
    #: the mine total of each board size (rows, columns) when the screen shows none: from the profile, from the
    #: counter read on a board of that size before, and from the games won (their covered cells and flags)
    known_mines: dict[tuple[int, int], int] = field(default_factory=dict)
    #: seconds each click holds the button down (a client that takes only held presses)
    press_hold: float = 0.0

    def with_mines(self, board: Board) -> Board:
        """``board`` with its mine total when the screen showed none and it is given or known."""
        if board.mines is not None:
            return board
        mines = self.mines or self.known_mines.get((board.rows, board.cols))
        return board if mines is None else board.with_mines(mines)


def settings_for(rules: PlayRules, first_click: str | None = None, **given: Any) -> PlaySettings:
    """How to play a client with ``rules`` (its first-click rule, what closes its dialogs, its mine totals);
    ``first_click`` and ``given`` settings win over them."""
    return PlaySettings(first_click=first_click or rules.first_click, dismiss_keys=rules.closes_dialogs,
                        known_mines={(r, c): n for r, c, n in rules.mines}, press_hold=rules.press_hold, **given)


@dataclass
class GameReport:
    result: str = "unfinished"  # won, lost, unfinished, error
    clicks: int = 0  # clicks the client took
    missed: int = 0  # clicks sent that the client did not take (each is sent again)
    moves: int = 0
    seconds: float = 0.0
    error: str | None = None
    #: the game's end taken from a message over the board, or from a board that reads as won once the client
    #: took no more clicks, not from a finished board read (no mine count is learnt from it)
    inferred: bool = False
    final: Board | None = None
    final_view: BoardView | None = None
    reads: int = 0
    planned: list[tuple[int, int]] = field(default_factory=list)
    time: TimeSplit = field(default_factory=TimeSplit)
