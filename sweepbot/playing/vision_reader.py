"""The loop's reader on top of vision: find the board once, re-read it each frame, find it again if it moved."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sweepbot.board import OPENED, game_over
from sweepbot.errors import SweepbotError
from sweepbot.playing.view import BoardView
from sweepbot.rect import Rect
from sweepbot.solver import Analysis
from sweepbot.vision import Geometry, Profile, Reading, read_located, read_screenshot
from sweepbot.vision.fit import resizes
from sweepbot.vision.frames import same_frame
from sweepbot.vision.in_use import InUse
from sweepbot.vision.learn import (
    board_chars,
    count_chars,
    final_counts,
    learn_opened,
    learn_proved,
    lined_up_looks,
    not_kept,
    with_templates,
)
from sweepbot.vision.opened import learning, reads_unknown
from sweepbot.vision.profile import available_profiles, built_in_digest, select_profiles, user_profiles_dir
from sweepbot.vision.read import Seen, opened_cells, reading_area
from sweepbot.vision.refusal import ReadError


@dataclass(frozen=True, eq=False)
class Held:
    """What a read of a frame depends on besides its pixels: the board's place, the profile and what the last
    read saw (compared by identity: they are replaced, never changed), the sizes of board found, the open
    cells of unknown number last read, the profile asked for, and whether the frame is whole."""

    whole: bool
    geometry: Geometry | None
    profile: Profile | None
    seen: Seen | None
    size: tuple[int, int] | None
    new_size: tuple[int, int] | None
    unknown: int
    profile_name: str | None

    def same(self, other: Held) -> bool:
        return (self.profile is other.profile and self.seen is other.seen and (
            self.whole, self.geometry, self.size, self.new_size, self.unknown, self.profile_name) == (
            other.whole, other.geometry, other.size, other.new_size, other.unknown, other.profile_name))


@dataclass(frozen=True, eq=False)
class Failed:
    """A frame the reader could not read, what it held when it tried, and why: a read depends on the two
    alone, so the same frame read with the same held fails the same way."""

    frame: np.ndarray
    held: Held
    error: SweepbotError
    relocations: int  # how many times the board was located afresh on the way


class VisionReader:
    """Reads frames with the geometry and profile found on the first one, classifying again only the cells
    whose pixels changed since the last read. When a whole frame no longer reads at the old place (the window
    moved), the board is located afresh; a frame current only in :meth:`area` is never used for that. A
    client whose cells change size in play (``vision.fit.resizes``) has its board located on every frame.
    Only a board read in full is returned."""

    def __init__(self, profile: str | None = None) -> None:
        self.profile_name = profile
        self.geometry: Geometry | None = None
        self.profile: Profile | None = None
        self.relocations = 0
        self.size: tuple[int, int] | None = None  # the size of the board last found
        self.new_size: tuple[int, int] | None = None  # another size found once, not yet confirmed
        self.learnt: list[str] = []  # characters learnt in play (a calibrated profile, or a built-in one lacking them)
        #: what the last read at ``geometry`` with ``profile`` saw: a new frame is classified only where it
        #: changed (a board that moved or a profile that learnt a look is read in full)
        self.seen: Seen | None = None
        self.unknown = 0  # open cells of unknown number in the last reading
        #: the last frame that did not read (a toast or a dialog waited out is captured again and again)
        self.failed: Failed | None = None

    def read(self, frame: np.ndarray) -> BoardView:
        return to_view(self.read_vision(frame))

    def area(self) -> Rect | None:
        """The part of the frame the next read looks at when the board is where it was last read: the board
        and its counter (see ``vision.read.reading_area``); None before a board is found."""
        if self.geometry is None or self.profile is None or resizes(self.profile):
            return None
        return reading_area(self.geometry, self.profile)

    def read_in_area(self, frame: np.ndarray) -> BoardView:
        """Read a frame that is current only in :meth:`area`: the board where it was last read, never
        located afresh on such a frame (ReadError when it is not there)."""
        return to_view(self.read_vision(frame, whole=False))

    def read_at(self, frame: np.ndarray, xs: tuple[int, ...], ys: tuple[int, ...]) -> BoardView:
        """Read ``frame`` where a recorded step says the board was read (``xs``, ``ys``: its cell edges), as
        play read it there; found afresh when it does not read there."""
        profile = self.profile
        if profile is None and self.profile_name is not None:
            profile = select_profiles(self.profile_name, available_profiles())[0]
        if profile is not None:
            geometry = Geometry(xs, ys)
            # where play read it, lined up already: not lined up again (no board has more unknown cells).
            # What the last step's read saw is kept: a read with it looks again only where the pixels changed,
            # and gives what a read afresh gives (it is not used at another place or with another profile)
            self.geometry, self.profile = geometry, profile
            self.unknown = geometry.rows * geometry.cols
        return self.read(frame)

    def relocate(self) -> None:
        self.geometry = None
        self.seen = None

    def learn(self, frame: np.ndarray, view: BoardView, analysis: Analysis) -> None:
        """Name the open cells of unknown number that the board read last (``view``, from ``frame``) proves,
        with the solver's ``analysis`` of it (``vision.learn.learn_proved``): the next frames read them, and
        every cell drawn as they are, as their numbers."""
        if self.geometry is None or self.profile is None or not reads_unknown(self.profile) \
                or OPENED not in "".join(view.board.grid) or (self.geometry.rows, self.geometry.cols) != (
                    view.board.rows, view.board.cols):
            return
        profile, board = self.profile, view.board
        new, grid = lined_up_looks(frame, self.geometry, profile, lambda at: not_kept(profile, learn_proved(
            frame, at, profile, board, set(analysis.mines), set(analysis.safe))))
        if grid != self.geometry:
            # the board's place on this frame, where the looks were cut
            self.geometry, self.seen = grid, None
        if new:
            self.profile = with_templates(in_the_store(profile), new)
            self.learnt += [ch for ch, _ in new]
            self.seen = None

    def read_vision(self, frame: np.ndarray, whole: bool = True) -> Reading:
        held = Held(whole, self.geometry, self.profile, self.seen, self.size, self.new_size, self.unknown,
                    self.profile_name)
        failed = self.failed
        if failed is not None and failed.held.same(held) and same_frame(failed.frame, frame):
            # the frame that did not read, nothing changed since: it fails again the same way (not read afresh
            # with every profile each time a toast or a dialog over the board is waited out)
            self.relocations += failed.relocations
            raise failed.error
        relocations = self.relocations
        try:
            reading = self._read_vision(frame, whole)
        except SweepbotError as error:
            self.failed = Failed(frame.copy(), held, error, self.relocations - relocations)
            raise
        self.failed = None
        return reading

    def _read_vision(self, frame: np.ndarray, whole: bool) -> Reading:
        reading = self._read(frame, whole)
        over = game_over(reading.board)
        counts = final_counts(reading.board, won=over == "won") if over and reads_unknown(reading.profile) \
            and OPENED in "".join(reading.board.grid) else None
        if counts is not None:
            new, _ = lined_up_looks(frame, reading.geometry, reading.profile, lambda at: learn_opened(
                frame, at, reading.profile, reading.board, counts))
            if new:
                self.profile = with_templates(in_the_store(reading.profile), new)
                self.learnt += [ch for ch, _ in new]
                reading = named_as_proved(reading, counts, self.profile)
        if over:
            # the next game's board is found afresh: a dialog over this one (gnome-mines's high scores) may
            # have left only part of it in sight, and that part must not stand for the next board
            self.geometry = None
        return reading

    def _read(self, frame: np.ndarray, whole: bool = True) -> Reading:
        if not whole and (self.geometry is None or self.profile is None):
            raise ReadError("no board found yet to read in part of the screen")
        here: SweepbotError | None = None  # the error of the read where the board was
        if self.geometry is not None and self.profile is not None and not resizes(self.profile):
            try:
                # a board read with more open cells of unknown number than the frame before is lined up again
                reading = read_located(frame, self.geometry, self.profile, opened_unknown=reads_unknown(self.profile),
                                       last=self.seen, unknown_before=self.unknown)
                self.geometry, self.profile = reading.geometry, reading.profile
                self.seen, self.unknown = reading.seen, opened_cells(reading.scores)
                return reading
            except SweepbotError as error:
                if not whole:
                    raise
                here = error
                self.relocations += 1
        try:
            reading = self._find(frame)
        except SweepbotError as error:
            raise self._nearer(here, error) from error
        size = (reading.geometry.rows, reading.geometry.cols)
        if self.size is not None and size != self.size and size != self.new_size:
            # a board of another size than the last one read: part of it hidden (gnome-mines's high-score
            # dialog left 9 of 30 columns in sight) or a real change; only a second frame in a row decides
            self.new_size = size
            raise ReadError(f"the board seems to have changed from {self.size[0]}x{self.size[1]} to "
                            f"{size[0]}x{size[1]} cells: to be read again")
        self.new_size = None
        self.size = size
        self.geometry, self.profile = reading.geometry, reading.profile
        self.seen, self.unknown = reading.seen, opened_cells(reading.scores)
        return reading

    def _nearer(self, here: SweepbotError | None, found: SweepbotError) -> SweepbotError:
        """Of a frame that read neither where the board was (``here``) nor found afresh (``found``), the error
        that comes nearer the board: the read where it was, when that is the board but for a few cells under
        something (:meth:`mostly_read_here`) and the board found afresh leaves more unread (lined up anew on a
        board whose cells are partly hidden, a grid may come a pixel off). The loop judges the game from the
        board read but for those cells (``playing.consistency``: a client that marks its mines at a win in a
        look play never saw)."""
        if here is None or not self.mostly_read_here(here):
            return found
        part = found.board_but_unread if isinstance(found, ReadError) else None
        ours = here.board_but_unread if isinstance(here, ReadError) else None
        if part is not None and ours is not None and part.unread <= ours.unread:
            return found
        return here

    def mostly_read_here(self, error: SweepbotError) -> bool:
        """Whether ``error`` is the profile in use reading the board where the reader had it, but for some of its
        cells under something (``vision.in_use.InUse.mostly_read``)."""
        return self.profile is not None and InUse(self.profile, self.geometry).mostly_read(error)

    def _find(self, frame: np.ndarray) -> Reading:
        """Locate the board afresh, the profile in use ranked first (what it learnt in play is kept across games
        and moves; beside its client's other sizes where it leaves cells unknown), else with any that fits
        (``vision.in_use``)."""
        in_use = None if self.profile is None else InUse(self.profile, self.geometry)
        return read_screenshot(frame, profile=self.profile_name, opened_unknown=True, in_use=in_use)


def in_the_store(profile: Profile) -> Profile:
    """The profile that learns in play: ``profile`` itself when it is the user's, else (a built-in one lacking
    numbers) a copy of it in the user's profile store under the same name, which wins over the built-in from
    then on (while the built-in stays as it was copied: ``vision.profile.renewed``); the package's own folder is
    never written."""
    if learning(profile):
        return profile
    return replace(profile, folder=user_profiles_dir() / profile.name, built_in=built_in_digest([profile]))


def named_as_proved(reading: Reading, counts: np.ndarray, profile: Profile) -> Reading:
    """A final reading with its open cells of unknown number named by the mines its board shows around them
    (``counts``, ``vision.learn.final_counts``), and the ``profile`` that learnt their looks from them: what
    that profile reads in those cells, each matching the look cut from it pixel for pixel."""
    named = count_chars(counts)
    chars = np.where(reading.scores.chars == OPENED, named, reading.scores.chars)
    grid = board_chars(reading.board)
    board = replace(reading.board, grid=tuple("".join(row) for row in np.where(grid == OPENED, named, grid)))
    return replace(reading, board=board, profile=profile, scores=replace(reading.scores, chars=chars), seen=None)


def to_view(reading: Reading) -> BoardView:
    geometry = reading.geometry
    return BoardView(reading.board, tuple(float(x) for x in geometry.xs), tuple(float(y) for y in geometry.ys),
                     reading.profile.client, reading.exact)
