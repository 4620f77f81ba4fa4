"""Which profile fits a board: a client's looks at the board's own cell size (its profile made at that size,
or drawn at it from another), tried on the board and ranked by how many cells they refuse and how close the
rest come."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sweepbot.vision import limits
from sweepbot.vision.align import align, shifted_distances
from sweepbot.vision.cells import CellScores, windows_at
from sweepbot.vision.decide import classify
from sweepbot.vision.derived import derived
from sweepbot.vision.geometry import Geometry
from sweepbot.vision.profile import Profile
from sweepbot.vision.scaled import at_pitch, client_at_pitch, in_range, with_kin_numbers


def resizes(profile: Profile) -> bool:
    """Whether the profile's client draws its cells at other sizes in play (calibration saw them grow): its
    boards are read with each cell drawn at the profile's size (see ``vision.redraw``)."""
    return profile.play.cells_resize


def pitch_fits(profile: Profile, pitch: tuple[float, float]) -> bool:
    tolerance, least = limits.LIMITS.pitch_tolerance, limits.LIMITS.pitch_least_px
    return all(abs(a - b) <= max(least, tolerance * b) for a, b in zip(pitch, profile.pitch, strict=True))


def made_at(profile: Profile, pitch: tuple[float, float]) -> bool:
    """Whether the profile was made at this cell size: within half a pixel (a pitch measured over the board's
    cells, as 32.6 px drawn in cells of 32 and 33), never a pixel apart (sgt-mines draws its 13 px tiles
    otherwise than its 12 px ones)."""
    return all(abs(a - b) < 0.5 for a, b in zip(pitch, profile.pitch, strict=True))


def own_at(profile: Profile, pitch: tuple[float, float]) -> bool:
    """Whether the profile was made at this cell size with looks of its own there (:func:`made_at`, and not
    drawn there from another size)."""
    return made_at(profile, pitch) and not profile.drawn_from


def attempt(image: np.ndarray, geometry: Geometry, profile: Profile, max_rms: float | None = None,
            within: int | None = None) -> tuple[Geometry, CellScores]:
    """The grid lined up with the profile's looks (``vision.align``: once, each line moved on its own), and
    the cells' scores there (``within``: the most cells the fit may refuse and still be chosen, see
    ``vision.decide.classify``)."""
    aligned = align(image, geometry, profile, per_line=True)
    return aligned, classify(image, aligned, profile, max_rms=max_rms, ranked=True, within=within)


def exact(scores: CellScores) -> bool:
    return bool(scores.accepted.all()) and float(scores.rms.mean()) <= limits.LIMITS.exact_rms


@dataclass(frozen=True)
class Fit:
    """A profile's fit to a board: its ``rank`` (:func:`rank`: lower is better), the ``grid`` lined up with
    its looks, the ``profile`` and every cell's ``scores`` there (each cell named or refused)."""

    rank: float
    grid: Geometry
    profile: Profile
    scores: CellScores

    @property
    def reads_all(self) -> bool:
        """Whether every cell is named."""
        return bool(self.scores.accepted.all())

    def beats(self, other: Fit | None) -> bool:
        """Whether this fit reads the board better than ``other`` (None: it does). Fits of two clients are
        compared by :attr:`rank`, the residual as the screen shows it (before any brightness fit: a fit can
        make one client's grey square look like another's); two of one client's looks (its sizes drawn at the
        board's) by the residual of each as it read, fitted to the screen's brightness where it was: the same
        client's looks fitted to a brighter screen are not to lose to looks that name its cells loosely as
        others (an empty cell as a covered tile) without a fit."""
        if other is None:
            return True
        if self.profile.client == other.profile.client:
            return rank(self.scores) < rank(other.scores)
        return self.rank < other.rank


def best_fit(image: np.ndarray, found: Geometry, profiles: Sequence[Profile], take_exact: bool = False,
             beside: Fit | None = None, within: int | None = None) -> Fit | None:
    """The profile that reads the board best: fewest cells refused, then the least residual (see
    :meth:`Fit.beats`); with the grid lined up with it, and its scores. With ``take_exact``, a profile made
    at the board's cell size (:func:`made_at`) that reads it nearly exactly (:func:`exact`) is taken at once:
    those are tried first, in their order, then the others. ``beside``: a fit of other profiles made before,
    to which the best is compared after: no fit that refuses more cells than it, or than one made here, or
    than ``within``, is wanted, and such a fit's refused cells get no second look (``vision.decide.classify``'s
    ``within``: it then refuses more)."""
    best: Fit | None = None
    ordered = sorted(profiles, key=lambda p: not made_at(p, found.pitch)) if take_exact else list(profiles)
    for p in ordered:
        fewest = [int((~f.scores.accepted).sum()) for f in (best, beside) if f is not None]
        if within is not None:
            fewest.append(within)
        geo, scores = attempt(image, found, p, within=min(fewest, default=None))
        fit = Fit(rank(scores, scores.as_shown), geo, p, scores)
        if fit.beats(best):
            best = fit
        if take_exact and made_at(p, found.pitch) and exact(scores):
            break
    return best


