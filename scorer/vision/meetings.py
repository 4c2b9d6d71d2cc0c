"""Where two tiles meet as laid tiles do, from their boxes alone (the pips are the layout's business).

Every tile offers *ports*: the outer end of each half of a non-double, the long sides and short ends
of a double.  A tile joined at a port lies with its receiving part half a tile width beyond it: the
near half of a non-double (laid straight on, or turned a corner), or the centre of a double laid
crosswise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Sequence

import numpy as np

# Physical sides: the two halves of a non-double; long sides and short ends of a double.
Side = Literal["half0", "half1", "long+", "long-", "short+", "short-"]

ALIGN_TOLERANCE = 0.45  # |cos| above which two directions count as parallel


@dataclass(frozen=True, slots=True)
class TileAxes:
    """A box's centre, its unit long axis (from the c0/c3 end to the c1/c2 end) and normal, its length
    and width (corners go round, c0 -> c1 a long side)."""

    center: np.ndarray
    axis: np.ndarray
    normal: np.ndarray
    length: float
    width: float


def tile_axes(corners: Sequence[Sequence[float]] | np.ndarray) -> TileAxes:
    c = np.asarray(corners, np.float64).reshape(4, 2)
    end0, end1 = (c[0] + c[3]) / 2, (c[1] + c[2]) / 2
    axis = end1 - end0
    length = float(np.linalg.norm(axis))
    axis = axis / max(length, 1e-9)
    width = float(np.linalg.norm(c[2] - c[1]))
    return TileAxes(c.mean(0), axis, np.array([-axis[1], axis[0]]), length, width)


def ports(g: TileAxes, double: bool) -> list[tuple[Side, np.ndarray, np.ndarray]]:
    """Where a tile can take another: each physical side's middle and its outward direction."""
    if not double:
        return [("half0", g.center - g.axis * g.length / 2, -g.axis), ("half1", g.center + g.axis * g.length / 2, g.axis)]
    return [("long+", g.center + g.normal * g.width / 2, g.normal), ("long-", g.center - g.normal * g.width / 2, -g.normal),
            ("short+", g.center + g.axis * g.length / 2, g.axis), ("short-", g.center - g.axis * g.length / 2, -g.axis)]


def receivers(g: TileAxes, double: bool) -> list[tuple[Side | None, np.ndarray]]:
    """The points of a tile that lie half a width beyond the port it is laid at: a double's centre
    (side None), a non-double's half centres."""
    if double:
        return [(None, g.center)]
    return [("half0", g.center - g.axis * g.length / 4), ("half1", g.center + g.axis * g.length / 4)]


@dataclass(frozen=True, slots=True)
class Meeting:
    """Tile ``a``'s port ``side_a`` takes tile ``b`` at ``side_b``, ``error`` tile widths from where a
    tile laid there lies."""

    a: int
    side_a: Side
    b: int
    side_b: Side
    error: float


def meetings(tiles: Sequence[tuple[TileAxes, bool]], width: float, tolerance: float) -> list[Meeting]:
    """Every place where two of ``tiles`` (each its axes and whether it is a double) meet as joined
    tiles do, within ``tolerance`` widths (``width``: the tiles' width, in the same units)."""
    port_list = [(i, side, point, direction) for i, (g, double) in enumerate(tiles) for side, point, direction in ports(g, double)]
    receiver_list = [(i, side, point) for i, (g, double) in enumerate(tiles) for side, point in receivers(g, double)]
    if not port_list or not receiver_list:
        return []
    # Every port against every receiver at once; only the pairs close enough are looked at one by one.
    expected = np.array([point + direction * width / 2 for _, _, point, direction in port_list])
    at = np.array([point for _, _, point in receiver_list])
    errors = np.linalg.norm(expected[:, None, :] - at[None, :, :], axis=2) / width
    out = []
    for p, r in zip(*np.nonzero(errors <= tolerance)):
        i, side, point, direction = port_list[p]
        j, rside, rpoint = receiver_list[r]
        if j == i:
            continue
        gj = tiles[j][0]
        if rside is None:
            # A double takes a tile on its long side only when laid crosswise to the line.
            if abs(float(gj.axis @ direction)) > ALIGN_TOLERANCE:
                continue
            rside = "long+" if float(gj.normal @ (point - gj.center)) > 0 else "long-"
        else:
            # The receiving half must be the one nearer the port (the tile faces it).
            other = gj.center + gj.axis * gj.length / 4 * (1 if rside == "half0" else -1)
            if np.linalg.norm(other - point) < np.linalg.norm(rpoint - point):
                continue
        out.append(Meeting(i, side, j, rside, float(errors[p, r])))
    return out


def off_square(axis: np.ndarray, other: np.ndarray) -> float:
    """How far two tiles' long axes are from parallel or square to each other, in degrees."""
    dot = abs(float(np.dot(axis, other)))
    return float(np.degrees(np.arcsin(min(1.0, dot, math.sqrt(max(0.0, 1.0 - dot * dot))))))
