"""From the detector's boxes to tiles: each box read by the pip reader, which also checks it -- a box on no
tile dropped, a face the detector took for a back turned over, a face washed out by a highlight asked about."""

from __future__ import annotations

from typing import Callable, Sequence

import cv2
import numpy as np

from scorer.vision.geometry import half_centers, long_first, polygon_iou, rectify
from scorer.vision.obb import Box, rotated_nms
from scorer.vision.reader import BACK, NOT_A_HALF
from scorer.vision.surface import BLOWN, WEAK_BACK, bare_table
from scorer.vision.tile_detection import CERTAIN, Face, HalfReading, TileDetection, settled

CLASS_FACES: tuple[Face, ...] = ("up", "down")
# A candidate box this close to one the reader refused is the same box: not read again.
SAME_BOX = 0.7
# Other readings of a half kept when at least this likely (for the rules to choose among).
ALTERNATIVE = 0.02


class ReadOnce:
    """A pip reader for one picture that reads each box once: a box met again (the close-up search reads a
    frame's candidates again with its own) is given its first reading, not read again."""

    def __init__(self, read_pips: Callable[[np.ndarray, list[np.ndarray]], np.ndarray]) -> None:
        self._read_pips = read_pips
        self._picture: np.ndarray | None = None
        self._known: dict[bytes, np.ndarray] = {}

    def __call__(self, picture: np.ndarray, boxes: list[np.ndarray]) -> np.ndarray:
        if picture is not self._picture:
            self._picture, self._known = picture, {}
        keys = [np.asarray(c, np.float64).tobytes() for c in boxes]
        new = list({k: c for k, c in zip(keys, boxes) if k not in self._known}.items())
        if new:
            read = self._read_pips(picture, [c for _, c in new]).reshape(len(new), 2, -1)  # (as read_tiles takes it)
            for (k, _), p in zip(new, read):
                self._known[k] = p
        if not keys:
            return self._read_pips(picture, [])
        return np.stack([self._known[k] for k in keys])


def read_tiles(
    frame: np.ndarray,
    boxes: Sequence[Box],
    read_pips: Callable[[np.ndarray, list[np.ndarray]], np.ndarray],
    nms_iou: float | None = None,
) -> list[TileDetection]:
    """Pair each box with the readings of its two halves (``read_pips``: the frame, colour or grey, and
    the boxes' corners -> [N, 2, C] probabilities, as :meth:`PipReader.read`).

    With ``nms_iou``, ``boxes`` are all the candidates, best first: they are thinned by the rotated NMS,
    read, and where the reader finds no tile under a kept box (most often a box lying across two tiles
    side by side), the candidates that box suppressed get a second look -- thinned again and read,
    beside the boxes already taken -- so the tiles under it are not lost with it."""
    if nms_iou is None:
        return settled([d for d in _read_boxes(frame, boxes, read_pips) if d is not None])
    kept = rotated_nms(list(boxes), nms_iou)
    read = _read_boxes(frame, kept, read_pips)
    # (Only a face-up box can be refused: a back is taken as it is, or as the face the reader sees on it.)
    taken = [b for b, d in zip(kept, read) if d is not None]
    refused = [b for b, d in zip(kept, read) if d is None]
    out = [d for d in read if d is not None]
    if refused:
        chosen = {id(b) for b in kept}
        # Not the refused box again (a near copy of it is read the same), nor one a taken box suppressed.
        again = [
            b for b in boxes
            if id(b) not in chosen
            and not any(polygon_iou(b.corners, r.corners) > SAME_BOX for r in refused)
            and not any(polygon_iou(b.corners, k.corners) > nms_iou for k in taken)
        ]
        second = rotated_nms(again, nms_iou)
        out += [d for d in _read_boxes(frame, second, read_pips) if d is not None]
    return settled(out)


