"""The scoreboard as a cribbage board: a track per player or pair, two leapfrogging pegs, the target."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

PEG_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"]


@dataclass
class Track:
    name: str
    front: int  # holes
    back: int  # the previous total
    label: str  # the exact number shown beside it
    games_won: int = 0


class PegBoard(QWidget):
    """Holes in rows of five; the front peg at the score, the back peg at the score before it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tracks: list[Track] = []
        self.holes = 61
        self.title = ""
        self.setMinimumSize(360, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_state(self, title: str, holes: int, tracks: list[Track]) -> None:
        self.title, self.holes, self.tracks = title, holes, tracks
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        p.fillRect(self.rect(), QColor("#c8a165"))
        p.setPen(QPen(QColor("#5a3d1a"), 2))
        p.drawRoundedRect(QRectF(2, 2, w - 4, h - 4), 10, 10)
        p.setFont(QFont("DejaVu Sans", 10, QFont.Weight.Bold))
        p.setPen(QColor("#2b1b08"))
        p.drawText(QRectF(10, 4, w - 20, 20), Qt.AlignmentFlag.AlignLeft, self.title)
        if not self.tracks:
            return
        left, right = 120.0, w - 70.0
        top = 30.0
        row_h = (h - top - 10) / len(self.tracks)
        step = (right - left) / max(1, self.holes)
        for i, track in enumerate(self.tracks):
            y = top + row_h * (i + 0.5)
            p.setPen(QColor("#2b1b08"))
            p.setFont(QFont("DejaVu Sans", 9))
            p.drawText(QRectF(8, y - 10, left - 14, 20), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, track.name)
            p.setFont(QFont("DejaVu Sans", 11, QFont.Weight.Bold))
            p.drawText(QRectF(right + 8, y - 12, 60, 24), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, track.label)
            p.setPen(Qt.PenStyle.NoPen)
            for hole in range(self.holes + 1):
                x = left + hole * step
                gap = 2 if hole % 5 == 0 else 0
                p.setBrush(QBrush(QColor("#3b2a12")))
                p.drawEllipse(QPointF(x + gap, y), 1.6, 1.6)
            # The target (the game hole) at the end of the track.
            p.setPen(QPen(QColor("#7a0000"), 2))
            p.drawLine(QPointF(right, y - row_h * 0.35), QPointF(right, y + row_h * 0.35))
            colour = QColor(PEG_COLOURS[i % len(PEG_COLOURS)])
            for peg, alpha in ((track.back, 110), (track.front, 255)):
                shown = max(0, min(self.holes, peg))
                c = QColor(colour)
                c.setAlpha(alpha)
                p.setBrush(QBrush(c))
                p.setPen(QPen(QColor("#000000"), 1))
                p.drawEllipse(QPointF(left + shown * step, y), 5, 5)
            for g in range(track.games_won):
                p.setBrush(QBrush(colour))
                p.drawEllipse(QPointF(left - 20 - g * 9, y + row_h * 0.3), 3, 3)
        p.end()
