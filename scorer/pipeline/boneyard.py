"""The boneyard followed tile by tile: a draw is a face-down tile gone from where it lay.

Counting face-down detections frame by frame is not enough: a tile the detector misses
in one state and finds in the next would look like a draw and then like a tile put
back.  Instead every face-down tile seen this round keeps its place (a *slot*), and a
slot is emptied only when the tile is neither detected there now **and** the picture
at that place changed since the last state (a hand took it).  A tile the detector
misses on an unchanged table is still there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from scorer.vision.geometry import polygon_iou

# How unlike its place must look for a tile to be gone (or to have come): 1 - correlation.
CHANGED = 0.5


def table_grey(image: np.ndarray) -> np.ndarray:
    """The frame as compared here: grey, lightly blurred against noise."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.GaussianBlur(grey, (0, 0), 1.5).astype(np.float32)


@dataclass
class Boneyard:
    slots: list[np.ndarray] = field(default_factory=list)  # corners (4, 2) of each face-down tile on the table
    _grey: np.ndarray | None = field(default=None, repr=False)  # the picture the slots were last checked in

    def __len__(self) -> int:
        return len(self.slots)

    def reset(self, tiles: Sequence[np.ndarray], grey: np.ndarray) -> None:
        """A new round: the boneyard as dealt."""
        self.slots = []
        for c in tiles:
            if not any(_same_place(c, s) for s in self.slots):
                self.slots.append(np.asarray(c, np.float64))
        self._grey = grey

    def update(self, tiles: Sequence[np.ndarray], grey: np.ndarray) -> int:
        """The face-down tiles seen in a new still state; returns how many were drawn since the last one."""
        if self._grey is None or self._grey.shape != grey.shape:
            self.reset(tiles, grey)
            return 0
        before = self._grey
        ratio = float(np.clip(np.median(grey) / max(float(np.median(before)), 1.0), 0.5, 2.0))
        tiles = [np.asarray(c, np.float64) for c in tiles]
        kept, removed = [], []
        unmatched = list(range(len(tiles)))
        for slot in self.slots:
            match = next((k for k in unmatched if _same_place(tiles[k], slot)), None)
            if match is not None:
                unmatched.remove(match)
                kept.append(tiles[match])  # the tile where it is seen now (it may have been nudged)
            elif _change(before, grey, ratio, slot) > CHANGED:
                removed.append(slot)  # not seen, and its place looks different: taken
            else:
                kept.append(slot)  # not seen, but nothing changed there: the detector missed it
        # A tile seen where nothing was before, on a changed spot, is one nudged from its slot.
        moved = sum(1 for k in unmatched if _change(before, grey, ratio, tiles[k]) > CHANGED)
        self.slots = kept + [tiles[k] for k in unmatched]
        self._grey = grey
        return max(0, _distinct(removed) - moved)


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Two boxes on one tile: centres closer than half the shorter side."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    short = min(np.linalg.norm(a[1] - a[0]), np.linalg.norm(a[2] - a[1]), np.linalg.norm(b[1] - b[0]), np.linalg.norm(b[2] - b[1]))
    return float(np.linalg.norm(a.mean(0) - b.mean(0))) < 0.5 * short


def _distinct(boxes: list[np.ndarray]) -> int:
    """How many tiles the boxes cover: a box that straddled two touching tiles overlaps the box of
    one of them and is not a tile of its own."""
    groups: list[list[np.ndarray]] = []
    for b in boxes:
        joined = [g for g in groups if any(polygon_iou(b, o) > 0.2 for o in g)]
        merged = [b] + [o for g in joined for o in g]
        groups = [g for g in groups if not any(g is j for j in joined)] + [merged]
    return len(groups)


def _change(before: np.ndarray, now: np.ndarray, ratio: float, corners: np.ndarray) -> float:
    """How unlike the tile's place (and a margin round it) looks now: 1 - the zero-mean normalised
    correlation of the two pictures, which a change of exposure (even to saturation) leaves low."""
    h, w = now.shape
    centre = corners.mean(0)
    big = centre + (corners - centre) * 1.3
    x0, y0 = np.floor(big.min(0)).astype(int)
    x1, y1 = np.ceil(big.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0.0
    a = before[y0:y1, x0:x1].ravel() - before[y0:y1, x0:x1].mean()
    b = now[y0:y1, x0:x1].ravel() - now[y0:y1, x0:x1].mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    if norm < 1e-6:
        return 0.0 if float(np.abs(a).max(initial=0) + np.abs(b).max(initial=0)) < 1e-6 else 1.0
    return 1.0 - float((a * b).sum()) / norm
