"""Whether a spot of the image shows the bare table: around an open end of the layout, a spot that
does not look like the table nearby may hide a tile (under an arm, a hand, or missed by the detector)."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

# A pixel looks like the table where each Lab channel lies within this many robust deviations (1.4826
# MAD) of the table nearby, plus a few grey levels for a very even table.
TABLE_DEVIATIONS = 3.0
TABLE_SLACK = 6.0
TABLE_SAMPLE = 4000  # pixels of table, at most, to learn its look from


# A square less than this share of which is off the tiles seen is taken as bare: tiles known lie there.
KNOWN = 0.3


def bare_table_share(image: np.ndarray, boxes: Sequence[np.ndarray], squares: Sequence[np.ndarray], reach: float) -> list[float]:
    """For each square (four corners, image pixels), the share of it that looks like the table around
    it: pixels within ``reach`` of the square, outside every box in ``boxes`` (the tiles seen), give the
    table's look.  Where a square holds part of a tile seen, only the rest is judged (that tile is
    known); a square mostly on tiles seen gets 1.  Parts of a square outside the image count as not
    bare (nothing is seen there); a square with too little table around it to judge gets 0."""
    if not squares:
        return []
    h, w = image.shape[:2]
    side = float(np.median([np.linalg.norm(np.asarray(sq, np.float64)[1] - np.asarray(sq, np.float64)[0]) for sq in squares]))
    # A margin round the tiles keeps their shadows and edges out of the table's look.
    near = np.ones((2 * max(1, round(side / 6)) + 1,) * 2, np.uint8)
    tiles = np.zeros((h, w), np.uint8)
    for b in boxes:
        cv2.fillConvexPoly(tiles, np.round(np.asarray(b, np.float64)).astype(np.int32), 1)
    out = []
    for sq in squares:
        sq = np.asarray(sq, np.float64)
        x0, y0 = np.maximum(np.floor(sq.min(0) - reach).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(sq.max(0) + reach).astype(int), (w, h))
        if x1 - x0 < 2 or y1 - y0 < 2:
            out.append(0.0)  # wholly outside the picture
            continue
        covered = cv2.dilate(tiles[y0:y1, x0:x1], near)
        xs, ys = _pixels(sq)
        total = len(xs)
        seen = (xs >= x0) & (xs < x1) & (ys >= y0) & (ys < y1)
        xs, ys = xs[seen] - x0, ys[seen] - y0  # in the window now
        on_tiles = int(covered[ys, xs].sum())
        if total - on_tiles < KNOWN * total:
            out.append(1.0)
            continue
        spot = np.zeros_like(covered)
        spot[ys, xs] = 1
        window = image[y0:y1, x0:x1]
        lab = (cv2.cvtColor(window, cv2.COLOR_BGR2LAB) if window.ndim == 3 else window[..., None]).astype(np.float32)
        around = lab[(covered == 0) & (cv2.dilate(spot, near) == 0)]
        if len(around) < total:
            out.append(0.0)  # too little bare table nearby to know its look
            continue
        around = around[:: max(1, len(around) // TABLE_SAMPLE)]  # (the table's look needs no more)
        median = np.median(around, axis=0)
        limit = TABLE_DEVIATIONS * 1.4826 * np.median(np.abs(around - median), axis=0) + TABLE_SLACK
        free = covered[ys, xs] == 0
        bare = int(np.all(np.abs(lab[ys[free], xs[free]] - median) <= limit, axis=1).sum())
        out.append(bare / (total - on_tiles))
    return out


def _pixels(square: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The x and y of every pixel a square covers, in image coordinates, inside the image or not."""
    lo = np.floor(square.min(0)).astype(int)
    size = np.ceil(square.max(0)).astype(int) - lo + 1
    canvas = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(canvas, np.round(square - lo).astype(np.int32), 1)
    ys, xs = np.nonzero(canvas)
    return xs + lo[0], ys + lo[1]
