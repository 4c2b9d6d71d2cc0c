"""The events of a match: what players do at the table, as the session log records them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from scorer.rules.tiles import Side, Tile

TileSource = Literal["hand", "drawn"]


@dataclass(frozen=True, slots=True)
class RoundStart:
    """A round begins; ``starter`` may be ``None`` where the rules fix who starts."""

    starter: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """``player`` puts ``tile`` on the table.

    ``at`` is the tile it is attached to (``None`` for the opening tile, or when
    only one tile on the board can take it); ``side`` optionally names the side
    of ``at`` (needed only to tell a spinner's branch from its line).
    """

    player: str
    tile: Tile
    at: Tile | None = None
    side: Side | None = None
    source: TileSource | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class Pass:
    """A pass (Horse Race) or a knock (Seven Rocks)."""

    player: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """The hands left at the end of a round, as ``(player, tiles)`` pairs."""

    hands: tuple[tuple[str, tuple[Tile, ...]], ...]

    def hand_of(self, player: str) -> tuple[Tile, ...] | None:
        for name, tiles in self.hands:
            if name == player:
                return tiles
        return None


Event = Union[RoundStart, Play, Draw, Pass, Reveal]
