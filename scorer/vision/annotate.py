"""Drawing what was read over the image (for `detect --annotate` and the app's overlays)."""

from __future__ import annotations

import functools
from typing import Sequence

import cv2
import numpy as np

from scorer.vision.detector import TileDetection
from scorer.vision.geometry import short_side

SURE = (60, 200, 60)
UNSURE = (0, 160, 255)
DOWN = (200, 120, 40)
# What the tiles' colours mean, as the picture's key says it, in each language.
TILE_WORDS = {"en": {SURE: "read surely", UNSURE: "unsure: check it", DOWN: "face down"},
              "fi": {SURE: "luettu varmasti", UNSURE: "epävarma: tarkista", DOWN: "selkäpuoli ylöspäin"}}
FONT = cv2.FONT_HERSHEY_SIMPLEX
# OpenCV 4's font has ASCII letters only (OpenCV 5's draws these itself): there a Finnish or Swedish letter is drawn as
# its base letter with its marks above.
MARKED = {"ä": ("a", "dots"), "ö": ("o", "dots"), "å": ("a", "ring"), "Ä": ("A", "dots"), "Ö": ("O", "dots"), "Å": ("A", "ring")}
# A digit's height in OpenCV's font at scale 1 (px): a digit is drawn no taller than half its tile's width.
DIGIT_PX = 22


def picture_scale(image: np.ndarray) -> float:
    """How large the picture's lines and words are drawn: a 900 px picture at 1."""
    return max(0.4, float(min(image.shape[:2])) / 900)


def text_size(text: str, size: float, thick: int) -> tuple[int, int]:
    """The width and height (px) :func:`put_text` draws ``text`` in."""
    width, height = cv2.getTextSize(_drawn_as(text), FONT, size, thick)[0]
    return width, height


def _drawn_as(text: str) -> str:
    """``text`` as OpenCV is given it: as it is where OpenCV draws its letters, else with its base letters."""
    return text if _draws_marked_letters() else "".join(MARKED.get(c, (c, ""))[0] for c in text)


@functools.cache
def _draws_marked_letters() -> bool:
    """Whether the OpenCV at hand draws ä itself: not as a, nor as question marks for its bytes."""
    def drawn(text: str) -> np.ndarray:
        out = np.zeros((40, 80), np.uint8)
        cv2.putText(out, text, (5, 30), FONT, 0.8, 255, 1, cv2.LINE_AA)
        return out

    marked = drawn("ä")
    return not any(np.array_equal(marked, drawn(other)) for other in ("a", "?", "??", ""))


def put_text(out: np.ndarray, text: str, origin: tuple[int, int], size: float, colour: tuple[int, int, int], thick: int) -> None:
    """``text`` drawn into ``out`` with its baseline's left end at ``origin`` (as cv2.putText draws), its ä, ö and å
    letters too: as they are where OpenCV draws them; else the text drawn in one go with their base letters, then two
    dots or a ring above each."""
    plain = _drawn_as(text)
    cv2.putText(out, plain, origin, FONT, size, colour, thick, cv2.LINE_AA)
    if plain == text:
        return
    x, y = origin
    for k, c in enumerate(text):
        base, mark = MARKED.get(c, (c, ""))
        if not mark:
            continue
        # (A letter's left edge: the text up to and with it, less the letter alone -- whether or not the OpenCV at hand
        # counts the stroke's thickness in a width, it cancels out.)
        width, height = cv2.getTextSize(base, FONT, size, thick)[0]
        left = x + cv2.getTextSize(plain[: k + 1], FONT, size, thick)[0][0] - width
        # (A small letter's top lies at about 0.7 of the font's height, a capital's at its height.)
        top = y - int(height * (0.72 if base.islower() else 1.0)) - max(2, int(round(5 * size)))
        side = max(1, int(round(2.2 * size)))  # (the dots drawn as squares: round ones of a pixel or two blur)
        if mark == "dots":
            for share in (0.3, 0.7):
                dot_left = left + int(width * share) - side // 2
                cv2.rectangle(out, (dot_left, top - side + 1), (dot_left + side - 1, top), colour, -1)
        else:
            cv2.circle(out, (left + width // 2, top - side), side + 1, colour, 1, cv2.LINE_AA)


def annotate(image: np.ndarray, tiles: Sequence[TileDetection], more: Sequence[tuple[tuple[int, int, int], str]] = (),
             lang: str = "en") -> np.ndarray:
    """``image`` with each tile's box (its colour: read surely, unsure, face down) and each half's count drawn on it,
    and a key to the colours drawn in ``lang`` (``more``: entries for what else is drawn, in it already)."""
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
    key = [(colour, word) for colour, word in TILE_WORDS[lang].items() if colour in colours] + list(more)
    if key:
        draw_key(out, key)
    return out


def draw_key(out: np.ndarray, key: Sequence[tuple[tuple[int, int, int], str]]) -> None:
    """A key to the picture's colours, one line an entry, at its bottom left, on a dark band (drawn into ``out``)."""
    scale = picture_scale(out)
    size, thick = 0.5 * scale, max(1, int(scale))
    line = int(22 * scale)
    width = max(text_size(text, size, thick)[0] for _, text in key) + int(40 * scale)
    top = out.shape[0] - line * len(key) - int(8 * scale)
    band = out[max(top, 0):, :min(width, out.shape[1])]
    band[:] = (band * 0.35).astype(out.dtype)
    for k, (color, text) in enumerate(key):
        y = top + line * (k + 1)
        cv2.rectangle(out, (int(8 * scale), y - int(12 * scale)), (int(24 * scale), y - int(2 * scale)), color, -1)
        put_text(out, text, (int(32 * scale), y), size, (255, 255, 255), thick)
