"""Live calibration against a drawn client (tests/tile_client.py): the driver's facts, the profile it makes,
and that profile reading new games exactly."""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace

import numpy as np
import pytest

from sweepbot.calibration.calibrate import Calibration, calibrate_frames, mine_totals
from sweepbot.calibration.facts import WON_COVERED
from sweepbot.calibration.live.run import LiveCalibration
from sweepbot.calibration.live.session import FactLog, LiveSession
from sweepbot.calibration.live.tiles import new_game_board
from sweepbot.calibration.recording import compact, load_session, save_session
from sweepbot.control.mapping import mapping_for
from sweepbot.control.mouse import BoardInput
from sweepbot.errors import SweepbotError
from sweepbot.rect import Rect
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.locate import grids, locate
from sweepbot.vision.read import ReadError, read_screenshot
from tests.fakes import watcher
from tests.tile_client import ORIGIN, SCREEN, TileClient


def calibrate(client: TileClient, games: int = 5) -> LiveSession:
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    return LiveCalibration(watcher(client, mouse), games=games, seed=3).run()


def profile_and_reader(session: LiveSession) -> tuple[Calibration, type]:
    """The profile a session makes, and a reader of the client's screen with it alone, as play reads."""
    from sweepbot.playing.vision_reader import to_view

    cal = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                           geometries=[locate(session.frames[0])] * len(session.frames))[0]

    class Reader:
        def read(self, frame):  # type: ignore[no-untyped-def]
            return to_view(read_screenshot(frame, profiles=[cal.profile]))

    return cal, Reader


def play_out(client: TileClient, board: Geometry) -> None:
    """Click the client's covered cells one by one, row by row, until its game is over (a 9x9 board)."""
    while client.game.state == "playing":
        cell = next((r, c) for r in range(9) for c in range(9) if client.game.view()[(r, c)] == "#")
        client.click(*board.center(*cell), "left")


def profile_true_to_the_games(client: TileClient, session: LiveSession) -> Calibration:
    """The profile a session makes, once its wins and exploded mines were checked against the games the
    client played (the last one is the new game left on screen); it misreads none of its named cells."""
    played = client.games[:-1]
    assert session.wins == sum(g.state == "won" for g in played)
    exploded = {g.exploded for g in played if g.exploded}
    assert {(f.row, f.col) for f in session.facts if f.char == "!"} <= exploded
    geometry = new_game_board(session.frames[0])
    cal = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                           geometries=[geometry] * len(session.frames))[0]
    assert cal.misread == 0
    return cal


def assert_plays_through(client: TileClient, cal: Calibration, games: int) -> None:
    """Play reads ``games`` games through to their ends with the profile, pressing Escape at a window over
    the board, and reports each as the client ended it; one at least is lost."""
    from sweepbot.playing.loop import Player
    from sweepbot.playing.settings import PlaySettings
    from sweepbot.playing.vision_reader import to_view

    class Reader:
        def read(self, frame):  # type: ignore[no-untyped-def]
            return to_view(read_screenshot(frame, profiles=[cal.profile]))

    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    player = Player(watcher(client, mouse), Reader(), PlaySettings(first_click="none", mines=10,
                                                         dismiss_keys=(("escape",),)))
    results = []
    for _ in range(games):
        report = player.play_game()
        assert report.error is None and report.result == client.game.state
        results.append(report.result)
        client.press(["f2"])
    assert "lost" in results


def assert_reads_fresh_boards(cal: Calibration, games: list[TileClient]) -> None:
    """The profile reads boards of ``games``, each after a few random clicks, exactly, cell for cell; a board
    with a number the session never saw is left out (refused, not guessed); three at least are read."""
    rng = random.Random(0)
    checked = 0
    for game in games:
        for _ in range(rng.randint(1, 6)):
            covered = [(r, c) for r in range(9) for c in range(9) if game.game.view()[(r, c)] == "#"]
            game.game.open(rng.choice(covered))
            if game.game.state != "playing":
                break
        want = game.game.view().grid
        if not set("".join(want)) <= {n.char for n in cal.names.values()}:
            continue
        assert read_screenshot(game.grab(), profiles=[cal.profile]).board.grid == want
        checked += 1
    assert checked >= 3


def test_a_new_game_button_that_worked_before_and_answers_late_is_waited_on() -> None:
    """A web page on a loaded machine: the button found in game 1 starts the next games 3 s after its click,
    later than a first answer is waited for; calibration waits for the new game rather than stop."""
    from tests.tile_client import NEW_GAME_BUTTON

    client = TileClient(seed=7, button=True, slow_button=3.0)
    session = calibrate(client, games=3)
    assert session.games == 3 and len(client.games) == 4
    assert sum(NEW_GAME_BUTTON.contains(*p) for p in client.clicked) == 3


@pytest.mark.slow
def test_facts_match_the_game() -> None:
    client = TileClient(seed=11)
    session = calibrate(client, games=4)
    assert session.games == 4 and len(client.games) == 5  # and a new game left on screen
    assert session.play.new_game_keys == (("f2",),)
    chars = {f.char for f in session.facts}
    assert {"#", "F", "?", "=", "!"} <= chars
    # every exploded fact is a cell that was the exploded mine of a game
    exploded = {g.exploded for g in client.games if g.exploded}
    assert {(f.row, f.col) for f in session.facts if f.char == "!"} <= exploded


@pytest.mark.slow
def test_profile_from_live_session_reads_new_games_exactly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    client = TileClient(seed=5)
    session = calibrate(client, games=6)
    geometry = locate(session.frames[0])
    cals = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                            geometries=[geometry] * len(session.frames))
    assert len(cals) == 1
    cal = cals[0]
    proved = {n.char for n in cal.names.values() if n.proved}
    assert {"#", ".", "1", "2", "F", "?", "!", "*"} <= proved
    assert cal.misread == 0
    assert_reads_fresh_boards(cal, [TileClient(seed=seed) for seed in range(40, 46)])
    # the kept session calibrates to the same names
    save_session(compact(session), tmp_path / "rec")
    again = load_session(tmp_path / "rec")
    assert len(again.frames) <= len(session.frames)
    cals2 = calibrate_frames(again.frames, "tile", again.facts, again.play, min_cells=1,
                             geometries=[locate(again.frames[0])] * len(again.frames))
    assert {n.char for n in cals2[0].names.values() if n.proved} >= proved - {"X"}


@pytest.mark.slow
def test_a_tile_lit_under_the_pointer_is_no_answer_to_a_click() -> None:
    """The drawn client lights the covered tile under the pointer much as an empty cell, and answers the click
    that wins a game 0.3 s late, the tile lit till then (gnome-mines keeping its scores): the lit tile is
    learnt before play, waited out after a click and never taken for an opened cell, so the session is true to
    the games and its profile reads new boards exactly, the empty cell proved."""
    client = TileClient(seed=5, lit=True, slow_win=0.3)
    session = calibrate(client, games=6)
    assert session.wins >= 2
    cal = profile_true_to_the_games(client, session)
    assert {"#", ".", "1", "2"} <= {n.char for n in cal.names.values() if n.proved}
    assert_reads_fresh_boards(cal, [TileClient(seed=seed, lit=True) for seed in range(40, 46)])


