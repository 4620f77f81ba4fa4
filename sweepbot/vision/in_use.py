"""The profile a board was read with on the frames before, ranked first when the board is located afresh
(:class:`InUse`): what it learnt in play is kept across games and moves, and a read with every profile takes
several times as long (``benchmarks/unread_frame.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from sweepbot.errors import SweepbotError
from sweepbot.vision import limits
from sweepbot.vision.fit import made_at
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile, available_profiles
from sweepbot.vision.refusal import ReadError


@dataclass(frozen=True, eq=False)
class InUse:
    """The profile in use, and where it read the board last (None: the board's place is not known now, as
    after a game's end)."""

    profile: Profile
    geometry: Geometry | None = None

    def kin(self) -> list[Profile]:
        """The other sizes of the profile's client: fitted beside it where it was not made at the board's cell
        size (drawn there from another is not made there) and leaves cells open cells of unknown number, or
        refused (``vision.board_fit.with_kin``)."""
        return [p for p in available_profiles() if p.client == self.profile.client and p.name != self.profile.name]

    def mostly_read(self, error: SweepbotError) -> bool:
        """Whether ``error`` is this profile reading the board where it was, but for some of its cells (at most
        the table's ``mostly_unread`` share): a board of its client, where it was, with something laid over
        those cells (a toast, a dialog), which no other client's looks read. A profile not made at the board's
        cell size (read as it is a pixel off) is no such sign: a new board of covered tiles alone, which it
        read, shows nothing of its cells' other looks, and where it refuses the cells opened since, the
        client's other sizes may read them."""
        part = error.board_but_unread if isinstance(error, ReadError) else None
        if part is None or self.geometry is None or not made_at(self.profile, self.geometry.pitch):
            return False
        cells = len(part.grid) * len(part.grid[0])
        return part.lies_at(self.geometry.xs, self.geometry.ys) and part.unread <= limits.LIMITS.mostly_unread * cells

    def told_beside(self, first: SweepbotError, error: SweepbotError) -> SweepbotError:
        """The error of a board that neither this profile (``first``) nor any other (``error``) read: both
        reasons where they differ, with the cells refused by the others and the board as this profile read it
        but for its refused cells (before any other's)."""
        if str(first) == str(error):
            return error
        cells, crops = (error.cells, error.crops) if isinstance(error, ReadError) else ([], None)
        part_read = next((e.board_but_unread for e in (first, error)
                          if isinstance(e, ReadError) and e.board_but_unread), None)
        return ReadError(f"{error}; with the profile in use ({self.profile.name}): {first}", cells, crops, part_read)
