"""A drawn Minesweeper client for calibration tests: the simulated game painted as real-looking tiles
(bevelled covered tiles, flat open ones with coloured digits, mines, flags), clicked through the same
input interface as a real client. F2 starts a new game. No display needed."""

from __future__ import annotations

import cv2
import numpy as np

from sweepbot.clock import Clock, FakeClock
from sweepbot.control.keys import GAME_DIALOG, GAME_WINDOW
from sweepbot.game import Game, parse_level
from sweepbot.rect import Rect

TILE = 18
ORIGIN = (60, 90)
#: Where a chessboard beside the board starts (``TileClient``'s ``chessboard``), and its squares' colours.
CHESS_ORIGIN = (330, 90)
CHESS_LIGHT, CHESS_DARK = (181, 217, 240), (99, 136, 181)
SCREEN = (640, 480)
DIGIT_COLOURS = {"1": (200, 0, 0), "2": (0, 130, 0), "3": (0, 0, 210), "4": (120, 0, 0), "5": (0, 0, 120),
                 "6": (120, 120, 0), "7": (0, 0, 0), "8": (90, 90, 90)}
#: Every digit's colour, with ``one_colour``; a 0's colour, with ``zero``.
ONE_COLOUR = (250, 250, 250)
ZERO_COLOUR = (110, 110, 110)


def mark(t: np.ndarray, ch: str) -> None:
    """A flag or a question mark drawn on a covered tile."""
    if ch == "F":
        cv2.rectangle(t, (6, 4), (12, 9), (0, 0, 230), -1)
        cv2.line(t, (6, 4), (6, 14), (0, 0, 0), 1)
    else:
        cv2.putText(t, "?", (5, 14), cv2.FONT_HERSHEY_PLAIN, 0.9, (0, 0, 0), 1)


def tile(ch: str, thin: bool = False, zero: bool = False, one_colour: bool = False) -> np.ndarray:
    """A cell's look; on raised tiles (not ``thin``), ``zero``: an empty open cell shows a 0, ``one_colour``:
    every digit drawn in one colour."""
    t = np.full((TILE, TILE, 3), 192, np.uint8)
    if thin:
        # every cell on one grey, a grid line along its top and left; a covered tile is told apart only by a
        # light line of a pixel inside it, along its top and left, and a dark one along its bottom and right
        t[0, :] = t[:, 0] = 211
        if ch in "#F?":
            t[1, 1:] = t[1:, 1] = 240
            t[-1, 1:] = t[1:, -1] = 123
        if ch in "F?":
            mark(t, ch)
        elif ch in DIGIT_COLOURS:
            cv2.putText(t, ch, (5, 14), cv2.FONT_HERSHEY_PLAIN, 0.9, DIGIT_COLOURS[ch], 2)
        elif ch in "*!X":
            cv2.circle(t, (9, 9), 5, (0, 0, 0), -1)
            if ch == "!":
                t[4:6, 4:6] = (0, 0, 255)
        return t
    if ch in "#F?":
        t[:2, :] = t[:, :2] = 255
        t[-2:, :] = t[:, -2:] = 120
        if ch in "F?":
            mark(t, ch)
        return t
    t[:, :] = (170, 170, 170)
    t[0, :] = t[:, 0] = 128
    if ch in DIGIT_COLOURS or (zero and ch == "."):
        colour = ONE_COLOUR if one_colour else DIGIT_COLOURS.get(ch, ZERO_COLOUR)
        cv2.putText(t, "0" if ch == "." else ch, (5, 14), cv2.FONT_HERSHEY_PLAIN, 0.9, colour, 2)
    elif ch in "*!X":
        if ch == "!":
            t[1:, 1:] = (0, 0, 255)
        cv2.circle(t, (9, 9), 5, (0, 0, 0), -1)
        if ch == "X":
            cv2.line(t, (3, 3), (15, 15), (0, 0, 255), 2)
    return t


