"""The bot's loop for one game: capture, locate and read, check, solve, act, settle.

It clicks only inside the board it has just read, stops when the screen stops making sense (after a few
fresh captures), and waits for the game to answer by watching the board region: changed, then still.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from sweepbot.board import game_over
from sweepbot.control.errors import ControlError
from sweepbot.errors import SweepbotError
from sweepbot.playing.consistency import (
    changes_that_cannot_happen,
    half_taken,
    late_numbers,
    lost_beneath_unread,
    same_place,
    won_beneath_unread,
    won_unshown,
)
from sweepbot.playing.ending import MISREAD_LOSS, Ending, said_over, shown_over
from sweepbot.playing.record import Recorder
from sweepbot.playing.settings import GameReport, PlaySettings
from sweepbot.playing.view import AreaReader, BoardView, Learning, Reader, Relocating
from sweepbot.rect import Rect
from sweepbot.solver import Analysis, solve
from sweepbot.solver.problem import ContradictionError
from sweepbot.vision.frames import same_frame
from sweepbot.vision.refusal import REFUSED, PartRead
from sweepbot.watch import OVERLAY_WAIT, Watcher

#: The longest pause (s) between two reads of a screen that made no sense (a board that flashes at the end of a
#: game, sgt-mines, is read again after pauses that double up to this)
MAX_RETRY_PAUSE = 0.4
#: moves in a row called off because the board changed between its read and the clicks
MAX_STALE_READS = 20
#: Seconds a window over the board is given to close after the dismiss keys
DISMISS_WAIT = 0.5
#: Seconds a message over the board is looked for when the client stopped taking clicks, and how often
MESSAGE_WAIT, MESSAGE_POLL = 2.0, 0.25
#: Seconds a client that stopped taking clicks is given to answer them late before its game is given up (a web
#: page whose server was busy answered a click after more than 3 s)
LATE_ANSWER_WAIT = 10.0
#: Times a game's dismiss keys are pressed at most: again only when the screen changed after the last time (a
#: window that opened after them: gnome-mines greys its won board, and opens its scores a moment later)
DISMISS_TIMES = 2


class ScreenStoppedMakingSense(SweepbotError):
    """Reads kept failing or contradicting themselves: the bot stops rather than click blindly. ``frame`` is
    the last screen looked at, when there is one."""

    def __init__(self, message: str, frame: np.ndarray | None = None) -> None:
        super().__init__(message)
        self.frame = frame


class Player:
    """Plays one game at a time on the screen ``watcher`` looks at, through ``reader``."""

    def __init__(self, watcher: Watcher, reader: Reader, settings: PlaySettings,
                 recorder: Recorder | None = None) -> None:
        if watcher.mouse is None and not settings.dry_run:
            raise ControlError("no input device: only a dry run can go without one")
        self.watcher = watcher
        self.clock = watcher.clock
        self.mouse = watcher.mouse
        if self.mouse is not None:
            self.mouse.hold = settings.press_hold
        self.reader = reader
        self.settings = settings
        self.recorder = recorder
        self._dismissed: list[np.ndarray] = []  # the screen after each press of the dismiss keys this game
        self._stale = 0
        self._whole: np.ndarray | None = None  # the last frame of the whole screen, kept current where read

    # -- the steps ---------------------------------------------------------------------------------
    def play_game(self) -> GameReport:
        report = GameReport()
        self._dismissed = []
        if self.mouse is not None:
            self.mouse.allow(self.settings.max_clicks)
        start = self.clock.now()
        previous: BoardView | None = None
        ending = Ending()
        while True:
            if self.clock.now() - start > self.settings.max_seconds:
                report.error = f"time limit of {self.settings.max_seconds:.0f} s reached"
                break
            try:
                frame, view, analysis = self.look(previous, report, win_expected=ending.expected_win is not None,
                                                  won_if_laid_over=ending.sure, clicked=ending.cells)
            except ScreenStoppedMakingSense as err:
                # a window over the board after clicks that may have won is closed to see how the game ended
                closing = ending.expected_win is None or (not ending.sure and self.window_over(previous))
                if closing and self.dismiss():
                    continue
                # a message over the board is read unless the last clicks were certain to win (reading one takes
                # seconds on a large board)
                said = said_over(err.frame, previous, self.watcher.overlays.extent(err.frame, previous.bbox)) \
                    if previous is not None and err.frame is not None and not ending.sure else None
                if said is not None:
                    # a message over the board says how the game ended ("You hit a mine"), as a person reads it
                    report.result, report.final, report.final_view = said, previous.board if previous else None, \
                        previous
                    report.inferred = True  # the board before the last clicks: no mine count is learnt from it
                    break
                if previous is None or ending.expected_win is None:
                    raise
                # the last clicks opened every cell left but the mines, and no lost board shows: the
                # client covered its board with a congratulation; the game is won
                report.result, report.final, report.final_view = "won", ending.expected_win, replace(
                    previous, board=ending.expected_win)
                break
            over, view, misread = shown_over(view, previous, ending)
            if misread:
                report.error = MISREAD_LOSS
                if self.recorder:
                    kept = self.recorder.diagnostic(frame, [report.error, f"clicked: {ending.cells}", "read:",
                                                            *view.board.grid])
                    report.error += f"; the frame is in {kept.parent}"
                report.final, report.final_view = view.board, view
                break
            if previous is not None and not over and ending.cells:
                report.missed += ending.answered(previous.board, view.board)
                if ending.stopped:
                    # the game is over: a message (a toast sliding in, read once it is there) says how; or, with
                    # no message, the last clicks taken opened cells of known looks (a mine gone off shows where
                    # it was clicked) and the board reads as won were every covered cell a mine
                    def message(seen: BoardView = view) -> str | None:
                        return said_over(self.watcher.grab(), seen)
                    said = self.watcher.wait_until(message, MESSAGE_WAIT, MESSAGE_POLL)
                    if said is not None or won_unshown(view.board, ending.taken):
                        report.result, report.final, report.final_view = said or "won", view.board, view
                        report.inferred = True  # said by a message or read from the board: not shown as won
                        break
                    box = view.bbox
                    if not ending.waited_late and self.watcher.late_answer(
                            box, frame[box.y:box.bottom, box.x:box.right], LATE_ANSWER_WAIT):
                        ending.answering_late()  # the board changed since its read: read again, play on
                        continue
                    report.error = (f"the client took none of the clicks of the last {ending.untaken_moves} moves: "
                                    "the game is over without showing it"
                                    + (" (give --mines so that a won board is known)" if view.board.mines is None
                                       else ""))
                    report.final, report.final_view = view.board, view
                    break
            if not over and ending.proved_won(view.board, analysis):
                over = "won"  # no safe cell left: what is covered, the numbers prove mines
            if over:
                report.result = over
                report.final = view.board
                report.final_view = view
                break
            assert analysis is not None
            clicked = self.act(frame, view, analysis, report)
            if isinstance(self.reader, Learning):
                # after the step is recorded: the step's frame is read again (replay) with the looks it was read with
                self.reader.learn(frame, view, analysis)
            if clicked or ending.expected_win is None:
                ending.moved(view.board, analysis, clicked)
            # else no click went (the board changed since it was read): the last clicks' answer is coming, and
            # still wins the game if it was to
            if self.settings.dry_run:
                report.planned = ending.cells
                break
            with report.time.measure("wait", self.clock):
                self.await_answer(view, frame, ending.cells)
            previous = view
        final = report.final
        if report.result == "won" and final is not None and final.mines is None and final.count("!*X") == 0 \
                and not report.inferred:
            # a client that shows no counter: the won board's covered cells and flags are the mines
            self.settings.known_mines[(final.rows, final.cols)] = final.count("#?F")
        report.seconds = self.clock.now() - start
        if self.mouse:
            report.clicks = self.mouse.clicks - report.missed
        return report

    def finished_on_screen(self) -> GameReport | None:
        """The board on screen as a finished game's report when it shows a game over (lost or won), else None
        (also when it cannot be read: the first game says why)."""
        frame, part = self.capture(whole=True)
        view, _, _, _ = self._read(frame, part)
        over = game_over(view.board) if view is not None else None
        if view is None or over is None:
            return None
        return GameReport(result=over, final=view.board, final_view=view)

    def look(self, previous: BoardView | None, report: GameReport, win_expected: bool = False,
             won_if_laid_over: bool = False, clicked: list[tuple[int, int]] | None = None,
             ) -> tuple[np.ndarray, BoardView, Analysis | None]:
        """Capture, locate, read and check; a read that contradicts the last one or itself is captured again.
        With ``won_if_laid_over`` (the last clicks were certain to win), something laid over the board is the
        client's congratulation: the bot stops looking at once rather than wait for it to go; so too at a
        window over the board (a dialog) after clicks that may have won, or where the dismiss keys may close
        it. A cell of the last ``clicked`` drawn pressed (a press taken without its release) is still covered:
        clicked again."""
        problems: list[str] = []
        crops: dict[tuple[int, int], np.ndarray] = {}
        held: BoardView | None = None  # a read that contradicts the last move's, seen once
        frame = np.zeros((1, 1, 3), np.uint8)
        part = True
        overlays = self.watcher.overlays
        overlaid_at: float | None = None
        unread_before: tuple[str, ...] | None = None  # the last frame's board read but for some cells
        for attempt in itertools.count():
            if attempt and won_if_laid_over and not part and overlays.laid_over(frame):
                break
            if attempt and (win_expected or self.may_dismiss()) and self.window_over(previous):
                break  # a window (a dialog), not a toast: read again it hides the same; closed, or the win taken
            if attempt >= self.settings.tries:
                # a toast or pop-up over part of the board ("You lost!") is waited out, up to OVERLAY_WAIT
                if not overlays.laid_over(frame):
                    if overlaid_at is not None:
                        overlays.went()
                    break
                overlaid_at = overlaid_at or self.clock.now()
                if self.clock.now() - overlaid_at > OVERLAY_WAIT:
                    overlays.stayed()
                    if not overlays.renew(frame):  # kept with a toast of the game before over it, gone since
                        break
                    overlaid_at = None
            if attempt:
                # longer each time: a client may flash its board at the end of a game (sgt-mines)
                self.watcher.pause(min(MAX_RETRY_PAUSE, self.settings.waits.quiet * 2 ** attempt))
            with report.time.measure("capture", self.clock):
                # whole at a game's first look: the band around the board is kept from it (see _laid_over)
                frame, part = self.capture(whole=attempt > 0 or previous is None)
            report.reads += 1
            with report.time.measure("read", self.clock):
                view, problem, unread, some = self._read(frame, part)
            if view is None:
                problems.append(problem)
                crops = unread or crops
                if some is not None and previous is not None and same_place(some, previous):
                    won = won_beneath_unread(previous.board, some.grid, clicked or [], REFUSED)
                    if won is not None:
                        # the last clicks won, and the client marks its mines in a look play never showed (a flag
                        # beside a flag): the rest of the board proves the win, with the unread cells left unnamed
                        return frame, replace(previous, board=won), None
                    lost = lost_beneath_unread(previous.board, some.grid, clicked or [], REFUSED) \
                        if some.grid == unread_before else None
                    if lost is not None:
                        # a click went off, and the client shows its mines in a look play never saw (the same
                        # on two frames: no opening caught half drawn): a loss
                        return frame, replace(previous, board=lost), None
                    unread_before = some.grid
                continue
            pressed = half_taken(view.board, clicked or [])
            if pressed:
                view = replace(view, board=view.board.replace(dict.fromkeys(pressed, "#")))
            beside = not part and not game_over(view.board) and overlays.laid_over(frame, view.bbox)
            if beside and not view.exact:
                # a toast or pop-up over part of the board: the cells under it may read as something else (every
                # cell read pixel for pixel: it lies beside them, over none of the pixels read, and the game goes on)
                problems.append("something lies over part of the board")
                continue
            bad = changes_that_cannot_happen(previous.board, view.board) if previous is not None else []
            if bad and not (late_numbers(bad) and held is not None and held.board.grid == view.board.grid):
                held = view  # the same read again means the last one caught a tile drawn before its number
                problems.append(f"cells changed in ways no move can cause: {bad[:5]}")
                self._relocate(attempt)
                continue
            if overlaid_at is not None:
                overlays.went()
            if game_over(view.board):
                return frame, view, None
            if not part and not beside:  # (the band is kept as it is with nothing laid over it)
                overlays.keep_unless_nearby(frame, view.bbox)
            try:
                with report.time.measure("solve", self.clock):
                    analysis = solve(view.board, first_click=self.settings.first_click,
                                     strategy=self.settings.strategy)
            except ContradictionError as err:
                problems.append(f"the board read contradicts itself: {err}")
                self._relocate(attempt)
                continue
            return frame, view, analysis
        kept = ""
        if self.recorder and not win_expected:  # a board covered by a congratulation is no surprise
            kept = f"; the frame{' and the unread cells' if crops else ''} are in " + str(
                self.recorder.diagnostic(frame, problems, crops).parent)
        elif crops:
            kept = "; --record DIR keeps the frame and the unread cells' crops"
        raise ScreenStoppedMakingSense(
            f"after {self.settings.tries} captures the screen still makes no sense: {problems[-1]}{kept}", frame)

    def _relocate(self, attempt: int) -> None:
        """After a second read that made no sense (the first may have caught a tile drawn late), the board is
        found afresh: its cells may have moved inside the window (rows drawn shorter)."""
        if attempt >= 1 and isinstance(self.reader, Relocating):
            self.reader.relocate()

    def capture(self, whole: bool = False) -> tuple[np.ndarray, bool]:
        """A frame of the screen, and whether only the reader's area of it is current. Once the whole screen
        was grabbed, a reader that says where it looks (the board found, and its counter) has only that part
        grabbed, into the last whole frame; the rest of that frame stays as it was. The frame is the same
        array from one capture to the next: it holds until the next capture."""
        area = self.reader.area() if not whole and isinstance(self.reader, AreaReader) else None
        inside = None
        if area is not None and self._whole is not None:
            inside = area.intersect(Rect(0, 0, self._whole.shape[1], self._whole.shape[0]))
        if inside is None or self._whole is None:
            self._whole = self.watcher.grab()
            return self._whole, False
        self._whole[inside.y:inside.bottom, inside.x:inside.right] = self.watcher.grab(inside)
        return self._whole, True

    def _read(self, frame: np.ndarray, part: bool = False) -> tuple[
            BoardView | None, str, dict[tuple[int, int], np.ndarray], PartRead | None]:
        """The board on ``frame`` (current only in the reader's area, with ``part``); or None, what was wrong,
        the crops of the cells that could not be read, and the board read but for them (when it was)."""
        try:
            if part and isinstance(self.reader, AreaReader):
                view = self.reader.read_in_area(frame)
            else:
                view = self.reader.read(frame)
        except SweepbotError as err:
            return None, f"read: {err}", getattr(err, "crops", None) or {}, getattr(err, "board_but_unread", None)
        if view.board.mines is None:
            view = replace(view, board=self.settings.with_mines(view.board))
        else:
            # the total the screen shows: the next games on a board of this size know it where their counter
            # does not read (a window resized to a size whose looks hold no digits of the counter)
            self.settings.known_mines[(view.board.rows, view.board.cols)] = view.board.mines
        return view, "", {}, None

    def window_over(self, seen: BoardView | None) -> bool:
        """Whether a window lies over the board last ``seen`` (see :meth:`Watcher.window_over`)."""
        return seen is not None and self.watcher.window_over(seen.bbox)

    def may_dismiss(self) -> bool:
        """Whether :meth:`dismiss` may press its keys this game."""
        return bool(self.settings.dismiss_keys) and self.mouse is not None and len(self._dismissed) < DISMISS_TIMES

    def dismiss(self) -> bool:
        """Press the dismiss keys (True if pressed): a window over the board may close. Once a game, and again
        (DISMISS_TIMES at most) only when the screen changed since: a window opened after the keys went."""
        if not self.may_dismiss():
            return False
        if self._dismissed and same_frame(self.watcher.grab(), self._dismissed[-1]):
            return False
        self.watcher.press(self.settings.dismiss_keys)
        self.watcher.pause(DISMISS_WAIT)
        self._dismissed.append(self.watcher.grab())
        return True

    def act(self, frame: np.ndarray, view: BoardView, analysis: Analysis, report: GameReport) -> list[tuple[int, int]]:
        """Open every certain safe cell in one go, or make the strategy's one move."""
        move = analysis.move
        if analysis.safe:
            cells, button = list(analysis.safe), "left"
        elif move is not None:
            cells, button = [move.cell], ("right" if move.action == "flag" else "left")
        else:
            raise ScreenStoppedMakingSense("nothing to do on a board that is not finished")
        if self.mouse is not None and not self.settings.dry_run and not self._unchanged(frame, view.bbox, report):
            # the board moved, was covered or repainted since it was read: look again before any click
            self._stale += 1
            if self._stale >= MAX_STALE_READS:
                raise ScreenStoppedMakingSense(f"the board changed between its read and the clicks "
                                               f"{MAX_STALE_READS} times in a row: something covers or moves it")
            return []
        self._stale = 0
        if self.recorder:
            with report.time.measure("record", self.clock):
                self.recorder.step(frame, view, analysis, cells, button)
        report.moves += 1
        if self.settings.dry_run or self.mouse is None:
            return cells
        with report.time.measure("click", self.clock):
            self.watcher.click([view.centre(cell) for cell in cells], button, view.bbox)
        return cells

    def await_answer(self, view: BoardView, before: np.ndarray, clicked: list[tuple[int, int]]) -> None:
        """Wait until the client has answered the clicks: the board region differs from ``before`` and holds
        still, or the time runs out (see :meth:`Watcher.answer`: an answer that changed every clicked cell, its
        bevel included, is complete after one repaint of the client; otherwise it needs the longer quiet)."""
        region = view.bbox
        old = before[region.y:region.bottom, region.x:region.right]
        self.watcher.answer(region, old, self.settings.waits, [_cell_rect(view, cell) for cell in clicked])

    # -- helpers -----------------------------------------------------------------------------------
    def _unchanged(self, frame: np.ndarray, bbox: Rect, report: GameReport) -> bool:
        """Whether the board region on screen is still what ``frame`` showed when it was read."""
        x, y, w, h = bbox.x, bbox.y, bbox.w, bbox.h
        with report.time.measure("capture", self.clock):
            now = self.watcher.grab(bbox)
        return same_frame(now, frame[y:y + h, x:x + w])


def _cell_rect(view: BoardView, cell: tuple[int, int]) -> Rect:
    """A cell with its edges (the 3D bevel that tells a covered tile from an open empty one) on screen."""
    r, c = cell
    left, top = round(view.x_edges[c]), round(view.y_edges[r])
    right, bottom = round(view.x_edges[c + 1]), round(view.y_edges[r + 1])
    return Rect(left, top, max(1, right - left), max(1, bottom - top))
