"""The steps of a live calibration: find the board (a new game), learn how the client marks cells, then play
games, naming the looks again after each and starting the next game the client's way."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from sweepbot.calibration.facts import CalibrationError
from sweepbot.calibration.live.choose import Chooser
from sweepbot.calibration.live.driver import CHANGED_RMS, BoardDriver, board_region, rms
from sweepbot.calibration.live.follow import Follower, FollowingScreen
from sweepbot.calibration.live.game import LiveGame
from sweepbot.calibration.live.newgame import NewGame
from sweepbot.calibration.live.session import FactLog, LiveSession
from sweepbot.calibration.live.tiles import Tiles, new_games_first
from sweepbot.vision.locate import grids
from sweepbot.watch import CALIBRATION, Watcher, check_keys


def find_board(watcher: Watcher) -> tuple[BoardDriver, Tiles, np.ndarray]:
    """Locate the board, which must be a new game (one look everywhere), keep the mouse to it and learn whether
    the client lights the tile under the pointer. The board, its tiles, and the settled screen.

    Of the grids of cells on the screen (``vision.locate.grids``: a board beside another grid, a chessboard on
    a web page), the board is the first that shows a new game, those that show one on the first frame tried
    first (``calibration.live.tiles.new_games_first``; the tile under the pointer may be lit: each grid
    is looked at again with the pointer parked below it). Two grids alike are two boards: which one is meant
    is not guessed."""
    first = watcher.grab()
    for geometry in new_games_first(grids(first), first):
        region = board_region(geometry)
        watcher.input().set_board(region)
        watcher.park(region)
        watcher.answer(region, None, CALIBRATION)
        frame = watcher.grab()
        tiles = Tiles.of_new_board(geometry, frame)
        if tiles is not None:
            break
    else:
        raise CalibrationError("the board on screen is not a new game (cells differ): start a new game first")
    follower = Follower.of_new_game(geometry, frame)
    board = BoardDriver(watcher.seeing(FollowingScreen(watcher.screen, follower)), tiles.cells, follower=follower)
    board.keep_surround(frame)
    board.learn_lit((geometry.rows // 2, geometry.cols // 2))
    return board, tiles, frame


def learn_marks(board: BoardDriver, tiles: Tiles, fact_log: FactLog, frame: np.ndarray,
                log: Callable[[str], None]) -> tuple[bool, bool]:
    """Right-click a cell until it is covered again: the looks on the way are a flag and a question mark.
    Whether the client has flags, and question marks."""
    fact_log.record(frame, tiles.all_covered(frame))
    cell = max(tiles.covered(frame), key=lambda rc: (rc[0] + rc[1], rc))
    new_board = frame
    seen: list[np.ndarray] = []
    for step in range(3):
        frame = board.click(cell, "right")
        if board.popup_at(cell):
            # a menu at the pointer (a web page's context menu): the game has no marks, the menu is closed
            board.press("escape")
            board.last_frame = board.answered()
            log("marks: none (a right-click opens a menu, closed with Escape)")
            return False, False
        now = tiles.cells.window(frame, cell)
        if cell not in board.changes(new_board, frame, cell):
            break  # back to covered (or right-clicks do nothing; a focus ring drawn around it is no change)
        if any(rms(now, s) < CHANGED_RMS for s in seen):
            continue
        seen.append(now)
        fact_log.record(frame, {cell: "F" if step == 0 else "?"})
    else:
        raise CalibrationError("three right-clicks did not bring the cell back: the board does not answer")
    log(f"marks: {'flag' if seen else 'none'}{', question mark' if len(seen) > 1 else ''}")
    return bool(seen), len(seen) > 1


#: How many times the games asked for may be played while they prove no number or no empty cell.
MORE_GAMES = 2


class LiveCalibration:
    """Plays ``games`` games on the client the ``watcher`` sees and returns what they proved.
    ``new_game_keys``: the user's new-game key, tried instead of the usual ones; ``ask``: asks the person at
    the screen to start a new game when no way to is found (None: nobody to ask)."""

    def __init__(self, watcher: Watcher, games: int = 6, seed: int = 0,
                 log: Callable[[str], None] = lambda _m: None, new_game_keys: Sequence[Sequence[str]] = (),
                 ask: Callable[[str], None] | None = None) -> None:
        self.watcher = watcher
        self.games = games
        self.rng = random.Random(seed)
        self.log = log
        self.given_keys = tuple(tuple(k) for k in new_game_keys)
        check_keys(self.given_keys)
        self.ask = ask
        self.session = LiveSession()

    def run(self) -> LiveSession:
        """Find the board, learn the marks, play the games (each followed by a new game): what they proved."""
        session = self.session = LiveSession()  # kept for the caller also when a step fails
        board, tiles, frame = find_board(self.watcher)
        fact_log = FactLog(session, tiles, self.log, window_over=board.window_over)
        if board.follower is not None:  # it located the board on each frame it drew
            fact_log.found_whole = board.follower.whole
        board.window = self.watcher.input().window_at(*board.region.center)
        flags, question_marks = learn_marks(board, tiles, fact_log, frame, self.log)
        chooser = Chooser(tiles, self.rng)
        new_game = NewGame(board, tiles, session, self.given_keys, ask=self.ask)
        # more games, up to MORE_GAMES times as many, while no number or no empty cell is proved (games lost at
        # once, on a dense board, may show too few numbers beside the mines, and no opening)
        while session.games < self.games or (session.games < MORE_GAMES * self.games and not chooser.knows_open_looks):
            game = LiveGame(session.games, board, tiles, chooser, fact_log, self.rng, self.log, question_marks)
            if game.play():
                session.wins += 1
            end_screen = board.watcher.grab()
            session.games += 1
            chooser.rename(session)
            # the last one too: the client is left with a new game, ready to play
            frame = new_game.start(end_screen, game.exploded)
            fact_log.record(frame, tiles.all_covered(frame))
            if not flags and session.play.press_hold and session.games == 1:
                # right-clicks taken by nothing may have wanted the button held, as the clicks did: asked
                # again now that the hold is known, on the new game's board
                flags, question_marks = learn_marks(board, tiles, fact_log, frame, self.log)
            if board.follower is not None and board.follower.resized:
                session.learn(cells_resize=True)  # play locates the board on every frame
        return session