@pytest.mark.slow
def test_a_new_game_button_beside_the_board_is_found_and_play_clicks_it_again() -> None:
    from sweepbot.playing.newgame import start_new_game
    from tests.tile_client import MENU_BUTTON, NEW_GAME_BUTTON, ORIGIN

    client = TileClient(seed=7, button=True)
    session = calibrate(client, games=3)
    assert session.games == 3 and len(client.games) == 4  # each game ended, then the button gave a new one
    assert not session.play.new_game_keys
    control = session.play.new_game_control
    assert control is not None
    dx, dy = control.offset  # the button's face, inside its border
    assert abs(dx - (NEW_GAME_BUTTON.x - ORIGIN[0])) <= 3 and abs(dy - (NEW_GAME_BUTTON.y - ORIGIN[1])) <= 3
    # the menu button above it says "Menu", not a new game: it is never clicked
    assert sum(MENU_BUTTON.contains(*p) for p in client.clicked) == 0
    assert sum(NEW_GAME_BUTTON.contains(*p) for p in client.clicked) == 3
    # play, with the rules the profile keeps, finds the button again by its look and clicks it
    cal, Reader = profile_and_reader(session)
    board = locate(client.grab())
    play_out(client, board)
    games, clicks = len(client.games), len(client.clicked)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    last = Reader().read(client.grab())
    fresh = start_new_game(watcher(client, mouse), Reader(), cal.profile.play, last, timeout=2.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81
    assert [NEW_GAME_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True]
    # drawn another way now, the button is still the control at that place, and play clicks it
    play_out(client, board)
    client.button_label = "Again?"
    games, clicks = len(client.games), len(client.clicked)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))  # the test's own clicks moved the pointer
    fresh = start_new_game(watcher(client, mouse), Reader(), cal.profile.play, Reader().read(client.grab()),
                           timeout=2.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81
    assert [NEW_GAME_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True]
    # a won game's scores dialog that opens as the click on the button arrives takes it; over the board and past
    # its edges, its caret blinking, it hides the board unread: play closes it and clicks the button again
    client.late_scores = True
    covered = Reader().read(client.grab())  # the board's place, read before the game is won
    for cell in ((r, c) for r in range(9) for c in range(9) if (r, c) not in client.game.mines):
        if client.game.view()[cell] == "#":
            client.click(*board.center(*cell), "left")
    assert client.game.state == "won"
    games, clicks = len(client.games), len(client.clicked)
    play = watcher(client, BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN)))
    last = replace(covered, board=client.game.view())  # the won board (its digits need not all be known)
    play.overlays.keep(client.grab(), last.bbox)  # as play keeps the band round the board while it plays
    fresh = start_new_game(play, Reader(), cal.profile.play, last, timeout=4.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81
    assert [NEW_GAME_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True, True]
    # drawn again a moment late, on a client that quits on Escape, on a device that tells that the board's own
    # window has the keyboard, nothing over the board: play waits for the button, and never presses Escape
    client.late_scores, client.late_button, client.quits_on_escape, client.tells_focus = False, 0.9, True, True
    covered = Reader().read(client.grab())  # the board's place, read before the game ends
    play_out(client, board)
    games, clicks = len(client.games), len(client.clicked)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    last = replace(covered, board=client.game.view())  # the ended board (its digits need not all be known)
    mouse.set_board(last.bbox)  # as play's clicks left it
    fresh = start_new_game(watcher(client, mouse), Reader(), cal.profile.play, last, timeout=4.0)
    assert not client.ended and len(client.games) == games + 1 and fresh.board.count("#") == 81
    assert [NEW_GAME_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True]


def test_a_scores_dialog_calibration_never_met_is_closed_with_escape_before_the_button_is_clicked() -> None:
    """A calibration whose games were all lost never met the scores dialog a win opens (gnome-mines's, modal,
    over the middle of the board, the new-game button beside the board still in sight): play, with no key known
    to close it, sees a window over the board, presses Escape, and only then clicks the button (a click while
    the dialog is open is the dialog's, and no new game would come)."""
    from sweepbot.playing.newgame import start_new_game
    from tests.tile_client import NEW_GAME_BUTTON

    client = TileClient(seed=7, button=True)
    session = calibrate(client, games=3)
    assert not session.play.dismiss_keys and session.play.new_game_control is not None
    _, Reader = profile_and_reader(session)
    board = locate(client.grab())
    covered = Reader().read(client.grab())
    client.win_dialog = True
    for cell in ((r, c) for r in range(9) for c in range(9) if (r, c) not in client.game.mines):
        if client.game.view()[cell] == "#":
            client.click(*board.center(*cell), "left")
    client.grab()  # the dialog opens as the game's end is drawn
    assert client.game.state == "won" and client.dialog_open
    games, clicks = len(client.games), len(client.clicked)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    last = replace(covered, board=client.game.view())
    fresh = start_new_game(watcher(client, mouse), Reader(), session.play, last, timeout=4.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81
    assert [NEW_GAME_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True]


def test_a_scores_dialog_that_opens_after_a_win_is_closed_with_escape_before_the_button_found_before_is_clicked(
        ) -> None:
    """gnome-mines in a window larger than its scores dialog: calibration found the new-game button beside the
    board in games lost, then wins one; the modal dialog opens a second after the win is drawn, over the board,
    the button still in sight. Calibration sees a window over the board, presses Escape, learns it, and only
    then clicks the button (a click while the dialog is open is the dialog's, and no new game would come)."""
    from tests.tile_client import NEW_GAME_BUTTON

    client = TileClient(seed=1, button=True, win_dialog=True, flags_at_win=True, win_dialog_after=1.0)
    session = calibrate(client, games=4)
    assert session.games == 4 and len(client.games) == 5
    assert [game.state for game in client.games[:3]] == ["lost", "lost", "won"]
    assert session.play.dismiss_keys == (("escape",),)
    assert sum(NEW_GAME_BUTTON.contains(*p) for p in client.clicked) == 4  # one click a new game


def test_a_scores_dialog_over_the_board_at_a_win_is_closed_at_once_not_waited_out_as_a_toast() -> None:
    """gnome-mines opens its scores dialog over the board as a win is drawn, reaching past the board's edges,
    its caret blinking. Play, reading no board under it after the winning click (a guess, or an opening that
    spread to the last safe cell), closes it with the client's Escape once its reads are spent and reads the
    won board: it does not wait for it to go by itself, as for a toast (OVERLAY_WAIT)."""
    from sweepbot.playing.loop import Player
    from sweepbot.playing.settings import PlaySettings
    from sweepbot.watch.overlays import OVERLAY_WAIT

    client = TileClient(seed=5, win_dialog=True, flags_at_win=True, win_dialog_after=0.001)
    _, Reader = profile_and_reader(calibrate(client, games=4))
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    player = Player(watcher(client, mouse), Reader(), PlaySettings(first_click="none", mines=10,
                                                         dismiss_keys=(("escape",),)))
    closed = 0
    for _ in range(6):
        client.press(["escape"])
        client.press(["f2"])
        report = player.play_game()
        assert report.error is None and report.result == client.game.state
        if report.result == "won":
            assert report.seconds < OVERLAY_WAIT
            assert report.final is not None and report.final.count("#F") == 10  # the won board, read
            closed += client.win_dialog_opened and not client.dialog_open  # the dialog opened before it was read
    assert closed >= 1


@pytest.mark.slow
@pytest.mark.parametrize("title", [False, True])
def test_a_new_game_button_in_a_panel_that_opens_over_the_board_after_each_game_is_clicked_never_closed(
        title: bool) -> None:
    """A client whose only way to a new game is a button in a panel it draws over the board a moment after each
    game ends (a web page's level chooser), which Escape closes: calibration finds the button by its label at
    the first game's end, and at the next ones clicks it again, never closing the panel first; play does too,
    waiting for the panel rather than taking a look-alike outside the client's window (a title bar's)."""
    from sweepbot.playing.newgame import start_new_game
    from tests.tile_client import PANEL_BUTTON

    client = TileClient(seed=7, panel=0.6, flags_at_win=True, title=title)
    session = calibrate(client, games=3)
    assert session.games == 3 and len(client.games) == 4
    assert session.play.new_game_control is not None and not session.play.new_game_keys
    assert client.panels_closed == 0
    _, Reader = profile_and_reader(session)
    covered = Reader().read(client.grab())
    board = locate(client.grab())
    play_out(client, board)
    games, clicks = len(client.games), len(client.clicked)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    last = replace(covered, board=client.game.view())
    fresh = start_new_game(watcher(client, mouse), Reader(), session.play, last, timeout=4.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81 and client.panels_closed == 0
    assert [PANEL_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True]


@pytest.mark.slow
def test_a_win_that_leaves_the_mines_covered_is_known_by_the_click_it_no_longer_takes() -> None:
    """The drawn client, like some real ones, leaves the mines covered when a game is won and takes no click
    after. Calibration counts those games won, marks each such frame, and the mine total read off it (its
    covered cells and flags) is the level's."""
    client = TileClient(level="9x9/10", seed=21)
    session = calibrate(client, games=6)
    played = client.games[:-1]  # the last one is the new game left on screen
    assert session.wins == sum(g.state == "won" for g in played) >= 1
    marked = sorted({f.frame for f in session.facts if f.char == WON_COVERED})
    assert len(marked) == session.wins
    geometry = locate(session.frames[0])
    cal = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                           geometries=[geometry] * len(session.frames))[0]
    won = {cal.frame_indices.index(i) for i in marked}
    totals = mine_totals(cal.frames, won)
    assert [totals[i] for i in sorted(won)] == [10] * len(won)
    # the drawn client shows no counter: the profile keeps the total for play
    assert cal.profile.play.mines == ((9, 9, 10),)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [12, 24])
def test_a_win_that_leaves_the_mines_covered_is_known_though_a_panel_is_laid_over_the_board_after_it(
        seed: int) -> None:
    """The drawn client leaves the mines covered at a win, takes no click after, and a moment after each game
    ends lays a panel with its new-game button over part of the board (a web page's level chooser). The click
    after a win, on a covered cell, is not taken: the cell stays covered, and the cells the panel hides, open
    ones among them, are no answer to it: the game was won. After a loss, a click whose cell the panel hides
    opens nothing, and the loss stands. Calibration counts the wins and exploded mines the games had, and its
    profile misreads none of its cells."""
    client = TileClient(level="9x9/10", seed=seed, panel=0.6)
    session = calibrate(client, games=6)
    assert session.wins >= 1 and client.panels_closed == 0
    profile_true_to_the_games(client, session)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 4])
