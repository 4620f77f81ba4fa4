"""A calibrated profile meets numbers its games never showed: each is read as an open cell of unknown number
(``=``), never as a number it knows and never refused while the board around it reads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sweepbot.board import Board
from sweepbot.vision import limits
from sweepbot.vision.capture import load_image
from sweepbot.vision.profile import BUILTIN_DIR, Profile, load_profile, make_profile
from sweepbot.vision.read import read_located, read_screenshot

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.mark.parametrize("shot", ["digits-21-1", "digits-21-2", "digits-21-3"])
def test_numbers_a_calibrated_profile_never_saw_are_read_open_with_their_number_unknown(shot: str) -> None:
    """xdemineur calibrated live from six lost games that showed no 6, 7 or 8 (its built-in profile's looks
    but those three, in a folder of its own, as calibration saves one): its lost expert boards that show them
    read with those cells as ``=``, every other cell as written. A 6 (green on the empty cell's grey) lies
    nearer the empty cell than a covered tile, by more than the reader's margin of how far those two are
    apart, though it lies as far from every digit it knows as from a covered tile."""
    builtin = load_profile(BUILTIN_DIR / "xdemineur-21px")
    _, _, w, h = builtin.crop
    kept = [(ch, row.reshape(h, w, 3).astype(np.uint8)) for ch, row in zip(builtin.labels, builtin.stack, strict=True)
            if ch not in "678"]
    calibrated = make_profile("xdemineur-21px", "xdemineur", builtin.pitch, builtin.crop, kept,
                              folder=Path("/calibrated/xdemineur-21px"))
    expected = Board.parse((FIXTURES / "xdemineur" / f"{shot}.board").read_text()).grid
    unseen = tuple("".join("=" if ch in "678" else ch for ch in row) for row in expected)
    assert unseen != expected or shot == "digits-21-3"
    board = read_screenshot(load_image(FIXTURES / "xdemineur" / f"{shot}.png"), profiles=[calibrated],
                            opened_unknown=True).board
    assert board.grid == unseen


def test_a_number_never_seen_in_dark_ink_on_a_light_ground_is_read_open_with_its_number_unknown() -> None:
    """A generated client's 6 (tests/fixtures/unseen-numbers/generated-304), dark green on the empty cell's
    light ground where a covered tile is mid grey: nearer a covered tile's look than the empty cell's all
    told, but showing the empty cell's ground on most of its pixels (the table's ``ground_levels`` and
    ``ground_share``) and a covered tile's face on none. Read as ``=``, every other cell as written; with the
    share asked for raised past what the 6 leaves, refused."""
    from sweepbot.errors import SweepbotError
    from sweepbot.vision import limits

    folder = FIXTURES / "unseen-numbers" / "generated-304"
    profile = load_profile(folder / "profile")
    assert "6" not in profile.labels
    image = load_image(folder / "frame.png")
    expected = Board.parse((folder / "frame.board").read_text()).grid
    assert read_screenshot(image, profiles=[profile], opened_unknown=True).board.grid == expected
    with limits.using(ground_share=0.7), pytest.raises(SweepbotError, match=r"\(1, 10\)"):
        read_screenshot(image, profiles=[profile], opened_unknown=True)


def test_a_number_never_seen_nearest_the_empty_cells_look_is_never_named_empty_among_covered_tiles() -> None:
    """A generated client's 8 (tests/fixtures/unseen-numbers/generated-316, a sheet of every look it draws),
    grey on the open cells' grey ground, which the profile calibrated from its games never saw: 10.8 from the
    empty cell's look, within the profile's limit and nearer it than any other look. Among covered tiles, as
    every 8 lies on a board, it is refused, never named an empty cell (the solver would open every tile
    around it); the empty cell beside covered tiles on the same sheet, drawn pixel for pixel as its look, is
    named. Every cell the profile names is named right."""
    from sweepbot.calibration.truth import misnamed
    from sweepbot.vision import limits
    from sweepbot.vision.decide import classify
    from sweepbot.vision.locate import locate

    folder = FIXTURES / "unseen-numbers" / "generated-316"
    profile = load_profile(folder / "profile")
    assert "8" not in profile.labels
    image = load_image(folder / "sheet.png")
    truth = Board.parse((folder / "sheet.board").read_text()).grid
    geometry = locate(image)  # as play finds the cells
    assert (geometry.rows, geometry.cols) == (5, 8)
    scores = classify(image, geometry, profile)
    assert truth[3][3] == "8" and scores.chars[3, 3] == "." and not scores.accepted[3, 3]
    # held by nothing else: as near the look as the profile takes, and far nearer it than any other
    assert float(scores.rms[3, 3]) <= (profile.max_rms or 0) and float(scores.margin[3, 3]) >= limits.LIMITS.min_margin
    assert truth[1][3] == "." and scores.chars[1, 3] == "." and scores.accepted[1, 3]
    wrong, named = misnamed(image, geometry.xs, geometry.ys, truth, profile)
    assert wrong == [] and named == 31  # the covered tiles, the flag, the empty cell and the numbers it knows


def _gnome_mines_without(size: int, unseen: str, folder: Path | None = None) -> Profile:
    """gnome-mines's built-in profile at ``size`` px with the looks of ``unseen`` left out, in a folder of its
    own (``folder``; by default as a calibration whose games never showed them saves one)."""
    builtin = load_profile(BUILTIN_DIR / f"gnome-mines-{size}px")
    _, _, w, h = builtin.crop
    kept = [(ch, row.reshape(h, w, 3).astype(np.uint8)) for ch, row in zip(builtin.labels, builtin.stack, strict=True)
            if ch not in unseen]
    return make_profile(f"gnome-mines-{size}px", "gnome-mines", builtin.pitch, builtin.crop, kept,
                        folder=folder or Path(f"/calibrated/gnome-mines-{size}px"))


@pytest.mark.parametrize(("size", "shot"), [(30, "digits-30-2"), (30, "digits-30-4"), (34, "digits-34-2"),
                                            (34, "digits-34-3"), (46, "digits-46-3")])
def test_a_number_never_seen_on_a_ground_of_its_own_in_the_numbers_ink_is_read_open(size: int, shot: str) -> None:
    """gnome-mines draws every number in one dark ink on a ground tinted for each number (a 5 on pink): a
    calibration whose games showed 1 to 4 meets a 5 nearer a covered tile's look than the empty cell's, and
    on no ground it knows. Its ground lies nearer the numbers' grounds than a covered tile's, among them, and
    its ink and drawing are a number's: read as ``=``, every other cell as written. Without the rule (the
    grounds' reach cut to nothing), refused."""
    from sweepbot.errors import SweepbotError
    from sweepbot.vision import limits

    profile = _gnome_mines_without(size, "5678")
    expected = Board.parse((FIXTURES / "gnome-mines" / f"{shot}.board").read_text()).grid
    unseen = tuple("".join("=" if ch in "5678" else ch for ch in row) for row in expected)
    assert unseen != expected
    image = load_image(FIXTURES / "gnome-mines" / f"{shot}.png")
    assert read_screenshot(image, profiles=[profile], opened_unknown=True).board.grid == unseen
    with limits.using(ground_reach=0.0), pytest.raises(SweepbotError, match="match no template"):
        read_screenshot(image, profiles=[profile], opened_unknown=True)


