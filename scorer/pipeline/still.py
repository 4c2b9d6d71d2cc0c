"""The still table: what one settled view shows, as a value.

A :class:`StillTable` is the frame the pipeline acts on with its pictures and what was detected in it
(the face-up tiles voted over the frames read, the backs, the boneyard as seen in any of them).  A
:class:`Sight` is that table read against the game: the tiles of the layout zone and the layout they
make, and the loose tiles in front of each seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Sequence

import cv2
import numpy as np

from scorer.layout import Layout, SeenTile, reconstruct, seen_from_detections
from scorer.pipeline.boneyard import one_per_place, same_place
from scorer.pipeline.memory import LayoutMemory
from scorer.pipeline.places import table_colour, table_grey
from scorer.rules import Tile
from scorer.vision.calibration import Zones, seat_order
from scorer.vision.detector import TileDetection
from scorer.vision.reader import shows_divider

Seats = dict[int, list[TileDetection]]  # the loose tiles in front of each seat (by the player's index)
ToTable = Callable[[np.ndarray], np.ndarray] | None  # a calibration's mapping to table millimetres


@dataclass(frozen=True, eq=False)
class StillTable:
    """One settled view of the table."""

    t: float  # the frame's time (seconds of the source)
    at: float  # the gate's clock then
    image: np.ndarray  # the frame
    grey: np.ndarray  # its picture as places are compared (grey, lightly blurred)
    colour: np.ndarray | None  # the same in colour, where a boneyard's shades count
    up: tuple[TileDetection, ...]  # the face-up tiles, voted over the frames read
    down: tuple[TileDetection, ...]  # the face-down tiles of the last frame read
    backs: tuple[np.ndarray, ...]  # the boneyard's tiles seen in any frame read (one box per tile)
    motion: np.ndarray | None = None  # where the motion before it moved (the gate's small frame)

    @classmethod
    def of(cls, t: float, at: float, image: np.ndarray, up: Sequence[TileDetection], detections: Sequence[TileDetection],
           backs: Sequence[Sequence[np.ndarray]], colour: bool, motion: np.ndarray | None = None) -> StillTable:
        """The view of ``image`` (``backs``: the boneyard's tiles in each frame read; ``colour``: keep
        a colour picture too)."""
        return cls(t, at, image, table_grey(image), table_colour(image) if colour and image.ndim == 3 else None,
                   tuple(up), tuple(d for d in detections if d.face == "down"), tuple(union(backs)), motion)

    @property
    def frame_size(self) -> tuple[int, int]:
        h, w = self.image.shape[:2]
        return w, h

    @property
    def boneyard(self) -> tuple[list[np.ndarray], np.ndarray, np.ndarray | None]:
        """The boneyard as :class:`~scorer.pipeline.boneyard.Boneyard` checks it in: its backs and the pictures."""
        return list(self.backs), self.grey, self.colour


@dataclass(frozen=True)
class Sight:
    """A still table read against the game."""

    tiles: list[TileDetection]  # the face-up tiles of the layout zone, played tiles still in place filled in
    seats: Seats  # the loose face-up tiles in front of each seat (no boneyard back among them)
    seen: list[SeenTile]  # the layout zone's tiles as the layout takes them
    layout: Layout


def union(frames: Sequence[Sequence[np.ndarray]]) -> list[np.ndarray]:
    """Tiles seen in any of the frames (one box per tile)."""
    return one_per_place([c for tiles in frames for c in tiles])


def _inside(poly: Sequence[Sequence[float]], point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(np.asarray(poly, np.float32), (float(point[0]), float(point[1])), False) >= 0


def layout_and_seats(up: Sequence[TileDetection], zones: Zones, players: int) -> tuple[list[TileDetection], Seats]:
    """Face-up tiles of the layout zone, and loose face-up tiles in each seat's strip."""
    layout: list[TileDetection] = []
    seats: Seats = {}
    order = seat_order(players)
    for d in up:
        in_seat = None
        for player, side in enumerate(order):
            if not _inside(zones.layout, d.center) and _inside(zones.seats[side], d.center):
                in_seat = player
                break
        if in_seat is None:
            layout.append(d)
        else:
            seats.setdefault(in_seat, []).append(d)
    return layout, seats


