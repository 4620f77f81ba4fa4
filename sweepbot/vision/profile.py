"""Profiles: how one client looks at one cell size. A folder with ``profile.json`` and PNG templates.

``profile.json`` (format 2; docs/formats.md has it whole)::

    {
      "format": 2,                       absent in profiles saved before the format was numbered (format 1)
      "name": "xdemineur-21px",          the folder's name
      "client": "xdemineur",
      "pitch": [21.0, 21.0],             cell step in x and y, pixels (may be fractional)
      "crop": [3, 3, 15, 15],            template window inside a cell: x, y from the cell's top-left edge, w, h
      "sizes": [[8, 8], [16, 16]],       optional: the only (rows, cols) this client offers at this pitch
      "templates": {"#": ["covered.png"], "1": ["1.png"], ...},
      "counter": {...},                  optional: where the mines-left counter is, see sweepbot.vision.counter
      "max_rms": 14.2,                   optional: how far a cell may be from its template and still be read
      "drawn_from": "gnome-mines-46px",  optional: drawn from that profile at this size (several joined by
                                         "+": a client's sizes drawn together), then learnt in play
      "built_in": "3f2a...",             optional: made from built-in profiles (this name's, or drawn_from's),
                                         whose looks had this digest (built_in_digest), then learnt in play
      "play": {...}                      optional: the client's rules for play (see sweepbot.vision.rules)
    }

A template named ``~`` is a look calibration could not name yet: a cell that matches it is refused.

Built-in profiles live in ``sweepbot/profiles/`` (made by ``scripts/make_profiles.py`` with the calibration);
the user's calibrated profiles live in :func:`user_profiles_dir` and win over a built-in of the same name.
``SWEEPBOT_PROFILES`` moves the user's folder; ``SWEEPBOT_NO_BUILTIN=1`` hides the built-in profiles (to
check that a calibration works on its own).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from platformdirs import user_data_dir

from sweepbot.board import CELL_CHARS, NUMBERS
from sweepbot.errors import SweepbotError
from sweepbot.vision.derived import derived
from sweepbot.vision.rules import PlayRules, RulesError

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "profiles"
#: The format of profile.json written now; a file without ``format`` is format 1.
FORMAT = 2

#: Template file names for each cell character (readable in a folder listing).
FILE_NAMES = {
    "#": "covered", "F": "flag", "?": "question", ".": "zero", "*": "mine", "!": "exploded", "X": "wrong-flag",
    **{d: f"n{d}" for d in "12345678"},
    "=": "opened", "~": "unnamed",
}
#: The label of a look that calibration has not named (yet).
UNNAMED = "~"
#: What joins the names in ``drawn_from`` of a client's sizes drawn together.
SIZES_JOINED = "+"


class ProfileError(SweepbotError):
    """A profile is missing, unreadable or malformed, or cannot be saved."""


@dataclass(frozen=True)
class Profile:
    """Templates of one client at one cell size, stacked for vectorised comparison."""

    name: str
    client: str
    pitch: tuple[float, float]
    crop: tuple[int, int, int, int]
    labels: tuple[str, ...]
    stack: np.ndarray  # T x (h*w*3) float32, one row per template
    sizes: tuple[tuple[int, int], ...] = ()
    counter: dict[str, Any] = field(default_factory=dict)
    folder: Path | None = None
    play: PlayRules = field(default_factory=PlayRules)
    #: the largest RMS at which a cell matches a template (None: the reader's own): a calibrated profile
    #: of a client that draws its tiles pixel for pixel keeps it low, so that a look it has not learnt (a
    #: digit never seen) is refused rather than taken for the nearest one
    max_rms: float | None = None
    #: the profile this one was drawn from at another cell size (see sweepbot.vision.scaled); None: made here
    drawn_from: str | None = None
    #: made from built-in profiles (a copy of the one of the same name, or those ``drawn_from`` names): their
    #: :func:`built_in_digest` then, for a copy kept in the user's store with what play learnt to be told from
    #: one made before sweepbot changed them (None: not made from built-in profiles)
    built_in: str | None = None
    #: derived from ``stack``: squared norms, character codes, squared distances between templates
    norms: np.ndarray = field(init=False, repr=False, compare=False)
    codes: np.ndarray = field(init=False, repr=False, compare=False)
    pairs: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        t = self.stack
        norms = (t * t).sum(1)
        object.__setattr__(self, "norms", norms)
        object.__setattr__(self, "codes", np.array([ord(c) for c in self.labels]))
        pairs = norms[:, None] + norms[None, :] - 2 * (t @ t.T)
        object.__setattr__(self, "pairs", np.maximum(pairs, 1.0))

    @property
    def chars(self) -> frozenset[str]:
        return frozenset(self.labels)

    @property
    def in_package(self) -> bool:
        """Whether this is one of the profiles sweepbot ships (its folder is in the package's)."""
        return self.folder is not None and self.folder.parent == BUILTIN_DIR

    @property
    def lacks_numbers(self) -> bool:
        """Whether the profile was made at its own size from games that never showed some number from 1 to 8
        (it has no look for it). A profile drawn at another size is not said to: ``vision.decide`` holds the
        numbers it names otherwise."""
        return not self.drawn_from and not set(NUMBERS) <= self.chars

    def template(self, index: int) -> np.ndarray:
        _, _, w, h = self.crop
        return self.stack[index].reshape(h, w, 3).round().astype(np.uint8)

    def primary(self) -> Profile:
        """The profile with only each character's first (most common) look: variants out of the way when
        lining cells up with the templates."""
        first = sorted({self.labels.index(ch) for ch in self.labels})
        if len(first) == len(self.labels):
            return self
        return derived(self, "primary", lambda: Profile(
            self.name, self.client, self.pitch, self.crop, tuple(self.labels[i] for i in first), self.stack[first],
            self.sizes, self.counter, self.folder, self.play, self.max_rms, self.drawn_from, self.built_in))

    def fits_size(self, rows: int, cols: int) -> bool:
        return not self.sizes or (rows, cols) in self.sizes


def make_profile(
    name: str,
    client: str,
    pitch: tuple[float, float],
    crop: tuple[int, int, int, int],
    templates: Sequence[tuple[str, np.ndarray]],
    sizes: Iterable[tuple[int, int]] = (),
    counter: dict[str, Any] | None = None,
    folder: Path | None = None,
    play: PlayRules | None = None,
    max_rms: float | None = None,
    drawn_from: str | None = None,
    built_in: str | None = None,
) -> Profile:
    """A profile from (character, BGR template) pairs, every template ``crop``'s size."""
    _, _, w, h = crop
    labels: list[str] = []
    rows: list[np.ndarray] = []
    for ch, img in templates:
        if ch not in CELL_CHARS and ch != UNNAMED:
            raise ProfileError(f"{name}: unknown cell character {ch!r}")
        if img.shape != (h, w, 3):
            raise ProfileError(f"{name}: template for {ch!r} is {img.shape[1]}x{img.shape[0]}, expected {w}x{h}")
        labels.append(ch)
        rows.append(img.reshape(-1).astype(np.float32))
    if not rows:
        raise ProfileError(f"{name}: no templates")
    return Profile(name, client, (float(pitch[0]), float(pitch[1])), tuple(crop),  # type: ignore[arg-type]
                   tuple(labels), np.stack(rows), tuple(tuple(s) for s in sizes),  # type: ignore[misc]
                   dict(counter or {}), folder, play or PlayRules(), max_rms, drawn_from, built_in)


def looks_digest(profile: Profile) -> str:
    """A digest of what a profile reads with (cell size, window, and each look with its character): two
    profiles with the same digest read every board alike."""
    digest = hashlib.sha256(json.dumps([profile.pitch, profile.crop, profile.labels]).encode())
    digest.update(np.ascontiguousarray(profile.stack.round().astype(np.uint8)).tobytes())
    return digest.hexdigest()[:16]


def built_in_digest(sources: Sequence[Profile]) -> str | None:
    """The :func:`looks_digest` of the profiles a profile is made from (several: of them all), when they are
    all built-in; else None."""
    if not sources or not all(p.in_package for p in sources):
        return None
    if len(sources) == 1:
        return looks_digest(sources[0])
    return hashlib.sha256("+".join(looks_digest(p) for p in sources).encode()).hexdigest()[:16]


def load_profile(folder: str | Path) -> Profile:
    folder = Path(folder)
    try:
        spec = json.loads((folder / "profile.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ProfileError(f"{folder}: cannot read profile.json: {err}") from None
    try:
        version = int(spec.get("format", 1))
        if version > FORMAT:
            raise ProfileError(f"{folder}: profile.json is of format {version}, newer than this sweepbot reads "
                               f"({FORMAT}): update sweepbot")
        templates: list[tuple[str, np.ndarray]] = []
        for ch, files in spec["templates"].items():
            for file in [files] if isinstance(files, str) else files:
                img = cv2.imread(str(folder / file), cv2.IMREAD_COLOR)
                if img is None:
                    raise ProfileError(f"{folder}: cannot read template {file}")
                templates.append((ch, img))
        return make_profile(
            spec.get("name", folder.name), spec["client"], tuple(spec["pitch"]), tuple(spec["crop"]),
            templates, [tuple(s) for s in spec.get("sizes", [])], spec.get("counter"), folder,
            PlayRules.from_json(spec.get("play"), version),
            None if spec.get("max_rms") is None else float(spec["max_rms"]), spec.get("drawn_from"),
            spec.get("built_in"),
        )
    except RulesError as err:
        raise ProfileError(f"{folder}: {err}") from None
    except (KeyError, TypeError, ValueError) as err:
        raise ProfileError(f"{folder}: malformed profile.json: {err!r}") from None


def save_profile(profile: Profile, folder: str | Path) -> Path:
    """Write ``profile.json`` and one PNG per template; returns the folder. A folder that cannot be written
    (no room, no permission, a name too long) is a :class:`ProfileError` that says where and why."""
    try:
        return _write_profile(profile, Path(folder))
    except OSError as err:
        raise ProfileError(f"cannot save profile {profile.name} in {folder}: {err.strerror or err}") from err


def _write_profile(profile: Profile, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    files: dict[str, list[str]] = {}
    for i, ch in enumerate(profile.labels):
        names = files.setdefault(ch, [])
        base = FILE_NAMES[ch] + (f"-{len(names) + 1}" if names else "")
        if not cv2.imwrite(str(folder / f"{base}.png"), profile.template(i)):
            raise OSError(f"{folder / base}.png not written")
        names.append(f"{base}.png")
    spec: dict[str, Any] = {
        "format": FORMAT,
        "name": profile.name,
        "client": profile.client,
        "pitch": [round(p, 3) for p in profile.pitch],
        "crop": list(profile.crop),
    }
    if profile.sizes:
        spec["sizes"] = [list(s) for s in profile.sizes]
    spec["templates"] = files
    if profile.max_rms is not None:
        spec["max_rms"] = round(profile.max_rms, 1)
    if profile.drawn_from:
        spec["drawn_from"] = profile.drawn_from
    if profile.built_in:
        spec["built_in"] = profile.built_in
    if profile.counter:
        spec["counter"] = profile.counter
    play = profile.play.to_json()
    if play:
        spec["play"] = play
    (folder / "profile.json").write_text(format_json(spec) + "\n", encoding="utf-8")
    return folder


def format_json(value: Any, indent: int = 0) -> str:
    """JSON for people: objects one key a line, short lists on one line, glyph rows one a line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {format_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        flat = all(not isinstance(v, (dict, list)) for v in value)
        one_line = "[" + ", ".join(json.dumps(v) for v in value) + "]"
        glyph_rows = flat and value and all(isinstance(v, str) and set(v) <= {"#", "."} for v in value)
        if flat and not glyph_rows:
            return one_line
        return "[\n" + ",\n".join(pad + format_json(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return json.dumps(value)


@cache
def _builtin() -> tuple[Profile, ...]:
    return tuple(_load_dir(BUILTIN_DIR))


def user_profiles_dir() -> Path:
    """Where calibrated profiles are saved: the user's data folder (``SWEEPBOT_PROFILES`` overrides it)."""
    return Path(os.environ.get("SWEEPBOT_PROFILES") or Path(user_data_dir("sweepbot")) / "profiles")


def builtin_hidden() -> bool:
    return os.environ.get("SWEEPBOT_NO_BUILTIN", "") not in ("", "0")


def _load_dir(root: Path) -> list[Profile]:
    if not root.is_dir():
        return []
    return [load_profile(p) for p in sorted(root.iterdir()) if (p / "profile.json").is_file()]


def available_profiles(extra_dirs: Sequence[str | Path] = ()) -> list[Profile]:
    """Built-in profiles, the user's calibrated ones, and every profile folder under ``extra_dirs`` (later ones
    win on a name clash)."""
    builtin = {} if builtin_hidden() else {p.name: p for p in _builtin()}
    by_name = dict(builtin)
    for root in [user_profiles_dir(), *extra_dirs]:
        for p in _load_dir(Path(root)):
            if p.drawn_from and _drawn_before(p, builtin):
                continue  # its sizes drawn afresh from the built-ins as they are now
            by_name[p.name] = renewed(p, builtin[p.name]) if p.name in builtin else p
    return list(by_name.values())


def _drawn_before(drawn: Profile, builtin: dict[str, Profile]) -> bool:
    """Whether a profile drawn from built-in ones at another size, kept in the user's store with what play
    learnt there, was drawn from them as they were before sweepbot changed them: its drawn looks are out of
    date, and which of its looks play learnt is not known apart (it is left out, and learns again)."""
    names = (drawn.drawn_from or "").split(SIZES_JOINED)
    if drawn.built_in is None or not all(name in builtin for name in names):
        return False
    return built_in_digest([builtin[name] for name in names]) != drawn.built_in


def renewed(copy: Profile, builtin: Profile) -> Profile:
    """A user's profile over the built-in one of the same name: as it is, unless it is a copy of the built-in
    (``built_in``) made before the built-in changed (sweepbot upgraded since). Such a copy gives way to the
    built-in as it is now, with the copy's looks of the characters the built-in still lacks (those play
    learnt; none where the cell size or window changed): a look mended in the built-in is never shadowed by an
    old copy of it. Nothing is written: the copy's folder is rewritten when play next learns into it."""
    if copy.built_in is None:
        return copy
    digest = looks_digest(builtin)
    if copy.built_in == digest:
        return copy
    templates = [(ch, builtin.template(i)) for i, ch in enumerate(builtin.labels)]
    if (copy.pitch, copy.crop) == (builtin.pitch, builtin.crop):
        templates += [(ch, copy.template(i)) for i, ch in enumerate(copy.labels) if ch not in builtin.chars]
    return make_profile(builtin.name, builtin.client, builtin.pitch, builtin.crop, templates, builtin.sizes,
                        builtin.counter, copy.folder, builtin.play, builtin.max_rms, builtin.drawn_from, digest)


def select_profiles(name: str | None, profiles: Sequence[Profile]) -> list[Profile]:
    """Profiles matching ``name``: a profile's name, or a client's name (all its cell sizes); all if None."""
    if name is None:
        return list(profiles)
    exact = [p for p in profiles if p.name == name]
    if exact:
        return exact
    folder = Path(name)
    if (folder / "profile.json").is_file():
        return [load_profile(folder)]
    by_client = [p for p in profiles if p.client == name]
    if by_client:
        return by_client
    known = ", ".join(sorted({p.client for p in profiles} | {p.name for p in profiles})) or "none"
    raise ProfileError(f"no profile named {name!r} (known: {known})")
