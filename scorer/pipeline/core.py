"""The pipeline that keeps score at a table: frames in, game events out.

Each still table that differs from the last one is read: tiles detected and voted, the layout rebuilt,
and the change turned into rules events for the player on turn (cross-checked with the side the arm
reached in from).  Where the table does not fix the move -- readings that score differently, a tile that
changed, an impossible table -- a :class:`NeedsConfirmation` is emitted with the alternatives and the
last good state is kept.

:class:`TablePipeline` is the facade; the rooms behind it:

- :mod:`~scorer.pipeline.still` -- the still table, a value; :mod:`~scorer.pipeline.hovering` -- a hand held over it;
- :mod:`~scorer.pipeline.arms` -- the arms reaching in, and who laid which tile; :mod:`~scorer.pipeline.explain` -- which
  readings of a still table fit the board (pure);
- :mod:`~scorer.pipeline.questions` -- the questions to the players, each a value with its key;
- :mod:`~scorer.pipeline.turns` -- placements made rules events, or a question; :mod:`~scorer.pipeline.orders` -- orders taken unanswered;
- :mod:`~scorer.pipeline.rounds` -- a round opened, cleared, ended by the hands revealed; :mod:`~scorer.pipeline.draws` --
  the boneyard followed for draws; :mod:`~scorer.pipeline.recount` -- draws the camera missed, told by the hands at a round's end;
- :mod:`~scorer.pipeline.likely` -- how likely each way a tile was laid is, where no arm was seen (pure); :mod:`~scorer.pipeline.steady`
  -- a knocked camera noticed; :mod:`~scorer.pipeline.gating` -- when the table is still; :mod:`~scorer.pipeline.unfit` -- what keeps
  the camera from reading well (a calibration made on pictures of another shape).

Where the camera is unsure it asks; a question left unanswered is settled on its likeliest answer once play goes
on, or the recording ends (:meth:`TablePipeline.finish`), said in a notice open to correction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Hashable, Sequence

import numpy as np

from scorer.errors import RulesError
from scorer.pipeline.announce import announced
from scorer.pipeline.arms import Arms, moved_near
from scorer.pipeline.boneyard import Boneyard
from scorer.pipeline.draws import Draws
from scorer.pipeline.events import MoveEvent, Notice, PipelineEvent, StatusChange, TableView, told
from scorer.pipeline.explain import Note
from scorer.pipeline.gating import Gate
from scorer.pipeline.hovering import HoverWatch
from scorer.pipeline.memory import LayoutMemory
from scorer.pipeline.notices import (
    CameraMoved, Corrected, DrawsPutIn, NewView, NotFollowed, ReadingChanged, Said, SettledAtTheEnd, told_before,
)
from scorer.pipeline.questions import (
    Asked, LaidAtOnce, Question, Refused, StarterContradicted, WhichOrder, WhichReading, WhoseArm, needs_confirmation,
)
from scorer.pipeline.recount import with_draws_undone, with_missed_draws
from scorer.pipeline.rewrite import Guess, OrderToPick, Rewritten, played_this_round, with_guess_revised
from scorer.pipeline.sequences import in_order_put_down
from scorer.pipeline.rounds import Rounds
from scorer.pipeline.sources import Frame
from scorer.pipeline.steady import CameraShift
from scorer.pipeline.still import Known, Sight, StillTable, boneyard_tiles, sight_of
from scorer.pipeline.tracker import Tracker
from scorer.pipeline.turns import LOOK_AGAIN_SECONDS, Turns
from scorer.pipeline.unfit import calibration_fitted, camera_unfit, tiles_laid
from scorer.rules import Draw, Event, Match, Phase, Play, Reveal, Tile
from scorer.rules.history import MatchHistory
from scorer.rules.irregular import acts_while_able
from scorer.rules.transcript import Step
from scorer.vision.calibration import Profile, Zones, default_zones
from scorer.vision.detector import Detector
from scorer.words import words_of

# Questions a recording may end on, settled then on the first answer offered: the likeliest (the reading
# read likeliest; the order the places settled in; the player on turn's own arm; the arm that opened the round).
SETTLED_AT_THE_END = (WhichReading, WhichOrder, LaidAtOnce, WhoseArm, StarterContradicted)

# Live play is read from moving, noisy video frames, where the draws and the hands are read from tiles
# as small as the layout's: below this length (px) the players are told the camera is too far.
LIVE_SMALL_TILE_PX = 40


@dataclass
class PipelineConfig:
    starter: str | None = None  # who starts round 1, when known
    profile: Profile | None = None
    still_seconds: float = 0.4
    rereads: int = 2  # extra still frames read when a new tile is uncertain


@dataclass
class _Pending:
    """A still state waiting for more readings before it is acted on."""

    frames_left: int
    boneyard: list[list[np.ndarray]] = field(default_factory=list)  # the boneyard's tiles in each still frame read


class TablePipeline:
    """Feed frames with :meth:`feed`; it returns the events each frame produced.  A person's word comes in through
    :meth:`confirm` (the events that happened), :meth:`correct_reading` (a tile's pips) and :meth:`pick_order`."""

    def __init__(self, match: Match | MatchHistory, detector: Detector, config: PipelineConfig | None = None,
                 fps: float = 30.0) -> None:
        # The match lives in its history (a session's file, or memory): every event goes through it.
        self.history = match if isinstance(match, MatchHistory) else MatchHistory.of(match)
        self.detector = detector
        self.config = config or PipelineConfig()
        self.gate = Gate(fps=fps, still_seconds=self.config.still_seconds)
        self.tracker = Tracker()
        self.view = TableView()
        self.status = "waiting"
        self.zones: Zones | None = self.config.profile.zones if self.config.profile else None
        # A knocked camera is followed: the calibration's mapping is taken from where the camera looked then.
        self.camera = CameraShift()
        self.to_table = self.camera.followed(self.config.profile.to_table if self.config.profile else None)
        self.memory = LayoutMemory()
        self.arms = Arms(self.gate.settled_at)
        self.asked = Asked()
        self.draws = Draws()
        self.turns = Turns(self, self.arms, self.asked, self.draws, self.memory, self.tracker, self.to_table)
        self.rounds = Rounds(self, self.turns, self.arms, self.asked, self.draws, self.memory, self.tracker, self.config.starter)
        self._pending: _Pending | None = None
        self._noted: set[Hashable] = set()  # the notes said (each once)
        self._last_still: StillTable | None = None
        self._look_again_at: float | None = None  # a still table to be read again then, though nothing moved
        self.hover = HoverWatch()
        self._told_unfit: set[type] = set()  # what keeps the camera from reading well, told (each once a session)

    @property
    def match(self) -> Match:
        return self.history.match

    @property
    def boneyard(self) -> Boneyard:
        """The boneyard's backs as followed from one still table to the next."""
        return self.draws.boneyard

    # -- frames ------------------------------------------------------------------------------------

    def feed(self, frame: Frame) -> list[PipelineEvent]:
        events: list[PipelineEvent] = []
        if self.arms.frame_size is None:
            events += self._first_frame(frame.image, frame.t)
        if self.arms.frame_came(frame.t, self.gate.fps):
            self.gate.force_reread()  # (what was laid meanwhile is read as soon as the table is still, though it looks the same)
        still = self.gate.update(frame.image)
        if self.gate.moving and self.status != "waiting" and self.status != "confirm":
            events.append(self._set_status("waiting", frame.t))
        if still:
            self.arms.moved(self.gate.now, self.gate.motion_mask)
            self._pending = _Pending(self.config.rereads)
        elif self._look_again_at is not None and frame.t >= self._look_again_at and not self.gate.moving and self._pending is None:
            self._pending = _Pending(0)
        if self._pending is not None and not self.gate.moving:
            self._look_again_at = None
            events += self._read(frame)
        return events

    def _first_frame(self, image: np.ndarray, t: float) -> list[PipelineEvent]:
        """The camera's pictures: the calibration fitted to their size (or, made on another shape, not used: said)."""
        w, h = self.arms.frame_size = (image.shape[1], image.shape[0])
        profile, events = calibration_fitted(self.config.profile, (w, h), t)
        if profile is not self.config.profile:
            self.zones = profile.zones if profile else None
            self.to_table = self.turns.to_table = self.camera.followed(profile.to_table if profile else None)
        self.zones = self.zones or default_zones(w, h)
        return events

    def _set_status(self, status: str, t: float) -> StatusChange:
        self.status = status
        return StatusChange(t, status)  # type: ignore[arg-type]

    def _read(self, frame: Frame) -> list[PipelineEvent]:
        """One still frame read; acted on once no tile is unsure, or no reread is left."""
        events: list[PipelineEvent] = []
        if self.status != "reading":
            events.append(self._set_status("reading", frame.t))
        detections = self.detector.detect(frame.image)
        assert self._pending is not None and self.zones is not None
        pending = self._pending
        # (Read again, the table is the one read a frame ago: a tile read surely then and missed now is there.)
        voted, flips = self.tracker.update(detections, same_table=pending.frames_left < self.config.rereads)
        events += [told(frame.t, ReadingChanged(flip.center, flip.before, flip.after)) for flip in flips]
        has_boneyard = self.match.rules.has_boneyard
        if has_boneyard:
            pending.boneyard.append(boneyard_tiles(voted, detections, self.zones, len(self.match.players), self.to_table,
                                                   self.match.current_board().tiles))
        # Read another still frame when unsure of a tile.  (A face-down tile missed in one frame needs
        # no second look: the boneyard keeps its place until the picture there changes.)
        if any(not d.certain for d in voted) and pending.frames_left > 0:
            pending.frames_left -= 1
            return events
        self._pending = None
        events += self.act(StillTable.of(frame.t, self.gate.now, frame.image, voted, detections, pending.boneyard,
                                         has_boneyard, self.gate.motion_mask))
        if self.status == "reading":
            events.append(self._set_status("waiting", frame.t))
        return events

    # -- one still table -----------------------------------------------------------------------------

    def act(self, still: StillTable) -> list[PipelineEvent]:
        """Act on a still table: the move it shows, the round it opens or ends, or a question."""
        self._last_still, match = still, self.match
        if match.is_over:
            return []
        if match.phase is not Phase.BEFORE_ROUND:
            self.asked.opener = None  # (answered)
        events = self._first_frame(still.image, still.t) if self.arms.frame_size is None else []
        assert self.zones is not None
        events += self._followed(still)
        if self.hover.arm_over(still, self.camera.offset):
            # A hand still over the table (hovering before it lays a tile) hides what it covers: read once it
            # is gone, or after a while as it is.  (What it shows lies there: a tile laid, a boneyard whole.)
            self.arms.read(still.at, still.up)
            if match.phase is Phase.BEFORE_ROUND and not still.up:
                self.draws.cleared(still, match, arm_over=True)
            return events + self.look_again(still.t + LOOK_AGAIN_SECONDS)
        self.hover.keep(still, self.camera.offset)
        known = Known(self.zones, len(match.players), self.to_table, match.current_board().tiles, match.phase is Phase.IN_ROUND,
                    match.phase is Phase.BEFORE_ROUND, self.boneyard.slots, self.memory)
        sight = sight_of(still, known, lambda d, s: s.tile not in self.rounds.loose_before
                         and moved_near(still.motion, self.arms.frame_size, d.center))
        events += self._looked(still, sight)
        if match.phase is Phase.ROUND_OVER:
            return events + (self.rounds.played_on(still.t, sight) or self.rounds.hands_unanswered(still.t, still, sight)
                             or self.rounds.reveal(still.t, sight.seats, cleared=not sight.layout.component, backs=len(still.backs)))
        if match.phase is Phase.IN_ROUND and sight.seats and (
                ended := self.rounds.hands_in_round(still.t, sight.seats, backs=len(still.backs))):
            return events + ended
        if match.phase is Phase.BEFORE_ROUND:
            return events + self.rounds.before_round(still.t, still, sight)
        return events + self.turns.play(still.t, still, sight) + self.rounds.shown_with_last_tile(still.t, still, sight)

    def _followed(self, still: StillTable) -> list[PipelineEvent]:
        """Where the whole view moved since the last still one (the camera knocked), the places kept follow it; a new view is read afresh."""
        moved = self.camera.look(still.grey)
        if moved is None:
            return []
        self.boneyard.follow(moved.shift)
        self.memory.follow(moved.shift)
        self.arms.follow(moved.shift, moved.new_view)
        if moved.new_view:
            self.tracker.reset()
        return [told(still.t, NewView() if moved.new_view else CameraMoved(float(np.hypot(*moved.shift))))]

    def _looked(self, still: StillTable, sight: Sight) -> list[PipelineEvent]:
        """What a read of the table leaves behind, and the notes it gives."""
        layout = sight.layout
        self.rounds.looked(sight)
        self.arms.seen([s.tile for s in [*sight.seen, *layout.tiles]], still.t)  # (as read, and as read again at a join)
        self.arms.note_places(sight.tiles, layout, still.at)
        self.arms.read(still.at, sight.tiles)
        self.view = TableView(still.t, [*still.up, *still.down], self.match.board, list(layout.problems))
        events = self.tell(still.t, [(("layout", note), note) for note in layout.notes])
        laid = tiles_laid(self.match, bool(still.up or still.down))
        for unfit in camera_unfit(still.image, still.up, LIVE_SMALL_TILE_PX, self._told_unfit, tiles_laid=laid):
            self._told_unfit.add(type(unfit))
            events.append(told(still.t, unfit))
        return events

    def finish(self, t: float) -> list[PipelineEvent]:
        """The recording ended: a question still open is settled on its likeliest answer (said, open to correction), and the
        last still table read again, so that the round's last plays and its end are scored -- or the hands laid out counted as read."""
        if self.match.is_over:
            return []
        if self.asked.who_laid is not None:
            events = self.turns.settle_who_laid(t)
        elif (question := self.asked.open) is not None and question.alternatives and isinstance(question, SETTLED_AT_THE_END):
            offered = [list(way) for way in question.alternatives]
            likeliest = in_order_put_down(offered, self.arms.put_down()) if isinstance(question, WhichOrder) else offered[0]
            events = [told(t, SettledAtTheEnd(question, question.reason, tuple(likeliest)))]
            events += self.confirm(likeliest, t)
        else:
            return self.rounds.hands_at_the_end(t)
        if self._last_still is not None and any(isinstance(e, MoveEvent) for e in events):
            events += self.act(self._last_still)
        return events

    # -- what the parts do to the match ---------------------------------------------------------------

    def apply(self, t: float, events: Sequence[Event]) -> list[PipelineEvent]:
        """Apply the events through the match's history, each announced; one the rules refuse is asked about."""
        out: list[PipelineEvent] = []
        for event in events:
            try:
                step = self.history.apply(event, t)
            except RulesError as exc:
                return out + self.put(t, Refused(words_of(exc), (tuple(events),)))
            out.append(MoveEvent(t, step, announced(step)))
        return out + self._moved_on(t)

    def _moved_on(self, t: float) -> list[PipelineEvent]:
        """The match moved on: the last question may be put again, a round over ends its reads, the end is said."""
        self.asked.moved_on()
        if self.match.phase is not Phase.IN_ROUND:
            self.arms.round_over()
        wrong = [w for w in acts_while_able(self.history.steps) if w not in self._noted]  # (once, though rewritten)
        self._noted.update(wrong)
        out: list[PipelineEvent] = [told(t, w) for w in wrong]
        return out + ([self._set_status("over", t)] if self.match.is_over else [])

    def recount(self, t: float, reveal: Reveal, unseen: bool = True, fewer: bool = False, counted_at: Collection[float] | None = None) -> list[PipelineEvent]:
        """The round-end count ``reveal``, where its hands hold more tiles than the log gives them -- or (``fewer``) fewer: draws
        counted too many (at ``counted_at``) -- the round's events written again with the draws so counted, said; else nothing."""
        if (redrawn := with_missed_draws(self.history.steps, reveal, unseen)) is not None:
            return self.rewrite(t, redrawn, DrawsPutIn(redrawn.changes)) + self.apply(t, [reveal])
        if fewer and (undone := with_draws_undone(self.history.steps, reveal, counted_at)) is not None:
            return self.rewrite(t, undone, DrawsPutIn(undone.changes, fewer=True)) + self.apply(t, [reveal])
        return []

    def rewrite(self, t: float, rewritten: Rewritten, said: Said) -> list[PipelineEvent]:
        """The round written again (one undo line, then its lines from the first one changed on, each at its time), said; each changed announced."""
        self.history.rewind(rewritten.keep, t)
        out: list[PipelineEvent] = [told(t, said)]
        for i, (event, at) in enumerate(rewritten.events):
            step = self.history.apply(event, at)
            if i in rewritten.changed:
                out.append(MoveEvent(t, step, announced(step), rewritten=True))
        return out + self._moved_on(t)

    def rewind(self, count: int, t: float = 0.0) -> tuple[Step, ...]:
        """A person withdrew every move after the first ``count`` (undo; score again from here): what was asked and where
        withdrawn tiles lay are forgotten (the table as it was), and the table read again."""
        taken = self.history.rewind(count, t)
        self.rounds.taken_back()
        self.gate.force_reread()
        return taken

    def forget_the_table(self, same_round: bool = False) -> None:
        """The frames go on from another moment of the recording (score again from here): what was seen of the table (the
        boneyard, the last frames and still table, the hand over it, a clearing) is forgotten, and the next still table
        taken as it is.  In the same round (``same_round``) the kept tiles' places and readings are kept."""
        self.draws.boneyard = Boneyard()  # (Draws is shared with turns and rounds: its boneyard replaced)
        self.draws.forget(table_too=True)
        kept = set(self.match.current_board().tiles)
        if same_round:
            self.tracker.keep_only(kept)
        else:
            self.tracker.reset()
            self.memory.clear()  # (a later round laid the kept tiles' places with others)
        self.arms.forget_but(kept)
        self.arms.round_over()  # (the boxes read so far lay on the table of that other moment)
        self.turns.hidden_since = None
        self.rounds.cleared, self.rounds.loose_before, self.rounds.seen_now = False, set(), None
        self._pending = self._look_again_at = self._last_still = None
        self.hover.forget()
        self.camera.jumped()
        self.gate.jumped()

    @property
    def steps(self) -> Sequence[Step]:  # (the match's history so far: the parts read it, and change it through apply and rewrite)
        return self.history.steps

    def look_again(self, at: float) -> list[PipelineEvent]:  # (read the table again then, though nothing moved: a part was covered)
        self._look_again_at = at
        return []

    def put(self, t: float, question: Question) -> list[PipelineEvent]:
        """Put the question to the players, unless it is the one put last."""
        if not self.asked.put(question):
            return []
        self.status = "confirm"
        return [needs_confirmation(t, question), StatusChange(t, "confirm")]

    def tell(self, t: float, notes: Sequence[Note]) -> list[PipelineEvent]:
        """Say the notes: each key once a session (a note keyed None each time; :func:`told_before`)."""
        out: list[PipelineEvent] = []
        for key, message in notes:
            if key is None or not told_before(key, self._noted):
                self._noted.add(key)  # (None too: it is never looked up)
                out.append(Notice(t, message))
        return out

    # -- corrections from a person ------------------------------------------------------------------

    def correct_reading(self, center: tuple[float, float], tile: Tile, t: float = 0.0) -> list[PipelineEvent]:
        """A person corrected a tile's pips: the table is read again with that reading, and where the tile as read before was
        played this round -- and no other box is read so, which would be the played one (a new tile misread as one on the
        board) -- its move is written again with the tile corrected (the moves since scored again), where the rules allow."""
        before = self.tracker.reading_at(center)
        alone = before is not None and self.tracker.read_as(before) == 1
        if not self.tracker.correct(center, tile):
            return [told(t, NotFollowed())]
        self.asked.boxes, self._pending = (), _Pending(0)
        self.asked.moved_on()
        self.gate.force_reread()
        if before is None or before == tile or not alone or not played_this_round(self.history.steps, before):
            return [told(t, Corrected(center, tile))]
        played = with_guess_revised(self.history.steps, Guess(before, (), self.match.round_no), tile)
        if played is None:
            self.tracker.correct(center, before)  # (refused: the picture as the match has it, the tile as played)
            return [told(t, Corrected(center, tile, kept=before))]
        return self.rewrite(t, played, Corrected(center, tile, played.changes))

    def order_to_pick(self) -> OrderToPick | None:
        """The order last taken unanswered for new tiles this round, open to the players' pick (:meth:`pick_order`)."""
        return self.turns.orders.to_pick()

    def pick_order(self, way: Sequence[Event], t: float = 0.0) -> list[PipelineEvent]:
        """The players picked another way for those tiles: the round written so, said -- or told why not."""
        return self.turns.orders.pick(t, tuple(way))

    def confirm(self, events: Sequence[Event], t: float = 0.0) -> list[PipelineEvent]:
        """Apply the events a person chose (an alternative, or a move entered by hand)."""
        self.asked.boxes = ()
        self.asked.who_laid = self.asked.order = None
        between_rounds = self.match.phase is Phase.BEFORE_ROUND
        if (asked := self.asked.reading) is not None:
            # The answer names the tile read unsurely: that reading wins from now on, as if corrected.
            for e in events:
                if isinstance(e, Play) and e.tile in asked.box_may_be:
                    self.tracker.correct(asked.place, e.tile, e.at)
            self.asked.reading = None
        # Hands entered that hold more tiles than the log gives them tell of draws the camera missed.
        recounted = self.recount(t, events[0], fewer=True) if len(events) == 1 and isinstance(events[0], Reveal) else []
        out = recounted or self.apply(t, events)
        self.draws.told |= any(isinstance(e, Draw) for e in events)
        if not between_rounds and self.match.phase is Phase.BEFORE_ROUND and self.rounds.seen_now is not None:
            # The answer ended the round, and the table was last seen cleared (read before the answer
            # came): that was the end of the round's tiles.
            self.rounds.cleared_away(self.rounds.seen_now)
        self.gate.force_reread()
        if self.status == "confirm":
            out.append(self._set_status("waiting", t))
        return out
