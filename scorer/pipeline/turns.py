"""Turns: the new tiles of a still table made rules events -- who laid which, in which order, who
drew and who passed -- or a question where the camera cannot tell.

:func:`turn_for` decides (a pure function of the game, the placements and what the camera saw of
them); :class:`Turns` reads a still table of a round in play, settles its reading
(:mod:`scorer.pipeline.explain`) and applies what it decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Collection, Protocol, Sequence

import numpy as np

from scorer.layout import Layout, reconstruct, seen_from_detections
from scorer.layout.moves import Placement
from scorer.pipeline.arms import Arms, player_at, settle_order
from scorer.pipeline.draws import Draws
from scorer.pipeline.events import PipelineEvent, told
from scorer.pipeline.explain import Explained, Fit, Note, Outcome, alternatives, blank_double_played, explain, unsure_new_tile
from scorer.pipeline.likely import TAKEN_WITHOUT_ASKING, likeliest_first
from scorer.pipeline.memory import LayoutMemory
from scorer.pipeline.notices import (
    BlankDoubleTaken, GuessRevised, NoArmSeen, OrderTaken, ReadingTaken, Said, WhoLaidTaken,
)
from scorer.pipeline.questions import (
    Asked, LaidAtOnce, NotPlayable, Question, TableUnfit, WhichOrder, WhichReading, WhoLaid, WhoseArm,
)
from scorer.pipeline.orders import Orders
from scorer.pipeline.rewrite import Guess, Rewritten, guessed, played_line, with_guess_revised
from scorer.pipeline.sequences import (
    PlayedOn, allows, drawn_on_turn, in_order_put_down, laid_after_passes, on_turn, one_way_each, passes_until,
    passed_round, put_down_apart, score_of, sequence_by_arms, sequence_for, state_after, ways_laid,
)
from scorer.pipeline.still import Sight, StillTable, ToTable
from scorer.pipeline.tracker import Tracker
from scorer.rules import Event, Match, Pass, Play, Reveal, Tile
from scorer.rules.transcript import Step
from scorer.vision.detector import TileDetection
from scorer.vision.geometry import long_side


class Table(Protocol):
    """What the parts of the pipeline may do to the match."""

    @property
    def match(self) -> Match: ...

    def apply(self, t: float, events: Sequence[Event]) -> list[PipelineEvent]:
        """Apply the events through the match's history, each announced (a refused one is asked about)."""

    def put(self, t: float, question: Question) -> list[PipelineEvent]:
        """Put the question to the players (unless it was the last one put)."""

    def tell(self, t: float, notes: Sequence[Note]) -> list[PipelineEvent]:
        """Say the notes (each key once)."""

    def look_again(self, at: float) -> list[PipelineEvent]:
        """Read the table again at ``at`` (the players' clock), even if nothing moved."""

    def recount(self, t: float, reveal: Reveal, unseen: bool = True, fewer: bool = False,
                counted_at: Collection[float] | None = None) -> list[PipelineEvent]:
        """The round-end count, with the draws the camera missed that its hands show (nothing where none fit;
        ``unseen``: also a draw where the camera saw none; ``fewer``: also draws counted too many, at ``counted_at``)."""

    def rewrite(self, t: float, rewritten: Rewritten, said: Said) -> list[PipelineEvent]:
        """The round written again as ``rewritten`` says, said."""

    @property
    def steps(self) -> Sequence[Step]:
        """The match's history so far."""


# Board tiles unseen are looked at again after this long (seconds), and asked about once unseen this long.
LOOK_AGAIN_SECONDS = 1.0
HIDDEN_WAIT = 2.0


@dataclass(frozen=True)
class Move:
    """The rules events that explain the new tiles, and what was taken without an answer (said)."""

    events: tuple[Event, ...]
    said: tuple[Said, ...] = ()
    ways: tuple[tuple[Event, ...], ...] = ()  # the order taken unanswered: every way the rules allowed


