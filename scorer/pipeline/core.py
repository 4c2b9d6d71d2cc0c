"""The pipeline that keeps score at a table: frames in, game events out.

Each still table that differs from the last one is read: tiles detected and
voted, the layout rebuilt, and the change turned into rules events for the
player on turn (cross-checked with the side the arm reached in from).  Where the
table does not fix the move -- readings that score differently, a tile that
changed, an impossible table -- a :class:`NeedsConfirmation` is emitted with the
alternatives and the last good state is kept.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from scorer.errors import RulesError, ScorerError
from scorer.layout import Layout, infer_placements, reconstruct, seen_from_detections
from scorer.layout.moves import Placement
from scorer.layout.reading import OVERLAP, overlapping_pairs, without_overlaps
from scorer.pipeline.announce import announce_play, announce_round
from scorer.pipeline.boneyard import Boneyard, one_per_place, same_place
from scorer.pipeline.memory import LayoutMemory
from scorer.pipeline.places import table_colour, table_grey
from scorer.pipeline.sequences import (
    MAX_ORDERS_TRIED, SETTLE_GAP, drawn_on_turn, in_order_put_down, laid_after_passes, on_turn, passes_until, played_as, put_down_apart,
    score_of, sequence_by_arms, sequence_for, state_after,
)
from scorer.pipeline.events import MoveEvent, NeedsConfirmation, Notice, PipelineEvent, StatusChange, TableView
from scorer.pipeline.gating import Gate
from scorer.pipeline.sources import Frame
from scorer.pipeline.tracker import Tracker
from scorer.rules import Draw, Event, Match, Phase, Play, PlayOutcome, Reveal, RoundOutcome, RoundStart, Tile
from scorer.rules.history import MatchHistory
from scorer.vision.calibration import Profile, default_zones, seat_order
from scorer.vision.detector import Detector, HalfReading, TileDetection, too_small_to_read
from scorer.vision.geometry import long_side, polygon_iou
from scorer.vision.reader import shows_divider

EDGE_SIDES = ("bottom", "left", "top", "right")
# Still moments whose arm is remembered: a move held up by a question is still told by its own arm
# after a few more turns have been made.
ARMS_KEPT = 32
# A round-end count with more tiles read unsurely than this is not settled by the rules (each has up to
# five likely readings): the players are asked.
REVEAL_UNSURE_MAX = 4


# Live play is read from moving, noisy video frames, where the draws and the hands are read from tiles
# as small as the layout's: below this length (px) the players are told the camera is too far.  (Set 0's
# six games filmed from higher up, the detector's input following the tiles' size (session 22): tiles
# about 48 px and 39 px long 272/276 events and six of six games right with nobody answering, as fed
# the truth; about 35 px 270/276, five of six (a back missed: a draw too many); about 31 px 211/276,
# three of six (five of six answered) -- tiles and backs of the boneyard missed, hands read unsurely.)
LIVE_SMALL_TILE_PX = 40


@dataclass
class PipelineConfig:
    starter: str | None = None  # who starts round 1, when known
    profile: Profile | None = None
    still_seconds: float = 0.4
    rereads: int = 2  # extra still frames read when a new tile is uncertain


@dataclass(frozen=True)
class _Arm:
    """The motion that ended in a still table: each region of it reaching in from a table edge."""

    at: float  # the gate's clock when the table was still again
    reaches: tuple[tuple[int, np.ndarray], ...] = ()  # (edge, the region's pixels in the gate's small frame), largest first

    @property
    def side(self) -> int | None:
        """The edge the largest region reached in from (None: no region reached in)."""
        return self.reaches[0][0] if self.reaches else None

    def side_over(self, place: tuple[float, float] | None, frame_size: tuple[int, int] | None) -> int | None:
        """The edge of the region that reached the place (frame pixels) -- the arm that laid a tile
        there, not a player shifting in a seat at another edge -- else of the largest."""
        if place is not None and frame_size is not None:
            for side, region in self.reaches:
                h, w = region.shape
                x, y = int(place[0] * w / frame_size[0]), int(place[1] * h / frame_size[1])
                if region[max(0, y - 2) : y + 3, max(0, x - 2) : x + 3].any():
                    return side
        return self.side


@dataclass
class _Pending:
    """A still state waiting for more readings before it is acted on."""

    frames_left: int
    boneyard: list[list[np.ndarray]] = field(default_factory=list)  # the boneyard's tiles in each still frame read


def _inside(poly: Sequence[Sequence[float]], point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(np.asarray(poly, np.float32), (float(point[0]), float(point[1])), False) >= 0


class TablePipeline:
    """Feed frames with :meth:`feed`; it returns the events each frame produced."""

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
        self._zones = self.config.profile.zones if self.config.profile else None
        self.boneyard = Boneyard()
        self.memory = LayoutMemory()
        self._last_problem: str | None = None
        self._pending: _Pending | None = None
        self._frame_size: tuple[int, int] | None = None
        # Where each arm of late reached in from, and when the table was still after it (the gate's clock).
        self._arms: deque[_Arm] = deque(maxlen=ARMS_KEPT)
        # Each read of late: when (the gate's clock), and where its boxes lay (with their lengths).
        self._reads: deque[tuple[float, list[tuple[float, float, float]]]] = deque(maxlen=4 * ARMS_KEPT)
        self._places_now: dict[Tile, tuple[float, float]] = {}  # where each tile of the state acted on lies
        # The players were asked who opened the round (the camera missed the arm) and have not said.
        self._starter_asked = False
        # A draw was entered by hand: the boneyard as seen next is taken as it is, not as drawn from again.
        self._boneyard_told = False
        self._cleared = False
        self._reveal_guess: Reveal | None = None  # the hands as best read while the round-end count waits
        self._boneyard_now: list[np.ndarray] = []  # the boneyard's tiles in the state being acted on
        self._image_now: np.ndarray | None = None  # the frame of the state being acted on
        self._grey_now: np.ndarray | None = None  # that state's picture, for the boneyard's check
        self._colour_now: np.ndarray | None = None  # the same in colour (a boneyard's shades)
        # The boneyard as last seen on a table with no layout (its backs, and that state's pictures): the
        # round's boneyard as dealt, where the opening tile is read only after tiles were drawn.
        self._before_opening: tuple[list[np.ndarray], np.ndarray, np.ndarray | None] | None = None
        self._noted: set[str] = set()
        self._told_small = False
        self._asked_about: list[tuple[float, float]] = []  # boxes the players were asked to name and have not yet
        # A new tile read unsurely that the players were asked to tell: where it lies, the tiles it may be,
        # and how many tiles were seen drawn with it (before it was laid).
        self._asked_reading: tuple[tuple[float, float], set[Tile], int] | None = None
        self._asked_who_laid: Tile | None = None  # a tile laid with no arm seen that the players were asked about
        self._who_laid_offered: tuple[tuple[Event, ...], ...] = ()  # the ways offered for it
        # New tiles whose order of play (which scores differently) the players were asked about.
        self._asked_order: frozenset[Tile] | None = None
        self._seen_now: set[Tile] | None = None  # at the last read, where no layout was seen: the face-up tiles
        self._first_seen: dict[Tile, float] = {}  # when each face-up tile of the round was first read
        self._loose_before: set[Tile] = set()  # face-up tiles of the layout zone at the last read
        self._settled_now: dict[Tile, float] = {}  # when each tile's place last moved, in the state being acted on

    @property
    def match(self) -> Match:
        return self.history.match

    # -- frames ------------------------------------------------------------------------

    def feed(self, frame: Frame) -> list[PipelineEvent]:
        events: list[PipelineEvent] = []
        h, w = frame.image.shape[:2]
        if self._frame_size is None:
            self._frame_size = (w, h)
            if self._zones is None:
                self._zones = default_zones(w, h)
        still = self.gate.update(frame.image)
        if self.gate.moving and self.status != "waiting" and self.status != "confirm":
            events.append(self._set_status("waiting", frame.t))
        if still:
            self._arms.append(_Arm(self.gate.now, self._reaches_of_motion()))
            self._pending = _Pending(self.config.rereads)
        if self._pending is not None and not self.gate.moving:
            events += self._read(frame)
        return events

    def _set_status(self, status: str, t: float) -> StatusChange:
        self.status = status
        return StatusChange(t, status)  # type: ignore[arg-type]

    def _reaches_of_motion(self) -> tuple[tuple[int, np.ndarray], ...]:
        """Where the last motion reached in from the table's edges: each moving region that crosses an
        edge, with that edge (the one it crosses most), largest first -- an arm is one big region
        reaching in.  Flicker on a bright patch or noise makes small specks, which are left out."""
        mask = self.gate.motion_mask
        if mask is None or not mask.any():
            return ()
        h, w = mask.shape
        # An arm whose colour is near the table's moves in patches: close the gaps first.
        closed = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
        reaches = []
        for k in range(1, n):
            area = stats[k, cv2.CC_STAT_AREA]
            if area <= 0.004 * h * w:
                continue
            region = labels == k
            border = [region[h - 1, :].sum(), region[:, 0].sum(), region[0, :].sum(), region[:, w - 1].sum()]
            if max(border) > 0:
                reaches.append((area, int(np.argmax(border)), region))
        reaches.sort(key=lambda r: -r[0])
        return tuple((side, region) for _, side, region in reaches)

    def _moved_near(self, detection: TileDetection) -> bool:
        """Whether the last motion (an arm) reached the tile."""
        mask = self.gate.motion_mask
        if mask is None or self._frame_size is None:
            return False
        h, w = mask.shape
        x, y = detection.center
        cx, cy = int(x * w / self._frame_size[0]), int(y * h / self._frame_size[1])
        r = 3
        return bool(mask[max(0, cy - r) : cy + r + 1, max(0, cx - r) : cx + r + 1].any())

    # -- one still state -----------------------------------------------------------------

    def _read(self, frame: Frame) -> list[PipelineEvent]:
        events: list[PipelineEvent] = []
        if self.status != "reading":
            events.append(self._set_status("reading", frame.t))
        detections = self.detector.detect(frame.image)
        assert self._pending is not None
        pending = self._pending
        # (Read again, the table is the one read a frame ago: a tile read surely then and missed now is there.)
        voted, flips = self.tracker.update(detections, same_table=pending.frames_left < self.config.rereads)
        for flip in flips:
            events.append(Notice(frame.t, f"the tile at ({flip.center[0]:.0f}, {flip.center[1]:.0f}) now reads {flip.after}, not {flip.before}"))
        uncertain = [d for d in voted if not d.certain]
        if self.match.rules.has_boneyard:
            pending.boneyard.append(self._boneyard_tiles(voted, detections))
        # Read another still frame when unsure of a tile.  (A face-down tile missed in one frame needs
        # no second look: the boneyard keeps its place until the picture there changes.)
        again = bool(uncertain)
        if again and pending.frames_left > 0:
            pending.frames_left -= 1
            return events
        self._pending = None
        self._boneyard_now = _union(pending.boneyard)
        self._image_now = frame.image
        self._grey_now = table_grey(frame.image)
        self._colour_now = table_colour(frame.image) if self.match.rules.has_boneyard and frame.image.ndim == 3 else None
        face_down = [d for d in detections if d.face == "down"]
        events += self._act(frame.t, voted, face_down)
        if self.status == "reading":
            events.append(self._set_status("waiting", frame.t))
        return events

    def _boneyard_tiles(self, up: list[TileDetection], detections: list[TileDetection]) -> list[np.ndarray]:
        """Face-down tiles, and loose face-up ones outside the layout (a plain back can pass for a [0|0])."""
        layout_tiles, _ = self._layout_and_seats(up)
        to_table = self.config.profile.to_table if self.config.profile else None
        # seen_from_detections keeps every face-up tile of the layout zone, so the indices agree.
        layout = reconstruct(seen_from_detections(layout_tiles, to_table), known=self.match.current_board().tiles)
        backs = [layout_tiles[i] for i in layout.loose()]
        return [np.asarray(d.corners) for d in detections if d.face == "down"] + [np.asarray(d.corners) for d in backs]

    def _layout_and_seats(self, up: list[TileDetection]) -> tuple[list[TileDetection], dict[int, list[TileDetection]]]:
        """Face-up tiles of the layout zone, and loose face-up tiles in each seat's strip."""
        assert self._zones is not None
        layout, seats = [], {}
        n = len(self.match.players)
        order = seat_order(n)
        for d in up:
            in_seat = None
            for player, side in enumerate(order):
                if not _inside(self._zones.layout, d.center) and _inside(self._zones.seats[side], d.center):
                    in_seat = player
                    break
            if in_seat is None:
                layout.append(d)
            else:
                seats.setdefault(in_seat, []).append(d)
        return layout, seats

    def _act(self, t: float, up: list[TileDetection], face_down: list[TileDetection]) -> list[PipelineEvent]:
        match = self.match
        if match.is_over:
            return []
        if match.phase is not Phase.BEFORE_ROUND:
            self._starter_asked = False  # (answered)
        layout_tiles, seat_tiles = self._layout_and_seats(up)
        seat_tiles = off_backs(seat_tiles, self.boneyard.slots)
        if match.phase is not Phase.BEFORE_ROUND:
            seat_tiles = self._with_blank_doubles(seat_tiles, face_down)
        if match.phase is Phase.IN_ROUND and self._grey_now is not None:
            layout_tiles, _, _ = self.memory.fill_in(layout_tiles, set(match.current_board().tiles), self._grey_now)
        to_table = self.config.profile.to_table if self.config.profile else None
        seen = seen_from_detections(layout_tiles, to_table)
        # (Every joined piece holding a played tile is the layout: a tile missed, misread or a box a little
        # short cuts a layout in pieces.)
        layout = reconstruct(seen, known=match.current_board().tiles)
        if not layout.component and seen and not match.current_board().tiles:
            # The opening tile may lie alone among loose ones: it is the one that just appeared, where a hand was.
            fresh = [i for i, s in enumerate(seen) if s.tile not in self._loose_before and self._moved_near(layout_tiles[i])]
            if len(fresh) == 1:
                layout = reconstruct(seen, anchor=fresh[0])
        self._loose_before = {s.tile for s in seen}
        for tile in [*seen, *layout.tiles]:  # (as read, and as read again at a join)
            self._first_seen.setdefault(tile.tile, t)
        self._note_places(layout_tiles, layout)
        self._reads.append((self.gate.now, [(*d.center, long_side(d.corners)) for d in layout_tiles]))
        self.view = TableView(t, up + face_down, match.board, list(layout.problems))
        # (Kept for an answer that ends the round after the table was seen cleared: see confirm.)
        self._seen_now = None if layout.component else {s.tile for s in seen}
        events: list[PipelineEvent] = []
        for note in layout.notes:
            if note not in self._noted:
                self._noted.add(note)
                events.append(Notice(t, note))
        if not self._told_small and (small := too_small_to_read(up, LIVE_SMALL_TILE_PX)):
            self._told_small = True  # once a session: the players can move the camera, or not
            events.append(Notice(t, small))
        if match.phase is Phase.ROUND_OVER:
            events += self._try_reveal(t, seat_tiles, cleared=not layout.component)
            return events
        if match.phase is Phase.IN_ROUND and seat_tiles:
            # Hands laid out while the round is on: a blocked round (its passes are not seen), or a round
            # ended by the tile the players were asked who laid.  Anything else in a seat's strip (a misread
            # boneyard tile, a hand put down) must not hold up play.
            if self._asked_who_laid is not None and (told := self._who_laid_by_hands(t, seat_tiles)):
                return events + told
            revealed = self._try_reveal(t, seat_tiles)
            if revealed:
                return events + revealed
        if match.phase is Phase.BEFORE_ROUND:
            if not layout.component:
                self._table_cleared(self._seen_now)
                if not seen and self._grey_now is not None:  # (no tile face up: not an opening misread)
                    self._before_opening = self._boneyard_seen()
            elif (self._cleared or match.round_no == 0) and any(self._moved_near(layout_tiles[i]) for i in layout.component):
                # A round opens with a tile put down by a hand, not with something the camera misread at rest.
                events += self._start_round(t, layout_tiles, layout, layout_tiles[layout.component[0]].center)
                self._remember(layout_tiles, layout)
            return events
        board = match.current_board()
        if face_down and Tile(0, 0) not in board.tiles and any(p.value == 0 for p in board.free_points()):
            blank = self._blank_double_played(layout_tiles, layout, face_down, board, to_table)
            if blank is not None:
                layout_tiles, d = blank
                layout = reconstruct(seen_from_detections(layout_tiles, to_table), known=board.tiles)
                x, y = d.center
                events.append(Notice(t, f"the tile at ({x:.0f}, {y:.0f}), seen as a back, is taken as [0|0]: it lies where a double is laid on a 0"))
        change = infer_placements(board, layout, self._opening_tile(layout))
        problems = layout.problems + change.problems
        pairs = overlapping_pairs(layout_tiles)
        if pairs:
            outcomes = self._without_overlaps(layout_tiles, pairs, board, to_table)
            if len(outcomes) == 1:
                layout_tiles, layout, change = outcomes[0]
                problems = []
            elif len(outcomes) > 1:
                # Two boxes over one place read differently, and either fits: the players say which.
                tiles = " or ".join(", ".join(str(p.tile) for p in c.placements) for _, _, c in outcomes)
                return events + self._ask_which(t, f"one new tile is seen two ways: {tiles}", outcomes)
        if problems or _played_twice(layout_tiles, board):
            fixed = self._reread(layout_tiles, board, to_table)
            if fixed is not None:
                layout_tiles, layout, change, note = fixed
                problems = []
                events.append(Notice(t, note))
            elif not problems and (misread := _misread_beside_layout(layout_tiles, layout, board)) and (
                not change.placements or self._still_asked_about(misread)
            ):
                # Nothing new, but a played tile read again just beside the layout: most likely the new
                # tile misread.  Taken for a stray box, the move would be lost and later turns scored as
                # passes.  (Where the new tile is found, such a box is a stray one -- unless the players
                # were already asked about it and have not answered: the next move does not answer it.)
                self._asked_about = [d.center for d in misread]
                said = [_misread_message(d) for d in misread]
                return events + self._ask(t, "the table does not match the game: " + "; ".join(said[:3]), (), said)
        if problems and (twice := self._duplicates(layout_tiles)):
            # A set holds each tile once: of two boxes read as one tile, the one the table fits without
            # is a box on no tile (or on part of one), as with overlapping boxes; only one such reading
            # may exist.
            # (Where leaving a box out places nothing, the box may be the new tile misread: asked.)
            # (Not a box the players were asked to name: the next move does not answer that.)
            asked = bool(self._asked_about) and self._still_asked_about(self._played_again(layout_tiles, layout, board))
            outcomes = [o for o in self._without_overlaps(layout_tiles, twice, board, to_table) if o[2].placements and not asked]
            if len(outcomes) == 1:
                left_out = [d for d in layout_tiles if not any(d is k for k in outcomes[0][0])]
                layout_tiles, layout, change = outcomes[0]
                problems = []
                for d in left_out:
                    once = f"left out: {d.pips}"  # (the box moves a little from frame to frame)
                    if once not in self._noted:
                        self._noted.add(once)
                        events.append(Notice(t, f"the box at ({d.center[0]:.0f}, {d.center[1]:.0f}) read as {list(d.pips or ())} is left out: that tile is seen elsewhere, where it fits the game"))
            elif len(outcomes) > 1:
                places = " or ".join(", ".join(_placed(p) for p in c.placements) for _, _, c in outcomes)
                return events + self._ask_which(t, f"a tile is seen in two places, and either fits the game: {places}", outcomes)
        if problems and not (change.placements and not change.vanished and not layout.problems):
            # Keep the last good state; ask once per distinct problem.
            if self.config.profile is None and not layout.component and board.tiles:
                problems = ["the layout is not seen (covered, or the camera moved; if the round is over, blocked, give the hands left)"]
            self._asked_about = [d.center for d in self._played_again(layout_tiles, layout, board)]
            events += self._ask(t, "the table does not match the game: " + "; ".join(problems[:3]), (), problems)
            return events
        if change.placements and (unsure := self._unsure_new_tile(layout_tiles, layout, change, board, to_table)) is not None:
            # Still unsure of a new tile after reading it again, and another likely reading of it fits
            # the game too: the players say which (where the rules leave one reading, it is taken).
            d, outcomes = unsure
            tiles = [c.placements for _, _, c in outcomes]
            said = " or ".join(", ".join(str(p.tile) for p in placed) for placed in tiles)
            x, y = d.center
            asked = self._asked_reading
            if asked is None or np.hypot(asked[0][0] - x, asked[0][1] - y) > long_side(d.corners) / 2:
                # (Tiles drawn by now were drawn before it was laid; those drawn while the question is
                # open come after it.)
                drawn_first = self._draws(layout_tiles, layout)
                self._asked_reading = (d.center, {p.tile for placed in tiles for p in placed}, drawn_first)
                return events + self._ask_which(t, f"the new tile at ({x:.0f}, {y:.0f}) is read unsurely: {said}", outcomes, drawn_first)
            # Asked already, and play went on without an answer: its likeliest reading is taken, so that
            # the game does not stall -- said, and still open to correction.
            self._asked_reading = None
            events.append(Notice(t, f"no answer about the tile at ({x:.0f}, {y:.0f}): taken as read, {', '.join(str(p.tile) for p in tiles[0])}"
                                    " -- correct it if it is not"))
            return events + self._apply_after_question(t, layout_tiles, layout, change.placements, asked)
        if change.placements and (asked := self._asked_reading) is not None and any(p.tile in asked[1] for p in change.placements):
            # The tile asked about, read surely now (no answer came): laid before what was drawn since.
            self._asked_reading = None
            return events + self._apply_after_question(t, layout_tiles, layout, change.placements, asked)
        draws = self._draws(layout_tiles, layout)
        if change.placements:
            self._note_places(layout_tiles, layout)  # (the boxes as finally read)
        events += self._drawn_then_laid(t, draws, change.placements)
        self._remember(layout_tiles, layout)
        return events

    def _played_again(self, layout_tiles: list[TileDetection], layout, board) -> list[TileDetection]:
        """Boxes in or against the layout read as a played tile, other than where it is remembered."""
        return [d for _, d in _played_in_or_against(layout_tiles, layout, board) if not self.memory.is_remembered(d)]

    def _still_asked_about(self, boxes: Sequence[TileDetection]) -> bool:
        """Whether one of the boxes lies where a box the players were asked about lay (within half its length)."""
        return any(
            np.linalg.norm(np.subtract(d.center, c)) < 0.5 * long_side(np.asarray(d.corners)) for d in boxes for c in self._asked_about
        )

    def _with_blank_doubles(self, seat_tiles: dict[int, list[TileDetection]], face_down: list[TileDetection]) -> dict[int, list[TileDetection]]:
        """A hand laid out may hold the double blank, which the detector can take for a back: a "back"
        in a seat's strip with a divider across it is the [0|0] (while it is in nobody's hand yet)."""
        if self._image_now is None or Tile(0, 0) in self.match.current_board().tiles:
            return seat_tiles
        if any(d.pips == (0, 0) for ds in seat_tiles.values() for d in ds):
            return seat_tiles
        _, seated = self._layout_and_seats(face_down)  # (by their centres: where a tile face up would be)
        in_strips = [d for ds in seated.values() for d in ds]
        grey = cv2.cvtColor(self._image_now, cv2.COLOR_BGR2GRAY) if in_strips and self._image_now.ndim == 3 else self._image_now
        blanks = [d.as_blank_double() for d in in_strips if shows_divider(grey, np.asarray(d.corners))]
        _, seats = self._layout_and_seats(blanks)
        if sum(len(ds) for ds in seats.values()) != 1:
            return seat_tiles  # one set holds one double blank
        out = {seat: list(ds) for seat, ds in seat_tiles.items()}
        for seat, ds in seats.items():
            out.setdefault(seat, []).extend(ds)
        return out

    def _blank_double_played(self, layout_tiles: list[TileDetection], layout, face_down: list[TileDetection], board, to_table):
        """A "back" lying at a free end of value 0 exactly as a double laid there would, is the double
        blank (a black [0|0] on a dark table shows little but its outline): the layout's tiles with it
        face up, where exactly one such box exists and the table then fits the game."""
        found = []
        inside = [layout_tiles[i] for i in layout.component]
        for d in face_down:
            if not _against(d, inside):
                continue  # (each trial rebuilds the layout: the boneyard's backs are not tried)
            trial = [*layout_tiles, d.as_blank_double()]
            fits = self._fits(trial, board, to_table)
            if fits is not None and any(p.tile == Tile(0, 0) for p in fits[1].placements):
                found.append((trial, d))
        return found[0] if len(found) == 1 else None

    def _remember(self, layout_tiles: list[TileDetection], layout) -> None:
        """Keep the layout's tiles for their places, as the layout read them (a half read again at a join).
        Only the joined layout's: a loose box read as a played tile (a new tile misread, a box beside
        the layout) must not move that tile's remembered place to where it is not."""
        if len(layout.tiles) == len(layout_tiles):
            layout_tiles = [layout_tiles[i] if layout_tiles[i].pips == layout.tiles[i].pips else _with_pips(layout_tiles[i], layout.tiles[i].pips)
                            for i in layout.component]
        if self._grey_now is not None:
            self.memory.remember(layout_tiles, set(self.match.current_board().tiles), self._grey_now)

    def _boneyard_seen(self) -> tuple[list[np.ndarray], np.ndarray, np.ndarray | None]:
        """The state acted on as the boneyard is checked in: its backs, its grey picture and its colour one."""
        assert self._grey_now is not None
        return self._boneyard_now, self._grey_now, self._colour_now

    def _draws(self, layout_tiles: list[TileDetection], layout) -> int:
        """Tiles drawn since the last accepted state: face-down tiles taken from where they lay (none of
        them where the layout's tiles lie now)."""
        if not self.match.rules.has_boneyard or self._grey_now is None:
            return 0
        if self._boneyard_told:
            self._boneyard_told = False
            self.boneyard.reset(*self._boneyard_seen())
            return 0
        played = [np.asarray(layout_tiles[i].corners) for i in layout.component]
        return min(self.boneyard.update(*self._boneyard_seen(), played), self.match.boneyard)

    def _seat_player(self, side: int | None) -> str | None:
        if side is None:
            return None
        order = seat_order(len(self.match.players))
        return self.match.players[order.index(side)] if side in order else None

    def _arm_that_laid(self, tile: Tile) -> str | None:
        """The player whose arm put the tile down: the motion after which its place was still, not the
        latest one -- where a question held the move up, other players' arms have moved since."""
        settled, place = self._settled_now.get(tile), self._places_now.get(tile)
        if not self._arms:
            return None
        arm = self._arms[-1]
        if settled is not None:
            stills = list(self._arms)
            for k, still in enumerate(stills):
                until = stills[k + 1].at if k + 1 < len(stills) else float("inf")
                # (A tile that barely moved the picture -- black on a dark cloth -- seems to have settled
                # with the move before; the table read then shows no box where it lies.)
                if still.at >= settled and (place is None or self._box_read_at(place, still.at, until)):
                    arm = still
                    break
        return self._seat_player(arm.side_over(place, self._frame_size))

    def _box_read_at(self, place: tuple[float, float], start: float, until: float) -> bool:
        """Whether a read between the two times (the gate's clock) saw a box at ``place``."""
        return any(float(np.hypot(x - place[0], y - place[1])) < length / 2
                   for when, boxes in self._reads if start <= when < until for x, y, length in boxes)

    def _note_places(self, tiles: Sequence[TileDetection], layout: Layout) -> None:
        """Where each tile lies and when its place last moved, by the tile it is read as -- as the
        layout reads it: its tiles are the boxes', in order, some read again at a join."""
        read = [s.pips for s in layout.tiles] if len(layout.tiles) == len(tiles) else [d.pips for d in tiles]
        self._settled_now, self._places_now = {}, {}
        for d, pips in zip(tiles, read):
            if pips is not None:
                self._places_now[Tile.of(*pips)] = d.center
                if (when := self._settled_at(d)) is not None:
                    self._settled_now[Tile.of(*pips)] = when

    def _settled_at(self, detection: TileDetection) -> float | None:
        """When the tile's place last moved (it was put down then)."""
        if self._frame_size is None:
            return None
        w, h = self._frame_size
        c = np.asarray(detection.corners)
        (x0, y0), (x1, y1) = c.min(0), c.max(0)
        return self.gate.settled_at((x0 / w, y0 / h, x1 / w, y1 / h))

    def _apply_placements(self, t: float, placements: list[Placement], draws: int) -> list[PipelineEvent]:
        match = self.match
        player_on_turn = on_turn(match)
        tiles = ", ".join(str(p.tile) for p in placements)  # (for a question)
        arms = {p.tile: self._arm_that_laid(p.tile) for p in placements}
        arm = arms[placements[0].tile] if len(placements) == 1 else None
        prefix = drawn_on_turn(match, draws)
        if not draws and arm is not None and arm != player_on_turn and len(placements) == 1:
            # The next seat played: the players between passed (knocked).
            prefix += passes_until(match, arm)
        orders = list(itertools.permutations(placements)) if len(placements) <= MAX_ORDERS_TRIED else [tuple(placements)]
        candidates = []
        for order in orders:
            seq = sequence_for(match, prefix, order)
            if seq is not None:
                candidates.append(seq)
        if not candidates and prefix:
            # The arm came from a player who cannot have played now (the players between may not pass):
            # someone reached across for the player on turn -- or the camera missed moves.  Asked.
            on_turn_plays = [seq for order in orders if (seq := sequence_for(match, [], order)) is not None]
            if on_turn_plays:
                return self._ask(t, f"{tiles} was laid by an arm from {arm}'s side, but it is {player_on_turn}'s turn: was it {player_on_turn}'s?",
                                 tuple(tuple(seq) for seq in on_turn_plays), ())
        if not candidates:
            return self._ask(t, f"{tiles} cannot be played here by {player_on_turn} under the rules", (), ())
        if arm is None and not draws and len(placements) == 1 and (others := laid_after_passes(match, placements[0])):
            # No arm seen (a dark tile on a dark cloth barely moves the picture), and a later player may have
            # laid it, the players between passing: not for the camera to guess.  (Should play go on
            # unanswered, the next look holds it with the next tile, played as their arms and settling tell.)
            self._asked_who_laid = placements[0].tile
            self._who_laid_offered = (tuple(candidates[0]),) + others
            return self._ask(t, f"who laid {tiles}? the camera saw no arm, and it is {player_on_turn}'s turn", self._who_laid_offered, ())
        if len(placements) > 1:
            # Several new tiles: who laid which is told by the arms that laid them, where seen.
            agreeing = [seq for seq in candidates if all(arms[e.tile] in (None, e.player) for e in seq if isinstance(e, Play))]
            candidates = agreeing or candidates
        placed = frozenset(p.tile for p in placements)
        unanswered = []
        if len({score_of(match, seq) for seq in candidates}) > 1:
            if self._asked_order is None or not self._asked_order < placed:
                self._asked_order = placed
                return self._ask(t, "the new tiles can have been played in orders that score differently", tuple(tuple(c) for c in candidates), ())
            # Asked, and play went on unanswered (more tiles now): the order their places settled in is
            # taken, so that the game does not stall -- said, and open to correction.
            unanswered.append("the order the new tiles were played in")
        first_seen_now = all(self._first_seen.get(p.tile) == t for p in placements)
        if first_seen_now and not put_down_apart([self._settled_now.get(p.tile) for p in placements]):
            # Several tiles new to this look whose places stopped moving at one moment were laid in one
            # motion: one move, not several -- most likely one tile seen as two boxes (half a tile each).
            return self._ask(t, f"{tiles} appeared at once, as if laid by one hand: were they played so?", tuple(tuple(c) for c in candidates), ())
        chosen = in_order_put_down(candidates, self._settled_now)
        if self._asked_who_laid in placed:
            unanswered.append(f"who laid {self._asked_who_laid}")
        plays = [e for e in chosen if isinstance(e, Play)]
        if unanswered and (settled := self._in_settle_order(placements)) and (
                [e.tile for e in plays] != [p.tile for p in settled] or any(arms[e.tile] not in (None, e.player) for e in plays)):
            # Asked, unanswered, and no sequence of turns in a row plays the tiles in the order they were
            # put down by the arms that laid them: a player passed between them (a continued turn ended
            # by a pass, a knock).  Taken as the arms tell, those between passing.
            chosen = sequence_by_arms(match, settled, arms) or chosen
        self._asked_order = self._asked_who_laid = None
        notes = [Notice(t, f"no answer about {what}: taken as {played_as(chosen)} -- correct it if it is not") for what in unanswered]
        return notes + self._apply_sequence(t, chosen)

    def _in_settle_order(self, placements: Sequence[Placement]) -> list[Placement] | None:
        """The placements in the order their places settled, where each one's time is known and they
        were put down apart (:func:`put_down_apart`)."""
        settled = [self._settled_now.get(p.tile) for p in placements]
        if None in settled or not put_down_apart(settled):
            return None
        return [p for _, p in sorted(zip(settled, placements), key=lambda pair: pair[0])]  # type: ignore[arg-type, return-value]

    def _drawn_then_laid(self, t: float, draws: int, placements: list[Placement]) -> list[PipelineEvent]:
        """The ``draws`` of the player on turn, then the tiles laid (by whom the rules and arms tell)."""
        if placements:
            return self._apply_placements(t, placements, draws)
        return self._apply_sequence(t, drawn_on_turn(self.match, draws)) if draws else []

    def _apply_sequence(self, t: float, events: Sequence[Event]) -> list[PipelineEvent]:
        out: list[PipelineEvent] = []
        for event in events:
            try:
                step = self.history.apply(event, t)
            except RulesError as exc:
                out += self._ask(t, str(exc), (tuple(events),), ())
                return out
            announcement = None
            if isinstance(step.outcome, PlayOutcome):
                announcement = announce_play(step.after, step.outcome)
            elif isinstance(step.outcome, RoundOutcome):
                announcement = announce_round(step.after, step.outcome)
            out.append(MoveEvent(t, step, announcement))
        self._last_problem = None
        if self.match.is_over:
            out.append(self._set_status("over", t))
        return out

    def _ask(self, t: float, reason: str, alternatives: tuple, problems: Sequence[str]) -> list[PipelineEvent]:
        if reason == self._last_problem:
            return []
        self._last_problem = reason
        self.status = "confirm"
        return [NeedsConfirmation(t, reason, alternatives, tuple(problems)), StatusChange(t, "confirm")]

    def _start_round(self, t: float, layout_tiles: list[TileDetection], layout, opening: tuple[float, float]) -> list[PipelineEvent]:
        """A round opened with the tile at ``opening`` (frame pixels): by the player the rules name,
        else the one whose arm reached it."""
        match = self.match
        if match.next_starter is not None:
            starter = match.players[match.next_starter]
        elif match.round_no == 0 and self.config.starter:
            starter = self.config.starter
        elif self._starter_asked:
            # The players were asked who opened the round: the next player's arm is no answer.
            return []
        else:
            starter = self._seat_player(self._arms[-1].side_over(opening, self._frame_size) if self._arms else None)
        if starter is None:
            self._starter_asked = True
            alternatives = tuple((RoundStart(p),) for p in match.players)
            return self._ask(t, "who started the round? (drawn by lot; the camera did not see the arm)", alternatives, ())
        self._cleared = False
        self._asked_about = []
        events = self._apply_sequence(t, [RoundStart(starter)])
        self.memory.clear()
        draws = 0
        if self._grey_now is not None:
            now = self._boneyard_seen()
            self.boneyard.reset(*now)  # the boneyard as dealt
            before, self._before_opening = self._before_opening, None
            if before is not None and self.match.rules.has_boneyard and len(before[0]) > len(self.boneyard):
                # Fewer backs than on the table before the opening: where that table showed the whole
                # boneyard as dealt, tiles were drawn before the opening tile was read (surely) -- counted,
                # after it.  (Any other count: the table then was not yet the dealt one.)
                self.boneyard.reset(*before)
                if len(self.boneyard) == self.match.boneyard:
                    draws = self._draws(layout_tiles, layout)
                else:
                    self.boneyard.reset(*now)
        return events + self._act_again(t, layout, draws)

    def _ask_which(self, t: float, reason: str, outcomes: list, draws: int = 0) -> list[PipelineEvent]:
        """Ask which of several readings of the table that fit the game is the right one (``draws``:
        tiles the player on turn drew before laying it)."""
        prefix = drawn_on_turn(self.match, draws)
        alternatives = tuple(
            tuple(seq) for _, _, c in outcomes if (seq := sequence_for(self.match, prefix, c.placements)) is not None
        )
        return self._ask(t, reason, alternatives, ())

    def _apply_after_question(self, t: float, layout_tiles: list[TileDetection], layout, placements: list[Placement],
                              asked: tuple[tuple[float, float], set[Tile], int]) -> list[PipelineEvent]:
        """The move asked about, unanswered, taken once play went on.  Where tiles were drawn while the
        question was open, the tile asked about is laid first, as offered (after the draws seen with it),
        then those draws and any tile laid since -- as it happened; else the tiles as one move, as any."""
        _, tiles, drawn_first = asked
        self._note_places(layout_tiles, layout)  # (the boxes as finally read)
        drawn_later = self._draws(layout_tiles, layout)
        first = [p for p in placements if p.tile in tiles]
        later = [p for p in placements if p.tile not in tiles]
        prefix = drawn_on_turn(self.match, drawn_first)
        laid_first = sequence_for(self.match, prefix, first) if drawn_later and first else None
        if laid_first is None:
            events = self._apply_placements(t, placements, drawn_first + drawn_later)
        else:
            events = self._apply_sequence(t, laid_first) + self._drawn_then_laid(t, drawn_later, later)
        self._remember(layout_tiles, layout)
        return events

    def _duplicates(self, layout_tiles: list[TileDetection]) -> list[tuple[int, ...]]:
        """For each tile read by more than one box, the boxes of it that may be left out: those not
        holding a remembered place (at most three tiles are looked at)."""
        boxes: dict[Tile, list[int]] = {}
        for k, d in enumerate(layout_tiles):
            if d.pips is not None:
                boxes.setdefault(Tile.of(*d.pips), []).append(k)
        choices = []
        for ks in boxes.values():
            new = tuple(k for k in ks if not self.memory.is_remembered(layout_tiles[k]))
            if len(ks) > 1 and new:
                choices.append(new)
        return choices[:3]

    def _without_overlaps(self, layout_tiles: list[TileDetection], pairs: Sequence[tuple[int, ...]], board, to_table) -> list:
        """The readings of the table with one box of each overlapping pair (or of each group of
        candidates) left out (tiles lie flat and never overlap), that fit the game; one per distinct
        outcome."""
        outcomes: dict[tuple, tuple] = {}
        for trial, _ in without_overlaps(layout_tiles, pairs):
            fits = self._fits(trial, board, to_table)
            if fits is not None:
                layout, change = fits
                key = tuple((p.tile, p.at) for p in change.placements)
                outcomes.setdefault(key, (trial, layout, change))
        # A box left out may have been the only new tile: "nothing was played" loses to any placement.
        placing = [o for key, o in outcomes.items() if key]
        return placing or list(outcomes.values())

    def _fits(self, trial: list[TileDetection], board, to_table) -> tuple | None:
        """The layout and the change a trial reading of the table gives, if it fits the game cleanly."""
        layout = reconstruct(seen_from_detections(trial, to_table), known=board.tiles)
        change = infer_placements(board, layout, self._opening_tile(layout))
        if change.consistent and not layout.problems and not _played_twice(trial, board):
            return layout, change
        return None

    def _reread(self, layout_tiles: list[TileDetection], board, to_table) -> tuple[list[TileDetection], object, object, str] | None:
        """Where the table does not fit the game as read, the one other likely reading of one new tile
        that makes it fit (a 2 read as a 6 on a tile laid on a 2, a tile read as one already played),
        or the one box that is a played tile seen nowhere else.  A reading that leaves a tile lying
        against that box unjoined is none.  None where no such reading, or more than one, exists:
        then the players are asked."""
        # A played tile not seen anywhere (one entered by hand, where the camera misread it) is a
        # reading for a box that does not fit.
        seen = {Tile.of(*d.pips) for d in layout_tiles if d.pips is not None}
        unseen = [t for t in board.tiles if t not in seen]
        unseen_readings = [(t.a, t.b) for t in unseen] + [(t.b, t.a) for t in unseen if not t.is_double] if len(unseen) <= 2 else []
        found = []
        for k, d in enumerate(layout_tiles):
            if d.halves is None or self.memory.is_remembered(d) or not (unseen_readings or any(h.alternatives for h in d.halves)):
                continue
            for pips in _other_readings(d) + [p for p in unseen_readings if p != d.pips]:
                trial = list(layout_tiles)
                trial[k] = _with_pips(d, pips)
                fits = self._fits(trial, board, to_table)
                if fits is not None and (fits[1].placements or Tile.of(*pips) in unseen) and not _loose_against(trial, fits[0], k):
                    found.append((trial, *fits, d, pips))
        if len({(f[3].center, Tile.of(*f[4])) for f in found}) != 1:
            return None
        trial, layout, change, d, pips = found[0]
        x, y = d.center
        why = "a played tile seen nowhere else" if Tile.of(*pips) in unseen else "the only likely reading that fits the game"
        return trial, layout, change, f"the tile at ({x:.0f}, {y:.0f}) read as {list(d.pips)} is taken as {list(pips)}: {why}"

    def _table_cleared(self, now: set[Tile]) -> None:
        """The last round's tiles are gone: the next tile put down opens a round.  Forget the last
        round's tiles, not a tile lying alone now (it may be the next opening)."""
        self._cleared = True
        if not now:
            self._starter_asked = False  # (nothing left face up: whatever the question was about is gone)
        self._first_seen = {tile: when for tile, when in self._first_seen.items() if tile in now}
        self.tracker.reset()

    def _unsure_new_tile(self, layout_tiles: list[TileDetection], layout, change, board, to_table) -> tuple[TileDetection, list] | None:
        """A new tile read unsurely, with the outcomes of its readings that fit the game (its own
        first), where more than one does; None where every new tile is read surely or the rules leave
        each one reading."""
        for placed in change.placements:
            k = next((i for i in layout.component if layout.tiles[i].tile == placed.tile), None)
            if k is None or self.tracker.read_surely(layout_tiles[k]) or self.memory.is_remembered(layout_tiles[k]):
                continue
            d = layout_tiles[k]
            outcomes = {tuple((p.tile, p.at) for p in change.placements): (layout_tiles, layout, change)}
            for pips in _other_readings(d):
                trial = list(layout_tiles)
                trial[k] = _with_pips(d, pips)
                fits = self._fits(trial, board, to_table)
                if fits is not None and fits[1].placements:
                    outcomes.setdefault(tuple((p.tile, p.at) for p in fits[1].placements), (trial, *fits))
            if len(outcomes) > 1:
                return d, list(outcomes.values())
        return None

    def _opening_tile(self, layout) -> Tile | None:
        """Of the layout's tiles, the one seen first, if it was seen before all the others."""
        tiles = [layout.tiles[i].tile for i in layout.component]
        times = {t: self._first_seen[t] for t in tiles if t in self._first_seen}
        if not times:
            return None
        earliest = min(times.values())
        first = [t for t, when in times.items() if when == earliest]
        if len(first) > 1 and all(t in self._settled_now for t in first):
            # Several seen first at once (put down before the table was still): the one whose place
            # settled clearly before the others' was put down first.
            first.sort(key=self._settled_now.__getitem__)
            if self._settled_now[first[1]] - self._settled_now[first[0]] >= SETTLE_GAP:
                return first[0]
        return first[0] if len(first) == 1 else None

    def _act_again(self, t: float, layout, draws: int = 0) -> list[PipelineEvent]:
        """The layout's tiles not yet played, played (``draws``: tiles drawn since the opening tile)."""
        opening = self._opening_tile(layout)
        change = infer_placements(self.match.current_board(), layout, opening)
        if change.placements and draws and opening is not None:
            # The opening tile, then the draws of the player on turn after it, then the tiles laid since.
            first = [p for p in change.placements if p.tile == opening]
            later = [p for p in change.placements if p.tile != opening]
            if first and not change.problems:
                events = self._apply_placements(t, first, 0)
                if opening not in self.match.current_board().tiles:
                    return events  # (asked)
                return events + self._drawn_then_laid(t, draws, later)
        if change.placements and not change.problems:
            return self._apply_placements(t, change.placements, 0)
        if change.problems:
            return self._ask(t, "the first tiles of the round do not fit: " + "; ".join(change.problems[:3]), (), change.problems)
        return []

    def _try_reveal(self, t: float, seat_tiles: dict[int, list[TileDetection]], cleared: bool = False) -> list[PipelineEvent]:
        """The round-end count from the tiles laid face up in front of each seat, once every hand is
        there and surely read.  Where the layout is cleared away before that, the players are asked
        (with the hands as best read, if they make a whole reveal)."""
        match = self.match
        boxes = self._hands_laid_out(seat_tiles)
        complete = all(len(seen) == count for seen, count in zip(boxes, match.hand_counts))
        as_read = self._reveal_of(boxes, {})
        sure = all(d.certain for ds in seat_tiles.values() for d in ds)
        if complete and sure:
            self._reveal_guess = None
            return self._apply_sequence(t, [as_read])
        if complete and (settled := self._reveal_by_rules(boxes, as_read)) is not None:
            # The tiles read unsurely can be only these (where every tile is dealt, the hands hold
            # exactly the tiles not played).
            self._reveal_guess = None
            told = "; ".join(f"{player} {' '.join(map(str, tiles)) or '-'}" for player, tiles in settled.hands)
            return [Notice(t, f"hands read unsurely, taken as the one likely reading the rules allow: {told}")] + self._apply_sequence(t, [settled])
        if complete:
            self._reveal_guess = as_read  # wait for a better look
        if cleared and match.phase is Phase.ROUND_OVER:
            guess = ((self._reveal_guess,),) if self._reveal_guess is not None else ()
            return self._ask(t, "the hands left at the round's end were not read surely: which were they?", guess, ())
        return []

    def _hands_laid_out(self, seat_tiles: dict[int, list[TileDetection]]) -> list[list[TileDetection]]:
        """The face-up tiles in front of each seat, in seat order, each tile once."""
        return [[d for d in _one_box_per_tile(seat_tiles.get(seat, [])) if d.pips is not None] for seat in range(len(self.match.players))]

    def _who_laid_by_hands(self, t: float, seat_tiles: dict[int, list[TileDetection]]) -> list[PipelineEvent]:
        """The players were asked who laid a tile, and now lay their hands out unanswered: the one way
        offered after which the round is over with exactly these hands (all read surely) -- the player
        who went out shows none -- is taken, with the count, and said.  None or several: nothing."""
        boxes = self._hands_laid_out(seat_tiles)
        if not all(d.certain for seen in boxes for d in seen):
            return []
        reveal = self._reveal_of(boxes, {})
        fitting = []
        for way in self._who_laid_offered:
            try:
                after = state_after(self.match, way)
                if after.phase is not Phase.ROUND_OVER or any(len(seen) != n for seen, n in zip(boxes, after.hand_counts)):
                    continue
                after.apply(reveal)
            except ScorerError:
                continue
            fitting.append(way)
        if len(fitting) != 1:
            return []
        tile, (way,) = self._asked_who_laid, fitting
        self._asked_who_laid, self._who_laid_offered = None, ()
        said = Notice(t, f"no answer about who laid {tile}: the hands laid out tell -- taken as {played_as(way)} -- correct it if it is not")
        return [said] + self._apply_sequence(t, [*way, reveal])

    def _reveal_by_rules(self, boxes: Sequence[Sequence[TileDetection]], as_read: Reveal) -> Reveal | None:
        """Where the hands as read cannot be (a tile read as one on the board, or as another hand's),
        the one reveal the rules allow among the likely readings of the unsure tiles, if one.  Hands
        read unsurely that the rules allow as read wait for a surer look (or the players' word)."""
        unsure = [(seat, k) for seat, seen in enumerate(boxes) for k, d in enumerate(seen) if not d.certain]
        if not unsure or len(unsure) > REVEAL_UNSURE_MAX or self._allows(as_read):
            return None
        choices = [[_pips(boxes[seat][k]), *_other_readings(boxes[seat][k])] for seat, k in unsure]
        allowed = {reveal for combination in itertools.product(*choices)
                   if self._allows(reveal := self._reveal_of(boxes, dict(zip(unsure, combination))))}
        return allowed.pop() if len(allowed) == 1 else None

    def _reveal_of(self, boxes: Sequence[Sequence[TileDetection]], read_as: dict[tuple[int, int], tuple[int, int]]) -> Reveal:
        """The hands the boxes in front of each seat show, some of them read as ``read_as`` says."""
        return Reveal(tuple((player, tuple(Tile.of(*read_as.get((seat, k), _pips(d))) for k, d in enumerate(seen)))
                            for seat, (player, seen) in enumerate(zip(self.match.players, boxes))))

    def _allows(self, event: Event) -> bool:
        try:
            self.match.apply(event)
        except ScorerError:
            return False
        return True

    # -- corrections from a person --------------------------------------------------------

    def correct_reading(self, center: tuple[float, float], tile: Tile, t: float = 0.0) -> list[PipelineEvent]:
        """A person corrected a tile's pips: the table is read again with that reading."""
        if not self.tracker.correct(center, tile):
            return [Notice(t, "no tile is being followed there")]
        self._asked_about = []
        self._last_problem = None
        self.gate.force_reread()
        self._pending = _Pending(0)
        return [Notice(t, f"the tile at ({center[0]:.0f}, {center[1]:.0f}) is {tile}, as corrected")]

    def confirm(self, events: Sequence[Event], t: float = 0.0) -> list[PipelineEvent]:
        """Apply the events a person chose (an alternative, or a move entered by hand)."""
        self._asked_about = []
        self._asked_who_laid = self._asked_order = None
        was_over = self.match.phase is Phase.BEFORE_ROUND
        if self._asked_reading is not None:
            # The answer names the tile read unsurely: that reading wins from now on, as if corrected.
            center, tiles, _ = self._asked_reading
            for e in events:
                if isinstance(e, Play) and e.tile in tiles:
                    self.tracker.correct(center, e.tile)
            self._asked_reading = None
        out = self._apply_sequence(t, events)
        self._boneyard_told |= any(isinstance(e, Draw) for e in events)
        if not was_over and self.match.phase is Phase.BEFORE_ROUND and self._seen_now is not None:
            # The answer ended the round, and the table was last seen cleared (read before the answer
            # came): that was the end of the round's tiles.
            self._table_cleared(self._seen_now)
        self.gate.force_reread()
        if self.status == "confirm":
            out.append(self._set_status("waiting", t))
        return out


