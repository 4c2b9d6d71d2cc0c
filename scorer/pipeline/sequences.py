"""The rules events that can explain new tiles on the table: who played which, in which order,
with which players passing between -- searched over the game state, never guessed past the rules."""

from __future__ import annotations

from typing import Callable, Sequence

from scorer.errors import IllegalMove, ScorerError
from scorer.layout.moves import Placement
from scorer.rules import Draw, Event, Match, Pass, Play, Tile
from scorer.words import Listed, Words

# New tiles seen at once are tried in at most this many orders (those the layout and the looks allow).
MAX_ORDERS_TRIED = 720
# Two tiles put down at least this far apart (seconds) are told apart in order by when their places settled.
SETTLE_GAP = 0.3


def on_turn(match: Match) -> str:
    """The player the rules name to move next (a round is on)."""
    player = match.next_player
    assert player is not None, "a round in play names the next player"
    return player


def drawn_on_turn(match: Match, count: int) -> list[Event]:
    """The ``count`` tiles drawn by the player on turn, as events (none for 0)."""
    return [Draw(on_turn(match), count)] if count else []


def state_after(match: Match, events: Sequence[Event]) -> Match:
    """The game state after the events (each applied by the rules; an illegal one raises)."""
    for e in events:
        match, _ = match.apply(e)
    return match


def allows(match: Match, events: Sequence[Event]) -> bool:
    """Whether the rules allow the events, one after another, from ``match``."""
    try:
        state_after(match, events)
    except ScorerError:
        return False
    return True


def passes_until(match: Match, player: str) -> list[Event]:
    """The passes of the players from the one on turn up to ``player``, in turn."""
    seat, target = match.table.seat(on_turn(match)), match.table.seat(player)
    passes: list[Event] = []
    while seat != target:
        passes.append(Pass(match.players[seat]))
        seat = match.table.next_seat(seat)
    return passes


def ways_laid(placements: Sequence[Placement], first_seen: dict[Tile, float],
              play: Callable[[Sequence[Placement]], list[Event] | None]) -> list[list[Event]]:
    """The events ``play`` makes of each order the placements can have been laid in -- each after the new
    tile it is laid against and (``first_seen``: when each was first read where it lies) after every one
    read in an earlier look -- at most :data:`MAX_ORDERS_TRIED` of them.  An order is given up as soon as
    ``play`` refuses a beginning of it, so that the orders counted are ones the rules allow."""
    tiles = {p.tile for p in placements}

    def ready(p: Placement, laid: set[Tile]) -> bool:
        against = p.at.tile if p.at is not None else None
        earlier = first_seen.get(p.tile)
        return (against not in tiles or against in laid) and not (
            earlier is not None and any(q.tile not in laid and first_seen.get(q.tile, earlier) < earlier for q in placements))

    ways: list[list[Event]] = []

    def extend(order: tuple[Placement, ...]) -> None:
        laid = {p.tile for p in order}
        for p in placements:
            if len(ways) >= MAX_ORDERS_TRIED:
                return
            if p.tile in laid or not ready(p, laid) or (events := play((*order, p))) is None:
                continue
            if len(order) + 1 == len(placements):
                ways.append(events)
            else:
                extend((*order, p))

    extend(())
    return ways


def sequence_for(match: Match, prefix: Sequence[Event], order: Sequence[Placement]) -> list[Event] | None:
    """``prefix``, then the placements played in ``order`` by the players on turn, one after another
    -- or None where the rules allow no such sequence."""
    return PlayedOn(match, prefix)(order)


class PlayedOn:
    """:func:`sequence_for` of ``match`` and ``prefix`` for the orders :func:`ways_laid` tries, each played on from
    the state its beginning left (kept) instead of from the start: the orders of a long gap's tiles number
    thousands, their beginnings tens of thousands."""

    def __init__(self, match: Match, prefix: Sequence[Event]) -> None:
        self.match, self.prefix = match, list(prefix)
        self._after: dict[tuple[Tile, ...], tuple[Match, list[Event]] | None] = {}

    def __call__(self, order: Sequence[Placement]) -> list[Event] | None:
        played = self._played(tuple(order))
        return None if played is None else list(played[1])

    def _played(self, order: tuple[Placement, ...]) -> tuple[Match, list[Event]] | None:
        key = tuple(p.tile for p in order)
        if key in self._after:
            return self._after[key]
        if not order:
            try:
                found: tuple[Match, list[Event]] | None = (state_after(self.match, self.prefix), list(self.prefix))
            except IllegalMove:
                found = None
        elif (before := self._played(order[:-1])) is None or (player := before[0].next_player) is None:
            found = None
        else:
            p = order[-1]
            event = Play(player, p.tile, None if p.at is None else p.at.tile, None if p.at is None else p.at.side)
            try:
                found = (before[0].apply(event)[0], [*before[1], event])
            except IllegalMove:
                found = None
        self._after[key] = found
        return found