def test_a_window_that_shrinks_to_its_buttons_when_a_game_ends_gets_no_click_where_the_board_was(seed: int) -> None:
    """The drawn client leaves the mines covered at a win and, a moment after each game ends, shrinks its window
    to the band of buttons above the board (a Tk window showing a level menu alone), the board's place left to
    the desktop. No click goes where the board was once no window holds it: the game is over, and won when
    the click before neither lost nor won in sight on a client whose losses showed the mine that went off.
    Calibration counts the wins the games had, and its profile misreads none of its cells; Escape never goes
    to the shrunk window as to a window over the board (this client quits on it)."""
    from sweepbot.playing.newgame import start_new_game
    from tests.tile_client import NEW_GAME_BUTTON

    client = TileClient(level="9x9/10", seed=seed, button=True, shrinks=0.6, quits_on_escape=True)
    session = calibrate(client, games=6)
    assert client.clicks_off_window == 0 and session.wins >= 2
    profile_true_to_the_games(client, session)
    # play starts the next game with the button once the window shrank, pressing no Escape (the client's own
    # window would take it: this one quits)
    _, Reader = profile_and_reader(session)
    covered = Reader().read(client.grab())
    play_out(client, locate(client.grab()))
    client.grab()  # the game's end seen
    client.clock.sleep(1.0)
    assert client.shrunk()
    games, clicks = len(client.games), len(client.clicked)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    last = replace(covered, board=client.game.view())
    fresh = start_new_game(watcher(client, mouse), Reader(), session.play, last, timeout=4.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81 and not client.ended
    assert [NEW_GAME_BUTTON.contains(*p) for p in client.clicked[clicks:]] == [True]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3, 5])
def test_a_level_menu_laid_over_the_whole_board_after_a_game_gets_no_click_but_on_its_new_game_button(
        seed: int) -> None:
    """The drawn client lays a level menu over its whole board a moment after each game ends, its "New"
    button above a "Large" one that starts a game of another level. Calibration clicks no cell once the board
    gave way to the menu (most of its cells changed with no click since the last answer): no click lands on
    the menu but the new-game one, the session ends with every game of the level played, and its profile
    misreads none of its cells."""
    client = TileClient(level="9x9/10", seed=seed, panel=0.6, menu=True)
    session = calibrate(client, games=6)
    assert client.clicks_on_menu == 0 and session.games == 6
    assert {(g.rows, g.cols) for g in client.games} == {(9, 9)}
    exploded = {g.exploded for g in client.games[:-1] if g.exploded}
    assert {(f.row, f.col) for f in session.facts if f.char == "!"} <= exploded
    cal = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                           geometries=[locate(session.frames[0])] * len(session.frames))[0]
    assert cal.misread == 0


@pytest.mark.slow
def test_a_click_the_client_missed_is_sent_again_not_taken_for_a_won_game() -> None:
    """A client that loses a click now and then (busy, or the window manager took it): the click is sent
    once more before calibration calls the game over, so no game is counted won that was not, and the mine
    total kept for play is the level's."""
    client = TileClient(level="9x9/10", seed=21, drop_every=7)
    session = calibrate(client, games=6)
    assert client.dropped >= 3
    cal = profile_true_to_the_games(client, session)
    assert cal.profile.play.mines in ((), ((9, 9, 10),))


