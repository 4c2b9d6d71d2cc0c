"""A plain box taken for a back may be the double blank face up: where nothing else on the table looks
like it as a back and it has the colour of the set's faces, the players are asked (:func:`blank_or_back`)."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from scorer.vision.geometry import half_centers, rectify
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
