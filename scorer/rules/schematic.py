"""The board as a schematic drawing: where each tile lies on a plane, for a picture of the layout where no
camera shows one (a match entered by hand).

A tile's half is a 1 x 1 square; x grows to the right and y downwards, as on a screen.  A non-double lies
along its line, a double across it.  The first tile lies at the origin, and every later one is laid in play
order at the side it joined, so a move never shifts a tile laid before it.  A line goes straight while its
way on is open, it keeps clear of the room before every free side (a spinner's branches to come), and its
end stays inside a frame of the picture's shape; else it turns (clockwise first), as lines turn at a table's
edge.  Where no way is clear, the tile is laid further out along the line, past what is in the way, and a
link drawn across the gap (rare: about one round in a few hundred): no two tiles ever lie on top of each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.rules.board import Board, ScoringEnd
from scorer.rules.tiles import Side, Tile, side_value

Vector = tuple[float, float]  # one of the four directions: (1, 0) is to the right, (0, 1) downwards

# The frame a line turns at, as an area in squared halves: about five tiles each way from the first.  (A
# smaller one makes the tiles larger but leaves less room for branches: more lines stepped over.)
FRAME_AREA = 20.0 * 20.0


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle, in halves."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        """Whether the two share any area (touching edges do not)."""
        return self.left < other.right and other.left < self.right and self.top < other.bottom and other.top < self.bottom

    def beyond(self, x: float, y: float) -> float:
        """How far the point lies outside the box, across and down together (0 inside)."""
        return max(0.0, self.left - x, x - self.right) + max(0.0, self.top - y, y - self.bottom)

    def around(self, other: Box) -> Box:
        return Box(min(self.left, other.left), min(self.top, other.top), max(self.right, other.right),
                   max(self.bottom, other.bottom))


@dataclass(frozen=True, slots=True)
class Half:
    """One half of a drawn tile: the centre of its square, its pips, and whether it counts in the end sum."""

    x: float
    y: float
    pips: int
    counts: bool

    @property
    def box(self) -> Box:
        return Box(self.x - 0.5, self.y - 0.5, self.x + 0.5, self.y + 0.5)


@dataclass(frozen=True, slots=True)
class DrawnTile:
    """A tile as drawn: its two halves (the one it joined by first; the first tile's smaller end first)."""

    tile: Tile
    halves: tuple[Half, Half]
    spinner: bool

    @property
    def box(self) -> Box:
        return self.halves[0].box.around(self.halves[1].box)

    @property
    def upright(self) -> bool:
        """Whether the tile's long side runs up and down."""
        return self.halves[0].x == self.halves[1].x

    @property
    def centre(self) -> Vector:
        (a, b) = self.halves
        return (a.x + b.x) / 2, (a.y + b.y) / 2


@dataclass(frozen=True, slots=True)
class Link:
    """A gap a line steps over: from the side joined to the face of the tile laid there."""

    start: Vector
    end: Vector


@dataclass(frozen=True, slots=True)
class Schematic:
    tiles: tuple[DrawnTile, ...] = ()
    links: tuple[Link, ...] = ()

    def bounds(self) -> Box | None:
        """The box around every tile; None for an empty board."""
        boxes = [t.box for t in self.tiles]
        if not boxes:
            return None
        out = boxes[0]
        for box in boxes[1:]:
            out = out.around(box)
        return out

    def of(self, tile: Tile) -> DrawnTile:
        return next(t for t in self.tiles if t.tile == tile)


@dataclass(frozen=True, slots=True)
class _Port:
    """A free side's face: its centre and the way a tile laid there goes."""

    x: float
    y: float
    way: Vector


@dataclass(frozen=True, slots=True)
class _Laying:
    """One way to lay a tile: where it lies and the ports it opens."""

    drawn: DrawnTile
    ports: dict[Side, _Port]
    link: Link | None

    @property
    def onward(self) -> _Port:
        """The port its line goes on from (the other end, or a double's far long side)."""
        return self.ports[Side.LINE_B] if self.drawn.tile.is_double else next(iter(self.ports.values()))


def _right(way: Vector) -> Vector:
    """A quarter turn clockwise on the screen."""
    return -way[1], way[0]


def _left(way: Vector) -> Vector:
    return way[1], -way[0]


def _step(x: float, y: float, way: Vector, by: float) -> tuple[float, float]:
    return x + way[0] * by, y + way[1] * by


def frame_for(aspect: float) -> Box:
    """The frame lines turn at, centred on the first tile, of the picture's shape (width / height)."""
    aspect = min(max(aspect, 0.25), 4.0)
    half_width = (FRAME_AREA * aspect) ** 0.5 / 2
    half_height = half_width / aspect
    return Box(-half_width, -half_height, half_width, half_height)


def draw_board(board: Board, aspect: float = 4 / 3) -> Schematic:
    """Every tile of ``board`` laid out for a picture ``aspect`` times as wide as it is high."""
    if not board.tiles:
        return Schematic()
    ends = frozenset(board.scoring_ends())
    first = board.tiles[0]
    start = _Port(-0.5, 0.0, (1.0, 0.0)) if first.is_double else _Port(-1.0, 0.0, (1.0, 0.0))
    laying = _lay(first, Side.LINE_A if first.is_double else Side.LOW, start, start.way, 0, board, ends, opening=True)
    tiles, links = [laying.drawn], []
    free = {(first, side): port for side, port in laying.ports.items()}  # the sides no tile has joined yet
    frame = frame_for(aspect)
    for join in board.joins:
        port = free.pop((join.tile, join.side))
        laying = _choose(join.new_tile, join.new_side, port, board, ends, tiles, [_ahead(p) for p in free.values()], frame)
        tiles.append(laying.drawn)
        if laying.link is not None:
            links.append(laying.link)
        free.update(((join.new_tile, side), port) for side, port in laying.ports.items())
    return Schematic(tuple(tiles), tuple(links))


def _choose(tile: Tile, side: Side, port: _Port, board: Board, ends: frozenset[ScoringEnd], laid: list[DrawnTile],
            kept: list[Box], frame: Box) -> _Laying:
    """The clearest way to lay ``tile``: no tile under it; then the way on from it open and the space before
    every side still free (``kept``) left alone; its line's end no further out of the frame than the port;
    straight rather than turned.  Where every way is taken, further out along the line.  (A line already out
    of the frame turns along it rather than go on away from it.)"""
    boxes = [t.box for t in laid]
    ways = (port.way,) if tile.is_double else (port.way, _right(port.way), _left(port.way))
    gap = 0
    while True:  # (ends: far enough out, the line is past every tile)
        best: tuple[tuple[int, float, int], _Laying] | None = None
        for rank, way in enumerate(ways):
            laying = _lay(tile, side, port, way, gap, board, ends)
            if any(laying.drawn.box.overlaps(b) for b in boxes):
                continue
            onward = laying.onward
            blocked = sum(any(_ahead(p).overlaps(b) for b in boxes) for p in laying.ports.values())
            blocked += sum(laying.drawn.box.overlaps(k) for k in kept)
            outward = max(0.0, frame.beyond(onward.x, onward.y) - frame.beyond(port.x, port.y))
            score = (blocked, outward, rank)
            if best is None or score < best[0]:
                best = (score, laying)
        if best is not None:
            return best[1]
        gap += 1


def _ahead(port: _Port) -> Box:
    """Just beyond a free side, as wide as a double laid there would be: where the next tile would lie."""
    x, y = _step(port.x, port.y, port.way, 0.5)
    across_x, across_y = abs(port.way[1]), abs(port.way[0])
    return Box(x - 0.5 - across_x / 2, y - 0.5 - across_y / 2, x + 0.5 + across_x / 2, y + 0.5 + across_y / 2)


def _lay(tile: Tile, side: Side, port: _Port, way: Vector, gap: int, board: Board, ends: frozenset[ScoringEnd],
         opening: bool = False) -> _Laying:
    """``tile`` joined by ``side`` at ``port``, ``gap`` halves out, its line going on ``way`` (a non-double turns
    there: its joined half still faces the port).  The opening tile keeps the side it "joined" by free too."""
    near = _step(port.x, port.y, port.way, gap + 0.5)  # the centre of the half (or the double) at the port
    link = Link((port.x, port.y), _step(port.x, port.y, port.way, gap)) if gap else None
    back = _Port(*_step(*near, port.way, -0.5), (-port.way[0], -port.way[1]))
    if tile.is_double:
        counts = ScoringEnd(tile, 2 * tile.a) in ends
        left, right = _left(port.way), _right(port.way)
        halves = (Half(*_step(*near, left, 0.5), tile.a, counts), Half(*_step(*near, right, 0.5), tile.a, counts))
        ports = {Side.LINE_B: _Port(*_step(*near, port.way, 0.5), port.way)}
        if tile in board.spinners:  # its short ends: the branches go off across its line, A to the left
            ports[Side.BRANCH_A] = _Port(*_step(*near, left, 1.0), left)
            ports[Side.BRANCH_B] = _Port(*_step(*near, right, 1.0), right)
        if opening:
            ports[Side.LINE_A] = back
    else:
        other = Side.HIGH if side is Side.LOW else Side.LOW
        joined, far = side_value(tile, side), side_value(tile, other)
        far_centre = _step(*near, way, 1.0)
        halves = (Half(*near, joined, ScoringEnd(tile, joined) in ends), Half(*far_centre, far, ScoringEnd(tile, far) in ends))
        ports = {other: _Port(*_step(*far_centre, way, 0.5), way)}
        if opening:
            ports[side] = back
    return _Laying(DrawnTile(tile, halves, tile in board.spinners), ports, link)
