"""The layout on the table as a spinner graph, and its end sum.

A :class:`Board` is immutable: :meth:`Board.place` returns a new board, so a
rejected placement can never leave a half-changed layout behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from scorer.errors import IllegalMove
from scorer.rules.tiles import BRANCH_SIDES, LINE_SIDES, NON_DOUBLE_SIDES, Side, Tile, side_value
from scorer.words import Listed, Words


@dataclass(frozen=True, slots=True)
class Join:
    """``tile`` (already on the board) at ``side`` holds ``new_tile`` by ``new_side``."""

    tile: Tile
    side: Side
    new_tile: Tile
    new_side: Side


@dataclass(frozen=True, slots=True)
class FreePoint:
    """A side of a placed tile where a tile showing ``value`` may be attached now."""

    tile: Tile
    side: Side
    value: int


@dataclass(frozen=True, slots=True)
class ScoringEnd:
    """One term of the end sum: an outer end, or a whole exposed double (2v)."""

    tile: Tile
    value: int


@dataclass(frozen=True, slots=True)
class Board:
    """Tiles in placement order, the spinners among them, and every join.

    ``every_double_spins`` is the game's spinner rule: Horse Race makes every
    double a spinner, Seven Rocks only the round's first double.
    """

    every_double_spins: bool
    tiles: tuple[Tile, ...] = ()
    spinners: tuple[Tile, ...] = ()
    joins: tuple[Join, ...] = ()
    _used: frozenset[tuple[Tile, Side]] = field(default=frozenset(), repr=False, compare=False)
    # Computed on first use; a board never changes, so neither do they.
    _free_cache: tuple[FreePoint, ...] | None = field(default=None, repr=False, compare=False)
    _ends_cache: tuple[ScoringEnd, ...] | None = field(default=None, repr=False, compare=False)

    # -- reading ---------------------------------------------------------------

    def __contains__(self, tile: object) -> bool:
        return tile in self.tiles

    def __len__(self) -> int:
        return len(self.tiles)

    def is_filled(self, tile: Tile, side: Side) -> bool:
        return (tile, side) in self._used

    def free_points(self) -> tuple[FreePoint, ...]:
        """Every side where a tile may legally be attached, sorted as the originals list them."""
        if self._free_cache is None:
            points: list[FreePoint] = []
            for tile in sorted(self.tiles):
                points.extend(self._free_points_of(tile))
            object.__setattr__(self, "_free_cache", tuple(points))
        return self._free_cache  # type: ignore[return-value]

    def _free_points_of(self, tile: Tile) -> list[FreePoint]:
        used = self._used
        if not tile.is_double:
            return [FreePoint(tile, s, side_value(tile, s)) for s in NON_DOUBLE_SIDES if (tile, s) not in used]
        points = [FreePoint(tile, s, tile.a) for s in LINE_SIDES if (tile, s) not in used]
        if not points and tile in self.spinners:
            points = [FreePoint(tile, s, tile.a) for s in BRANCH_SIDES if (tile, s) not in used]
        return points

    def scoring_ends(self) -> tuple[ScoringEnd, ...]:
        """The terms of the end sum, sorted as the originals list them."""
        if self._ends_cache is None:
            object.__setattr__(self, "_ends_cache", self._compute_scoring_ends())
        return self._ends_cache  # type: ignore[return-value]

    def _compute_scoring_ends(self) -> tuple[ScoringEnd, ...]:
        ends: list[ScoringEnd] = []
        used = self._used
        for tile in sorted(self.tiles):
            if tile.is_double:
                # An exposed double counts both halves once; an internal one nothing.
                if any((tile, s) not in used for s in LINE_SIDES):
                    ends.append(ScoringEnd(tile, 2 * tile.a))
            else:
                ends.extend(ScoringEnd(tile, side_value(tile, s)) for s in NON_DOUBLE_SIDES if (tile, s) not in used)
        return tuple(ends)

    def end_sum(self) -> int:
        return sum(end.value for end in self.scoring_ends())

    def points(self) -> int:
        """Raw points the current layout scores: the end sum if a positive multiple of 5."""
        total = self.end_sum()
        return total if total > 0 and total % 5 == 0 else 0

    # -- placing ---------------------------------------------------------------

    @classmethod
    def replayed(cls, every_double_spins: bool, first: Tile, joins: Iterable[tuple[Tile, Side, Tile]]) -> Board:
        """The board made by laying ``first``, then each new tile at (tile, side) in turn, every step
        checked by the rules (:class:`IllegalMove` where one cannot be) -- a board read back from a record."""
        board = cls(every_double_spins).place(first)
        for tile, side, new_tile in joins:
            board = board.place(new_tile, board.point(tile, side))
        return board

    def placements(self, tile: Tile) -> tuple[FreePoint, ...]:
        """The free points ``tile`` could be attached at (every one, symmetric sides included)."""
        if not self.tiles:
            return ()
        return tuple(p for p in self.free_points() if tile.has(p.value))

    def can_place(self, tile: Tile) -> bool:
        return not self.tiles or any(tile.has(p.value) for p in self.free_points())

    def place(self, tile: Tile, at: FreePoint | None = None) -> Board:
        """A new board with ``tile`` attached at free point ``at`` (``None`` for the opening tile)."""
        if tile in self.tiles:
            raise IllegalMove(Words("{tile} is already on the board", tile=tile))
        becomes_spinner = tile.is_double and (self.every_double_spins or not self.spinners)
        spinners = self.spinners + (tile,) if becomes_spinner else self.spinners
        if not self.tiles:
            if at is not None:
                raise IllegalMove(Words("the board is empty: {tile} opens the round and attaches to nothing", tile=tile))
            return Board(self.every_double_spins, (tile,), spinners, (), frozenset())
        if at is None:
            raise IllegalMove(Words("{tile} needs a free point to attach to; the board is not empty", tile=tile))
        self._check_free(at)
        if not tile.has(at.value):
            raise IllegalMove(Words("{tile} does not match {side} of {other} (shows {value})", tile=tile, other=at.tile, side=at.side.words,
                                    value=at.value))
        if tile.is_double:
            new_side = Side.LINE_A
        else:
            new_side = Side.LOW if tile.a == at.value else Side.HIGH
        join = Join(at.tile, at.side, tile, new_side)
        used = self._used | {(at.tile, at.side), (tile, new_side)}
        return Board(self.every_double_spins, self.tiles + (tile,), spinners, self.joins + (join,), used)

    def _check_free(self, at: FreePoint) -> None:
        if at.tile not in self.tiles:
            raise IllegalMove(Words("{tile} is not on the board", tile=at.tile))
        if (at.tile, at.side) in self._used:
            raise IllegalMove(Words("{side} of {tile} is already filled", tile=at.tile, side=at.side.words))
        expected = side_value(at.tile, at.side)
        if at.value != expected:
            raise IllegalMove(Words("{side} of {tile} shows {expected}, not {value}", tile=at.tile, side=at.side.words, expected=expected,
                                    value=at.value))
        if at.side.is_branch:
            if at.tile not in self.spinners:
                raise IllegalMove(Words("{tile} is not a spinner: its branch sides cannot be used", tile=at.tile))
            open_lines = [s.words for s in LINE_SIDES if (at.tile, s) not in self._used]
            if open_lines:
                raise IllegalMove(Words("spinner {tile}: both line sides must be filled before a branch opens; {sides} still free",
                                        tile=at.tile, sides=Listed(open_lines, " and ")))

    def point(self, tile: Tile, side: Side) -> FreePoint:
        """The free point at ``side`` of ``tile``, checked."""
        at = FreePoint(tile, side, side_value(tile, side))
        self._check_free(at)
        return at
