"""From one table state to the next: which tiles are new, and where each was attached, as engine moves."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorer.errors import IllegalMove
from scorer.layout.reconstruct import Layout, attach_points
from scorer.rules import Board, FreePoint, Tile


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
        change.problems.append(f"{t} was on the table and is not seen in the layout now (moved, covered or taken away)")
    new = [t for t in seen_tiles if t not in before]
    board = before
    if not before.tiles and new:
        if len(new) == 1 or opening in new:
            first = new[0] if len(new) == 1 else opening
            board = board.place(first)
            change.placements.append(Placement(first, None))
            new = [t for t in new if t != first]
        else:
            change.problems.append(
                f"{len(new)} tiles appeared on an empty table ({', '.join(map(str, new))}): the opening tile cannot be told"
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
                change.problems.append(f"{tile} cannot be where it lies: {exc}")
                pending.remove(tile)
                continue
            change.placements.append(Placement(tile, at))
            pending.remove(tile)
            progressed = True
        if not progressed:
            break
    for tile in pending:
        change.problems.append(f"{tile} is new but not joined to the layout where a tile may go")
    change.board = board
    return change
