"""A picture too dark to read: a camera that does not brighten a dim room back (a fixed exposure, a phone
photo in lamplight) leaves the tiles a few grey levels above a black table, and the models then find
few of them or none -- without a word, unless the picture is judged as well as read.  Darkness alone does
not make a picture unreadable (white tiles on a black cloth in a dim room read well): it is told only
where nothing was read surely in it (:func:`scorer.layout.reading.picture_problems`).
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.grain import SEEN_AT
from scorer.vision.obb import shrunk
from scorer.words import Words

# The brightest part of a picture (grey levels, blurred as below) under which it is too dark to read where
# no face in it was read surely: the real photos in a tenth of their light, not brightened back, reach
# 17-31 (71 of 201 faces read surely; 9 photos none); in a fifth 22-53 (all read); the held-out scenes
# never come under 44 (docs/experiments.md, session 50).
TOO_DARK = 40.0
# The blur before the brightest level is taken (px at SEEN_AT): a dim sensor's noise, turned up, would
# otherwise be the brightest thing in the picture; a tile, a dozen px or more there, keeps its level.
BLUR = 2.0


def brightest(frame: np.ndarray) -> float:
    """The grey level of the brightest spot in ``frame``, as the detector sees it (shrunk to SEEN_AT),
    blurred by BLUR first."""
    scale = SEEN_AT / max(frame.shape[:2])
    if scale < 1.0:
        frame = shrunk(frame, int(round(frame.shape[1] * scale)), int(round(frame.shape[0] * scale)))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return float(cv2.GaussianBlur(grey.astype(np.float32), (0, 0), BLUR).max())


def too_dark(frame: np.ndarray) -> bool:
    """Whether ``frame``'s brightest spot is under :data:`TOO_DARK`."""
    return brightest(frame) < TOO_DARK


def too_dark_words() -> Words:
    return Words("the picture is too dark for the tiles to be read (the camera does not brighten the room's dim light): "
                 "more light on the table, please")
