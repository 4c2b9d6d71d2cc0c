"""Rounds: opened by a tile put down, cleared away, ended by the hands laid out.

A round opens with a tile put down by a hand on a cleared table (by the player the rules name, else
the one whose arm reached it).  Its end is counted from the tiles laid face up in front of each seat,
once every hand is there and read surely -- or, where a tile read unsurely cannot be what it was read
as, as the one likely reading the rules allow.
"""

from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np

from scorer.layout import Layout, infer_placements
from scorer.layout.reading import OVERLAP
from scorer.pipeline.arms import Arms, moved_near, player_at
from scorer.pipeline.draws import Draws
from scorer.pipeline.events import PipelineEvent, told
from scorer.pipeline.explain import Explained, other_readings, pips, unsure_new_tile
from scorer.pipeline.memory import LayoutMemory
from scorer.pipeline.notices import HandsLikely, HandsTaken, PlayWentOn, StarterTaken, WhoLaidTaken
from scorer.pipeline.questions import Alternatives, Asked, HandsLeft, OpeningUnfit, StarterContradicted, WhoOpened, WhoseArm
from scorer.pipeline.recount import with_draw_before_play_went_on
from scorer.pipeline.sequences import allows, on_turn, sequence_for
from scorer.pipeline.still import Seats, Sight, StillTable
from scorer.pipeline.tracker import Tracker
from scorer.pipeline.turns import Table, Turns
from scorer.rules import Event, Match, Phase, Reveal, RoundStart, Tile
from scorer.vision.detector import TileDetection
from scorer.vision.geometry import polygon_iou

# A round-end count with more tiles read unsurely than this is not settled by the rules (each has up to
# five likely readings): the players are asked.
REVEAL_UNSURE_MAX = 4

Hands = list[list[TileDetection]]  # the tiles laid out in front of each seat, in seat order


