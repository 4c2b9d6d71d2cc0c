"""Counting a hand (or the crib) with the starter: fifteens, pairs, runs, flush and nobs."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from scorer.errors import CardError
from scorer.words import Words
from scorer.cribbage.cards import Card, check_distinct


@dataclass(frozen=True, slots=True)
class Score:
    """One scoring item: what, which cards, how many points."""

    kind: str  # fifteen, pair, pair royal, double pair royal, run, flush, nobs, his heels, go, thirty-one
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(map(str, self.cards))}: {self.points}"


@dataclass(frozen=True, slots=True)
class ShowCount:
    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[Score, ...]

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)

    def explain(self) -> str:
        """The count spoken as players do: fifteens, then runs, then pairs, flush and nobs, with a running total."""
        lines, running = [], 0
        for item in self.items:
            running += item.points
            lines.append(f"{item.kind:<12} {' '.join(map(str, item.cards)):<16} {item.points:>2}  (total {running})")
        lines.append(f"{'total':<12} {'':<16} {self.total:>2}")
        return "\n".join(lines)


def _runs(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every combination forming the longest run (length >= 3); duplicates make double and triple runs."""
    for size in (5, 4, 3):
        found = []
        for combo in combinations(cards, size):
            ranks = sorted(c.rank for c in combo)
            if all(b - a == 1 for a, b in zip(ranks, ranks[1:])):
                found.append(tuple(sorted(combo)))
        if found:
            return found
    return []


def count_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowCount:
    """The show of a 4-card hand (or crib) with the starter."""
    if len(hand) != 4:
        raise CardError(Words("a hand (or crib) to count has 4 cards besides the starter, found {count}", count=len(hand)))
    for card in (*hand, starter):
        if card.suit is None:
            raise CardError(Words("{card}: counting a show needs each card's suit", card=card))
    check_distinct((*hand, starter))
    cards = (*hand, starter)
    items: list[Score] = []
    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(c.value for c in combo) == 15:
                items.append(Score("fifteen", tuple(sorted(combo)), 2))
    for run in _runs(cards):
        items.append(Score("run", run, len(run)))
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            items.append(Score("pair", tuple(sorted((a, b))), 2))
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            items.append(Score("flush", tuple(sorted(cards)), 5))
        elif not crib:  # the crib scores a flush only with all five of one suit
            items.append(Score("flush", tuple(sorted(hand)), 4))
    for card in hand:
        if card.rank == 11 and card.suit == starter.suit:
            items.append(Score("nobs", (card,), 1))
    return ShowCount(tuple(hand), starter, crib, tuple(items))


def his_heels(starter: Card) -> int:
    """Points for the dealer when the starter is a jack."""
    return 2 if starter.rank == 11 else 0
