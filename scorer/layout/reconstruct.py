"""From tiles seen on the table to the game's spinner graph.

Joins are found from geometry alone.  Every tile offers *ports*: the outer end of
each half of a non-double, the long sides and short ends of a double.  A tile
joined at a port lies with its receiving part half a tile width beyond it: the
near half of a non-double (laid straight on, or turned a corner), or the centre of
a double laid crosswise.  Pips must match across every join.  The joins then give
the rules engine's :class:`~scorer.rules.Board` through a legal placement order, so
spinners, free points, scoring ends and the sum come from the one rules
implementation.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Collection, Literal, Sequence

import numpy as np

from scorer.errors import IllegalMove
from scorer.rules import Board, Side, Tile

# Physical sides: the two halves of a non-double; long sides and short ends of a double.
Phys = Literal["half0", "half1", "long+", "long-", "short+", "short-"]

JOIN_TOLERANCE = 0.38  # of a tile's width, between where a joined tile should be and where it is
# A tile that joins nothing at JOIN_TOLERANCE may still join the layout at this looser one, where its
# pips fit exactly one free side there (a detector's box is a few pixels off on a small tile).
STRAGGLER_TOLERANCE = 0.65
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
    return f"{seen.tile} at ({c[0]:.0f}, {c[1]:.0f})"


def find_joins(tiles: Sequence[SeenTile], tolerance: float = JOIN_TOLERANCE) -> tuple[list[PhysJoin], list[tuple[PhysJoin, str]]]:
    """Every geometric join between the tiles, and the places where tiles meet like a join but their pips differ."""
    found: dict[tuple[int, int], PhysJoin] = {}
    mismatches: dict[tuple[int, int], tuple[PhysJoin, str]] = {}
    for join, value, rvalue in _meetings(tiles, tolerance):
        key = (min(join.a, join.b), max(join.a, join.b))
        if rvalue != value:
            message = f"pips do not match at a join: {_where(tiles[join.a])} shows {value} where {_where(tiles[join.b])} shows {rvalue}"
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


def reconstruct(tiles: Sequence[SeenTile], anchor: int | None = None, known: Collection[Tile] = ()) -> Layout:
    """The joins and the played layout (the largest joined group); duplicates and clashes are problems.

    Only what touches the layout is a problem: loose tiles lying about (a boneyard, a hand laid
    out) may lie close together without it meaning anything.  ``anchor`` names a tile known to be
    the layout (the opening tile, when it lies alone among loose ones).  ``known`` names tiles known
    to be played (the board before a move): every joined group of two or more tiles holding one of
    them is the layout too, not only the largest -- a tile missed or misread cuts a layout in pieces."""
    tiles = list(tiles)
    joins, mismatches = find_joins(tiles)
    tiles, reread = _reread_at_joins(tiles, mismatches)
    if reread:
        joins, mismatches = find_joins(tiles)
    problems: list[str] = []
    used: dict[tuple[int, Phys], PhysJoin] = {}
    kept: list[PhysJoin] = []
    for join in sorted(joins, key=lambda j: j.error):
        clash = used.get((join.a, join.side_a)) or used.get((join.b, join.side_b))
        if clash is not None:
            problems.append(f"two tiles at one side: {_where(tiles[join.a])} and {_where(tiles[join.b])} both meet the same side")
            continue
        used[(join.a, join.side_a)] = join
        used[(join.b, join.side_b)] = join
        kept.append(join)
    component = _largest_component(len(tiles), kept, tiles)
    if known:
        component = _with_known_pieces(len(tiles), kept, tiles, component, set(known))
        if not component:
            # Nothing joined at all (tiles a few pixels long, their boxes a few pixels off): the one
            # tile read as a played one is the layout, and the tiles beside it join it loosely.
            played = [i for i, t in enumerate(tiles) if t.tile in known]
            anchor = played[0] if len(played) == 1 else anchor
    if not component and anchor is not None and 0 <= anchor < len(tiles):
        component = [anchor]
    if component and len(component) < len(tiles):
        component, kept = _stragglers(tiles, component, kept, used, set(known))
    inside = set(component)
    # Tiles may lie close without being joined; a wrong join is a tile held by nothing else, beside the layout.
    joined = {j.a for j in kept} | {j.b for j in kept}
    for bad, message in mismatches:
        if (bad.a, bad.side_a) not in used and (bad.b, bad.side_b) not in used and not {bad.a, bad.b} <= joined:
            if inside & {bad.a, bad.b} or not inside:
                problems.append(message)
    by_tile: dict[Tile, list[int]] = {}
    for i, t in enumerate(tiles):
        by_tile.setdefault(t.tile, []).append(i)
    notes: list[str] = list(reread)
    for tile, where in by_tile.items():
        if len(where) < 2:
            continue
        message = f"{tile} is seen {len(where)} times: " + ", ".join(_where(tiles[i]) for i in where)
        if len(inside & set(where)) == 1:
            # One copy is joined in the layout, the others lie loose: a set holds each tile once, so
            # the loose ones are misread (often a face-down tile): reported, not blocking.
            notes.append(message)
        elif inside & set(where) or not inside:
            problems.append(message)
    # Only the layout's own joins are the game's; the rest are loose tiles lying side by side.
    kept = [j for j in kept if j.a in inside and j.b in inside]
    kept, lengthwise = _lengthwise_doubles(kept, tiles, component)
    notes += [f"{_where(tiles[i])} lies lengthwise in the line: read as a double laid crosswise" for i in lengthwise]
    for i in component:
        t = tiles[i]
        if t.pips[0] == t.pips[1]:
            sides = {j.side_a if j.a == i else j.side_b for j in kept if i in (j.a, j.b)}
            if sides & {"short+", "short-"} and not {"long+", "long-"} <= sides:
                problems.append(f"spinner {_where(t)}: a branch is used before both line sides are filled")
    return Layout(tiles, kept, component, problems, notes)


def _reread_at_joins(tiles: list[SeenTile], mismatches: Sequence[tuple[PhysJoin, str]]) -> tuple[list[SeenTile], list[str]]:
    """Where two tiles meet like a join but their pips differ, and exactly one of the two halves has
    the other's value as a likely other reading, that half is read so (pips must match at a join:
    a 2 taken for a 3 on a tile laid on a 2).  Where both or neither could be misread, or the new
    reading would be a tile already on the table, nothing changes and the mismatch stays a problem."""
    proposals: dict[tuple[int, int], set[int]] = {}
    for join, _ in mismatches:
        candidates = []
        for (i, side), (j, other) in (((join.a, join.side_a), (join.b, join.side_b)), ((join.b, join.side_b), (join.a, join.side_a))):
            if side not in ("half0", "half1"):
                continue  # a double reads as one value: changing one half would make it no double
            half = 0 if side == "half0" else 1
            value = tiles[j].pips[0] if other in ("half0", "long+", "long-", "short+", "short-") else tiles[j].pips[1]
            if value in tiles[i].alternatives[half] and value != tiles[i].pips[1 - half]:
                candidates.append(((i, half), value))
        if len(candidates) == 1:
            (where, value), = candidates
            proposals.setdefault(where, set()).add(value)
    seen = {t.tile for t in tiles}
    out, notes = list(tiles), []
    for (i, half), values in sorted(proposals.items()):
        if len(values) != 1:
            continue
        old = out[i]
        pips = (values.pop(), old.pips[1]) if half == 0 else (old.pips[0], values.pop())
        new = replace(old, pips=pips)
        if new.tile in seen:
            continue
        seen.add(new.tile)
        out[i] = new
        notes.append(f"{_where(old)} is taken as {new.tile}: its half meets a {pips[half]} at a join, a likely other reading")
    return out, notes


def _stragglers(tiles: Sequence[SeenTile], component: list[int], kept: list[PhysJoin],
                used: dict[tuple[int, Phys], PhysJoin], known: Collection[Tile] = ()) -> tuple[list[int], list[PhysJoin]]:
    """Tiles left out of the layout that join it at the looser tolerance, one free side each -- or, a
    tile played before (``known``), at each of its ends: a line's tile whose box came out short, so
    that it joined neither neighbour and cut the layout in two."""
    inside = set(component)
    loose_joins, _ = find_joins(tiles, STRAGGLER_TOLERANCE)
    while True:
        candidates: dict[int, list[PhysJoin]] = {}
        for j in loose_joins:
            if (j.a in inside) == (j.b in inside) or (j.a, j.side_a) in used or (j.b, j.side_b) in used:
                continue
            outside = j.b if j.a in inside else j.a
            candidates.setdefault(outside, []).append(j)
        added = False
        for outside, joins in candidates.items():
            if len(joins) != 1 and not (tiles[outside].tile in known and _at_own_ends(outside, joins)):
                continue  # no single place for it: left loose (reported if it touches the layout)
            if any((j.a, j.side_a) in used or (j.b, j.side_b) in used for j in joins):
                continue
            for j in joins:
                used[(j.a, j.side_a)] = used[(j.b, j.side_b)] = j
                kept.append(j)
            inside.add(outside)
            component.append(outside)
            added = True
        if not added:
            return component, kept
        # A straggler brings the tiles already joined to it (a group the strict pass left apart).
        adjacency: dict[int, list[int]] = {}
        for j in kept:
            adjacency.setdefault(j.a, []).append(j.b)
            adjacency.setdefault(j.b, []).append(j.a)
        queue = deque(component)
        while queue:
            for m in adjacency.get(queue.popleft(), []):
                if m not in inside:
                    inside.add(m)
                    component.append(m)
                    queue.append(m)


def _at_own_ends(i: int, joins: Sequence[PhysJoin]) -> bool:
    """Whether the joins meet tile ``i`` each at a side of its own and the layout each at a side of its own."""
    own = [j.side_a if j.a == i else j.side_b for j in joins]
    theirs = [(j.b, j.side_b) if j.a == i else (j.a, j.side_a) for j in joins]
    return len(set(own)) == len(own) and len(set(theirs)) == len(theirs)


# A tile joined to a double's long side within this many of its widths of the side's middle (along the
# double) lies as a crosswise double's line does; further off, the line turns at the double's end.
CROSSWISE = 0.25


def _lengthwise_doubles(joins: list[PhysJoin], tiles: Sequence[SeenTile], component: Sequence[int]) -> tuple[list[PhysJoin], list[int]]:
    """Doubles laid in line, taken as the crosswise doubles the rules mean: casual players lay
    doubles either way, and the graph is the same.  Its short-end joins become line joins where
    the double is joined only at its short ends (a crosswise double is never entered there), or
    at one short end and at one long side *off its middle* (the line turning at the double's end).
    A tile at the middle of the long side is a crosswise double's line: a tile at its short end
    then is a branch opened too early, which is reported, not explained away."""
    relabel: dict[tuple[int, str], Phys] = {}
    lengthwise = []
    for i in component:
        if tiles[i].pips[0] != tiles[i].pips[1]:
            continue
        mine = [(j, j.side_a if j.a == i else j.side_b) for j in joins if i in (j.a, j.b)]
        shorts = [p for _, p in mine if p.startswith("short")]
        longs = [(j, p) for j, p in mine if p.startswith("long")]
        if not shorts or len(longs) > 1 or len(longs) + len(shorts) > 2:
            continue
        if longs:
            j = longs[0][0]
            g, other = _geom(tiles[i]), _geom(tiles[j.b if j.a == i else j.a])
            if abs(float((other.center - g.center) @ g.axis)) < CROSSWISE * g.width:
                continue  # at the middle of the long side: crosswise
        taken = [p for _, p in longs]
        long_sides: tuple[Phys, Phys] = ("long+", "long-")
        free_longs = [p for p in long_sides if p not in taken]
        for short, long in zip(shorts, free_longs):
            relabel[(i, short)] = long
        lengthwise.append(i)
    if not lengthwise:
        return joins, []
    out = [
        PhysJoin(j.a, relabel.get((j.a, j.side_a), j.side_a), j.b, relabel.get((j.b, j.side_b), j.side_b), j.error)
        for j in joins
    ]
    return out, lengthwise


def _joined_groups(n: int, joins: Sequence[PhysJoin]) -> list[list[int]]:
    """The tiles 0..n-1 in groups joined to one another (each sorted; groups by their first tile)."""
    adjacency: dict[int, list[int]] = {i: [] for i in range(n)}
    for j in joins:
        adjacency[j.a].append(j.b)
        adjacency[j.b].append(j.a)
    seen: set[int] = set()
    groups = []
    for start in range(n):
        if start in seen:
            continue
        group, queue = [], deque([start])
        seen.add(start)
        while queue:
            k = queue.popleft()
            group.append(k)
            for m in adjacency[k]:
                if m not in seen:
                    seen.add(m)
                    queue.append(m)
        groups.append(sorted(group))
    return groups


def _largest_component(n: int, joins: Sequence[PhysJoin], tiles: Sequence[SeenTile]) -> list[int]:
    best: list[int] = []
    for group in _joined_groups(n, joins):
        if len(group) > len(best):
            best = group
    # A lone tile is a layout only when it is the only tile (the opening tile).
    if len(best) == 1 and n > 1:
        return []
    return best


def _with_known_pieces(n: int, joins: Sequence[PhysJoin], tiles: Sequence[SeenTile], component: list[int],
                       known: set[Tile]) -> list[int]:
    """The joined groups (of two or more tiles) holding a tile known to be played; the largest group
    where none does."""
    pieces = [g for g in _joined_groups(n, joins) if len(g) > 1 and any(tiles[i].tile in known for i in g)]
    return sorted(i for g in pieces for i in g) if pieces else component


# -- the rules' board ---------------------------------------------------------------------


@dataclass
class _SideMap:
    """Which physical side of each placed double became which of the engine's sides."""

    engine: dict[tuple[int, Phys], Side] = field(default_factory=dict)

    def side_for(self, index: int, tile: Tile, phys: Phys, board: Board) -> Side:
        if (index, phys) in self.engine:
            return self.engine[(index, phys)]
        if not tile.is_double:
            raise AssertionError("non-double sides are found by value")
        if phys.startswith("long"):
            taken = {s for (i, _), s in self.engine.items() if i == index}
            side = Side.LINE_A if Side.LINE_A not in taken else Side.LINE_B
        else:
            taken = {s for (i, _), s in self.engine.items() if i == index}
            side = Side.BRANCH_A if Side.BRANCH_A not in taken else Side.BRANCH_B
        self.engine[(index, phys)] = side
        return side


def _phys_value_side(tile: Tile, seen: SeenTile, phys: Phys) -> Side:
    value = seen.pips[0] if phys == "half0" else seen.pips[1]
    return Side.LOW if value == tile.a else Side.HIGH


def _order(layout: Layout, root: int) -> list[tuple[int, PhysJoin | None]] | None:
    """A legal placement order from ``root``, or None if there is none from it.

    Breadth first, a double's line tiles before its branches; a double is only ever
    entered through a long side (it is attached by its line A)."""
    adjacency: dict[int, list[PhysJoin]] = {i: [] for i in layout.component}
    for j in layout.joins:
        adjacency[j.a].append(j)
        adjacency[j.b].append(j)
    order: list[tuple[int, PhysJoin | None]] = [(root, None)]
    placed = {root}
    queue = deque([root])
    while queue:
        k = queue.popleft()
        for join in sorted(adjacency[k], key=lambda j: (j.side_a if j.a == k else j.side_b).startswith("short")):
            other, other_side = (join.b, join.side_b) if join.a == k else (join.a, join.side_a)
            if other in placed or other_side.startswith("short"):
                continue
            placed.add(other)
            order.append((other, join))
            queue.append(other)
    return order if len(order) == len(layout.component) else None


def _by_centrality(layout: Layout) -> list[int]:
    """Tiles from the graph's centre outwards: the round most likely opened near the centre."""
    adjacency: dict[int, list[int]] = {i: [] for i in layout.component}
    for j in layout.joins:
        adjacency[j.a].append(j.b)
        adjacency[j.b].append(j.a)
    eccentricity = {}
    for start in layout.component:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            k = queue.popleft()
            for m in adjacency[k]:
                if m not in dist:
                    dist[m] = dist[k] + 1
                    queue.append(m)
        eccentricity[start] = max(dist.values())
    return sorted(layout.component, key=lambda i: (eccentricity[i], i))


def to_board(layout: Layout, every_double_spins: bool) -> tuple[Board, list[str]]:
    """The engine's board for the layout, and the problems met on the way (an illegal structure)."""
    problems: list[str] = []
    board = Board(every_double_spins)
    if not layout.component:
        return board, problems
    roots = _by_centrality(layout)
    if not every_double_spins:
        # Seven Rocks: the spinner is the round's first double; the one with branches, if any.
        spinning = [
            i for i in layout.component
            if layout.tiles[i].pips[0] == layout.tiles[i].pips[1]
            and any((j.a == i and j.side_a.startswith("short")) or (j.b == i and j.side_b.startswith("short")) for j in layout.joins)
        ]
        if len(spinning) > 1:
            problems.append("only the round's first double spins, but " + " and ".join(_where(layout.tiles[i]) for i in spinning) + " both have branches")
        if spinning:
            roots = [spinning[0]]
    order = next((o for o in (_order(layout, r) for r in roots) if o is not None), None)
    if order is None:
        problems.append("no order of play gives this layout (a double seems attached by its short end)")
        return board, problems
    sides = _SideMap()
    for index, join in order:
        seen = layout.tiles[index]
        tile = seen.tile
        try:
            if join is None:
                board = board.place(tile)
                continue
            parent, parent_phys, child_phys = (join.a, join.side_a, join.side_b) if join.b == index else (join.b, join.side_b, join.side_a)
            pseen = layout.tiles[parent]
            ptile = pseen.tile
            pside = sides.side_for(parent, ptile, parent_phys, board) if ptile.is_double else _phys_value_side(ptile, pseen, parent_phys)
            board = board.place(tile, board.point(ptile, pside))
            if tile.is_double:
                sides.engine[(index, child_phys)] = Side.LINE_A
        except IllegalMove as exc:
            problems.append(f"{_where(seen)}: {exc}")
    return board, problems


def attach_points(board: Board, layout: Layout) -> dict[Tile, tuple[Tile, Side]]:
    """For each tile of the layout that is not on ``board`` yet: the board tile and engine side it joins."""
    index_of = {layout.tiles[i].tile: i for i in layout.component}
    out: dict[Tile, tuple[Tile, Side]] = {}
    for join in layout.joins:
        for new, old, old_phys in ((join.a, join.b, join.side_b), (join.b, join.a, join.side_a)):
            new_tile, old_tile = layout.tiles[new].tile, layout.tiles[old].tile
            if new_tile in board or old_tile not in board:
                continue
            if old_tile.is_double:
                wanted_branch = old_phys.startswith("short")
                free = [p.side for p in board.free_points() if p.tile == old_tile and p.side.is_branch == wanted_branch]
                if not free:
                    continue
                out[new_tile] = (old_tile, free[0])
            else:
                out[new_tile] = (old_tile, _phys_value_side(old_tile, layout.tiles[index_of[old_tile]], old_phys))
    return out

def _ports(seen: SeenTile, g: _Geom | None = None) -> list[tuple[Phys, np.ndarray, np.ndarray]]:
    """Where a tile can take another: each physical side's middle and its outward direction (``g``:
    the tile's geometry, where already known)."""
    g = g or _geom(seen)
    if seen.pips[0] != seen.pips[1]:
        return [("half0", g.center - g.axis * g.length / 2, -g.axis), ("half1", g.center + g.axis * g.length / 2, g.axis)]
    return [("long+", g.center + g.normal * g.width / 2, g.normal), ("long-", g.center - g.normal * g.width / 2, -g.normal),
            ("short+", g.center + g.axis * g.length / 2, g.axis), ("short-", g.center - g.axis * g.length / 2, -g.axis)]
