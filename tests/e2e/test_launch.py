"""End-to-end checks of the harness: a virtual display, and each real client launched, painted, clicked, closed.

Skipped only when Xvfb is missing (the test command installs it with scripts/install-clients).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from sweeplab import VirtualDisplay, launch_client
from sweeplab.display import display_in_use
from tests.e2e.conftest import need

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def _xvfb_installed(request: pytest.FixtureRequest) -> None:
    need(request)


def _group_members(pgid: int) -> list[int]:
    """Live processes (zombies left out) in process group ``pgid``."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purposes.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


@pytest.fixture(scope="module")
def display() -> Iterator[VirtualDisplay]:
    with VirtualDisplay(1024, 768) as vd:
        yield vd


def test_display_starts_answers_and_stops_cleanly() -> None:
    vd = VirtualDisplay(800, 600)
    with vd:
        assert vd.is_running()
        number = vd.number
        assert number is not None and number >= 90
        env = vd.env
        assert env["DISPLAY"] == f":{number}"
        assert env["DBUS_SESSION_BUS_ADDRESS"].startswith("unix:")
        info = subprocess.run(["xdpyinfo"], env=env, capture_output=True, text=True, check=True).stdout
        assert "800x600 pixels" in info
        wm = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True, text=True)
        assert "window id" in wm.stdout
        pids = [p.pid for p in (vd._xvfb, vd._wm, vd._bus) if p is not None]
        assert len(pids) == 3
    assert not vd.is_running()
    assert not any(_alive(pid) for pid in pids)
    assert not display_in_use(number)


def test_exported_sets_and_restores_display(display: VirtualDisplay) -> None:
    old = os.environ.get("DISPLAY")
    with display.exported():
        assert os.environ["DISPLAY"] == display.name
        subprocess.run(["xdpyinfo"], capture_output=True, check=True)
    assert os.environ.get("DISPLAY") == old


def test_display_stops_everything_on_error() -> None:
    vd = VirtualDisplay(640, 480)
    with pytest.raises(RuntimeError), vd:
        pids = [p.pid for p in (vd._xvfb, vd._wm, vd._bus) if p is not None]
        raise RuntimeError("boom")
    assert not any(_alive(pid) for pid in pids)


def test_gnome_mines_custom_size(display: VirtualDisplay) -> None:
    with launch_client(display, "gnome-mines", "10x6/12") as game:
        grid = game.grid()
        assert (grid.rows, grid.cols) == (6, 10)
        assert game.level == "10x6/12"


def test_sgt_mines_seed_gives_the_same_board(display: VirtualDisplay) -> None:
    boards = []
    for _ in range(2):
        with launch_client(display, "sgt-mines", "9x9/10", seed="12345") as game:
            game.click_cell(4, 4)
            boards.append(game.screen.grab(game.board_rect()))
    assert np.array_equal(boards[0], boards[1])


def test_two_displays_get_different_numbers() -> None:
    with (
        VirtualDisplay(320, 240, window_manager=False, dbus=False) as a,
        VirtualDisplay(320, 240, window_manager=False, dbus=False) as b,
    ):
        assert a.number != b.number


CASES = [
    ("xdemineur", "12x9/10", {}),
    ("sgt-mines", "beginner", {"seed": "1", "tile_size": 16}),
    ("ace-minesweeper", "1", {}),
    ("gnome-mines", "small", {}),
    ("pygame-minesweeper", "basic", {}),
    ("nicegui-minesweeper", "beginner", {}),
    ("dangeruxb", "beginner", {}),
    ("mfranceschi-minesweeper", "easy", {}),
]
#: How far (per channel) a fresh board may differ from the first one: Chromium draws the tiles' rounded,
#: shadowed corners a few levels apart from one paint to the next.
NEW_BOARD_TOLERANCE = {"nicegui-minesweeper": 8}
#: A painted board's pixels spread at least this much (standard deviation of its channels).
PAINTED_STD = 2.0


