"""A grainy picture, read smoothed too: in a dim room a webcam turns its gain up, and the picture,
brightened back, is full of speckle the size of a pip.  A large frame's grain is averaged away as it is
shrunk to the detector's input; a small webcam's (640x480) is not, and the models, trained on cleaner
frames, then find few tiles in it.  A light blur takes the speckle and leaves tiles and pips -- but
a fine felt's weave measures as grain too, and there the blur takes small tiles' pips: the detector
reads a grainy frame both ways and keeps the reading with more tiles read surely.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.input_sizes import INPUT_SIZE
from scorer.vision.obb import shrunk
from scorer.words import Words

# The frame is judged as the detector sees it at its usual input size (its long side this many px).
SEEN_AT = INPUT_SIZE
# The noise's sigma (grey levels, as seen at SEEN_AT) above which a frame is also read smoothed: the
# generator's held-out scenes reach 6-7, the independent renderer's felts 15; a real photo in a quarter of
# its light brightened back 6-11, where the models begin to lose tiles (docs/experiments.md).
GRAINY = 6.0
# ... or its share of the picture's contrast above which (a dark picture, not brightened back: the noise
# small, the tiles' contrast smaller), in a frame under twice SEEN_AT (a larger one is averaged at least
# 2x2 as it shrinks, its dark noise with it): real photos (640x480) in 0.2 of the light 0.05-0.16, in 0.15
# 0.09-0.18; the held-out scenes' dark 1280x720 frames up to 0.1, read as well as they are.
GRAINY_SHARE = 0.07
SMOOTHING = 1.3  # the blur's sigma, in px as seen at SEEN_AT
# Above this sigma the picture is too grainy to read even smoothed, and the players are told to light the
# table: between the real photos in 0.15 of the light brightened back (still read) and in 0.1 (mostly not),
# well above any held-out scene (docs/experiments.md).
TOO_GRAINY = 28.0

# Immerkaer's noise operator: the difference of two Laplacians, blind to planes and straight ramps.
_NOISE_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
# For Gaussian noise of sigma s the operator's output has sigma 6 s, and its median |value| is 0.6745 of that.
_MEDIAN_TO_SIGMA = 1.0 / (0.6745 * 6.0)


def grain(frame: np.ndarray) -> tuple[float, float]:
    """The sensor noise's sigma in grey levels, in ``frame`` shrunk to SEEN_AT, and that sigma over the
    spread of the frame's grey levels (2nd to 98th percentile).  The median, not the mean, of the
    operator: edges and texture, a few pixels of the frame, do not count as noise."""
    grey, _ = seen_grey(frame)
    response = cv2.convertScaleAbs(cv2.filter2D(grey, cv2.CV_16S, _NOISE_KERNEL)[1:-1, 1:-1])  # (|value|, at most 255)
    sigma = _percentile(response, 50) * _MEDIAN_TO_SIGMA
    return sigma, sigma / max(_percentile(grey, 98) - _percentile(grey, 2), 1.0)


def seen_grey(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """``frame`` in grey as the detector sees it at its usual input size (a larger frame shrunk to
    SEEN_AT), and the scale from the frame's pixels to these (1 for a frame no larger)."""
    scale = SEEN_AT / max(frame.shape[:2])
    if scale < 1.0:
        frame = shrunk(frame, int(round(frame.shape[1] * scale)), int(round(frame.shape[0] * scale)))
    return (cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame), min(scale, 1.0)


def grainy(frame: np.ndarray) -> bool:
    """Whether ``frame`` is worth reading smoothed too (:data:`GRAINY`, :data:`GRAINY_SHARE`)."""
    sigma, share = grain(frame)
    return sigma > GRAINY or (share > GRAINY_SHARE and max(frame.shape[:2]) < 2 * SEEN_AT)


def too_grainy(frame: np.ndarray) -> bool:
    """Whether ``frame`` is too grainy to be read reliably (:data:`TOO_GRAINY`)."""
    return grain(frame)[0] > TOO_GRAINY


def too_grainy_words() -> Words:
    return Words("the picture is too grainy for the tiles to be read reliably (the room is too dark for the camera): "
                 "more light on the table, please")


def _percentile(levels: np.ndarray, share: float) -> float:
    """The ``share`` percentile of 8-bit ``levels``, from their histogram (a sort of the frame costs more
    than all the rest)."""
    counts = np.cumsum(cv2.calcHist([levels], [0], None, [256], [0, 256]).ravel())
    return float(np.searchsorted(counts, counts[-1] * share / 100.0))


def smoothed(frame: np.ndarray) -> np.ndarray:
    """``frame`` with its grain blurred away (:data:`SMOOTHING`)."""
    return cv2.GaussianBlur(frame, (0, 0), SMOOTHING * max(1.0, max(frame.shape[:2]) / SEEN_AT))