@pytest.mark.slow
def test_a_long_game_is_ended_by_a_click_on_a_likely_mine(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a large board a game may take hundreds of clicks: once a game is long enough, calibration clicks
    the cell likeliest to be a mine, and the loss shows the mines; the facts stay true to the games."""
    from sweepbot.calibration.live import game

    monkeypatch.setattr(game, "LONG_GAME", 12)
    client = TileClient(level="16x16/40", seed=4)
    said: list[str] = []
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    session = LiveCalibration(watcher(client, mouse), games=4, seed=3, log=said.append).run()
    lengths = [int(line.split(" after ")[1].split()[0]) for line in said if line.startswith("game ")]
    assert len(lengths) == 4 and all(g.state == "lost" for g in client.games[:-1])
    assert max(lengths[1:]) <= 12 + 3, said  # named looks from the first game on: a mine found at once
    profile_true_to_the_games(client, session)


@pytest.mark.parametrize("button", [False, True])
def test_a_client_whose_program_ends_at_a_new_game_is_said_to_have_closed_its_window(button: bool) -> None:
    """A client that ends (its window gone, the screen black) when asked for a new game, while the way to
    start one is being found or with the control found before: calibration stops with a message that says
    the window closed, not that the board changed or that no key works."""
    from sweepbot.calibration.facts import CalibrationError

    client = TileClient(seed=3, button=button, ends_at_game=3 if button else 2)
    with pytest.raises(CalibrationError, match="window closed"):
        calibrate(client, games=3)
    assert client.ended


def test_a_new_game_control_gone_from_sight_with_no_window_over_the_board_is_never_answered_with_escape() -> None:
    """The new-game control found before is not in sight once a later game ends, and no window lies over the
    board: Escape would go to the client itself, which may take it as quit (xdemineur). Calibration never
    presses it: it stops saying the control is gone, the client still running."""
    from sweepbot.calibration.facts import CalibrationError

    client = TileClient(seed=7, button=True, late_button=600.0, quits_on_escape=True)
    with pytest.raises(CalibrationError, match="no longer beside the board"):
        calibrate(client, games=3)
    assert not client.ended and len(client.games) == 2


def test_a_new_game_key_lost_while_the_boards_own_window_has_the_keyboard_is_pressed_again_never_escape() -> None:
    """A client started by F2 that loses the first F2 after a game, and quits on Escape, on a device that tells
    where keys go: with the board's own window holding the keyboard and no window over the board, Escape would
    go to the client itself. Calibration waits for the screen to settle and presses F2 again."""
    client = TileClient(seed=7, misses_a_key=True, quits_on_escape=True, tells_focus=True)
    session = calibrate(client, games=4)
    assert client.keys_missed >= 1
    assert not client.ended and len(client.games) >= 4 and session.play.new_game_keys == (("f2",),)


def test_a_client_whose_program_ends_at_a_winning_click_is_said_to_have_closed_its_window() -> None:
    """A client that ends at the click that wins a game: calibration stops at that click saying the window
    closed; the black screen is judged neither a loss nor a win, and nothing is learnt from it."""
    from sweepbot.calibration.facts import CalibrationError
    from sweepbot.calibration.live.run import LiveCalibration

    client = TileClient(seed=3, ends_at_win=True)
    logged: list[str] = []
    run = LiveCalibration(watcher(client, BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))), games=6, seed=3,
                          log=logged.append)
    with pytest.raises(CalibrationError, match="window closed"):
        run.run()
    ended = len(client.games)
    assert not [m for m in logged if m.startswith(f"game {ended}:")]
    assert client.ended and client.game.state == "won"
    shown = {i for i, f in enumerate(run.session.frames) if not f.any()}
    assert not [f for f in run.session.facts if f.frame in shown]


@pytest.mark.slow
@pytest.mark.parametrize("known", [False, True])
def test_games_that_prove_no_number_or_no_empty_cell_are_followed_by_more_up_to_twice_as_many(
        monkeypatch: pytest.MonkeyPatch, known: bool) -> None:
    """Games lost after a click or two on a dense board may show too few numbers beside the mines to prove
    one, and no opening (ace-minesweeper at 32x32/200): calibration plays on, up to twice the games asked for,
    while no number or no empty cell is proved; once both are, it stops at the games asked for."""
    from sweepbot.calibration.facts import Name
    from sweepbot.calibration.live.choose import Chooser, SessionLooks
    from sweepbot.calibration.looks import Looks

    monkeypatch.setattr(Chooser, "knows_open_looks", property(lambda self: known))
    session = calibrate(TileClient(seed=5), games=2)
    assert session.games == (2 if known else 4)
    reading = SessionLooks(0.1, Looks(np.zeros((1, 2, 2, 3), np.uint8), (), np.zeros(1, int)), {})
    monkeypatch.undo()
    chooser = Chooser(None, random.Random(0), reading)  # type: ignore[arg-type]  # no tiles needed to tell
    assert not chooser.knows_open_looks
    chooser.reading = SessionLooks(0.1, reading.looks, {0: Name(".", "counted")})
    assert not chooser.knows_open_looks
    chooser.reading = SessionLooks(0.1, reading.looks, {0: Name("3", "counted"), 1: Name("*", "counted")})
    assert not chooser.knows_open_looks
    chooser.reading = SessionLooks(0.1, reading.looks, {0: Name(".", "counted"), 1: Name("3", "counted")})
    assert chooser.knows_open_looks


@pytest.mark.slow
def test_a_toast_over_the_board_is_waited_out_by_calibration_and_by_play() -> None:
    """A client that shows a toast over the bottom of its board when a game ends (and takes the clicks on it,
    as a web page's "You lost!"): calibration keeps no frame with the toast in it, and play reads the ended
    game once the toast went, instead of stopping on cells it cannot read."""
    from sweepbot.playing.loop import Player
    from sweepbot.playing.settings import PlaySettings
    from sweepbot.playing.vision_reader import to_view
    from tests.tile_client import TOAST_BGR

    client = TileClient(seed=9, toast=1.6)
    session = calibrate(client, games=5)
    assert session.games == 5
    assert not any((frame == TOAST_BGR).all(axis=2).any() for frame in session.frames)
    cal = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                           geometries=[locate(session.frames[0])] * len(session.frames))[0]
    assert cal.misread == 0

    class Reader:
        """Reads the whole frame, or only the board where it was last read (as play's own reader does
        once it found the board: the toast then shows in the frame only where it lies over the board)."""

        def __init__(self) -> None:
            self.board: Rect | None = None

        def read(self, frame):  # type: ignore[no-untyped-def]
            view = to_view(read_screenshot(frame, profiles=[cal.profile]))
            self.board = view.bbox
            return view

        def area(self) -> Rect | None:
            return self.board

        def read_in_area(self, frame):  # type: ignore[no-untyped-def]
            return self.read(frame)

    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    player = Player(watcher(client, mouse), Reader(), PlaySettings(first_click="none", mines=10))
    assert player.finished_on_screen() is None  # as a session starts: the screen grabbed whole once
    for _ in range(3):
        report = player.play_game()
        assert report.error is None and report.result in ("won", "lost")
        assert report.result == client.game.state
        client.press(["f2"])  # the next game starts while the toast of this one still shows


@pytest.mark.slow
def test_a_dialog_over_the_board_at_a_loss_is_closed_with_escape_by_calibration_and_by_play() -> None:
    """A client that opens a modal dialog over the middle of its board at a loss ("Reset the game?",
    kmines), a window that takes every key and click until Escape closes it: calibration closes it, keeps no
    frame with it and stores Escape for play, which closes it too and reads the lost board."""
    from tests.tile_client import DIALOG_BGR

    client = TileClient(seed=9, dialog=True)
    session = calibrate(client, games=4)
    assert session.games == 4
    assert session.play.dismiss_keys == (("escape",),)
    assert not any((frame == DIALOG_BGR).all(axis=2).any() for frame in session.frames)
    cal = profile_true_to_the_games(client, session)
    assert_plays_through(client, cal, 4)


@pytest.mark.slow
def test_a_note_drawn_over_the_board_when_a_game_ends_is_waited_out() -> None:
    """When a game ends the drawn client shows a note over the middle of its board, in its own window, for
    a second and a half, and at a loss a dialog as well (kmines): calibration keeps no frame with the note,
    records each loss once the note went, and the profile it makes is true to the games."""
    from tests.tile_client import NOTE_BGR

    client = TileClient(seed=9, note=1.5, dialog=True, flags_at_win=True)
    session = calibrate(client, games=5)
    assert not any((frame == NOTE_BGR).all(axis=2).any() for frame in session.frames)
    assert sum(g.state == "lost" for g in client.games[:-1]) >= 2
    cal = profile_true_to_the_games(client, session)
    assert {"!", "1", "F"} <= {n.char for n in cal.names.values() if n.proved}
    assert_plays_through(client, cal, 4)


@pytest.mark.slow
def test_a_focus_ring_on_the_cell_clicked_last_is_no_change_and_no_look() -> None:
    """A client that draws a dotted ring around the cell clicked last (Tk's keyboard focus): the ring moving
    is not taken for cells that changed (no loss misjudged, no number named an exploded mine), and the profile
    reads boards with the ring on any cell exactly."""
    client = TileClient(seed=13, focus_ring=True)
    session = calibrate(client, games=6)
    exploded = {g.exploded for g in client.games if g.exploded}
    assert {(f.row, f.col) for f in session.facts if f.char == "!"} <= exploded
    geometry = locate(session.frames[0])
    cal = calibrate_frames(session.frames, "tile", session.facts, session.play, min_cells=1,
                           geometries=[geometry] * len(session.frames))[0]
    assert cal.misread == 0
    names = {n.char for n in cal.names.values() if n.proved}
    rng = random.Random(1)
    checked = 0
    for seed in range(60, 70):
        game = TileClient(seed=seed, focus_ring=True)
        for _ in range(rng.randint(1, 5)):
            covered = [(r, c) for r in range(9) for c in range(9) if game.game.view()[(r, c)] == "#"]
            game.click(*geometry.center(*rng.choice(covered)), "left")
            if game.game.state != "playing":
                break
        want = game.game.view().grid
        if not set("".join(want)) <= names:
            continue
        assert read_screenshot(game.grab(), profiles=[cal.profile]).board.grid == want
        checked += 1
    assert checked >= 3


@pytest.mark.slow
def test_a_client_that_shows_its_whole_board_at_a_loss_is_seen_to_lose() -> None:
    """At a loss the drawn client shows every cell, mines and numbers, as DangerUXB does; every covered cell
    changes at once, connected to the clicked one, which no opening does. Those games are losses: no
    covered cell is taken for opened, the exploded mine is the game's, and no game is counted won."""
    client = TileClient(seed=17, reveal_all=True, focus_ring=True)
    session = calibrate(client, games=6)
    cal = profile_true_to_the_games(client, session)
    assert {"#", ".", "1", "!", "F"} <= {n.char for n in cal.names.values() if n.proved}


@pytest.mark.slow
def test_a_win_that_shows_the_mines_as_a_loss_does_is_a_win_whatever_the_last_cell_opens_to() -> None:
    """At a win the drawn client shows the mines left as at a loss (mfranceschi-minesweeper); the last click
    may open a number never seen before, or an opening. Those games are wins: the cell clicked last is no
    exploded mine, and a loss with question marks over the last safe cells is still a loss."""
    client = TileClient(level="9x9/10", seed=3, mines_at_win=True)
    session = calibrate(client, games=6)
    assert sum(g.state == "won" for g in client.games[:-1]) >= 3
    profile_true_to_the_games(client, session)


def test_a_win_whose_last_click_shows_a_number_never_opened_before_is_a_win() -> None:
    """At a win the drawn client flags the mines left (sgt-mines does); the winning click may open a number
    no cell opened to before in the session. With no mark placed in that game and no cell left covered, the
    click won: it is no mine that went off, and the flags are no mines shown at a loss."""
    from sweepbot.calibration.live.choose import Chooser
    from sweepbot.calibration.live.game import QUESTION_GAMES, Click, LiveGame
    from sweepbot.calibration.live.run import find_board, learn_marks

    client = TileClient(seed=1, flags_at_win=True)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    board, tiles, frame = find_board(watcher(client, mouse))
    session = LiveSession()
    fact_log = FactLog(session, tiles, lambda _m: None, window_over=board.window_over)
    _, question_marks = learn_marks(board, tiles, fact_log, frame, lambda _m: None)
    assert tiles.flag_look is not None
    game = client.game
    # the last safe cell a 3 between three mines, with no empty cell beside it (no opening reaches it)
    last = (0, 1)
    game.place({(0, 0), (0, 2), (1, 1), (6, 6), (8, 3)})
    assert client.truth(*last) == "3"
    for cell in [(r, c) for r in range(game.rows) for c in range(game.cols)]:
        if cell != last and cell not in game.mines and game.view()[cell] == "#":
            game.open(cell)
    assert game.state == "playing" and game.covered_safe == 1
    rng = random.Random(0)
    play = LiveGame(QUESTION_GAMES, board, tiles, Chooser(tiles, rng), fact_log, rng, lambda _m: None, question_marks)
    before = board.watcher.grab()
    after, changed = play.click_taken(last, before)
    assert client.game.state == "won" and changed == {last} | game.mines
    assert tiles.new_look(after, last)  # no look was learnt from the cells opened outside calibration
    assert play.judge(last, changed, before, after) is Click.ON
    assert play.exploded is None
    facts = {(f.row, f.col): f.char for f in session.facts if f.frame == len(session.frames) - 1}
    assert facts == {last: "=", **dict.fromkeys(game.mines, "F")}


def test_a_win_that_leaves_the_mines_covered_and_opens_a_number_never_seen_is_no_loss_where_losses_show_mines(
        ) -> None:
    """The drawn client leaves the mines covered at a win (pygame-minesweeper does) and shows them at a loss;
    the winning click may open a number no cell opened to before in the session, and change no other cell.
    Before any loss showed the mines, that is a mine that went off as far as the board tells (no click is
    taken after either); once a loss in the session showed them, it is a number, and the game goes on to the
    click no longer taken: no mine that went off is named."""
    from sweepbot.calibration.facts import AT_LOSS
    from sweepbot.calibration.live.choose import Chooser
    from sweepbot.calibration.live.game import QUESTION_GAMES, Click, LiveGame
    from sweepbot.calibration.live.run import find_board, learn_marks

    for shown in (False, True):
        client = TileClient(seed=1)
        mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
        board, tiles, frame = find_board(watcher(client, mouse))
        session = LiveSession()
        fact_log = FactLog(session, tiles, lambda _m: None, window_over=board.window_over)
        _, question_marks = learn_marks(board, tiles, fact_log, frame, lambda _m: None)
        game = client.game
        last = (0, 1)  # the last safe cell a 3 between three mines, no empty cell beside it
        game.place({(0, 0), (0, 2), (1, 1), (6, 6), (8, 3)})
        for cell in [(r, c) for r in range(game.rows) for c in range(game.cols)]:
            if cell != last and cell not in game.mines and game.view()[cell] == "#":
                game.open(cell)
        if shown:
            fact_log.record(board.watcher.grab(), {(6, 6): AT_LOSS})  # as a loss earlier in the session did
        rng = random.Random(0)
        play = LiveGame(QUESTION_GAMES, board, tiles, Chooser(tiles, rng), fact_log, rng, lambda _m: None,
                        question_marks)
        before = board.watcher.grab()
        after, changed = play.click_taken(last, before)
        assert client.game.state == "won" and changed == {last} and tiles.new_look(after, last)
        assert (play.judge(last, changed, before, after) is Click.ON) is shown
        assert (play.exploded is None) is shown


@pytest.mark.slow
def test_a_win_whose_last_click_opens_an_area_while_the_mines_left_are_flagged_is_a_win() -> None:
    """At a win the drawn client flags the mines left and opens a dialog over the board (gnome-mines's
    scores); the last click may open an area. Those games are wins, with no flag taken for a mine shown at a
    loss."""
    client = TileClient(seed=3, flags_at_win=True, win_dialog=True)
    session = calibrate(client, games=6)
    assert any(n > 1 for n in client.winning_openings)
    assert session.play.dismiss_keys == (("escape",),)
    cal = profile_true_to_the_games(client, session)
    assert {"F", "!", "1"} <= {n.char for n in cal.names.values() if n.proved}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3])
def test_a_mine_an_opening_reaches_past_a_wrong_flag_is_no_mine_at_the_clicked_cell(seed: int) -> None:
    """The drawn client spreads an opening from every cell with as many flags around as its number, so past
    a wrong flag it may reach a mine, and at the loss takes the wrong flags off to show what they hid
    (DangerUXB). The cell clicked then is no exploded mine; a wrong flag's number agrees with the same number
    shown at the loss; the profile is true to the games."""
    client = TileClient(seed=seed, reveal_all=True, focus_ring=True, spread_past_flags=True)
    session = calibrate(client, games=3)
    assert client.spread_losses >= 1
    profile_true_to_the_games(client, session)


@pytest.mark.slow
def test_a_client_that_wants_the_mines_flagged_loses_on_a_mine_clicked_after_the_last_safe_cell() -> None:
    """The drawn client calls a game won only once every mine is flagged (DangerUXB): with every safe cell
    open, a click on a mine still loses, and shows the mines as its losses do. No such game is counted won,
    and the mine clicked is the exploded one."""
    client = TileClient(seed=7, reveal_all=True, flags_to_win=True)
    session = calibrate(client, games=6)
    played = client.games[:-1]
    assert sum(g.covered_safe == 0 for g in played) >= 2 and not any(g.state == "won" for g in played)
    profile_true_to_the_games(client, session)


@pytest.mark.slow
def test_a_client_whose_columns_widen_with_a_digit_is_followed_and_read() -> None:
    """A column is drawn 3 px wider once a number shows in it (mfranceschi-minesweeper): calibration follows
    the cells to where they are, so that its facts are the game's and its names are right; the profile it
    makes reads boards in play, whatever their columns' widths, or refuses a cell, but never misreads one."""
    client = TileClient(seed=19, widen=3)
    session = calibrate(client, games=6)
    assert session.play.cells_resize
    cal = profile_true_to_the_games(client, session)
    names = {n.char for n in cal.names.values() if n.proved}
    assert {"#", ".", "1", "2", "!"} <= names
    rng = random.Random(1)
    read = 0
    for seed in range(50, 58):
        game = TileClient(seed=seed, widen=3)
        for _ in range(rng.randint(1, 4)):
            covered = [(r, c) for r in range(9) for c in range(9) if game.game.view()[(r, c)] == "#"]
            game.game.open(rng.choice(covered))
            if game.game.state != "playing":
                break
        want = game.game.view().grid
        if game.game.state != "playing" or not set("".join(want)) <= names:
            continue
        try:
            reading = read_screenshot(game.grab(), profiles=[cal.profile])
        except ReadError as err:
            assert err.cells and all(want[r][c] in "12345678" for r, c in err.cells), str(err)
            continue
        assert reading.board.grid == want
        edges = game.column_edges(game.shown())  # clicks go where the cells are
        assert all(abs(a - b) <= 2 for a, b in zip(reading.geometry.xs, edges, strict=True)), edges
        read += 1
    assert read >= 4


def test_a_right_click_that_opens_a_context_menu_is_no_mark() -> None:
    """A web page that leaves the right button to the browser: a right-click opens a context menu at the
    pointer, in a window of its own, and marks nothing. Calibration closes the menu, keeps no frame with it,
    names no flag, and makes a profile true to the games."""
    from tests.tile_client import MENU_BGR

    client = TileClient(seed=9, context_menu=True)
    session = calibrate(client, games=3)
    assert client.menu_at is None
    assert not any((frame == MENU_BGR).all(axis=2).any() for frame in session.frames)
    assert not any(f.char in "F?" for f in session.facts)
    cal = profile_true_to_the_games(client, session)
    assert "F" not in {n.char for n in cal.names.values()}


@pytest.mark.slow
def test_covered_tiles_told_apart_from_opened_ones_by_a_bevel_of_a_pixel_are_named() -> None:
    """Every cell on one grey, a covered tile told apart only by light and dark lines of a pixel along its
    edges (a web page's Windows 98 look): opened empty cells and covered ones are kept apart, and the
    profile is true to the games."""
    client = TileClient(seed=9, thin_bevel=True)
    session = calibrate(client, games=4)
    cal = profile_true_to_the_games(client, session)
    assert {"#", "1", "*"} <= {n.char for n in cal.names.values() if n.proved}


@pytest.mark.slow
@pytest.mark.parametrize("zero,one_colour", [(True, False), (False, True), (True, True)])
def test_a_client_that_draws_empty_cells_as_0_or_every_digit_in_one_colour_is_named_from_its_games(
        zero: bool, one_colour: bool) -> None:
    """Empty open cells drawn as a 0, or every digit in one colour: the looks are told apart by their
    shapes, named by the counts the games prove (a 0 is an empty cell, its openings spread), and the profile
    reads boards of other games without a misread cell."""
    client = TileClient(seed=4, zero=zero, one_colour=one_colour)
    session = calibrate(client, games=5)
    cal = profile_true_to_the_games(client, session)
    names = {n.char for n in cal.names.values() if n.proved}
    assert {"#", ".", "1", "2"} <= names
    assert_reads_fresh_boards(cal, [TileClient(seed=s, zero=zero, one_colour=one_colour) for s in range(30, 42)])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 6])
