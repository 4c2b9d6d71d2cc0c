"""Drawing the spinner graph over the image: joins, spinners, free points, scoring ends, and the open
ends the players are asked to look at."""

from __future__ import annotations

from typing import Callable, Literal, Sequence

import cv2
import numpy as np

from scorer.layout.joins import Layout, _geom
from scorer.rules import Board, GameRules
from scorer.rules.describe import points_phrase
from scorer.vision.annotate import FONT, annotate, picture_scale, put_text
from scorer.vision.tile_detection import TileDetection
from scorer.words import places


JOIN = (255, 200, 0)
SPINNER = (255, 255, 255)
SCORING_END = (0, 0, 255)
UNSEEN_END = (255, 0, 255)
PROBLEM = (0, 230, 255)
# What the layout's marks mean, as the picture's key says it, in each language.
KEY_WORDS = {
    "en": {JOIN: "join", SPINNER: "ring: spinner", SCORING_END: "dot: scoring end", UNSEEN_END: "?: may go on unseen",
           PROBLEM: "1, 2, ...: the problems listed"},
    "fi": {JOIN: "liitos", SPINNER: "rengas: spinneri", SCORING_END: "piste: pisteisiin laskettava pää",
           UNSEEN_END: "?: voi jatkua näkymättä", PROBLEM: "1, 2, ...: luetellut ongelmat"},
}


def annotate_board(image: np.ndarray, detections: Sequence[TileDetection], layout: Layout, board: Board, rules: GameRules,
                   table_to_image: Callable[[np.ndarray], np.ndarray] | None = None,
                   unseen_ends: Sequence[tuple[float, float]] = (), problems: Sequence[str] = (), lang: Literal["fi", "en"] = "en"
                   ) -> np.ndarray:
    """The layout drawn over ``image`` -- its joins, spinners, scoring ends, the sum and what it scores in ``rules``' points --
    under the tiles as read (their counts on top), with a key.  ``table_to_image``: where the layout was reconstructed
    in table mm, the profile's mapping back.  ``unseen_ends``: image points where the layout may go on unseen
    (``BoardReading.unseen_ends``), marked with a question mark.  ``problems``: each place a problem names (in the
    picture's pixels) marked with the problem's number, counted from 1 as they are listed.  The key and the sum in
    ``lang``."""
    out = image.copy()
    scale = picture_scale(out)

    def to_image(p: np.ndarray) -> tuple[int, int]:
        if table_to_image is not None:
            p = np.asarray(table_to_image(np.asarray(p, np.float64).reshape(1, 2))).reshape(2)
        return int(round(p[0])), int(round(p[1]))

    index = {layout.tiles[i].tile: i for i in layout.component}
    centres = {t: _geom(layout.tiles[i]).center for t, i in index.items()}
    lines = [(centres[j.tile], centres[j.new_tile]) for j in board.joins if j.tile in centres and j.new_tile in centres]
    for a, b in lines:
        cv2.line(out, to_image(a), to_image(b), JOIN, 2, cv2.LINE_AA)
    rings = [centres[s] for s in board.spinners if s in centres]
    for c in rings:
        cv2.circle(out, to_image(c), 9, SPINNER, 2, cv2.LINE_AA)
    dots = [centres[e.tile] for e in board.scoring_ends() if e.tile in centres]
    for c in dots:
        cv2.circle(out, to_image(c), 5, SCORING_END, -1, cv2.LINE_AA)
    height, width = out.shape[:2]
    unseen = [(int(round(x)), int(round(y))) for x, y in unseen_ends]  # image pixels already: found in the image itself
    for at in unseen:
        cv2.circle(out, at, max(6, int(14 * scale)), UNSEEN_END, max(1, int(2 * scale)), cv2.LINE_AA)
        cv2.putText(out, "?", (at[0] - int(6 * scale), at[1] + int(7 * scale)), FONT,
                    0.6 * scale, UNSEEN_END, max(1, int(2 * scale)), cv2.LINE_AA)
    marked = _problem_marks(problems, width, height)
    drawn = {JOIN: bool(lines), SPINNER: bool(rings), SCORING_END: bool(dots),
             UNSEEN_END: any(0 <= x < width and 0 <= y < height for x, y in unseen), PROBLEM: bool(marked)}
    # (The counts drawn over the joins' lines; the key says only what is drawn.)
    out = annotate(out, detections, [(colour, KEY_WORDS[lang][colour]) for colour, shown in drawn.items() if shown], lang)
    for number, (x, y) in marked:
        _mark(out, str(number), (x, y), scale)
    text = caption(board, rules, lang)
    put_text(out, text, (10, 30), 0.9, (0, 0, 0), 4)
    put_text(out, text, (10, 30), 0.9, (255, 255, 255), 2)
    return out


def _problem_marks(problems: Sequence[str], width: int, height: int) -> list[tuple[int, tuple[int, int]]]:
    """Each problem's number (from 1) and the places in the picture it names, once a place."""
    marks: list[tuple[int, tuple[int, int]]] = []
    for number, text in enumerate(problems, 1):
        for x, y in dict.fromkeys((int(round(x)), int(round(y))) for x, y in places(text)):
            if 0 <= x < width and 0 <= y < height:
                marks.append((number, (x, y)))
    return marks


def _mark(out: np.ndarray, text: str, place: tuple[int, int], scale: float) -> None:
    """A problem's number on a label just above and right of ``place`` (the tile's counts left in sight)."""
    size, thick = 0.6 * scale, max(1, int(2 * scale))
    (tw, th), _ = cv2.getTextSize(text, FONT, size, thick)
    x, y = place[0] + int(8 * scale), place[1] - int(8 * scale)
    cv2.rectangle(out, (x - 3, y - th - 3), (x + tw + 3, y + 3), PROBLEM, -1)
    cv2.putText(out, text, (x, y), FONT, size, (0, 0, 0), thick, cv2.LINE_AA)


def caption(board: Board, rules: GameRules, lang: Literal["fi", "en"] = "en") -> str:
    """The end sum and what it scores, as the text says it ("sum 10: 10 raw points (2 display points)" in Horse Race,
    "sum 10: 10 raw points" in Seven Rocks, whose points are the raw ones)."""
    return f"{'summa' if lang == 'fi' else 'sum'} {board.end_sum()}: {points_phrase(board.points(), rules, lang)}"
