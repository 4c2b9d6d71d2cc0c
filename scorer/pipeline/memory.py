"""The layout remembered: tiles already played keep their pips, and stay on the table while their place is unchanged.

A tile accepted onto the board does not change its pips, and it does not leave the table
without a hand moving it.  So where the detector now misses a played tile, or reads it
differently, but the picture at its place is as it was when the tile was last seen, the
remembered tile stands in.  A tile whose place changed (nudged, covered, taken away) is left
to the detector, and the pipeline reports what it sees.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer.pipeline.places import CHANGED, place_box, unlike
from scorer.rules import Tile
from scorer.vision.detector import TileDetection
from scorer.vision.geometry import polygon_iou

# A face-up tile is compared inside its outline, where its pips are, not over its neighbours.
INSIDE = 0.85
SAME_TILE_IOU = 0.5


@dataclass(frozen=True)
class _Remembered:
    detection: TileDetection
    box: tuple[int, int, int, int]
    patch: np.ndarray  # the grey picture inside ``box`` when the tile was last seen


class LayoutMemory:
    def __init__(self) -> None:
        self.tiles: dict[Tile, _Remembered] = {}

    def clear(self) -> None:
        self.tiles.clear()

    def remember(self, detections: list[TileDetection], on_board: set[Tile], grey: np.ndarray) -> None:
        """The board's tiles as seen in an accepted state."""
        for d in detections:
            if d.pips is None or Tile.of(*d.pips) not in on_board:
                continue
            box = place_box(np.asarray(d.corners), grey.shape, INSIDE)
            if box is not None:
                x0, y0, x1, y1 = box
                self.tiles[Tile.of(*d.pips)] = _Remembered(d, box, grey[y0:y1, x0:x1].copy())

    def _unchanged(self, r: _Remembered, grey: np.ndarray) -> bool:
        x0, y0, x1, y1 = r.box
        if grey.shape[0] < y1 or grey.shape[1] < x1:
            return False
        return unlike(r.patch, grey[y0:y1, x0:x1]) <= CHANGED

    def fill_in(self, detections: list[TileDetection], on_board: set[Tile], grey: np.ndarray) -> tuple[list[TileDetection], int, int]:
        """The layout's detections with played tiles restored where their places are unchanged.

        Returns the detections, how many readings were restored and how many missed tiles added."""
        out = list(detections)
        restored = added = 0
        for tile, r in self.tiles.items():
            if tile not in on_board or not self._unchanged(r, grey):
                continue
            here = np.asarray(r.detection.corners)
            overlapping = [k for k, d in enumerate(out) if polygon_iou(here, np.asarray(d.corners)) >= SAME_TILE_IOU]
            if any(out[k].pips is not None and Tile.of(*out[k].pips) == tile for k in overlapping):
                continue  # seen and read as it was
            if overlapping:
                for k in overlapping:
                    restored += out[k].pips is not None
                out = [d for k, d in enumerate(out) if k not in overlapping]
            else:
                added += 1
            # Elsewhere the same tile may be a misreading of another one: that one is left to the rules.
            out.append(r.detection)
        return out, restored, added
