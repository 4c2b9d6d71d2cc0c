"""Tiles read unsurely, read again where that alone makes the table fit together: the search shared by
one image's board (:mod:`scorer.layout.reading`) and a move (:mod:`scorer.layout.moves`), and the
readings it tries -- the reader's runner-ups, and what the tiles meeting one imply."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence, TypeVar

from scorer.layout.joins import JOIN_TOLERANCE, Phys, SeenTile, _meetings
from scorer.vision.tile_detection import TileDetection

# At most this many tiles are read again to make the table fit together (each a search over the tiles
# read unsurely): more would be guessing.
MAX_REREAD = 3

Fit = TypeVar("Fit")


# Of two readings again that make the table fit equally well, the one the reader finds at least this many
# times likelier (against each tile's own reading) is taken; closer, neither is.
LIKELIER = 10.0
# The probability taken for a count the reader kept no alternative for (it keeps those of 0.02 or more).
UNLIKELY = 0.01


def reading_likelihood(d: TileDetection, pips: tuple[int, int]) -> float:
    """How likely the reader finds detection ``d``'s halves to show ``pips`` (in its halves' order)."""
    out = 1.0
    for half, value in zip(d.halves or (), pips):
        out *= half.confidence if value == half.pips else dict(half.alternatives).get(value, UNLIKELY)
    return out


def read_again(tiles: Sequence[SeenTile], unsure: Sequence[bool],
               fit: Callable[[list[SeenTile], Fit | None], tuple[int, Fit] | None],
               readings: Callable[[list[SeenTile], int], list[tuple[int, int]]] = lambda tiles, i: [],
               likelihood: Callable[[int, tuple[int, int]], float] | None = None,
               tiles_of: Callable[[Fit], Sequence[SeenTile]] | None = None) -> tuple[list[SeenTile], Fit, dict[int, tuple[int, int]]]:
    """The tiles with those read unsurely read again where that makes the table fit together better.

    ``fit(tiles, current)`` rebuilds what the tiles give: (its problems, counted; the result), or None
    where a trial may not replace ``current``.  A tile read unsurely is read again as one of its likely
    other readings (or one ``readings(tiles, i)`` proposes) where that alone gives fewer problems and no
    other single reading does as well -- or, with ``tiles_of(result)`` (the tiles as ``fit`` finally
    read them, a half read again at a join), where all that do as well come to the table a proposed
    reading gives -- or, with ``likelihood(i, pips)`` (the reader's), where the others that do as well
    are far less likely (:data:`LIKELIER`) -- up to :data:`MAX_REREAD` tiles, one at a time.  Returns
    the tiles, the result for them and the tiles read again (index -> pips)."""
    tiles = list(tiles)
    first = fit(tiles, None)
    assert first is not None  # (no current result: the first fit is always taken)
    badness, result = first
    reread: dict[int, tuple[int, int]] = {}
    for _ in range(MAX_REREAD):
        if not badness:
            break
        best: list[tuple[int, tuple[int, int], int, Fit]] = []
        proposed: set[tuple[int, tuple[int, int]]] = set()
        for i, t in enumerate(tiles):
            if i in reread or not unsure[i]:
                continue
            mine = readings(tiles, i)
            proposed |= {(i, pips) for pips in mine}
            for pips in dict.fromkeys(mine + other_readings(t)):
                if pips == t.pips:
                    continue
                tried = fit(tiles[:i] + [replace(t, pips=pips)] + tiles[i + 1:], result)
                if tried is None or tried[0] >= badness or (best and tried[0] > best[0][2]):
                    continue
                best = [b for b in best if b[2] == tried[0]] + [(i, pips, *tried)]
        if len(best) > 1 and tiles_of is not None and len({tuple(t.pips for t in tiles_of(b[3])) for b in best}) == 1:
            # (Likely readings that come, a half read again at a join, to the table a proposed one gives.)
            best = [b for b in best if (b[0], b[1]) in proposed][:1] or best
        settled_by_odds = len(best) > 1 and likelihood is not None
        if settled_by_odds:
            assert likelihood is not None
            odds = sorted(((likelihood(i, pips) / likelihood(i, tiles[i].pips), k) for k, (i, pips, *_) in enumerate(best)), reverse=True)
            best = [best[odds[0][1]]] if odds[0][0] >= LIKELIER * odds[1][0] else best
        if len(best) != 1:
            break  # nothing fits better, or more than one reading does as well: not guessed
        i, pips, badness, result = best[0]
        tiles[i] = replace(tiles[i], pips=pips)
        reread[i] = pips
        if settled_by_odds:
            break  # (a choice made by the odds is not built on)
    return tiles, result, reread


# Stand-in pips for a tile whose reading its neighbours are asked for: no tile shows them, so every
# place where it meets another like a join is a mismatch that names the other's value.
_ASKED = (-1, -2)


def readings_the_joins_imply(tiles: Sequence[SeenTile], i: int) -> list[tuple[int, int]]:
    """The reading of tile ``i`` that the tiles meeting it imply, where they imply one (pips match at a
    join): both halves met by other tiles' ends, each read as the value shown there -- or, as a double
    laid crosswise, tiles meeting two or more of its sides, all showing one value.  A glare-washed tile
    in the middle of a line is read by its neighbours, as a person would read it.  (A tile met at one
    half only implies nothing: a box on bare table beside an open end would join the layout so.)"""
    out: list[tuple[int, int]] = []
    for stand_in in (_ASKED, (_ASKED[0],) * 2):
        trial = list(tiles)
        trial[i] = replace(tiles[i], pips=stand_in)
        met: dict[Phys, set[int]] = {}
        for join, value, rvalue in _meetings(trial, JOIN_TOLERANCE):
            if i in (join.a, join.b):
                met.setdefault(join.side_a if join.a == i else join.side_b, set()).add(rvalue if join.a == i else value)
        values = {side: v.pop() for side, v in met.items() if len(v) == 1}
        if len(values) < 2 or len(values) < len(met):
            continue  # (met at one side only, or two values at one side)
        if stand_in[0] != stand_in[1]:
            out.append((values["half0"], values["half1"]))
        elif len(set(values.values())) == 1:
            out.append((values.popitem()[1],) * 2)
    return [pips for pips in out if pips != tiles[i].pips]


def other_readings(seen: SeenTile) -> list[tuple[int, int]]:
    """A tile's likely other readings: one half or both read as its runner-up (the reader's second
    likeliest count; the third was measured to add time, not right readings)."""
    (first, second), (alt_first, alt_second) = seen.pips, (seen.alternatives[0][:1], seen.alternatives[1][:1])
    return [(a, second) for a in alt_first] + [(first, b) for b in alt_second] + [(a, b) for a in alt_first for b in alt_second]