def _read_boxes(
    frame: np.ndarray, boxes: Sequence[Box], read_pips: Callable[[np.ndarray, list[np.ndarray]], np.ndarray]
) -> list[TileDetection | None]:
    """Each box's tile, None where the reader finds both halves "not a half" (a box on no tile).

    The reader checks the detector's call of face or back.  The detector tells faces from backs mostly
    by the pips and a painted divider, so a face showing little (a blank or a one on a half, a divider
    only engraved) can pass for a back: where the reader sees a face on such a box, it is one
    (:func:`_face_on_a_back`).  A reader with a "back" class (the shipped one) also turns a face-up box
    it reads as a back into one; an older reader, which has never seen a back, is trusted with a back's
    pips only where it sees one or more surely (a blank double then still reads as a back: the pipeline
    looks for its divider where the game allows one)."""
    if not boxes:
        return []
    probs = read_pips(frame, [b.corners for b in boxes]).reshape(len(boxes), 2, -1)
    knows_backs = probs.shape[-1] > BACK
    out: list[TileDetection | None] = []
    for b, (p_first, p_second) in zip(boxes, probs):
        corners = long_first(b.corners)
        as_tuple = tuple((float(x), float(y)) for x, y in corners)
        back = knows_backs and p_first[BACK] > 0.5 and p_second[BACK] > 0.5
        if back or (CLASS_FACES[b.cls] == "down" and not _face_on_a_back(p_first, p_second, knows_backs)):
            if b.score < WEAK_BACK and bare_table(frame, corners, [o.corners for o in boxes if o is not b]):
                out.append(None)  # a weak back where nothing stands out from the table: no tile
                continue
            if not (knows_backs and _some_pips_left(p_first, p_second) and (not back or washed_out(frame, corners))):
                out.append(TileDetection(as_tuple, "down", b.score))
                continue
            # A face whose pips a highlight has washed out looks like a back, and a back the detector sees
            # where the reader sees one on neither half surely and on one not even likely, with pips
            # likelier than no tile, may be a face showing little: a face read with no count on either
            # half (the players are asked), not a back.
            halves = []
            for p, c in zip((p_first, p_second), half_centers(corners)):
                ranked = np.argsort(-p[:NOT_A_HALF])
                pips = int(ranked[0])
                halves.append(HalfReading(pips, (float(c[0]), float(c[1])), min(float(p[pips]), WASHED_CONFIDENCE),
                                          tuple((int(k), float(p[k])) for k in ranked[1:3] if p[k] >= ALTERNATIVE)))
            out.append(TileDetection(as_tuple, "up", b.score, (halves[0], halves[1])))
            continue
        if p_first[NOT_A_HALF] > 0.5 and p_second[NOT_A_HALF] > 0.5:
            out.append(None)  # the box is on the table, not on a tile
            continue
        halves = []
        for p, c in zip((p_first, p_second), half_centers(corners)):
            ranked = np.argsort(-p[:NOT_A_HALF])
            pips = int(ranked[0])
            others = tuple((int(k), float(p[k])) for k in ranked[1:3] if p[k] >= ALTERNATIVE)
            halves.append(HalfReading(pips, (float(c[0]), float(c[1])), float(p[pips]), others))
        out.append(TileDetection(as_tuple, "up", b.score, (halves[0], halves[1])))
    return out


# A reader that knows backs and gives each half of a box taken for a back at least this probability of
# being a face (some count of pips, not "back" nor "no tile") makes it a face; its pips may still be
# unsure, and then the players are asked.  Lower, a real back becomes a face (docs/experiments.md,
# "FACE_ON_A_BACK and SHOWS_PIPS").
FACE_ON_A_BACK = 0.7
# A back shows no pips: a half read as one to six pips at least this likely is on a face, whatever the
# other half looks like (a [1|0] with an engraved divider: the blank half passes for a back).  No back
# in the held-out splits or the real photos reaches it (docs/experiments.md, same section).
SHOWS_PIPS = 0.7


# A highlight (a lamp on glossy tiles) can wash a face's pips out until the tile looks like a back.  A box
# about to be taken for a back whose crop is blown out (grey BLOWN or more) over WASHED_OUT of its area
# or more, whose reader reads neither half as a back at SURE_BACK, and a half rather as pips than no tile, is a face read with no
# count instead (both halves at WASHED_CONFIDENCE at most, below UNREAD): the players are asked.  Measured
# on held-out images with a synthetic highlight laid over one tile (benchmarks/evaluate_highlight.py):
# the faces taken silently for backs were mostly detector-class backs the reader was unsure of; the held-out
# backs the reader is unsure of are seldom blown out.  A tile blown out wholly, read as a back by both models,
# shows nothing to tell the two apart, and stays a back.
WASHED_OUT = 0.5
SURE_BACK = 0.7
WASHED_CONFIDENCE = 0.1


def _some_pips_left(p_first: np.ndarray, p_second: np.ndarray) -> bool:
    """Whether the reader reads neither half as a back surely (both under :data:`SURE_BACK`), and a half
    rather as some count of pips than as no tile."""
    return (all(p[BACK] < SURE_BACK for p in (p_first, p_second))
            and any(float(p[:NOT_A_HALF].sum()) > p[NOT_A_HALF] for p in (p_first, p_second)))


def washed_out(picture: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the tile at ``corners`` is blown out (:data:`BLOWN`) over :data:`WASHED_OUT` of its area or more."""
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture
    crop, _ = rectify(grey, np.asarray(corners, np.float64))
    return float((crop >= BLOWN).mean()) >= WASHED_OUT


def _face_on_a_back(p_first: np.ndarray, p_second: np.ndarray, knows_backs: bool) -> bool:
    """Whether a box the detector took for a back shows a face.  A reader that knows backs says so by
    the probability of pips on both halves (:data:`FACE_ON_A_BACK`), or of one to six pips on one
    (:data:`SHOWS_PIPS`); an older one, which has never seen a back, only by reading one or more pips
    surely (none of the held-out splits' 828 backs read so)."""
    if knows_backs:
        on_both = all(float(p[:NOT_A_HALF].sum()) >= FACE_ON_A_BACK for p in (p_first, p_second))
        return on_both or any(float(p[1:NOT_A_HALF].max()) >= SHOWS_PIPS for p in (p_first, p_second))
    pips = [int(np.argmax(p[:NOT_A_HALF])) for p in (p_first, p_second)]
    certain = all(p[k] >= CERTAIN and p[NOT_A_HALF] < 0.5 for p, k in zip((p_first, p_second), pips))
    return certain and sum(pips) >= 1
