"""From one table state to the next: which tiles are new, and where each was attached, as engine moves."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence, cast

import numpy as np

from scorer.errors import IllegalMove
from scorer.layout.engine_board import attach_points
from scorer.layout.joins import Layout, SeenTile
from scorer.layout.open_ends import open_end_problems
from scorer.layout.reading import (
    _beside_problems, _confirmed_by_joins, _pips, picture_problems, read_board, unsure_problem,
)
from scorer.layout.reconstruct import reconstruct
from scorer.layout.reread import read_again, reading_likelihood
from scorer.rules import Board, FreePoint, Tile
from scorer.words import Words, at, words_of

if TYPE_CHECKING:
    from scorer.vision.tile_detection import TileDetection


@dataclass(frozen=True, slots=True)
class Placement:
    """A new tile and the free point of the board it was attached at."""

    tile: Tile
    at: FreePoint | None  # None for the opening tile


@dataclass
class Change:
    placements: list[Placement] = field(default_factory=list)
    vanished: list[Tile] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    board: Board | None = None  # the board after every placement

    @property
    def consistent(self) -> bool:
        return not self.vanished and not self.problems


def infer_placements(before: Board, layout: Layout, opening: Tile | None = None) -> Change:
    """The placements that turn ``before`` into what ``layout`` shows, in a legal order.

    Tiles of ``before`` missing from the layout are reported (a tile moved or
    vanished); a new tile not joined to the board is a problem, never guessed.
    On an empty table with several new tiles, ``opening`` names the one that came
    first (a camera that saw it appear knows); without it that is a problem.
    """
    change = Change()
    seen_tiles = layout.layout_tiles()
    seen = set(seen_tiles)
    change.vanished = [t for t in before.tiles if t not in seen]
    for t in change.vanished:
        change.problems.append(Words("{tile} was on the table and is not seen in the layout now (moved, covered or taken away)", tile=t))
    new = [t for t in seen_tiles if t not in before]
    board = before
    if not before.tiles and new:
        if len(new) == 1 or opening in new:
            first = new[0] if len(new) == 1 else cast(Tile, opening)  # (opening is among the new here)
            board = board.place(first)
            change.placements.append(Placement(first, None))
            new = [t for t in new if t != first]
        else:
            change.problems.append(
                Words("{count} tiles appeared on an empty table ({tiles}): the opening tile cannot be told", count=len(new),
                      tiles=", ".join(map(str, new)))
            )
            change.board = board
            return change
    pending = list(new)
    while pending:
        points = attach_points(board, layout)
        progressed = False
        for tile in list(pending):
            if tile not in points:
                continue
            at_tile, side = points[tile]
            try:
                at = board.point(at_tile, side)
                board = board.place(tile, at)
            except IllegalMove as exc:
                change.problems.append(Words("{tile} cannot be where it lies: {why}", tile=tile, why=words_of(exc)))
                pending.remove(tile)
                continue
            change.placements.append(Placement(tile, at))
            pending.remove(tile)
            progressed = True
        if not progressed:
            break
    for tile in pending:
        change.problems.append(Words("{tile} is new but not joined to the layout where a tile may go", tile=tile))
    change.board = board
    return change


@dataclass(frozen=True)
class MoveReading:
    """What one image shows was played since a known board, and what the players should check first."""

    change: Change  # the placements, in a legal order, and the board after them
    layout: Layout
    problems: list[str]
    notes: list[str]

    @property
    def sure(self) -> bool:
        return not self.problems


def read_move(before: Board, detections: Sequence[TileDetection], *, to_table: Callable[[np.ndarray], np.ndarray] | None = None,
              image: np.ndarray | None = None) -> MoveReading:
    """The tile(s) laid since ``before`` (the board the engine holds) that one image's detections show,
    and the free point each was attached at, as engine moves.

    The tiles of ``before`` are known, so they need not be read again: one of them missed or read
    unsurely does not hide the move -- the layout's pieces holding played tiles are the layout, and only
    the new tiles must be read surely (or be settled by their joins).  A played tile not seen at all is
    still reported (moved, covered or taken away), as are an open end of the board after the move that
    may hide a tile and tiles joined beside the layout."""
    reading = read_board(detections, before.every_double_spins, to_table, image)
    up = reading.faces
    layout, change, reread = _read_again_by_board(before, reading.layout.tiles, up)
    notes = reading.notes + [n for n in layout.notes if n not in reading.notes]
    for i, pips in reread.items():
        notes.append(Words("the tile at {place} read as {read} is taken as {taken}: so the table fits the board before",
                           place=at(up[i].center), read=str(Tile.of(*_pips(up[i]))), taken=str(Tile.of(*pips))))
    if not change.placements:
        # No new tile found: the move may be one of the tiles read unsurely, anywhere.
        return MoveReading(change, layout, _other_table(before, change) + reading.problems + change.problems, notes)
    problems = list(layout.problems) + list(change.problems)
    # Only the new tiles must be read surely -- and a tile read as a played one seen elsewhere too.
    counts = Counter(seen.tile for seen in layout.tiles)
    new = {p.tile for p in change.placements}
    # (A tile read again is one read unsurely, and never settled by its joins: a new one is asked about.)
    problems += [unsure_problem(up[i]) for i, seen in enumerate(layout.tiles)
                 if (seen.tile in new or counts[seen.tile] > 1) and not up[i].certain and not _confirmed_by_joins(layout, up, i)]
    if change.board is not None:
        problems += open_end_problems(layout, change.board, up, detections, image)[0]
    # (New tiles were found: the picture showed tiles, though it may be too grainy to trust them.)
    problems = _other_table(before, change) + picture_problems(image, read_any=True) + problems + _beside_problems(layout)
    return MoveReading(change, layout, problems, notes)


# A board before of this many tiles or more, most of them not seen now, may be another table's.
OTHER_TABLE_TILES = 3


def _other_table(before: Board, change: Change) -> list[str]:
    """Where most of a board before is not seen, the question whether the picture shows that table at all (first)."""
    count = len(before.tiles)
    if count < OTHER_TABLE_TILES or len(change.vanished) <= count / 2:
        return []
    return [Words("most of the board before is not seen ({seen} of its {count} tiles): is this the same table, seen whole?",
                  seen=count - len(change.vanished), count=count)]


def _read_again_by_board(before: Board, tiles: Sequence[SeenTile], up: Sequence[TileDetection]) -> tuple[Layout, Change, dict[int, tuple[int, int]]]:
    """The layout the tiles give with the board before known, and the change from it -- where that does
    not fit the board cleanly, with tiles read unsurely read again (:func:`read_again`), as a played tile
    seen nowhere else too, never so that a new tile is lost.  Returns the tiles read again too."""

    def fit(trial: list[SeenTile], current: tuple[Layout, Change] | None) -> tuple[int, tuple[Layout, Change]] | None:
        layout = reconstruct(trial, known=before.tiles)
        change = infer_placements(before, layout)
        if current is not None and len(change.placements) < len(current[1].placements):
            return None  # a new tile read as a played one seen nowhere else: the move lost, not found
        # (A move is looked for: a reading that shows none explains the table less well than one that does.)
        return len(layout.problems) + len(change.problems) + (not change.placements), (layout, change)

    def unseen(trial: list[SeenTile], i: int) -> list[tuple[int, int]]:
        seen = {t.tile for t in trial}
        missing = [t for t in before.tiles if t not in seen]
        return [(t.a, t.b) for t in missing] + [(t.b, t.a) for t in missing if not t.is_double] if len(missing) <= 3 else []

    # (A tile read surely as another than the board holds is reported, not explained away.)
    _, (layout, change), reread = read_again(tiles, [not d.certain for d in up], fit, unseen,
                                             lambda i, pips: reading_likelihood(up[i], pips))
    return layout, change, reread
