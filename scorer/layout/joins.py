"""Tiles seen on the table and where they meet: joins found from geometry alone
(:mod:`scorer.vision.meetings`: ports, and where a tile laid at one lies), pips matching across every join.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from scorer.rules import Tile
from scorer.vision.meetings import Side, TileAxes, meetings, ports, tile_axes
from scorer.words import Words, at

Phys = Side  # physical sides: the two halves of a non-double; long sides and short ends of a double

JOIN_TOLERANCE = 0.38  # of a tile's width, between where a joined tile should be and where it is


@dataclass(frozen=True, slots=True)
class SeenTile:
    """A face-up tile in table coordinates: corners go round, c0 -> c1 a long side;
    ``pips`` are the half at the c0/c3 end, then the half at the c1/c2 end."""

    corners: tuple[tuple[float, float], ...]
    pips: tuple[int, int]
    confidence: float = 1.0
    # Other likely pip counts of each half (the reader's runner-ups), for a join to choose among.
    alternatives: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    @property
    def tile(self) -> Tile:
        return Tile.of(*self.pips)


def _geom(seen: SeenTile) -> TileAxes:
    return tile_axes(seen.corners)


@dataclass(frozen=True, slots=True)
class PhysJoin:
    """Tile ``a`` at physical side ``side_a`` touches tile ``b`` at ``side_b``."""

    a: int
    side_a: Phys
    b: int
    side_b: Phys
    error: float  # distance from the ideal position, in tile widths


@dataclass
class Layout:
    """What the table shows: the tiles, the joins between them, and anything inconsistent."""

    tiles: list[SeenTile]
    joins: list[PhysJoin]
    component: list[int]  # indices of the tiles of the played layout (the largest joined group)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # oddities reported but not in the way of scoring

    def layout_tiles(self) -> list[Tile]:
        return [self.tiles[i].tile for i in self.component]

    def loose(self) -> list[int]:
        inside = set(self.component)
        return [i for i in range(len(self.tiles)) if i not in inside]


def _where(seen: SeenTile) -> str:
    c = np.asarray(seen.corners).mean(0)
    return Words("{tile} at {place}", tile=seen.tile, place=at(c))


def find_joins(tiles: Sequence[SeenTile], tolerance: float = JOIN_TOLERANCE) -> tuple[list[PhysJoin], list[tuple[PhysJoin, str]]]:
    """Every geometric join between the tiles, and the places where tiles meet like a join but their pips differ."""
    found: dict[tuple[int, int], PhysJoin] = {}
    mismatches: dict[tuple[int, int], tuple[PhysJoin, str]] = {}
    for join, value, rvalue in _meetings(tiles, tolerance):
        key = (min(join.a, join.b), max(join.a, join.b))
        if rvalue != value:
            message = Words("pips do not match at a join: {tile} shows {value} where {other} shows {other_value}",
                            tile=_where(tiles[join.a]), value=value, other=_where(tiles[join.b]), other_value=rvalue)
            mismatches[key] = (join, message)
            continue
        if key not in found or join.error < found[key].error:
            found[key] = join
    return list(found.values()), [m for key, m in mismatches.items() if key not in found]


def _meetings(tiles: Sequence[SeenTile], tolerance: float) -> list[tuple[PhysJoin, int, int]]:
    """Every place where two tiles meet as joined tiles do, whatever their pips: the join, the value
    the port's tile shows there and the value the receiving tile shows."""
    geoms = [_geom(t) for t in tiles]
    width = float(np.median([g.width for g in geoms])) if geoms else 1.0
    out = []
    for m in meetings([(g, t.pips[0] == t.pips[1]) for t, g in zip(tiles, geoms)], width, tolerance):
        # (A double shows its one value on every side; a non-double the half's.)
        value, rvalue = (tiles[k].pips[1] if side == "half1" else tiles[k].pips[0] for k, side in ((m.a, m.side_a), (m.b, m.side_b)))
        out.append((PhysJoin(m.a, m.side_a, m.b, m.side_b, m.error), value, rvalue))
    return out


def _ports(seen: SeenTile, g: TileAxes | None = None) -> list[tuple[Phys, np.ndarray, np.ndarray]]:
    """Where a tile can take another: each physical side's middle and its outward direction (``g``:
    the tile's geometry, where already known)."""
    return ports(g or _geom(seen), seen.pips[0] == seen.pips[1])
