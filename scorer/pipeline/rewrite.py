"""A round's events written again, where what the table shows later tells of an earlier move.

Three things can: the hands laid out at the round's end (draws the camera missed:
:mod:`scorer.pipeline.recount`); a tile read unsurely, taken as read when play went on unanswered, whose
reading turns up surely somewhere else (:func:`with_guess_revised`); new tiles taken in an order, unanswered,
that leaves a tile laid since unplayable as the camera saw it (:func:`with_order_revised`).  Each way the
history keeps its first steps and the rest is applied again, changed -- only where the rules allow every
event as changed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from scorer.errors import ScorerError
from scorer.pipeline.notices import Change, PlayedInOrder, PlayedInstead, changes_told
from scorer.pipeline.sequences import allows, state_after
from scorer.rules import Event, Match, Play, RoundStart, Tile
from scorer.rules.transcript import Step

Timed = tuple[Event, float | None]  # an event and its time in the recording


@dataclass(frozen=True)
class Rewritten:
    """The round written again: the history's first ``keep`` steps kept, then ``events``."""

    keep: int
    events: tuple[Timed, ...]
    changed: tuple[int, ...]  # where among them the events changed lie
    changes: tuple[Change, ...]  # what was changed, as the players are told it

    @property
    def said(self) -> str:
        """What was changed, in words."""
        return changes_told(self.changes)


@dataclass(frozen=True)
class Guess:
    """A new tile read unsurely, asked about, and taken as read when play went on without an answer."""

    tile: Tile  # as taken
    others: tuple[Tile, ...]  # the other readings of it that fitted the game when it was asked about
    round_no: int
    line: int | None = None  # the log line of its play (an undo, a rewrite or a person's answer writes another)


def played_line(steps: Sequence[Step], tile: Tile) -> int | None:
    """The log line of the last play of ``tile``, if any."""
    return next((s.line for s in reversed(steps) if isinstance(s.event, Play) and s.event.tile == tile), None)


def round_start(steps: Sequence[Step]) -> int | None:
    """Where among the steps the last round began."""
    return max((i for i, s in enumerate(steps) if isinstance(s.event, RoundStart)), default=None)


def played_this_round(steps: Sequence[Step], tile: Tile) -> bool:
    """Whether ``tile`` was played since the last round began."""
    start = round_start(steps)
    return start is not None and any(isinstance(s.event, Play) and s.event.tile == tile for s in steps[start:])


def guessed(readings: Sequence[Sequence[Tile]], round_no: int) -> Guess | None:
    """The guess a question about one tile's reading makes, the first of ``readings`` taken (each reading:
    the tiles the table's new tiles are then); None where the readings differ in more than that tile."""
    taken = set(readings[0])
    swaps = [(taken - set(reading), set(reading) - taken) for reading in readings[1:]]
    if not swaps or any(len(lost) != 1 or len(gained) != 1 for lost, gained in swaps):
        return None
    tiles = {next(iter(lost)) for lost, _ in swaps}
    if len(tiles) != 1:
        return None
    others = tuple(dict.fromkeys(next(iter(gained)) for _, gained in swaps))  # (a reading offered twice: once)
    return Guess(tiles.pop(), others, round_no)


def with_guess_revised(steps: Sequence[Step], guess: Guess, other: Tile) -> Rewritten | None:
    """The round's events from the guessed tile's play on, with it played as ``other`` (and a tile laid
    against it laid against ``other``), or None where that play is no longer in the log as the guess
    found it (its line, where known), was not this round's, or the rules refuse an event so changed."""
    start = round_start(steps)
    played = [i for i, s in enumerate(steps) if isinstance(s.event, Play) and s.event.tile == guess.tile
              and guess.line in (None, s.line)]
    if start is None or not played or played[-1] < start:
        return None
    first = played[-1]
    play = steps[first].event
    assert isinstance(play, Play)
    events = [(_swapped(s.event, guess.tile, other), s.t) for s in steps[first:]]
    if not allows(steps[first].before, [e for e, _ in events]):
        return None
    return Rewritten(first, tuple(events), (0,), (PlayedInstead(play.player, other, guess.tile),))


def _swapped(event: Event, tile: Tile, other: Tile) -> Event:
    if not isinstance(event, Play):
        return event
    return replace(event, tile=other if event.tile == tile else event.tile, at=other if event.at == tile else event.at)


@dataclass(frozen=True)
class OrderGuess:
    """New tiles asked about and, unanswered, taken in one order of those the rules allowed."""

    taken: tuple[Event, ...]
    ways: tuple[tuple[Event, ...], ...]  # every way the rules allowed then, the one taken among them
    round_no: int
    line: int  # the log line of the first event taken
    picked: bool = False  # taken so by the players' pick: their answer, never revised by the camera


@dataclass(frozen=True)
class OrderToPick:
    """An order taken unanswered this round that the log still holds as taken: the players may pick another of its
    ways (the moves since scored again)."""

    guess: OrderGuess
    before: Match  # the match its ways start from
    ways: tuple[tuple[Event, ...], ...]  # one way for each state of the game they leave, the one taken first


def order_standing(steps: Sequence[Step], guess: OrderGuess) -> int | None:
    """Where among the steps the events of an order taken begin; None where the log no longer holds them as taken
    (an undo, a person's answer)."""
    first = next((i for i, s in enumerate(steps) if s.line == guess.line), None)
    if first is None or tuple(s.event for s in steps[first:first + len(guess.taken)]) != guess.taken:
        return None
    return first


def with_order_revised(steps: Sequence[Step], guess: OrderGuess, fits: Callable[[Match], bool],
                       ways: Sequence[tuple[Event, ...]] | None = None) -> Rewritten | None:
    """The round's events from the guessed order on, with another of its ways (of ``ways``, where given) in place of
    the one taken: the first after which the rules allow every event logged since and ``fits`` holds.  None where
    none does, or the events taken are no longer in the log as they were taken."""
    first = order_standing(steps, guess)
    if first is None:
        return None
    since = [(s.event, s.t) for s in steps[first + len(guess.taken):]]
    at = steps[first].t
    for way in guess.ways if ways is None else ways:
        if way == guess.taken:
            continue
        events = [*((e, at) for e in way), *since]
        try:
            after = state_after(steps[first].before, [e for e, _ in events])
        except ScorerError:
            continue
        if fits(after):
            return Rewritten(first, tuple(events), tuple(range(len(way))), (PlayedInOrder(way),))
    return None