def test_a_loss_that_shows_the_whole_board_but_a_cell_is_no_opening(seed: int) -> None:
    """A client that shows every cell at a loss, the last one drawn as it was: the cells that changed do not
    all lie next to cells drawn as the one clicked, so no opening spread to them, and a first click on a mine
    is a loss, not a win."""
    client = TileClient(seed=seed, reveal_all=True, last_stays=True)
    session = calibrate(client, games=5)
    profile_true_to_the_games(client, session)


def test_a_win_judged_under_a_note_is_judged_again_once_the_note_went() -> None:
    """At a win the drawn client flags the mines left and draws a note over the middle of its board (kmines,
    whose note fades in, so that it may lie over the board when the click is judged). The click judged on that
    screen looks like a loss; once the note went it is judged again, and is a win: the flags are recorded as
    flags, and no mine as gone off."""
    from sweepbot.calibration.facts import REVEALED
    from sweepbot.calibration.live.choose import Chooser
    from sweepbot.calibration.live.game import Click, LiveGame
    from sweepbot.calibration.live.run import find_board, learn_marks
    from sweepbot.calibration.live.session import FactLog
    from tests.tile_client import NOTE_BGR

    client = TileClient(seed=5, note=0.5, flags_at_win=True)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    board, tiles, frame = find_board(watcher(client, mouse))
    session, log = LiveSession(), []
    fact_log = FactLog(session, tiles, log.append, window_over=board.window_over)
    board.window = mouse.window_at(*board.region.center)
    learn_marks(board, tiles, fact_log, frame, log.append)
    # every safe cell opened but one, a number no empty cell opens (the mines are laid at the first click)
    client.game.open((4, 4))
    safe = [(r, c) for r in range(9) for c in range(9) if client.truth(r, c) != "*"]
    last = next(cell for cell in safe if client.truth(*cell) in "12" and client.game.view()[cell] == "#" and not any(
        abs(cell[0] - r) <= 1 and abs(cell[1] - c) <= 1 and client.truth(r, c) == "." for r, c in safe))
    for cell in safe:
        if cell != last and client.game.view()[cell] == "#":
            client.game.open(cell)
    assert client.game.covered_safe == 1
    before = board.last_frame = client.grab()
    fact_log.record(before, {cell: REVEALED for cell in safe if cell != last})
    board.notes_go = True  # a note was seen to go at an earlier game's end
    game = LiveGame(1, board, tiles, Chooser(tiles, random.Random(1)), fact_log, random.Random(1), log.append, False)
    after = board.click(last, "left")
    assert client.game.state == "won" and (after == NOTE_BGR).all(axis=2).any()
    assert game.judge(last, board.changes(before, after, last), before, after) is Click.LOST
    assert game.settle_loss() is not Click.LOST and game.exploded is None
    facts = {(f.row, f.col): f.char for f in session.facts if f.frame == len(session.frames) - 1}
    assert {cell for cell, ch in facts.items() if ch == "F"} == client.game.mines
    assert "!" not in facts.values()