@dataclass(frozen=True)
class Laying:
    """What the camera saw of the new tiles being laid."""

    laid_by: dict[Tile, str | None]  # the player whose arm laid each (None: no arm seen)
    settled: dict[Tile, float]  # when each one's place last moved
    new_now: bool  # all of them first seen in this look
    put_down: dict[Tile, float] = field(default_factory=dict)  # when each one was put down (Arms.put_down)
    first_read: dict[Tile, float] = field(default_factory=dict)  # when each was first read where it lies (Arms.first_read)


def turn_for(match: Match, placements: Sequence[Placement], draws: int, seen: Laying, asked: Asked) -> Move | Question:
    """The ``draws`` of the player on turn, then the placements played by whom the rules and the arms
    tell -- or the question to ask."""
    on = on_turn(match)
    tiles = tuple(p.tile for p in placements)
    arm = seen.laid_by[placements[0].tile] if len(placements) == 1 else None
    prefix = drawn_on_turn(match, draws)
    if not draws and arm is not None and arm != on and len(placements) == 1:
        passes = passes_until(match, arm)  # the next seat played: the players between passed (knocked)
        if passed_round(passes, len(match.players)):
            # Every other player knocking, back to the arm's: an arm misread is likelier -- asked, the
            # player on turn's way first.
            either = [seq for seq in (sequence_for(match, [], placements), sequence_for(match, passes, placements)) if seq]
            if either:
                return WhoseArm(tiles, arm, on, tuple(tuple(seq) for seq in either))
        prefix += passes

    def laid_ways(play: Callable[[Sequence[Placement]], list[Event] | None]) -> list[list[Event]]:
        # (No order plays them as first read: a tile misread in an earlier look -- the layout alone orders them.)
        return ways_laid(placements, seen.first_read, play) or (ways_laid(placements, {}, play) if seen.first_read else [])

    candidates = laid_ways(PlayedOn(match, prefix))
    if not candidates and prefix:
        # The arm came from a player who cannot have played now (the players between may not pass):
        # someone reached across for the player on turn -- or the camera missed moves.  Asked.
        on_turn_plays = laid_ways(PlayedOn(match, []))
        if on_turn_plays:
            return WhoseArm(tiles, arm, on, tuple(tuple(seq) for seq in on_turn_plays))
    if not candidates:
        return NotPlayable(tiles, on)
    if arm is None and not draws and len(placements) == 1 and (others := laid_after_passes(match, placements[0])):
        # No arm seen (a dark tile on a dark cloth barely moves the picture), and a later player may have
        # laid it, the players between passing -- which the rules allow only to one holding nothing that
        # fits.  The likeliest way is taken where it is likely enough (said), else asked.
        ways, odds = likeliest_first(match, (tuple(candidates[0]),) + others)
        if odds[0] >= TAKEN_WITHOUT_ASKING:
            return Move(ways[0], (NoArmSeen(tiles[0], tuple(ways[0]), odds[0]),))
        return WhoLaid(tiles[0], on, ways)
    if len(placements) > 1:
        # Several new tiles: who laid which is told by the arms that laid them, where seen.
        agreeing = [seq for seq in candidates if all(seen.laid_by[e.tile] in (None, e.player) for e in seq if isinstance(e, Play))]
        named = [seen.laid_by[p.tile] for p in placements if seen.laid_by[p.tile] is not None]
        if not agreeing and not draws and len(set(named)) == len(named):
            # No turns in a row lay them as the arms tell, each tile another player's: the players between
            # passed (knocked), as for one tile -- never the whole table round to the same player.
            agreeing = laid_ways(lambda order: sequence_by_arms(match, order, seen.laid_by))
        candidates = agreeing or candidates
    return _chosen(match, placements, candidates, seen, asked)


