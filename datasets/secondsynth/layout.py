"""A round's board laid out on the table plane (millimetres), as players lay it by hand.

Tiles lie end to end with the halves that match touching; a double lies crosswise to its line;
a spinner's four sides (its two long sides first, then its two short ends) each carry a line.
A line that would leave the free middle of the table, or run into another line, bends 90 degrees:
the bending tile lies across the end of the last one, its matching half against that end.

Everything is axis-aligned here; the renderer adds each tile's small hand-laid error.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scorer.rules.board import Board
from scorer.rules.tiles import Side, Tile

TILE_L = 48.0  # mm
TILE_W = 24.0
CLEAR = 4.0  # mm kept between tiles that are not joined


@dataclass(frozen=True)
class Placed:
    """A tile on the table plane: centre (mm), the direction of its long axis as a quarter turn
    (0 = +x, 1 = +y, 2 = -x, 3 = -y), and the values at the -axis and +axis ends."""

    tile: Tile
    x: float
    y: float
    quarter: int
    v_neg: int
    v_pos: int
    line_quarter: int = 0  # doubles: the direction from their line-a side to their line-b side
    branch_sign: int = 1  # doubles: +1 when branch-a faces +axis

    def half_extents(self) -> tuple[float, float]:
        return (TILE_L / 2, TILE_W / 2) if self.quarter % 2 == 0 else (TILE_W / 2, TILE_L / 2)

    def box(self) -> tuple[float, float, float, float]:
        hx, hy = self.half_extents()
        return self.x - hx, self.y - hy, self.x + hx, self.y + hy


_DIRS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


def _face(p: Placed, side: Side) -> tuple[float, float, int, float]:
    """The face at ``side``: its centre, its outward direction (a quarter) and its width."""
    if not p.tile.is_double:
        value = p.tile.a if side is Side.LOW else p.tile.b
        q = p.quarter if p.v_pos == value else (p.quarter + 2) % 4
        dx, dy = _DIRS[q]
        return p.x + dx * TILE_L / 2, p.y + dy * TILE_L / 2, q, TILE_W
    if side in (Side.LINE_A, Side.LINE_B):
        q = (p.line_quarter + (2 if side is Side.LINE_A else 0)) % 4
        dx, dy = _DIRS[q]
        return p.x + dx * TILE_W / 2, p.y + dy * TILE_W / 2, q, TILE_L
    sign = p.branch_sign if side is Side.BRANCH_A else -p.branch_sign
    q = p.quarter if sign > 0 else (p.quarter + 2) % 4
    dx, dy = _DIRS[q]
    return p.x + dx * TILE_L / 2, p.y + dy * TILE_L / 2, q, TILE_W


def _overlap(a, b, clear: float) -> bool:
    return not (a[2] + clear <= b[0] or b[2] + clear <= a[0] or a[3] + clear <= b[1] or b[3] + clear <= a[1])


class _Attempt:
    def __init__(self, rng: random.Random, width: float, height: float) -> None:
        self.rng = rng
        self.width = width
        self.height = height
        self.placed: dict[Tile, Placed] = {}
        self.bbox: tuple[float, float, float, float] | None = None
        self.eager_turn = rng.choice((0.0, 0.0, 0.05, 0.12))

    def fits(self, cand: Placed, parent: Placed | None) -> bool:
        box = cand.box()
        if self.bbox is not None:
            x0, y0 = min(self.bbox[0], box[0]), min(self.bbox[1], box[1])
            x1, y1 = max(self.bbox[2], box[2]), max(self.bbox[3], box[3])
            if x1 - x0 > self.width or y1 - y0 > self.height:
                return False
        for other in self.placed.values():
            if other is parent:
                if _overlap(box, other.box(), -0.5):
                    return False
            elif _overlap(box, other.box(), CLEAR):
                return False
        return True

    def add(self, cand: Placed) -> None:
        self.placed[cand.tile] = cand
        box = cand.box()
        if self.bbox is None:
            self.bbox = box
        else:
            self.bbox = (min(self.bbox[0], box[0]), min(self.bbox[1], box[1]),
                         max(self.bbox[2], box[2]), max(self.bbox[3], box[3]))

    def first(self, tile: Tile) -> None:
        rng = self.rng
        if tile.is_double:
            line_q = rng.choice((0, 2, 0, 2, 1, 3)) if self.width >= self.height else rng.choice((1, 3))
            self.add(Placed(tile, 0.0, 0.0, (line_q + 1) % 4, tile.a, tile.a, line_q, rng.choice((1, -1))))
        else:
            q = rng.choice((0, 2, 0, 2, 1, 3))
            lo, hi = (tile.a, tile.b) if rng.random() < 0.5 else (tile.b, tile.a)
            self.add(Placed(tile, 0.0, 0.0, q, lo, hi))

    def attach(self, parent: Placed, side: Side, tile: Tile, value: int) -> bool:
        rng = self.rng
        fx, fy, q, face_w = _face(parent, side)
        gap = rng.uniform(0.0, 0.8)
        dx, dy = _DIRS[q]
        other = tile.b if tile.a == value else tile.a
        candidates: list[Placed] = []
        if tile.is_double:
            cx, cy = fx + dx * (TILE_W / 2 + gap), fy + dy * (TILE_W / 2 + gap)
            candidates.append(Placed(tile, cx, cy, (q + 1) % 4, value, value, q, rng.choice((1, -1))))
        else:
            straight = Placed(tile, fx + dx * (TILE_L / 2 + gap), fy + dy * (TILE_L / 2 + gap), q, value, other)
            turns = []
            if face_w == TILE_W:
                for t in rng.sample((1, 3), 2):
                    q2 = (q + t) % 4
                    ex, ey = _DIRS[q2]
                    sx, sy = fx + dx * (TILE_W / 2 + gap), fy + dy * (TILE_W / 2 + gap)
                    off = TILE_L / 2 - TILE_W / 2
                    turns.append(Placed(tile, sx + ex * off, sy + ey * off, q2, value, other))
            candidates = turns + [straight] if rng.random() < self.eager_turn else [straight] + turns
        for cand in candidates:
            if self.fits(cand, parent):
                self.add(cand)
                return True
        return False


def lay_out(boards: list[Board], width: float, height: float, rng: random.Random, tries: int = 400) -> list[Placed]:
    """Places for a round's tiles, in the order played (``boards``: the board after each play), within a
    ``width`` x ``height`` mm box centred on (0, 0); raises RuntimeError("does not fit") if no try fits."""
    if not boards:
        return []
    for _ in range(tries):
        attempt = _Attempt(rng, width, height)
        ok = True
        for i, board in enumerate(boards):
            tile = board.tiles[-1]
            if i == 0:
                attempt.first(tile)
                continue
            join = board.joins[-1]
            parent = attempt.placed[join.tile]
            value = tile.a if tile.is_double else (tile.a if join.new_side is Side.LOW else tile.b)
            if not attempt.attach(parent, join.side, tile, value):
                ok = False
                break
        if ok:
            assert attempt.bbox is not None
            cx = (attempt.bbox[0] + attempt.bbox[2]) / 2
            cy = (attempt.bbox[1] + attempt.bbox[3]) / 2
            return [Placed(p.tile, p.x - cx, p.y - cy, p.quarter, p.v_neg, p.v_pos, p.line_quarter, p.branch_sign)
                    for p in (attempt.placed[b.tiles[-1]] for b in boards)]
    raise RuntimeError("does not fit")
