"""Tiles followed from one still table to the next; each tile's pips are the majority of its readings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from scorer.rules import Tile
from scorer.vision.detector import HalfReading, TileDetection
from scorer.vision.geometry import polygon_iou


@dataclass
class Track:
    id: int
    detection: TileDetection  # the latest sighting
    votes: Counter[Tile] = field(default_factory=Counter)  # Tile -> readings
    sure: Counter[Tile] = field(default_factory=Counter)  # Tile -> readings made surely
    settled: Tile | None = None  # the majority once it held
    # A person's answer: the half nearer this point (the tile it was laid against) shows this value.
    facing: tuple[tuple[float, float], int] | None = None

    @property
    def tile(self) -> Tile | None:
        if not self.votes:
            return None
        return self.votes.most_common(1)[0][0]

    @property
    def count(self) -> int:
        return sum(self.votes.values())


@dataclass(frozen=True, slots=True)
class Flip:
    """A tile whose majority reading changed after it had settled."""

    track_id: int
    before: Tile
    after: Tile
    center: tuple[float, float]


class Tracker:
    def __init__(self, match_iou: float = 0.4) -> None:
        self.tracks: list[Track] = []
        self._next = 0
        self.match_iou = match_iou

    def update(self, detections: list[TileDetection], *, same_table: bool = False) -> tuple[list[TileDetection], list[Flip]]:
        """Face-up detections with voted pips (oriented like the latest reading), and any flips.

        ``same_table``: the table has not moved since the last update (a still table read again), so a
        tile followed then, read surely at least once, and missed now is still there -- kept, as last
        seen.  (A box never read surely and gone in the next look was most likely on no tile.)"""
        up = [d for d in detections if d.face == "up" and d.pips is not None]
        unmatched = set(range(len(self.tracks)))
        out: list[TileDetection] = []
        flips: list[Flip] = []
        new_tracks: list[Track] = []
        for d in up:
            best, best_iou = None, self.match_iou
            for k in unmatched:
                iou = polygon_iou(np.array(d.corners), np.array(self.tracks[k].detection.corners))
                if iou > best_iou:
                    best, best_iou = k, iou
            if best is None:
                track = Track(self._next, d)
                self._next += 1
                new_tracks.append(track)
            else:
                unmatched.discard(best)
                track = self.tracks[best]
                track.detection = d
            # An uncertain reading counts for less than a sure one; a face with no count on either half
            # (pips washed out: its reading a placeholder) for nothing.
            read = Tile.of(*cast(tuple[int, int], d.pips))  # (face up and read: filtered above)
            if not d.unread:
                track.votes[read] += 2 if d.certain else 1
                track.sure[read] += d.certain
            if track.tile is None:
                out.append(d)  # (no count read in any look yet: nothing to follow)
                continue
            voted = track.tile
            if track.settled is not None and voted != track.settled and track.votes[voted] > track.votes[track.settled]:
                flips.append(Flip(track.id, track.settled, voted, d.center))
            if track.count >= 2:
                track.settled = voted
            out.append(_oriented(d, voted, track))
        if same_table:
            for k in sorted(unmatched):
                track = self.tracks[k]
                if track.tile is not None and track.sure[track.tile] > 0:
                    out.append(_oriented(track.detection, track.tile, track))
                    unmatched.discard(k)
        # Tiles not seen now are dropped (taken away, covered); they start afresh if seen again.
        self.tracks = [t for i, t in enumerate(self.tracks) if i not in unmatched] + new_tracks
        return out, flips

    def read_surely(self, detection: TileDetection) -> bool:
        """Whether the tile followed where ``detection`` lies was ever read surely as its voted tile.  The
        vote makes a tile read the same way in three frames sure -- but a still table read again and
        again shows the same glare or shadow, so the same unsure reading repeated is no more evidence."""
        track = self._nearest(detection.center)
        return track is not None and track.tile is not None and track.sure[track.tile] > 0

    def sure_as_read(self, detection: TileDetection) -> bool:
        """Whether ``detection`` is read surely, and not only by the vote: the tile followed there as it
        is read was read surely in some look (see :meth:`read_surely`).  A box no tile is followed at (the
        tracks reset) is as sure as its own reading."""
        track = self._nearest(detection.center)
        voted_only = (track is not None and detection.pips is not None and track.tile == Tile.of(*detection.pips)
                      and track.sure[track.tile] == 0)
        return detection.certain and not voted_only

    def _nearest(self, center: tuple[float, float]) -> Track | None:
        """The tile followed nearest to ``center``."""
        best, best_d = None, float("inf")
        for track in self.tracks:
            c = track.detection.center
            d = (c[0] - center[0]) ** 2 + (c[1] - center[1]) ** 2
            if d < best_d:
                best, best_d = track, d
        return best

    def reset(self) -> None:
        self.tracks = []

    def keep_only(self, tiles: set[Tile]) -> None:
        """Follow only the tiles read as one of ``tiles`` (the board's, after moves were withdrawn)."""
        self.tracks = [track for track in self.tracks if (track.settled or track.tile) in tiles]

    def reading_at(self, center: tuple[float, float]) -> Tile | None:
        """The reading of the tile followed nearest to ``center`` (settled, else the majority)."""
        track = self._nearest(center)
        return None if track is None else track.settled or track.tile

    def read_as(self, tile: Tile) -> int:
        """How many tiles followed read as ``tile`` (settled, else the majority)."""
        return sum(1 for track in self.tracks if (track.settled or track.tile) == tile)

    def correct(self, center: tuple[float, float], tile: Tile, against: Tile | None = None) -> bool:
        """A person says the tile at ``center`` is ``tile`` (laid ``against`` that tile, where it was not
        the first): that reading wins from now on, its halves turned so that the value the two share lies
        on the half nearer the other.  (A misread tile's halves can agree better with it turned the wrong
        way round: read [4|5], a [5|6] whose 6 meets the layout.)"""
        best = self._nearest(center)
        if best is None:
            return False
        best.votes.clear()
        best.votes[tile] = 1000
        best.sure.clear()
        best.sure[tile] = 1000  # (a person's word: sure)
        best.settled = tile
        other = next((t for t in self.tracks if t is not best and against is not None and t.tile == against), None)
        shared = {tile.a, tile.b} & ({against.a, against.b} if against is not None else set())
        if other is not None and len(shared) == 1 and not tile.is_double:
            best.facing = (other.detection.center, shared.pop())
        return True


def _oriented(d: TileDetection, tile: Tile, track: Track) -> TileDetection:
    """The detection with the voted pips, placed on the halves that agree best with this reading."""
    assert d.halves is not None
    first, second = d.halves
    straight = (first.pips == tile.a) + (second.pips == tile.b)
    crossed = (first.pips == tile.b) + (second.pips == tile.a)
    a, b = (tile.a, tile.b) if straight >= crossed else (tile.b, tile.a)
    if track.facing is not None and track.settled == tile:
        (x, y), value = track.facing
        first_nearer = np.hypot(first.center[0] - x, first.center[1] - y) <= np.hypot(second.center[0] - x, second.center[1] - y)
        other = tile.b if value == tile.a else tile.a
        a, b = (value, other) if first_nearer else (other, value)
    total = sum(track.votes.values())
    share = track.votes[tile] / total if total else 0.0
    confidence = max(d.read_confidence, share) if track.count >= 3 and not d.maybe_back else d.read_confidence
    # The latest reading's other candidates stay with their halves (the rules may choose among them).  A
    # half the reader saw no count on keeps its own confidence: a box lying half off a tile reads its
    # end as junk again and again, and the vote is no evidence of it.
    halves = (_voted(first, a, confidence), _voted(second, b, confidence))
    return TileDetection(d.corners, "up", d.confidence, halves, d.maybe_back)


def _voted(half: HalfReading, pips: int, confidence: float) -> HalfReading:
    return HalfReading(pips, half.center, half.confidence if half.unread else confidence, _others(half, pips))


def _others(half: HalfReading, voted: int) -> tuple[tuple[int, float], ...]:
    """The half's other candidate readings besides ``voted`` (the reading itself is one if it lost the vote)."""
    candidates = [(half.pips, half.confidence), *half.alternatives]
    return tuple((p, c) for p, c in candidates if p != voted)
