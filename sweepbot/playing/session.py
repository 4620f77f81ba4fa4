"""Several games in a row: play one, notice its end, start the next the client's way, sum it all up; and a whole
session on the board a watcher sees, as ``sweepbot play`` runs it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sweepbot.control.errors import ControlError
from sweepbot.errors import Interrupted, SweepbotError
from sweepbot.game import won_board_three_bv
from sweepbot.playing.loop import Player
from sweepbot.playing.newgame import NoNewGame, start_new_game
from sweepbot.playing.record import Recorder
from sweepbot.playing.settings import GameReport, PlaySettings, settings_for
from sweepbot.playing.timing import TimeSplit
from sweepbot.playing.view import Reader
from sweepbot.threads import on_one_thread
from sweepbot.vision.rules import PlayRules
from sweepbot.watch import Watcher

if TYPE_CHECKING:
    from sweepbot.playing.vision_reader import VisionReader


@dataclass
class SessionSummary:
    games: int = 0
    wins: int = 0
    losses: int = 0
    errors: int = 0
    clicks: int = 0
    missed_clicks: int = 0  # clicks the client did not take, sent again (not counted in ``clicks``)
    refused_clicks: int = 0  # clicks the board guard refused (always 0 unless something is wrong)
    seconds: float = 0.0
    three_bv_per_second: list[float] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    per_game: list[dict[str, object]] = field(default_factory=list)
    time: TimeSplit = field(default_factory=TimeSplit)

    def add(self, report: GameReport) -> None:
        self.per_game.append({"result": report.result, "clicks": report.clicks, "missed_clicks": report.missed,
                              "moves": report.moves, "seconds": round(report.seconds, 3),
                              "ms": report.time.to_json(),
                              **({"error": report.error} if report.error else {})})
        self.games += 1
        self.time.add(report.time)
        self.clicks += report.clicks
        self.missed_clicks += report.missed
        if report.result == "won":
            self.wins += 1
            if report.final is not None and report.seconds > 0:
                self.three_bv_per_second.append(won_board_three_bv(report.final) / report.seconds)
        elif report.result == "lost":
            self.losses += 1
        else:
            self.errors += 1
            if report.error:
                self.messages.append(report.error)

    def to_json(self) -> dict[str, object]:
        rates = self.three_bv_per_second
        return {
            "games": self.games, "wins": self.wins, "losses": self.losses, "errors": self.errors,
            "clicks": self.clicks, "missed_clicks": self.missed_clicks,
            "refused_clicks": self.refused_clicks, "seconds": round(self.seconds, 3),
            "three_bv_per_second": round(sum(rates) / len(rates), 3) if rates else None,
            "messages": self.messages, "ms": self.time.to_json(), "per_game": self.per_game,
            **({"error": self.messages[0]} if self.messages else {}),
        }


@on_one_thread
def play(games: int = 1, profile: str | None = None, settings: PlaySettings | None = None,
         record: str | None = None, progress: Callable[[int, GameReport], None] | None = None,
         route: str = "auto", watcher: Watcher | None = None) -> SessionSummary:
    """Play ``games`` games of the Minesweeper board on the screen, read with ``profile`` (a profile's or a
    client's name; None: whichever fits), each next one started the client's way, keeping a recording in the
    folder ``record``; the screen seen and clicked through ``route`` (docs/screens.md; ``auto``: the one that
    shows a board here), or through ``watcher``: a screen and an input device of your own
    (:meth:`Watcher.of`). ``settings`` default to the client's rules. Raises SweepbotError when no board can be
    read on screen; a control error when a person takes the mouse."""
    from sweepbot.playing.vision_reader import VisionReader

    if watcher is not None:
        return _play_on(watcher, VisionReader(profile), games, settings, record, progress)
    from sweepbot.watch.live import ScreenGrabber, live_watcher

    screen = ScreenGrabber(route)
    try:
        reader = VisionReader(profile)  # an unknown profile is refused before any input device opens
        return _play_on(live_watcher(screen), reader, games, settings, record, progress)
    finally:
        screen.close()


def _play_on(watcher: Watcher, reader: VisionReader, games: int, settings: PlaySettings | None, record: str | None,
             progress: Callable[[int, GameReport], None] | None) -> SessionSummary:
    reader.read(watcher.off_board(watcher.screen.grab()))  # refuses clearly when no board is on screen
    rules = reader.profile.play if reader.profile else PlayRules()
    settings = settings or settings_for(rules)
    recorder = Recorder(Path(record), settings.strategy.name, settings.first_click,
                        profile_of=lambda: reader.profile) if record else None
    return play_games(watcher, reader, settings, games, rules, recorder, progress)


def play_games(watcher: Watcher, reader: Reader, settings: PlaySettings, games: int = 1, rules: PlayRules | None = None,
               recorder: Recorder | None = None,
               progress: Callable[[int, GameReport], None] | None = None) -> SessionSummary:
    """Play ``games`` games on the board ``watcher`` sees, read by ``reader``, each next one started by the
    client's ``rules``."""
    player = Player(watcher, reader, settings, recorder)
    known = rules or PlayRules()

    def new_game(report: GameReport) -> None:
        if recorder:
            recorder.new_game()
        if report.final_view is None:
            raise SweepbotError("the last game did not end on a readable board")
        try:
            start_new_game(watcher, reader, known, report.final_view, waits=settings.waits,
                           with_mines=settings.with_mines)
        except NoNewGame as err:
            if recorder and err.frame is not None:
                kept = recorder.diagnostic(err.frame, [str(err)])
                raise SweepbotError(f"{err} (the last screen is kept in {kept})") from err
            raise

    return play_session(player, games, new_game, progress)


def play_session(player: Player, games: int, new_game: Callable[[GameReport], None],
                 progress: Callable[[int, GameReport], None] | None = None) -> SessionSummary:
    """Play ``games`` games; after each finished one (but the last) call ``new_game`` with its report, and
    before the first when the board on screen shows a game over already.
    A failure that makes further input unsafe (the user took over, a click refused, no display) and Ctrl-C
    end the session with an error that carries the summary of the games played (``partial``)."""
    summary = SessionSummary()
    start = time.monotonic()
    try:
        _play_games(player, games, new_game, progress, summary)
    except (ControlError, KeyboardInterrupt) as err:
        stop = err if isinstance(err, ControlError) else Interrupted("interrupted")
        stop.partial = _finish(summary, player, start).to_json()
        raise stop from None
    return _finish(summary, player, start)


def _finish(summary: SessionSummary, player: Player, start: float) -> SessionSummary:
    summary.seconds = time.monotonic() - start
    summary.refused_clicks = player.mouse.refused if player.mouse else 0
    return summary


def _play_games(player: Player, games: int, new_game: Callable[[GameReport], None],
                progress: Callable[[int, GameReport], None] | None, summary: SessionSummary) -> None:
    finished = player.finished_on_screen()
    if finished is not None:
        new_game(finished)  # the board on screen is a game over already: not one of the games to play
    for number in range(games):
        clicks_before = player.mouse.clicks if player.mouse else 0
        try:
            report = player.play_game()
        except ControlError:
            raise
        except SweepbotError as err:
            report = GameReport(result="error", error=str(err))
            if player.mouse:
                report.clicks = player.mouse.clicks
        report.clicks -= clicks_before
        summary.add(report)
        if progress:
            progress(number + 1, report)
        if report.result == "error":
            break
        if number + 1 < games:
            try:
                new_game(report)
            except ControlError:
                raise
            except SweepbotError as err:
                summary.messages.append(f"could not start game {number + 2}: {err}")
                summary.errors += 1
                break
