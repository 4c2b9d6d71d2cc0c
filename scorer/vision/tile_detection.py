"""One tile seen in a frame -- its box, its face, each half's reading -- and what the tiles of one frame
say together: too small to read, or boxes that cannot be tiles beside the others."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

import numpy as np

from scorer.vision.geometry import circles_meeting, half_centers, long_side, polygon_iou
from scorer.words import Words

Face = Literal["up", "down"]
# A half read at this probability or more is taken as read; below it the tile is uncertain.
CERTAIN = 0.9
# ... except a blank half on a tile shorter than this in the image, which needs SURE_BLANK: there a
# single pale pip is a speck the reader may miss and still call the half blank at 0.9-0.95; in a layout
# a half it meets read at CERTAIN still confirms such a blank (docs/experiments.md, "SURE_BLANK").
SMALL_FOR_A_BLANK_PX = 35
SURE_BLANK = 0.97
# A half whose likeliest count is less likely than a blind guess among the seven: the reader sees
# mostly no half there (table, the box's end off the tile) or a back -- its count is unknown.
UNREAD = 1 / 7
# A half on a box that shows no count at all (a face that looks like a back): every count this likely,
# its ``pips`` a placeholder (0) that nothing may take for a reading (:attr:`HalfReading.unread`).
NO_COUNT = 0.1


@dataclass(frozen=True, slots=True)
class HalfReading:
    pips: int
    center: tuple[float, float]
    confidence: float
    alternatives: tuple[tuple[int, float], ...] = ()  # other pip counts and their probabilities, likeliest first

    @classmethod
    def no_count(cls, center: tuple[float, float]) -> "HalfReading":
        """A half read with no count: each of 0-6 as likely (:data:`NO_COUNT`, below :data:`UNREAD`), 0
        standing in as its ``pips`` and the other six as its alternatives."""
        return cls(0, center, NO_COUNT, tuple((k, NO_COUNT) for k in range(1, 7)))

    @property
    def unread(self) -> bool:
        """Whether the reader saw no count here at all (:data:`UNREAD`): any count may lie there."""
        return self.confidence < UNREAD


@dataclass(frozen=True, slots=True)
class TileDetection:
    """One tile seen in a frame.  ``corners`` go round the tile, the first edge a long side;
    ``halves`` follow the tile from the c0/c3 end to the c1/c2 end (``None`` when face down)."""

    corners: tuple[tuple[float, float], ...]
    face: Face
    confidence: float
    halves: tuple[HalfReading, HalfReading] | None = None
    # A plain box read as the double blank that may as well be a back (scorer.vision.plain_backs): the
    # same look in every frame, so frames agreeing make it no surer.
    maybe_back: bool = False

    @property
    def pips(self) -> tuple[int, int] | None:
        return None if self.halves is None else (self.halves[0].pips, self.halves[1].pips)

    @property
    def read_confidence(self) -> float:
        return 1.0 if self.halves is None else min(h.confidence for h in self.halves)

    @property
    def unread(self) -> bool:
        """Whether no count was read on either half (a face whose pips do not show: its pips a placeholder)."""
        return self.halves is not None and all(h.unread for h in self.halves)

    @property
    def certain(self) -> bool:
        return self.halves is None or all(self.half_certain(k) for k in (0, 1))

    def half_certain(self, k: int) -> bool:
        """Whether half ``k`` is read surely: at :data:`CERTAIN`, or :data:`SURE_BLANK` for a blank on a small tile."""
        assert self.halves is not None, "a face-down tile has no halves"
        half = self.halves[k]
        small = long_side(self.corners) < SMALL_FOR_A_BLANK_PX
        return half.confidence >= (SURE_BLANK if half.pips == 0 and small else CERTAIN)

    @property
    def center(self) -> tuple[float, float]:
        c = np.asarray(self.corners).mean(0)
        return float(c[0]), float(c[1])

    def as_blank_double(self) -> "TileDetection":
        """This box (one taken for a back) as the double blank face up: a blank face whose divider
        hardly shows looks like a back."""
        first, second = half_centers(np.asarray(self.corners))
        halves = (HalfReading(0, (float(first[0]), float(first[1])), SURE_BLANK), HalfReading(0, (float(second[0]), float(second[1])), SURE_BLANK))
        return TileDetection(self.corners, "up", self.confidence, halves)

    def to_json(self) -> dict:
        """``confidence``: the detector's that a tile lies there; ``read_confidence``: the less sure half's reading, and
        ``certain`` whether the pips are read surely (else the players are asked)."""
        return {
            "pips": None if self.pips is None else list(self.pips),
            "face": self.face,
            "certain": self.certain,
            "read_confidence": round(self.read_confidence, 3),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "halves": None
            if self.halves is None
            else [{"pips": h.pips, "center": [round(h.center[0], 1), round(h.center[1], 1)], "confidence": round(h.confidence, 3)} for h in self.halves],
            "confidence": round(self.confidence, 3),
        }

# Tiles shorter than this in the image have pips of a pixel or two: the reader misreads many of them
# (held-out layouts: whole graph right 42 % of images below, 98 % at or above; a 720p webcam over a
# table sees a tile 50-70 px long).
SMALL_TILE_PX = 30


def too_small_to_read(detections: Sequence["TileDetection"], minimum: float = SMALL_TILE_PX) -> str | None:
    """A word for the players when the face-up tiles are shorter in the image than ``minimum`` (px)."""
    length = small_tiles(detections, minimum)
    return None if length is None else too_small_words(length, minimum)


def small_tiles(detections: Sequence["TileDetection"], minimum: float = SMALL_TILE_PX) -> float | None:
    """The face-up tiles' median length in the image (px) where it is under ``minimum``, else None."""
    lengths = [long_side(d.corners) for d in detections if d.face == "up"]
    if len(lengths) < 2 or float(np.median(lengths)) >= minimum:  # (one small box may be a stray one)
        return None
    return float(np.median(lengths))


