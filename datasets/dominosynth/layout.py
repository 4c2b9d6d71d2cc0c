"""Lay a rules :class:`~scorer.rules.Board` out on the table plane, as players do.

Lines run end to end, doubles lie crosswise, a spinner's branches leave its short
ends, and a line that would run into another tile or off the table turns a corner
(the next tile laid at 90 degrees).  Units are millimetres on the table plane.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from scorer.rules import Board, Side, Tile

TILE_LONG = 48.0
TILE_SHORT = 24.0
CLEARANCE = 4.0  # mm between tiles that are not joined


@dataclass(frozen=True)
class PlacedGeom:
    """A tile on the plane: centre, angle of its long axis (radians), and the pips at each end.

    ``end_values`` are the values of the half towards +axis and the half towards -axis.
    """

    tile: Tile
    center: tuple[float, float]
    angle: float
    end_values: tuple[int, int]
    face_up: bool = True
    role: str = "layout"  # layout | loose | boneyard | hand

    def corners(self, long: float = TILE_LONG, short: float = TILE_SHORT) -> np.ndarray:
        """The four corners, starting at the +axis end, going round."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        ax, ay = c * long / 2, s * long / 2
        bx, by = -s * short / 2, c * short / 2
        cx, cy = self.center
        return np.array(
            [[cx + ax + bx, cy + ay + by], [cx + ax - bx, cy + ay - by], [cx - ax - bx, cy - ay - by], [cx - ax + bx, cy - ay + by]]
        )

    def half_centers(self, long: float = TILE_LONG) -> tuple[tuple[float, float], tuple[float, float]]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        cx, cy = self.center
        d = long / 4
        return (cx + c * d, cy + s * d), (cx - c * d, cy - s * d)


@dataclass
class _Port:
    point: np.ndarray
    direction: np.ndarray  # unit vector pointing away from the tile


def _unit(angle: float) -> np.ndarray:
    return np.array([math.cos(angle), math.sin(angle)])


def _rot90(v: np.ndarray, sign: int) -> np.ndarray:
    return np.array([-v[1], v[0]]) * sign


class LayoutError(Exception):
    pass


def _overlaps(a: np.ndarray, b: np.ndarray, margin: float = 0.5) -> bool:
    """Separating-axis test for two convex quadrilaterals, shrunk by ``margin`` so touching is allowed."""
    for poly in (a, b):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            axis /= np.linalg.norm(axis)
            pa, pb = a @ axis, b @ axis
            if pa.max() - margin <= pb.min() or pb.max() - margin <= pa.min():
                return False
    return True


