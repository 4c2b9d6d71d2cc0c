"""The explanation of a still table: which readings of its boxes fit the board.

Pure functions of the boxes read, the board before and what the pipeline remembers (given as
functions): no pictures are looked at here.  Where the table as read does not fit the game, a box read
another likely way, left out (two boxes over one place, one tile read in two places) or restored to a
tile remembered may make it fit; where exactly one such reading does, it is taken, else the players are
asked (:mod:`scorer.pipeline.questions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

import numpy as np

from scorer.layout import Layout, infer_placements, reconstruct, seen_from_detections
from scorer.layout.moves import Change
from scorer.layout.reading import overlapping_pairs, without_overlaps
from scorer.pipeline.questions import Alternatives, PlayedTileAgain, Question, SeenInTwoPlaces, SeenTwoWays, TableUnfit
from scorer.pipeline.sequences import drawn_on_turn, sequence_for
from scorer.rules import Board, Match, Tile
from scorer.vision.detector import HalfReading, TileDetection
from scorer.vision.geometry import long_side, polygon_iou
from scorer.words import Words, at

# Tiles touching end to end lie a tile's length apart, centre to centre; a crosswise double 3/4 of it.
AGAINST = 1.25
# Boxes of tiles lying side by side overlap by less than this (a box on part of a tile, more).
ALONE_IOU = 0.05

Boxes = list[TileDetection]
Outcome = tuple[Boxes, Layout, Change]  # a reading of the table: its boxes, the layout they make, the move
Note = tuple[Hashable | None, str]  # a thing to tell, said once per key (None: each time)


@dataclass(frozen=True)
class Fit:
    """What a reading of the table is checked against."""

    board: Board  # the board before
    to_table: Callable[[np.ndarray], np.ndarray] | None
    opening: Callable[[Layout], Tile | None]  # the round's opening tile among a layout's, where known
    remembered: Callable[[TileDetection], bool]  # whether a box is a played tile where it was last seen


@dataclass(frozen=True)
class Explained:
    """The reading of the table taken: its boxes, the layout and the move they make."""

    tiles: Boxes
    layout: Layout
    change: Change


def explain(fit: Fit, match: Match, tiles: Boxes, layout: Layout, asked: Sequence[tuple[float, float]]) -> tuple[list[Note], Explained | Question]:
    """The reading of the table that fits the game, or the question to ask (``asked``: where boxes lie
    that the players were asked to name and have not)."""
    board, notes = fit.board, list[Note]()
    change = infer_placements(board, layout, fit.opening(layout))
    problems = layout.problems + change.problems
    if pairs := overlapping_pairs(tiles):
        outcomes = fitting_without(fit, tiles, pairs)
        if len(outcomes) == 1 and (misread := misread_where_nothing_was(fit, tiles, layout, pairs, outcomes[0][0])) and (
            not outcomes[0][2].placements or still_asked_about(misread, asked)
        ):
            # Two boxes where no tile lay before, one read as a tile already played: the new tile
            # misread, not a stray box -- asked, as for such a box beside the layout (below).
            return notes, _played_again_asked(misread)
        if len(outcomes) == 1:
            (tiles, layout, change), problems = outcomes[0], []
        elif len(outcomes) > 1:
            # Two boxes over one place read differently, and either fits: the players say which.
            readings = tuple(tuple(p.tile for p in c.placements) for _, _, c in outcomes)
            return notes, SeenTwoWays(readings, alternatives(match, outcomes))
    if problems or played_twice(tiles, board):
        fixed = reread(fit, tiles)
        if fixed is not None:
            tiles, layout, change, note = fixed
            problems = []
            notes.append((None, note))
        elif not problems and (misread := misread_beside_layout(tiles, layout, board)) and (
            not change.placements or still_asked_about(misread, asked)
        ):
            # Nothing new, but a played tile read again just beside the layout: most likely the new
            # tile misread.  Taken for a stray box, the move would be lost and later turns scored as
            # passes.  (Where the new tile is found, such a box is a stray one -- unless the players
            # were already asked about it and have not answered: the next move does not answer it.)
            return notes, _played_again_asked(misread)
    if problems and (twice := duplicates(fit, tiles)):
        # A set holds each tile once: of two boxes read as one tile, the one the table fits without
        # is a box on no tile (or on part of one), as with overlapping boxes; only one such reading
        # may exist.  (Where leaving a box out places nothing, the box may be the new tile misread:
        # asked.  Not a box the players were asked to name: the next move does not answer that.)
        again = played_again(fit, tiles, layout)
        named = bool(asked) and still_asked_about(again, asked)
        outcomes = [o for o in fitting_without(fit, tiles, twice) if o[2].placements and not named]
        left = [d for d in tiles if not outcomes or not any(d is k for k in outcomes[0][0])]
        if len(outcomes) == 1 and (alone := [d for d in left if any(d is a for a in again) and _alone(d, tiles)]):
            # The box left out lies against the layout on a place of its own, where no tile lay: the new
            # tile of a player before misread, not a stray box -- its move would be lost (a pass).
            return notes, _played_again_asked(alone)
        if len(outcomes) == 1:
            notes += _left_out(left)
            (tiles, layout, change), problems = outcomes[0], []
        elif len(outcomes) > 1:
            moves = tuple(tuple(c.placements) for _, _, c in outcomes)
            return notes, SeenInTwoPlaces(moves, alternatives(match, outcomes))
    if problems and not (change.placements and not change.vanished and not layout.problems):
        # Keep the last good state and ask.
        if fit.to_table is None and not layout.component and board.tiles:
            problems = [Words("the layout is not seen (covered, or the camera moved; if the round is over, blocked, give the hands left)")]
        return notes, TableUnfit(tuple(problems), tuple(d.center for d in played_again(fit, tiles, layout)), hidden=tuple(change.vanished))
    return notes, Explained(tiles, layout, change)


def _played_again_asked(boxes: Boxes) -> PlayedTileAgain:
    """The question for boxes read as tiles already played: which tiles are they?"""
    return PlayedTileAgain(tuple((d.center, Tile.of(*pips(d))) for d in boxes))


def _left_out(boxes: Boxes) -> list[Note]:
    # (Said once per reading: the box moves a little from frame to frame.)
    return [(("left-out", d.pips), Words("the box at {place} read as {read} is left out: that tile is seen elsewhere, where it fits "
                                         "the game", place=at(d.center), read=str(Tile.of(*pips(d)))))
            for d in boxes]


def alternatives(match: Match, outcomes: Sequence[Outcome], draws: int = 0) -> Alternatives:
    """The readings of the table that fit the game as the players are offered them (``draws``: tiles
    the player on turn drew before laying the new one)."""
    prefix = drawn_on_turn(match, draws)
    return tuple(tuple(seq) for _, _, c in outcomes if (seq := sequence_for(match, prefix, c.placements)) is not None)


def fits(fit: Fit, trial: Boxes) -> tuple[Layout, Change] | None:
    """The layout and the change a trial reading of the table gives, if it fits the game cleanly."""
    layout = reconstruct(seen_from_detections(trial, fit.to_table), known=fit.board.tiles)
    change = infer_placements(fit.board, layout, fit.opening(layout))
    if change.consistent and not layout.problems and not played_twice(trial, fit.board):
        return layout, change
    return None


def fitting_without(fit: Fit, tiles: Boxes, pairs: Sequence[tuple[int, ...]]) -> list[Outcome]:
    """The readings of the table with one box of each overlapping pair (or of each group of
    candidates) left out (tiles lie flat and never overlap), that fit the game; one per distinct
    outcome."""
    outcomes: dict[tuple[object, ...], Outcome] = {}
    for trial, _ in without_overlaps(tiles, pairs):
        if (fitted := fits(fit, trial)) is not None:
            layout, change = fitted
            outcomes.setdefault(tuple((p.tile, p.at) for p in change.placements), (trial, layout, change))
    # A box left out may have been the only new tile: "nothing was played" loses to any placement.
    placing = [o for key, o in outcomes.items() if key]
    return placing or list(outcomes.values())


def reread(fit: Fit, tiles: Boxes) -> tuple[Boxes, Layout, Change, str] | None:
    """Where the table does not fit the game as read, the one other likely reading of one new tile
    that makes it fit (a 2 read as a 6 on a tile laid on a 2, a tile read as one already played),
    or the one box that is a played tile seen nowhere else.  A reading that leaves a tile lying
    against that box unjoined is none.  None where no such reading, or more than one, exists:
    then the players are asked."""
    # A played tile not seen anywhere (one entered by hand, where the camera misread it) is a
    # reading for a box that does not fit.
    seen = {Tile.of(*d.pips) for d in tiles if d.pips is not None}
    unseen = [t for t in fit.board.tiles if t not in seen]
    unseen_readings = [(t.a, t.b) for t in unseen] + [(t.b, t.a) for t in unseen if not t.is_double] if len(unseen) <= 2 else []
    found = []
    for k, d in enumerate(tiles):
        if d.halves is None or fit.remembered(d) or not (unseen_readings or any(h.alternatives for h in d.halves)):
            continue
        for reading in other_readings(d) + [p for p in unseen_readings if p != d.pips]:
            trial = list(tiles)
            trial[k] = with_pips(d, reading)
            fitted = fits(fit, trial)
            if fitted is not None and (fitted[1].placements or Tile.of(*reading) in unseen) and not _loose_against(trial, fitted[0], k):
                found.append((trial, *fitted, d, reading))
    if len({(f[3].center, Tile.of(*f[4])) for f in found}) != 1:
        return None
    trial, layout, change, d, reading = found[0]
    why = Words("a played tile seen nowhere else") if Tile.of(*reading) in unseen else Words("the only likely reading that fits the game")
    return trial, layout, change, Words("the tile at {place} read as {read} is taken as {taken}: {why}", place=at(d.center),
                                        read=str(Tile.of(*pips(d))), taken=str(Tile.of(*reading)), why=why)


def duplicates(fit: Fit, tiles: Boxes) -> list[tuple[int, ...]]:
    """For each tile read by more than one box, the boxes of it that may be left out: those not
    holding a remembered place (at most three tiles are looked at)."""
    boxes: dict[Tile, list[int]] = {}
    for k, d in enumerate(tiles):
        if d.pips is not None:
            boxes.setdefault(Tile.of(*d.pips), []).append(k)
    choices = []
    for ks in boxes.values():
        new = tuple(k for k in ks if not fit.remembered(tiles[k]))
        if len(ks) > 1 and new:
            choices.append(new)
    return choices[:3]


def unsure_new_tile(fit: Fit, tiles: Boxes, layout: Layout, change: Change,
                    read_surely: Callable[[TileDetection], bool]) -> tuple[TileDetection, list[Outcome]] | None:
    """A new tile read unsurely, with the outcomes of its readings that fit the game (its own
    first), where more than one does; None where every new tile is read surely or the rules leave
    each one reading."""
    for placed in change.placements:
        k = next((i for i in layout.component if layout.tiles[i].tile == placed.tile), None)
        if k is None or read_surely(tiles[k]) or fit.remembered(tiles[k]):
            continue
        d = tiles[k]
        outcomes = {tuple((p.tile, p.at) for p in change.placements): (tiles, layout, change)}
        for reading in other_readings(d):
            trial = list(tiles)
            trial[k] = with_pips(d, reading)
            fitted = fits(fit, trial)
            if fitted is not None and fitted[1].placements:
                outcomes.setdefault(tuple((p.tile, p.at) for p in fitted[1].placements), (trial, *fitted))
        if len(outcomes) > 1:
            return d, list(outcomes.values())
    return None


def blank_double_played(fit: Fit, tiles: Boxes, layout: Layout, down: Sequence[TileDetection]) -> tuple[Boxes, TileDetection] | None:
    """A "back" lying at a free end of value 0 exactly as a double laid there would, is the double
    blank (a black [0|0] on a dark table shows little but its outline): the layout's tiles with it
    face up, where exactly one such box exists and the table then fits the game."""
    found = []
    inside = [tiles[i] for i in layout.component]
    for d in down:
        if not against(d, inside):
            continue  # (each trial rebuilds the layout: the boneyard's backs are not tried)
        trial = [*tiles, d.as_blank_double()]
        fitted = fits(fit, trial)
        if fitted is not None and any(p.tile == Tile(0, 0) for p in fitted[1].placements):
            found.append((trial, d))
    return found[0] if len(found) == 1 else None


def played_again(fit: Fit, tiles: Boxes, layout: Layout) -> Boxes:
    """Boxes in or against the layout read as a played tile, other than where it is remembered."""
    return [d for _, d in _played_in_or_against(tiles, layout, fit.board) if not fit.remembered(d)]


def still_asked_about(boxes: Sequence[TileDetection], asked: Sequence[tuple[float, float]]) -> bool:
    """Whether one of the boxes lies where a box the players were asked about lay (within half its length)."""
    return any(np.linalg.norm(np.subtract(d.center, c)) < 0.5 * long_side(np.asarray(d.corners)) for d in boxes for c in asked)


def against(d: TileDetection, tiles: Sequence[TileDetection]) -> bool:
    """Whether the box lies against one of ``tiles`` (within 1.25 of its length, centre to centre)."""
    here = np.asarray(d.corners)
    return any(np.linalg.norm(here.mean(0) - np.asarray(o.corners).mean(0)) < AGAINST * long_side(here) for o in tiles)


def _loose_against(tiles: Boxes, layout: Layout, k: int) -> bool:
    """Whether a face-up tile left out of the layout lies against tile ``k`` of it: a tile laid
    there that does not join it, so ``k`` (or that tile) is still misread."""
    if k not in layout.component:
        return False
    return any(i not in layout.component and d.pips is not None and against(d, [tiles[k]]) for i, d in enumerate(tiles))


def _played_in_or_against(tiles: Boxes, layout: Layout, board: Board) -> list[tuple[int, TileDetection]]:
    """Boxes read as a tile already played that are in the layout or lie against it, with their indexes."""
    inside = [tiles[i] for i in layout.component]
    return [(k, d) for k, d in enumerate(tiles)
            if d.pips is not None and Tile.of(*d.pips) in board and (k in layout.component or against(d, inside))]


def misread_beside_layout(tiles: Boxes, layout: Layout, board: Board) -> Boxes:
    """Loose boxes read as a tile already played that lie against the layout."""
    return [d for k, d in _played_in_or_against(tiles, layout, board) if k not in layout.component]


def misread_where_nothing_was(fit: Fit, tiles: Boxes, layout: Layout, pairs: Sequence[tuple[int, int]], kept: Boxes) -> Boxes:
    """Boxes left out of the reading ``kept`` that are read as a played tile, lie in or against the
    layout, and overlap only boxes that are not played tiles where they were remembered: a place where
    no tile lay before."""
    on_old_place = {k for pair in pairs if any(fit.remembered(tiles[i]) for i in pair) for k in pair}
    new_place = [tiles[k] for pair in pairs for k in pair if k not in on_old_place]
    return [d for d in played_again(fit, tiles, layout) if any(d is o for o in new_place) and not any(d is o for o in kept)]


def _alone(d: TileDetection, tiles: Boxes) -> bool:
    """Whether the box overlaps no other (a box on part of a tile, or straddling two, overlaps them)."""
    here = np.asarray(d.corners)
    return not any(o is not d and polygon_iou(here, np.asarray(o.corners)) > ALONE_IOU for o in tiles)


def played_twice(detections: Sequence[TileDetection], board: Board) -> bool:
    """Whether a tile already on the board is read a second time (a set holds each tile once)."""
    seen: dict[Tile, int] = {}
    for d in detections:
        if d.pips is not None:
            t = Tile.of(*d.pips)
            seen[t] = seen.get(t, 0) + 1
    return any(n > 1 and t in board for t, n in seen.items())


def other_readings(d: TileDetection, limit: int = 4) -> list[tuple[int, int]]:
    """The tile's likeliest other readings (pips of the first half, of the second), best first.  A half
    with no count read (its pips washed out) may show any: then every reading of it is one."""
    assert d.halves is not None
    first, second = d.halves
    if first.unread or second.unread:
        counts = [range(7) if h.unread else [h.pips, *(k for k, _ in h.alternatives)] for h in (first, second)]
        return [(a, b) for a in counts[0] for b in counts[1] if (a, b) != (first.pips, second.pips)]
    options = []
    for a, pa in [(first.pips, first.confidence), *first.alternatives]:
        for b, pb in [(second.pips, second.confidence), *second.alternatives]:
            if (a, b) != (first.pips, second.pips):
                options.append((pa * pb, (a, b)))
    return [p for _, p in sorted(options, reverse=True)[:limit]]


def pips(d: TileDetection) -> tuple[int, int]:
    assert d.pips is not None, "a face-up tile's reading"
    return d.pips


def with_pips(d: TileDetection, reading: tuple[int, int]) -> TileDetection:
    """The box read as ``reading``."""
    assert d.halves is not None
    halves = tuple(HalfReading(p, h.center, h.confidence, h.alternatives) for p, h in zip(reading, d.halves))
    return TileDetection(d.corners, d.face, d.confidence, halves, d.maybe_back)  # type: ignore[arg-type]