@pytest.mark.slow
def test_open_cells_shaded_across_the_board_spread_as_an_opening() -> None:
    """The drawn client's open tiles show a background through them that grows lighter row by row (kmines):
    an empty cell far from the first one seen is drawn otherwise, but an opening still spreads through
    empty cells each drawn as its neighbour. No opening is taken for a loss (then taken back by another
    click), and the profile is true to the games."""
    client = TileClient(seed=5, shaded=True)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    log: list[str] = []
    session = LiveCalibration(watcher(client, mouse), games=5, seed=3, log=log.append).run()
    assert not [line for line in log if "misjudged" in line], log
    cal = profile_true_to_the_games(client, session)
    assert {"#", ".", "1", "!"} <= {n.char for n in cal.names.values() if n.proved}


def test_a_live_calibration_that_stops_keeps_its_record_and_the_screen_it_stopped_on(
        tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """`sweepbot calibrate --live --record DIR` that stops on an error (here: the drawn client's board does
    not answer after one game) exits non-zero with a message naming what is kept: the record, which a later
    run calibrates from, and the whole screen when it stopped, beside it."""
    import cv2

    from sweepbot.calibration.facts import CalibrationError
    from sweepbot.cli import main
    from sweepbot.watch import live

    client = TileClient(seed=11)

    class Grabber:
        origin = (0, 0)

        def __init__(self, route: str) -> None:
            assert route == "auto"

        def grab(self, region=None):  # type: ignore[no-untyped-def]
            return client.grab(region)

        def close(self) -> None:
            pass

    played = LiveCalibration.run

    def one_game_then_stuck(self):  # type: ignore[no-untyped-def]
        self.games = 1
        played(self)
        raise CalibrationError("the board does not answer")

    monkeypatch.setattr(live, "ScreenGrabber", Grabber)
    monkeypatch.setattr(live, "live_watcher",
                        lambda screen: watcher(client, BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))))
    monkeypatch.setattr(LiveCalibration, "run", one_game_then_stuck)
    monkeypatch.setenv("SWEEPBOT_PROFILES", str(tmp_path / "profiles"))
    record = tmp_path / "record"
    assert main(["calibrate", "--live", "--client", "drawn", "--yes", "--record", str(record)]) == 2
    err = capsys.readouterr().err
    assert "the board does not answer" in err and "what 1 game(s) showed is kept" in err
    assert str(record / "stopped.png") in err
    stopped = cv2.imread(str(record / "stopped.png"))
    assert stopped is not None and (stopped == client.grab()).all()
    assert len(load_session(record).frames) > 2
    assert main(["calibrate", "--recording", str(record), "--client", "drawn"]) == 0


