"""Playing one game of a live calibration and recording what each click proves: a cell that opened is a
number or empty; at a loss the clicked cell is the exploded mine, covered cells that changed elsewhere are
mines (or covered cells drawn another way), and marks that changed were judged. A click that changes nothing
means the game is over."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from sweepbot.board import EXPLODED
from sweepbot.calibration.facts import AT_LOSS, FLAG_AT_LOSS, QUESTION_AT_LOSS, REVEALED, WON_COVERED
from sweepbot.calibration.live.choose import Chooser
from sweepbot.calibration.live.driver import BoardDriver, Cell
from sweepbot.calibration.live.press import shortest_hold
from sweepbot.calibration.live.session import FactLog
from sweepbot.calibration.live.tiles import Tiles, flood
from sweepbot.watch import OVERLAY_WAIT

#: A click that changes more than this share of the board ended the game.
END_CHANGE = 0.5
#: Clicks after which a game is ended by a click on a likely mine: its loss shows the mines, and a large
#: board's calibration keeps to a few minutes.
LONG_GAME = 150
#: Seconds a window (a dialog) over the board is given to open after a loss, and between looks for one.
WINDOW_WAIT = 1.0
WINDOW_POLL = 0.05
#: Seconds between looks at a note over the board, while it fades (see LiveGame.without_note and after_note);
#: a board that changed is looked at again this much later to see whether it still fades.
NOTE_POLL = 0.1
FADE_CHECK = 0.2
#: Question marks placed in each of the first games (when the client has them).
QUESTION_GAMES = 3
QUESTIONS = 3
#: Cells clicked (each twice) after a click that opened one cell to a look never seen: a loss only if none opens.
LOSS_PROBES = 2


class Click(Enum):
    """What a click did to the game."""

    ON = "on"  # the game goes on, unless no covered cell is left (then it was won)
    LOST = "lost"
    WON = "won"  # most of the board redrawn: the client shows a won game


def near(cells: set[Cell]) -> set[Cell]:
    """``cells`` and their neighbours (off the board too)."""
    return {(r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}


@dataclass
class LiveGame:
    """One game, the ``number``-th (from 0): the marks placed in it, and the mine that went off, if one did."""

    number: int
    board: BoardDriver
    tiles: Tiles
    chooser: Chooser
    fact_log: FactLog
    rng: random.Random
    log: Callable[[str], None]
    question_marks: bool  # the client has question marks
    flags: set[Cell] = field(default_factory=set)
    questions: set[Cell] = field(default_factory=set)  # cells left with a question mark
    exploded: Cell | None = None
    note_waited: bool = False  # a note over the board was waited out after the click judged last
    #: a loss judged, its facts not yet recorded: the click (cell, the screen before it, the screen judged)
    #: and the facts, kept till the loss is sure (see :meth:`settle_loss`)
    loss: tuple[Cell, np.ndarray, np.ndarray, dict[Cell, str]] | None = None

    def play(self) -> bool:
        """Place a few marks, then click until the game ends (or no cell is left to click); True if it was won."""
        geo = self.board.geometry
        frame = self.board.watcher.grab()
        covered = self.tiles.covered(frame)
        if self.number == 0 and len(covered) > 10 and self.tiles.flag_look is not None:
            # two flags, somewhere (a client that flags cells): at the loss they show whether they were right or
            # wrong
            for cell in self.rng.sample(sorted(covered), 2):
                frame = self.board.click(cell, "right")
                self.flags.add(cell)
                self.fact_log.record(frame, {cell: "F"})
        if self.number < QUESTION_GAMES and self.question_marks and len(covered) > 4 * QUESTIONS:
            # question marks: at a loss some clients draw one over the mine it hid (gnome-mines), a look
            # that only a cell known to be a question mark before the loss names
            for cell in self.rng.sample(sorted(covered - self.flags), QUESTIONS):
                self.board.click(cell, "right")
                frame = self.board.click(cell, "right")
                self.questions.add(cell)
                self.fact_log.record(frame, {cell: "?"})
        clicks = 0
        while clicks < geo.rows * geo.cols:
            choice = self.chooser.choose(frame, self.flags, end=clicks >= LONG_GAME)
            if choice is None:
                break
            cell = choice
            before = frame
            self.note_waited = False
            taken = self.click_taken(cell, before)
            if taken is None or (taken[1] and self.board.board_gone()):
                # the board gave way before this click (none went), or while it was sent (it went to the desktop
                # where the board was): the game ended
                if self.won_unseen(cell, before, clicks):
                    return True
                break
            frame, changed = taken
            if self.open_before(changed, before):
                # cells open before the click changed: something may lie over the board (a dialog, a note)
                frame = self.without_note(before, self.close_window_over(frame), cell)
                changed = self.board.changes(before, frame, cell)
            if cell not in changed and cell in self.tiles.covered(frame):
                # the cell clicked stays covered: the click was not taken (the game is over), and what changed
                # elsewhere is drawn over the board, no answer to it (a level menu laid over the board a moment
                # after a win that changed no cell but the last one opened)
                changed = set()
            clicks += 1
            if not changed:
                if clicks > 1 and self.tiles.covered(frame) - self.flags:
                    # a game on takes every click on a covered cell, and the click before neither lost nor
                    # won the game in sight: it won it, leaving the mines covered
                    self.fact_log.record(frame, {cell: WON_COVERED})
                    self.log(f"game {self.number + 1}: won after {clicks - 1} clicks (no click taken after)")
                    return True
                self.log(f"game {self.number + 1}: over after {clicks} clicks")
                break
            mark, looks = len(self.fact_log.session.facts), len(self.tiles.opened_looks)
            exploded = len(self.tiles.exploded_looks)
            result = self.judge(cell, changed, before, frame)
            if result is Click.LOST:
                frame = self.board.last_frame  # the loss may have shown on a probe click inside judge()
                closed = self.close_window_over(frame, WINDOW_WAIT) if self.board.window is not None else frame
                if closed is not frame:
                    # a window the client opened over the board at the game's end: the game is over (a probe
                    # click would answer that window), and is judged on the screen once it closed
                    result = self.settle_loss(closed)
                else:
                    # make sure: after a loss a click changes nothing. If it does, the loss was misjudged:
                    # its facts are dropped and the probe's own answer is read as any click's
                    probe = self.chooser.choose(frame, self.flags | {cell})
                    sent = self.board.click_unless_gone(probe, "left", frame) if probe is not None else None
                    after = frame if sent is None else sent
                    moved = self.board.changes(frame, after, probe) if probe is not None else set()
                    # a game on opens a covered cell clicked; what changed elsewhere only (a "You have lost"
                    # note fading out over the board, kmines) is no answer to the click
                    if probe is not None and self.opened_by(probe, moved, frame):
                        result = self.misjudged(cell, probe, moved, frame, after, mark, looks, exploded)
                        clicks += 1
                    if result is Click.LOST:
                        result = self.settle_loss()
                if result is Click.LOST:
                    self.log(f"game {self.number + 1}: lost after {clicks} clicks")
                    break
            # the screen now: judge() may have clicked a probe cell, and the next click's changes are counted
            # from here (from an older frame, a cell the probe opened would seem to change at the loss)
            frame = self.board.last_frame
            if result is Click.WON or not self.tiles.covered(frame) - self.flags:
                self.log(f"game {self.number + 1}: won after {clicks} clicks")
                return True
        return False

    def won_unseen(self, cell: Cell, before: np.ndarray, clicks: int) -> bool:
        """Whether a game whose board gave way after ``clicks`` clicks, on a board as ``before`` shows it, was
        won (recorded so, at ``cell``, a covered cell there): the click before neither lost nor won it in sight,
        and the client was seen to show a loss on its board before it lets the board go. Else the game is
        over, unjudged."""
        if clicks and self.tiles.covered(before) - self.flags and self.losses_shown():
            self.fact_log.record(before, {cell: WON_COVERED})
            self.log(f"game {self.number + 1}: won after {clicks} clicks (the board gave way after)")
            return True
        self.log(f"game {self.number + 1}: over after {clicks} clicks (the board gave way)")
        return False

    def losses_shown(self) -> bool:
        """Whether a loss seen in the session showed the mine that went off on the board."""
        return any(f.char == EXPLODED for f in self.fact_log.session.facts)

    def losses_show_mines(self) -> bool:
        """Whether a loss seen in the session changed cells covered before besides the mine that went off (the
        client shows its mines at a loss)."""
        return any(f.char in (AT_LOSS, FLAG_AT_LOSS, QUESTION_AT_LOSS) for f in self.fact_log.session.facts)

    def opened_by(self, probe: Cell, moved: set[Cell], before: np.ndarray) -> bool:
        """Whether a click on ``probe`` was taken: it changed (``moved``: the cells changed since ``before``), and
        only cells covered or marked on ``before`` did. A cell open before that changed lies under something
        drawn over the board (a level menu laid over it a moment after the game ended), no answer to the click."""
        return probe in moved and not self.open_before(moved, before)

    def open_before(self, changed: set[Cell], before: np.ndarray) -> set[Cell]:
        """The cells of ``changed`` that were open on ``before``: neither covered nor marked."""
        return changed - self.tiles.covered(before) - self.flags - self.questions

    def misjudged(self, cell: Cell, probe: Cell, moved: set[Cell], frame: np.ndarray, after: np.ndarray,
                  mark: int, looks: int, exploded: int) -> Click:
        """A loss judged at ``cell`` that was none: the ``probe`` clicked after it moved ``moved`` (``frame``
        to ``after``). The facts and looks recorded since the ``mark``-th fact, ``looks``-th opened look and
        ``exploded``-th exploded look are taken back, and the probe is judged as any click."""
        self.loss = None
        del self.fact_log.session.facts[mark:]
        del self.tiles.opened_looks[looks:]  # nor are the looks those facts showed opened cells
        del self.tiles.exploded_looks[exploded:]  # or a mine that went off
        self.exploded = None
        self.log(f"game {self.number + 1}: a loss misjudged at {cell}, facts taken back")
        return self.judge(probe, moved, frame, after)

    def flagged_at_win(self, cell: Cell, changed: set[Cell], frame: np.ndarray) -> set[Cell]:
        """The cells the client flagged if the click on ``cell`` won the game that way (gnome-mines, kmines
        flag the mines left), else none: the clicked cell opened to a look cells opened to, the other cells
        that changed are flags, or opened from the clicked cell (an opening), and no cell is left covered
        unless the click opened it alone. A loss shows its mines otherwise than as flags.
        The clicked cell may also open alone to a look no cell opened to yet (a number first seen at the win),
        with every covered cell flagged and no mark placed: a mine clicked would leave a safe cell covered."""
        flagged = self.tiles.flags_among(frame, changed - {cell})
        opened = changed - flagged
        if not flagged or flood(cell, opened) != opened:
            return set()
        if self.tiles.new_look(frame, cell):
            unmarked = not (self.flags or self.questions)
            return flagged if opened == {cell} and unmarked and not self.tiles.covered(frame) else set()
        return flagged if opened == {cell} or not self.tiles.covered(frame) else set()

    def won_showing_mines(self, cell: Cell, changed: set[Cell], frame: np.ndarray, around: set[Cell]) -> bool:
        """Whether a click that changed every covered cell won the game, the client showing its mines as at a
        loss: the cells that changed to a look no cell opened to are the mines, all alike, and the others
        opened from the clicked cell (it alone, or an opening spread from it); the clicked cell opened to a
        look cells opened to, or else to one unlike the mines and unlike a mine that went off before, with no
        mark placed. A loss that shows the mines leaves the other safe cells covered, and one is left unless a
        mark hides it; a loss that shows the whole board shows numbers around the exploded mine, which opens
        no opening."""
        mines = self.tiles.new_looks(frame, changed - {cell})
        opened = changed - mines
        if not mines or not self.tiles.alike(frame, mines):
            return False
        if self.tiles.new_look(frame, cell) and (
                self.flags or self.questions  # a mark may hide the last safe cell
                or self.tiles.seen_exploded(frame, cell) or not self.tiles.unlike_all(frame, cell, mines)):
            # ... or the clicked cell is drawn as a mine: some clients take a click on a mine once every safe
            # cell is open (DangerUXB wants the mines flagged to call a game won)
            return False
        if opened == {cell}:
            return True
        empty = self.tiles.empty_look is not None and self.tiles.may_be_empty(frame, cell)
        return empty and around <= opened and flood(cell, opened) == opened

    def close_window_over(self, frame: np.ndarray, wait: float = 0.0) -> np.ndarray:
        """``frame``, or, when a window lies over the board once the client answered (kmines asks "Reset the
        game?" at a loss, in a dialog that takes the keyboard and the clicks) or opens within ``wait``
        seconds, the screen once Escape closed it: sent only then, Escape goes to that window. Play presses
        it too when a window hides the board."""
        board = self.board
        if not board.watcher.wait_until(lambda: True if board.window_over() else None, wait, WINDOW_POLL):
            return frame
        board.press("escape")
        frame = board.answered()
        if not board.window_over():
            self.fact_log.session.learn(dismiss_keys=(("escape",),))
            self.log(f"game {self.number + 1}: a window over the board closed with Escape")
        board.last_frame = frame
        return frame

    def without_note(self, before: np.ndarray, frame: np.ndarray, cell: Cell) -> np.ndarray:
        """``frame``, or, when cells open before the click on ``cell`` changed with no window over the board
        (kmines draws "You have lost." over its board for about 4 s), the screen once they look as before
        again, at most OVERLAY_WAIT s later. A client seen to keep such a change that long (one that dims its
        board when a game ends) is not waited for again."""
        board = self.board
        odd = self.open_before(board.changes(before, frame, cell), before)
        if not odd or board.notes_go is False:
            return frame

        def note_gone() -> bool | None:
            board.watcher.pause(NOTE_POLL)
            self.close_window_over(frame)  # one may open late
            return None if board.cells.changed(before, board.watcher.grab()) & odd else True

        if board.watcher.wait_until(note_gone, OVERLAY_WAIT, 0.0) is None:
            board.notes_go = False
            self.log(f"game {self.number + 1}: cells open before the click stayed changed: no note waited for "
                     "again")
            return frame
        board.notes_go = True
        self.note_waited = True
        self.log(f"game {self.number + 1}: a note over the board went")
        frame = board.last_frame = board.answered()
        return frame

    def settle_loss(self, now: np.ndarray | None = None) -> Click:
        """Record the loss judged last, now that it is sure (the game took no more clicks, or the client
        opened a window over the board); what the click did. The click is judged again on the screen once a
        note over the board went: one drawn under the window (``now``, the screen once the window closed;
        watched for once on a client not seen to draw one yet), or one seen at an earlier game's end (see
        :meth:`without_note`) that was not waited out after this click (a note over the flags put at a win
        made it look like a loss). Nothing is recorded once the cells the facts name look covered again (a
        new game)."""
        assert self.loss is not None
        cell, before, frame, facts = self.loss
        self.loss = None
        if now is not None:
            now = self.without_note(before, now, cell)
            if self.board.notes_go is None:
                later = self.after_note(now, facts)
                if later is None:
                    return Click.LOST
                self.board.notes_go = later is not now
                now = later
        elif self.board.notes_go and not self.note_waited:
            later = self.after_note(frame, facts)
            if later is None:
                return Click.LOST
            if later is not frame:  # else no note this time
                self.log(f"game {self.number + 1}: the game's end judged once the note over it went")
                now = later
        self.note_waited = True
        if now is None:
            self.fact_log.record(frame, facts)
            return Click.LOST
        self.exploded = None
        result = self.judge(cell, self.board.changes(before, now, cell), before, now)
        return self.settle_loss() if result is Click.LOST else result

    def after_note(self, frame: np.ndarray, cells: Iterable[Cell]) -> np.ndarray | None:
        """The screen once the board changed from ``frame`` and held still with the whole board in sight (a
        note over it went), at most OVERLAY_WAIT s later; ``frame`` if it did not change; None once ``cells``
        look covered again (a new game)."""
        board = self.board
        new_game = np.zeros((0, 0, 3), np.uint8)  # what the check returns for a new game

        def note_went() -> np.ndarray | None:
            board.watcher.pause(NOTE_POLL)
            now = self.close_window_over(board.answered())
            if set(cells) & self.tiles.covered(now):
                return new_game
            if board.cells.changed(frame, now) and self.fact_log.in_sight(now):
                board.watcher.pause(FADE_CHECK)
                if board.cells.changed(now, board.watcher.grab()):
                    return None  # still fading
                board.last_frame = now
                return now
            return None

        found = board.watcher.wait_until(note_went, OVERLAY_WAIT, 0.0)
        if found is None:
            return frame
        return None if found is new_game else found

    def click_taken(self, cell: Cell, before: np.ndarray) -> tuple[np.ndarray, set[Cell]] | None:
        """Left-click ``cell`` and return the screen and the cells that changed from ``before``; None, and no
        click, when the board gave way since ``before`` (see :meth:`BoardDriver.gave_way`). A click that
        changed nothing, on a cell that still looks covered, is sent once more before it counts as refused
        (the game over): the client may have missed it (pygame-minesweeper now and then does); not on a board
        that gave way since: none changed then. A cell that no longer looks covered is not clicked again: on an
        open number a click may open the cells around it."""
        frame = self.board.click_unless_gone(cell, "left", before)
        if frame is None:
            return None
        changed = self.board.changes(before, frame, cell)
        if not changed and cell in self.tiles.covered(frame):
            clicked_before = self.board.previous
            again = self.board.click_unless_gone(cell, "left", before)
            if again is None:
                return before, set()  # not taken, and the board gave way since: the game is over
            frame = again
            self.board.previous = clicked_before  # a focus ring moved once, from the cell clicked before
            changed = self.board.changes(before, frame, cell)
        if not changed and self.number == 0 and not self.tiles.opened_looks and cell in self.tiles.covered(frame):
            held = shortest_hold(self.board, cell, before, self.fact_log.session, self.log)
            if held is not None:
                frame, changed = held
        return frame, changed

    def judge(self, cell: Cell, changed: set[Cell], before: np.ndarray, frame: np.ndarray) -> Click:
        """Record the facts of a click on ``cell`` (``changed``: the cells it changed from ``before`` to
        ``frame``); what it did to the game."""
        geo = self.board.geometry
        was_covered = self.tiles.covered(before)
        around = {(cell[0] + dr, cell[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                  if 0 <= cell[0] + dr < geo.rows and 0 <= cell[1] + dc < geo.cols} & was_covered - {cell} - self.flags
        opened_before = changed - was_covered - self.flags - self.questions  # a mark opened with the rest is none
        if (len(changed) > END_CHANGE * geo.rows * geo.cols and len(opened_before) >= 3
                and not self.tiles.new_look(frame, cell)):
            # most of the board redrawn, the clicked cell opened: the game was won (a client dims its
            # board, or flags the mines left); only the clicked cell is sure
            self.fact_log.record(frame, {cell: REVEALED})
            return Click.WON
        # an opening spreads from an empty cell: every neighbour of the clicked cell opens, and nothing opens
        # that the opening cannot reach; anything else is the mines shown at a loss (or flags put at a win)
        far = changed - flood(cell, changed)  # a flagged cell may open with the rest (gnome-mines)
        # ... every cell it opens lies next to an empty cell it spread through, each drawn as the one it spread
        # from (a loss that shows the whole board changes cells far from any cell drawn as the mine clicked)
        if len(changed) > 1:
            far |= changed - near(self.tiles.spread_alike(frame, cell, changed))
        # ... and from an empty cell only: once an opening showed how an empty cell looks, cells that change
        # around a clicked cell drawn otherwise are mines shown (a client that shows its whole board at a loss)
        not_empty = len(changed) > 1 and not self.tiles.may_be_empty(frame, cell)
        # an opening leaves the mines covered: every covered cell changed, and none to a flag (a client that
        # flags the mines left at a win), is a whole board shown at a loss
        shown = (len(changed) > 1 and (was_covered - self.flags) <= changed
                 and not self.tiles.flags_among(frame, changed - self.flags))
        if (len(changed) > 1 and not around <= changed) or far or not_empty or shown:
            flagged = self.flagged_at_win(cell, changed, frame)
            if flagged:
                self.fact_log.record(frame, {**dict.fromkeys(changed - flagged, REVEALED),
                                             **dict.fromkeys(flagged, "F")})
                return Click.ON  # won, unless a covered cell is left (see play())
            if shown and self.won_showing_mines(cell, changed, frame, around):
                self.fact_log.record(frame, {cell: REVEALED})
                return Click.WON
            self.exploded = cell
            facts: dict[Cell, str] = {}
            if self.tiles.new_look(frame, cell) and (not self.flags or self.tiles.unlike_all(frame, cell,
                                                                                           changed - {cell})):
                # the clicked cell. With flags placed the mine may have gone off away from it (DangerUXB's
                # opening spreads from every cell with as many flags around as its number, past a wrong flag
                # onto a mine): then only a cell drawn unlike every other cell the loss changed is the one. Never a
                # cell drawn as one seen open before (a number, an empty cell): that loss proves nothing of it
                facts[cell] = "!"
            for c in (changed - {cell}) & (was_covered | self.flags | self.questions):
                # a mine shown, or (some clients) a covered cell or a mark drawn darker: the counts tell them
                # apart; open cells some clients dim at the end are no facts
                facts[c] = FLAG_AT_LOSS if c in self.flags else QUESTION_AT_LOSS if c in self.questions else AT_LOSS
            self.loss = (cell, before, frame, facts)
            return Click.LOST
        if len(changed) == 1 and self.tiles.new_look(frame, cell) and not self.losses_show_mines():
            # one cell with a look not seen opened before: a number, or the exploded mine of a client that
            # shows no other mine (one whose losses were seen to show others opens a number, a game won by the
            # click or not). Another click tells: after a loss nothing changes.
            # A number never seen is as likely: two other cells, each clicked twice, must not open (a client
            # slow to answer one click does not make a loss).
            probe: Cell | None = None
            for _ in range(LOSS_PROBES):
                probe = self.chooser.choose(frame, self.flags | {cell} | ({probe} if probe else set()))
                if probe is None:
                    break
                taken = self.click_taken(probe, frame)
                if taken is not None and self.opened_by(probe, taken[1], frame):  # a game on opens it (see play())
                    self.fact_log.record(frame, {cell: REVEALED})
                    return self.judge(probe, taken[1], frame, taken[0])
            if probe is not None:
                self.exploded = cell
                self.loss = (cell, before, frame, {cell: "!"})
                return Click.LOST
        if len(changed) > 1:
            self.tiles.saw_empty(frame, cell)  # an opening spread from it
        self.fact_log.record(frame, dict.fromkeys(changed, REVEALED), roll=True)
        self.flags -= changed
        self.questions -= changed
        return Click.ON