class Layouter:
    """Places tiles one at a time; keeps every tile's ports so later tiles attach where the rules say."""

    def __init__(self, rng: random.Random, bounds: tuple[float, float, float, float], gap: float = 0.8, jitter_deg: float = 2.5):
        self.rng = rng
        self.bounds = bounds  # xmin, ymin, xmax, ymax
        self.gap = gap
        self.jitter = math.radians(jitter_deg)
        self.placed: list[PlacedGeom] = []
        self.polys: list[np.ndarray] = []
        self.ports: dict[tuple[Tile, Side], _Port] = {}

    def _fits(self, geom: PlacedGeom, parent: Tile | None = None) -> bool:
        """Inside the bounds, touching its parent only, and clear of every other tile by a few mm
        (players do not butt a tile against an unrelated end: that would read as a join)."""
        poly = geom.corners()
        x0, y0, x1, y1 = self.bounds
        if poly[:, 0].min() < x0 or poly[:, 0].max() > x1 or poly[:, 1].min() < y0 or poly[:, 1].max() > y1:
            return False
        for placed, other in zip(self.placed, self.polys):
            margin = 0.5 if placed.tile == parent else -CLEARANCE
            if _overlaps(poly, other, margin):
                return False
        return True

    def _add(self, geom: PlacedGeom) -> None:
        self.placed.append(geom)
        self.polys.append(geom.corners())

    def _gap(self) -> float:
        return self.gap * self.rng.uniform(0.0, 1.6)

    def _angle_of(self, v: np.ndarray) -> float:
        return math.atan2(v[1], v[0]) + self.rng.uniform(-self.jitter, self.jitter)

    def open(self, tile: Tile, center: np.ndarray, line_angle: float) -> None:
        d = _unit(line_angle)
        if tile.is_double:
            self._place_double(tile, center, d, line_a=-d)
        else:
            geom = PlacedGeom(tile, (center[0], center[1]), self._angle_of(d), (tile.b, tile.a))
            self._add(geom)
            self.ports[(tile, Side.HIGH)] = _Port(center + d * TILE_LONG / 2, d)
            self.ports[(tile, Side.LOW)] = _Port(center - d * TILE_LONG / 2, -d)

    def _place_double(self, tile: Tile, center: np.ndarray, d: np.ndarray, line_a: np.ndarray) -> None:
        perp = _rot90(d, 1)
        geom = PlacedGeom(tile, (center[0], center[1]), self._angle_of(perp), (tile.a, tile.a))
        self._add(geom)
        self.ports[(tile, Side.LINE_A)] = _Port(center + line_a * TILE_SHORT / 2, line_a)
        self.ports[(tile, Side.LINE_B)] = _Port(center - line_a * TILE_SHORT / 2, -line_a)
        self.ports[(tile, Side.BRANCH_A)] = _Port(center + perp * TILE_LONG / 2, perp)
        self.ports[(tile, Side.BRANCH_B)] = _Port(center - perp * TILE_LONG / 2, -perp)

    def attach(self, tile: Tile, at_tile: Tile, at_side: Side, new_side: Side) -> None:
        port = self.ports[(at_tile, at_side)]
        p, d = port.point, port.direction
        options: list[tuple[str, int]] = [("straight", 0)]
        turns = [("turn", 1), ("turn", -1)]
        self.rng.shuffle(turns)
        # Now and then a line turns even with room ahead; it always tries turning when blocked.
        if self.rng.random() < 0.12:
            options = turns + options
        else:
            options = options + turns
        for kind, sign in options:
            geom_ports = self._candidate(tile, p, d, new_side, kind, sign)
            if geom_ports is None:
                continue
            geom, ports = geom_ports
            if self._fits(geom, at_tile):
                self._add(geom)
                self.ports.update(ports)
                return
        raise LayoutError(f"no room for {tile} at {at_tile} {at_side.value}")

    def _candidate(self, tile: Tile, p: np.ndarray, d: np.ndarray, new_side: Side, kind: str, sign: int):
        gap = self._gap()
        if tile.is_double:
            if kind != "straight":
                return None
            center = p + d * (TILE_SHORT / 2 + gap)
            perp = _rot90(d, 1)
            geom = PlacedGeom(tile, (center[0], center[1]), self._angle_of(perp), (tile.a, tile.a))
            ports = {
                (tile, Side.LINE_A): _Port(center - d * TILE_SHORT / 2, -d),
                (tile, Side.LINE_B): _Port(center + d * TILE_SHORT / 2, d),
                (tile, Side.BRANCH_A): _Port(center + perp * TILE_LONG / 2, perp),
                (tile, Side.BRANCH_B): _Port(center - perp * TILE_LONG / 2, -perp),
            }
            return geom, ports
        joined = tile.a if new_side is Side.LOW else tile.b
        other = tile.b if new_side is Side.LOW else tile.a
        free_side = Side.HIGH if new_side is Side.LOW else Side.LOW
        if kind == "straight":
            axis = d
            center = p + d * (TILE_LONG / 2 + gap)
        else:
            axis = _rot90(d, sign)
            center = p + d * (TILE_SHORT / 2 + gap) + axis * (TILE_LONG / 2 - TILE_SHORT / 2)
        geom = PlacedGeom(tile, (center[0], center[1]), self._angle_of(axis), (other, joined))
        ports = {(tile, free_side): _Port(center + axis * TILE_LONG / 2, axis)}
        return geom, ports


