"""Seven Rocks (Decimal, Texas, Single Spinner): 4 in partnership, only the first double spins."""

from __future__ import annotations

from typing import Sequence

from scorer.errors import TableError
from scorer.rules.game_rules import GameRules, RoundScore, Table
from scorer.rules.tiles import Tile, round_to_five
from scorer.words import Words


class SevenRocks(GameRules):
    key = "seven-rocks"
    title = "Seven Rocks"
    every_double_spins = False
    target_raw = 250
    raw_per_point = 1
    has_boneyard = False
    rounds_each_hand = True

    def check_table(self, players: Sequence[str], partnership: bool) -> None:
        if len(players) != 4:
            raise TableError(Words("Seven Rocks is played by exactly 4 players in two partnerships, found {count}", count=len(players)))
        if not partnership:
            raise TableError(Words("Seven Rocks is played in two partnerships, not each player on their own"))

    def hand_size(self, n_players: int) -> int:
        return 7

    def continues_turn(self, tile: Tile, raw_points: int, from_hand: bool) -> bool:
        return False  # every placement ends the turn

    @property
    def scores_win_at_round_end(self) -> bool:
        return False  # a round-end count only subtracts

    def round_scores(self, table: Table, hand_pips: Sequence[int], finisher: int | None) -> RoundScore:
        changes = [0] * table.n_sides
        for seat, pips in enumerate(hand_pips):
            # Each hand is rounded on its own: two hands of 3 subtract 10, not 5.
            changes[table.side_of(seat)] -= round_to_five(pips)
        winners = () if finisher is None else (table.side_of(finisher),)
        return RoundScore(tuple(changes), winners)
