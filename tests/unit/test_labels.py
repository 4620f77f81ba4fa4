"""What a control's label and a message over a board say, by their words (the text read by tesseract)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("text", "said"), [
    ("You won!", "won"), ("Game over\\nYou won!", "won"), ("You hit a mine.", "lost"), ("Game over", "lost"),
    ("BOOM", "lost"), ("Windows", None), ("Mines: 40", None), ("", None),
    # words run together as text recognition reads a toast; never a word that only holds a phrase
    ("@ Youwon!", "won"), ("Gameover", "lost"), ("Wonderful", None), ("Time: 3 seconds", None)])
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


@pytest.mark.parametrize(("label", "size", "rank"), [
    ("Medium 16x16", (16, 16), 0), ("Large 30 × 16", (16, 30), 0), ("16x30", (16, 30), 0),  # the board played
    ("Small 9x9", (16, 16), 2), ("Large 30x16", (16, 16), 2),  # another size
    ("Expert", (16, 16), 1), ("New game", (16, 16), 1), ("Medium 16x16", None, 1)])  # no size said, or known
def test_a_level_that_names_the_board_played_comes_first(label: str, size: tuple[int, int] | None,
                                                         rank: int) -> None:
    from sweepbot.calibration.live.ways import size_rank

    assert size_rank(label, size) == rank


def test_dark_words_on_a_dark_ground_beside_bright_buttons_are_read() -> None:
    """A dark theme's "Game over", 40 levels above its ground, in a region with bright buttons and black
    beyond the window (tests/fixtures/messages): read as a loss (a reading of the whole range alone finds no
    words there)."""
    from pathlib import Path

    import cv2

    from sweepbot.rect import Rect
    from sweepbot.vision.labels import available, read_text, verdict

    assert available(), "tesseract is installed by scripts/install-clients"
    frame = cv2.imread(str(Path(__file__).parents[1] / "fixtures" / "messages" / "generated-102-game-over.png"))
    assert verdict(read_text(frame, Rect(0, 32, frame.shape[1], frame.shape[0] - 32)) or "") == "lost"
