"""A picture too dark to read: a camera that does not brighten a dim room back (a fixed exposure, a phone
photo in lamplight) leaves the tiles a few grey levels above the table, and the models then find few of
them or none -- without a word, unless the picture is judged as well as read.  Darkness alone does not
make a picture unreadable (white tiles on a black cloth read well): a still picture is told too dark only
where no tile, face or back, was read surely in it (:func:`scorer.layout.reading.picture_problems`); live
play, whose tiles are read again and again over a game, tells the players once that tiles may be misread
where the picture is this dark while tiles lie on the table (:func:`scorer.pipeline.unfit.camera_unfit`).
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.grain import seen_grey
from scorer.words import Words

# The brightest spot of a picture (grey levels, as the detector sees it, blurred as below) under which it
# is too dark to read where no tile in it was read surely, and live tiles may be misread: the real photos
# in a tenth of their light, not brightened back, reach 17-31 (9 of the 33 with no face read surely), in a
# fifth 22-53 (every one read); the held-out scenes never come under 44; a game dimmed to 0.15 of its
# light (15-34) loses a round's end (docs/experiments.md, sessions 50-51).
TOO_DARK = 40.0
# The blur before the brightest level is taken (px of the frame itself): a dim sensor's noise, turned up,
# would otherwise be the brightest thing in it; a tile, a dozen px or more, keeps its level.
BLUR = 2.0


def brightest(frame: np.ndarray) -> float:
    """The grey level of the brightest spot in ``frame`` as the detector sees it (shrunk to its input
    size), blurred first by BLUR px of the frame."""
    grey, scale = seen_grey(frame)
    return float(cv2.GaussianBlur(grey.astype(np.float32), (0, 0), BLUR / scale).max())


def too_dark(frame: np.ndarray) -> bool:
    """Whether ``frame``'s brightest spot is under :data:`TOO_DARK`."""
    return brightest(frame) < TOO_DARK


def too_dark_to_trust_words() -> Words:
    # (Live play: tiles lie on the table, and what is read of them in such a picture may be wrong -- or right.)
    return Words("the picture is very dark: tiles may be misread -- more light on the table, please")


def too_dark_words() -> Words:
    # (An empty black cloth under a fixed exposure is dark too: the words say what is known, not why.)
    return Words("the picture is too dark: no tile in it could be read surely -- if tiles lie there, more light on "
                 "the table, please")
