"""The scoreboard as a cribbage board: a long board with a track per player or pair, pegs that leapfrog.

Like a real long board: each track runs out along the board and back (121: 60 holes out and 60
back; 61: 30 and 30), the holes in groups of five, two start holes at the near end and the game
hole beside them where the track comes home.  Each track has two pegs: the front peg at the
score, the back peg at the score before it (on every score the back peg jumps over the front one,
so the previous total stays visible).  The skunk line crosses the board where a loser still short
of it loses double (121: between 90 and 91, with the double-skunk line at the turn, 61; 61: at 31,
the turn).  Each track is labelled with its name and score in large type, readable across a table.

:class:`BoardGeometry` computes where every hole is (no painting), so it can be tested; the
widget paints what it says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QLinearGradient, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

PEG_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"]
GAMES_HOLES = 7  # the holes outside the track that count games won
GROUP = 5


@dataclass
class Track:
    name: str
    front: int  # holes
    back: int  # the previous total
    label: str  # the exact number shown beside it
    games_won: int = 0
    on_turn: bool = False  # marked as the one to play

    def moved(self, holes: int, label: str | None = None) -> Track:
        """The pegs after scoring ``holes``: the back peg leapfrogs to the front peg's new hole."""
        if holes == 0:
            return self
        front = self.front + holes
        return replace(self, front=front, back=self.front, label=str(front) if label is None else label)


def default_skunk_lines(holes: int) -> tuple[int, ...]:
    """The lines a loser must pass: 121: 91 (skunk) and 61 (double skunk); 61: 31 (RULES.md, match.py)."""
    return {121: (91, 61), 61: (31,)}.get(holes, ())


class BoardGeometry:
    """Where everything is on a board of ``width`` x ``height`` pixels, ``holes`` to the game hole, ``n`` tracks.

    Holes 1 .. holes-1 are the track; 0 is the start (two start holes, one per peg) and ``holes`` the
    game hole.  Out along the top row of a track, left to right, then back along its bottom row.
    """

    def __init__(self, width: float, height: float, holes: int, n_tracks: int) -> None:
        self.width, self.height = float(width), float(height)
        self.holes = max(2, int(holes))
        self.n = max(1, n_tracks)
        self.per_row = math.ceil((self.holes - 1) / 2)  # 60 for 121, 30 for 61
        groups = math.ceil(self.per_row / GROUP)
        self.margin = 8.0
        self.title_h = max(18.0, min(34.0, self.height * 0.07))
        self.numbers_h = max(12.0, min(20.0, self.height * 0.045))  # hole numbers above and below
        self.label_w = max(110.0, min(300.0, self.width * 0.22))
        area_left = self.margin + self.label_w + 8
        area_right = self.width - self.margin - 6
        self.group_gap_units = 0.7
        self.start_units = 3.4  # two start holes and a gap, left of the first hole
        self.end_units = 1.4  # the turn at the far end
        units = self.per_row + self.group_gap_units * (groups - 1) + self.start_units + self.end_units
        self.pitch = max(2.0, (area_right - area_left) / units)
        self.x0 = area_left + self.start_units * self.pitch  # column 0
        self.top = self.title_h + self.numbers_h
        self.bottom = self.height - self.margin - self.numbers_h
        self.band_h = max(10.0, (self.bottom - self.top) / self.n)
        row_gap = min(self.band_h * 0.4, self.pitch * 2.2)
        self.row_offsets = (self.band_h / 2 - row_gap / 2, self.band_h / 2 + row_gap / 2)
        self.hole_r = max(1.3, min(self.pitch * 0.24, 5.0))
        self.peg_r = max(3.5, min(self.pitch * 0.62, row_gap * 0.48, 14.0))

    # -- columns and rows --------------------------------------------------------------------

    def column_x(self, column: float) -> float:
        gaps = math.floor(column / GROUP) if column >= 0 else 0
        return self.x0 + column * self.pitch + gaps * self.group_gap_units * self.pitch

    def band_top(self, track: int) -> float:
        return self.top + track * self.band_h

    def row_y(self, track: int, row: int) -> float:
        return self.band_top(track) + self.row_offsets[row]

    def place(self, hole: int) -> tuple[int, float]:
        """The row (0 out, 1 back) and column of track hole 1 .. holes-1."""
        if not 1 <= hole < self.holes:
            raise ValueError(f"track holes are 1..{self.holes - 1}, not {hole}")
        if hole <= self.per_row:
            return 0, hole - 1
        return 1, self.per_row - (hole - self.per_row)

    # -- points ---------------------------------------------------------------------------

    def hole(self, track: int, hole: int) -> QPointF:
        """The centre of a hole: 0 the front peg's start hole, ``holes`` the game hole."""
        if hole <= 0:
            return self.start_hole(track, 0)
        if hole >= self.holes:
            return self.game_hole(track)
        row, column = self.place(hole)
        return QPointF(self.column_x(column), self.row_y(track, row))

    def start_hole(self, track: int, which: int) -> QPointF:
        """The two start holes (0: the front peg's, 1: the back peg's), left of the out row."""
        return QPointF(self.x0 - (1.6 + 1.25 * which) * self.pitch, self.row_y(track, 0))

    def game_hole(self, track: int) -> QPointF:
        """Where the track comes home: left of the back row, beside the start."""
        return QPointF(self.x0 - 1.6 * self.pitch, self.row_y(track, 1))

    def peg_points(self, track: int, t: Track) -> tuple[QPointF, QPointF]:
        """Where the front and back pegs stand (a peg at 0 or below is in its start hole)."""
        front = self.start_hole(track, 0) if t.front <= 0 else self.hole(track, t.front)
        if t.back <= 0:
            back = self.start_hole(track, 1)
        else:
            back = self.hole(track, t.back)
        return front, back

    def line_x(self, hole: int) -> tuple[int, float]:
        """Where a line "at hole ``hole``" runs: the row, and x between hole-1 and hole.

        Where the two lie in different rows (the turn), the line is at the far end, in row -1.
        """
        row_a, col_a = self.place(hole - 1)
        row_b, col_b = self.place(hole)
        if row_a != row_b:
            return -1, self.column_x(self.per_row - 1) + self.end_units * 0.5 * self.pitch
        return row_a, (self.column_x(col_a) + self.column_x(col_b)) / 2


