"""The rules engine's board for a layout: its tiles placed in a legal order, so that spinners, free
points, scoring ends and the sum come from the one rules implementation."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from scorer.errors import IllegalMove
from scorer.layout.joins import Layout, Phys, PhysJoin, SeenTile, _where
from scorer.rules import Board, Side, Tile
from scorer.words import Listed, Words, words_of


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


def branching_doubles(layout: Layout) -> list[int]:
    """The layout's doubles (their indices) with a tile at a short end: branches, as only a spinner has."""
    return [i for i in layout.component
            if layout.tiles[i].pips[0] == layout.tiles[i].pips[1]
            and any((j.a == i and j.side_a.startswith("short")) or (j.b == i and j.side_b.startswith("short")) for j in layout.joins)]


def to_board(layout: Layout, every_double_spins: bool) -> tuple[Board, list[str]]:
    """The engine's board for the layout, and the problems met on the way (an illegal structure)."""
    problems: list[str] = []
    board = Board(every_double_spins)
    if not layout.component:
        return board, problems
    roots = _by_centrality(layout)
    if not every_double_spins:
        # Seven Rocks: the spinner is the round's first double; the one with branches, if any.
        spinning = branching_doubles(layout)
        if len(spinning) > 1:
            problems.append(Words("only the round's first double spins, but {tiles} both have branches",
                                  tiles=Listed([_where(layout.tiles[i]) for i in spinning], " and ")))
        if spinning:
            roots = [spinning[0]]
    order = next((o for o in (_order(layout, r) for r in roots) if o is not None), None)
    if order is None:
        problems.append(Words("no order of play gives this layout (a double seems attached by its short end)"))
        return board, problems
    sides = _SideMap()
    left_off: set[int] = set()  # tiles the rules kept off the board, and the tiles beyond them
    for index, join in order:
        seen = layout.tiles[index]
        tile = seen.tile
        try:
            if join is None:
                board = board.place(tile)
                continue
            parent, parent_phys, child_phys = (join.a, join.side_a, join.side_b) if join.b == index else (join.b, join.side_b, join.side_a)
            if parent in left_off:
                # (Said as what it follows from, not as the engine's "not on the board".)
                left_off.add(index)
                problems.append(Words("{tile}: joined to {other}, which the rules kept off the board (above)", tile=_where(seen),
                                      other=layout.tiles[parent].tile))
                continue
            pseen = layout.tiles[parent]
            ptile = pseen.tile
            pside = sides.side_for(parent, ptile, parent_phys, board) if ptile.is_double else _phys_value_side(ptile, pseen, parent_phys)
            board = board.place(tile, board.point(ptile, pside))
            if tile.is_double:
                sides.engine[(index, child_phys)] = Side.LINE_A
        except IllegalMove as exc:
            left_off.add(index)
            problems.append(Words("{tile}: {why}", tile=_where(seen), why=words_of(exc)))
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