def sequence_by_arms(match: Match, order: Sequence[Placement], laid_by: dict[Tile, str | None]) -> list[Event] | None:
    """The placements played in ``order``, each by the player ``laid_by`` names (None: the player then on
    turn), the players between passing -- or None where the rules allow no such sequence, or where every
    other player would pass in a row back to the same one (:func:`passed_round`)."""
    events: list[Event] = []
    state = match
    for p in order:
        if state.next_player is None:
            return None  # (the round is over: no tile more)
        player = laid_by.get(p.tile) or state.next_player
        if (seq := sequence_for(state, passes_until(state, player), [p])) is None:
            return None
        state = state_after(state, seq)
        events += seq
    return None if passed_round(events, len(match.players)) else events


def passed_round(events: Sequence[Event], players: int) -> bool:
    """Whether, at a table of three or more, every other player passes in a row somewhere in the events:
    the whole table knocking back to one player -- told by an arm, a misread arm is likelier."""
    run = 0
    for e in events:
        run = run + 1 if isinstance(e, Pass) else 0
        if players > 2 and run >= players - 1:
            return True
    return False


def laid_after_passes(match: Match, placement: Placement) -> tuple[tuple[Event, ...], ...]:
    """Each way a player after the one on turn can have laid the tile, those between passing."""
    first = match.table.seat(on_turn(match))
    later, ways = match.table.next_seat(first), []
    while later != first:
        if (seq := sequence_for(match, passes_until(match, match.players[later]), [placement])) is not None:
            ways.append(tuple(seq))
        later = match.table.next_seat(later)
    return tuple(ways)


def score_of(match: Match, events: Sequence[Event]) -> tuple[int, ...]:
    """The raw scores after the events."""
    return state_after(match, events).raw_scores


def one_way_each(match: Match, ways: Sequence[Sequence[Event]]) -> tuple[tuple[Event, ...], ...]:
    """The first of the ways for each state of the game they can leave (the raw scores, the player on turn,
    the hands' sizes, the passes in a row, ...: all but who played which tile)."""
    first: dict[tuple[object, ...], tuple[Event, ...]] = {}
    for way in ways:
        after = state_after(match, way)
        first.setdefault((after.raw_scores, after.phase, after.turn, after.hand_counts, after.boneyard, after.drew_this_turn,
                          after.passes_in_a_row, after.finisher, after.next_starter), tuple(way))
    return tuple(first.values())


def put_down_apart(settled: Sequence[float | None]) -> bool:
    """Whether tiles seen at once can be told apart as moves: their places settled at least
    :data:`SETTLE_GAP` apart (where each one's time is known; else as before, they are taken so)."""
    if len(settled) < 2 or None in settled:
        return True
    times = sorted(t for t in settled if t is not None)  # none is None here (checked above)
    return all(b - a >= SETTLE_GAP for a, b in zip(times, times[1:]))


def played_as(events: Sequence[Event]) -> Listed:
    """The plays and passes of a sequence, in words: "Ben [3|6], then Cid passed, then Dee [6|6]"."""
    return Listed([Words("{player} {tile}", player=e.player, tile=e.tile) if isinstance(e, Play)
                   else Words("{player} passed", player=e.player) for e in events if isinstance(e, (Play, Pass))], ", then ")


def in_order_put_down(candidates: list[list[Event]], settled: dict[Tile, float]) -> list[Event]:
    """Of legal sequences, the one playing the tiles in the order their places settled (several tiles
    seen at once: who played which follows from the order); where none does -- a tile's place moved
    again when the next one was laid against it, so two settled at once -- the first that plays no tile
    before one whose place settled clearly earlier; else the first."""
    if len(candidates) > 1:
        timed = [[settled.get(e.tile) for e in seq if isinstance(e, Play)] for seq in candidates]
        for seq, times in zip(candidates, timed):
            if None not in times and all(b - a >= SETTLE_GAP for a, b in zip(times, times[1:])):  # type: ignore[operator]
                return seq
        for seq, times in zip(candidates, timed):
            if None not in times and not any(a - b >= SETTLE_GAP for i, a in enumerate(times) for b in times[i + 1:]):  # type: ignore[operator]
                return seq
    return candidates[0]
