"""Whether a spot of the image shows the bare table: around an open end of the layout, a spot that
does not look like the table nearby may hide a tile (under an arm, a hand, or missed by the detector);
a box the detector weakly takes for a back may be nothing but table (:func:`bare_table`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from scorer.vision.geometry import long_side

# A pixel looks like the table where each Lab channel lies within this many robust deviations (1.4826
# MAD) of the table nearby, plus a few grey levels for a very even table.
TABLE_DEVIATIONS = 3.0
TABLE_SLACK = 6.0
TABLE_SAMPLE = 4000  # pixels of table, at most, to learn its look from
# A spot less than this share of whose part in the picture is off the tiles seen is taken as bare:
# tiles known lie there.
KNOWN = 0.3


@dataclass(frozen=True, slots=True)
class SpotLook:
    """What a spot of the image shows: how much of it lies in the picture, and how much of that part
    looks like the bare table around it (1 where it lies mostly on tiles seen; 0 where nothing of it
    is in the picture, or too little table lies around it to know the table's look)."""

    in_picture: float
    bare: float


def look_at_spots(image: np.ndarray, boxes: Sequence[np.ndarray], squares: Sequence[np.ndarray], reach: float) -> list[SpotLook]:
    """For each square (four corners, image pixels), what it shows (:class:`SpotLook`).  Pixels within
    ``reach`` of the square, outside every box in ``boxes`` (the tiles seen), give the table's look --
    unless that look is unlike the table round all the tiles (an arm filling the window round the
    spot), which is then taken instead.  The square's own pixels on a tile seen are left out (that
    tile is known)."""
    if not squares:
        return []
    h, w = image.shape[:2]
    side = float(np.median([np.linalg.norm(np.asarray(sq, np.float64)[1] - np.asarray(sq, np.float64)[0]) for sq in squares]))
    # A margin round the tiles keeps their shadows and edges out of the table's look.
    near = np.ones((2 * max(1, round(side / 6)) + 1,) * 2, np.uint8)
    tiles = np.zeros((h, w), np.uint8)
    for b in boxes:
        cv2.fillConvexPoly(tiles, np.round(np.asarray(b, np.float64)).astype(np.int32), 1)
    table = _table_round(image, tiles, reach, near.shape[0] // 2)
    out = []
    for sq in squares:
        sq = np.asarray(sq, np.float64)
        xs, ys = _pixels(sq)
        total = len(xs)
        seen = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        if not seen.any():
            out.append(SpotLook(0.0, 0.0))
            continue
        in_picture = float(seen.sum()) / total
        # The window the table's look is taken from: the spot and ``reach`` round it, in the picture.
        x0, y0 = np.maximum(np.floor(sq.min(0) - reach).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(sq.max(0) + reach).astype(int), (w, h))
        covered = cv2.dilate(tiles[y0:y1, x0:x1], near)
        xs, ys = xs[seen] - x0, ys[seen] - y0  # in the window now
        on_tiles = int(covered[ys, xs].sum())
        if len(xs) - on_tiles < KNOWN * len(xs):
            out.append(SpotLook(in_picture, 1.0))
            continue
        spot = np.zeros_like(covered)
        spot[ys, xs] = 1
        lab = _lab(image[y0:y1, x0:x1])
        around = lab[(covered == 0) & (cv2.dilate(spot, near) == 0)]
        if len(around) < total:
            out.append(SpotLook(in_picture, 0.0))  # too little bare table nearby to know its look
            continue
        median, limit = _look(around)
        if table is not None and not np.all(np.abs(median - table[0]) <= table[1]):
            median, limit = table
        elif table is not None:
            # The table nearby varies no more than the table round all the tiles: an arm or a hand over
            # much of the window round the spot would otherwise widen its look to take the arm in.
            limit = np.minimum(limit, table[1])
        free = covered[ys, xs] == 0
        bare = int(np.all(np.abs(lab[ys[free], xs[free]] - median) <= limit, axis=1).sum())
        out.append(SpotLook(in_picture, bare / int(free.sum())))
    return out


def _table_round(image: np.ndarray, tiles: np.ndarray, reach: float, margin: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The look of the table within ``reach`` of any tile (``tiles``: their mask), ``margin`` pixels
    clear of them; read from every few pixels (a table's look needs no more detail)."""
    step = max(1, max(image.shape[:2]) // 400)
    sub, sub_tiles = image[::step, ::step], tiles[::step, ::step]
    reach_px, margin_px = max(1, int(reach / step)), max(1, round(margin / step))
    around = (cv2.dilate(sub_tiles, np.ones((2 * reach_px + 1,) * 2, np.uint8)) == 1) & (
        cv2.dilate(sub_tiles, np.ones((2 * margin_px + 1,) * 2, np.uint8)) == 0)
    return _look(_lab(sub)[around]) if around.any() else None


def _lab(image: np.ndarray) -> np.ndarray:
    return (cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if image.ndim == 3 else image[..., None]).astype(np.float32)


def _look(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A table's look from its pixels (Lab): the median, and how far from it a pixel of it may lie."""
    pixels = pixels[:: max(1, len(pixels) // TABLE_SAMPLE)]  # (the table's look needs no more)
    median = np.median(pixels, axis=0)
    return median, TABLE_DEVIATIONS * 1.4826 * np.median(np.abs(pixels - median), axis=0) + TABLE_SLACK


def _pixels(square: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The x and y of every pixel a square covers, in image coordinates, inside the image or not."""
    lo = np.floor(square.min(0)).astype(int)
    size = np.ceil(square.max(0)).astype(int) - lo + 1
    canvas = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(canvas, np.round(square - lo).astype(np.int32), 1)
    ys, xs = np.nonzero(canvas)
    return xs + lo[0], ys + lo[1]


# The detector's weak backs (a score under WEAK_BACK) include boxes on bare table beside a real tile.  A box
# whose inside is the table's grey around it (medians within PLAIN_GREYS) and whose outline shows no more
# edge than its inside (under EDGE_RATIO times) is none: every real tile, back or face, has a rim, a shadow
# or a body of its own (how the bounds were chosen: docs/experiments.md).
WEAK_BACK = 0.5
PLAIN_GREYS = 3.0
EDGE_RATIO = 1.2
CLIPPED = 8  # a patch this dark or darker (or this bright, BLOWN) shows nothing either way
BLOWN = 250  # a grey level this high is blown out (the detector's washed-out faces too)
RING_FREE = 0.5  # the share of the ring that must lie off the other tiles' boxes (a boneyard's backs are ringed by backs)


def bare_table(picture: np.ndarray, corners: np.ndarray, others: Sequence[np.ndarray] = ()) -> bool:
    """Whether the box at ``corners`` shows only the table around it (:data:`PLAIN_GREYS`, :data:`EDGE_RATIO`):
    its inside (the box shrunk to 0.8) against a ring round it (1.08 to 1.35 times it) that lies wholly in
    the picture and mostly (:data:`RING_FREE`) off the ``others`` (the boxes of the tiles read beside it: a
    back in a packed boneyard is ringed by backs like it)."""
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture
    quad = np.asarray(corners, np.float64)
    centre = quad.mean(axis=0)
    outer = (quad - centre) * 1.35 + centre
    if outer.min() < 0 or (outer[:, 0] >= grey.shape[1]).any() or (outer[:, 1] >= grey.shape[0]).any():
        return False  # (cut by the picture's edge: its ring is not all seen)
    x0, y0 = np.floor(outer.min(axis=0)).astype(int)
    x1, y1 = np.minimum(np.ceil(outer.max(axis=0)).astype(int) + 1, (grey.shape[1], grey.shape[0]))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    patch = grey[y0:y1, x0:x1]

    def mask(scale: float, outline: int = 0) -> np.ndarray:
        m = np.zeros(patch.shape, np.uint8)
        polygon = [np.round((quad - centre) * scale + centre - (x0, y0)).astype(np.int32)]
        if outline:
            cv2.polylines(m, polygon, True, 1, thickness=outline)
        else:
            cv2.fillPoly(m, polygon, 1)
        return m > 0

    inside, ring = mask(0.8), mask(1.35) & ~mask(1.08)
    if not inside.any() or not ring.any():
        return False
    if others:
        tiles = np.zeros(patch.shape, np.uint8)
        for other in others:  # (one at a time: polygons filled together leave their overlaps as holes)
            cv2.fillPoly(tiles, [np.round(np.asarray(other, np.float64) - (x0, y0)).astype(np.int32)], 1)
        if float((tiles[ring] > 0).mean()) > 1 - RING_FREE:
            return False
    level = float(np.median(patch[inside]))
    if not CLIPPED < level < BLOWN or abs(level - float(np.median(patch[ring]))) >= PLAIN_GREYS:
        return False  # (blown out or crushed black, nothing can be told: left to the reader)
    gradient = np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1))
    width = max(2, round(0.04 * long_side(quad)))
    # (The rim looked for a little inside and outside the box too: a box a few pixels off the tile.)
    rim = max(float(np.median(gradient[mask(scale, width)])) for scale in (0.92, 1.0, 1.08))
    return rim < EDGE_RATIO * (float(np.median(gradient[inside])) + 1.0)
