"""The arms that reach in over the table, and who laid which tile.

Each motion that ends in a still table is an :class:`Arm`: the regions of it that reach in from a
table edge.  A tile is laid by the arm after which its place was still -- not the latest one, where a
question held the move up and other players' arms moved since -- and of several regions, by the one
that reached the tile.  :class:`Arms` keeps the arms of late with what each read saw, where each tile
of the state acted on lies, when its place settled and when it was first seen.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from scorer.layout import Layout
from scorer.layout.moves import Placement
from scorer.pipeline.places import light_change, relit
from scorer.pipeline.sequences import SETTLE_GAP, put_down_apart
from scorer.rules import Tile
from scorer.vision.calibration import seat_order
from scorer.vision.detector import TileDetection
from scorer.vision.geometry import long_side

Point = tuple[float, float]

# Still moments whose arm is remembered: a move held up by a question is still told by its own arm
# after a few more turns have been made.
ARMS_KEPT = 32
# Boxes of one tile read at two times lie within this share of its length of each other: a box half a
# tile off (one half of a tile and the table beside it) is read at another place.
SAME_PLACE = 0.25
# Frames further apart than this (seconds: a camera that stopped, a stream that dropped out) leave the moves
# made between them unseen: who laid the tiles that turn up then, and in which order, is the rules' to tell.
BLIND_SECONDS = 1.0


@dataclass(frozen=True)
class Arm:
    """The motion that ended in a still table: each region of it reaching in from a table edge."""

    at: float  # the gate's clock when the table was still again
    reaches: tuple[tuple[int, np.ndarray], ...] = ()  # (edge, the region's pixels in the gate's small frame), largest first

    @property
    def side(self) -> int | None:
        """The edge the largest region reached in from (None: no region reached in)."""
        return self.reaches[0][0] if self.reaches else None

    def side_over(self, place: Point | None, frame_size: tuple[int, int] | None) -> int | None:
        """The edge of the region that reached the place (frame pixels) -- the arm that laid a tile
        there, not a player shifting in a seat at another edge -- else of the largest."""
        if place is not None and frame_size is not None:
            for side, region in self.reaches:
                h, w = region.shape
                x, y = int(place[0] * w / frame_size[0]), int(place[1] * h / frame_size[1])
                if region[max(0, y - 2) : y + 3, max(0, x - 2) : x + 3].any():
                    return side
        return self.side


def reaches_of_motion(mask: np.ndarray | None) -> tuple[tuple[int, np.ndarray], ...]:
    """Where the motion (the gate's mask) reached in from the table's edges: each moving region that
    crosses an edge, with that edge (the one it crosses most), largest first -- an arm is one big region
    reaching in.  Flicker on a bright patch or noise makes small specks, which are left out."""
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
            reaches.append((area, _edge_reached_from(region, border), region))
    reaches.sort(key=lambda r: -r[0])
    return tuple((side, region) for _, side, region in reaches)


# A still view differs from the last one acted on, by over this share of the picture's contrast (or
# ARM_LEVELS grey levels), away from the tiles seen in either, over a region reaching in from the
# frame's edge ARM_DEPTH of the way across, of at least ARM_AREA of it and ARM_TILES tiles' area: an arm
# still over the table (a hand hovering before it lays a tile, a hand resting on a heap) -- not tiles
# laid, taken or cleared away, nor one the frame's edge cuts.
ARM_CONTRAST = 0.1
ARM_LEVELS = 12.0
ARM_AREA = 0.004
ARM_TILES = 2.5
ARM_DEPTH = 0.12
ARM_WIDTH = 160
ARM_MOST = 0.35  # no arm changes more of the picture than this
# A shadow darkens a place to no less than this share; the light's change over the table is smoothed
# over this many small pixels (a tenth of the picture: an arm is narrower).
SHADE = 0.4
LIGHT_SIGMA = 12.0
# Where the view compared with was blown out (a channel at this level or more) over ARM_BLOWN_SHARE of the
# picture or more, the light's change there cannot be undone: the camera's exposure turning a white table
# pink is no arm.  (A lamp's smaller highlight is still looked into: a hand hovers under it.)
ARM_BLOWN = 248
ARM_BLOWN_SHARE = 0.1


def arm_in_view(before: np.ndarray, now: np.ndarray, tile_area: float = 0.0, tiles: Sequence[np.ndarray] = ()) -> bool:
    """Whether an arm reaches into the still view ``now`` that was not in ``before`` (colour frames,
    the same size; the light's change between them undone; ``tile_area``: a tile's, in frame pixels;
    ``tiles``: the corners of the tiles seen in either view)."""
    h, w = now.shape[:2]
    size = (ARM_WIDTH, max(1, round(h * ARM_WIDTH / w)))
    a = cv2.resize(before, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    b = cv2.resize(now, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    low, high = np.percentile(b, (1, 99))
    threshold = max(ARM_LEVELS, ARM_CONTRAST * float(high - low))
    blown = (a.max(axis=2) if a.ndim == 3 else a) >= ARM_BLOWN
    if blown.mean() < ARM_BLOWN_SHARE:
        blown[:] = False
    a = relit(a, light_change(a, b, LIGHT_SIGMA))  # (the light's smooth change over the table undone)
    changed = np.abs(b - a)
    mask = (changed.max(axis=2) if changed.ndim == 3 else changed) > threshold
    if mask.mean() > ARM_MOST:
        return False  # (the view changed as a whole -- the light, the camera -- not by an arm)
    mask &= ~_shaded(a, b, threshold) & ~blown
    mask = mask.astype(np.uint8)
    scale = size[0] / w
    if len(tiles):
        # The tiles with their rims (side walls, shadows): half a tile's width around each.
        covered = np.zeros_like(mask)
        for corners in tiles:
            cv2.fillPoly(covered, [np.round(np.asarray(corners) * scale).astype(np.int32)], 1)
        rim = max(1, round(0.5 * np.sqrt(tile_area / 2) * scale))
        mask[cv2.dilate(covered, np.ones((2 * rim + 1, 2 * rim + 1), np.uint8)) > 0] = 0
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    smallest = max(ARM_AREA * size[0] * size[1], ARM_TILES * tile_area * scale**2)
    for k in range(1, n):
        x, y, bw, bh, area = stats[k]
        deep = (x == 0 and bw >= ARM_DEPTH * size[0]) or (x + bw == size[0] and bw >= ARM_DEPTH * size[0]) or (
            y == 0 and bh >= ARM_DEPTH * size[1]) or (y + bh == size[1] and bh >= ARM_DEPTH * size[1])
        if deep and area >= smallest and _stands_out(labels == k, now=b, before=a):
            return True
    return False


def _stands_out(region: np.ndarray, now: np.ndarray, before: np.ndarray) -> bool:
    """Whether the changed region holds something now that stands out from the table around it more
    than what it held before did -- an arm come in, not one gone (the view compared with held it)."""
    around = cv2.dilate(region.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool) & ~region

    def contrast(picture: np.ndarray) -> float:
        return float(np.abs(picture[region].mean(axis=0) - picture[around].mean(axis=0)).max())

    return not around.any() or contrast(now) > contrast(before)


def _shaded(before: np.ndarray, now: np.ndarray, threshold: float) -> np.ndarray:
    """Where ``now`` is ``before`` in shade: darker alike in every colour, its texture kept (someone
    leaning in, a shadow) -- where an arm brings its own colour and texture."""
    gain = light_change(before, now, 3.0)
    left = np.abs(now - relit(before, gain))
    shaded: np.ndarray = (gain > SHADE) & (gain < 1.0) & ((left.max(axis=2) if left.ndim == 3 else left) <= threshold)
    return shaded


# The inward direction (x, y) from each edge: bottom, left, top, right.
INWARD = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


def _edge_reached_from(region: np.ndarray, border: list[int]) -> int:
    """The edge a region reaching in crosses -- where it crosses two at a corner (an arm coming in
    aslant), the one it points in from: from where it crosses the frame's edge towards its deepest point."""
    if sum(1 for b in border if b) < 2:
        return int(np.argmax(border))
    h, w = region.shape
    ys, xs = np.nonzero(region)
    depth = np.minimum(np.minimum(xs, w - 1 - xs), np.minimum(ys, h - 1 - ys))
    on_edge = depth == 0
    tip = np.array([xs[np.argmax(depth)], ys[np.argmax(depth)]], np.float64)
    entry = np.array([xs[on_edge].mean(), ys[on_edge].mean()])
    direction = tip - entry
    return int(np.argmax([direction @ np.array(inward) if count else -np.inf for inward, count in zip(INWARD, border)]))


def moved_near(mask: np.ndarray | None, frame_size: tuple[int, int] | None, place: Point) -> bool:
    """Whether the motion (the gate's mask) reached the place (frame pixels)."""
    if mask is None or frame_size is None:
        return False
    h, w = mask.shape
    x, y = place
    cx, cy = int(x * w / frame_size[0]), int(y * h / frame_size[1])
    r = 3
    return bool(mask[max(0, cy - r) : cy + r + 1, max(0, cx - r) : cx + r + 1].any())


def _same_place(a: Point, b: Point, length: float) -> bool:
    """Whether boxes centred at ``a`` and ``b`` lie at one place (``length``: the tile's)."""
    return float(np.hypot(a[0] - b[0], a[1] - b[1])) < SAME_PLACE * length


def settle_order(placements: Sequence[Placement], settled: dict[Tile, float]) -> list[Placement] | None:
    """The placements in the order their places settled (``settled``: when), where each one's time is
    known and they were put down apart (:func:`put_down_apart`)."""
    times = [settled.get(p.tile) for p in placements]
    if None in times or not put_down_apart(times):
        return None
    return [p for _, p in sorted(zip(times, placements), key=lambda pair: pair[0])]  # type: ignore[arg-type, return-value]


def player_at(side: int | None, players: Sequence[str]) -> str | None:
    """The player sitting at the table edge (None: nobody, or no edge)."""
    if side is None:
        return None
    order = seat_order(len(players))
    return players[order.index(side)] if side in order else None


class Arms:
    """The arms of late and what was read after each, and the tiles of the state acted on: where
    each lies, when its place last moved, when it was first seen this round."""

    def __init__(self, settled_at: Callable[[tuple[float, float, float, float]], float | None]) -> None:
        # When the picture last changed over a box (as fractions of the frame): the gate's answer.
        self.settled_at = settled_at
        self.frame_size: tuple[int, int] | None = None  # (width, height) of the frames
        self.arms: deque[Arm] = deque(maxlen=ARMS_KEPT)
        # Each read of late: when (the gate's clock), and where its boxes lay (with their lengths).
        self.reads: deque[tuple[float, list[tuple[float, float, float]]]] = deque(maxlen=4 * ARMS_KEPT)
        self.places: dict[Tile, Point] = {}  # where each tile of the state acted on lies
        self.settled: dict[Tile, float] = {}  # when each tile's place last moved, in the state acted on
        self.first_seen: dict[Tile, float] = {}  # when each face-up tile of the round was first read
        # When (the gate's clock, as settled) and where each tile was first read where it lies now.
        self.first_read: dict[Tile, tuple[float, Point]] = {}
        self.round_reads_after = float("-inf")  # reads until then saw a round over: no tile of this one
        self.reads_unsure: deque[float] = deque(maxlen=4 * ARMS_KEPT)  # reads whose boxes were all read unsurely
        self.last_frame: float | None = None  # when the last frame came (its source's clock)
        self.blind = False  # no frames came for a while, and no read since
        self.reads_after_blind: deque[float] = deque(maxlen=ARMS_KEPT)  # the first read after each such while

    def moved(self, at: float, mask: np.ndarray | None) -> None:
        """A motion ended in a still table at ``at`` (the gate's clock)."""
        self.arms.append(Arm(at, reaches_of_motion(mask)))

    def frame_came(self, t: float, fps: float) -> bool:
        """A frame came at ``t`` (its source's clock; ``fps`` of them a second are read): whether none came for
        over :data:`BLIND_SECONDS` (three frames' time, where that is longer) -- tiles first read in the next
        read were laid unseen."""
        blind = self.last_frame is not None and t - self.last_frame > max(BLIND_SECONDS, 3 / fps)
        self.last_frame = t
        self.blind = self.blind or blind
        return blind

    def laid_unseen(self, tile: Tile) -> bool:
        """Whether ``tile`` was first read where it lies in the first read after the frames stopped coming:
        laid while the camera saw nothing -- when, and by whose arm, is not known."""
        first = self.first_read.get(tile)
        return first is not None and first[0] in self.reads_after_blind

    def read(self, at: float, tiles: Sequence[TileDetection]) -> None:
        """A read at ``at`` saw these boxes."""
        if self.blind:
            self.reads_after_blind.append(at)
            self.blind = False
        self.reads.append((at, [(*d.center, long_side(d.corners)) for d in tiles]))
        if tiles and not any(d.certain for d in tiles):
            self.reads_unsure.append(at)

    def note_places(self, tiles: Sequence[TileDetection], layout: Layout, at: float | None = None) -> None:
        """Where each tile lies and when its place last moved, by the tile it is read as -- as the
        layout reads it: its tiles are the boxes', in order, some read again at a join (``at``: when, on
        the gate's clock, the picture read was taken: a tile read for the first time there is noted)."""
        read = [s.pips for s in layout.tiles] if len(layout.tiles) == len(tiles) else [d.pips for d in tiles]
        self.settled, self.places = {}, {}
        # (A tile two boxes read lies where the layout has it: a stray box elsewhere read so is noted first.)
        inside = set(layout.component) if len(layout.tiles) == len(tiles) else set(range(len(tiles)))
        order = [i for i in range(len(tiles)) if i not in inside] + [i for i in range(len(tiles)) if i in inside]
        for d, pips in ((tiles[i], read[i]) for i in order):
            if pips is not None:
                self.places[Tile.of(*pips)] = d.center
                first, length = self.first_read.get(Tile.of(*pips)), long_side(d.corners)
                if at is not None and (first is None or not _same_place(first[1], d.center, length)):
                    # (Read elsewhere before -- a misreading of another tile -- it was first read here now.)
                    self.first_read[Tile.of(*pips)] = (self._boxed_since(d.center, length, at), d.center)
                if (when := self.moved_last(d.corners)) is not None:
                    self.settled[Tile.of(*pips)] = when

    def moved_last(self, corners: Sequence[Sequence[float]] | np.ndarray) -> float | None:
        """When (the gate's clock) the picture over a box (corners in frame pixels) last moved."""
        if self.frame_size is None:
            return None
        w, h = self.frame_size
        c = np.asarray(corners)
        (x0, y0), (x1, y1) = c.min(0), c.max(0)
        return self.settled_at((x0 / w, y0 / h, x1 / w, y1 / h))

    def _boxed_since(self, place: Point, length: float, at: float) -> float:
        """Since when (the gate's clock) every read of this round up to ``at`` saw a box at the place --
        a tile misread at first (as a played tile, as two half boxes) lay there from the first of them."""
        since = at
        for when, boxes in reversed(self.reads):
            if when > at:
                continue
            if when <= self.round_reads_after or not any(_same_place((x, y), place, length) for x, y, _ in boxes):
                break
            since = when
        return since

    def follow(self, shift: tuple[float, float], new_view: bool = False) -> None:
        """The camera moved by ``shift`` pixels: where tiles were read moves with it.  (A new view: the
        reads before it are of another picture, where no tile is first read again.)"""
        dx, dy = shift
        self.reads = deque([(when, [(x + dx, y + dy, length) for x, y, length in boxes]) for when, boxes in self.reads],
                           maxlen=self.reads.maxlen)
        self.first_read = {tile: (when, (x + dx, y + dy)) for tile, (when, (x, y)) in self.first_read.items()}
        self.places = {tile: (x + dx, y + dy) for tile, (x, y) in self.places.items()}
        if new_view:
            self.round_over()

    def first_read_now(self, tiles: Sequence[tuple[TileDetection, Tile]], at: float, t: float) -> None:
        """A round opened on a table never seen cleared (the read at ``at``, the look's time ``t``): these
        boxes, with the tiles the layout reads them as, were first seen now, and first read where every read
        since the last one of this round that saw the table bare (a look with a hand over it, which could
        not act; a stray box or two, none read surely, left of the last round's table) saw a box at their
        place -- or, where no read saw the table bare, now: the reads before were of the last round's table.
        What was noted of the last round's tiles is forgotten (a tile of it laid again where it lay then is new)."""
        self.forget_but(set())
        bare = [when for when, boxes in self.reads
                if self.round_reads_after < when < at and (not boxes or when in self.reads_unsure)]
        if not bare:
            self.round_over()
        else:
            self.round_reads_after = bare[-1]
        for d, tile in tiles:
            self.first_read[tile] = (self._boxed_since(d.center, long_side(d.corners), at), d.center)
            self.first_seen[tile] = t

    def round_over(self) -> None:
        """The round is over: the boxes read so far lay on its table, not the next round's."""
        if self.reads:
            self.round_reads_after = self.reads[-1][0]

    def side_that_laid(self, tile: Tile) -> int | None:
        """The table edge of the arm that put the tile down: the motion after which its place was
        still, not the latest one -- where a question held the move up, other players' arms have moved since."""
        settled, place, first = self.settled.get(tile), self.places.get(tile), self.first_read.get(tile)
        if not self.arms or self.laid_unseen(tile):
            return None
        arm = self.arms[-1]
        if settled is not None and first is not None and first[0] < settled:
            # Read there before its place last moved (the next tile laid against it): put down by the motion
            # that ended before that read.
            settled = max((a.at for a in self.arms if a.at <= first[0]), default=first[0])
        if settled is not None:
            stills = list(self.arms)
            for k, still in enumerate(stills):
                until = stills[k + 1].at if k + 1 < len(stills) else float("inf")
                # (A tile that barely moved the picture -- black on a dark cloth -- seems to have settled
                # with the move before; the table read then shows no box where it lies.)
                if still.at >= settled and (place is None or self._box_read_at(place, still.at, until)):
                    arm = still
                    break
        return arm.side_over(place, self.frame_size)

    def side_over(self, place: Point) -> int | None:
        """The table edge of the last arm's region that reached the place (else of its largest)."""
        return self.arms[-1].side_over(place, self.frame_size) if self.arms else None

    def _box_read_at(self, place: Point, start: float, until: float) -> bool:
        """Whether a read between the two times (the gate's clock) saw a box at ``place``."""
        return any(float(np.hypot(x - place[0], y - place[1])) < length / 2
                   for when, boxes in self.reads if start <= when < until for x, y, length in boxes)

    def seen(self, tiles: Sequence[Tile], t: float) -> None:
        """These tiles were read at ``t``: each one's first sight is kept."""
        for tile in tiles:
            self.first_seen.setdefault(tile, t)

    def put_down(self) -> dict[Tile, float]:
        """When each tile whose place is known was put down: when it was first read or its place last moved,
        whichever came first (an arm laying the next tile against it moves its place again)."""
        return {tile: min(when, self.first_read[tile][0]) if tile in self.first_read else when for tile, when in self.settled.items()
                if not self.laid_unseen(tile)}

    def forget_but(self, kept: set[Tile]) -> None:
        """The round's tiles are gone: forget when they were first seen, all but ``kept``."""
        self.first_seen = {tile: when for tile, when in self.first_seen.items() if tile in kept}
        self.first_read = {tile: first for tile, first in self.first_read.items() if tile in kept}

    def opening_tile(self, layout: Layout) -> Tile | None:
        """Of the layout's tiles, the one seen first, if it was seen before all the others."""
        tiles = [layout.tiles[i].tile for i in layout.component]
        times = {t: self.first_seen[t] for t in tiles if t in self.first_seen}
        if not times:
            return None
        earliest = min(times.values())
        first = [t for t, when in times.items() if when == earliest]
        if len(first) > 1 and all(t in self.first_read for t in first):
            # Several seen first at once: one read where it lies in an earlier look (one with a hand over
            # the table, which could not act) was put down first.
            first.sort(key=lambda t: self.first_read[t][0])
            if self.first_read[first[0]][0] < self.first_read[first[1]][0]:
                return first[0]
        if len(first) > 1 and all(t in self.settled for t in first):
            # Several seen first at once (put down before the table was still): the one whose place
            # settled clearly before the others' was put down first.
            first.sort(key=self.settled.__getitem__)
            if self.settled[first[1]] - self.settled[first[0]] >= SETTLE_GAP:
                return first[0]
        return first[0] if len(first) == 1 else None
