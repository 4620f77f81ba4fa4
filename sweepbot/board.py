"""The Board: a grid of cell states plus what is known of the game, and its text format.

One character per cell, rows top to bottom (see docs/formats.md):

    #  covered          F  flag            ?  question mark
    .  revealed 0       1-8 revealed number
    *  mine at game end !  exploded mine   X  wrong flag at game end

A board file may start with ``key: value`` header lines (``mines``, ``state``, ``client``, ...), then a
blank line. Lines starting with ``;`` are comments. Coordinates are ``(row, col)`` from the top-left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from sweepbot.errors import SweepbotError

#: How a game treats the first click: ``opening`` (it and its neighbours are never mines), ``safe`` (it is
#: never a mine, as in the classic Windows game), ``none``.
FIRST_CLICK_RULES = ("opening", "safe", "none")

COVERED = "#"
FLAG = "F"
QUESTION = "?"
ZERO = "."
MINE = "*"
EXPLODED = "!"
WRONG_FLAG = "X"
NUMBERS = "12345678"
#: An open cell whose number was not read (a look a calibrated profile has not learnt yet): not a mine,
#: no constraint. Only a reader makes it; it is learnt when the game ends.
OPENED = "="

CELL_CHARS = frozenset(COVERED + FLAG + QUESTION + ZERO + NUMBERS + MINE + EXPLODED + WRONG_FLAG + OPENED)
#: Cells that may still hide a mine the player has not proved: covered and question marks.
UNKNOWN_CHARS = frozenset(COVERED + QUESTION)
#: Cells showing a revealed count (0 included).
REVEALED_CHARS = frozenset(ZERO + NUMBERS)

STATES = ("playing", "won", "lost")

_HEADER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")

Cell = tuple[int, int]


class BoardError(SweepbotError, ValueError):
    """Malformed board text or an impossible board; names the line and column where it can."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {col}" if col is not None else "") + ": "
        super().__init__(where + message)
        self.line = line
        self.col = col


def count_value(ch: str) -> int | None:
    """The number a revealed cell shows (0-8), or None for any other cell."""
    if ch == ZERO:
        return 0
    if ch in NUMBERS:
        return int(ch)
    return None