def _chosen(match: Match, placements: Sequence[Placement], candidates: list[list[Event]], seen: Laying, asked: Asked) -> Move | Question:
    """Of the sequences the rules allow, the one played (several tiles: in the order they settled)."""
    placed = frozenset(p.tile for p in placements)
    offered = tuple(tuple(c) for c in candidates)
    unanswered: list[Tile | None] = []  # asked about and unanswered: who laid this tile, or (None) the order
    scores_differ = len({score_of(match, seq) for seq in candidates}) > 1
    # Ways that leave the same scores may leave another player on turn, or other hands: where the order the
    # tiles were put down in is not known (laid while the camera saw nothing), asked as well.
    unseen = any(p.tile not in seen.put_down for p in placements)
    # (One way for each state of the game they leave: a camera blind for a while can leave dozens.)
    each = one_way_each(match, offered) if scores_differ or unseen else offered
    if scores_differ or (unseen and len(each) > 1):
        if asked.order is None or not asked.order.tiles < placed:
            return WhichOrder(placed, each, scores_differ)
        # Asked, and play went on unanswered (more tiles now): the order their places settled in is
        # taken, so that the game does not stall -- said, and open to correction.
        unanswered.append(None)
    if seen.new_now and not put_down_apart([seen.put_down.get(p.tile) for p in placements]):
        # Several tiles new to this look whose places stopped moving at one moment were laid in one
        # motion: one move, not several -- most likely one tile seen as two boxes (half a tile each).
        return LaidAtOnce(tuple(p.tile for p in placements), offered)
    chosen = in_order_put_down(candidates, seen.put_down)
    if asked.who_laid is not None and asked.who_laid.tile in placed:
        unanswered.append(asked.who_laid.tile)
    plays = [e for e in chosen if isinstance(e, Play)]
    if unanswered and (settled := settle_order(placements, seen.put_down)) and (
            [e.tile for e in plays] != [p.tile for p in settled] or any(seen.laid_by[e.tile] not in (None, e.player) for e in plays)):
        # Asked, unanswered, and no sequence of turns in a row plays the tiles in the order they were
        # put down by the arms that laid them: a player passed between them (a continued turn ended
        # by a pass, a knock).  Taken as the arms tell, those between passing.
        chosen = sequence_by_arms(match, settled, seen.laid_by) or chosen
    taken = tuple(chosen)
    return Move(taken, tuple(OrderTaken(taken) if tile is None else WhoLaidTaken(tile, taken) for tile in unanswered),
                offered if None in unanswered else ())


