"""How play tells that a game ended: from the board as the client shows it, from the clicks the client no
longer takes, and from a message laid over the board. The game loop asks; what it does then (a report, a
diagnostic kept) is its own."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from sweepbot.board import Board, Cell, game_over
from sweepbot.playing.consistency import (
    lost_at,
    mines_all_proved,
    misread_mines_opened,
    opened_safely,
    untaken_clicks,
    winning_board,
    won_with_mines_shown,
)
from sweepbot.playing.view import BoardView
from sweepbot.rect import Rect
from sweepbot.solver import Analysis
from sweepbot.vision.labels import read_text, verdict

#: moves in a row of which the client took no click: it no longer plays (a game over that the board does not
#: show, such as a win on a client that leaves the mines covered and shows no mine counter)
MAX_UNTAKEN_MOVES = 4
#: Pixels around the board where a message about the game's end is read
MESSAGE_MARGIN = 40

#: Why a board that reads as lost, but not as a loss shows, is not counted.
MISREAD_LOSS = ("the board reads as lost, but not as a loss shows: one mine gone off where the bot clicked, "
                "nothing opened beside it; not counted (a look named wrongly? calibrate again)")


def said_over(frame: np.ndarray, last: BoardView, over: Rect | None = None) -> str | None:
    """``won`` or ``lost`` when a message laid over the board (and just around it, or around ``over``: the
    board and what lies over it) says so, else None."""
    box = over or last.bbox
    return verdict(read_text(frame, Rect(box.x - MESSAGE_MARGIN, box.y - MESSAGE_MARGIN, box.w + 2 * MESSAGE_MARGIN,
                                         box.h + 2 * MESSAGE_MARGIN)) or "")


@dataclass
class Ending:
    """What the last moves tell of how the game may end: the cells clicked last, the board they leave won
    if they open safely (``sure``: they were certain to), and which clicks the client still takes."""

    cells: list[Cell] = field(default_factory=list)
    expected_win: Board | None = None
    sure: bool = False
    untaken_moves: int = 0  # moves in a row of which the client took no click
    taken: list[Cell] = field(default_factory=list)  # the cells of the last clicks the client took
    waited_late: bool = False  # the client, once stopped, was waited for, and has taken no click since

    def moved(self, board: Board, analysis: Analysis, cells: list[Cell]) -> None:
        """The clicks of a move made on ``board`` with ``analysis``."""
        self.cells = cells
        opening = bool(analysis.safe) or (analysis.move is not None and analysis.move.action == "open")
        proved = analysis.mines if analysis.safe else []  # a guess may go off: it proves no win
        self.expected_win = winning_board(board, cells, proved) if opening else None
        self.sure = self.expected_win is not None and bool(analysis.safe)

    def answered(self, before: Board, after: Board) -> int:
        """Note which of the last clicks, made on ``before``, ``after`` shows taken; how many were not."""
        untaken = untaken_clicks(before, after, self.cells)
        self.untaken_moves = self.untaken_moves + 1 if len(untaken) == len(self.cells) else 0
        self.waited_late = self.waited_late and self.untaken_moves > 0
        self.taken = [cell for cell in self.cells if cell not in untaken] or self.taken
        return len(untaken)

    def answering_late(self) -> None:
        """The client, stopped, answered after all (a web page whose server was busy): its game goes on."""
        self.untaken_moves, self.waited_late = 0, True

    @property
    def stopped(self) -> bool:
        """Whether the client took none of the clicks of the last MAX_UNTAKEN_MOVES moves."""
        return self.untaken_moves >= MAX_UNTAKEN_MOVES

    def proved_won(self, board: Board, analysis: Analysis | None) -> bool:
        """A board with no mine count whose covered cells the numbers all prove mines: no safe cell left."""
        return analysis is not None and board.mines is None and mines_all_proved(board, analysis.mines, self.taken)


def shown_over(view: BoardView, previous: BoardView | None, ending: Ending) -> tuple[str | None, BoardView, bool]:
    """How the board read shows the game: ``won``, ``lost`` or None (not over); the view as it counts; and
    whether the loss it shows is no loss a game shows (a look named wrongly: not counted).

    A board that reads as lost is won when the winning clicks opened and the client shows its mines as at a
    loss; a loss at none of the cells just clicked, on a board that did not move since, is the win of cells
    opened to a look never named, read as a mine gone off, when the board is won with them open."""
    cells = ending.cells
    over = game_over(view.board)
    if over == "lost" and ((ending.expected_win is not None and opened_safely(view.board, cells))
                           or won_with_mines_shown(view.board, cells)):
        return "won", view, False  # the winning clicks opened, and the client shows the mines as at a loss
    before = previous.board if previous else None
    # a board that moved since it was read took the clicks where it was: a mine gone off elsewhere is the loss
    # they made, not a misread
    moved = previous is not None and (view.bbox.x, view.bbox.y) != (previous.bbox.x, previous.bbox.y)
    if over == "lost" and cells and not moved and not lost_at(view.board, cells, before):
        opened = misread_mines_opened(view.board, before)
        if game_over(opened) != "won":
            return over, view, True
        # the cells just opened that read as mines did not go off: read as open cells of unknown number, the
        # board is the won one (a number never seen, read at a drawn size as a mine gone off)
        return "won", replace(view, board=opened), False
    return over, view, False
