"""Drawing the spinner graph over the image: joins, spinners, free points, scoring ends, and the open
ends the players are asked to look at."""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

from scorer.layout.joins import Layout, _geom
from scorer.rules import Board
from scorer.vision.annotate import annotate
from scorer.vision.tile_detection import TileDetection


UNSEEN_END = (255, 0, 255)


def annotate_board(image: np.ndarray, detections: Sequence[TileDetection], layout: Layout, board: Board,
                   table_to_image: Callable[[np.ndarray], np.ndarray] | None = None,
                   unseen_ends: Iterable[tuple[float, float]] = ()) -> np.ndarray:
    """``table_to_image``: where the layout was reconstructed in table mm, the profile's mapping back.
    ``unseen_ends``: image points where the layout may go on unseen (``BoardReading.unseen_ends``),
    marked with a question mark."""
    out = annotate(image, detections)
    scale = max(0.4, min(out.shape[:2]) / 900)

    def to_image(p: np.ndarray) -> tuple[int, int]:
        if table_to_image is not None:
            p = np.asarray(table_to_image(np.asarray(p, np.float64).reshape(1, 2))).reshape(2)
        return int(round(p[0])), int(round(p[1]))

    index = {layout.tiles[i].tile: i for i in layout.component}
    centres = {t: _geom(layout.tiles[i]).center for t, i in index.items()}
    for j in board.joins:
        if j.tile in centres and j.new_tile in centres:
            cv2.line(out, to_image(centres[j.tile]), to_image(centres[j.new_tile]), (255, 200, 0), 2, cv2.LINE_AA)
    for s in board.spinners:
        if s in centres:
            cv2.circle(out, to_image(centres[s]), 9, (0, 140, 255), 2, cv2.LINE_AA)
    scoring = {e.tile for e in board.scoring_ends()}
    for t in scoring:
        if t in centres:
            cv2.circle(out, to_image(centres[t]), 5, (0, 0, 255), -1, cv2.LINE_AA)
    for x, y in unseen_ends:  # image pixels already: found in the image itself
        at = (int(round(x)), int(round(y)))
        cv2.circle(out, at, max(6, int(14 * scale)), UNSEEN_END, max(1, int(2 * scale)), cv2.LINE_AA)
        cv2.putText(out, "?", (at[0] - int(6 * scale), at[1] + int(7 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6 * scale, UNSEEN_END, max(1, int(2 * scale)), cv2.LINE_AA)
    text = f"sum {board.end_sum()}" + (f" = {board.points()} points" if board.points() else "")
    cv2.putText(out, text, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(out, text, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 255, 255), 2, cv2.LINE_AA)
    return out
