"""Domino tiles of the double-six set."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scorer.errors import IllegalMove, RulesError
from scorer.words import Words

MAX_PIPS = 6


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A tile ``[a|b]`` with ``a <= b``; build one from any order with :meth:`of`."""

    a: int
    b: int

    def __post_init__(self) -> None:
        for v in (self.a, self.b):
            if type(v) is not int or not 0 <= v <= MAX_PIPS:
                raise RulesError(f"a tile half must be a whole number 0..{MAX_PIPS}, found {v!r}")
        if self.a > self.b:
            raise RulesError(f"Tile(a, b) needs a <= b, found a={self.a}, b={self.b}; use Tile.of")

    @classmethod
    def of(cls, x: int, y: int) -> Tile:
        return cls(x, y) if x <= y else cls(y, x)

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    @property
    def pips(self) -> int:
        return self.a + self.b

    def has(self, value: int) -> bool:
        return value in (self.a, self.b)

    def as_list(self) -> list[int]:
        return [self.a, self.b]

    def __str__(self) -> str:
        return f"[{self.a}|{self.b}]"


FULL_SET: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1))


class Side(str, Enum):
    """A side of a placed tile where another tile can be joined.

    A non-double has its smaller end ``low`` and larger end ``high``.  A double
    lies crosswise: ``line-a`` (the side it was attached by) and ``line-b`` are
    its long sides, ``branch-a``/``branch-b`` its short ends, used only when the
    double is a spinner and both line sides are filled.
    """

    HIGH = "high"
    LOW = "low"
    LINE_A = "line-a"
    LINE_B = "line-b"
    BRANCH_A = "branch-a"
    BRANCH_B = "branch-b"

    @property
    def is_branch(self) -> bool:
        return self in (Side.BRANCH_A, Side.BRANCH_B)

    @property
    def order(self) -> int:
        return _SIDE_ORDER[self]

    @property
    def words(self) -> Words:
        """The side as the players are told it ("the larger end", "line A"), not its log token."""
        return _SIDE_WORDS[self]


_SIDE_WORDS = {Side.HIGH: Words("the larger end"), Side.LOW: Words("the smaller end"), Side.LINE_A: Words("line A"),
               Side.LINE_B: Words("line B"), Side.BRANCH_A: Words("branch A"), Side.BRANCH_B: Words("branch B")}


# The order the originals list a tile's sides in: larger end before smaller.
_SIDE_ORDER = {side: i for i, side in enumerate(Side)}

NON_DOUBLE_SIDES = (Side.HIGH, Side.LOW)
LINE_SIDES = (Side.LINE_A, Side.LINE_B)
BRANCH_SIDES = (Side.BRANCH_A, Side.BRANCH_B)


def side_value(tile: Tile, side: Side) -> int:
    """The pip value shown on ``side`` of ``tile``."""
    if tile.is_double:
        if side in NON_DOUBLE_SIDES:
            raise IllegalMove(f"a double {tile} has line and branch sides, not {side.value!r}")
        return tile.a
    if side is Side.LOW:
        return tile.a
    if side is Side.HIGH:
        return tile.b
    raise IllegalMove(f"a non-double {tile} has only 'low' and 'high' sides, not {side.value!r}")


def round_to_five(pips: int) -> int:
    """Round to the nearest multiple of 5: remainder 1-2 down, 3-4 up."""
    remainder = pips % 5
    return pips - remainder if remainder <= 2 else pips + 5 - remainder