def boneyard_tiles(up: list[TileDetection], detections: Sequence[TileDetection], zones: Zones, players: int,
                   to_table: ToTable, played: Collection[Tile]) -> list[np.ndarray]:
    """Face-down tiles, and loose face-up ones outside the layout (a plain back can pass for a [0|0]), and
    in a seat's strip the plain boxes read as a [0|0] that may as well be backs (the boneyard may lie there)."""
    layout_tiles, seats = layout_and_seats(up, zones, players)
    # seen_from_detections keeps every face-up tile of the layout zone, so the indices agree.
    layout = reconstruct(seen_from_detections(layout_tiles, to_table), known=played)
    backs = [layout_tiles[i] for i in layout.loose()] + [d for ds in seats.values() for d in ds if d.maybe_back]
    return [np.asarray(d.corners) for d in detections if d.face == "down"] + [np.asarray(d.corners) for d in backs]


def off_backs(seat_tiles: Seats, backs: Sequence[np.ndarray]) -> Seats:
    """The tiles in each seat's strip that do not lie where a boneyard back lies: a plain back (the
    boneyard may lie in a seat's strip) reads as a [0|0], and is no tile of a hand."""
    out = {}
    for seat, tiles in seat_tiles.items():
        kept = [d for d in tiles if not any(same_place(np.asarray(d.corners), back) for back in backs)]
        if kept:
            out[seat] = kept
    return out


def with_blank_doubles(seat_tiles: Seats, still: StillTable, zones: Zones, players: int) -> Seats:
    """A hand laid out may hold the double blank, which the detector can take for a back: a "back"
    in a seat's strip with a divider across it is the [0|0] (while it is in nobody's hand yet)."""
    if any(d.pips == (0, 0) for ds in seat_tiles.values() for d in ds):
        return seat_tiles
    _, seated = layout_and_seats(still.down, zones, players)  # (by their centres: where a tile face up would be)
    in_strips = [d for ds in seated.values() for d in ds]
    image = still.image
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if in_strips and image.ndim == 3 else image
    blanks = [d.as_blank_double() for d in in_strips if shows_divider(grey, np.asarray(d.corners))]
    _, seats = layout_and_seats(blanks, zones, players)
    if sum(len(ds) for ds in seats.values()) != 1:
        return seat_tiles  # one set holds one double blank
    out = {seat: list(ds) for seat, ds in seat_tiles.items()}
    for seat, ds in seats.items():
        out.setdefault(seat, []).extend(ds)
    return out


@dataclass(frozen=True)
class Known:
    """What is known when a still table is read: the table's zones, the game, and the pipeline's memory of the table."""

    zones: Zones
    players: int
    to_table: ToTable
    played: tuple[Tile, ...]  # the tiles on the board
    in_round: bool
    before_round: bool
    backs: Sequence[np.ndarray]  # where the boneyard's tiles lie
    memory: LayoutMemory


def sight_of(still: StillTable, known: Known, fresh: Callable[[TileDetection, SeenTile], bool]) -> Sight:
    """The still table read against what is known.  (``fresh``: whether a loose tile just appeared where a
    hand moved -- with no tile played yet, the opening tile may lie alone among loose ones.)"""
    tiles, seats = layout_and_seats(still.up, known.zones, known.players)
    seats = off_backs(seats, known.backs)
    if not known.before_round and Tile(0, 0) not in known.played:
        seats = with_blank_doubles(seats, still, known.zones, known.players)
    if known.in_round:
        tiles, _, _ = known.memory.fill_in(tiles, set(known.played), still.grey)
    seen = seen_from_detections(tiles, known.to_table)
    # (Every joined piece holding a played tile is the layout: a tile missed, misread or a box a little
    # short cuts a layout in pieces.)
    layout = reconstruct(seen, known=known.played)
    if not layout.component and seen and not known.played:
        anew = [i for i, s in enumerate(seen) if fresh(tiles[i], s)]
        if len(anew) == 1:
            layout = reconstruct(seen, anchor=anew[0])
    return Sight(tiles, seats, seen, layout)
