"""How long to wait for a client's answer: the two ways of waiting (play's and calibration's), and the client's
pace learnt from its answers.

Every constant of a wait on the screen is here, once, with its reason. Play waits as briefly as the client
allows: a read that went wrong is caught by the next one (a revealed cell never changes back). Calibration
names tiles from the frames it waits for, and a tile named from a half-drawn frame reads wrong boards for
ever after: it waits longer, trusts the client's pace later and takes its longest pause, not a typical one.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Waits:
    """How a wait for the client's answer is judged.

    An answer is the region changing, then holding still. Until the client's pace is learnt, and for an answer
    not known to be complete (a click the client did not take, a client that repaints in pieces), the
    stillness that ends it is ``quiet``. Once ``learnt_after`` answers were seen, a complete answer ends after
    ``margin`` times the client's repaint time: the ``share`` quantile of the pauses seen inside its answers
    (and, with ``latency``, of its delays after a click), within ``least`` and ``most`` seconds. The first
    change is awaited ``timeout`` seconds, or four times the slowest first change seen, up to ``timeout_most``.
    The screen is grabbed every ``poll`` seconds. With ``flash_quiet``, a change over most of the region (a
    board that flashes at the end of a game) is waited out with that stillness."""

    quiet: float
    timeout: float
    poll: float
    learnt_after: int
    margin: float
    share: float
    least: float
    most: float
    latency: bool
    timeout_most: float
    flash_quiet: float | None = None


#: Play: 2 s for a first change (a busy machine), 30 ms of stillness for a client of unknown pace, grabs every
#: millisecond (an expert game's clicks are answered in a few); the pace trusted after 3 answers, 1.5 times the
#: 90th percentile of the client's delays and pauses (one odd pause, an end-of-game flash, is not its pace).
PLAY = Waits(quiet=0.03, timeout=2.0, poll=0.001, learnt_after=3, margin=1.5, share=0.9, least=0.003, most=0.5,
             latency=True, timeout_most=15.0)

#: Calibration: 1.5 s for a first change (a click that changes nothing ends a game, so the wait for one is
#: never stretched), 0.12 s of stillness until 8 answers were seen, then 3 times the longest pause inside one
#: (at least 25 ms); a change over most of the board (sgt-mines flashes it red at a death) waited out 0.6 s.
CALIBRATION = Waits(quiet=0.12, timeout=1.5, poll=0.01, learnt_after=8, margin=3.0, share=1.0, least=0.025,
                    most=0.12, latency=False, timeout_most=1.5, flash_quiet=0.6)

#: Answers the pace is learnt from (the latest ones: a client slows down on a loaded machine).
MEMORY = 50
#: How many times the slowest first change seen the wait for a first change allows.
SLOW_FACTOR = 4.0


class Pace:
    """How fast the client answers lately: its delay after a click, its first change after a wait began, and
    the longest pause inside each answer, over the last MEMORY answers."""

    def __init__(self) -> None:
        self.latencies: deque[float] = deque(maxlen=MEMORY)
        self.first_changes: deque[float] = deque(maxlen=MEMORY)
        self.pauses: deque[float] = deque(maxlen=MEMORY)

    def latency(self, seconds: float) -> None:
        """The client's first change was seen this long after the last click (an upper bound of its delay)."""
        self.latencies.append(seconds)

    def answered(self, first_change: float, longest_pause: float) -> None:
        """An answer that held still: its first change this long after the wait began, and the longest
        stillness between two of its changes."""
        self.first_changes.append(first_change)
        self.pauses.append(longest_pause)

    def repaint(self, waits: Waits) -> float | None:
        """The stillness that ends a complete answer (see :class:`Waits`); None until the pace is learnt."""
        if len(self.pauses) < waits.learnt_after or (waits.latency and len(self.latencies) < waits.learnt_after):
            return None
        basis = quantile(self.pauses, waits.share)
        if waits.latency:
            basis = max(basis, quantile(self.latencies, waits.share))
        return min(max(waits.least, waits.margin * basis), waits.most)

    def quiet(self, waits: Waits) -> float:
        """The stillness that ends an answer not known to be complete: ``quiet``, or longer for a client seen
        to pause inside its answers."""
        return min(max(waits.quiet, waits.margin * quantile(self.pauses, waits.share)), max(waits.quiet, waits.most))

    def stillness(self, waits: Waits) -> float:
        """The stillness that ends an answer judged complete by other means: the repaint time once learnt."""
        repaint = self.repaint(waits)
        return waits.quiet if repaint is None else repaint

    def timeout(self, waits: Waits) -> float:
        """How long to wait for a first change."""
        slowest = max(self.first_changes, default=0.0)
        return min(max(waits.timeout, SLOW_FACTOR * slowest), waits.timeout_most)


def quantile(values: deque[float], share: float) -> float:
    """The value ``share`` of the way up the sorted values (0: none seen)."""
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else 0.0