def off_backs(seat_tiles: dict[int, list[TileDetection]], backs: Sequence[np.ndarray]) -> dict[int, list[TileDetection]]:
    """The tiles in each seat's strip that do not lie where a boneyard back lies: a plain back (the
    boneyard may lie in a seat's strip) reads as a [0|0], and is no tile of a hand."""
    out = {}
    for seat, tiles in seat_tiles.items():
        kept = [d for d in tiles if not any(same_place(np.asarray(d.corners), back) for back in backs)]
        if kept:
            out[seat] = kept
    return out


# Tiles touching end to end lie a tile's length apart, centre to centre; a crosswise double 3/4 of it.
AGAINST = 1.25


def _against(d: TileDetection, tiles: Sequence[TileDetection]) -> bool:
    """Whether the box lies against one of ``tiles`` (within 1.25 of its length, centre to centre)."""
    here = np.asarray(d.corners)
    return any(np.linalg.norm(here.mean(0) - np.asarray(o.corners).mean(0)) < AGAINST * long_side(here) for o in tiles)


def _loose_against(layout_tiles: list[TileDetection], layout, k: int) -> bool:
    """Whether a face-up tile left out of the layout lies against tile ``k`` of it: a tile laid
    there that does not join it, so ``k`` (or that tile) is still misread."""
    if k not in layout.component:
        return False
    return any(
        i not in layout.component and d.pips is not None and _against(d, [layout_tiles[k]])
        for i, d in enumerate(layout_tiles)
    )


