"""What a control's label and a message over a board say, by their words (the text read by tesseract)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("text", "said"), [
    ("You won!", "won"), ("Game over\\nYou won!", "won"), ("You hit a mine.", "lost"), ("Game over", "lost"),
    ("BOOM", "lost"), ("Windows", None), ("Mines: 40", None), ("", None)])
def test_a_message_says_how_a_game_ended_by_its_words(text: str, said: str | None) -> None:
    from sweepbot.vision.labels import verdict

    assert verdict(text.replace("\\\\n", "\\n")) == said


@pytest.mark.parametrize(("label", "new"), [
    ("New game", True), ("RESTART", True), ("Play again", True), ("Medium 16x16", True), ("New", True),
    ("Settings", False), ("Help", False), ("Home", False), ("New Game?", True), ("Scores", False), ("", False)])
def test_a_label_says_new_game_by_its_words(label: str, new: bool) -> None:
    from sweepbot.vision.labels import says_new_game

    assert says_new_game(label) is new


@pytest.mark.parametrize(("label", "worded"), [("a 2", False), ("K", False), ("", False), ("New", True),
                                                ("Play again", True), ("OK", False)])
def test_a_letter_or_two_read_into_an_icon_is_no_label(label: str, worded: bool) -> None:
    from sweepbot.vision.labels import has_words

    assert has_words(label) is worded