@dataclass(frozen=True)
class Board:
    """A rectangular grid of cell characters, with the game's total mines and state when known."""

    grid: tuple[str, ...]
    mines: int | None = None
    state: str | None = None
    headers: dict[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.grid or not self.grid[0]:
            raise BoardError("the board has no cells")
        width = len(self.grid[0])
        for r, row in enumerate(self.grid):
            if len(row) != width:
                raise BoardError(f"row {r} has {len(row)} cells, expected {width}")
        if not CELL_CHARS.issuperset("".join(self.grid)):
            for r, row in enumerate(self.grid):
                for c, ch in enumerate(row):
                    if ch not in CELL_CHARS:
                        raise BoardError(f"unknown cell character {ch!r} at ({r}, {c})")
        if self.state is not None and self.state not in STATES:
            raise BoardError(f"state must be one of {', '.join(STATES)}, not {self.state!r}")
        if self.mines is not None and not 0 <= self.mines <= self.rows * self.cols:
            raise BoardError(f"mines must be between 0 and {self.rows * self.cols}, not {self.mines}")

    # -- shape and access -------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    @property
    def size(self) -> int:
        return len(self.grid) * len(self.grid[0])

    def __getitem__(self, cell: Cell) -> str:
        r, c = cell
        return self.grid[r][c]

    def cells(self) -> Iterator[Cell]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        return neighbours(cell, self.rows, self.cols)

    def count(self, chars: str | frozenset[str]) -> int:
        """How many cells show one of ``chars`` (single characters)."""
        return sum(row.count(ch) for ch in set(chars) for row in self.grid)

    @property
    def flags(self) -> int:
        return self.count(FLAG)

    @property
    def mines_left(self) -> int | None:
        """Total mines less flags, as a game's counter shows it."""
        return None if self.mines is None else self.mines - self.flags

    def with_mines(self, mines: int | None) -> Board:
        return Board(self.grid, mines, self.state, dict(self.headers))

    def replace(self, changes: dict[Cell, str]) -> Board:
        """A copy with some cells changed."""
        rows = [list(row) for row in self.grid]
        for (r, c), ch in changes.items():
            rows[r][c] = ch
        return Board(tuple("".join(row) for row in rows), self.mines, self.state, dict(self.headers))

    # -- text format ------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Board:
        return parse_board(text)

    def to_text(self, header: bool = True) -> str:
        lines: list[str] = []
        if header:
            fields: dict[str, str] = dict(self.headers)
            if self.mines is not None:
                fields["mines"] = str(self.mines)
            if self.state is not None:
                fields["state"] = self.state
            lines += [f"{k}: {v}" for k, v in fields.items()]
            if lines:
                lines.append("")
        lines += list(self.grid)
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text(header=False)


def game_over(board: Board) -> str | None:
    """``won`` or ``lost`` when the board itself shows it (or says so), else None: the one rule for when a
    game is over, for the reader, the game loop and calibration."""
    if board.state in ("won", "lost"):
        return board.state
    if board.count("!*X"):
        return "lost"
    if board.count("#?") == 0:
        return "won"  # nothing left covered: every mine is flagged (some clients flag them all on a win)
    if board.mines is not None and board.count("#?F") == board.mines and board.count("#?F") > 0:
        return "won"
    return None


def neighbours(cell: Cell, rows: int, cols: int) -> Iterator[Cell]:
    """The up to eight cells around ``cell`` inside a rows x cols grid."""
    r, c = cell
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    yield (rr, cc)


def holds_no_mine(grid: Sequence[str]) -> bool:
    """Whether no cell of the grid can hold a mine (every cell opened): no game shows such a board, as every
    game has mines, which stay covered, flagged or shown."""
    return all(ch in REVEALED_CHARS or ch == OPENED for row in grid for ch in row)


def unheld_numbers(grid: Sequence[str]) -> list[Cell]:
    """The numbers with fewer cells around them that may hold a mine (any cell not revealed) than they count:
    no game shows one, so a board that has one was read wrongly."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    return [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] in NUMBERS
            and sum(grid[rr][cc] not in REVEALED_CHARS and grid[rr][cc] != OPENED
                    for rr, cc in neighbours((r, c), rows, cols)) < int(grid[r][c])]


def parse_board(text: str) -> Board:
    """Parse the board text format; every error names its line (and column where it has one)."""
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    grid: list[str] = []
    grid_lines: list[int] = []
    in_grid = False
    ended_at: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith(";"):
            continue
        if not line.strip():
            if in_grid and ended_at is None:
                ended_at = number
            continue
        if not in_grid:
            match = _HEADER_RE.match(line)
            if match:
                headers[match.group(1).lower()] = match.group(2)
                header_lines[match.group(1).lower()] = number
                continue
            in_grid = True
        if ended_at is not None:
            raise BoardError("blank line inside the board", ended_at)
        line = line.strip()
        for col, ch in enumerate(line, start=1):
            if ch not in CELL_CHARS:
                raise BoardError(f"unknown cell character {ch!r}", number, col)
        if grid and len(line) != len(grid[0]):
            raise BoardError(
                f"row has {len(line)} cells but the first row has {len(grid[0])}", number, len(line)
            )
        grid.append(line)
        grid_lines.append(number)
    if not grid:
        raise BoardError("no board rows found")

    rows, cols = len(grid), len(grid[0])
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            value = count_value(ch)
            if value:
                around = sum(1 for _ in neighbours((r, c), rows, cols))
                if value > around:
                    raise BoardError(
                        f"number {value} is larger than its {around} neighbours", grid_lines[r], c + 1
                    )

    mines: int | None = None
    if "mines" in headers:
        value_text = headers.pop("mines")
        if not re.fullmatch(r"\d+", value_text):
            raise BoardError(
                f"header 'mines' must be a whole number, not {value_text!r}", header_lines["mines"]
            )
        mines = int(value_text)
    state = headers.pop("state", None)
    if state is not None and state not in STATES:
        raise BoardError(f"header 'state' must be one of {', '.join(STATES)}", header_lines["state"])
    if mines is not None and mines > rows * cols:
        raise BoardError(f"header 'mines' is {mines} but the board has {rows * cols} cells",
                         header_lines["mines"])
    return Board(tuple(grid), mines, state, headers)
