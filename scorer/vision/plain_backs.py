"""A plain box taken for a back may be a face: the double blank, where nothing else on the table looks
like it as a back and it has the colour of the set's faces (:func:`blank_or_back`); any face, where it
lies in the layout (:func:`laid_backs_as_faces`), or where no face in the picture is read surely and it
has their colour (:func:`backs_maybe_faces`).  The players are asked."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from scorer.vision.geometry import half_centers, long_side, rectify
from scorer.vision.meetings import Meeting, TileAxes, meetings, off_square, tile_axes
from scorer.vision.tile_detection import HalfReading, TileDetection

# Colours are a box's median in Lab (OpenCV's 8-bit scale), over the middle of the tile.
MIDDLE = 0.75
# Another box taken for a back within this distance in colour: the set's backs look like this one.
LIKE_A_BACK = 15.0
# A box within this distance of the median colour of the faces read surely has the faces' colour
# (both chosen on the held-out splits' boxes taken for backs; docs/experiments.md tells how).
FACES_COLOUR = 5.0
# The double blank read so: as likely a back (below CERTAIN, so it is asked about).
BLANK_OR_BACK = 0.5
# A box lies as a tile laid against another would where it is within LAID_FIT tile widths of the spot
# (CROSSWISE_FIT at a double's long side: a double laid crosswise sits centred on the end it takes) and
# its long axis within LAID_SQUARE degrees of parallel or square to the other's: nearly all hand-laid
# joins of the real photos, none of the held-out backs beside a layout (docs/experiments.md).
LAID_FIT = 0.3
CROSSWISE_FIT = 0.25
LAID_SQUARE = 7.0
# A tile laid against another lies with its centre a tile length from the other's or nearer (in line;
# crosswise, less); farther than this many lengths, a back is not looked at.
NEAR = 1.5


def blank_or_back(image: np.ndarray, detections: Sequence[TileDetection]) -> list[TileDetection]:
    """``detections`` with each lone plain back turned into the double blank read unsurely.

    A double blank whose divider hardly shows (a faint engraving, a highlight) is a plain box like a
    back, and the detector and the reader may both take it for one -- a face-up tile taken silently
    for a back.  Backs come many alike (the boneyard, hands laid down); a box taken for a back that
    no other such box looks like, in the colour of the faces read surely, and in a frame where the
    double blank is not read surely elsewhere (a set holds one), is read as [0|0] unsurely."""
    backs = [k for k, d in enumerate(detections) if d.face == "down"]
    faces = [d for d in detections if d.face == "up" and d.certain]
    if not backs or not faces or any(d.pips == (0, 0) for d in faces):
        return list(detections)
    colours = dict(zip(backs, _colours(image, [detections[k].corners for k in backs])))
    lone = [k for k in backs if not any(j != k and np.linalg.norm(colours[j] - colours[k]) <= LIKE_A_BACK for j in backs)]
    if not lone:
        return list(detections)
    faces_colour = np.median(_colours(image, [d.corners for d in faces]), axis=0)
    out = list(detections)
    for k in lone:
        if np.linalg.norm(colours[k] - faces_colour) <= FACES_COLOUR:
            out[k] = _blank_double_unsure(detections[k])
    return out


def backs_maybe_faces(image: np.ndarray, detections: Sequence[TileDetection]) -> list[int]:
    """The boxes taken for backs that may be faces whose pips do not show: in a picture where faces were
    found but not one is read surely (pips washed out by a lamp, a pale print), a box in the faces' colour
    gives no ground to call it a back rather than such a face (a set's backs are often the faces' colour).
    Their indices in ``detections``; the players are told (:func:`scorer.layout.reading.read_board`)."""
    faces = [d for d in detections if d.face == "up"]
    backs = [k for k, d in enumerate(detections) if d.face == "down"]
    if not faces or not backs or any(d.certain for d in faces):
        return []
    faces_colour = np.median(_colours(image, [d.corners for d in faces]), axis=0)
    colours = _colours(image, [detections[k].corners for k in backs])
    return [k for k, colour in zip(backs, colours) if np.linalg.norm(colour - faces_colour) <= FACES_COLOUR]


def laid_backs_as_faces(detections: Sequence[TileDetection]) -> list[TileDetection]:
    """``detections`` with each box taken for a back that lies in the layout turned into a face read
    with no count: laid (:func:`_laid`) against a face-up tile that is itself laid against another, or
    against two face-up tiles.  Tiles are played face up: a box in the layout that looks like a back is
    most likely a face whose pips a highlight or a pale print hides, and the players are asked rather
    than the tile taken silently for one in the boneyard.  (A face lying alone is not enough: loose
    tiles side by side often lie as a tile and a crosswise double would.)"""
    backs = [k for k, d in enumerate(detections) if d.face == "down"]
    faces = [k for k, d in enumerate(detections) if d.face == "up" and d.pips is not None]
    if backs and len(faces) >= 2:
        # (Only the backs within reach of a face: most lie well away, in the boneyard.)
        centres = np.array([detections[k].center for k in faces])
        reach = NEAR * float(np.median([long_side(detections[k].corners) for k in faces]))
        distances = np.array([np.hypot(*(centres - detections[k].center).T) for k in backs]).reshape(len(backs), len(faces))
        near = distances.min(1) <= reach
        backs = [k for k, n in zip(backs, near) if n]
        # ... and the faces those may lie against, and the faces those may lie against in turn.
        faces = [k for k, d in zip(faces, distances[near].min(0, initial=np.inf)) if d <= 2 * reach]
    if not backs or len(faces) < 2:
        return list(detections)
    # Each box as the tile it may be: a face read surely as what it shows, any other (a back, a face
    # read unsurely: a misread count may make a double of it, or not) as a double and as a non-double.
    tiles: list[_Laid] = []
    for k in faces + backs:
        d = detections[k]
        axes = tile_axes(d.corners)
        if d.face == "up" and d.certain:
            tiles.append(_Laid(k, axes, d.pips[0] == d.pips[1]))  # type: ignore[index]
        else:
            tiles += [_Laid(k, axes, True), _Laid(k, axes, False)]
    width = float(np.median([t.axes.width for t in tiles]))
    in_layout: set[int] = set()
    touched: dict[int, set[int]] = {}  # back -> the faces it lies against
    for m in meetings([(t.axes, t.double) for t in tiles], width, LAID_FIT):
        a, b = tiles[m.a].box, tiles[m.b].box
        if a == b or not _laid(m, tiles):
            continue
        up = [detections[k].face == "up" for k in (a, b)]
        if all(up):
            in_layout |= {a, b}
        elif any(up):
            back, face = (b, a) if up[0] else (a, b)
            touched.setdefault(back, set()).add(face)
    out = list(detections)
    for k in [k for k, touching in touched.items() if touching & in_layout or len(touching) >= 2]:
        halves = tuple(HalfReading.no_count((float(c[0]), float(c[1]))) for c in half_centers(np.asarray(detections[k].corners)))
        out[k] = TileDetection(detections[k].corners, "up", detections[k].confidence, (halves[0], halves[1]))
    return out


@dataclass(frozen=True, slots=True)
class _Laid:
    box: int  # its index among the detections
    axes: TileAxes
    double: bool


def _laid(m: Meeting, tiles: Sequence[_Laid]) -> bool:
    """Whether the two tiles of meeting ``m`` lie as a tile laid at the other's end or side would:
    close (:data:`LAID_FIT`, :data:`CROSSWISE_FIT`), square (:data:`LAID_SQUARE`), going on straight
    from the end it is laid at or crosswise to it -- a tile turned a corner there is far likelier one
    lying loose by another than a line turning -- and not both doubles (each shows one value, and a set
    holds each double once; a box that may or may not be a double is tried both ways)."""
    port, receiver = tiles[m.a], tiles[m.b]
    if off_square(port.axes.axis, receiver.axes.axis) > LAID_SQUARE:
        return False
    crosswise = bool({m.side_a, m.side_b} & {"long+", "long-"})
    if m.error > (CROSSWISE_FIT if crosswise else LAID_FIT):
        return False
    direction = port.axes.normal if m.side_a in ("long+", "long-") else port.axes.axis
    if m.side_b in ("half0", "half1") and abs(float(receiver.axes.axis @ direction)) < math.cos(math.radians(LAID_SQUARE)):
        return False
    return not (port.double and receiver.double)


def _colours(image: np.ndarray, boxes: Sequence[Sequence[Sequence[float]]]) -> np.ndarray:
    """Each box's median Lab colour over the middle of the tile upright ([N, 3])."""
    crops = []
    for corners in boxes:
        c = np.asarray(corners, np.float64)
        middle = c.mean(0)
        crop, _ = rectify(image, (c - middle) * MIDDLE + middle)
        crops.append(crop if crop.ndim == 3 else cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR))  # (grey: its grey as the lightness)
    lab = cv2.cvtColor(np.concatenate(crops), cv2.COLOR_BGR2LAB)  # (the crops one above the other: one conversion)
    colours: np.ndarray = np.median(lab.reshape(len(crops), -1, 3), axis=1).astype(np.float64)
    return colours


def _blank_double_unsure(d: TileDetection) -> TileDetection:
    first, second = half_centers(np.asarray(d.corners))
    halves = tuple(HalfReading(0, (float(c[0]), float(c[1])), BLANK_OR_BACK) for c in (first, second))
    return TileDetection(d.corners, "up", d.confidence, (halves[0], halves[1]), maybe_back=True)