def _played_in_or_against(layout_tiles: list[TileDetection], layout, board) -> list[tuple[int, TileDetection]]:
    """Boxes read as a tile already played that are in the layout or lie against it, with their indexes."""
    inside = [layout_tiles[i] for i in layout.component]
    return [
        (k, d) for k, d in enumerate(layout_tiles)
        if d.pips is not None and Tile.of(*d.pips) in board and (k in layout.component or _against(d, inside))
    ]


def _misread_beside_layout(layout_tiles: list[TileDetection], layout, board) -> list[TileDetection]:
    """Loose boxes read as a tile already played that lie against the layout."""
    return [d for k, d in _played_in_or_against(layout_tiles, layout, board) if k not in layout.component]


def _misread_message(d: TileDetection) -> str:
    assert d.pips is not None
    x, y = d.center
    return f"the tile at ({x:.0f}, {y:.0f}) against the layout reads {Tile.of(*d.pips)}, which is already played: which tile is it?"


def _placed(placement: Placement) -> str:
    at = placement.at
    return str(placement.tile) if at is None else f"{placement.tile} at {at.tile} {at.side.value}"


def _union(frames: Sequence[Sequence[np.ndarray]]) -> list[np.ndarray]:
    """Tiles seen in any of the frames (one box per tile)."""
    return one_per_place([c for tiles in frames for c in tiles])