class PegBoard(QWidget):
    """The long board; the front peg at the score, the back peg at the score before it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tracks: list[Track] = []
        self.holes = 61
        self.points_per_hole = 1
        self.title = ""
        self.skunk_lines: tuple[int, ...] = default_skunk_lines(self.holes)
        self.setMinimumSize(360, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_state(self, title: str, holes: int, tracks: list[Track], skunk: tuple[int, ...] | None = None,
                  points_per_hole: int = 1) -> None:
        """``holes``: the game hole's number (61, 121, ...); ``skunk``: the lines to draw (default by ``holes``);
        ``points_per_hole``: what the numbers along the board count (Seven Rocks: 5 points a hole)."""
        self.title, self.holes, self.tracks = title, holes, list(tracks)
        self.points_per_hole = points_per_hole
        self.skunk_lines = default_skunk_lines(holes) if skunk is None else tuple(skunk)
        self.setMinimumHeight(int(60 + 56 * max(1, len(self.tracks))))
        self.update()

    def geometry_now(self) -> BoardGeometry:
        return BoardGeometry(self.width(), self.height(), self.holes, len(self.tracks))

    # -- painting ----------------------------------------------------------------------------

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        p = QPainter(self)
        try:
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        g = self.geometry_now()
        wood = QLinearGradient(0, 0, 0, h)
        wood.setColorAt(0.0, QColor("#d9b27a"))
        wood.setColorAt(1.0, QColor("#b8894f"))
        p.setBrush(QBrush(wood))
        p.setPen(QPen(QColor("#5a3d1a"), 2))
        p.drawRoundedRect(QRectF(1, 1, w - 2, h - 2), 12, 12)
        p.setPen(QColor("#2b1b08"))
        p.setFont(QFont("DejaVu Sans", max(9, int(g.title_h * 0.5)), QFont.Weight.Bold))
        p.drawText(QRectF(12, 2, w - 24, g.title_h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.title)
        if not self.tracks:
            return
        for i, track in enumerate(self.tracks):
            self._paint_band(p, g, i, track)
        self._paint_numbers(p, g)
        self._paint_skunk(p, g)
        for i, track in enumerate(self.tracks):
            self._paint_pegs(p, g, i, track)

    def _paint_band(self, p: QPainter, g: BoardGeometry, i: int, track: Track) -> None:
        colour = QColor(PEG_COLOURS[i % len(PEG_COLOURS)])
        top = g.band_top(i)
        band = QRectF(g.margin, top + 2, self.width() - 2 * g.margin, g.band_h - 4)
        tint = QColor(colour)
        tint.setAlpha(60 if track.on_turn else 28)
        p.setPen(QPen(colour.darker(130), 3) if track.on_turn else Qt.PenStyle.NoPen)
        p.setBrush(QBrush(tint))
        p.drawRoundedRect(band, 8, 8)
        # The label: the name, and the score large.
        label = QRectF(g.margin + 6, top + 4, g.label_w - 6, g.band_h - 8)
        name_px = max(10, min(int(g.band_h * 0.24), 30))
        score_px = max(14, min(int(g.band_h * 0.52), 72))
        p.setPen(colour.darker(170))
        font = QFont("DejaVu Sans", 10, QFont.Weight.Bold)
        font.setPixelSize(name_px)
        p.setFont(font)
        name = ("▶ " if track.on_turn else "") + track.name
        p.drawText(QRectF(label.left(), label.top(), label.width(), name_px * 1.35),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   p.fontMetrics().elidedText(name, Qt.TextElideMode.ElideRight, int(label.width())))
        # The score between the name and the games-won holes along the band's foot (a large one ran into them).
        r = max(1.5, min(g.hole_r, 3.0))
        score_h = label.height() - name_px * 1.2 - r * 3.6
        font.setPixelSize(max(10, min(score_px, int(score_h))))
        p.setFont(font)
        p.setPen(QColor("#1d1206"))
        p.drawText(QRectF(label.left(), label.top() + name_px * 1.2, label.width(), score_h),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, track.label)
        # The games won: seven holes along the band's foot, under the label.
        for k in range(GAMES_HOLES):
            centre = QPointF(label.right() - (GAMES_HOLES - k) * r * 3.2, top + g.band_h - 4 - r * 2)
            if k < track.games_won:
                p.setPen(QPen(QColor("#000000"), 0.8))
                p.setBrush(QBrush(colour))
                p.drawEllipse(centre, r * 1.4, r * 1.4)
            else:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QBrush(QColor("#3b2a12")))
                p.drawEllipse(centre, r * 0.8, r * 0.8)
        # The holes.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(QColor("#2e1f0c")))
        for hole in range(1, g.holes):
            p.drawEllipse(g.hole(i, hole), g.hole_r, g.hole_r)
        for which in (0, 1):
            p.drawEllipse(g.start_hole(i, which), g.hole_r, g.hole_r)
        # The game hole: larger, ringed.
        home = g.game_hole(i)
        p.setPen(QPen(QColor("#7a0000"), 2.2))
        p.drawEllipse(home, g.hole_r * 1.3, g.hole_r * 1.3)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(home, g.hole_r * 2.4, g.hole_r * 2.4)
        # The turn at the far end joins the two rows.
        end_x = g.column_x(g.per_row - 1) + g.pitch * 0.6
        p.setPen(QPen(QColor(90, 61, 26, 110), 1.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawArc(QRectF(end_x - g.pitch * 0.6, g.row_y(i, 0), g.pitch * 1.2, g.row_y(i, 1) - g.row_y(i, 0)), -90 * 16, 180 * 16)

    def _paint_numbers(self, p: QPainter, g: BoardGeometry) -> None:
        """Hole numbers every ten (every five on a short board): out above the board, back below it."""
        step = 10 if g.per_row > 30 else 5
        font = QFont("DejaVu Sans", 8)
        font.setPixelSize(int(max(9, min(g.numbers_h * 0.75, 14))))
        p.setFont(font)
        p.setPen(QColor("#3b2a12"))
        top_y = g.band_top(0) - g.numbers_h
        bottom_y = g.band_top(g.n - 1) + g.band_h
        marks = [g.line_x(line)[1] for line in self.skunk_lines if 1 < line < g.holes]
        for hole in range(step, g.holes, step):
            row, column = g.place(hole)
            x = g.column_x(column)
            if row == 1 and any(abs(x - m) < 22 for m in marks):
                continue  # the skunk line's S is written there
            y = top_y if row == 0 else bottom_y
            p.drawText(QRectF(x - 20, y, 40, g.numbers_h), Qt.AlignmentFlag.AlignCenter, str(hole * self.points_per_hole))

    def _paint_skunk(self, p: QPainter, g: BoardGeometry) -> None:
        for k, line in enumerate(self.skunk_lines):
            if not 1 < line < g.holes:
                continue
            row, x = g.line_x(line)
            pen = QPen(QColor("#a00000"), 2.2 if k == 0 else 1.6)
            if k:
                pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            for i in range(g.n):
                if row < 0:
                    y0, y1 = g.row_y(i, 0) - g.pitch * 0.7, g.row_y(i, 1) + g.pitch * 0.7
                else:
                    y0, y1 = g.row_y(i, row) - g.pitch * 0.8, g.row_y(i, row) + g.pitch * 0.8
                p.drawLine(QPointF(x, y0), QPointF(x, y1))
            font = QFont("DejaVu Sans", 8, QFont.Weight.Bold)
            font.setPixelSize(int(max(9, min(g.numbers_h * 0.75, 14))))
            p.setFont(font)
            p.setPen(QColor("#a00000"))
            text = "S" if k == 0 else "SS"
            below = g.band_top(g.n - 1) + g.band_h
            p.drawText(QRectF(x - 14, below, 28, g.numbers_h), Qt.AlignmentFlag.AlignCenter, text)

    def _paint_pegs(self, p: QPainter, g: BoardGeometry, i: int, track: Track) -> None:
        colour = QColor(PEG_COLOURS[i % len(PEG_COLOURS)])
        front, back = g.peg_points(i, track)
        for point, solid in ((back, False), (front, True)):
            shadow = QColor(0, 0, 0, 70)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(shadow))
            p.drawEllipse(point + QPointF(1.5, 2.0), g.peg_r, g.peg_r)
            fill = QColor(colour) if solid else QColor(colour).lighter(150)
            p.setBrush(QBrush(fill))
            p.setPen(QPen(QColor("#111111") if solid else colour.darker(150), 1.5 if solid else 1.2))
            p.drawEllipse(point, g.peg_r, g.peg_r)
            if solid:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QBrush(QColor(255, 255, 255, 120)))
                p.drawEllipse(point - QPointF(g.peg_r * 0.3, g.peg_r * 0.3), g.peg_r * 0.3, g.peg_r * 0.3)
