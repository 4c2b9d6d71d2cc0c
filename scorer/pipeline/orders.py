"""The orders taken unanswered this round for new tiles laid at once or unseen: revised where the table later
contradicts one, and open to the players' own pick while the log holds them as taken."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Protocol, Sequence

from scorer.pipeline.events import PipelineEvent, told
from scorer.pipeline.notices import OrderPicked, OrderRevised, Said
from scorer.pipeline.rewrite import OrderGuess, OrderToPick, Rewritten, order_standing, with_order_revised
from scorer.pipeline.sequences import one_way_each
from scorer.rules import Event, Match, Tile
from scorer.rules.transcript import Step


class Rewritable(Protocol):
    """What the orders need of the pipeline: the match and its history, a round written again, a look again."""

    @property
    def match(self) -> Match: ...

    @property
    def steps(self) -> Sequence[Step]: ...

    def rewrite(self, t: float, rewritten: Rewritten, said: Said) -> list[PipelineEvent]: ...

    def look_again(self, at: float) -> list[PipelineEvent]: ...


class Orders:
    """The orders of this round taken unanswered, the last taken last."""

    def __init__(self, table: Rewritable) -> None:
        self.table = table
        self.taken: list[OrderGuess] = []

    def take(self, steps: Sequence[Step], events: tuple[Event, ...], ways: tuple[tuple[Event, ...], ...]) -> None:
        """``events`` just applied, unanswered, of the ``ways`` the rules allowed (``steps``: the log after them)."""
        written = steps[len(steps) - len(events):]
        if tuple(s.event for s in written) == events:
            self.taken.append(OrderGuess(events, ways, self.table.match.round_no, written[0].line))

    def revised(self, t: float, tile: Tile, fits: Callable[[Match], bool]) -> list[PipelineEvent]:
        """The round written again with another way the tiles of an order taken unanswered this round can have
        been played in -- the first after which the moves since stand and ``fits`` holds (``tile``, laid since,
        played as seen) -- said, open to correction, and the table read again.  Nothing where no way does."""
        self.taken = [g for g in self.taken if g.round_no == self.table.match.round_no]
        for guess in reversed(self.taken):
            if (way := with_order_revised(self.table.steps, guess, fits)) is not None:
                return self._rewritten(t, guess, way, lambda played: OrderRevised(tile, played))
        return []

    def to_pick(self) -> OrderToPick | None:
        """The order last taken unanswered this round, while the log holds it as taken: the players may pick another."""
        steps = self.table.steps
        for guess in reversed(self.taken):
            if guess.round_no == self.table.match.round_no and (first := order_standing(steps, guess)) is not None:
                before = steps[first].before
                return OrderToPick(guess, before, one_way_each(before, [guess.taken, *guess.ways]))
        return None

    def pick(self, t: float, way: tuple[Event, ...]) -> list[PipelineEvent]:
        """The players picked ``way`` for the tiles of the order last taken unanswered: the round written so, the
        moves since scored again -- or told why not (they do not fit it; the order is no longer open)."""
        open_order = self.to_pick()
        if open_order is None or way not in open_order.ways:
            return [told(t, OrderPicked(way, gone=True))]
        if way == open_order.guess.taken:
            return []
        if (rewritten := with_order_revised(self.table.steps, open_order.guess, lambda _: True, (way,))) is None:
            return [told(t, OrderPicked(way, kept=True))]
        return self._rewritten(t, open_order.guess, rewritten, OrderPicked)

    def _rewritten(self, t: float, guess: OrderGuess, way: Rewritten,
                   said: Callable[[tuple[Event, ...]], Said]) -> list[PipelineEvent]:
        """The round written again with another way an order's tiles were played in, said, the table read again; the
        order stays open to another pick, as now taken."""
        played = tuple(e for e, _ in way.events[:len(way.changed)])
        out = self.table.rewrite(t, way, said(played))
        self.taken[self.taken.index(guess)] = replace(guess, taken=played, line=self.table.steps[way.keep].line)
        return out + self.table.look_again(t)