def test_a_wrong_flag_never_seen_on_its_red_ground_is_refused_not_read_open() -> None:
    """gnome-mines's wrong flag is the flag drawn on a red ground: with every number known (their grounds
    spread from green to red), its ground lies among theirs and its ink is theirs, but what is drawn is a
    flag's drawing: a profile that never saw one refuses the lost board rather than read it open."""
    from sweepbot.errors import SweepbotError

    image = load_image(FIXTURES / "gnome-mines" / "big-lost.png")
    assert "X" in (FIXTURES / "gnome-mines" / "big-lost.board").read_text()
    with pytest.raises(SweepbotError, match=r"\(11, 21\).*\(12, 21\)"):
        read_screenshot(image, profiles=[_gnome_mines_without(30, "X")], opened_unknown=True)


@pytest.mark.parametrize(("left_out", "shot", "taken_for"), [("3", "digits-34-1", "2"), ("1", "digits-34-2", "2"),
                                                             ("5", "digits-34-3", "6"), ("3", "medium-first", "2")])
def test_a_number_a_profile_made_at_the_boards_size_lacks_is_refused_not_read_as_its_nearest(
        left_out: str, shot: str, taken_for: str) -> None:
    """gnome-mines's built-in 34 px profile with one number's looks left out, as a profile with no such number
    is shipped (no calibrated limit of its own): that number's cells lie 25-29 RMS from the nearest number it
    holds (a 3 from its 2, on grounds tinted alike), under the reader's ``max_rms`` and with a margin over
    ``min_margin``, while the numbers it holds read within a pixel's noise. Held to three quarters of the
    distance between its two closest numbers (the table's ``unseen_number_share``), they are refused, by name; with
    the share raised to 2 (such cells held to ``max_rms`` alone), the board reads with them as ``taken_for``:
    wrong."""
    from sweepbot.errors import SweepbotError
    from sweepbot.vision import limits

    profile = _gnome_mines_without(34, left_out, BUILTIN_DIR / "gnome-mines-34px-lacking")
    expected = Board.parse((FIXTURES / "gnome-mines" / f"{shot}.board").read_text()).grid
    cells = [(r, c) for r, row in enumerate(expected) for c, ch in enumerate(row) if ch == left_out]
    assert cells
    image = load_image(FIXTURES / "gnome-mines" / f"{shot}.png")
    with pytest.raises(SweepbotError, match="match no template") as refused:
        read_screenshot(image, profiles=[profile])
    assert f"({cells[0][0]}, {cells[0][1]}) ~{taken_for}" in str(refused.value)
    assert f"has no look for {left_out}, 8: such a cell is refused here" in str(refused.value)
    with limits.using(unseen_number_share=2.0):
        misread = read_screenshot(image, profiles=[profile]).board.grid
    assert {misread[r][c] for r, c in cells} == {taken_for}


