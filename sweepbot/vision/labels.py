"""The label of a control beside a board, read as a person reads it, and whether it says "new game".

Text is recognised by tesseract (the ``tesseract`` program, through pytesseract), chosen by measurement on
generated clients' buttons (benchmarks/ocr_labels.py, docs/figures.md): as accurate as RapidOCR on buttons,
three times as fast, and it installs a small program where RapidOCR brings a second OpenCV. It is imported
only when a label is read; where it is missing, no label is read and no unnamed control is clicked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

import cv2
import numpy as np

from sweepbot.rect import Rect

#: what a new-game control says (its words, lower case): a new game, once more, or a level to play
NEW_GAME = ("new game", "new", "restart", "reset", "play again", "start over", "try again", "retry", "again",
            "replay", "start", "start again", "new round")
LEVEL_WORDS = ("beginner", "intermediate", "expert", "easy", "medium", "hard", "small", "large", "big", "custom")
#: how much a label is scaled up before it is read, and the margin it is given (tesseract reads small text
#: and text close to its image's edge poorly)
SCALE = 3
MARGIN = 12
#: a button's outline, left out (px on each side) when the control is larger than this
OUTLINE = 3
MIN_INNER = 12


def words(text: str) -> str:
    """``text`` as lower-case words separated by one space (punctuation, sizes and counts left out)."""
    return " ".join(re.findall(r"[a-z]+", text.lower()))


def has_words(label: str) -> bool:
    """Whether ``label`` holds a word (three letters or more): text recognition reads a letter or two into an
    icon (a smiley read as "a 2"), never a word."""
    return any(len(word) >= 3 for word in words(label).split())


def says_new_game(label: str) -> bool:
    """Whether a control labelled ``label`` starts a new game: its words are a new game's, or a level's."""
    said = words(label)
    if said in NEW_GAME:
        return True
    parts = said.split()
    return bool(parts) and parts[0] in LEVEL_WORDS and len(parts) <= 2


@cache
def available() -> bool:
    """Whether labels can be read here (pytesseract and the tesseract program)."""
    try:
        import pytesseract

        pytesseract.get_tesseract_version()
    except Exception:  # the module or its program is missing
        return False
    return True


def prepared(image: np.ndarray) -> np.ndarray:
    """A control's pixels as tesseract reads them best: inside its outline, grey, scaled up, with a margin of
    its own edge's colour."""
    inner = image[OUTLINE:-OUTLINE, OUTLINE:-OUTLINE] if min(image.shape[:2]) > MIN_INNER else image
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY) if inner.ndim == 3 else inner
    big = cv2.resize(grey, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_CUBIC)
    edge = int(np.median(np.concatenate([big[0], big[-1], big[:, 0], big[:, -1]])))
    return cv2.copyMakeBorder(big, MARGIN, MARGIN, MARGIN, MARGIN, cv2.BORDER_CONSTANT, value=edge)


def inside(frame: np.ndarray, box: Rect) -> np.ndarray:
    """The pixels of ``frame`` inside ``box`` (clipped to the frame), contiguous as tesseract wants them."""
    x0, y0 = max(0, box.x), max(0, box.y)
    return np.ascontiguousarray(frame[y0:min(frame.shape[0], box.bottom), x0:min(frame.shape[1], box.right)])


def read_label(frame: np.ndarray, box: Rect) -> str | None:
    """The text of the control in ``box`` of ``frame`` ("" when it shows none), or None where no text can be
    read here."""
    return _read_control(frame, box, lambda engine, image: str(engine.image_to_string(image, config=ONE_LINE)).strip())


def _read_control(frame: np.ndarray, box: Rect, read: Callable[[Any, np.ndarray], str]) -> str | None:
    """``read`` (given pytesseract and the control's pixels as :func:`prepared` makes them) of the control in
    ``box`` of ``frame``; "" when the box holds no pixel, None where no text can be read here."""
    if not available():
        return None
    import pytesseract

    crop = inside(frame, box)
    if crop.size == 0:
        return ""
    return read(pytesseract, prepared(crop))


#: tesseract's page segmentation for a control's label: one line of text
ONE_LINE = "--psm 7"


#: tesseract's confidence (0-100) a word must be read with to be one: it reads letters into an icon unsure (a
#: smiley's "ney" at 24, icons' "CS", "XN", "ro" at 31-38), and a button's words at 92-96 (the controls
#: under tests/fixtures/controls and those of generated clients)
SURE = 75


def sure_words(frame: np.ndarray, box: Rect) -> str | None:
    """The words of the control in ``box`` of ``frame`` that text recognition reads with confidence SURE or
    more ("" when none), or None where no text can be read here."""

    def sure(engine: Any, image: np.ndarray) -> str:
        data = engine.image_to_data(image, config=ONE_LINE, output_type=engine.Output.DICT)
        return " ".join(str(text) for text, said in zip(data["text"], data["conf"], strict=True)
                        if str(text).strip() and float(said) >= SURE)

    return _read_control(frame, box, sure)


#: the neighbourhood (px, of the text scaled twice) and offset a message's contrast is raised over
LOCAL_BLOCK, LOCAL_C = 31, 8
#: what a message over a board says of the game (lower-case phrases)
WON_WORDS = ("you won", "you win", "won", "win", "winner", "congratulations", "victory", "well done", "cleared",
             "you did it")
LOST_WORDS = ("game over", "you lost", "you lose", "lost", "hit a mine", "boom", "exploded", "stepped on a mine",
              "failed")


def read_text(frame: np.ndarray, box: Rect) -> str | None:
    """Every word in ``box`` of ``frame`` (a message over the board), or None where no text can be read."""
    if not available():
        return None
    import pytesseract

    crop = inside(frame, box)
    if crop.size == 0:
        return ""
    grey = cv2.resize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), None, fx=2, fy=2,
                      interpolation=cv2.INTER_CUBIC)
    # a message cut by the box's edge (a toast sliding in at the bottom of a window) is read with room around
    grey = cv2.copyMakeBorder(grey, MARGIN, MARGIN, MARGIN, MARGIN, cv2.BORDER_REPLICATE)
    # read as it is, then with each part's contrast raised: dark words on a dark ground beside bright
    # buttons ("Game over" on a dark theme) are lost to a reading of the whole range
    local = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, LOCAL_BLOCK, LOCAL_C)
    # as sparse text (words anywhere), then as one block: a lone toast on a plain page is found only so
    return "\n".join(str(pytesseract.image_to_string(image, config=f"--psm {psm}"))
                     for image, psm in ((grey, 11), (local, 11), (grey, 6)))


def verdict(text: str) -> str | None:
    """``won`` or ``lost`` when a message says so (a win's words over a loss's: a dialog titled "Game over"
    may say "You won"), else None."""
    said = f" {words(text)} "
    joined = set(said.split())  # text recognition runs words together ("Youwon!")

    def says(phrases: tuple[str, ...]) -> bool:
        return any(f" {phrase} " in said or phrase.replace(" ", "") in joined for phrase in phrases)

    if says(WON_WORDS):
        return "won"
    if says(LOST_WORDS):
        return "lost"
    return None
