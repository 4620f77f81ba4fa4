"""Playing simulated games with the solver: one game at a time, and many in parallel for benchmarks."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from sweepbot.board import Cell
from sweepbot.game import Game, Level
from sweepbot.solver import solve
from sweepbot.solver.strategy import FULL, Strategy


@dataclass(frozen=True)
class GameResult:
    seed: int
    won: bool
    solve_ms: list[float]
    game_ms: float
    three_bv: int
    guesses: int
    first: Cell | None = None


@dataclass(frozen=True)
class BenchSettings:
    level: Level
    first_click: str = "opening"
    first_move: Cell | None = None
    seed: int = 1
    strategy: Strategy = FULL


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run: fixed by the run's seed alone, whatever the solver does."""
    return seed * 1_000_003 + index


def play_game(settings: BenchSettings, seed: int) -> GameResult:
    """Play one simulated game to its end with the solver; every certain safe cell is opened in turn."""
    game = Game(settings.level, seed, settings.first_click)
    solve_ms: list[float] = []
    guesses = 0
    first: Cell | None = settings.first_move
    start = time.perf_counter()
    if settings.first_move is not None:
        game.open(settings.first_move)
    while game.state == "playing":
        analysis = solve(game.view(), first_click=settings.first_click, strategy=settings.strategy)
        solve_ms.append(analysis.ms)
        if analysis.safe:
            for cell in analysis.safe:
                game.open(cell)
                if game.state != "playing":
                    break
            continue
        move = analysis.move
        if move is None:
            break
        if move.action == "flag":
            game.flag(move.cell)
            continue
        guesses += 1
        first = first or move.cell
        game.open(move.cell)
    game_ms = (time.perf_counter() - start) * 1000
    return GameResult(seed, game.state == "won", solve_ms, game_ms, game.three_bv(), guesses, first)


def _play_indexed(args: tuple[BenchSettings, int]) -> GameResult:
    settings, index = args
    return play_game(settings, game_seed(settings.seed, index))


def play_many(settings: BenchSettings, games: int, workers: int | None = None) -> Iterator[GameResult]:
    """Results of ``games`` games, played over ``workers`` processes (all cores by default), in order."""
    workers = workers or os.cpu_count() or 1
    jobs = [(settings, i) for i in range(games)]
    if workers == 1:
        yield from map(_play_indexed, jobs)
        return
    pool = multiprocessing.Pool(workers, initializer=_worker_signals)
    try:
        yield from pool.imap(_play_indexed, jobs, chunksize=max(1, min(50, games // (workers * 8) or 1)))
        pool.close()
    except BaseException:
        pool.terminate()  # stopped early (Ctrl-C): the workers end at once, their games unfinished
        raise
    finally:
        pool.join()


def _worker_signals() -> None:
    """In a worker: Ctrl-C is the parent's to handle, and the parent ends its workers with SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% confidence interval of a win rate (Wilson score)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class BenchSummary:
    games: int
    wins: int
    solve_ms: list[float]
    game_ms: list[float]
    outcomes: list[bool] = field(default_factory=list)
    first_moves: set[Cell] = field(default_factory=set)

    @classmethod
    def collect(cls, results: Iterator[GameResult], progress: Callable[[], None] | None = None) -> BenchSummary:
        summary = cls(0, 0, [], [])
        for result in results:
            summary.games += 1
            summary.wins += result.won
            summary.solve_ms += result.solve_ms
            summary.game_ms.append(result.game_ms)
            summary.outcomes.append(result.won)
            if result.first is not None:
                summary.first_moves.add(result.first)
            if progress:
                progress()
        return summary

    def to_json(self) -> dict[str, object]:
        lo, hi = wilson_interval(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 5) if self.games else 0.0,
            "ci95": [round(lo, 5), round(hi, 5)],
            "ms_per_move": {
                "p50": round(percentile(self.solve_ms, 50), 3),
                "p99": round(percentile(self.solve_ms, 99), 3),
                "max": round(max(self.solve_ms, default=0.0), 3),
            },
            "ms_per_game_mean": round(sum(self.game_ms) / len(self.game_ms), 3) if self.game_ms else 0.0,
        }


def paired_difference(first: list[bool], second: list[bool], z: float = 1.959964) -> tuple[float, float, float]:
    """Win-rate difference (second - first) on the same games, with its 95% interval (normal, paired)."""
    n = len(first)
    diffs = [int(b) - int(a) for a, b in zip(first, second, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half
