"""What differs between the games (:class:`GameRules`, one stateless instance per game) and who plays
at a table (:class:`Table`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Sequence

from scorer.errors import IllegalMove, TableError
from scorer.rules.tiles import Tile
from scorer.words import Words


class GameRules(ABC):
    """What differs between the games; one stateless instance per game."""

    key: str  # as in the session log: "horse-race", "seven-rocks"
    title: str
    every_double_spins: bool
    target_raw: int
    raw_per_point: int  # raw points per game point (display point)
    has_boneyard: bool
    # Seven Rocks rounds each hand left on its own; Horse Race credits the winner with the other hands'
    # pips together, rounded once.
    rounds_each_hand: bool

    @abstractmethod
    def check_table(self, players: Sequence[str], partnership: bool) -> None:
        """Raise :class:`TableError` if the game is not played at this table."""

    @abstractmethod
    def hand_size(self, n_players: int) -> int: ...

    @abstractmethod
    def continues_turn(self, tile: Tile, raw_points: int, from_hand: bool) -> bool:
        """Whether the player goes on after placing ``tile`` (round and match not over)."""

    @abstractmethod
    def round_scores(self, table: Table, hand_pips: Sequence[int], finisher: int | None) -> RoundScore:
        """The round-end count: raw score changes per side and the round's winning sides."""

    @property
    def scores_win_at_round_end(self) -> bool:
        """Whether a round-end count can bring a side to the target."""
        return True

    def game_points(self, raw: int) -> int:
        return raw // self.raw_per_point


@dataclass(frozen=True, slots=True)
class Table:
    """Who plays: names in clockwise seat order; partners sit opposite (seats 0+2, 1+3)."""

    rules: GameRules
    players: tuple[str, ...]
    partnership: bool

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise TableError(Words("player names must differ, found {names}", names=", ".join(map(str, self.players))))
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise TableError(Words("a player needs a name, found {name}", name=repr(name)))
        self.rules.check_table(self.players, self.partnership)

    @property
    def n_sides(self) -> int:
        return 2 if self.partnership else len(self.players)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.players)) if self.side_of(s) == side)

    def seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalMove(Words("unknown player {player}; the players are {players}", player=repr(player),
                                    players=", ".join(self.players))) from None

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    def side_name(self, side: int) -> str:
        return " & ".join(self.players[s] for s in self.seats_of(side))


@dataclass(frozen=True, slots=True)
class RoundScore:
    raw_changes: tuple[int, ...]  # per side
    winning_sides: tuple[int, ...]
