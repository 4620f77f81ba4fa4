"""How much work a solve may do, counted in steps of its searches, not in seconds: the same board gets the same
move on any machine, however busy, and a benchmark run with a seed repeats exactly.

A unit of work is about a microsecond of this project's reference machine (a 2-core x86-64 VM running
CPython 3.11): each kind of step is charged what it costs there (``benchmarks/solver_work.py`` measures
them). A search is handed a :class:`Budget`; it charges its steps as it goes and stops with
:class:`BudgetExceeded` once the budget is spent. A part of a budget charges the whole too.
"""

from __future__ import annotations

import math

#: Units charged per step of each search (about a microsecond each on the reference machine).
#: A node of the exact count of one frontier component (enumeration.py)
ENUMERATION_NODE = 2.6
#: A step of listing every layout of the mines left (endgame.py)
LAYOUT_STEP = 1.2
#: A node of the endgame's game-tree search, for each candidate cell it weighs there
SEARCH_NODE_CELL = 0.55
#: A cell's splits of the layouts, per layout (numpy, endgame.py)
SPLIT_LAYOUT = 0.1
#: One board analysed afresh (the constraints built, the deductions made), on top of its count's nodes
ANALYSIS = 700.0


class BudgetExceeded(Exception):
    """The work allowed ran out before the search finished."""


class Budget:
    """Units of work left (``math.inf``: no limit); a part of another budget charges that one too."""

    def __init__(self, units: float | None = None, whole: Budget | None = None) -> None:
        self.left = math.inf if units is None else float(units)
        self.whole = whole
        self.spent = 0.0

    def spend(self, units: float) -> None:
        """Charge ``units``; BudgetExceeded once this budget, or the whole it is part of, is spent."""
        self.left -= units
        self.spent += units
        if self.whole is not None:
            self.whole.spend(units)
        if self.left < 0:
            raise BudgetExceeded

    def tally(self, units: float) -> None:
        """Charge ``units`` that were spent whatever the budget said (a step that cannot stop halfway)."""
        self.left -= units
        self.spent += units
        if self.whole is not None:
            self.whole.tally(units)

    def part(self, limit: float, share: float = 1.0) -> Budget:
        """A budget of at most ``limit`` units and ``share`` of what is left here."""
        return Budget(max(0.0, min(limit, self.left * share)), whole=self)

    @property
    def exhausted(self) -> bool:
        return self.left <= 0


def unlimited() -> Budget:
    return Budget()