def sample_fit(image: np.ndarray, found: Geometry, profile: Profile) -> float:
    """How well the profile's first looks fit a sample of the board's cells (the table's ``sample_cells``,
    spread evenly over it), the sample moved as a whole by up to ``align_radius`` px to where it fits best:
    the mean RMS of each sampled cell to its nearest look, on every other pixel of every other line (a
    ranking: whole looks are compared when the profile is read in full)."""
    table = limits.LIMITS
    radius = table.align_radius
    ox, oy, w, h = profile.crop
    step = max(1, found.rows * found.cols // table.sample_cells)
    cells = np.arange(0, found.rows * found.cols, step)
    height, width = image.shape[:2]
    size = (w + 2 * radius, h + 2 * radius)
    x0 = np.clip(np.asarray(found.xs)[cells % found.cols] + ox - radius, 0, width - size[0])
    y0 = np.clip(np.asarray(found.ys)[cells // found.cols] + oy - radius, 0, height - size[1])
    looks, norms = _thinned_looks(profile.primary())
    d = shifted_distances(windows_at(image, y0, x0, size), looks, norms, (w, h), radius, step=2)
    return float(np.sqrt(d / looks.shape[1]).mean(axis=2).min())


def _thinned_looks(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """The profile's looks on every other pixel of every other line, and their squared norms."""
    def made() -> tuple[np.ndarray, np.ndarray]:
        _, _, w, h = profile.crop
        stack = np.ascontiguousarray(profile.stack.reshape(len(profile.stack), h, w, 3)[:, ::2, ::2])
        stack = stack.reshape(len(stack), -1)
        return stack, (stack * stack).sum(axis=1)

    return derived(profile, "thinned looks", made)


def likeliest(image: np.ndarray, found: Geometry, alone: Sequence[Profile],
              together: Sequence[Profile] = ()) -> list[list[Profile]]:
    """The profiles drawn at the board's size by client, the clients in the order of their best
    :func:`sample_fit` to the board, the table's ``likeliest`` first of them. Each client's looks at one size
    come first, by their fit, then its sizes drawn together: a board that reads as well with either (a fresh
    board shows covered tiles alone) is read with the looks of one size, whose digits belong with its tiles."""
    fits = {id(p): sample_fit(image, found, p) for p in [*alone, *together]}
    clients: dict[str, list[Profile]] = {}
    for p in sorted(alone, key=lambda p: fits[id(p)]):
        clients.setdefault(p.client, []).append(p)
    for p in together:
        clients.setdefault(p.client, []).append(p)
    order = sorted(clients, key=lambda client: min(fits[id(p)] for p in clients[client]))
    return [clients[client] for client in order[:limits.LIMITS.likeliest]]


def drawn_at_size(candidates: Sequence[Profile], direct: Sequence[Profile],
                  found: Geometry) -> tuple[list[Profile], list[Profile]]:
    """The profiles made at other cell sizes (of those that offer the board's rows and columns), each drawn at
    the board's size (each with its client's other sizes' numbers, ``vision.scaled.with_kin_numbers``), and
    each client's drawn together as one (``vision.scaled.client_at_pitch``): a client's looks at one size may
    fit a board best (a window resized as a whole), or its tiles as at one size and its digits as at another
    (a client that draws itself anew at the board's size). A client with a profile made at the board's size
    (``made_at``, among ``direct``, not itself drawn from another size) is not drawn there from its other
    sizes: where that profile's looks do not read the board, the screen differs from them (washed out, say),
    and looks drawn from another size, held only loosely, would be trusted where the exact ones are not. A
    profile near enough the board's size to be read as it is, but not made there, is drawn at it too (a
    window or page scaled by a few percent). The profiles drawn alone, and those drawn together."""
    if not in_range(found.pitch):
        return [], []
    clients: dict[str, list[Profile]] = {}
    made_here = {p.client for p in direct if own_at(p, found.pitch)}
    # a profile drawn at this size before and kept with what play learnt (in the user's store) stands for its
    # source drawn here: it is among ``direct``, and its looks, drawn, do not keep the client's others away
    kept_here = {p.drawn_from for p in direct if p.drawn_from and made_at(p, found.pitch)}
    for p in candidates:
        if p not in direct and p.client not in made_here and p.fits_size(found.rows, found.cols) and not resizes(p):
            clients.setdefault(p.client, []).append(p)
    alone = [at_pitch(p, found.pitch) for group in clients.values() for p in group if p.name not in kept_here]
    together = [client_at_pitch(group, found.pitch) for group in clients.values() if len(group) > 1]
    # a profile within the pitch tolerance but not made at this size (read as it is among ``direct``) is drawn
    # at the board's size as well, by itself: its looks, so near the board's size, neither lend their numbers to
    # the others nor join them
    near = [at_pitch(p, found.pitch) for p in direct
            if p.client not in made_here and not made_at(p, found.pitch) and not resizes(p)]
    return [with_kin_numbers(p, alone) for p in alone] + near, together


def rank(scores: CellScores, residual: float | None = None) -> float:
    """Lower is better: refused cells first, then the cells' mean ``residual`` (None: their own mean rms)."""
    return float((~scores.accepted).sum()) * 1000.0 + (float(scores.rms.mean()) if residual is None else residual)
