"""The picture shown with the camera's question: the table as the camera saw it when it asked, the tiles the
question is about ringed, cut round them so that a tile of 30 px can be seen."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPolygonF

from scorer.app.liveview import UNSURE_COLOUR
from scorer.rules import Tile

Corners = Sequence[tuple[float, float]]

ASKED_COLOUR = QColor("#ff2bd6")  # the tiles the question is about: a colour found nowhere else on the screen
# The cut round the tiles asked about: this many tile lengths each side, and at least this share of the frame
# (the players must find the place on the table, not only see the tile).
MARGIN_TILES = 1.5
LEAST_SHARE = 0.3
MOST_SCALE = 3.0
MOST_RINGS = 3  # more boxes asked about are only outlined: rings round them all would hide the table


def _inside(corners: Corners, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(np.asarray(corners, np.float32), (float(point[0]), float(point[1])), False) >= 0


def _length(corners: Corners) -> float:
    """A box's long side (its first edge)."""
    return float(np.hypot(corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]))


def asked_boxes(detections: Sequence, places: Sequence[tuple[float, float]], tiles: frozenset[Tile]) -> list[Corners]:
    """The boxes a question is about: those of ``detections`` over a place it names or read as a tile it names,
    and a square round each place named where no box lies (a tile's size: the tiles' middle length, or 40 px)."""
    boxes = [d.corners for d in detections
             if any(_inside(d.corners, place) for place in places)
             or (d.pips is not None and not d.unread and Tile.of(*d.pips) in tiles)]
    lengths = [_length(d.corners) for d in detections]
    half = (float(np.median(lengths)) if lengths else 40.0) / 2
    for x, y in places:
        if not any(_inside(box, (x, y)) for box in boxes):
            boxes.append(((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)))
    return boxes


def _cut(width: int, height: int, boxes: Sequence[Corners]) -> QRect:
    """The part of the frame shown: the boxes with a margin, at least :data:`LEAST_SHARE` of the frame each way,
    moved inside the frame at its edges (the whole frame where no box lies in it)."""
    points = np.asarray([p for box in boxes for p in box], np.float64).reshape(-1, 2)
    inside = (points >= 0).all(axis=1) & (points[:, 0] < width) & (points[:, 1] < height)
    if not inside.any():
        return QRect(0, 0, width, height)
    tile = max(map(_length, boxes))
    (x0, y0), (x1, y1) = points.min(axis=0) - MARGIN_TILES * tile, points.max(axis=0) + MARGIN_TILES * tile
    spans = []
    for low, high, size in ((x0, x1, width), (y0, y1, height)):
        span = min(max(high - low, LEAST_SHARE * size), size)
        middle = min(max((low + high) / 2, span / 2), size - span / 2)
        spans.append((int(middle - span / 2), int(np.ceil(middle + span / 2))))
    (left, right), (top, bottom) = spans
    return QRect(max(0, left), max(0, top), min(width, right) - max(0, left), min(height, bottom) - max(0, top))


def question_picture(frame: QImage, detections: Sequence, asked: Sequence[Corners], size: tuple[int, int] = (560, 340)) -> QImage:
    """``frame`` cut round the ``asked`` boxes (the whole frame where none), scaled to fit ``size``: the
    ``asked`` boxes ringed, the other tiles read unsurely framed as in the live view."""
    cut = _cut(frame.width(), frame.height(), asked)
    scale = min(size[0] / cut.width(), size[1] / cut.height(), MOST_SCALE)
    picture = frame.copy(cut).scaled(round(cut.width() * scale), round(cut.height() * scale),
                                     Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation)
    picture = picture.convertToFormat(QImage.Format.Format_RGB32)

    def polygon(corners: Corners) -> QPolygonF:
        return QPolygonF([QPointF((x - cut.x()) * scale, (y - cut.y()) * scale) for x, y in corners])

    painter = QPainter(picture)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(UNSURE_COLOUR, 2))
    for d in detections:
        if d.face == "up" and not d.certain and d.corners not in asked:
            painter.drawPolygon(polygon(d.corners))
    painter.setPen(QPen(ASKED_COLOUR, 3))
    for corners in asked:
        shape = polygon(corners)
        painter.drawPolygon(shape)
        if len(asked) > MOST_RINGS:
            continue
        ring = shape.boundingRect()
        reach = max(ring.width(), ring.height()) / 2 + 10
        painter.drawEllipse(QRectF(ring.center().x() - reach, ring.center().y() - reach, 2 * reach, 2 * reach))
    painter.end()
    return picture
