"""Drawing the spinner graph over the image: joins, spinners, free points, scoring ends."""

from __future__ import annotations

from typing import Callable, Sequence

import cv2
import numpy as np

from scorer.layout.reconstruct import Layout, _geom
from scorer.rules import Board
from scorer.vision.annotate import annotate
from scorer.vision.detector import TileDetection


def annotate_board(image: np.ndarray, detections: Sequence[TileDetection], layout: Layout, board: Board,
                   table_to_image: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """``table_to_image``: where the layout was reconstructed in table mm, the profile's mapping back."""
    out = annotate(image, detections)

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
    text = f"sum {board.end_sum()}" + (f" = {board.points()} points" if board.points() else "")
    cv2.putText(out, text, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(out, text, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 255, 255), 2, cv2.LINE_AA)
    return out