@pytest.mark.parametrize(("name", "level", "options"), CASES, ids=[c[0] for c in CASES])
def test_client_launches_paints_plays_and_closes(
    display: VirtualDisplay, name: str, level: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an empty temporary folder with a short path (a browser's socket path must stay under 108 bytes)
    temp = Path(tempfile.mkdtemp(prefix="swb-", dir="/tmp"))
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    game = launch_client(display, name, level, **options)  # type: ignore[arg-type]
    try:
        assert game.is_running()
        win = game.window_geometry()
        assert win.w >= 100 and win.h >= 100
        assert win.x >= 0 and win.y >= 0 and win.x + win.w <= 1024 and win.y + win.h <= 768
        board = game.board_rect()
        assert win.contains(board.x, board.y) and win.contains(board.x + board.w - 1, board.y + board.h - 1)
        before = game.screen.grab(board)
        # an unpainted board is one flat colour; nicegui-minesweeper's flat grey tiles make the least contrast
        assert float(before.std()) > PAINTED_STD, "the board is not painted"
        rows, cols = game.size.rows, game.size.cols
        # xdemineur opens an area by itself (it can reach most of a small board): click cells in a scattered
        # order until a covered one answers
        for k in range(rows * cols):
            after = game.click_cell((rows // 2 + k) % rows, (cols // 2 + 5 * k) % cols)
            if after is not None and not np.array_equal(before, after):
                break
        else:
            pytest.fail("no click on the board changed it")
        game.new_game()
        fresh = game.screen.grab(game.board_rect())
        assert float(fresh.std()) > PAINTED_STD
        if name != "xdemineur":  # xdemineur opens a new random area by itself; the others start all covered
            assert fresh.shape == before.shape
            difference = int(np.abs(fresh.astype(np.int16) - before).max())
            assert difference <= NEW_BOARD_TOLERANCE.get(name, 0), "new_game did not bring back a covered board"
        pid = game.proc.pid
    finally:
        game.close()
    assert not game.is_running()
    assert not _alive(pid)
    assert _group_members(pid) == [], "the client left processes behind (a browser, a server)"
    left = list(temp.iterdir())
    shutil.rmtree(temp)
    assert left == [], "the client left temporary files behind"


def test_every_click_reaches_the_game_under_a_window_manager_that_grabs_the_buttons(
    display: VirtualDisplay, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openbox (stock settings) holds each press until it has focused and raised the window: left clicks
    (xdemineur opens a cell when the button is released) sent through the bot's input device one right after
    the other still all arrive."""
    from sweepbot.control.x11 import XTestDevice
    from sweepbot.playing.vision_reader import VisionReader
    from sweepbot.solver import solve

    monkeypatch.setenv("XAUTHORITY", os.devnull)
    clicked: list[tuple[int, int]] = []
    not_taken: list[tuple[int, int]] = []
    with launch_client(display, "xdemineur", "30x16/60") as game:
        device = XTestDevice(display.name)
        reader = VisionReader()
        try:
            for _ in range(12):  # certain safe cells, in batches, until 30 were clicked
                view = reader.read(game.screen.grab())
                safe = solve(view.board, first_click="none").safe
                if len(clicked) >= 30:
                    break
                if not safe:  # the area the game opened at start gave nothing certain: another game
                    game.new_game()
                    continue
                for cell in safe:
                    x, y = view.centre(cell)
                    device.click(round(x), round(y), "left")
                game.park_pointer()
                time.sleep(0.3)
                board = reader.read(game.screen.grab()).board
                clicked += safe
                not_taken += [cell for cell in safe if board.grid[cell[0]][cell[1]] == "#"]
        finally:
            device.close()
    assert len(clicked) >= 10, "too few safe cells to click on these boards"
    assert not_taken == []


def test_the_window_at_a_point_is_the_client_area_of_the_window_on_top_as_windows_come_and_go(
    display: VirtualDisplay, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Calibration asks which window lies over the board after each click: the game's client area (inside
    openbox's frame and title bar), a dialog's once one opens over it, and the game's again once it closed,
    however often it is asked."""
    from sweepbot.control.x11 import XTestDevice
    from sweepbot.vision.locate import locate

    monkeypatch.setenv("XAUTHORITY", os.devnull)
    with launch_client(display, "xdemineur", None) as game:
        bx, by, bw, bh = locate(game.screen.grab()).bbox
        centre = (bx + bw // 2, by + bh // 2)
        device = XTestDevice(display.name)
        try:
            own = device.window_at(*centre)
            assert own is not None
            x, y, w, h = own
            assert x <= bx and y <= by and bx + bw <= x + w and by + bh <= y + h
            assert y > 0, "the title bar above the client area is left out"
            assert [device.window_at(*centre) for _ in range(3)] == [own] * 3
            note = subprocess.Popen(["xmessage", "-geometry", f"+{centre[0] - 20}+{centre[1] - 20}", "a note"],
                                    env=display.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and device.window_at(*centre) == own:
                    time.sleep(0.1)
                other = device.window_at(*centre)
                assert other is not None and other != own
                assert other[2] * other[3] < w * h
            finally:
                note.kill()
                note.wait()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and device.window_at(*centre) != own:
                time.sleep(0.1)
            assert device.window_at(*centre) == own
        finally:
            device.close()


def test_a_demo_stopped_with_sigterm_closes_its_screen_and_client_and_leaves_nothing(tmp_path: Path) -> None:
    """`kill PID` (SIGTERM) on a running demo stops it as Ctrl-C does: exit 2 with a message, the virtual
    screen and the client closed, nothing left in TMPDIR."""
    import signal
    import sys

    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp))
    env.pop("DISPLAY", None)
    proc = subprocess.Popen([sys.executable, "-m", "sweeplab.demo", "--client", "xdemineur", "--games", "50",
                             "--out", str(tmp_path / "out")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(p.name.startswith("sweepbot-xdemineur") for p in temp.iterdir()):
            time.sleep(0.2)
        assert any(p.name.startswith("sweepbot-xdemineur") for p in temp.iterdir()), "the demo did not start"
        time.sleep(2.0)  # playing
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 2, err
    assert "terminated" in err
    assert _group_members(proc.pid) == [], "the demo left processes behind"
    assert list(temp.iterdir()) == []
