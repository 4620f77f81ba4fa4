"""The command-line contract of `sweepbot solve` and `sweepbot bench` (docs/formats.md)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sweepbot.cli import main


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_solve_json_one_object_per_file_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = write(tmp_path, "a.board", "mines: 2\n\n###\n121\n...\n")
    second = write(tmp_path, "b.board", "mines: 10\n\n" + "#########\n" * 9)
    assert main(["solve", "--json", first, second]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    one, two = (json.loads(line) for line in lines)
    assert set(one) >= {"safe", "mines", "probabilities", "move", "ms"}
    assert one["safe"] == [[0, 1]] and one["mines"] == [[0, 0], [0, 2]]
    assert one["probabilities"][1] == [None, None, None] and one["probabilities"][0] == [1.0, 0.0, 1.0]
    assert one["move"] == {"action": "open", "cell": [0, 1]}
    assert isinstance(one["ms"], float)
    assert two["move"] == {"action": "open", "cell": [3, 3]} and two["safe"] == []
    assert two["probabilities"][0][0] == pytest.approx(10 / 81)


def test_solve_mines_option_overrides_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "c.board", "mines: 2\n\n1##\n###\n")
    assert main(["solve", "--json", "--mines", "1", board]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["safe"] == [[0, 2], [1, 2]]


def test_solve_text_shows_a_probability_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "d.board", "mines: 2\n\n###\n121\n...\n")
    assert main(["solve", board]) == 0
    out = capsys.readouterr().out
    assert "1 safe, 2 certain mines, move: open (0, 1)" in out
    assert "   0    *  ok   *" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("###\n##\n", "line 2, column 2"),
        ("mines: many\n\n###\n", "line 1"),
        ("mines: 1\n\n2#\n##\n", "no placement"),
    ],
)
def test_solve_bad_boards_exit_non_zero_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    good = write(tmp_path, "good.board", "1#\n##\n")
    bad = write(tmp_path, "bad.board", text)
    assert main(["solve", "--json", bad, good]) == 2
    captured = capsys.readouterr()
    assert "bad.board" in captured.err and message in captured.err and "Traceback" not in captured.err
    answers = [json.loads(line) for line in captured.out.strip().splitlines()]  # one per file, in order
    assert len(answers) == 2 and answers[0]["file"] == bad and message in answers[0]["error"]
    assert "error" not in answers[1] and answers[1]["move"]["action"] == "open"  # the good file is still answered


def test_solve_missing_file_and_console_entry_point(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "sweepbot", "solve", str(tmp_path / "nope.board")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "cannot read the board file" in result.stderr
    assert "Traceback" not in result.stderr


def bench(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["bench", "--json", "--workers", "1", *args]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_bench_json_contract_and_same_seed_same_result(capsys: pytest.CaptureFixture[str]) -> None:
    one = bench(capsys, "--level", "beginner", "--games", "40", "--seed", "3")
    assert set(one) >= {"games", "wins", "win_rate", "ci95", "ms_per_move", "ms_per_game_mean"}
    assert one["strategy"] == "full" and one["first_moves"] == [[3, 3]]
    assert one["games"] == 40 and 20 <= int(one["wins"]) <= 40  # type: ignore[call-overload]
    lo, hi = one["ci95"]  # type: ignore[misc]
    assert lo <= one["win_rate"] <= hi
    assert set(one["ms_per_move"]) == {"p50", "p99", "max"}  # type: ignore[arg-type]
    again = bench(capsys, "--level", "beginner", "--games", "40", "--seed", "3")
    assert again["wins"] == one["wins"]


def test_bench_first_move_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    result = bench(capsys, "--level", "9x9/10", "--games", "20", "--first-click", "none", "--first-move", "0,0")
    assert result["games"] == 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "giant"], "unknown level"),
        (["--first-move", "40,1"], "outside"),
        (["--first-move", "x"], "ROW,COL"),
        (["--games", "0"], "at least 1"),
        (["--workers", "0"], "--workers must be from 1"),
        (["--workers", "100000"], "--workers must be from 1"),
    ],
)
def test_bench_bad_options(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["bench", *args]) == 2
    assert message in capsys.readouterr().err
    assert main(["bench", *args, "--json"]) == 2
    assert message in json.loads(capsys.readouterr().out)["error"]


@pytest.mark.parametrize("command", [["bench", "--games", "100000", "--workers", "2"], ["solve", "-"]])
def test_ctrl_c_stops_any_command_with_a_message_and_a_json_answer(command: list[str]) -> None:
    """Ctrl-C reaches the whole process group, as in a terminal: a message, exit 2, no traceback."""
    # as from a terminal: Ctrl-C at its default action (a suite run as a background job ignores it, and so
    # would the command)
    proc = subprocess.Popen([sys.executable, "-m", "sweepbot", *command, "--json"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)  # the bench's workers are playing; solve waits for its board on stdin
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err, err[-2000:]
    assert err.strip().endswith("interrupted") and json.loads(out) == {"error": "interrupted"}
