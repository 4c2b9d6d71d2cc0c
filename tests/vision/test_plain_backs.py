"""Issue 40: a double blank whose divider does not show, taken for a back, is asked about where nothing
else on the table looks like it as a back (scorer/vision/plain_backs.py)."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.geometry import half_centers
from scorer.vision.plain_backs import BLANK_OR_BACK, blank_or_back
from scorer.vision.tile_detection import CERTAIN, HalfReading, TileDetection

IVORY = (205, 225, 235)  # BGR
DARK_BLUE = (120, 40, 20)
CLOTH = (60, 110, 40)


def _corners(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + 80, y), (x + 80, y + 40), (x, y + 40))


def _face(x: float, y: float, pips: tuple[int, int], confidence: float = 0.99) -> TileDetection:
    corners = _corners(x, y)
    first, second = half_centers(np.asarray(corners))
    halves = (HalfReading(pips[0], (float(first[0]), float(first[1])), confidence),
              HalfReading(pips[1], (float(second[0]), float(second[1])), confidence))
    return TileDetection(corners, "up", 0.9, halves)


def _back(x: float, y: float) -> TileDetection:
    return TileDetection(_corners(x, y), "down", 0.9)


def _table(boxes: list[tuple[float, float, tuple[int, int, int]]]) -> np.ndarray:
    image = np.zeros((400, 640, 3), np.uint8)
    image[:] = CLOTH
    for x, y, colour in boxes:
        cv2.rectangle(image, (int(x), int(y)), (int(x) + 80, int(y) + 40), colour, -1)
        if colour == IVORY:
            cv2.circle(image, (int(x) + 20, int(y) + 20), 4, (20, 20, 20), -1)  # a pip or two: the face's colour stays
    return image


def test_a_lone_plain_box_in_the_faces_colour_is_the_double_blank_asked_about():
    image = _table([(40, 40, IVORY), (140, 40, IVORY), (240, 40, IVORY), (400, 200, IVORY)])
    cv2.rectangle(image, (400, 200), (480, 240), IVORY, -1)  # no pip, no divider: a plain box
    detections = [_face(40, 40, (1, 3)), _face(140, 40, (3, 5)), _face(240, 40, (5, 6)), _back(400, 200)]
    out = blank_or_back(image, detections)
    assert out[:3] == detections[:3]
    blank = out[3]
    assert blank.face == "up" and blank.pips == (0, 0) and blank.corners == detections[3].corners
    assert not blank.certain and blank.read_confidence == BLANK_OR_BACK < CERTAIN


def test_backs_that_look_alike_stay_backs():
    image = _table([(40, 40, IVORY), (140, 40, IVORY), (400, 200, IVORY), (400, 300, IVORY)])
    for y in (200, 300):
        cv2.rectangle(image, (400, y), (480, y + 40), IVORY, -1)
    detections = [_face(40, 40, (1, 3)), _face(140, 40, (3, 5)), _back(400, 200), _back(400, 300)]
    assert blank_or_back(image, detections) == detections


def test_a_lone_back_unlike_the_faces_stays_a_back():
    image = _table([(40, 40, IVORY), (140, 40, IVORY), (400, 200, DARK_BLUE)])
    detections = [_face(40, 40, (1, 3)), _face(140, 40, (3, 5)), _back(400, 200)]
    assert blank_or_back(image, detections) == detections


def test_no_second_double_blank_where_one_is_read_surely():
    image = _table([(40, 40, IVORY), (140, 40, IVORY), (400, 200, IVORY)])
    cv2.rectangle(image, (400, 200), (480, 240), IVORY, -1)
    detections = [_face(40, 40, (0, 0)), _face(140, 40, (3, 5)), _back(400, 200)]
    assert blank_or_back(image, detections) == detections


def test_without_a_face_read_surely_the_back_stands():
    image = _table([(40, 40, IVORY), (400, 200, IVORY)])
    cv2.rectangle(image, (400, 200), (480, 240), IVORY, -1)
    detections = [_face(40, 40, (1, 3), confidence=0.6), _back(400, 200)]
    assert blank_or_back(image, detections) == detections
