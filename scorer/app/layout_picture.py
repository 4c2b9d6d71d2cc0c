"""The round's layout drawn as a schematic (a match with no camera): every tile as a domino, its pips, the
scoring tiles marked as the camera's picture marks them.  Where each tile lies is scorer.rules.schematic's."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPixmap

from scorer.rules import Board, Match, Phase, Tile
from scorer.rules.schematic import Box, DrawnTile, Half, Schematic, draw_board

SCORING_COLOUR = QColor("#ff3355")  # a tile at a scoring end; the live view outlines the camera's so too
OTHER_COLOUR = QColor("#33dd66")
FACE = QColor("#f4f0e6")
INK = QColor("#1d1d1d")
COUNTED = QColor(255, 51, 85, 80)  # a half whose pips are in the end sum
SPINNER = QColor("#b8912a")
LINK = QColor("#9a9a9a")
MAX_UNIT = 56.0  # px a half at the most: a round's first tiles are not drawn the size of the screen
DIGITS_BELOW = 20.0  # px a half: smaller than this, a number reads better than pips

# Where the pips of 0..6 lie on a half of unit size laid flat (x along the tile, y across it, from the half's
# top-left corner); the tile picker draws its tiles with them too.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)),
}


def paint_layout(p: QPainter, area: QRectF, schematic: Schematic, scoring: set[Tile]) -> None:
    """``schematic`` scaled to fit ``area``, centred; tiles in ``scoring`` outlined red and their counted halves tinted."""
    if not schematic.tiles:
        return
    at, unit = fit(area, schematic)
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(LINK, max(1.0, unit * 0.1), Qt.PenStyle.DashLine))
    for link in schematic.links:
        p.drawLine(at(*link.start), at(*link.end))
    for drawn in schematic.tiles:
        _paint_tile(p, drawn, at, unit, drawn.tile in scoring)
    p.restore()


def fit(area: QRectF, schematic: Schematic) -> tuple[Callable[[float, float], QPointF], float]:
    """Where a point of the schematic lands in ``area`` (scaled to fit, centred), and the size of a half in px."""
    bounds = schematic.bounds() or Box(-1, -1, 1, 1)
    width, height = bounds.right - bounds.left + 1, bounds.bottom - bounds.top + 1  # (half a square's margin round)
    unit = min(area.width() / width, area.height() / height, MAX_UNIT)
    ox = area.center().x() - (bounds.left + bounds.right) / 2 * unit
    oy = area.center().y() - (bounds.top + bounds.bottom) / 2 * unit

    def at(x: float, y: float) -> QPointF:
        return QPointF(ox + x * unit, oy + y * unit)

    return at, unit


def _paint_tile(p: QPainter, drawn: DrawnTile, at: Callable[[float, float], QPointF], unit: float, scoring: bool) -> None:
    inset = max(1.0, unit * 0.05)  # a hairline of table between tiles that touch
    box = drawn.box
    rect = QRectF(at(box.left, box.top), at(box.right, box.bottom)).adjusted(inset, inset, -inset, -inset)
    radius = unit * 0.14
    face = QPainterPath()
    face.addRoundedRect(rect, radius, radius)
    p.fillPath(face, FACE)
    for half in drawn.halves:
        if half.counts and scoring:
            square = QPainterPath()
            square.addRect(QRectF(at(half.box.left, half.box.top), at(half.box.right, half.box.bottom)))
            p.fillPath(face.intersected(square), COUNTED)
    p.setPen(QPen(INK, max(1.0, unit * 0.04)))
    middle = at(*drawn.centre)
    across = QPointF(unit * 0.36, 0) if drawn.upright else QPointF(0, unit * 0.36)
    p.drawLine(middle - across, middle + across)  # the divider
    for half in drawn.halves:
        _paint_pips(p, half, at, unit, drawn.upright)
    if drawn.spinner:  # the rivet a real spinner has at its centre
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(SPINNER)
        p.drawEllipse(middle, unit * 0.09, unit * 0.09)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(SCORING_COLOUR if scoring else OTHER_COLOUR, max(1.5, unit * 0.07)))
    p.drawRoundedRect(rect, radius, radius)


def _paint_pips(p: QPainter, half: Half, at: Callable[[float, float], QPointF], unit: float, upright: bool) -> None:
    centre = at(half.x, half.y)
    if unit < DIGITS_BELOW:
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(6, int(unit * 0.75)))
        font.setBold(True)
        p.setFont(font)
        p.setPen(INK)
        p.drawText(QRectF(centre.x() - unit / 2, centre.y() - unit / 2, unit, unit), Qt.AlignmentFlag.AlignCenter,
                   str(half.pips))
        return
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(INK)
    for along, across in PIPS[half.pips]:
        dx, dy = (across - 0.5, along - 0.5) if upright else (along - 0.5, across - 0.5)
        p.drawEllipse(QPointF(centre.x() + dx * unit, centre.y() + dy * unit), unit * 0.085, unit * 0.085)


def layout_pixmap(board: Board, width: int, height: int, scoring: set[Tile]) -> QPixmap:
    """The layout alone, as a picture (the move list's "the table then")."""
    pixmap = QPixmap(width, height)
    pixmap.fill(QColor("#202020"))
    p = QPainter(pixmap)
    paint_layout(p, QRectF(8, 8, width - 16, height - 16), draw_board(board, (width - 16) / (height - 16)), scoring)
    p.end()
    return pixmap


def layout_on_table(match: Match) -> Board | None:
    """The layout a match has on the table: the round's, kept once the round or the match is over; none
    between rounds (the tiles are shuffled)."""
    return match.board if match.phase is not Phase.BEFORE_ROUND else None
