"""The orders taken unanswered this round for new tiles laid at once or unseen: revised where the table later
contradicts one, and open to the players' own pick while the log holds them as taken."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Protocol, Sequence

from scorer.pipeline.events import PipelineEvent, told
from scorer.pipeline.notices import OrderPicked, OrderRevised, Said
from scorer.pipeline.rewrite import OrderGuess, OrderToPick, Rewritten, order_standing, with_order_revised
from scorer.pipeline.sequences import allows, one_way_each, state_after
from scorer.rules import Event, Match, Tile
from scorer.rules.transcript import Step, scores_text


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
        # The ways last offered, and what they were worked out for (the order, the moves since): asked after every change.
        self._offered: tuple[tuple[OrderGuess, tuple[Event, ...]], OrderToPick | None] | None = None
        self._each: tuple[OrderGuess, tuple[tuple[Event, ...], ...]] | None = None

    def take(self, events: tuple[Event, ...], ways: tuple[tuple[Event, ...], ...]) -> None:
        """``events`` just applied, unanswered, of the ``ways`` the rules allowed."""
        steps = self.table.steps
        written = steps[len(steps) - len(events):]
        if tuple(s.event for s in written) == events:
            self.taken.append(OrderGuess(events, ways, self.table.match.round_no, written[0].line))

    def revised(self, t: float, tile: Tile, fits: Callable[[Match], bool]) -> list[PipelineEvent]:
        """The round written again with another way the tiles of an order taken unanswered this round can have
        been played in -- the first after which the moves since stand and ``fits`` holds (``tile``, laid since,
        played as seen) -- said, open to correction, and the table read again.  Nothing where no way does."""
        self.taken = [g for g in self.taken if g.round_no == self.table.match.round_no]
        for guess in reversed(self.taken):
            if not guess.picked and (way := with_order_revised(self.table.steps, guess, fits)) is not None:
                played = tuple(e for e, _ in way.events[:len(way.changed)])
                return self._rewritten(t, guess, way, played, lambda scores: OrderRevised(tile, played, scores), picked=False)
        return []

    def _standing(self) -> tuple[OrderGuess, int] | None:
        """The order last taken unanswered this round that the log holds as taken, and where its events begin."""
        for guess in reversed(self.taken):
            if guess.round_no == self.table.match.round_no and (first := order_standing(self.table.steps, guess)) is not None:
                return guess, first
        return None

    def to_pick(self) -> OrderToPick | None:
        """The order last taken unanswered this round, with the other ways the moves since still fit (one for each state
        of the game they leave): None where it is gone or no other way fits."""
        if self.table.match.is_over or (standing := self._standing()) is None:
            return None  # (over: a pick would bring the match back to life after it was told over)
        guess, first = standing
        steps = self.table.steps
        since = tuple(s.event for s in steps[first + len(guess.taken):])
        if self._offered is None or self._offered[0] != (guess, since):
            before = steps[first].before
            if self._each is None or self._each[0] != guess:  # (up to hundreds of ways: worked out once an order)
                self._each = (guess, one_way_each(before, [guess.taken, *guess.ways]))
            ways = [way for way in self._each[1] if way == guess.taken or allows(before, [*way, *since])]
            self._offered = ((guess, since), OrderToPick(guess, before, tuple(ways)) if len(ways) > 1 else None)
        return self._offered[1]

    def pick(self, t: float, way: tuple[Event, ...]) -> list[PipelineEvent]:
        """The players picked ``way`` for the tiles of the order last taken unanswered: the round written so, the moves
        since scored again (said once, with the scores then, not move by move: the players are looking at the screen)
        -- or told why not (they do not fit it; the order is gone)."""
        if (standing := self._standing()) is None:
            return [told(t, OrderPicked(way, gone=True))]
        guess, first = standing
        if way == guess.taken:
            return []
        rewritten = with_order_revised(self.table.steps, guess, lambda _: True, (way,)) if way in guess.ways else None
        if rewritten is None:
            return [told(t, OrderPicked(way, kept=True))]
        return self._rewritten(t, guess, rewritten, way, lambda scores: OrderPicked(way, scores=scores), picked=True)

    def _rewritten(self, t: float, guess: OrderGuess, way: Rewritten, played: tuple[Event, ...],
                   said: Callable[[str], Said], picked: bool) -> list[PipelineEvent]:
        """The round written again with the order's tiles ``played`` another way, said once with the scores then (not
        move by move: a long way said again over the table drowned what mattered), the table read again; the order
        stays open to another pick, as now taken."""
        after = state_after(self.table.steps[way.keep].before, [e for e, _ in way.events])
        out = self.table.rewrite(t, replace(way, changed=()), said(scores_text(after)))
        self.taken[self.taken.index(guess)] = replace(guess, taken=played, line=self.table.steps[way.keep].line, picked=picked)
        return out + self.table.look_again(t)