#: With ``button=True``: a "menu" button that does nothing, and below it the button that starts a new game
MENU_BUTTON = Rect(ORIGIN[0], ORIGIN[1] - 76, 64, 26)
NEW_GAME_BUTTON = Rect(ORIGIN[0], ORIGIN[1] - 40, 90, 28)
#: With ``panel``: a panel drawn in the window over the board once a game ended, its button the only way to a
#: new game (a web page's level chooser)
PANEL_BOX = Rect(ORIGIN[0] + 10, ORIGIN[1] + 40, 150, 50)
PANEL_BUTTON = Rect(PANEL_BOX.x + 30, PANEL_BOX.y + 11, 90, 28)
#: With ``menu``: the panel's second button, a game of another level
OTHER_LEVEL_BUTTON = Rect(PANEL_BUTTON.x, PANEL_BUTTON.bottom + 12, 90, 28)
#: With ``shrinks``: the window once shrunk, its buttons above where the board was and a bare part over the
#: board's top left corner (a Tk window's level menu)
SHRUNK = Rect(0, 0, ORIGIN[0] + 6 * TILE, ORIGIN[1] + 3 * TILE)
#: ... the band of its buttons
BAND_BOTTOM = ORIGIN[1] - 6
#: With ``title``: the window manager's title bar above the client's window, and the copy of a button in it
TITLE_BAR = Rect(0, 0, SCREEN[0], 36)
TITLE_COPY = Rect(200, 4, 90, 28)
#: With ``link=True``: the only way to a new game, a line of text above the board (no button, no key)
NEW_GAME_LINK = Rect(ORIGIN[0] + 100, ORIGIN[1] - 40, 90, 16)


#: A toast's colour: nothing else on screen has it.
TOAST_BGR = (40, 200, 40)


