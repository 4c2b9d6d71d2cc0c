"""Pegging: cards played in turn with a running count to 31, scored card by card."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from scorer.errors import CardError
from scorer.words import Words
from scorer.cribbage.cards import Card
from scorer.cribbage.show import Score

_OF_A_KIND = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


@dataclass(frozen=True, slots=True)
class PegPlay:
    card: Card
    count: int  # the running count after it
    items: tuple[Score, ...]

    @property
    def points(self) -> int:
        return sum(i.points for i in self.items)


@dataclass(frozen=True, slots=True)
class PegState:
    """The current series (since the last reset) and the running count."""

    series: tuple[Card, ...] = ()
    count: int = 0

    def can_play(self, card: Card) -> bool:
        return self.count + card.value <= 31

    def play(self, card: Card) -> tuple[PegState, PegPlay]:
        if not self.can_play(card):
            raise CardError(Words("{card} would take the count from {count} past 31; say go instead", card=card, count=self.count))
        series = self.series + (card,)
        count = self.count + card.value
        return PegState(series, count), PegPlay(card, count, tuple(_score_last(series, count)))

    def go(self) -> tuple[PegState, Score | None]:
        """Nobody can play: the last card scores 1 for the go (unless it made 31), and the count restarts."""
        if not self.series:
            raise CardError(Words("a go with no card played since the count restarted"))
        point = None if self.count == 31 else Score("go", (self.series[-1],), 1)
        return PegState(), point


def _score_last(series: Sequence[Card], count: int) -> list[Score]:
    items: list[Score] = []
    last = series[-1]
    if count == 15:
        items.append(Score("fifteen", (last,), 2))
    if count == 31:
        items.append(Score("thirty-one", (last,), 2))
    same = 1
    for card in reversed(series[:-1]):
        if card.rank != last.rank:
            break
        same += 1
    if same >= 2:
        kind, points = _OF_A_KIND[same]
        items.append(Score(kind, tuple(series[-same:]), points))
    # The longest run among the last n cards, in any order.
    for n in range(len(series), 2, -1):
        ranks = sorted(c.rank for c in series[-n:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:])):
            items.append(Score("run", tuple(series[-n:]), n))
            break
    return items


@dataclass
class PegSequence:
    """Scores a whole pegging sequence; ``go`` restarts the count (and scores 1 for the last card)."""

    state: PegState = field(default_factory=PegState)
    plays: list[PegPlay | Score] = field(default_factory=list)

    def add(self, card: Card | None) -> PegPlay | Score | None:
        if card is None:
            self.state, point = self.state.go()
            if point:
                self.plays.append(point)
            return point
        self.state, play = self.state.play(card)
        self.plays.append(play)
        if play.count == 31:
            self.state = PegState()
        return play

    def finish(self) -> Score | None:
        """The last card of all scores a go (if the count is not 31)."""
        if self.state.series:
            return self.add(None)
        return None


def check_rank_counts(cards: Sequence[Card]) -> None:
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
        if counts[c.rank] > 4:
            raise CardError(Words("a deck has four cards of each rank; {card} is played a fifth time", card=c))