def _played_twice(detections: Sequence[TileDetection], board) -> bool:
    """Whether a tile already on the board is read a second time (a set holds each tile once)."""
    seen: dict[Tile, int] = {}
    for d in detections:
        if d.pips is not None:
            t = Tile.of(*d.pips)
            seen[t] = seen.get(t, 0) + 1
    return any(n > 1 and t in board for t, n in seen.items())


def _other_readings(d: TileDetection, limit: int = 4) -> list[tuple[int, int]]:
    """The tile's likeliest other readings (pips of the first half, of the second), best first."""
    assert d.halves is not None
    first, second = d.halves
    options = []
    for a, pa in [(first.pips, first.confidence), *first.alternatives]:
        for b, pb in [(second.pips, second.confidence), *second.alternatives]:
            if (a, b) != (first.pips, second.pips):
                options.append((pa * pb, (a, b)))
    return [pips for _, pips in sorted(options, reverse=True)[:limit]]


def _pips(d: TileDetection) -> tuple[int, int]:
    assert d.pips is not None, "a face-up tile's reading"
    return d.pips


def _with_pips(d: TileDetection, pips: tuple[int, int]) -> TileDetection:
    assert d.halves is not None
    halves = tuple(HalfReading(p, h.center, h.confidence, h.alternatives) for p, h in zip(pips, d.halves))
    return TileDetection(d.corners, d.face, d.confidence, halves)  # type: ignore[arg-type]


def _one_box_per_tile(detections: Sequence[TileDetection]) -> list[TileDetection]:
    """Of boxes overlapping like no two tiles can, the best read one."""
    ranked = sorted(detections, key=lambda d: (d.read_confidence, d.confidence), reverse=True)
    kept: list[TileDetection] = []
    for d in ranked:
        if all(polygon_iou(np.asarray(d.corners), np.asarray(k.corners)) < OVERLAP for k in kept):
            kept.append(d)
    return kept