def toast_box(rows: int) -> Rect:
    """Where the toast shows: over the bottom edge of the board, and below it, as a web page's "You lost!"."""
    bottom = ORIGIN[1] + rows * TILE
    return Rect(ORIGIN[0] + 2 * TILE, bottom - TILE // 2, 4 * TILE, TILE + 4)


#: How much lighter a row of open tiles is than the row below it, with ``shaded``.
SHADE_STEP = 4


#: How much lighter than an open empty cell a covered tile under the pointer is drawn, with ``lit``.
LIT_STEP = 12


#: A note's colour: nothing else on screen has it.
NOTE_BGR = (235, 235, 250)


#: A dialog's colour: nothing else on screen has it.
DIALOG_BGR = (60, 60, 200)

#: A context menu's colour and size: nothing else on screen has the colour.
MENU_BGR = (250, 245, 240)
MENU_SIZE = (120, 70)


def inner_box(rows: int, cols: int) -> Rect:
    """Where a dialog shows: over cells in the middle of the board, away from its edges."""
    return Rect(ORIGIN[0] + TILE + TILE // 2, ORIGIN[1] + (rows // 2 - 1) * TILE + 5, (cols - 3) * TILE, TILE + 8)


def scores_box(rows: int, cols: int) -> Rect:
    """Where a scores dialog shows: over most of the board, past its top and right edges, clear of the button."""
    return Rect(ORIGIN[0] + 100, ORIGIN[1] - 12, cols * TILE - 60, rows * TILE // 2 + 12)


def draw_button(canvas: np.ndarray, box: Rect, label: str) -> None:
    cv2.rectangle(canvas, (box.x, box.y), (box.right - 1, box.bottom - 1), (210, 210, 210), -1)
    cv2.rectangle(canvas, (box.x, box.y), (box.right - 1, box.bottom - 1), (40, 40, 40), 1)
    cv2.putText(canvas, label, (box.x + 8, box.bottom - 8), cv2.FONT_HERSHEY_PLAIN, 1.0, (0, 0, 0), 1)


class TileClient:
    """Screen and input device at once: ``grab`` paints the game, ``click``/``press`` play it. F2 starts a new
    game, or with ``button`` (and no key) the "New" button above the board."""

    def __init__(self, level: str = "9x9/10", seed: int = 1, first_click: str = "none", button: bool = False,
                 toast: float = 0.0, focus_ring: bool = False, reveal_all: bool = False, widen: int = 0,
                 drop_every: int = 0, mines_at_win: bool = False, spread_past_flags: bool = False,
                 flags_to_win: bool = False, dialog: bool = False, flags_at_win: bool = False,
                 win_dialog: bool = False, note: float = 0.0, context_menu: bool = False,
                 thin_bevel: bool = False, zero: bool = False, one_colour: bool = False, last_stays: bool = False,
                 shaded: bool = False, shrink: int = 0, trade: int = 0, lit: bool = False, slow_win: float = 0.0,
                 ends_at_game: int = 0, ends_at_win: bool = False, link: bool = False, hold: float = 0.0,
                 slow_button: float = 0.0, late_scores: bool = False, late_button: float = 0.0,
                 quits_on_escape: bool = False, misses_a_key: bool = False, tells_focus: bool = False,
                 panel: float = 0.0, win_dialog_after: float = 0.0, shrinks: float = 0.0, menu: bool = False,
                 title: bool = False, chessboard: int = 0, opens_at_start: bool = False,
                 clock: Clock | None = None) -> None:
        #: the time its toasts, notes and slow answers go by (a fake clock unless one is given)
        self.clock: Clock = clock or FakeClock()
        self._drawn: tuple[object, np.ndarray] | None = None  # the last canvas drawn, and what it showed
        #: asked to start this game (counted from 1), the program ends instead: its window is gone, the screen
        #: black (0: never)
        self.ends_at_game = ends_at_game
        #: the click that wins a game ends the program instead (a client that crashes keeping its scores)
        self.ends_at_win = ends_at_win
        self.ended = False
        #: the covered tile under the pointer is drawn lighter, close to an open empty cell (gnome-mines)
        self.lit = lit
        #: the click that wins a game is answered this many seconds late, the tile under the pointer drawn lit
        #: till then, wherever the pointer went (gnome-mines, busy keeping its scores)
        self.slow_win = slow_win
        self.late: tuple[float, list[str], tuple[int, int]] | None = None
        #: open tiles drawn over a background that shows through them, lighter towards the board's top, by
        #: SHADE_STEP a row (kmines)
        self.shaded = shaded
        #: a row with no covered cell left in it is drawn this many pixels shorter, padding taken off above
        #: and below its digits (a web page's table row that shrinks to its text once no tile image is left)
        self.shrink = shrink
        #: a column with no covered cell left in it is drawn this many pixels narrower, and the pixels it gives
        #: up go to the columns that still hold one, a pixel each from the left (a web page's table of fixed
        #: width); a cell's padding beside its digit, or the middle of its tile image, takes the change
        self.trade = trade
        #: tiles drawn flat, a covered one told apart by a bevel of a pixel only (a web page's Windows 98 look)
        self.thin_bevel = thin_bevel
        #: an empty open cell shows a 0; every digit drawn in one colour
        self.zero = zero
        self.one_colour = one_colour
        #: a right-click puts no mark but opens a menu at the pointer, a window of its own that Escape or a
        #: left click closes, the click taken by the menu (a web page's context menu in a browser)
        self.context_menu = context_menu
        self.menu_at: tuple[int, int] | None = None
        #: seconds a note ("You have lost.") shows over the middle of the board once a game ends, drawn in
        #: the client's own window (kmines)
        self.note = note
        #: at a loss a modal dialog ("Reset the game?") opens over the middle of the board, a window of its
        #: own that takes every key and click until Escape closes it (kmines)
        self.dialog = dialog
        #: the same at a win (gnome-mines's scores)
        self.win_dialog = win_dialog
        #: with ``win_dialog``, the win's dialog is the scores dialog (see ``late_scores``), opening this many
        #: seconds after the game's end is drawn, the board left as it was till then (gnome-mines)
        self.win_dialog_after = win_dialog_after
        self.win_dialog_opened = False
        #: at a win a scores dialog opens only as the next click arrives, and takes it (gnome-mines, its dialog
        #: opening a moment late, over a click on its button): modal, over most of the board and past its top
        #: and right edges, its caret blinking twice a second, closed by Escape
        self.late_scores = late_scores
        self.scores_shown = False
        #: at a win the mines left covered are drawn flagged (gnome-mines, kmines)
        self.flags_at_win = flags_at_win
        self.winning_openings: list[int] = []  # for each game won by a click, the cells that click opened
        self.dialog_open = False
        #: a game is won once every safe cell is open and every mine flagged (DangerUXB): till then a click
        #: on a mine loses it
        self.flags_to_win = flags_to_win
        #: an opening spreads from every cell it opens with as many flags around as its number, right or
        #: wrong (DangerUXB): past a wrong flag it may reach a mine, which goes off away from the click
        self.spread_past_flags = spread_past_flags
        self.spread_losses = 0  # games lost that way
        #: at a win the mines left covered are shown as at a loss (mfranceschi-minesweeper)
        self.mines_at_win = mines_at_win
        #: every this many-th left click on a covered cell of a game in play is lost on its way (a busy
        #: client, a window manager that took it): never two in a row
        self.drop_every = drop_every
        self.dropped = 0  # clicks lost that way
        self._taken = 0
        #: at a loss every cell is shown: the mines and every number, wrong flags taken off (DangerUXB)
        self.reveal_all = reveal_all
        #: ... but for the last cell, drawn as it was (a cell whose window does not change, as a tile cut by
        #: the window's edge on a board of fractional pitch)
        self.last_stays = last_stays
        #: a column with a number in sight is drawn this many pixels wider, its tiles stretched in the middle
        #: (mfranceschi-minesweeper's Tk buttons)
        self.widen = widen
        self.button = button
        #: from the third game on, the button's new game shows this many seconds after the click, the board
        #: unchanged till then (a web page on a loaded machine)
        self.slow_button = slow_button
        self.new_game_at: float | None = None
        #: from the second game's end on, the button is drawn again only this many seconds after a game ended
        #: (a control redrawn late)
        self.late_button = late_button
        #: Escape pressed with nothing open ends the program (xdemineur)
        self.quits_on_escape = quits_on_escape
        #: the first F2 after a game other than the first two ended is lost (a client busy a moment after a game)
        self.misses_a_key = misses_a_key
        self.key_missed = False
        self.keys_missed = 0
        #: the device tells where keys go (as the X11 one does): the board's own window, or a dialog of the game
        self.tells_focus = tells_focus
        #: seconds after a game ends that a panel opens in the window over the board, its "New" button the only
        #: way to a new game; Escape closes it, and it opens again only at the next game's end
        self.panel = panel
        self.panel_closed = False
        self.panels_closed = 0  # how many times Escape closed it
        #: seconds after a game ends that the window shrinks to the band above the board (its buttons), the
        #: board's place left to the desktop until a new game (a Tk window that shows a level menu alone)
        self.shrinks = shrinks
        #: with ``panel``: the panel covers the whole board, a level menu with a second button that starts a
        #: game of another level (16x16, 40 mines) below the "New" one
        self.menu = menu
        #: a window manager's title bar above the window's client area, which shows a copy of the panel's "New"
        #: button (a title drawn in a like font and box), no control of the game
        self.title = title
        #: a chessboard of eight by eight squares of this many px to the right of the board, a grid of cells
        #: larger than the board (a chess site's page beside the game; 0: none)
        self.chessboard = chessboard
        #: each game opens an area by itself at its start, from the board's middle (xdemineur): on a board of
        #: few mines, most of it
        self.opens_at_start = opens_at_start
        self.opened_at_start: list[int] = []  # the cells each game opened by itself
        self.clicks_on_menu = 0  # clicks on it but on the "New" button
        self.clicks_off_window = 0  # clicks where no window was, on the desktop
        #: a new game only by a click on a line of text (a web page's link), which shows no button
        self.link = link
        #: a click is taken only with the button held this many seconds (a page that opens a cell on a long
        #: press); a quicker one moves the pointer only
        self.hold = hold
        self._held = 0.0
        #: a dotted ring drawn around the cell clicked last, as Tk draws a button's keyboard focus
        self.focus_ring = focus_ring
        self.focus: tuple[int, int] | None = None
        #: seconds a toast shows over the board's bottom edge once a game ends; it takes the clicks on it
        self.toast = toast
        self.ended_at: float | None = None
        self.button_label = "New"  # a test may change it (a smiley that looks otherwise after a loss)
        self.clicked: list[tuple[int, int]] = []  # every click, where it went
        self.level = parse_level(level)
        self.seed = seed
        self.first_click = first_click
        self.games: list[Game] = []
        self.new_game()
        self.pointer = (5, 5)
        self.marks: dict[tuple[int, int], str] = {}

    def new_game(self) -> None:
        if self.ended:
            return  # the program is gone
        if self.ends_at_game and len(self.games) + 1 == self.ends_at_game:
            self.ended = True
            return
        self.panel_closed = False
        self.game = Game(self.level, self.seed + len(self.games),
                         "opening" if self.opens_at_start else self.first_click)
        self.games.append(self.game)
        if self.opens_at_start:
            self.opened_at_start.append(len(self.game.open((self.game.rows // 2, self.game.cols // 2))))
        self.marks = {}
        self.ended_at = None
        self.focus = None
        self.key_missed = False
        self.dialog_open = False
        self.scores_shown = False
        self.win_dialog_opened = False
        self.late = None

    def truth(self, r: int, c: int) -> str:
        """What the cell holds: a mine, or the number of mines around it."""
        mines = self.game.mines
        if (r, c) in mines:
            return "*"
        n = sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        return str(n) if n else "."

    def toast_shown(self) -> bool:
        if self.ended_at is None and self.game.state != "playing":
            self.ended_at = self.clock.now()
            won = self.win_dialog and not self.win_dialog_after
            self.dialog_open = self.dialog if self.game.state == "lost" else won
        if (self.win_dialog and self.win_dialog_after and self.game.state == "won" and not self.win_dialog_opened
                and self.ended_at is not None and self.clock.now() - self.ended_at >= self.win_dialog_after):
            self.dialog_open = self.scores_shown = self.win_dialog_opened = True
        return self.ended_at is not None and self.clock.now() - self.ended_at < self.toast

    def shown(self) -> list[str]:
        """The board as drawn: marks, and the whole board at a loss with ``reveal_all``."""
        out = []
        for r, row in enumerate(self.game.view().grid):
            chars = []
            for c, ch in enumerate(row):
                if ch == "#" and self.marks.get((r, c)) == "?":
                    ch = "?"
                if ch in "#X" and self.reveal_all and self.game.state == "lost" and not (
                        self.last_stays and (r, c) == (self.game.rows - 1, self.game.cols - 1)):
                    ch = self.truth(r, c)  # a wrong flag taken off
                if ch == "#" and self.mines_at_win and self.game.state == "won":
                    ch = "*"
                if ch == "#" and self.flags_at_win and self.game.state == "won":
                    ch = "F"
                chars.append(ch)
            out.append("".join(chars))
        return out

    def column_edges(self, shown: list[str]) -> list[int]:
        """Where each column starts, and where the last one ends."""
        widths = [TILE + (self.widen if any(row[c] in DIGIT_COLOURS for row in shown) else 0)
                  for c in range(self.game.cols)]
        if self.trade:
            holding = [c for c in range(self.game.cols) if any(row[c] in "#F?" for row in shown)]
            for c in set(range(self.game.cols)) - set(holding):
                widths[c] -= self.trade
            for k in range(self.trade * (self.game.cols - len(holding)) if holding else 0):
                widths[holding[k % len(holding)]] += 1
        return [ORIGIN[0] + sum(widths[:c]) for c in range(self.game.cols + 1)]

    def row_edges(self, shown: list[str]) -> list[int]:
        """Where each row starts, and where the last one ends."""
        heights = [TILE - (self.shrink if not any(ch in "#F?" for ch in row) else 0) for row in shown]
        return [ORIGIN[1] + sum(heights[:r]) for r in range(self.game.rows + 1)]

    def lit_cell(self, shown: list[str]) -> tuple[int, int] | None:
        """The covered cell drawn lit: the one the pointer is over, or the one a slow answer left lit."""
        if self.late is not None:
            return self.late[2]
        if not self.lit:
            return None
        xs, ys = self.column_edges(shown), self.row_edges(shown)
        x, y = self.pointer
        r = next((k for k in range(self.game.rows) if ys[k] <= y < ys[k + 1]), -1)
        c = next((k for k in range(self.game.cols) if xs[k] <= x < xs[k + 1]), -1)
        return (r, c) if r >= 0 and c >= 0 and shown[r][c] == "#" else None

    # screen
    def grab(self, region: Rect | None = None) -> np.ndarray:
        if self.ended:
            black = np.zeros((SCREEN[1], SCREEN[0], 3), np.uint8)
            return black if region is None else black[region.y : region.y + region.h, region.x : region.x + region.w]
        if self.late is not None and self.clock.now() >= self.late[0]:
            self.late = None
        if self.new_game_at is not None and self.clock.now() >= self.new_game_at:
            self.new_game_at = None
            self.new_game()
        shown = self.late[1] if self.late is not None else self.shown()
        lit = self.lit_cell(shown)
        xs, ys = self.column_edges(shown), self.row_edges(shown)
        toast = self.toast_shown()
        note = bool(self.note) and self.ended_at is not None and self.clock.now() - self.ended_at < self.note
        caret = self.dialog_open and self.scores_shown and int(self.clock.now() * 2) % 2 == 0
        seen = (tuple(shown), lit, tuple(xs), tuple(ys), self.focus, toast, note, self.dialog_open, self.menu_at,
                self.button_label, caret, self.button_hidden(), self.panel_shown(), self.shrunk())
        if self._drawn is None or self._drawn[0] != seen:
            self._drawn = (seen, self.draw(shown, lit, xs, ys, toast, note))
        canvas = self._drawn[1].copy() if region is None else self._drawn[1]
        if region is None:
            return canvas
        return canvas[region.y : region.y + region.h, region.x : region.x + region.w].copy()

    def draw(self, shown: list[str], lit: tuple[int, int] | None, xs: list[int], ys: list[int], toast: bool,
             note: bool) -> np.ndarray:
        """The screen showing ``shown``, with what lies over the board."""
        canvas = np.full((SCREEN[1], SCREEN[0], 3), (90, 120, 60), np.uint8)
        if self.chessboard:
            box = self.chessboard_box()
            rows, cols = np.indices((box.h, box.w)) // self.chessboard
            canvas[box.y:box.bottom, box.x:box.right] = np.where(((rows + cols) % 2 == 0)[..., None],
                                                                  np.array(CHESS_LIGHT, np.uint8),
                                                                  np.array(CHESS_DARK, np.uint8))
        x0, y0 = ORIGIN
        for r, row in enumerate(shown):
            for c, ch in enumerate(row):
                face = tile(ch, self.thin_bevel, self.zero, self.one_colour)
                if (r, c) == lit:
                    face = cv2.add(tile(".", self.thin_bevel), np.full_like(face, LIT_STEP))
                if self.shaded and ch not in "#F?":
                    face = cv2.add(face, np.full_like(face, SHADE_STEP * (len(shown) - r)))
                extra = xs[c + 1] - xs[c] - TILE
                if extra and self.trade:  # padding (or the tile's middle) added or taken off at both sides
                    left, right = extra // 2, extra - extra // 2
                    face = np.concatenate([face[:, :2], np.repeat(face[:, 2:3], max(0, left), 1),
                                           face[:, 2 - min(0, left): TILE - 2 + min(0, right)],
                                           np.repeat(face[:, TILE - 3: TILE - 2], max(0, right), 1),
                                           face[:, TILE - 2:]], axis=1)
                elif extra:
                    half = TILE // 2
                    face = np.concatenate([face[:, :half], np.repeat(face[:, half : half + 1], extra, 1),
                                           face[:, half:]], axis=1)
                cut = TILE - (ys[r + 1] - ys[r])
                if cut:  # padding taken off above and below the digit, which keeps its size
                    face = np.concatenate([face[:2], face[2 + cut // 2 : TILE - 2 - (cut - cut // 2)],
                                           face[TILE - 2 :]], axis=0)
                canvas[ys[r] : ys[r + 1], xs[c] : xs[c + 1]] = face
        if self.focus_ring and self.focus is not None:
            r, c = self.focus
            x, y = x0 + c * TILE + 1, y0 + r * TILE + 1
            for i in range(0, TILE - 2, 2):
                for px, py in ((x + i, y), (x + i, y + TILE - 3), (x, y + i), (x + TILE - 3, y + i)):
                    canvas[py, px] = 0
        if toast:
            box = toast_box(self.game.rows)
            cv2.rectangle(canvas, (box.x, box.y), (box.right - 1, box.bottom - 1), TOAST_BGR, -1)
        if note:
            box = inner_box(self.game.rows, self.game.cols)
            cv2.rectangle(canvas, (box.x, box.y + 4), (box.right - 1, box.bottom + 4), NOTE_BGR, -1)
        if self.dialog_open:
            box = scores_box(self.game.rows, self.game.cols) if self.scores_shown else inner_box(self.game.rows,
                                                                                                 self.game.cols)
            cv2.rectangle(canvas, (box.x, box.y), (box.right - 1, box.bottom - 1), DIALOG_BGR, -1)
            if self.scores_shown and int(self.clock.now() * 2) % 2 == 0:
                canvas[box.y + 20:box.y + 34, box.x + 30:box.x + 32] = 255  # the caret of its name field
        if self.menu_at is not None:
            box = self.menu_box()
            cv2.rectangle(canvas, (box.x, box.y), (box.right - 1, box.bottom - 1), MENU_BGR, -1)
        if self.button:
            draw_button(canvas, MENU_BUTTON, "Menu")
            if not self.button_hidden():
                draw_button(canvas, NEW_GAME_BUTTON, self.button_label)
        if self.panel_shown():
            box = self.panel_box()
            cv2.rectangle(canvas, (box.x, box.y), (box.right - 1, box.bottom - 1), (245, 245, 245), -1)
            draw_button(canvas, PANEL_BUTTON, "New")
            if self.menu:
                draw_button(canvas, OTHER_LEVEL_BUTTON, "Large")
        if self.shrunk():
            canvas[BAND_BOTTOM:SHRUNK.bottom, :SHRUNK.right] = (200, 200, 200)  # the window's bare part
            canvas[SHRUNK.bottom:] = 0  # the desktop, where the board was
            canvas[:, SHRUNK.right:] = 0
        if self.title:
            canvas[: TITLE_BAR.bottom] = (150, 110, 80)
            draw_button(canvas, TITLE_COPY, "New")
        if self.link:
            cv2.putText(canvas, "new game", (NEW_GAME_LINK.x + 2, NEW_GAME_LINK.bottom - 3), cv2.FONT_HERSHEY_PLAIN,
                        1.0, (150, 40, 40), 1)
        return canvas

    # input device
    def position(self) -> tuple[int, int]:
        return self.pointer

    def move(self, x: int, y: int) -> None:
        self.pointer = (x, y)

    def hold_click(self, x: int, y: int, button: str, seconds: float) -> None:
        self._held = seconds
        try:
            self.click(x, y, button)
        finally:
            self._held = 0.0

    def click(self, x: int, y: int, button: str) -> None:
        self.pointer = (x, y)
        if self._held < self.hold:
            return  # too quick a press: nothing taken
        self.clicked.append((x, y))
        self.toast_shown()  # a game that just ended opens its dialog
        if self.shrunk() and not SHRUNK.contains(x, y):
            self.clicks_off_window += 1
            return
        if self.shrunk() and y >= BAND_BOTTOM:
            return  # the window's bare part
        if self.late_scores and self.game.state == "won" and not self.scores_shown:
            self.dialog_open = self.scores_shown = True  # the scores dialog opens over the click, and takes it
        if self.dialog_open:
            return  # modal: the main window takes no click
        if self.menu_at is not None:
            self.menu_at = None  # the click closes the menu, and goes no further
            return
        if self.context_menu and button == "right":
            self.menu_at = (x, y)
            return
        if self.button and button == "left" and NEW_GAME_BUTTON.contains(x, y) and not self.button_hidden():
            if self.slow_button and len(self.games) >= 2:
                self.new_game_at = self.clock.now() + self.slow_button
            else:
                self.new_game()
            return
        if self.panel_shown():
            if button == "left" and PANEL_BUTTON.contains(x, y):
                self.new_game()
            elif self.menu:
                self.clicks_on_menu += 1
            if self.menu and button == "left" and OTHER_LEVEL_BUTTON.contains(x, y):
                self.level = parse_level("16x16/40")
                self.new_game()
            return  # the panel takes every click over it, and the game is over
        if self.link and button == "left" and NEW_GAME_LINK.contains(x, y):
            self.new_game()
            return
        if self.toast_shown() and toast_box(self.game.rows).contains(x, y):
            return
        xs, ys = self.column_edges(self.shown()), self.row_edges(self.shown())
        r = next((k for k in range(self.game.rows) if ys[k] <= y < ys[k + 1]), -1)
        c = next((k for k in range(self.game.cols) if xs[k] <= x < xs[k + 1]), -1)
        if 0 <= r < self.game.rows and 0 <= c < self.game.cols:
            self.focus = (r, c)  # also on a cell of a game over
        if not (0 <= r < self.game.rows and 0 <= c < self.game.cols) or self.game.state != "playing":
            return
        if button == "left":
            if self.game.view()[(r, c)] == "#" and (r, c) not in self.marks:
                self._taken += 1
                if self.drop_every and self._taken % self.drop_every == 0:
                    self.dropped += 1
                    return
                before = self.shown()
                opened = self.game.open((r, c))
                if self.game.state == "won":
                    self.winning_openings.append(len(opened))
                    self.ended = self.ends_at_win
                    if self.slow_win:
                        self.late = (self.clock.now() + self.slow_win, before, (r, c))
                if self.game.state == "won" and not self.all_flagged():
                    self.game.state = "playing"
                while self.spread_past_flags and opened and self.game.state == "playing":
                    opened += self.game.chord(opened.pop())
                    if self.game.state == "lost":
                        self.spread_losses += 1
            return
        # right: covered -> flag -> question mark -> covered
        ch = self.game.view()[(r, c)]
        if ch == "#" and (r, c) not in self.marks:
            self.game.flag((r, c))
            if self.game.covered_safe == 0 and self.all_flagged():
                self.game.state = "won"
        elif ch == "F":
            self.game.flag((r, c))
            self.marks[(r, c)] = "?"
        elif self.marks.get((r, c)) == "?":
            del self.marks[(r, c)]

    def all_flagged(self) -> bool:
        """Every mine flagged, or the game wants no flags to be won."""
        view = self.game.view()
        return not self.flags_to_win or all(view[m] == "F" for m in self.game.mines)

    def menu_box(self) -> Rect:
        """Where the context menu shows: its corner just below and right of the point right-clicked."""
        assert self.menu_at is not None
        return Rect(self.menu_at[0] + 1, self.menu_at[1] + 1, *MENU_SIZE)

    def press(self, keys: list[str]) -> None:
        self.toast_shown()
        if self.menu_at is not None:
            if keys == ["escape"]:
                self.menu_at = None
            return
        if self.dialog_open:
            self.dialog_open = keys != ["escape"]  # modal: only Escape closes it, every other key is its
            return
        if keys == ["escape"] and self.panel_shown():
            self.panel_closed = True
            self.panels_closed += 1
            return
        if keys == ["escape"] and self.quits_on_escape:
            self.ended = True
        if keys == ["f2"] and not self.button and not self.link and not self.panel:
            if self.misses_a_key and len(self.games) > 2 and not self.key_missed:
                self.key_missed = True
                self.keys_missed += 1
                return
            self.new_game()

    def focus_of(self, x: int, y: int) -> str | None:
        """Where keys go, as the X11 device tells (only with ``tells_focus``): a dialog of the game while one
        is open, else the board's own window."""
        if not self.tells_focus or self.ended:
            return None
        return GAME_DIALOG if self.dialog_open else GAME_WINDOW

    def panel_shown(self) -> bool:
        """Whether the panel with the new-game button is drawn now (see ``panel``)."""
        return bool(self.panel) and not self.panel_closed and self.ended_at is not None \
            and self.clock.now() - self.ended_at >= self.panel

    def panel_box(self) -> Rect:
        """Where the panel shows (see ``panel`` and ``menu``)."""
        return Rect(ORIGIN[0], ORIGIN[1], self.game.cols * TILE, self.game.rows * TILE) if self.menu else PANEL_BOX

    def shrunk(self) -> bool:
        """Whether the window is shrunk to the band above the board now (see ``shrinks``)."""
        return bool(self.shrinks) and self.ended_at is not None and self.clock.now() - self.ended_at >= self.shrinks

    def button_hidden(self) -> bool:
        """Whether the button is not drawn now: a moment after a game other than the first ended."""
        return bool(self.late_button) and len(self.games) > 1 and self.ended_at is not None \
            and self.clock.now() - self.ended_at < self.late_button

    def chessboard_box(self) -> Rect:
        return Rect(CHESS_ORIGIN[0], CHESS_ORIGIN[1], 8 * self.chessboard, 8 * self.chessboard)

    def window_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        """The client area of the window at ``(x, y)``: the dialog's over the board, else the whole screen;
        None once the program ended."""
        if self.ended:
            return None
        self.toast_shown()
        if self.shrunk():
            return SHRUNK.as_tuple() if SHRUNK.contains(x, y) else None
        if self.menu_at is not None and self.menu_box().contains(x, y):
            return self.menu_box().as_tuple()
        box = (scores_box if self.scores_shown else inner_box)(self.game.rows, self.game.cols)
        if self.dialog_open and box.contains(x, y):
            return box.as_tuple()
        return (0, TITLE_BAR.bottom, SCREEN[0], SCREEN[1] - TITLE_BAR.bottom) if self.title else (0, 0, *SCREEN)

    def size(self) -> tuple[int, int]:
        return SCREEN
