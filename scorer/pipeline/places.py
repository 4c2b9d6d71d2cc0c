"""Whether a place on the table looks as it did: the evidence that a tile is still where it lay.

The detector may miss a tile in one still state and find it in the next; the picture at the
tile's place tells the two cases apart from a tile really taken away.  Pictures are compared by
zero-mean normalised correlation, which a change of exposure (even to saturation) leaves alone --
and, since a faint picture correlates with nothing, by how far apart they are at each end of the
place: a change of a grey level or two may be the light's.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

# How unlike (1 - correlation) a place must look to have changed.
CHANGED = 0.5
# A change whose picture differs by less than this (RMS, grey levels, once each patch's own mean is
# taken away) is faint: it may be the light's -- a faint back on a pale table fades into saturation as
# the camera brightens, and a faint picture correlates with nothing, yet nothing was taken.
FAINT = 3.0
# A difference below this is no change at all (the camera's noise, after the blur of table_grey).
NOISE = 1.0
# How much the inside of a tile's place may change its shade (a share) before it counts as changed.
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
    """Whether the tile's place (grown by ``scale``) looks plainly different in ``now`` than in
    ``before`` (see :func:`change_at`)."""
    return change_at(before, now, corners, scale) > FAINT


def change_at(before: np.ndarray, now: np.ndarray, corners: np.ndarray, scale: float,
              others: Sequence[np.ndarray] = ()) -> float:
    """How much the tile's place (grown by ``scale``) changed between the pictures (RMS, grey
    levels; 0 where it looks the same), at the end of it that changed least: a tile taken away
    changes its place from end to end, where the edge or shadow of a neighbour taken away reaches
    into one end only.  ``others``: the places of tiles lying beside it, left out of the comparison
    where they are not this tile's own (backs in a boneyard lie a few pixels apart: the grown place
    reaches into them)."""
    box = place_box(corners, now.shape, scale)
    if box is None:
        return 0.0
    x0, y0, x1, y1 = box
    a, b = before[y0:y1, x0:x1], now[y0:y1, x0:x1]
    keep = np.full(a.shape[:2], 255, np.uint8)
    if len(others):
        cv2.fillPoly(keep, [np.round(np.asarray(o, np.float64) - (x0, y0)).astype(np.int32) for o in others], 0)
        cv2.fillPoly(keep, [np.round(np.asarray(corners, np.float64) - (x0, y0)).astype(np.int32)], 255)
    place = keep > 0
    if int(place.sum()) < 9 or unlike(a[place], b[place]) <= CHANGED:
        return 0.0
    c = np.asarray(corners, np.float64)
    axis = max((c[1] - c[0], c[2] - c[1]), key=lambda v: float(np.hypot(*v)))
    ys, xs = np.mgrid[y0:y1, x0:x1]
    along = (xs - c[:, 0].mean()) * axis[0] + (ys - c[:, 1].mean()) * axis[1]
    return min(_difference(a[end], b[end]) for end in (place & (along < 0), place & (along >= 0)))


def contrast_kept(before: np.ndarray, now: np.ndarray, corners: np.ndarray, scale: float) -> float | None:
    """How much of its contrast the place kept (the spread of its grey now over before): near 1 for
    a tile still seen under steady light, less where the picture washes out."""
    box = place_box(corners, now.shape, scale)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    spread = float(before[y0:y1, x0:x1].std())
    return float(now[y0:y1, x0:x1].std()) / spread if spread > FAINT else None


def _difference(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two pictures of one place are (RMS, grey levels), each one's own mean taken away
    (the light's even change is none)."""
    if a.size == 0:
        return 0.0
    difference = (a - a.mean()) - (b - b.mean())
    return float(np.sqrt(np.mean(difference * difference)))


def table_colour(image: np.ndarray) -> np.ndarray:
    """The frame in colour, lightly blurred: for a tile's shade, which grey alone can miss (a pale
    yellow back on a pink cloth are one grey)."""
    return cv2.GaussianBlur(image, (0, 0), 1.5)


