"""Drawing what was read over the image (for `detect --annotate` and the app's overlays)."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from scorer.vision.detector import TileDetection

SURE = (60, 200, 60)
UNSURE = (0, 160, 255)
DOWN = (200, 120, 40)


def annotate(image: np.ndarray, tiles: Sequence[TileDetection]) -> np.ndarray:
    out = image.copy()
    scale = max(0.4, min(out.shape[:2]) / 900)
    for tile in tiles:
        color = DOWN if tile.face == "down" else (SURE if tile.certain else UNSURE)
        poly = np.round(np.array(tile.corners)).astype(np.int32)
        cv2.polylines(out, [poly], True, color, max(1, int(2 * scale)), cv2.LINE_AA)
        if tile.halves is None:
            continue
        for half in tile.halves:
            x, y = int(half.center[0]), int(half.center[1])
            text = str(half.pips)
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, max(1, int(2 * scale)))
            cv2.rectangle(out, (x - tw // 2 - 2, y - th // 2 - 2), (x + tw // 2 + 2, y + th // 2 + 2), (0, 0, 0), -1)
            cv2.putText(out, text, (x - tw // 2, y + th // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, color, max(1, int(2 * scale)), cv2.LINE_AA)
    return out
