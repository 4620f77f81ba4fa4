"""A client's rules for play, typed: read from a profile of either format, learnt one way, written back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sweepbot.vision.profile import FORMAT, ProfileError, load_profile, make_profile, save_profile
from sweepbot.vision.rules import NewGameControl, PlayRules, RulesError

LEGACY = {"first_click": "opening", "new_game_keys": [["escape"], ["ctrl", "r"]], "confirm_keys": [["enter"]],
          "new_game_control": {"offset": [4, -30], "looks": ["abc"]}, "mines": [[9, 9, 10]], "_note": "old"}


def profile_folder(tmp_path: Path, play: object, version: int | None) -> Path:
    profile = make_profile("drawn-18px", "drawn", (18.0, 18.0), (2, 2, 14, 14),
                           [("#", np.full((14, 14, 3), 200, np.uint8)), (".", np.full((14, 14, 3), 90, np.uint8))])
    folder = save_profile(profile, tmp_path / "drawn-18px")
    spec = json.loads((folder / "profile.json").read_text())
    spec.pop("format")
    if version is not None:
        spec["format"] = version
    spec["play"] = play
    (folder / "profile.json").write_text(json.dumps(spec))
    return folder


def test_a_profile_of_format_1_is_read_with_its_rules(tmp_path: Path) -> None:
    rules = load_profile(profile_folder(tmp_path, LEGACY, None)).play
    assert rules == PlayRules("opening", (("escape",), ("ctrl", "r")), (("enter",),), key_gap=0.4,
                              new_game_control=NewGameControl((4, -30), ("abc",)), mines=((9, 9, 10),))
    assert rules.mine_total(9, 9) == 10 and rules.mine_total(16, 16) is None
    assert rules.closes_dialogs == (("escape",),)


def test_format_2_is_written_and_read_back_the_same(tmp_path: Path) -> None:
    rules = load_profile(profile_folder(tmp_path, LEGACY, None)).play.learnt(cells_resize=True)
    profile = make_profile("drawn-18px", "drawn", (18.0, 18.0), (2, 2, 14, 14),
                           [("#", np.full((14, 14, 3), 200, np.uint8))], play=rules)
    folder = save_profile(profile, tmp_path / "again")
    spec = json.loads((folder / "profile.json").read_text())
    assert spec["format"] == FORMAT == 2 and spec["play"]["cells_resize"] is True and "_note" not in spec["play"]
    assert load_profile(folder).play == rules


def test_format_2_refuses_what_it_does_not_know(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="unknown play rule"):
        load_profile(profile_folder(tmp_path / "a", LEGACY, 2))
    with pytest.raises(ProfileError, match="newer than this sweepbot reads"):
        load_profile(profile_folder(tmp_path / "b", {}, FORMAT + 1))
    with pytest.raises(ProfileError, match="first-click rule"):
        load_profile(profile_folder(tmp_path / "c", {"first_click": "lucky"}, 2))
    with pytest.raises(ProfileError, match="malformed"):
        load_profile(profile_folder(tmp_path / "d", {"new_game_keys": "f2"}, 2))


def test_rules_are_learnt_one_at_a_time_and_only_by_name() -> None:
    rules = PlayRules().learnt(new_game_keys=(("f2",),))
    rules = rules.learnt(dismiss_keys=[["escape"]], mines=[(9, 9, 10)])
    assert rules == PlayRules(new_game_keys=(("f2",),), dismiss_keys=(("escape",),), mines=((9, 9, 10),))
    with pytest.raises(RulesError, match="no such rule"):
        rules.learnt(new_game_key=(("f2",),))
    assert PlayRules("opening").merged(rules) == PlayRules("opening", new_game_keys=(("f2",),),
                                                        dismiss_keys=(("escape",),), mines=((9, 9, 10),))
    assert rules.to_json() == {"new_game_keys": [["f2"]], "dismiss_keys": [["escape"]], "mines": [[9, 9, 10]]}


def test_a_profile_that_cannot_be_saved_says_where_and_why(tmp_path: Path) -> None:
    """A folder whose name no file system holds (or one that cannot be written) is a clear error naming the
    profile and the folder, never a traceback in the middle of a game that learnt a look."""
    profile = make_profile("t", "t", (10.0, 10.0), (1, 1, 8, 8), [("#", np.full((8, 8, 3), 200, np.uint8))])
    folder = tmp_path / ("x" * 300)
    with pytest.raises(ProfileError, match=r"cannot save profile t in .*xxxx"):
        save_profile(profile, folder)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(ProfileError, match="cannot save profile t"):
        save_profile(profile, blocked / "t")
    assert load_profile(save_profile(profile, tmp_path / "t")).labels == ("#",)
