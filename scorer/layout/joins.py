"""Tiles seen on the table and where they meet: joins found from geometry alone.

Every tile offers *ports*: the outer end of each half of a non-double, the long sides and short ends
of a double.  A tile joined at a port lies with its receiving part half a tile width beyond it: the
near half of a non-double (laid straight on, or turned a corner), or the centre of a double laid
crosswise.  Pips must match across every join.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

import numpy as np

from scorer.rules import Tile
from scorer.words import Words, at

# Physical sides: the two halves of a non-double; long sides and short ends of a double.
Phys = Literal["half0", "half1", "long+", "long-", "short+", "short-"]

JOIN_TOLERANCE = 0.38  # of a tile's width, between where a joined tile should be and where it is
ALIGN_TOLERANCE = 0.45  # |cos| above which two directions count as parallel


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


@dataclass(frozen=True, slots=True)
class _Geom:
    center: np.ndarray
    axis: np.ndarray  # unit, from the half0 end to the half1 end
    normal: np.ndarray
    length: float
    width: float


def _geom(seen: SeenTile) -> _Geom:
    c = np.asarray(seen.corners, np.float64)
    end0, end1 = (c[0] + c[3]) / 2, (c[1] + c[2]) / 2
    axis = end1 - end0
    length = float(np.linalg.norm(axis))
    axis = axis / max(length, 1e-9)
    width = float(np.linalg.norm(c[2] - c[1]))
    return _Geom(c.mean(0), axis, np.array([-axis[1], axis[0]]), length, width)


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
    ports: list[tuple[int, Phys, np.ndarray, np.ndarray, int]] = []  # tile, side, point, direction, value
    receivers: list[tuple[int, Phys | None, np.ndarray, int]] = []  # tile, side (None: a double's centre), point, value
    for i, (t, g) in enumerate(zip(tiles, geoms)):
        a, b = t.pips
        ports += [(i, phys, point, direction, b if phys == "half1" else a) for phys, point, direction in _ports(t, g)]
        if a == b:
            receivers.append((i, None, g.center, a))
        else:
            receivers.append((i, "half0", g.center - g.axis * g.length / 4, a))
            receivers.append((i, "half1", g.center + g.axis * g.length / 4, b))
    if not ports or not receivers:
        return []
    # Every port against every receiver at once; only the pairs close enough are looked at one by one.
    expected = np.array([point + direction * width / 2 for _, _, point, direction, _ in ports])
    at = np.array([rpoint for _, _, rpoint, _ in receivers])
    errors = np.linalg.norm(expected[:, None, :] - at[None, :, :], axis=2) / width
    out = []
    for p, r in zip(*np.nonzero(errors <= tolerance)):
        i, side, point, direction, value = ports[p]
        j, rside, rpoint, rvalue = receivers[r]
        if j == i:
            continue
        gj = geoms[j]
        if rside is None:
            # A double takes a tile on its long side only when laid crosswise to the line.
            if abs(float(gj.axis @ direction)) > ALIGN_TOLERANCE:
                continue
            rphys: Phys = "long+" if float(gj.normal @ (point - gj.center)) > 0 else "long-"
        else:
            rphys = rside
            # The receiving half must be the one nearer the port (the tile faces it).
            other = gj.center + gj.axis * gj.length / 4 * (1 if rside == "half0" else -1)
            if np.linalg.norm(other - point) < np.linalg.norm(rpoint - point):
                continue
        out.append((PhysJoin(i, side, j, rphys, float(errors[p, r])), value, rvalue))
    return out


def _ports(seen: SeenTile, g: _Geom | None = None) -> list[tuple[Phys, np.ndarray, np.ndarray]]:
    """Where a tile can take another: each physical side's middle and its outward direction (``g``:
    the tile's geometry, where already known)."""
    g = g or _geom(seen)
    if seen.pips[0] != seen.pips[1]:
        return [("half0", g.center - g.axis * g.length / 2, -g.axis), ("half1", g.center + g.axis * g.length / 2, g.axis)]
    return [("long+", g.center + g.normal * g.width / 2, g.normal), ("long-", g.center - g.normal * g.width / 2, -g.normal),
            ("short+", g.center + g.axis * g.length / 2, g.axis), ("short-", g.center - g.axis * g.length / 2, -g.axis)]
