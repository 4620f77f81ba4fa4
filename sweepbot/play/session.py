"""Several games in a row: play one, notice its end, start the next the client's way, sum it all up."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sweepbot.control.errors import ControlError
from sweepbot.errors import Interrupted, SweepbotError
from sweepbot.game import won_board_three_bv
from sweepbot.play.loop import Player
from sweepbot.play.settings import GameReport
from sweepbot.play.timing import TimeSplit


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