def lay_out(board: Board, rng: random.Random, bounds: tuple[float, float, float, float], tries: int = 30) -> list[PlacedGeom]:
    """Geometry for every tile of ``board``; raises :class:`LayoutError` if no arrangement fits."""
    x0, y0, x1, y1 = bounds
    for _ in range(tries):
        lay = Layouter(rng, bounds)
        center = np.array([rng.uniform(x0 + 0.35 * (x1 - x0), x0 + 0.65 * (x1 - x0)), rng.uniform(y0 + 0.35 * (y1 - y0), y0 + 0.65 * (y1 - y0))])
        lay.open(board.tiles[0], center, rng.choice([0.0, math.pi / 2]) + rng.uniform(-0.1, 0.1))
        try:
            for join in board.joins:
                lay.attach(join.new_tile, join.tile, join.side, join.new_side)
        except LayoutError:
            continue
        return lay.placed
    raise LayoutError(f"could not lay out {len(board)} tiles in {tries} tries")


def scatter(tiles: list[Tile], rng: random.Random, bounds: tuple[float, float, float, float], occupied: list[np.ndarray],
            face_up: bool = True, touching: bool = False, role: str = "loose") -> list[PlacedGeom]:
    """Loose tiles (a revealed hand, the boneyard) at free places: any angle, sometimes side by side."""
    x0, y0, x1, y1 = bounds
    out: list[PlacedGeom] = []
    polys = list(occupied)
    row_angle = rng.uniform(0, math.pi)
    prev: PlacedGeom | None = None
    for tile in tiles:
        for _ in range(60):
            if touching and prev is not None and rng.random() < 0.8:
                # Side by side, as a hand is laid out for the count.
                step = _rot90(_unit(prev.angle), 1) * (TILE_SHORT + rng.uniform(0.3, 3.0))
                c = np.array(prev.center) + step
                angle = prev.angle + rng.uniform(-0.05, 0.05)
            else:
                c = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
                angle = row_angle if touching else rng.uniform(0, 2 * math.pi)
            values = (tile.a, tile.b) if rng.random() < 0.5 else (tile.b, tile.a)
            geom = PlacedGeom(tile, (c[0], c[1]), angle, values, face_up, role)
            poly = geom.corners()
            if poly[:, 0].min() < x0 or poly[:, 0].max() > x1 or poly[:, 1].min() < y0 or poly[:, 1].max() > y1:
                prev = None
                continue
            if any(_overlaps(poly, o) for o in polys):
                prev = None
                continue
            out.append(geom)
            polys.append(poly)
            prev = geom
            break
    return out


def seen_tilted(geoms: list[PlacedGeom], tilt_deg: float, rng: random.Random, noise: float = 0.6,
                size: tuple[float, float] = (1000.0, 700.0)) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """Each tile's corners (long side first, image px) as a camera tilted ``tilt_deg`` off overhead
    sees a layout laid out in ``size`` mm, with ``noise`` px of jitter; and its end values."""
    import cv2

    from scorer.vision.geometry import long_first

    w, h = size
    tilt = math.radians(tilt_deg)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = [[1000 * (x - w / 2) / (1200 + (y - h / 2) * math.sin(tilt)) + 640,
            1000 * (y - h / 2) * math.cos(tilt) / (1200 + (y - h / 2) * math.sin(tilt)) + 360] for x, y in src]
    H = cv2.getPerspectiveTransform(src, np.array(dst, np.float32))
    out = []
    for g in geoms:
        c = cv2.perspectiveTransform(long_first(g.corners())[None].astype(np.float64), H)[0]
        out.append((c + [rng.gauss(0, noise), rng.gauss(0, noise)], g.end_values))
    return out