@pytest.mark.slow
def test_a_client_whose_rows_shrink_once_opened_is_followed_and_read() -> None:
    """A row is drawn 2 px shorter once no covered cell is left in it (the web page's table rows): calibration
    follows the cells to where they are, so that its facts are the game's and its names are right (no win
    taken for a game in play, no covered look named a flag: a right-click opens a menu, and puts none); the
    profile reads boards in play with short rows, or refuses a digit it never learnt, but never misreads a
    cell."""
    client = TileClient(seed=5, thin_bevel=True, shrink=2, context_menu=True)
    session = calibrate(client, games=6)
    # games that ended with a row drawn short: no covered cell left in it
    assert sum(any("#" not in row and "F" not in row for row in g.view().grid) for g in client.games[:-1]) >= 2
    cal = profile_true_to_the_games(client, session)
    names = {n.char for n in cal.names.values() if n.proved}
    assert "F" not in names and {"#", ".", "1", "2"} <= names
    assert_reads_boards_of_uneven_cells(cal, names, [TileClient(seed=seed, thin_bevel=True, shrink=2)
                                                     for seed in range(60, 80)], random.Random(4), 8, across=False)


@pytest.mark.slow
def test_a_client_whose_columns_trade_width_is_followed_and_read() -> None:
    """Columns hand pixels to one another (a web page's table of fixed width): a column left with no covered
    cell is drawn 2 px narrower, those that hold one a pixel or two wider, a tile image stretched to its
    column, a digit centred at its own size. Calibration follows the cells (the board's outer size often
    stays the same), so that its facts are the game's and its names are right (a right-click puts no flag,
    and no look is named one); the profile reads boards in play, or refuses a digit it never learnt, but
    never misreads a cell."""
    client = TileClient(seed=7, thin_bevel=True, trade=2, context_menu=True)  # its games show digits up to 5
    session = calibrate(client, games=6)
    assert sum(len(set(np.diff(client.column_edges(g.view().grid)))) > 1 for g in client.games[:-1]) >= 2
    cal = profile_true_to_the_games(client, session)
    names = {n.char for n in cal.names.values() if n.proved}
    assert "F" not in names and {"#", ".", "1", "2"} <= names
    assert_reads_boards_of_uneven_cells(cal, names, [TileClient(seed=seed, thin_bevel=True, trade=2)
                                                     for seed in range(80, 100)], random.Random(5), 10, across=True)


def assert_reads_boards_of_uneven_cells(cal: Calibration, names: set[str], games: list[TileClient],
                                        rng: random.Random, most: int, across: bool) -> None:
    """Boards of ``games``, each after 2 to ``most`` safe cells opened as play would, whose columns (with
    ``across``, else rows) differ in size: the profile reads each exactly, clicks going where the cells are,
    or refuses only digits it never learnt; four at least are read."""
    read = 0
    for game in games:
        for _ in range(rng.randint(2, most)):
            safe = [(r, c) for r in range(9) for c in range(9)
                    if game.game.view()[(r, c)] == "#" and (r, c) not in game.game.mines]
            game.game.open(rng.choice(safe))
        want = game.game.view().grid
        edges = game.column_edges(want) if across else game.row_edges(want)
        if game.game.state != "playing" or len(set(np.diff(edges))) == 1:
            continue
        try:
            reading = read_screenshot(game.grab(), profiles=[cal.profile])
        except ReadError as err:
            assert err.cells and all(want[r][c] in "345678" and want[r][c] not in names for r, c in err.cells), str(err)
            continue
        assert reading.board.grid == want
        assert list(reading.geometry.xs if across else reading.geometry.ys) == edges
        read += 1
    assert read >= 4


def test_a_board_located_a_pixel_off_at_the_new_games_cell_sizes_is_not_taken_as_resized() -> None:
    """A won board located a pixel off, its last column a few pixels wider (sgt-mines, every cell open up to
    its frame): lined up, its cells are the new game's, so the board is not taken as one whose cells change
    size (which would have play locate the board on every frame)."""
    from sweepbot.calibration.live.follow import Follower
    from sweepbot.vision.geometry import Geometry

    frame = TileClient(seed=3).grab()
    layout = locate(frame)
    follower = Follower.of_new_game(layout, frame)
    off = Geometry((*(x + 1 for x in layout.xs[:-1]), layout.xs[-1] + 4),
                   (*(y + 1 for y in layout.ys[:-1]), layout.ys[-1] + 4))
    follower.locate = lambda _frame: off  # type: ignore[method-assign]
    drawn = follower.redraw(frame)
    assert not follower.resized and follower.shown == layout
    assert np.array_equal(drawn, frame)


def test_a_whole_board_shown_at_a_loss_and_located_a_pixel_off_is_not_taken_as_resized() -> None:
    """At a loss that shows every cell (DangerUXB) no cell looks as before, so lining the cells up proves
    nothing: a board located with its first row 2 px taller is not taken as one whose cells change size
    (play would then read every frame redrawn, its digits a row off)."""
    from sweepbot.calibration.live.follow import Follower
    from sweepbot.vision.geometry import Geometry

    client = TileClient(seed=3, reveal_all=True)
    layout = locate(client.grab())
    follower = Follower.of_new_game(layout, client.grab())
    client.game.open((4, 4))  # the mines are laid at the first click
    if client.game.state == "playing":
        client.game.open(sorted(client.game.mines)[0])
    frame = client.grab()
    assert client.game.state == "lost"
    off = Geometry(layout.xs, (layout.ys[0], *(y + 2 for y in layout.ys[1:])))
    follower.locate = lambda _frame: off  # type: ignore[method-assign]
    drawn = follower.redraw(frame)
    assert not follower.resized and follower.shown == layout
    assert np.array_equal(drawn, frame)


def test_a_whole_board_shown_at_a_loss_whose_rows_shrank_is_drawn_onto_the_layout() -> None:
    """A web page's table shows every cell at a loss, and each row left with no tile image shrinks: the board
    ends rows of pixels above where it did. No cell looks as before, but the located rows are further off the
    layout than a grid located a pixel off: the cells are drawn from where they are, as the same loss on a
    client whose rows keep their size shows them (the frame is kept, its mines learnt)."""
    from sweepbot.calibration.live.follow import Follower
    from sweepbot.calibration.live.session import intact

    frames = []
    for shrink in (2, 0):
        client = TileClient(seed=3, reveal_all=True, thin_bevel=True, shrink=shrink)
        layout = locate(client.grab())
        follower = Follower.of_new_game(layout, client.grab())
        client.game.open((4, 4))  # the mines are laid at the first click
        if client.game.state == "playing":
            client.game.open(sorted(client.game.mines)[0])
        assert client.game.state == "lost"
        frames.append(follower.redraw(client.grab()))
    shrunk, kept = frames
    assert follower.shown == layout and intact(shrunk, layout)
    x, y, w, h = layout.bbox
    board = (slice(y, y + h), slice(x, x + w))
    assert np.abs(shrunk[board].astype(int) - kept[board]).mean() < 2