def _built_in_without(left_out: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Profile, Path]:
    """gnome-mines's built-in 34 px profile with ``left_out``'s looks left out, in a folder beside the package's
    own, and the only profile a read from scratch knows; with that folder."""
    from sweepbot.vision import read as read_module

    folder = BUILTIN_DIR / "gnome-mines-34px-lacking"
    profile = _gnome_mines_without(34, left_out, folder)
    monkeypatch.setattr(read_module, "available_profiles", lambda: [profile])
    return profile, folder


def test_play_reads_a_number_a_built_in_profile_lacks_open_while_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A built-in profile (in the package's folder) whose games never showed a 3: play's reader reads the 3 of
    a board in play as ``=`` (open, number unknown: the solver goes on without it) on the board's first frame
    and on the next, tracked, where refusing it would stop the game. Nothing proves it yet: nothing is learnt,
    and nothing is written."""
    from sweepbot.playing.vision_reader import VisionReader
    from sweepbot.vision.profile import user_profiles_dir

    _, folder = _built_in_without("3", monkeypatch)
    expected = Board.parse((FIXTURES / "gnome-mines" / "medium-first.board").read_text()).grid
    unseen = tuple(row.replace("3", "=") for row in expected)
    assert unseen != expected
    image = load_image(FIXTURES / "gnome-mines" / "medium-first.png")
    reader = VisionReader()
    assert reader.read(image).board.grid == unseen
    assert reader.read(image).board.grid == unseen
    assert reader.learnt == [] and not folder.exists() and not (user_profiles_dir() / "gnome-mines-34px").exists()


def test_a_number_a_built_in_profile_lacks_is_learnt_from_a_lost_board_into_the_users_store(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same profile without its 2 meets a lost board, whose mines shown prove every number: the 2s are
    learnt, the profile is kept with them in the user's profile store under its own name (where it wins over
    the built-in from then on) and the board read names them; the package's folder is never written."""
    from sweepbot.playing.vision_reader import VisionReader
    from sweepbot.vision.profile import user_profiles_dir

    _, folder = _built_in_without("2", monkeypatch)
    expected = Board.parse((FIXTURES / "gnome-mines" / "medium-lost.board").read_text()).grid
    image = load_image(FIXTURES / "gnome-mines" / "medium-lost.png")
    reader = VisionReader()
    named = reader.read_vision(image)
    assert named.board.grid == expected
    assert set(reader.learnt) == {"2"} and not folder.exists()
    kept = load_profile(user_profiles_dir() / "gnome-mines-34px")
    assert "2" in kept.labels and kept.folder == user_profiles_dir() / "gnome-mines-34px"
    # named as the mines shown prove them, without a read: what the profile that learnt them reads there
    again = read_located(image, named.geometry, kept, opened_unknown=True)
    assert again.board == named.board and named.profile.labels == kept.labels and named.exact == again.exact
    assert (again.scores.accepted == named.scores.accepted).all()
    assert read_screenshot(image, profiles=[kept]).board.grid == expected


def test_a_board_whose_cells_no_look_fits_are_all_taken_open_is_refused() -> None:
    """sgt-mines's first 9x9 board (covered tiles, numbers, empty cells) read with gnome-mines's 46 px looks
    drawn at its 20 px cells: refused, by a read from scratch and by a read of a board found before. Its empty
    cells come near gnome-mines's empty cell once moved by a pixel or two, beside tiles no look fits; read
    where they are (the table's ``nudge_reach`` 0), every cell not a covered tile is nearer an open look than
    a covered one and would be read as an open cell of unknown number: a board with no cell a mine could be
    under, which no game shows."""
    from sweepbot.errors import SweepbotError
    from sweepbot.vision.board_fit import choose
    from sweepbot.vision.locate import locate

    image = load_image(FIXTURES / "sgt-mines" / "9x9-first.png")
    gnome = load_profile(BUILTIN_DIR / "gnome-mines-46px")
    fit = choose(image, locate(image), [gnome])
    assert fit is not None and fit.profile.drawn_from == "gnome-mines-46px"
    for reach, reason in ((limits.LIMITS.nudge_reach, "match no template"), (0, "reads as an opened cell")):
        with limits.using(nudge_reach=reach):
            with pytest.raises(SweepbotError, match=reason):
                read_screenshot(image, profiles=[gnome], opened_unknown=True)
            with pytest.raises(SweepbotError, match=reason):
                read_located(image, fit.grid, fit.profile, opened_unknown=True)


def test_a_users_copy_of_a_built_in_gives_way_to_the_built_in_once_sweepbot_changed_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The copy play keeps of a built-in profile lacking a 2, with the 2 it learnt, wins over the built-in while
    the built-in stays as it was copied. Once the built-in changes (an upgrade mends one of its looks), the
    built-in as it is now reads with the copy's 2 added, and the old look no longer reads; a copy of a
    built-in that has the 2 by then keeps none of its own. A profile the user calibrated under a built-in's
    name always wins as it is."""
    from sweepbot.cli import main
    from sweepbot.playing.vision_reader import VisionReader
    from sweepbot.vision import profile as profile_module
    from sweepbot.vision.profile import available_profiles, looks_digest, user_profiles_dir

    lacking, _ = _built_in_without("2", monkeypatch)
    image = load_image(FIXTURES / "gnome-mines" / "medium-lost.png")
    VisionReader().read(image)
    kept = load_profile(user_profiles_dir() / "gnome-mines-34px")
    assert kept.built_in == looks_digest(lacking) and "2" in kept.labels

    def shown(built_in: Profile) -> Profile:
        monkeypatch.setattr(profile_module, "_builtin", lambda: (built_in,))
        (found,) = [p for p in available_profiles() if p.name == "gnome-mines-34px"]
        return found

    assert looks_digest(shown(lacking)) == looks_digest(kept)  # unchanged: the copy, as it is
    assert main(["profiles", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["profiles"][0]["source"] == "learnt"
    # an upgrade mends the built-in's covered tile (here: drawn a level darker)
    templates = [(ch, lacking.template(i)) for i, ch in enumerate(lacking.labels)]
    covered = next(i for i, (ch, _) in enumerate(templates) if ch == "#")
    old = templates[covered][1]
    templates[covered] = ("#", (old.astype(np.int16) - 1).clip(0, 255).astype(np.uint8))
    mended = make_profile(lacking.name, lacking.client, lacking.pitch, lacking.crop, templates,
                          lacking.sizes, lacking.counter, lacking.folder, lacking.play, lacking.max_rms)
    renewed = shown(mended)
    assert renewed.folder == kept.folder and renewed.built_in == looks_digest(mended)
    assert sorted(renewed.labels) == sorted(mended.labels + tuple(ch for ch in kept.labels if ch == "2"))

    def covered_looks(profile: Profile) -> set[bytes]:
        return {profile.template(i).tobytes() for i, ch in enumerate(profile.labels) if ch == "#"}

    assert covered_looks(renewed) == covered_looks(mended) and old.tobytes() not in covered_looks(renewed)
    expected = Board.parse((FIXTURES / "gnome-mines" / "medium-lost.board").read_text()).grid
    assert read_screenshot(image, profiles=[renewed]).board.grid == expected
    # a built-in with a 2 of its own by then: nothing of the copy's kept
    whole = load_profile(BUILTIN_DIR / "gnome-mines-34px")
    assert looks_digest(shown(whole)) == looks_digest(whole)
    # a profile the user calibrated under the same name (no copy of a built-in): its own looks, always
    calibrated = make_profile(kept.name, kept.client, kept.pitch, kept.crop,
                              [(ch, kept.template(i)) for i, ch in enumerate(kept.labels)], folder=kept.folder)
    profile_module.save_profile(calibrated, kept.folder)
    assert looks_digest(shown(mended)) == looks_digest(calibrated)


def test_a_profile_drawn_from_built_ins_and_kept_in_the_users_store_is_left_out_once_they_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """sgt-mines's 20 px looks drawn at 28 px and kept in the user's store (as play keeps them once it learns a
    look there) are read with while the built-in stays as it was drawn from; once an upgrade changes the
    built-in, they are left out (the size is drawn afresh from the built-in as it is), while a drawn profile
    the user's own profile was drawn from, or one kept before its sources were recorded, stays."""
    from sweepbot.vision import profile as profile_module
    from sweepbot.vision.profile import available_profiles, save_profile
    from sweepbot.vision.scaled import at_pitch

    source = load_profile(BUILTIN_DIR / "sgt-mines-20px")
    drawn = at_pitch(source, (28.0, 28.0))
    assert drawn.folder is not None and drawn.built_in is not None and drawn.drawn_from == "sgt-mines-20px"
    save_profile(drawn, drawn.folder)
    monkeypatch.setattr(profile_module, "_builtin", lambda: (source,))
    assert drawn.name in {p.name for p in available_profiles()}
    templates = [(ch, source.template(i)) for i, ch in enumerate(source.labels)]
    templates[0] = (templates[0][0], (templates[0][1].astype(np.int16) - 1).clip(0, 255).astype(np.uint8))
    mended = make_profile(source.name, source.client, source.pitch, source.crop, templates, source.sizes,
                          source.counter, source.folder, source.play, source.max_rms)
    monkeypatch.setattr(profile_module, "_builtin", lambda: (mended,))
    assert drawn.name not in {p.name for p in available_profiles()}
    # kept before the sources were recorded: no way to tell, kept as it is
    save_profile(make_profile(drawn.name, drawn.client, drawn.pitch, drawn.crop,
                              [(ch, drawn.template(i)) for i, ch in enumerate(drawn.labels)], folder=drawn.folder,
                              max_rms=drawn.max_rms, drawn_from=drawn.drawn_from), drawn.folder)
    assert drawn.name in {p.name for p in available_profiles()}
    # drawn from a profile the user calibrated: nothing recorded, kept
    own = make_profile("mine-clone-20px", "mine-clone", source.pitch, source.crop, templates,
                       folder=profile_module.user_profiles_dir() / "mine-clone-20px")
    assert at_pitch(own, (28.0, 28.0)).built_in is None
