"""Horse Race (Fives family, as described by Pagat): every double spins, scoring plays continue the turn."""

from __future__ import annotations

from typing import Sequence

from scorer.errors import TableError
from scorer.rules.game_rules import GameRules, RoundScore, Table
from scorer.rules.tiles import Tile, round_to_five
from scorer.words import Words

_HAND_SIZES = {2: 7, 3: 6, 4: 5}


class HorseRace(GameRules):
    key = "horse-race"
    title = "Horse Race"
    every_double_spins = True
    target_raw = 305  # 61 game points of 5 raw each
    raw_per_point = 5
    has_boneyard = True
    rounds_each_hand = False

    def check_table(self, players: Sequence[str], partnership: bool) -> None:
        n = len(players)
        if n not in _HAND_SIZES:
            raise TableError(Words("Horse Race is played by 2, 3 or 4 players, found {count}", count=n))
        if partnership and n != 4:
            raise TableError(Words("Horse Race partnerships need 4 players (two pairs), found {count}", count=n))

    def hand_size(self, n_players: int) -> int:
        return _HAND_SIZES[n_players]

    def continues_turn(self, tile: Tile, raw_points: int, from_hand: bool) -> bool:
        # A drawn tile always ends the turn; from the hand a double or a scoring tile continues it.
        return from_hand and (tile.is_double or raw_points > 0)

    def round_scores(self, table: Table, hand_pips: Sequence[int], finisher: int | None) -> RoundScore:
        side_pips = [sum(hand_pips[s] for s in table.seats_of(side)) for side in range(table.n_sides)]
        if finisher is not None:
            winners: tuple[int, ...] = (table.side_of(finisher),)
        else:
            lowest = min(side_pips)
            winners = tuple(side for side, pips in enumerate(side_pips) if pips == lowest)
        total = sum(hand_pips)
        changes = [0] * table.n_sides
        for side in winners:
            # Every winner gets, once, the credit of all other hands (other tied winners included).
            changes[side] = round_to_five(total - side_pips[side])
        return RoundScore(tuple(changes), winners)