class Turns:
    """The still tables of a round in play, turned into moves."""

    def __init__(self, table: Table, arms: Arms, asked: Asked, draws: Draws, memory: LayoutMemory, tracker: Tracker,
                 to_table: ToTable) -> None:
        self.table, self.arms, self.asked, self.draws = table, arms, asked, draws
        self.memory, self.tracker, self.to_table = memory, tracker, to_table
        self.hidden_since: tuple[frozenset[Tile], float] | None = None  # board tiles unseen, and since when
        self.guesses: list[Guess] = []  # tiles of this round taken as read unanswered
        self.orders = Orders(table)  # new tiles of this round taken in an order unanswered
        # The game state and the draws the order was asked at: the same tiles on the same game are not searched again
        # each look (a long gap's tiles take seconds).
        self.order_asked_at: tuple[Match, int] | None = None

    def fit(self) -> Fit:
        """What a reading of the table is checked against now."""
        return Fit(self.table.match.current_board(), self.to_table, self.arms.opening_tile, self.memory.is_remembered)

    def play(self, t: float, still: StillTable, sight: Sight) -> list[PipelineEvent]:
        """The still table of a round in play: the move it shows, or a question."""
        match, fit = self.table.match, self.fit()
        tiles, layout, events = sight.tiles, sight.layout, list[PipelineEvent]()
        if still.down and Tile(0, 0) not in fit.board.tiles and any(p.value == 0 for p in fit.board.free_points()):
            if (blank := blank_double_played(fit, tiles, layout, still.down)) is not None:
                tiles, d = blank
                layout = reconstruct(seen_from_detections(tiles, self.to_table), known=fit.board.tiles)
                events.append(told(t, BlankDoubleTaken(d.center)))
        notes, reading = explain(fit, match, tiles, layout, self.asked.boxes)
        events += self.table.tell(t, notes)
        if isinstance(reading, TableUnfit) and reading.hidden and self._hidden_for_now(t, frozenset(reading.hidden)):
            # Tiles of the board not seen: a hand hovering over them, or someone leaning in -- laid tiles
            # stay.  Looked at again before the players are asked.
            return events + self.table.look_again(t + LOOK_AGAIN_SECONDS)
        self.hidden_since = None
        if not isinstance(reading, Explained):
            if isinstance(reading, TableUnfit) and (revised := self._revised(t, tiles)):
                return events + revised
            return events + self.table.put(t, reading)
        tiles, layout, change = reading.tiles, reading.layout, reading.change
        if change.placements and (unsure := unsure_new_tile(fit, tiles, layout, change, self.tracker.read_surely)) is not None:
            # Still unsure of a new tile after reading it again, and another likely reading of it fits
            # the game too: the players say which (where the rules leave one reading, it is taken).
            return events + self.unsure(t, still, reading, *unsure)
        if change.placements and (asked := self.asked.reading) is not None and any(p.tile in asked.tiles for p in change.placements):
            # The tile asked about, read surely now (no answer came): laid before what was drawn since.
            self.asked.reading = None
            return events + self.after_question(t, still, reading, asked)
        if any(p.tile == Tile(0, 0) for p in change.placements):
            # A plain box read as the double blank may as well be a back (the camera cannot tell): said.
            events += [told(t, BlankDoubleTaken(d.center)) for d in tiles if d.maybe_back and d.pips == (0, 0)]
        draws = self.draws.since(match, still, tiles, layout)
        if draws and still.at in self.arms.reads_after_blind:
            self.draws.counted_blind.add(t)  # (drawn while the camera saw nothing: by whom, not known)
        draws = min(draws + self.draws.still_unwritten(match, t), match.boneyard)
        if change.placements:
            self.arms.note_places(tiles, layout)  # (the boxes as finally read)
        laid_first = self.laid_then_drawn(t, change.placements, draws) if self._drawn_after(change.placements, draws) else None
        events += self.drawn_then_laid(t, draws, change.placements) if laid_first is None else laid_first
        self.remember(still, tiles, layout)
        return events

    def _drawn_after(self, placements: list[Placement], draws: int) -> bool:
        """Whether the backs drawn since the last state were taken after a look that read the new tiles
        where they lie (a look that could not act: a board tile unseen) -- a tile laid, then the next
        player's draw.  (A tile drawn and laid at once is first read after the draw.)"""
        if not draws or not placements:
            return False
        if any(p.tile not in self.arms.first_read for p in placements):
            return False
        laid = max(self.arms.first_read[p.tile][0] for p in placements)
        taken = [when for box in self.draws.boneyard.taken if (when := self.arms.moved_last(box)) is not None]
        return len(taken) == len(self.draws.boneyard.taken) > 0 and laid < min(taken)

    def laid_then_drawn(self, t: float, placements: list[Placement], draws: int) -> list[PipelineEvent] | None:
        """The placements, then the ``draws`` of the player on turn after them -- where the rules and the
        arms take the placements without a question and allow the draws then; None otherwise."""
        match = self.table.match
        turn = turn_for(match, placements, 0, self._laying(t, placements), self.asked)
        if not isinstance(turn, Move):
            return None
        after = state_after(match, turn.events)
        if after.next_player is None:
            return None  # (the round or the match is over: no one draws)
        drawn = drawn_on_turn(after, draws)
        if not allows(after, drawn):
            return None
        self.asked.order = self.asked.who_laid = None
        return [told(t, said) for said in turn.said] + self.table.apply(t, [*turn.events, *drawn])

    def _hidden_for_now(self, t: float, hidden: frozenset[Tile]) -> bool:
        """Whether these board tiles unseen may still be only covered: unseen for under :data:`HIDDEN_WAIT`."""
        if self.hidden_since is None or self.hidden_since[0] != hidden:
            self.hidden_since = (hidden, t)
        return t - self.hidden_since[1] < HIDDEN_WAIT

    def unsure(self, t: float, still: StillTable, reading: Explained, d: TileDetection, outcomes: list[Outcome]) -> list[PipelineEvent]:
        """A new tile read unsurely that more than one reading fits: asked -- or, asked already and play
        went on without an answer, its likeliest reading taken, so that the game does not stall (said,
        and still open to correction)."""
        readings = tuple(tuple(p.tile for p in c.placements) for _, _, c in outcomes)
        x, y = d.center
        asked = self.asked.reading
        if asked is None or np.hypot(asked.place[0] - x, asked.place[1] - y) > long_side(d.corners) / 2:
            # (Tiles drawn by now were drawn before it was laid; those drawn while the question is
            # open come after it.)
            drawn_first = self.draws.since(self.table.match, still, reading.tiles, reading.layout) + \
                self.draws.still_unwritten(self.table.match, t)
            return self.table.put(t, WhichReading(d.center, readings, drawn_first, alternatives(self.table.match, outcomes, drawn_first)))
        self.asked.reading = None
        said = told(t, ReadingTaken(d.center, readings[0]))
        out = [said] + self.after_question(t, still, reading, asked)
        if (guess := guessed(readings, self.table.match.round_no)) is not None:
            self.guesses.append(replace(guess, line=played_line(self.table.steps, guess.tile)))
        return out

    def _revised(self, t: float, tiles: Sequence[TileDetection]) -> list[PipelineEvent]:
        """A tile taken as read unanswered (:class:`Guess`) whose reading is now seen surely elsewhere was
        another of its readings: where exactly one of them is on no box and lets the rules allow the round
        as played, the round is written again with it (said, open to correction) and the table read again.
        Nothing where no guess is so contradicted (the players are asked, as before).  The guessed box is
        the played tile where the layout remembers it; a guess read surely there since is no guess."""
        match = self.table.match
        self.guesses = [g for g in self.guesses if g.round_no == match.round_no]
        seen = {Tile.of(*d.pips) for d in tiles if d.pips is not None}
        for guess in reversed(self.guesses):
            there = [d for d in tiles if d.pips is not None and Tile.of(*d.pips) == guess.tile]
            near = [d for d in there if self.memory.is_remembered(d)]
            if any(self.tracker.read_surely(d) for d in near):
                self.guesses.remove(guess)  # (the camera, or a person, has read it so surely since)
                continue
            elsewhere = [d for d in there if not self.memory.is_remembered(d) and self.tracker.read_surely(d)]
            ways = [(other, way) for other in guess.others if other not in seen and other not in match.current_board().tiles
                    if (way := with_guess_revised(self.table.steps, guess, other)) is not None]
            if len(near) != 1 or not elsewhere or len(ways) != 1:
                continue
            other, way = ways[0]
            self.guesses.remove(guess)
            played = way.events[0][0]
            self.tracker.correct(near[0].center, other, played.at if isinstance(played, Play) else None)
            said = GuessRevised(near[0].center, guess.tile, other, elsewhere[0].center, way.changes)
            return self.table.rewrite(t, way, said) + self.table.look_again(t)
        return []

    def after_question(self, t: float, still: StillTable, reading: Explained, asked: WhichReading) -> list[PipelineEvent]:
        """The move asked about, unanswered, taken once play went on.  Where tiles were drawn while the
        question was open, the tile asked about is laid first, as offered (after the draws seen with it),
        then those draws and any tile laid since -- as it happened; else the tiles as one move, as any."""
        tiles, layout, placements = reading.tiles, reading.layout, reading.change.placements
        self.arms.note_places(tiles, layout)  # (the boxes as finally read)
        drawn_later = self.draws.since(self.table.match, still, tiles, layout)
        first = [p for p in placements if p.tile in asked.tiles]
        later = [p for p in placements if p.tile not in asked.tiles]
        prefix = drawn_on_turn(self.table.match, asked.drawn_first)
        laid_first = sequence_for(self.table.match, prefix, first) if drawn_later and first else None
        if laid_first is None:
            events = self.lay(t, placements, asked.drawn_first + drawn_later)
        else:
            events = self.table.apply(t, laid_first) + self.drawn_then_laid(t, drawn_later, later)
        self.remember(still, tiles, layout)
        return events

    def drawn_then_laid(self, t: float, draws: int, placements: list[Placement]) -> list[PipelineEvent]:
        """The ``draws`` of the player on turn, then the tiles laid (by whom the rules and arms tell)."""
        if placements:
            return self.lay(t, placements, draws)
        return self.table.apply(t, drawn_on_turn(self.table.match, draws)) if draws else []

    def lay(self, t: float, placements: list[Placement], draws: int) -> list[PipelineEvent]:
        """The placements (after ``draws``) as rules events, applied -- or the question asked."""
        asked = self.asked.who_laid
        if asked is not None and len(placements) > 1 and any(p.tile == asked.tile for p in placements):
            # Asked who laid a tile, and play went on unanswered: it was laid first, the likeliest way.
            return self.settle_who_laid(t) + self.drawn_then_laid(t, draws, [p for p in placements if p.tile != asked.tile])
        match = self.table.match
        asked_order = self.asked.order
        if asked_order is not None and asked_order.tiles == {p.tile for p in placements} and self.order_asked_at == (match, draws):
            self.draws.asked_with(draws, match, t)
            return self.table.put(t, asked_order)
        turn = turn_for(match, placements, draws, self._laying(t, placements), self.asked)
        if isinstance(turn, NotPlayable) and not draws and (lacking := self.draws.lacking(match)):
            # The first look at a round in play lacked backs the log gives the boneyard, and no order of the new tiles
            # is playable without them: drawn meanwhile, unseen (by whom, not known).
            draws = lacking
            self.draws.counted_blind.add(t)
            turn = turn_for(match, placements, draws, self._laying(t, placements), self.asked)
        self.order_asked_at = (match, draws) if isinstance(turn, WhichOrder) else None
        if isinstance(turn, (WhoseArm, NotPlayable)) and len(placements) == 1 and (revised := self._order_revised(t, placements, draws)):
            return revised
        if not isinstance(turn, Move):
            self.draws.asked_with(draws, match, t)
            return self.table.put(t, turn)
        self.asked.order = self.asked.who_laid = None
        out = [told(t, said) for said in turn.said] + self.table.apply(t, turn.events)
        if turn.ways:
            self.orders.take(turn.events, turn.ways)
        return out

    def _order_revised(self, t: float, placements: list[Placement], draws: int) -> list[PipelineEvent]:
        """A tile the rules and its arm do not let be played after an order taken unanswered this round: played
        as seen after another way that order's tiles can have been played in, where one allows it (:meth:`Orders.revised`)."""
        laying = self._laying(t, placements)

        def plays_as_seen(match: Match) -> bool:
            if match.next_player is None:
                return False  # (that way ends the round: no tile is laid after it)
            turn = turn_for(match, placements, draws, laying, Asked())
            return isinstance(turn, Move) and not turn.said

        return self.orders.revised(t, placements[0].tile, plays_as_seen)

    def _laying(self, t: float, placements: list[Placement]) -> Laying:
        """What the camera saw of the placements being laid."""
        players = self.table.match.players
        return Laying({p.tile: player_at(self.arms.side_that_laid(p.tile), players) for p in placements}, self.arms.settled,
                      all(self.arms.first_seen.get(p.tile) == t for p in placements), self.arms.put_down(),
                      {p.tile: self.arms.first_read[p.tile][0] for p in placements if p.tile in self.arms.first_read})

    def settle_who_laid(self, t: float) -> list[PipelineEvent]:
        """The question who laid a tile, left unanswered: the likeliest way offered taken (said)."""
        asked, self.asked.who_laid = self.asked.who_laid, None
        if asked is None or not asked.alternatives:
            return []
        way = asked.alternatives[0]
        said = told(t, WhoLaidTaken(asked.tile, tuple(way), "rules"))
        return [said] + self.table.apply(t, way)

    def remember(self, still: StillTable, tiles: list[TileDetection], layout: Layout) -> None:
        """Keep the layout's tiles for their places (:meth:`LayoutMemory.keep`)."""
        self.memory.keep(tiles, layout, set(self.table.match.current_board().tiles), still.grey)
