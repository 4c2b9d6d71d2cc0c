"""The layout remembered: tiles already played keep their pips, and stay on the table while their place is unchanged.

A tile accepted onto the board does not change its pips, and it does not leave the table
without a hand moving it.  So where the detector now misses a played tile, or reads it
differently, but the picture at its place is as it was when the tile was last seen, the
remembered tile stands in.  A tile whose place changed (nudged, covered, taken away) is left
to the detector, and the pipeline reports what it sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from scorer.layout import Layout
from scorer.pipeline.explain import with_pips
from scorer.pipeline.places import CHANGED, place_box, unlike
from scorer.rules import Tile
from scorer.vision.detector import HalfReading, TileDetection
from scorer.vision.geometry import polygon_iou

# A face-up tile is compared inside its outline, where its pips are, not over its neighbours.
INSIDE = 0.85
# How far (a share of the tile's width) a tile is looked for around its place: a nudged layout.
NUDGE = 0.2
SAME_TILE_IOU = 0.5
OVERLAP_IOU = 0.2


@dataclass(frozen=True)
class _Remembered:
    detection: TileDetection
    box: tuple[int, int, int, int]
    patch: np.ndarray  # the grey picture inside ``box`` when the tile was last seen


def moved(d: TileDetection, dx: float, dy: float) -> TileDetection:
    """The detection moved by (dx, dy) pixels."""
    if dx == 0 and dy == 0:
        return d
    corners = tuple((x + dx, y + dy) for x, y in d.corners)
    halves = None if d.halves is None else tuple(
        HalfReading(h.pips, (h.center[0] + dx, h.center[1] + dy), h.confidence, h.alternatives) for h in d.halves)
    return TileDetection(corners, d.face, d.confidence, halves, d.maybe_back)  # type: ignore[arg-type]


class LayoutMemory:
    def __init__(self) -> None:
        self.tiles: dict[Tile, _Remembered] = {}

    def clear(self) -> None:
        self.tiles.clear()

    def forget_all_but(self, on_board: set[Tile]) -> None:
        """Moves were withdrawn: their tiles' places are no longer the board's."""
        self.tiles = {tile: r for tile, r in self.tiles.items() if tile in on_board}

    def remember(self, detections: list[TileDetection], on_board: set[Tile], grey: np.ndarray) -> None:
        """The board's tiles as seen in an accepted state."""
        for d in detections:
            if d.pips is None or Tile.of(*d.pips) not in on_board:
                continue
            box = place_box(np.asarray(d.corners), grey.shape, INSIDE)
            if box is not None:
                x0, y0, x1, y1 = box
                self.tiles[Tile.of(*d.pips)] = _Remembered(d, box, grey[y0:y1, x0:x1].copy())

    def keep(self, tiles: list[TileDetection], layout: Layout, on_board: set[Tile], grey: np.ndarray) -> None:
        """Keep the layout's tiles for their places, as the layout read them (a half read again at a join).
        Only the joined layout's: a loose box read as a played tile (a new tile misread, a box beside
        the layout) must not move that tile's remembered place to where it is not."""
        if len(layout.tiles) == len(tiles):
            tiles = [tiles[i] if tiles[i].pips == layout.tiles[i].pips else with_pips(tiles[i], layout.tiles[i].pips)
                     for i in layout.component]
        self.remember(tiles, on_board, grey)

    def follow(self, shift: tuple[float, float]) -> None:
        """The camera moved by ``shift`` pixels: each tile is remembered where it lies now."""
        dx, dy = round(shift[0]), round(shift[1])
        self.tiles = {tile: _Remembered(moved(r.detection, dx, dy), (r.box[0] + dx, r.box[1] + dy, r.box[2] + dx, r.box[3] + dy),
                                        r.patch) for tile, r in self.tiles.items()}

    def _still_there(self, r: _Remembered, grey: np.ndarray) -> TileDetection | None:
        """The remembered tile where it lies now, if its picture is found at its place or a nudge away."""
        x0, y0, x1, y1 = r.box
        h, w = grey.shape
        if h < y1 or w < x1:
            return None
        m = max(3, int(round(NUDGE * min(x1 - x0, y1 - y0))))
        if x0 - m < 0 or y0 - m < 0 or x1 + m > w or y1 + m > h:
            return r.detection if unlike(r.patch, grey[y0:y1, x0:x1]) <= CHANGED else None
        scores = cv2.matchTemplate(grey[y0 - m : y1 + m, x0 - m : x1 + m], r.patch, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(scores)
        if 1.0 - best > CHANGED:
            return None
        return moved(r.detection, bx - m, by - m)

    def is_remembered(self, detection: TileDetection) -> bool:
        """Whether the detection is a played tile where it was last seen (its reading is settled)."""
        if detection.pips is None:
            return False
        r = self.tiles.get(Tile.of(*detection.pips))
        return r is not None and (r.detection is detection or polygon_iou(np.asarray(r.detection.corners), np.asarray(detection.corners)) >= SAME_TILE_IOU)

    def fill_in(self, detections: list[TileDetection], on_board: set[Tile], grey: np.ndarray) -> tuple[list[TileDetection], int, int]:
        """The layout's detections with played tiles restored where their places are unchanged.

        Returns the detections, how many readings were restored and how many missed tiles added."""
        out = list(detections)
        restored = added = 0
        for tile, r in self.tiles.items():
            now = self._still_there(r, grey) if tile in on_board else None
            if now is None:
                continue
            here = np.asarray(now.corners)
            # Tiles lie flat and never overlap: a box over a good part of a tile that is still there
            # is that tile, or a box straddling it and a neighbour.
            overlapping = [k for k, d in enumerate(out) if polygon_iou(here, np.asarray(d.corners)) >= OVERLAP_IOU]
            same = [k for k in overlapping if out[k].pips is not None and Tile.of(*cast(tuple[int, int], out[k].pips)) == tile
                    and polygon_iou(here, np.asarray(out[k].corners)) >= SAME_TILE_IOU]
            if same:
                # Seen and read as it was: other boxes over it straddle it and a neighbour.
                out = [d for k, d in enumerate(out) if k not in overlapping or k == same[0]]
                continue
            restored += sum(1 for k in overlapping if out[k].pips is not None)
            added += not overlapping
            # Elsewhere the same tile may be a misreading of another one: that one is left to the rules.
            out = [d for k, d in enumerate(out) if k not in overlapping] + [now]
        return out, restored, added
