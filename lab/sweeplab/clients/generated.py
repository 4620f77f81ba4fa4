"""Generated clients: ``generated-SEED``, a client made from a seed (``sweeplab.generated``), a Tk window
for even seeds and a page in Chromium for odd ones, started on ``launchers/generated_window.py`` or
``launchers/generated_page.py`` with its make-up written into its home.

Each keeps its truth in ``truth.json`` in its home: every cell's true look, the game's state, and where the
board and the new-game control are in its window. The harness reads its grid and its new-game control from
there; nothing of it reaches the bot, which meets the client as a person would.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sweeplab.clients.base import DEFAULT_SCREEN, ClientSpec, Grid, LaunchPlan, Size
from sweeplab.errors import DesktopError
from sweeplab.generated.spec import LEVELS, ClientMakeUp, at_cell, make_up

if TYPE_CHECKING:
    from sweeplab.clients.launched import LaunchedClient

PREFIX = "generated-"
LAUNCHERS = Path(__file__).parent / "launchers"
TRUTH = "truth.json"
MAKEUP = "makeup.json"


class GeneratedClient(ClientSpec):
    """The client of one seed."""

    package = "python3-tk and chromium (Debian), Pillow (sweepbot's own env)"
    window_timeout = 30.0
    closes_on_request = False

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.make: ClientMakeUp = make_up(seed)
        self.name = f"{PREFIX}{seed}"
        cols, rows, mines = LEVELS[self.make.level]
        self.levels = {self.make.level: Size(cols, rows, mines)}
        self.default_level = self.make.level
        self.window_name = f"^{self.make.title}$"

    @property
    def executable(self) -> Path:
        return Path(sys.executable)

    def installed(self) -> bool:
        """A page needs Chromium; a window, Tk in sweepbot's own Python."""
        if self.make.kind == "page":
            return shutil.which("chromium") is not None
        return importlib.util.find_spec("tkinter") is not None

    def plan(self, level: str, size: Size, *, seed: str | None, tile_size: int | None) -> LaunchPlan:
        make = self.make
        if tile_size is not None:  # the same client drawn at another cell size
            try:
                make = at_cell(make, tile_size)
            except ValueError as err:
                raise DesktopError(f"{self.name}: {err}") from None
        launcher = "generated_window.py" if make.kind == "window" else "generated_page.py"
        argv = [sys.executable, str(LAUNCHERS / launcher), MAKEUP, "--truth", TRUTH]
        if seed is not None:
            argv += ["--boards", seed]  # the mines' places, for a test that wants the same boards again
        return LaunchPlan(argv, {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}, {MAKEUP: make.to_json()})

    def screen_size(self, size: Size) -> tuple[int, int]:
        return DEFAULT_SCREEN

    def truth(self, client: LaunchedClient, timeout: float = 10.0) -> dict[str, Any]:
        """What the client wrote of itself last (waiting for its first word)."""
        path = Path(client.home) / TRUTH
        deadline = time.monotonic() + timeout
        while True:
            try:
                truth: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
                if truth.get("board"):
                    return truth
            except (OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise DesktopError(f"{self.name} wrote no truth in {timeout:.0f} s")
            time.sleep(0.05)

    def grid(self, client: LaunchedClient) -> Grid:
        truth = self.truth(client)
        x, y, _, _ = truth["board"]
        looks = truth["looks"]
        pitch, cell = float(truth["pitch"]), float(truth["cell"])
        return Grid(len(looks), len(looks[0]), float(x), float(y), pitch, pitch, cell, cell)

    def new_game(self, client: LaunchedClient) -> None:
        manners = self.make.manners
        if manners.new_game == "key":
            client.key("+".join({"ctrl": "ctrl", "f2": "F2", "space": "space"}.get(k, k) for k in manners.new_game_key))
            return
        control = self.truth(client).get("control")
        if not control:
            raise DesktopError(f"{self.name} shows no new-game control now")
        x, y, w, h = control
        client.click(x + w // 2, y + h // 2)
