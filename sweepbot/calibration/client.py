"""Calibrating a client: :func:`calibrate`, what ``sweepbot calibrate`` runs. It learns a client's looks from
screenshots, kept sessions or live games on screen, names each look only by what the game proved, and saves a
profile of them that reads its own frames back without a misread."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sweepbot.calibration.calibrate import calibrate_frames
from sweepbot.calibration.live.session import LiveSession
from sweepbot.calibration.live.tiles import new_game_board
from sweepbot.calibration.recording import compact, load_session, save_session
from sweepbot.calibration.sheet import names_sheet
from sweepbot.errors import SweepbotError
from sweepbot.threads import on_one_thread
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile, save_profile, user_profiles_dir
from sweepbot.vision.rules import PlayRules
from sweepbot.watch import Watcher, check_keys

#: Looks of opened cells: a profile needs one of them at least.
OPEN_CHARS = ".12345678="

#: The whole screen when a live calibration stopped on an error, kept with its record.
STOPPED_SCREEN = "stopped.png"


@dataclass
class Calibrated:
    """A profile made and saved: where, the image of its looks, and what it holds (``summary``: frames, looks,
    the characters named, the looks left unnamed)."""

    profile: Profile
    folder: Path
    sheet: Path
    summary: dict[str, Any]


@on_one_thread
def calibrate(client: str, *, screenshots: Sequence[np.ndarray] = (), recordings: Sequence[str | Path] = (),
              live: bool = False, watcher: Watcher | None = None, route: str = "auto", games: int = 6,
              mines: int | None = None, new_game_keys: Sequence[Sequence[str]] = (), save_to: str | Path | None = None,
              sheet: str | Path | None = None, record: str | Path | None = None,
              log: Callable[[str], None] = lambda _m: None, ask: Callable[[str], None] | None = None,
              ) -> list[Calibrated]:
    """Make and save the profiles of ``client`` (a name of letters, digits, - and _).

    From ``screenshots`` (BGR arrays: a new game, games in play, lost games), kept sessions (``recordings``,
    folders a live calibration kept with ``record``), and with ``live`` a few games played on the client on
    screen (seen through ``route``, or through ``watcher``: a screen of your own), which must show a new game.
    ``mines``: the client's mine total where it shows no counter. Profiles are saved in ``save_to`` (default:
    the user's profile store, where ``play`` finds them), each with an image of its looks (``sheet``).
    ``log`` hears each step of a live calibration; ``ask`` asks the person at the screen to start a new game
    when no way to is found (None: nobody to ask). Raises SweepbotError when nothing can be calibrated, or when
    a profile of the names proved would misread the frames it was learnt on (nothing is saved then)."""
    if not client.replace("-", "").replace("_", "").isalnum():
        raise SweepbotError(f"client {client!r}: use letters, digits, - and _ only")
    if not (screenshots or live or recordings):
        raise SweepbotError("give screenshots, a recording or live")
    if mines is not None and (mines < 1 or not (live or recordings)):
        raise SweepbotError("the mine total must be at least 1, with a live calibration or a recording")
    images = list(screenshots)
    geometries: list[Geometry | None] = [None] * len(images)
    facts = []
    play = PlayRules()
    sessions = [load_session(Path(folder)) for folder in recordings]
    if live:
        sessions.append(live_session(client, watcher, route, games, new_game_keys, record, log, ask))
    for session in sessions:
        facts += [replace(f, frame=f.frame + len(images)) for f in session.facts]
        images += session.frames
        geometries += [new_game_board(session.frames[0])] * len(session.frames)  # one board, on its new game
        play = play.merged(session.play)
    if mines is not None:
        sizes = sorted({(g.rows, g.cols) for g in geometries if g})
        play = play.learnt(mines=[(rows, cols, mines) for rows, cols in sizes])
    out = Path(save_to) if save_to else user_profiles_dir()
    made: list[Calibrated] = []
    for cal in calibrate_frames(images, client, facts, play, min_cells=1 if facts else 3, geometries=geometries):
        proved = "".join(sorted({n.char for n in cal.names.values() if n.proved}))
        if not set(proved) & set(OPEN_CHARS):
            raise SweepbotError(
                f"{cal.profile.name}: the frames proved only {proved or 'nothing'}, no look of an opened cell, so "
                "no profile was saved (a frame is used only while the board stays where the first one showed it: "
                "a board whose columns or rows change size in play is not read)")
        folder = out / cal.profile.name
        sheet_path = Path(sheet) if sheet else folder.with_name(cal.profile.name + "-looks.png")
        sheet_path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(sheet_path), names_sheet(cal.looks, cal.names))
        if cal.misread:
            kept = (f"the frames are kept in {record}" if live and record
                    else "--record DIR keeps the frames to look at")
            raise SweepbotError(
                f"{cal.profile.name}: a profile of these names misreads {cal.misread} named cells of the frames "
                f"they were learnt on, so it was not saved: the game's facts and the looks disagree (looks: "
                f"{sheet_path}); calibrate again ({kept})")
        save_profile(cal.profile, folder)
        made.append(Calibrated(cal.profile, folder, sheet_path, cal.summary()))
    return made


def live_session(client: str, watcher: Watcher | None, route: str, games: int, new_game_keys: Sequence[Sequence[str]],
                 record: str | Path | None, log: Callable[[str], None],
                 ask: Callable[[str], None] | None) -> LiveSession:
    """Play ``games`` games on the client on screen (``watcher``'s, else the live screen through ``route``) and
    keep what they proved; kept in ``record`` too, also when calibration stops on an error."""
    check_keys(new_game_keys)
    if watcher is not None:
        return _calibrate_on(client, watcher, games, new_game_keys, record, log, ask)
    from sweepbot.watch.live import ScreenGrabber, live_watcher

    screen = ScreenGrabber(route)
    try:
        return _calibrate_on(client, live_watcher(screen), games, new_game_keys, record, log, ask)
    finally:
        screen.close()


def _calibrate_on(client: str, watcher: Watcher, games: int, new_game_keys: Sequence[Sequence[str]],
                  record: str | Path | None, log: Callable[[str], None],
                  ask: Callable[[str], None] | None) -> LiveSession:
    from sweepbot.calibration.live.run import LiveCalibration

    calibration = LiveCalibration(watcher, games=games, log=log, new_game_keys=new_game_keys, ask=ask)
    try:
        session = calibration.run()
    except SweepbotError as err:
        kept = calibration.session
        if not record or not kept.frames:
            raise
        save_session(compact(kept), Path(record))
        stopped = Path(record) / STOPPED_SCREEN
        cv2.imwrite(str(stopped), watcher.screen.grab())
        raise SweepbotError(f"{err}; what {kept.games} game(s) showed is kept in {record}, and the screen when "
                            f"calibration stopped in {stopped}: `sweepbot calibrate --recording {record} --client "
                            f"{client}` makes a profile of it, and adding --live plays more games on top") from None
    if record:
        save_session(compact(session), Path(record))
    log(f"live: {session.games} games, {session.wins} won, {len(session.frames)} frames, {len(session.facts)} facts")
    return session
