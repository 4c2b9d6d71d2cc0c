"""Whether a place on the table looks as it did: the evidence that a tile is still where it lay.

The detector may miss a tile in one still state and find it in the next; the picture at the
tile's place tells the two cases apart from a tile really taken away.  Pictures are compared by
zero-mean normalised correlation, which a change of exposure (even to saturation) leaves alone.
"""

from __future__ import annotations

import cv2
import numpy as np

# How unlike (1 - correlation) a place must look to have changed.
CHANGED = 0.5
# How much a tile's own inside may grow lighter or darker (beyond the whole frame's exposure change).
SHIFTED = 0.12


def table_grey(image: np.ndarray) -> np.ndarray:
    """The frame as compared here: grey, lightly blurred against noise."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.GaussianBlur(grey, (0, 0), 1.5).astype(np.float32)


def place_box(corners: np.ndarray, shape: tuple[int, ...], scale: float) -> tuple[int, int, int, int] | None:
    """The upright box (x0, y0, x1, y1) round a tile's corners grown by ``scale``, inside the frame."""
    c = np.asarray(corners, np.float64)
    centre = c.mean(0)
    grown = centre + (c - centre) * scale
    h, w = shape[:2]
    x0, y0 = np.floor(grown.min(0)).astype(int)
    x1, y1 = np.ceil(grown.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def unlike(before: np.ndarray, now: np.ndarray) -> float:
    """1 - the normalised correlation of two equal-sized patches: 0 for the same picture, about 1 for another."""
    a = before.ravel() - before.mean()
    b = now.ravel() - now.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    if norm < 1e-6:
        # A flat patch: the same only if both are flat.
        return 0.0 if float(np.abs(a).max(initial=0) + np.abs(b).max(initial=0)) < 1e-6 else 1.0
    return 1.0 - float((a * b).sum()) / norm


def changed(before: np.ndarray, now: np.ndarray, corners: np.ndarray, scale: float) -> bool:
    """Whether the tile's place (grown by ``scale``) looks different in ``now`` than in ``before``."""
    box = place_box(corners, now.shape, scale)
    if box is None:
        return False
    x0, y0, x1, y1 = box
    return unlike(before[y0:y1, x0:x1], now[y0:y1, x0:x1]) > CHANGED


def table_colour(image: np.ndarray) -> np.ndarray:
    """The frame in colour, lightly blurred: for a tile's shade, which grey alone can miss (a pale
    yellow back on a pink cloth are one grey)."""
    return cv2.GaussianBlur(image, (0, 0), 1.5)


def exposure(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """How much lighter the whole frame got, per colour channel (the ratio of the medians, over a
    sparse grid of pixels): undoes the camera's exposure and white balance."""
    def medians(image: np.ndarray) -> np.ndarray:
        sample = image[::8, ::8].reshape(-1, image.shape[2] if image.ndim == 3 else 1)
        return np.median(sample, axis=0).astype(np.float64)

    return medians(now) / np.maximum(medians(before), 1.0)


def shifted(before: np.ndarray, now: np.ndarray, corners: np.ndarray, ratio: np.ndarray) -> bool:
    """Whether the inside of the tile's place got lighter or darker, in any colour, than the
    frame's exposure (``ratio``, from :func:`exposure`) explains: a plain tile back taken off a
    table of another shade.  (The correlation in :func:`changed` can miss that where the picture
    round the place is made of neighbouring tiles.)"""
    box = place_box(corners, now.shape, 0.7)
    if box is None:
        return False
    x0, y0, x1, y1 = box
    channels = len(ratio)
    was = before[y0:y1, x0:x1].reshape(-1, channels).mean(0) * ratio
    is_now = now[y0:y1, x0:x1].reshape(-1, channels).mean(0)
    return bool(np.any(np.abs(is_now - was) > SHIFTED * np.maximum(was, 1.0)))
