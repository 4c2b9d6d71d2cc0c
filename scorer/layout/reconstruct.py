"""From tiles seen on the table to the played layout: the joins kept, the layout's tiles, and anything
inconsistent.

Joins are found from geometry alone (:mod:`scorer.layout.joins`); here each side keeps one, the played
layout is told from loose tiles, a half misread at a join is read again, and doubles laid in line are
taken as the crosswise doubles the rules mean.  :mod:`scorer.layout.engine_board` then gives the rules
engine's :class:`~scorer.rules.Board` through a legal placement order.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Collection, Sequence

from scorer.layout.joins import Layout, Phys, PhysJoin, SeenTile, _geom, _where, find_joins
from scorer.rules import Tile
from scorer.words import Listed, Words

# A tile that joins nothing at JOIN_TOLERANCE may still join the layout at this looser one, where its
# pips fit exactly one free side there (a detector's box is a few pixels off on a small tile).
STRAGGLER_TOLERANCE = 0.75


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
    used, kept, problems = _one_join_a_side(tiles, joins)
    component, kept = _played_group(tiles, kept, used, anchor, known)
    inside = set(component)
    # Tiles may lie close without being joined; a wrong join is a tile held by nothing else, beside the layout.
    joined = {j.a for j in kept} | {j.b for j in kept}
    for bad, message in mismatches:
        if (bad.a, bad.side_a) not in used and (bad.b, bad.side_b) not in used and not {bad.a, bad.b} <= joined:
            if inside & {bad.a, bad.b} or not inside:
                problems.append(message)
    notes: list[str] = list(reread)
    twice_notes, twice_problems = _seen_twice(tiles, inside)
    notes += twice_notes
    problems += twice_problems
    # Only the layout's own joins are the game's; the rest are loose tiles lying side by side.
    kept = [j for j in kept if j.a in inside and j.b in inside]
    kept, lengthwise, unclear = _lengthwise_doubles(kept, tiles, component)
    # (Asked about while either tile is new: once the move is answered or taken, the layout stands as read.)
    unclear = [(i, o) for i, o in unclear if not {tiles[i].tile, tiles[o].tile} <= set(known)]
    asked = {double for double, _ in unclear}
    notes += [Words("{tile} lies lengthwise in the line: read as a double laid crosswise", tile=_where(tiles[i]))
              for i in lengthwise if i not in asked]
    problems += [Words("{other} meets the long side of {tile} between its middle and its end: read as the line turning at "
                       "the double's end, not a branch from its middle -- please check it", tile=_where(tiles[i]),
                       other=_where(tiles[o])) for i, o in unclear]
    problems += _branches_too_early(tiles, kept, component)
    return Layout(tiles, kept, component, problems, notes)


def _one_join_a_side(tiles: Sequence[SeenTile], joins: Sequence[PhysJoin]
                     ) -> tuple[dict[tuple[int, Phys], PhysJoin], list[PhysJoin], list[str]]:
    """The joins kept, closest first, each side taking one: (the sides taken, the joins kept, the clashes in words)."""
    problems: list[str] = []
    used: dict[tuple[int, Phys], PhysJoin] = {}
    kept: list[PhysJoin] = []
    for join in sorted(joins, key=lambda j: j.error):
        clash = used.get((join.a, join.side_a)) or used.get((join.b, join.side_b))
        if clash is not None:
            problems.append(Words("two tiles at one side: {tile} and {other} both meet the same side", tile=_where(tiles[join.a]),
                                  other=_where(tiles[join.b])))
            continue
        used[(join.a, join.side_a)] = join
        used[(join.b, join.side_b)] = join
        kept.append(join)
    return used, kept, problems


def _played_group(tiles: Sequence[SeenTile], kept: list[PhysJoin], used: dict[tuple[int, Phys], PhysJoin],
                  anchor: int | None, known: Collection[Tile]) -> tuple[list[int], list[PhysJoin]]:
    """The played layout's tiles (see :func:`reconstruct` for ``anchor`` and ``known``), with the stragglers
    that join it loosely and their joins added to ``kept``."""
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
    return component, kept


def _seen_twice(tiles: Sequence[SeenTile], inside: set[int]) -> tuple[list[str], list[str]]:
    """Tiles seen more than once: (notes, problems)."""
    notes: list[str] = []
    problems: list[str] = []
    by_tile: dict[Tile, list[int]] = {}
    for i, t in enumerate(tiles):
        by_tile.setdefault(t.tile, []).append(i)
    for tile, where in by_tile.items():
        if len(where) < 2:
            continue
        message = Words("{tile} is seen {count} times: {places}", tile=tile, count=len(where), places=Listed([_where(tiles[i]) for i in where]))
        if len(inside & set(where)) == 1:
            # One copy is joined in the layout, the others lie loose: a set holds each tile once, so
            # the loose ones are misread (often a face-down tile): reported, not blocking.
            notes.append(message)
        elif inside & set(where) or not inside:
            problems.append(message)
    return notes, problems


def _branches_too_early(tiles: Sequence[SeenTile], kept: Sequence[PhysJoin], component: Sequence[int]) -> list[str]:
    """A spinner whose branch is used before both its line sides are filled, in words."""
    problems: list[str] = []
    for i in component:
        t = tiles[i]
        if t.pips[0] == t.pips[1]:
            sides = {j.side_a if j.a == i else j.side_b for j in kept if i in (j.a, j.b)}
            if sides & {"short+", "short-"} and not {"long+", "long-"} <= sides:
                problems.append(Words("spinner {tile}: a branch is used before both line sides are filled", tile=_where(t)))
    return problems


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
    out, notes = list(tiles), list[str]()
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
        notes.append(Words("{tile} is taken as {taken}: its half meets a {pips} at a join, a likely other reading", tile=_where(old),
                           taken=new.tile, pips=pips[half]))
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
# A line turning at the end of a double lies flush with that end, half a width off the middle; between
# CROSSWISE and this, neither reading is clear (a tilted camera's squashed view of a branch at the middle).
TURNING = 0.35


def _lengthwise_doubles(joins: list[PhysJoin], tiles: Sequence[SeenTile], component: Sequence[int]
                        ) -> tuple[list[PhysJoin], list[int], list[tuple[int, int]]]:
    """Doubles laid in line, taken as the crosswise doubles the rules mean: casual players lay
    doubles either way, and the graph is the same.  Its short-end joins become line joins where
    the double is joined only at its short ends (a crosswise double is never entered there), or
    at one short end and at one long side *off its middle* (the line turning at the double's end).
    A tile at the middle of the long side is a crosswise double's line: a tile at its short end
    then is a branch opened too early, which is reported, not explained away.  Also returned: each
    double with the tile at its long side between the two places (the double, that tile), to ask about."""
    relabel: dict[tuple[int, str], Phys] = {}
    lengthwise = []
    unclear: list[tuple[int, int]] = []
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
            o = j.b if j.a == i else j.a
            g, other = _geom(tiles[i]), _geom(tiles[o])
            off_middle = abs(float((other.center - g.center) @ g.axis)) / g.width
            if CROSSWISE <= off_middle < TURNING:
                unclear.append((i, o))
            if off_middle < CROSSWISE:
                continue  # at the middle of the long side: crosswise
        taken = [p for _, p in longs]
        long_sides: tuple[Phys, Phys] = ("long+", "long-")
        free_longs = [p for p in long_sides if p not in taken]
        for short, long in zip(shorts, free_longs):
            relabel[(i, short)] = long
        lengthwise.append(i)
    if not lengthwise:
        return joins, [], unclear
    out = [
        PhysJoin(j.a, relabel.get((j.a, j.side_a), j.side_a), j.b, relabel.get((j.b, j.side_b), j.side_b), j.error)
        for j in joins
    ]
    return out, lengthwise, unclear


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