def too_small_words(length: float, minimum: float) -> Words:
    # (The length floored: 39.6 px told as "40" beside a minimum of 40 reads as enough.)
    return Words("the tiles are about {length} px long in the image, too small for their pips to be read reliably (at least "
                 "{minimum} px is needed): bring the camera closer or raise its resolution", length=str(int(length)),
                 minimum=f"{minimum:.0f}")


def settled(tiles: list[TileDetection]) -> list[TileDetection]:
    """The tiles read, less the boxes that cannot be tiles beside the others."""
    return _drop_tiny(_drop_same_centre(_drop_straddling(tiles)))


# A box under this share of the median length of the tiles read surely is no tile beside them: the tiles
# of one set lie at one height, and a camera tilted 30 degrees sees its far ones at most a third smaller
# than the near ones.  On the held-out splits such boxes were false tiles or tiles cut by the frame's
# edge, never a tile wholly in view (docs/experiments.md, "TINY").
TINY = 0.5


def _drop_tiny(tiles: list[TileDetection]) -> list[TileDetection]:
    """The tiles less any box far smaller than the tiles read surely (where at least three are)."""
    sure = [long_side(t.corners) for t in tiles if t.certain]
    if len(sure) < 3:
        return tiles
    floor = TINY * float(np.median(sure))
    return [t for t in tiles if long_side(t.corners) >= floor]


# Two boxes whose centres lie closer than this share of a tile's width are on one tile (no two tiles
# lying flat share a centre): a box turned a quarter turn on a tile overlaps it too little for the NMS.
SAME_CENTRE = 0.25


def _drop_same_centre(tiles: list[TileDetection]) -> list[TileDetection]:
    """Of boxes centred on one spot, the one the detector is surest of."""
    ordered = sorted(tiles, key=lambda d: -d.confidence)
    centres = np.array([t.center for t in ordered]).reshape(-1, 2)
    keep: list[int] = []
    for i, t in enumerate(ordered):
        gaps = np.hypot(*(centres[keep] - centres[i]).T)
        if (gaps < SAME_CENTRE * long_side(t.corners) / 2).any():
            continue
        keep.append(i)
    return [ordered[i] for i in keep]


def _drop_straddling(tiles: list[TileDetection]) -> list[TileDetection]:
    """A weaker box lying across two tiles (half of each) is dropped where both of its tiles were found."""
    quads = [np.array(t.corners) for t in tiles]
    centres = np.array([q.mean(0) for q in quads]).reshape(-1, 2)
    radii = np.array([np.linalg.norm(q - q.mean(0), axis=1).max() for q in quads])
    # (Boxes whose circumcircles do not meet do not overlap: the exact test only where they do.)
    meets = circles_meeting(centres, radii)
    keep = []
    for i, t in enumerate(tiles):
        if t.certain:
            keep.append(t)
            continue
        overlaps = [j for j, o in enumerate(tiles) if o is not t and meets[i, j] and o.confidence > t.confidence
                    and polygon_iou(quads[j], quads[i]) > 0.15]
        if len(overlaps) >= 2:
            continue
        keep.append(t)
    return keep