def test_the_follower_tells_whether_the_frame_it_drew_last_shows_the_whole_board_where_it_was() -> None:
    """Calibration keeps only frames with the whole board in sight: the follower, which located the board to
    draw a frame, tells so for the frame it drew last, as locating the drawn frame again would."""
    from sweepbot.calibration.live.follow import Follower
    from sweepbot.calibration.live.session import intact

    client = TileClient(seed=3)
    frame = client.grab()
    layout = locate(frame)
    follower = Follower.of_new_game(layout, frame)
    x, y, w, h = layout.bbox
    hidden = frame.copy()
    hidden[y + h // 4 : y + 3 * h // 4, x - 20 : x + w + 20] = (200, 200, 200)  # a dialog across the board
    for shown, whole in ((frame, True), (hidden, False), (frame, True)):
        drawn = follower.redraw(shown)
        assert follower.whole(drawn) is whole
        assert intact(drawn, layout) is whole
        assert follower.whole(drawn.copy()) is None  # another frame: not known


@pytest.mark.parametrize("thin_bevel", [False, True])
def test_a_cell_drawn_a_pixel_off_has_not_changed_but_one_that_opened_has(thin_bevel: bool) -> None:
    """A table laid out anew draws its cells a pixel off where they were (a web page whose columns trade
    width, located a pixel off): such a cell has not changed, while a covered cell that opened has, even
    when the two differ only by a bevel of a pixel (a Windows 98 look)."""
    from sweepbot.calibration.live.driver import CellWindows
    from sweepbot.calibration.live.tiles import CHANGE_INSETS
    from tests.tile_client import tile

    before = TileClient(seed=3, thin_bevel=thin_bevel).grab()
    geometry = locate(before)
    after = before.copy()
    x, y, w, h = geometry.cell_rect(4, 4)
    after[y : y + h, x + 1 : x + w] = before[y : y + h, x : x + w - 1]  # drawn a pixel to the right
    x, y, w, h = geometry.cell_rect(1, 1)
    after[y : y + h, x : x + w] = tile(".", thin_bevel)  # opened, empty
    assert CellWindows(geometry, CHANGE_INSETS[0]).changed(before, after) == {(1, 1)}


def test_a_new_game_found_nowhere_is_shown_once_by_the_person_and_then_started_that_way() -> None:
    """A client whose only new game is a line of text (no button, no key): calibration tries every way it
    knows, then asks the person at the screen, watches where they click, and starts every later game there
    itself; play starts one the same way. With nobody to ask, it stops with a clear message instead."""
    from sweepbot.calibration.facts import CalibrationError
    from sweepbot.playing.newgame import start_new_game
    from tests.tile_client import NEW_GAME_LINK

    with pytest.raises(CalibrationError, match="found no way to start a new game"):
        calibrate(TileClient(seed=7, link=True), games=2)

    client = TileClient(seed=7, link=True)
    asked: list[str] = []

    def person(message: str) -> None:  # reads the message, then clicks the link, leaving the pointer there
        asked.append(message)
        client.click(NEW_GAME_LINK.x + 30, NEW_GAME_LINK.y + 8, "left")

    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    session = LiveCalibration(watcher(client, mouse), games=3, seed=3, ask=person).run()
    assert len(asked) == 1 and "start one yourself" in asked[0]
    assert session.games == 3 and len(client.games) == 4
    control = session.play.new_game_control
    assert control is not None and not session.play.new_game_keys
    link_clicks = [p for p in client.clicked if NEW_GAME_LINK.contains(*p)]
    assert len(link_clicks) == 3  # the person's once, then calibration's own for the next two games
    cal, Reader = profile_and_reader(session)
    board = locate(client.grab())
    play_out(client, board)
    games = len(client.games)
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    fresh = start_new_game(watcher(client, mouse), Reader(), cal.profile.play, Reader().read(client.grab()),
                           timeout=2.0)
    assert len(client.games) == games + 1 and fresh.board.count("#") == 81
    assert NEW_GAME_LINK.contains(*client.clicked[-1])


def test_a_client_that_takes_only_a_held_press_is_found_to_and_played_with_the_shortest_hold() -> None:
    """The drawn client takes a click only with the button held 0.2 s (a page that opens a cell on a long
    press): calibration's first click, taken by nothing, is sent again held longer and longer; the shortest
    hold it took (0.25 s of the holds tried) is kept in the rules for play, every game is played with it,
    and play holds the button as long. Its marks, asked for before the hold was known, are asked for again."""
    from sweepbot.playing.loop import Player
    from sweepbot.playing.settings import settings_for
    from sweepbot.vision.rules import PlayRules

    client = TileClient(seed=7, hold=0.2)
    session = calibrate(client, games=2)
    assert session.play.press_hold == 0.25
    assert session.games == 2 and all(g.state in ("won", "lost") for g in client.games[:-1])
    assert PlayRules.from_json(session.play.to_json()).press_hold == 0.25
    cal, Reader = profile_and_reader(session)
    assert cal.profile.play.press_hold == 0.25
    # the right-clicks before the hold was known were taken by nothing: asked again with it, they show a flag
    assert "F" in {n.char for n in cal.names.values() if n.proved}
    mouse = BoardInput(client, mapping_for(SCREEN, (0, 0), SCREEN))
    clicks = len(client.clicked)
    with contextlib.suppress(SweepbotError):  # a digit the two games did not show stops it: no matter here
        Player(watcher(client, mouse), Reader(), settings_for(cal.profile.play, max_seconds=5.0)).play_game()
    assert len(client.clicked) > clicks  # play's clicks held the button: taken
    quick = TileClient(seed=7, hold=0.2)
    report = Player(watcher(quick, BoardInput(quick, mapping_for(SCREEN, (0, 0), SCREEN))), Reader(),
                    settings_for(PlayRules("none"), max_seconds=5.0)).play_game()
    assert report.result not in ("won", "lost") and quick.clicked == []  # plain clicks: nothing taken


def test_a_board_beside_a_larger_grid_is_calibrated_and_the_grid_never_clicked() -> None:
    """A chessboard beside the drawn client's board, a larger grid of cells than the board: calibration takes
    the grid that shows a new game (one look everywhere) for the board, keeps its frames (the board in sight
    where it was), calibrates the client true to its games, and sends no click to the chessboard."""
    client = TileClient(seed=11, chessboard=36)
    frame = client.grab()
    assert grids(frame).ranked[0].bbox[0] > ORIGIN[0] + 200  # the chessboard is the likeliest grid
    session = calibrate(client, games=3)
    assert session.games == 3 and session.frames
    profile_true_to_the_games(client, session)
    box = client.chessboard_box()
    assert not [xy for xy in client.clicked if box.contains(*xy)]


def test_a_new_game_that_opens_most_of_its_board_by_itself_is_known_by_the_cells_it_covers_again() -> None:
    """The drawn client opens an area by itself at each game's start (xdemineur); on a board of 10 mines in
    81 cells its second game opens three quarters of it, so that most cells are no longer covered. The new
    game is known by the cells open at the last game's end that are covered again (a new game not known would
    leave the screen's change taken for a menu, closed with Escape, which quits this client)."""
    client = TileClient(level="9x9/10", seed=5, opens_at_start=True, quits_on_escape=True)
    session = calibrate(client, games=3)
    assert not client.ended and session.games == 3
    assert max(client.opened_at_start[1:]) > 81 / 2  # a game after the first opened most of its board itself
    profile_true_to_the_games(client, session)


def test_a_control_whose_new_game_is_not_known_is_never_answered_with_escape_into_the_clients_own_window(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The "New" button starts a game that calibration does not know as new (as xdemineur's first games may
    look, before any opened cell's look is known): the screen changed, as a menu opening changes it. With the
    board's own window holding the keyboard and nothing over the board, Escape would go to the client itself,
    which quits on it: it is never pressed, and calibration stops saying it found no way to a new game, the
    client still running."""
    from sweepbot.calibration.facts import CalibrationError
    from sweepbot.calibration.live.newgame import NewGame
    from tests.tile_client import NEW_GAME_BUTTON

    client = TileClient(seed=7, button=True, quits_on_escape=True, tells_focus=True)
    monkeypatch.setattr(NewGame, "started", lambda self, frame, ended: False)
    with pytest.raises(CalibrationError, match="found no way to start a new game"):
        calibrate(client, games=3)
    assert not client.ended and len(client.games) >= 2  # the button's game started, unknown
    assert any(NEW_GAME_BUTTON.contains(*xy) for xy in client.clicked)
