"""Drawing what was read over the image (for `detect --annotate` and the app's overlays)."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from scorer.vision.detector import TileDetection
from scorer.vision.geometry import short_side

SURE = (60, 200, 60)
UNSURE = (0, 160, 255)
DOWN = (200, 120, 40)
# What the tiles' colours mean, as the picture's key says it (English: OpenCV's font has no other letters).
TILE_KEY = ((SURE, "read surely"), (UNSURE, "unsure: check it"), (DOWN, "face down"))
FONT = cv2.FONT_HERSHEY_SIMPLEX
# A digit's height in OpenCV's font at scale 1 (px): a digit is drawn no taller than half its tile's width.
DIGIT_PX = 22


def picture_scale(image: np.ndarray) -> float:
    """How large the picture's lines and words are drawn: a 900 px picture at 1."""
    return max(0.4, float(min(image.shape[:2])) / 900)


def annotate(image: np.ndarray, tiles: Sequence[TileDetection], more: Sequence[tuple[tuple[int, int, int], str]] = ()
             ) -> np.ndarray:
    """``image`` with each tile's box (its colour: read surely, unsure, face down) and each half's count drawn on it,
    and a key to the colours drawn (``more``: entries for what else is drawn)."""
    out = image.copy()
    scale = picture_scale(out)
    colours = [DOWN if tile.face == "down" else (SURE if tile.certain else UNSURE) for tile in tiles]
    for tile, color in zip(tiles, colours):
        poly = np.round(np.array(tile.corners)).astype(np.int32)
        cv2.polylines(out, [poly], True, color, max(1, int(2 * scale)), cv2.LINE_AA)
        if tile.halves is None:
            continue
        size = max(0.3, min(0.6 * scale, 0.5 * short_side(tile.corners) / DIGIT_PX))
        for half in tile.halves:
            x, y = int(half.center[0]), int(half.center[1])
            text = str(half.pips)
            (tw, th), _ = cv2.getTextSize(text, FONT, size, max(1, int(2 * size)))
            cv2.rectangle(out, (x - tw // 2 - 2, y - th // 2 - 2), (x + tw // 2 + 2, y + th // 2 + 2), (0, 0, 0), -1)
            cv2.putText(out, text, (x - tw // 2, y + th // 2), FONT, size, color, max(1, int(2 * size)), cv2.LINE_AA)
    key = [entry for entry in TILE_KEY if entry[0] in colours] + list(more)
    if key:
        draw_key(out, key)
    return out


def draw_key(out: np.ndarray, key: Sequence[tuple[tuple[int, int, int], str]]) -> None:
    """A key to the picture's colours, one line an entry, at its bottom left, on a dark band (drawn into ``out``)."""
    scale = picture_scale(out)
    size, thick = 0.5 * scale, max(1, int(scale))
    line = int(22 * scale)
    width = max(cv2.getTextSize(text, FONT, size, thick)[0][0] for _, text in key) + int(40 * scale)
    top = out.shape[0] - line * len(key) - int(8 * scale)
    band = out[max(top, 0):, :min(width, out.shape[1])]
    band[:] = (band * 0.35).astype(out.dtype)
    for k, (color, text) in enumerate(key):
        y = top + line * (k + 1)
        cv2.rectangle(out, (int(8 * scale), y - int(12 * scale)), (int(24 * scale), y - int(2 * scale)), color, -1)
        cv2.putText(out, text, (int(32 * scale), y), FONT, size, (255, 255, 255), thick, cv2.LINE_AA)