class Rounds:
    """The life of the rounds at the table."""

    def __init__(self, table: Table, turns: Turns, arms: Arms, asked: Asked, draws: Draws, memory: LayoutMemory,
                 tracker: Tracker, starter: str | None = None) -> None:
        self.table, self.turns, self.arms, self.asked, self.draws = table, turns, arms, asked, draws
        self.memory, self.tracker = memory, tracker
        self.starter = starter  # who starts round 1, where known
        self.starter_asked: tuple[StarterContradicted, int] | None = None  # asked so, and the tiles laid then
        self.cleared = False  # the last round's tiles were cleared away: the next tile put down opens a round
        self.reveal_guess: Reveal | None = None  # the hands as best read while the round-end count waits
        self.hands_asked = False  # the players were asked for the hands left (the round's tiles cleared away)
        self.loose_before: set[Tile] = set()  # face-up tiles of the layout zone at the last read
        # At the last read, where no layout was seen: the face-up tiles.  (Kept for an answer that ends
        # the round after the table was seen cleared.)
        self.seen_now: set[Tile] | None = None

    def looked(self, sight: Sight) -> None:
        """A still table was read."""
        self.loose_before = {s.tile for s in sight.seen}
        self.seen_now = None if sight.layout.component else {s.tile for s in sight.seen}

    # -- opened ------------------------------------------------------------------------------------

    def before_round(self, t: float, still: StillTable, sight: Sight) -> list[PipelineEvent]:
        """A still table between rounds: cleared, or the next round opened."""
        tiles, layout, broken = sight.tiles, sight.layout, False
        if not layout.component:
            self.cleared_away(self.seen_now or set())
            if not sight.seen:  # (no tile face up: not an opening misread)
                self.draws.cleared(still, self.table.match)
        elif (self.cleared or self.table.match.round_no == 0 or (broken := self._broken_up(tiles, layout))) and any(
                moved_near(still.motion, self.arms.frame_size, tiles[i].center) for i in layout.component):
            # A round opens with a tile put down by a hand, not with something the camera misread at rest.
            side = None
            if broken:
                self.arms.first_read_now([(tiles[i], layout.tiles[i].tile) for i in layout.component], still.at, t)
                side = self._side_that_opened(layout)
            events = self.open(t, still, tiles, layout, tiles[layout.component[0]].center, side)
            self.turns.remember(still, tiles, layout)
            return events
        return []

    def _broken_up(self, tiles: list[TileDetection], layout: Layout) -> bool:
        """Whether the layout seen between rounds is a new one, the last round's cleared away unseen (the
        table cleared and the next round's first tiles put down between two still looks): none of its
        tiles lies where it lay in the last round, one of them is a tile of that round's layout seen
        elsewhere -- that layout is broken up -- and two of them are joined as they were not in it.  (A
        piece of the old layout, bumped or slid, holds only the old joins; a tile of a hand laid out was
        on no layout; and where nothing is remembered -- a session resumed between rounds -- nothing
        is proved: the round waits for a look at the cleared table.)"""
        board = self.table.match.current_board()
        component = [tiles[i] for i in layout.component]
        old_joins = {frozenset((j.tile, j.new_tile)) for j in board.joins}
        new_join = any(j.a in layout.component and j.b in layout.component
                       and frozenset((layout.tiles[j.a].tile, layout.tiles[j.b].tile)) not in old_joins for j in layout.joins)
        return bool(self.memory.tiles) and new_join and not any(self.memory.is_remembered(d) for d in component) and any(
            d.pips is not None and Tile.of(*d.pips) in board.tiles for d in component)

    def _side_that_opened(self, layout: Layout) -> int | None:
        """Of a round first seen with several tiles down, the table edge of the arm that laid the opening
        tile -- read in an earlier look than the tiles laid against it, the arm before that look, not the
        last one (which laid the tile beside it); None where the opening tile is not known."""
        tile = self.arms.opening_tile(layout)
        if tile is None or tile not in self.arms.first_read:
            return None
        return self.arms.side_that_laid(tile)  # (the look has noted the layout's places: core's _looked)

    def open(self, t: float, still: StillTable, tiles: list[TileDetection], layout: Layout,
             opening: tuple[float, float], side: int | None = None) -> list[PipelineEvent]:
        """A round opened with the tile at ``opening`` (frame pixels): by the player the rules name,
        else the one whose arm laid it (``side``: that arm's table edge, where known), else whose arm
        reached it last."""
        match = self.table.match
        starter: str | None
        if match.next_starter is not None:
            starter = match.players[match.next_starter]
        elif match.round_no == 0 and self.starter:
            starter = self.starter
            if self.starter_asked is not None and len(layout.component) > self.starter_asked[1]:
                # Asked who started, and play went on unanswered (a replay, a recording): the arm's player, said.
                starter = self.starter_asked[0].arm
                return [told(t, StarterTaken(starter, self.starter_asked[0].named))] + self._opened(t, still, tiles, layout, starter)
            # The arm that laid the first tile: the one over it where it lies alone, else as the looks tell.
            laid_from = (side if side is not None else self.arms.side_over(opening) if len(layout.component) == 1
                         else self._side_that_opened(layout))
            arm = player_at(laid_from, match.players)
            if arm is not None and arm != starter:  # (the name mistaken, or the arm misread: asked)
                self.starter_asked = (StarterContradicted(starter, arm), len(layout.component))
                return self.table.put(t, self.starter_asked[0])
        elif self.asked.opener is not None:
            return []  # the players were asked who opened the round: the next player's arm is no answer
        else:
            starter = player_at(self.arms.side_over(opening) if side is None else side, match.players)
        if starter is None:
            return self.table.put(t, WhoOpened(tuple(match.players)))
        return self._opened(t, still, tiles, layout, starter)

    def _opened(self, t: float, still: StillTable, tiles: list[TileDetection], layout: Layout, starter: str) -> list[PipelineEvent]:
        """The round opened by ``starter``, and its tiles on the table played."""
        self.cleared = self.hands_asked = False
        self.reveal_guess = None  # (the last round's hands, counted or not)
        self.asked.boxes, self.asked.reading = (), None  # (the last round's questions about readings)
        events = self.table.apply(t, [RoundStart(starter)])
        self.memory.clear()
        draws = self.draws.dealt(self.table.match, still, tiles, layout)
        return events + self._first_tiles(t, still, tiles, layout, draws)

    def _first_tiles(self, t: float, still: StillTable, tiles: list[TileDetection], layout: Layout,
                     draws: int) -> list[PipelineEvent]:
        """The layout's tiles not yet played, played (``draws``: tiles drawn since the opening tile) -- or,
        where one was never read surely and another reading of it would open the round as well, asked."""
        opening = self.arms.opening_tile(layout)
        change = infer_placements(self.table.match.current_board(), layout, opening)
        if change.placements and not change.problems and not draws and (
                unsure := unsure_new_tile(self.turns.fit(), tiles, layout, change, self.tracker.sure_as_read)) is not None:
            # (Any tile may open a round: a box read the same unsure way in every look is still a guess.)
            return self.turns.unsure(t, still, Explained(tiles, layout, change), *unsure)
        if change.placements and draws and opening is not None:
            # The opening tile, then the draws of the player on turn after it, then the tiles laid since.
            first = [p for p in change.placements if p.tile == opening]
            later = [p for p in change.placements if p.tile != opening]
            if first and not change.problems:
                events = self.turns.lay(t, first, 0)
                if opening not in self.table.match.current_board().tiles:
                    return events  # (asked)
                return events + self.turns.drawn_then_laid(t, draws, later)
        if change.placements and not change.problems:
            return self.turns.lay(t, change.placements, 0)
        if change.problems:
            return self.table.put(t, OpeningUnfit(tuple(change.problems)))
        return []

    # -- cleared -----------------------------------------------------------------------------------

    def cleared_away(self, now: set[Tile]) -> None:
        """The last round's tiles are gone: the next tile put down opens a round.  Forget the last
        round's tiles, not a tile lying alone now (it may be the next opening)."""
        self.cleared = True
        if not now:
            self.asked.opener = None  # (nothing left face up: whatever the question was about is gone)
        self.arms.forget_but(now)
        self.tracker.reset()

    # -- hands revealed ----------------------------------------------------------------------------

    def hands_in_round(self, t: float, seats: Seats, backs: int | None = None) -> list[PipelineEvent]:
        """Hands laid out while the round is on: a blocked round (its passes are not seen; its draws
        counted short, :meth:`reveal`), or a round ended or blocked by the tile the players were asked
        who laid (:meth:`who_laid_by_hands`).
        Anything else in a seat's strip (a misread boneyard tile, a hand put down) must not hold up
        play: nothing."""
        return self.who_laid_by_hands(t, seats) or self.reveal(t, seats, backs=backs)

    def reveal(self, t: float, seats: Seats, cleared: bool = False, backs: int | None = None) -> list[PipelineEvent]:
        """The round-end count from the tiles laid face up in front of each seat, once every hand is
        there and surely read.  Where the layout is cleared away before that, the players are asked
        (with the hands as best read, if they make a whole reveal).  Hands surely read that hold more
        tiles than the log gives them tell of draws the camera missed: taken so where each such player
        was seen drawing this round (a draw counted short) and the boneyard's ``backs`` seen now are as
        many fewer than the log says; else offered when the players are asked.  Hands surely read that hold fewer, beside
        a boneyard with as many backs more than the log says, tell of a draw counted just after the camera saw nothing
        that was not the player's: taken so."""
        match = self.table.match
        boxes = self._laid_out(seats)
        more = [len(seen) - count for seen, count in zip(boxes, match.hand_counts)]  # tiles beyond the log's count
        complete = not any(more)
        as_read = self._reveal_of(boxes, {})
        sure = all(d.certain for ds in seats.values() for d in ds)
        if complete and sure:
            self.reveal_guess = None
            return self.table.apply(t, [as_read])
        if complete and (settled := self._reveal_by_rules(boxes, as_read)) is not None:
            # The tiles read unsurely can be only these (where every tile is dealt, the hands hold
            # exactly the tiles not played).
            self.reveal_guess = None
            return [told(t, HandsLikely(settled))] + self.table.apply(t, [settled])
        if sure and sum(more) != 0 and (min(more) >= 0 or (max(more) <= 0 and any(boxes))) and backs == match.boneyard - sum(more) and (
                recounted := self.table.recount(t, as_read, unseen=False, fewer=True, counted_at=self.draws.counted_blind)):
            # As many backs fewer (more) in the boneyard than the log says as the hands hold tiles more (fewer): draws the
            # camera counted short -- or, counted at the first look after it saw nothing, put to the wrong player
            # (elsewhere a hand's tile lying face down is likelier than a draw that never was).
            self.reveal_guess = None
            return recounted
        if sure and min(more) >= 0 and sum(more) > 0:
            self.reveal_guess = as_read
        elif complete:
            self.reveal_guess = as_read  # wait for a better look
        if cleared and match.phase is Phase.ROUND_OVER:
            self.hands_asked = True
            return self.table.put(t, HandsLeft(self.reveal_guess))
        return []

    def taken_back(self) -> None:
        """Moves were withdrawn (undo, score again): what was asked, the hands as best read and where tiles
        no longer on the board lay are forgotten -- they were of the table as it was."""
        self.asked.forget()
        self.draws.forget()
        self.memory.forget_all_but(set(self.table.match.current_board().tiles))
        self.reveal_guess, self.hands_asked, self.starter_asked = None, False, None

    def played_on(self, t: float, sight: Sight) -> list[PipelineEvent]:
        """The log has a player out with their last tile, yet tiles have been laid on the round's layout
        since, joined as play goes on, and no hand is laid out: that player held more -- a draw the camera
        missed (white backs on a bright table), or an order taken unanswered that was not the order played (tiles
        laid unseen: another way they can have been played in is taken, where one lets play go on).  Else the
        round is written again with the draw put in, the way
        after which the first tile laid since is the next play -- by the arm that laid it, where seen --
        said (open to correction), and the table read again, as play.  Nothing where no tile was laid on,
        or no draw fits."""
        match = self.table.match
        if (match.finisher is None or not match.rules.has_boneyard or self.hands_asked or self.reveal_guess is not None
                or any(sight.seats.values()) or not sight.layout.component or sight.layout.problems):
            return []
        change = infer_placements(match.current_board(), sight.layout)
        if not change.placements or change.problems:
            return []
        first = change.placements[0]
        arm = player_at(self.arms.side_that_laid(first.tile), match.players)

        def goes_on(after: Match) -> bool:
            return after.phase is Phase.IN_ROUND and arm in (None, on_turn(after)) and sequence_for(after, [], [first]) is not None

        if revised := self.turns.orders.revised(t, first.tile, goes_on):
            return revised  # (tiles laid unseen taken in an order that played the player out: another one)
        player = match.players[match.finisher]
        redrawn = with_draw_before_play_went_on(self.table.steps, player, goes_on)
        if redrawn is None:
            return []
        return self.table.rewrite(t, redrawn, PlayWentOn(player, redrawn.changes)) + self.table.look_again(t)

    def shown_with_last_tile(self, t: float, still: StillTable, sight: Sight) -> list[PipelineEvent]:
        """A look that ended the round with its last tile, the hands laid out in it: counted from it
        (the table may be cleared by the next look).  Nothing where the round goes on or no hand shows."""
        if self.table.match.phase is not Phase.ROUND_OVER or not sight.seats:
            return []
        return self.reveal(t, sight.seats, backs=len(still.backs))

    def hands_unanswered(self, t: float, still: StillTable, sight: Sight) -> list[PipelineEvent]:
        """The players were asked for the hands left, with them as best read, and put the next round's
        first tile down instead of answering: those hands are taken (said, open to correction) and the
        round is opened with that tile.  Hands offered (read surely) that hold more tiles than the log
        gives a player who was seen drawing this round are taken with that draw counted short (said).
        Nothing where no hands were offered, or where a player holds more with no draw seen (a draw
        missed, or a stray tile: the players say): the question stays."""
        guess, tiles, layout = self.reveal_guess, sight.tiles, sight.layout
        if not self.hands_asked or guess is None or not layout.component or not any(
                moved_near(still.motion, self.arms.frame_size, tiles[i].center) for i in layout.component):
            return []
        ended = self._taken(t, guess)
        if not ended:
            return []
        self.reveal_guess = None
        said = told(t, HandsTaken(guess))
        self.cleared_away({s.tile for s in sight.seen})
        return [said, *ended, *self.before_round(t, still, sight)]

    def hands_at_the_end(self, t: float) -> list[PipelineEvent]:
        """The recording ended with the hands laid out but not settled (read unsurely, the round over or
        blocked; or holding a draw counted short): counted as read (said, open to correction), where
        :meth:`_taken` allows them.  Nothing where none wait so."""
        guess = self.reveal_guess
        if guess is None or not (ended := self._taken(t, guess)):
            return []
        self.reveal_guess = None
        return [told(t, HandsTaken(guess)), *ended]

    def _taken(self, t: float, guess: Reveal) -> list[PipelineEvent]:
        """The hands ``guess`` taken, where the rules allow them as read -- or with a draw of a player seen
        drawing this round counted short (read surely, they hold more tiles than the log gives); nothing else."""
        return self.table.apply(t, [guess]) if self._allows(guess) else self.table.recount(t, guess, unseen=False)

    def who_laid_by_hands(self, t: float, seats: Seats) -> list[PipelineEvent]:
        """The players were asked who laid a tile (no arm seen, or an arm not the player on turn's), and
        now lay their hands out unanswered: the one way offered after which these hands (all read
        surely) end the round -- the player who went out shows none; a blocked round's hands hold
        nothing that fits -- is taken, with the count, and said.  None or several: nothing."""
        asked = self._who_laid_asked()
        boxes = self._laid_out(seats)
        if asked is None or not all(d.certain for seen in boxes for d in seen):
            return []
        tile, ways = asked
        reveal = self._reveal_of(boxes, {})
        fitting = [way for way in ways if allows(self.table.match, [*way, reveal])]
        if len(fitting) != 1:
            return []
        (way,) = fitting
        self.asked.who_laid, self.reveal_guess = None, None
        said = told(t, WhoLaidTaken(tile, tuple(way), "hands"))
        return [said] + self.table.apply(t, [*way, reveal])

    def _who_laid_asked(self) -> tuple[Tile, Alternatives] | None:
        """The tile the players were asked who laid, and the ways offered; None where not asked."""
        if (asked := self.asked.who_laid) is not None:
            return asked.tile, asked.alternatives
        if isinstance(question := self.asked.open, WhoseArm) and len(question.tiles) == 1:
            return question.tiles[0], question.alternatives
        return None

    def _laid_out(self, seats: Seats) -> Hands:
        """The face-up tiles in front of each seat, in seat order, each tile once, in the order they lie."""
        return [in_a_row([d for d in one_box_per_tile(seats.get(seat, [])) if d.pips is not None])
                for seat in range(len(self.table.match.players))]

    def _reveal_by_rules(self, boxes: Hands, as_read: Reveal) -> Reveal | None:
        """Where the hands as read cannot be (a tile read as one on the board, or as another hand's),
        the one reveal the rules allow among the likely readings of the unsure tiles, if one.  Hands
        read unsurely that the rules allow as read wait for a surer look (or the players' word)."""
        unsure = [(seat, k) for seat, seen in enumerate(boxes) for k, d in enumerate(seen) if not d.certain]
        if not unsure or len(unsure) > REVEAL_UNSURE_MAX or self._allows(as_read):
            return None
        choices = [[pips(boxes[seat][k]), *other_readings(boxes[seat][k])] for seat, k in unsure]
        allowed = {reveal for combination in itertools.product(*choices)
                   if self._allows(reveal := self._reveal_of(boxes, dict(zip(unsure, combination))))}
        return allowed.pop() if len(allowed) == 1 else None

    def _reveal_of(self, boxes: Hands, read_as: dict[tuple[int, int], tuple[int, int]]) -> Reveal:
        """The hands the boxes in front of each seat show, some of them read as ``read_as`` says."""
        return Reveal(tuple((player, tuple(Tile.of(*read_as.get((seat, k), pips(d))) for k, d in enumerate(seen)))
                            for seat, (player, seen) in enumerate(zip(self.table.match.players, boxes))))

    def _allows(self, event: Event) -> bool:
        return allows(self.table.match, [event])


def in_a_row(hand: list[TileDetection]) -> list[TileDetection]:
    """A hand's tiles in the order they lie, along the way the hand spreads (the camera's left to right,
    or top to bottom): the same reveal however surely each tile was read."""
    if len(hand) < 2:
        return hand
    centres = np.array([d.center for d in hand])
    along = int(np.argmax(np.ptp(centres, axis=0)))
    return [hand[k] for k in np.argsort(centres[:, along], kind="stable")]


def one_box_per_tile(detections: Sequence[TileDetection]) -> list[TileDetection]:
    """Of boxes overlapping like no two tiles can, the best read one."""
    ranked = sorted(detections, key=lambda d: (d.read_confidence, d.confidence), reverse=True)
    kept: list[TileDetection] = []
    for d in ranked:
        if all(polygon_iou(np.asarray(d.corners), np.asarray(k.corners)) < OVERLAP for k in kept):
            kept.append(d)
    return kept