def _sums(picture: np.ndarray, box: tuple[int, int, int, int]) -> tuple[np.ndarray, int]:
    x0, y0, x1, y1 = box
    patch = picture[y0:y1, x0:x1].reshape((y1 - y0) * (x1 - x0), -1).astype(np.float64)
    return patch.sum(0), len(patch)


def _inside_and_ring(picture: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The mean colour inside a tile's place, and of the ring round it (per channel)."""
    boxes = [place_box(corners, picture.shape, scale) for scale in (0.7, 1.1, 1.8)]
    if any(b is None for b in boxes):
        return None
    inner, inner_n = _sums(picture, boxes[0])  # type: ignore[arg-type]
    whole, whole_n = _sums(picture, boxes[1])  # type: ignore[arg-type]
    outer, outer_n = _sums(picture, boxes[2])  # type: ignore[arg-type]
    if outer_n <= whole_n:
        return None  # at the frame's edge: no ring to compare with
    return inner / inner_n, (outer - whole) / (outer_n - whole_n)


def _shade(inside: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """The colour inside against the ring: a shade that the camera's exposure and white balance,
    even uneven over the frame, leave alone.  A dim channel (the blue of a brown table) says
    little and divides badly: left out (NaN)."""
    return np.where(ring >= 0.25 * ring.max(), inside / np.maximum(ring, 1.0), np.nan)


def exposure(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """How much lighter the whole frame got, per channel (the ratio of medians over a sparse grid)."""
    def medians(picture: np.ndarray) -> np.ndarray:
        values: np.ndarray = np.median(picture[::8, ::8].reshape(-1, picture.shape[2] if picture.ndim == 3 else 1), axis=0).astype(np.float64)
        return values

    ratio: np.ndarray = medians(now) / np.maximum(medians(before), 1.0)
    return ratio


def shifted(before: np.ndarray, now: np.ndarray, corners: np.ndarray, ratio: np.ndarray) -> bool:
    """Whether the inside of the tile's place changed its shade, in any colour: a plain tile back
    taken off a table of another shade.  (The correlation in :func:`changed` can miss that where
    the picture round the place is made of neighbouring tiles.)  Both against the ring round it
    (exposure may be uneven over the frame) and against the whole frame's exposure (``ratio``, from
    :func:`exposure`; the ring may hold a neighbouring back that was taken) -- either alone is fooled."""
    seen_before, seen_now = _inside_and_ring(before, corners), _inside_and_ring(now, corners)
    if seen_before is None or seen_now is None:
        return False
    was, is_now = _shade(*seen_before), _shade(*seen_now)
    # Relative: a white back on a dark table is several times its ring, and a little light moves that.
    against_ring = np.abs(is_now - was) / np.maximum(np.maximum(was, is_now), 1.0)
    inside_was = seen_before[0] * ratio
    against_frame = np.abs(seen_now[0] - inside_was) / max(float(inside_was.mean()), 1.0)
    return bool(np.nanmax(against_ring, initial=0.0) > SHIFTED and against_frame.max() > SHIFTED)


def shift_picture(picture: np.ndarray, shift: tuple[float, float]) -> np.ndarray:
    """A kept picture moved as the camera moved (its edges repeated)."""
    h, w = picture.shape[:2]
    m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
    moved: np.ndarray = cv2.warpAffine(picture, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return moved


def light_change(before: np.ndarray, now: np.ndarray, sigma: float) -> np.ndarray:
    """How the light changed from ``before`` to ``now`` at each pixel, smoothed over ``sigma`` pixels: the
    ratio of the two pictures' blurred greys (a shade or a lamp changes it smoothly, an arm does not)."""
    def grey(picture: np.ndarray) -> np.ndarray:
        flat: np.ndarray = picture.mean(axis=2) if picture.ndim == 3 else picture
        return flat

    ratio: np.ndarray = cv2.GaussianBlur(grey(now), (0, 0), sigma) / np.maximum(cv2.GaussianBlur(grey(before), (0, 0), sigma), 1.0)
    return ratio


def relit(picture: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The picture in another light (``light``: a ratio per pixel, as :func:`light_change` gives)."""
    lit: np.ndarray = picture * (light[:, :, None] if picture.ndim == 3 else light)
    return lit
