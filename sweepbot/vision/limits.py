"""Every number that decides a read: which profile reads a board, and whether each cell is named or refused.

One table, :data:`LIMITS`, each number with the reason for its value. The reader looks them up at each read,
so a number changed here (or, for an experiment, with :func:`using`) changes what follows at once:
``benchmarks/limits.py`` reads every recorded fixture and runs the reading tests with one number changed,
and docs/limits.md lists what each one guards. RMS values are root-mean-square pixel differences on the
0-255 scale; a margin is how much nearer a cell is to its best look than to the best look of another
character, as a share of the distance between those two looks (1: an exact match; 0: half-way).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Any


def _number(value: Any, reason: str) -> Any:
    return field(default=value, metadata={"reason": reason})


@dataclass(frozen=True)
class Limits:
    # -- a cell named or refused ------------------------------------------------------------------------------
    max_rms: float = _number(30.0, (
        "The most a cell may differ from its best look and be named: a screen's colour management, a few "
        "pixels of antialiasing and a brightness change the fit did not undo stay well under it; a look the "
        "profile does not hold (a digit never seen) is far over it."))
    min_margin: float = _number(0.5, (
        "The least margin a named cell has: a cell nearer half-way between two looks than to either is not "
        "named (a tile pressed half down, a digit half drawn)."))
    unseen_number_share: float = _number(0.75, (
        "A profile made at the board's size that lacks some numbers names a cell a number or the empty cell only "
        "within this share of the distance between its two closest numbers (or its own max_rms, where larger): "
        "a digit it never saw lies about as far from the others as they do from each other (gnome-mines's 3 at "
        "34 px, without its look, is 25.7 from its 2, the looks' closest two numbers 24.3 apart: 1.06 of it), "
        "while a number it holds, drawn half a pixel off, stays within 0.54 of it (gnome-mines's 6 at 30 px, 13.9 "
        "of 25.6). Calibration holds the profiles it makes to half (its tolerance), having seen their cells."))
    unanchored_rms: float = _number(6.0, (
        "On a board whose cells all look alike (a fresh board), the most a cell may differ from its look: "
        "a brighter screen and a board of revealed cells look the same, so only a near-exact match tells "
        "covered from revealed until two kinds of cell, or one kind's shape (pin_apart_rms), pin the screen's "
        "brightness down."))
    levels_rms: float = _number(6.0, (
        "A board whose cells are all named by the looks as they are, with a mean residual above this, is tried "
        "with the screen's brightness and contrast fitted to the looks (a screen a few levels brighter or "
        "darker than the one the profile was made on, read right but not pixel for pixel); under it, the looks "
        "already match pixel for pixel. A board with a cell refused where it is is tried with the fit anyway."))
    level_guesses: tuple[tuple[float, float], ...] = _number(
        tuple((g, o) for g in (0.85, 0.92, 1.0, 1.08, 1.15) for o in (-24.0, -12.0, 0.0, 12.0, 24.0)), (
            "The gains and offsets tried first when the brightness is fitted, before the least-squares passes "
            "refine the best: a screen up to 15 % more or less contrasted and 24 levels brighter or darker, "
            "which a least-squares fit alone, started from the wrong looks, does not find."))
    min_level_gain: float = _number(0.7, (
        "A brightness fit whose gain (contrast) on some colour channel is under this is not a screen's: it maps "
        "the looks onto the wrong cells (a fit to a board of cells named wrongly), and the looks are kept as "
        "they are."))
    max_level_gain: float = _number(1.4, (
        "... nor one whose gain is over this: a screen 40 % more contrasted than the one a profile was made on "
        "is not one a desktop or browser setting gives."))
    max_level_offset: float = _number(60.0, (
        "... nor one that moves a colour channel by more than this many levels: about a quarter of the scale, "
        "far past any brightness setting the level_guesses start from (24)."))
    level_passes: int = _number(3, (
        "Least-squares passes of a brightness fit after its best guess (level_guesses): each names the cells "
        "with the looks as last fitted and fits the gain and offset to them again; a guess within a step of "
        "the screen settles in one or two."))
    level_dark_margin: float = _number(12.0, (
        "A look's pixels this near black are left out of a brightness fit: a darker screen clips them to 0 and "
        "they would pull the gain towards nothing (as level_light_margin near white)."))
    level_light_margin: float = _number(30.0, (
        "A look's pixels this near white (over 225) are left out of a brightness fit: a screen 15 % brighter "
        "(the brightest level_guesses start from) clips them to 255."))
    level_screen_margin: float = _number(3.0, (
        "The screen's pixels this near black or white are left out of a brightness fit: a change of levels "
        "may have clipped them there."))
    level_least_pixels: float = _number(50.0, (
        "A colour channel's gain and offset are fitted only from at least this many of the board's pixels "
        "kept (the margins above; cells drawn alike counted as many): fewer, mostly clipped, and the channel "
        "is kept as it is."))
    level_least_spread: float = _number(4.0, (
        "A colour channel whose kept look pixels vary less than this (variance, squared levels) has its offset "
        "fitted alone: pixels of one level (a board of plain grey cells) say nothing of the contrast."))
    fitted_nearer: float = _number(1.0, (
        "Looks fitted to the screen's brightness read a board only when the cells' mean residual against them "
        "is at least this much under their mean residual against the looks as they are: a fit that comes no "
        "nearer than that found no brightness change, and the exact looks are kept."))
    pin_apart_rms: float = _number(20.0, (
        "A board of one kind of cell (a fresh board, or one with a first number) pins the screen's brightness "
        "by that look's shape alone when no other character's look, under whatever gain and offset bring it "
        "nearest each cell, comes within this much more than the look itself of them: a bevelled tile's light "
        "and dark edges say what the gain and offset are (ace-minesweeper's covered tile on screens 8 % "
        "brighter or 10 % darker: its other looks come 23 (the question mark at 12 px) to 58 from it, its own "
        "within 1; xdemineur's, 31), while a tile that is another look's shape at another level does not "
        "(gnome-mines's covered tile, its empty cell 0.1-0.4 from it; sgt-mines's, 5-8): its board is refused, "
        "not named by a guess about the screen. Looks drawn at another size come only so close to any cell "
        "(ace-minesweeper's tiles resized 1.25 or 1.5 times: 6-17 from theirs drawn there, the question mark "
        "33-38), and a board of one look read with them is read only so pinned."))
    anchor_cells: int = _number(2, (
        "A brightness fit is trusted only when two kinds of cell pin it down, each named on at least this "
        "many cells: one cell alone of a kind may be the cell read wrongly."))
    nudge_reach: int = _number(3, (
        "How far (px) a refused cell's window is moved each way for a second look, at every cell refused: a "
        "client that draws at fractional positions puts some glyphs a pixel off, and looks drawn at another "
        "size may fit a quarter of a board (sgt-mines's covered tiles at 28 px, by its 32 px looks) or all of "
        "it (gnome-mines's fresh board at 1.3x, by its 46 px looks) a pixel or two off. Each second look "
        "scores a cell's window at (2 reach + 1)^2 places, a bound on 2x2 blocks first."))
    align_radius: int = _number(2, (
        "How far (px) one pass of lining the grid up with the looks moves it each way: the edges a board is "
        "located by may be a pixel or two off its cells' windows."))
    align_price: float = _number(4.0, (
        "What each pixel a grid is moved by costs when it is lined up with the looks (squared levels, for each "
        "pixel and colour channel of a cell's window): where every move fits as well (plain tiles), the grid "
        "stays where it was located; a window a pixel off its look costs far more than that."))
    align_rounds: int = _number(2, (
        "Rounds of lining a grid up, each from where the last left it, while the last moved a line by the whole "
        "align_radius: a grid located further off than one round moves it at align_price (nicegui-minesweeper's "
        "looks drawn at 67 % zoom on a grid 2 px off) settles in the second."))
    align_passes: int = _number(3, (
        "Passes of lining a grid up line by line: each moves every column to its best given the rows, then "
        "every row given the columns; the grids of the recorded boards settle in one or two."))

    # -- a profile drawn at another cell size ---------------------------------------------------------------
    scaled_rms: float = _number(40.0, (
        "The most a cell may differ from a look drawn at another size: resizing blurs a template's edges by a "
        "pixel and a client draws its tiles anew at each size (21-32 from their own looks at 1.3 or 0.94 "
        "times the size); the margin still has to hold."))
    drawn_number_rms: float = _number(18.0, (
        "A number read with a profile drawn at another size is named by its shape this close to its look "
        "(held apart from the other looks by drawn_number_margin): a client draws its digits anew at each "
        "size, and a 3 drawn small may be nearer a 2 scaled down than to anything else. Farther, its shape "
        "names it only when every other look lies drawn_number_apart times as far, and else only its digit's "
        "colour (drawn_ink_rms)."))
    drawn_number_apart: float = _number(1.6, (
        "A drawn number farther than drawn_number_rms from its look is named by its shape when the nearest "
        "look of another character lies at least this many times as far: a window or screen resized as a whole "
        "(a desktop's fractional scale) blurs every edge of a digit drawn in a single colour, and "
        "ace-minesweeper's and xdemineur's digits shown 1.25 to 2 times larger lie 19-34 from their looks drawn "
        "there, each 1.6 to 2.7 times as far from any other look; a digit drawn anew small, near two looks, "
        "lies about as far from both (nicegui-minesweeper's 3 at 14 px: 15.8 from its look, 15 from its 2)."))
    drawn_number_margin: float = _number(0.75, (
        "... and only this far from any other look: a drawn number half-way between two digits is an open cell "
        "of unknown number, learnt when a game shows what it is. The margin is taken as well as a share of the "
        "cell's own (squared) distance to its look: digits drawn small lie close together, and a cell far from "
        "both is nearly as near one as the other, however large a share of their distance it is nearer (at "
        "14 px a nicegui-minesweeper 3 comes 15 from its 2 drawn small, 15.8 from its 3, which lie 5 apart: "
        "a margin of 0.95, and 0.11 of its own distance; its right numbers at 26.8 px, at least 0.81)."))
    drawn_ink_rms: float = _number(60.0, (
        "A drawn number farther than drawn_number_rms from its look is still named when it is drawn in its "
        "digit's colour and no other digit's, up to this far: the colour of a digit stays when its shape, "
        "drawn anew, does not."))
    drawn_levels_offset: float = _number(6.0, (
        "A board read with a profile drawn at another size is tried again with the screen's brightness fitted "
        "when its cells are this many levels brighter or darker than their best looks (each look's cells' "
        "median, then the median over the looks named): resizing keeps a look's mean level (under 1 level on "
        "most recorded boards at a drawn size, 10 on ace-minesweeper's 12 px board scaled by 1.5, whose fit then "
        "refuses a cell), while a screen 8 % brighter moves every look's cells by about 19, and the drawn looks' "
        "loose limit would take it (covered tiles named in place of brightened empty cells). One look drawn "
        "from another size than the rest moves only its own cells: sgt-mines's flags drawn from its 20 px "
        "looks lie 7 levels off its 32 px board's, 120 of the 192 cells of a board of flags and numbers, whose "
        "numbers lie 2 to 4 off (the cells' median alone would be 7). Its mean residual says nothing there: "
        "drawn looks differ from the screen by up to 19 on average."))
    register_cells: int = _number(2, (
        "A look drawn at another size is registered at the board's pixels (moved where the board shows it, "
        "vision.register) when at least this many cells of it were named a few pixels off it, every one by the "
        "same move, and more of them than where they are: one cell alone may be a cell half drawn; a client draws each "
        "size's looks at its own place in the cell (sgt-mines's 12 px covered tiles drawn at 20 px fit its "
        "cells 1 px down and right, its flags 2 px), and every cell of such a look is found again by a second "
        "look on each frame the board is not tracked."))
    register_inset_share: float = _number(0.125, (
        "... and only while the looks registered leave the window at least this much less than its size on "
        "each side (the moves' span, a share of the window's width or height): the windows shrink by that "
        "span, and a covered tile's bevel, a pixel or two at 12 px, must stay in them to tell it from an open "
        "cell."))
    drawn_fitting_share: float = _number(0.25, (
        "A board read with a profile drawn at another size reads its refused cells as open cells of unknown "
        "number only while this share of its cells fit the drawn looks as they are; fewer, and the looks are "
        "not this client's: the board is refused."))

    # -- which profile reads a board -----------------------------------------------------------------------
    pitch_tolerance: float = _number(0.05, (
        "How far (a share of the cell size) a board's cell size may be from a profile's to be "
        "read with it as it is; farther, the profile is drawn at the board's size."))
    pitch_least_px: float = _number(1.0, (
        "... and at least this many pixels: a board of small cells measured a pixel off its profile's size "
        "(12.6 px cells of a 12 px profile) is read with its looks as they are."))
    exact_rms: float = _number(4.0, (
        "A read this close to its looks on every cell (mean RMS) is its client's, pixel for pixel: no other "
        "client's looks are drawn at the board's size to be tried (they cost time and cannot do better). A "
        "read with every cell this close (each cell's RMS) has nothing over the pixels it reads: play does "
        "not wait for a toast beside the board to go (nicegui-minesweeper's \"You won!\" over the edge of the "
        "next board's bottom row, whose shadow leaves those cells 2.2 from their look). A profile that lacks "
        "some number names an empty cell beside a covered tile only this close: a number it never saw may "
        "come near the empty cell's look (a generated client's grey 8, 10.8 from it), never this near."))
    likeliest: int = _number(2, (
        "Clients whose looks, drawn at a board's size, are lined up with the board and read in full, every "
        "size of each, in the order of their fit to a sample of its cells, until one reads every cell: the "
        "client that fits the sample best reads the board on every recorded fixture shown at another size, "
        "the other clients' looks fitting it worse by several RMS; a second is read only where the first "
        "refuses cells (each costs a full read of each of its sizes on a board's first read)."))
    sample_cells: int = _number(48, (
        "Cells of the board that first look is taken at, spread evenly over it, each client's looks lined up "
        "with the sample by up to align_radius px."))
    source_shifts: tuple[tuple[int, int], ...] = _number(
        ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-2, 0), (2, 0)), (
            "Moves (px) of a board's located edges tried when its cells, drawn at the profile's size, do not "
            "all read: the located edge of a board whose cells grow may be a pixel or two off."))
    grown: float = _number(0.75, (
        "A profile of a client whose cells grow in play reads cells down to this share of its own size as "
        "grown ones (34 px columns drawn 39 px wide)."))
    edge_rms: float = _number(12.0, (
        "Cells beyond a board's edge count as cells (the board goes on: its edge was missed) only when they "
        "match this closely: a window's background beside a board may come within the reader's limit of a "
        "look. Read with looks drawn at another size, cells beyond count as close as the board's own came."))
    edge_share: float = _number(0.6, (
        "The share of a line of cells beyond a board's edge that must read as cells (within edge_rms) for the "
        "board to be taken to go on past it: a window's background or a toolbar beside a board may match a "
        "look here and there, a missed line of cells matches along most of its length."))
    edge_cells: int = _number(2, (
        "Cells beyond a board's edge drawn pixel for pixel (within edge_rms) as the board's own numbers or "
        "flags mean the board goes on only when at least this many of them are (and edge_share of the line's "
        "cells that are no plain patch): one window may come near one of the board's by chance."))
    flat_std: float = _number(8.0, (
        "A look whose pixels vary less than this (standard deviation) is a plain patch: a covered tile "
        "without a bevel, or one drawn so small that its bevel fades (sgt-mines's at 13 px, std 7.7), which "
        "any plain background beside a board, and the board's own frame, also match."))

    # -- a board read where it was --------------------------------------------------------------------------
    same_place_share: float = _number(0.25, (
        "How far (a share of the cell size) a cell edge of a board read but for some cells may lie from where "
        "the board was read before and still be the same board, cell for cell: a board located afresh while a "
        "toast hides part of it is lined up a few pixels off the grid play kept (nicegui-minesweeper: 4 px of "
        "40), far less than a board moved by a cell."))
    same_place_px: float = _number(2.0, (
        "... and at least this many pixels: on small cells a quarter of the size is less than the pixel or two "
        "a grid lined up on a part of the board may come off."))
    mostly_unread: float = _number(0.5, (
        "The most of a board's cells (a share) the profile in use may leave unread where the board was, for "
        "the board to be its client's with something laid over those cells, and no other profile tried: a "
        "client's toast hides a few cells (nicegui-minesweeper's, 4 of 81), while another client's board read "
        "with these looks leaves nearly all unread (xdemineur's looks on sgt-mines's new board: 469 of 480)."))

    # -- open cells of a number not learnt ------------------------------------------------------------------
    max_opened: int = _number(4, (
        "The most cells of a board read as open cells of unknown number (with a profile still learning): "
        "a few rare looks; more means the profile does not fit."))
    opened_share: int = _number(8, (
        "... or one cell in this many on a larger board (a client whose rows differ in height draws a row's "
        "digits at another size)."))
    ground_levels: int = _number(8, (
        "A pixel of a cell shows the empty cell's ground (or a covered tile's face) when every channel lies "
        "within this many levels of that look's pixel: a digit never seen leaves its cell's ground as it is, "
        "while a tile lit or pressed under the pointer is drawn a tone off all over (gnome-mines's lit tile "
        "11 levels rms, a generated client's 9 levels from its empty cell)."))
    ground_share: float = _number(0.5, (
        "A cell refused, nearest an open look, is an open cell of a number never seen when the empty cell's "
        "ground shows on at least this share of its pixels (ground_levels), and a covered tile's face on "
        "fewer: a digit covers less than half its cell (a 6 at 21 and 34 px leaves 64-66 %), a tile half "
        "pressed shows neither."))
    ground_reach: float = _number(2.0, (
        "A ground never seen under the numbers' ink (a client that tints each number's ground) is an open "
        "cell's when it lies no farther from the nearest number's ground than this many times as far as the "
        "numbers' grounds seen lie from each other, at most: gnome-mines's tints step 20-56 levels from one "
        "number to the next, so that a profile that saw 1-3 (39 apart) takes the 4, 5 and 6 (48-71 from the "
        "3), while a wrong flag's red ground lies 241 from the 4's."))

    # -- a digit's colour ----------------------------------------------------------------------------------
    ink_spread: int = _number(40, (
        "A pixel whose channels lie this far apart (0-255) is coloured: ink, not grey."))
    min_ink: float = _number(0.02, (
        "The share of a cell's pixels that must be coloured for its colour to count."))
    ink_match: float = _number(40.0, (
        "How near (BGR distance) a cell's colour must be to its digit's: the same ink through antialiasing "
        "and a resize (sgt-mines's red 3 at 28 px is 31 from its look drawn from 20 px)."))
    ink_apart: float = _number(2.5, (
        "... and how many times as far from every other digit's colour: two digits drawn in near colours "
        "name neither. A number so named is held apart only from the looks its colour does not rule out: those "
        "drawn in a colour nearer than this many times (a flag in a 3's red), not those drawn in no colour "
        "(the empty cell and the covered tile it may come nearer, drawn anew small)."))
    ink_least_gap: float = _number(4.0, (
        "A cell's colour counts as at least this far (BGR distance) from its digit's when other digits' colours "
        "are held ink_apart times as far: a cell drawn in exactly its digit's colour still needs every other "
        "digit's colour 10 away, not merely any distance."))

    def reason(self, name: str) -> str:
        """Why ``name`` has its value."""
        for f in fields(self):
            if f.name == name:
                return str(f.metadata["reason"])
        raise KeyError(name)


#: The numbers every read uses.
LIMITS = Limits()


def names() -> list[str]:
    """Every number of the table, in its order."""
    return [f.name for f in fields(Limits)]


@contextmanager
def using(**changes: Any) -> Iterator[Limits]:
    """The reader with some numbers changed while the block runs (for experiments and tests); what was
    worked out from the numbers before (profiles drawn at a size) is worked out again."""
    from sweepbot.vision import derived

    global LIMITS
    kept = LIMITS
    LIMITS = replace(kept, **changes)
    derived.forget_all()
    try:
        yield LIMITS
    finally:
        LIMITS = kept
        derived.forget_all()
