"""The pipeline that keeps score at a table: frames in, game events out.

Each still table that differs from the last one is read: tiles detected and voted, the layout rebuilt,
and the change turned into rules events for the player on turn (cross-checked with the side the arm
reached in from).  Where the table does not fix the move -- readings that score differently, a tile that
changed, an impossible table -- a :class:`NeedsConfirmation` is emitted with the alternatives and the
last good state is kept.

:class:`TablePipeline` is the facade; the rooms behind it:

- :mod:`~scorer.pipeline.still` -- the still table, a value: what one settled view shows;
- :mod:`~scorer.pipeline.arms` -- the arms reaching in, and who laid which tile;
- :mod:`~scorer.pipeline.explain` -- which readings of a still table fit the board (pure);
- :mod:`~scorer.pipeline.questions` -- the questions to the players, each a value with its key;
- :mod:`~scorer.pipeline.turns` -- placements made rules events, or a question;
- :mod:`~scorer.pipeline.rounds` -- a round opened, cleared, ended by the hands revealed;
- :mod:`~scorer.pipeline.draws` -- the boneyard followed for draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Sequence

import numpy as np

from scorer.errors import RulesError
from scorer.pipeline.announce import announce_play, announce_round
from scorer.pipeline.arms import Arms, moved_near
from scorer.pipeline.boneyard import Boneyard
from scorer.pipeline.draws import Draws
from scorer.pipeline.events import MoveEvent, Notice, PipelineEvent, StatusChange, TableView
from scorer.pipeline.explain import Note
from scorer.pipeline.gating import Gate
from scorer.pipeline.memory import LayoutMemory
from scorer.pipeline.questions import Asked, Question, Refused, needs_confirmation
from scorer.pipeline.rounds import Rounds
from scorer.pipeline.sources import Frame
from scorer.pipeline.still import Known, Sight, StillTable, boneyard_tiles, sight_of
from scorer.pipeline.tracker import Tracker
from scorer.pipeline.turns import Turns
from scorer.rules import Draw, Event, Match, Phase, Play, PlayOutcome, RoundOutcome, Tile
from scorer.rules.history import MatchHistory
from scorer.vision.calibration import Profile, Zones, default_zones
from scorer.vision.detector import Detector, too_small_to_read

# Live play is read from moving, noisy video frames, where the draws and the hands are read from tiles
# as small as the layout's: below this length (px) the players are told the camera is too far
# (measured with far-camera game videos: docs/experiments.md, "Session 22").
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
    """Feed frames with :meth:`feed`; it returns the events each frame produced.  A person's word comes
    in through :meth:`confirm` (the events that happened) and :meth:`correct_reading` (a tile's pips)."""

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
        self.to_table = self.config.profile.to_table if self.config.profile else None
        self.memory = LayoutMemory()
        self.arms = Arms(self.gate.settled_at)
        self.asked = Asked()
        self.draws = Draws()
        self.turns = Turns(self, self.arms, self.asked, self.draws, self.memory, self.tracker, self.to_table)
        self.rounds = Rounds(self, self.turns, self.arms, self.asked, self.draws, self.memory, self.tracker, self.config.starter)
        self._pending: _Pending | None = None
        self._noted: set[Hashable] = set()  # the notes said (each once)
        self._told_small = False

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
            self._first_frame(frame.image)
        still = self.gate.update(frame.image)
        if self.gate.moving and self.status != "waiting" and self.status != "confirm":
            events.append(self._set_status("waiting", frame.t))
        if still:
            self.arms.moved(self.gate.now, self.gate.motion_mask)
            self._pending = _Pending(self.config.rereads)
        if self._pending is not None and not self.gate.moving:
            events += self._read(frame)
        return events

    def _first_frame(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        self.arms.frame_size = (w, h)
        if self.zones is None:
            self.zones = default_zones(w, h)

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
        for flip in flips:
            events.append(Notice(frame.t, f"the tile at ({flip.center[0]:.0f}, {flip.center[1]:.0f}) now reads {flip.after}, not {flip.before}"))
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
        match = self.match
        if match.is_over:
            return []
        if match.phase is not Phase.BEFORE_ROUND:
            self.asked.opener = None  # (answered)
        if self.arms.frame_size is None:
            self._first_frame(still.image)
        assert self.zones is not None
        known = Known(self.zones, len(match.players), self.to_table, match.current_board().tiles, match.phase is Phase.IN_ROUND,
                    match.phase is Phase.BEFORE_ROUND, self.boneyard.slots, self.memory)
        sight = sight_of(still, known, lambda d, s: s.tile not in self.rounds.loose_before
                         and moved_near(still.motion, self.arms.frame_size, d.center))
        events = self._looked(still, sight)
        if match.phase is Phase.ROUND_OVER:
            return events + self.rounds.reveal(still.t, sight.seats, cleared=not sight.layout.component)
        if match.phase is Phase.IN_ROUND and sight.seats and (ended := self.rounds.hands_in_round(still.t, sight.seats)):
            return events + ended
        if match.phase is Phase.BEFORE_ROUND:
            return events + self.rounds.before_round(still.t, still, sight)
        return events + self.turns.play(still.t, still, sight)

    def _looked(self, still: StillTable, sight: Sight) -> list[PipelineEvent]:
        """What a read of the table leaves behind, and the notes it gives."""
        layout = sight.layout
        self.rounds.looked(sight)
        self.arms.seen([s.tile for s in [*sight.seen, *layout.tiles]], still.t)  # (as read, and as read again at a join)
        self.arms.note_places(sight.tiles, layout)
        self.arms.read(still.at, sight.tiles)
        self.view = TableView(still.t, [*still.up, *still.down], self.match.board, list(layout.problems))
        events = self.tell(still.t, [(("layout", note), note) for note in layout.notes])
        if not self._told_small and (small := too_small_to_read(list(still.up), LIVE_SMALL_TILE_PX)):
            self._told_small = True  # once a session: the players can move the camera, or not
            events.append(Notice(still.t, small))
        return events

    # -- what the parts do to the match ---------------------------------------------------------------

    def apply(self, t: float, events: Sequence[Event]) -> list[PipelineEvent]:
        """Apply the events through the match's history, each announced; one the rules refuse is asked about."""
        out: list[PipelineEvent] = []
        for event in events:
            try:
                step = self.history.apply(event, t)
            except RulesError as exc:
                return out + self.put(t, Refused(str(exc), (tuple(events),)))
            announcement = None
            if isinstance(step.outcome, PlayOutcome):
                announcement = announce_play(step.after, step.outcome)
            elif isinstance(step.outcome, RoundOutcome):
                announcement = announce_round(step.after, step.outcome)
            out.append(MoveEvent(t, step, announcement))
        self.asked.moved_on()
        if self.match.is_over:
            out.append(self._set_status("over", t))
        return out

    def put(self, t: float, question: Question) -> list[PipelineEvent]:
        """Put the question to the players, unless it is the one put last."""
        if not self.asked.put(question):
            return []
        self.status = "confirm"
        return [needs_confirmation(t, question), StatusChange(t, "confirm")]

    def tell(self, t: float, notes: Sequence[Note]) -> list[PipelineEvent]:
        """Say the notes: each key once a session (a note keyed None each time)."""
        out: list[PipelineEvent] = []
        for key, message in notes:
            if key is None or key not in self._noted:
                if key is not None:
                    self._noted.add(key)
                out.append(Notice(t, message))
        return out

    # -- corrections from a person ------------------------------------------------------------------

    def correct_reading(self, center: tuple[float, float], tile: Tile, t: float = 0.0) -> list[PipelineEvent]:
        """A person corrected a tile's pips: the table is read again with that reading."""
        if not self.tracker.correct(center, tile):
            return [Notice(t, "no tile is being followed there")]
        self.asked.boxes = ()
        self.asked.moved_on()
        self.gate.force_reread()
        self._pending = _Pending(0)
        return [Notice(t, f"the tile at ({center[0]:.0f}, {center[1]:.0f}) is {tile}, as corrected")]

    def confirm(self, events: Sequence[Event], t: float = 0.0) -> list[PipelineEvent]:
        """Apply the events a person chose (an alternative, or a move entered by hand)."""
        self.asked.boxes = ()
        self.asked.who_laid = self.asked.order = None
        was_over = self.match.phase is Phase.BEFORE_ROUND
        if (asked := self.asked.reading) is not None:
            # The answer names the tile read unsurely: that reading wins from now on, as if corrected.
            for e in events:
                if isinstance(e, Play) and e.tile in asked.tiles:
                    self.tracker.correct(asked.place, e.tile)
            self.asked.reading = None
        out = self.apply(t, events)
        self.draws.told |= any(isinstance(e, Draw) for e in events)
        if not was_over and self.match.phase is Phase.BEFORE_ROUND and self.rounds.seen_now is not None:
            # The answer ended the round, and the table was last seen cleared (read before the answer
            # came): that was the end of the round's tiles.
            self.rounds.cleared_away(self.rounds.seen_now)
        self.gate.force_reread()
        if self.status == "confirm":
            out.append(self._set_status("waiting", t))
        return out
