"""The camera image with what the pipeline read drawn over it; with no camera, the round's layout drawn."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from scorer.app.i18n import translate
from scorer.app.layout_picture import OTHER_COLOUR, SCORING_COLOUR, paint_layout
from scorer.rules import Board, Tile
from scorer.rules.schematic import Schematic, draw_board

# The state, shown over the picture (translated when painted, in the context "LiveView").
STATUS_TEXT = {
    "waiting": (QT_TRANSLATE_NOOP("LiveView", "waiting for a still table"), "#6c757d"),
    "reading": (QT_TRANSLATE_NOOP("LiveView", "reading"), "#0d6efd"),
    "confirm": (QT_TRANSLATE_NOOP("LiveView", "needs your confirmation"), "#dc3545"),
    "over": (QT_TRANSLATE_NOOP("LiveView", "match over"), "#198754"),
    "ended": (QT_TRANSLATE_NOOP("LiveView", "the recording ended"), "#6c757d"),
    "stopped": (QT_TRANSLATE_NOOP("LiveView", "the camera stopped"), "#dc3545"),
    "no picture": (QT_TRANSLATE_NOOP("LiveView", "no picture: opening the camera again…"), "#dc3545"),
    "review": (QT_TRANSLATE_NOOP("LiveView", "reviewing the recording"), "#6f42c1"),
    "paused": (QT_TRANSLATE_NOOP("LiveView", "paused: the moves are not read"), "#6f42c1"),
    "hand": (QT_TRANSLATE_NOOP("LiveView", "no camera: moves entered by hand"), "#6c757d"),
}
UNSURE_COLOUR = QColor("#ff9900")  # a tile read unsurely (other frames or the players may settle it)
BACK_COLOUR = QColor("#8888ff")  # a tile face down
# The key to the outlines (translated when painted, in the context "LiveView"): all four under a camera's
# picture, the first two under the layout drawn with no camera.
LEGEND = {
    "scoring": (SCORING_COLOUR, QT_TRANSLATE_NOOP("LiveView", "in the end sum")),
    "other": (OTHER_COLOUR, QT_TRANSLATE_NOOP("LiveView", "the other tiles")),
    "unsure": (UNSURE_COLOUR, QT_TRANSLATE_NOOP("LiveView", "read unsurely")),
    "down": (BACK_COLOUR, QT_TRANSLATE_NOOP("LiveView", "face down")),
}
LEGEND_ROW = 22  # px: a row of the key
MARKED_MS = 15_000  # how long a place a message named stays ringed
HAND_HINT = QT_TRANSLATE_NOOP("LiveView", "Enter each move with the buttons at the right or the Play menu (those the "
                                          "match allows now are lit); every move is scored and said aloud.")


def to_qimage(frame: np.ndarray) -> QImage:
    h, w = frame.shape[:2]
    rgb = np.ascontiguousarray(frame[:, :, ::-1])
    return QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()


class LiveView(QWidget):
    tile_clicked = Signal(object)  # the TileDetection under the click
    status_clicked = Signal()  # a click on the state shown (at "needs your confirmation": the question again)
    status_changed = Signal(str)  # the state shown, changed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.detections: list = []
        self.scoring: set = set()
        self.end_sum: int | None = None
        self.status = "waiting"
        self.status_box = QRectF(10, 10, 250, 28)  # where the state is drawn (the words' width, once painted)
        self.layout_board: Board | None = None  # a match with no camera: the round's layout, drawn instead
        self._drawn: tuple[Board, float, Schematic] | None = None  # the last one laid out (a resize or a paint: the same)
        self.marked: list[tuple[float, float]] = []  # places the last message named ("the tile at (602, 399)"), ringed
        self._unmark = QTimer(self, singleShot=True, interval=MARKED_MS)
        self._unmark.timeout.connect(lambda: self.mark([]))
        self.setMinimumSize(480, 270)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # (clicked or started, it holds the keys for the window's shortcuts)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def mark(self, places: list[tuple[float, float]]) -> None:
        """Ring ``places`` (frame pixels) on the picture for a while: the players are told only the third of the
        picture a place lies in (:func:`scorer.app.wording.region`)."""
        self.marked = list(places)
        if self.marked:
            self._unmark.start()
        self.update()

    def picture_size(self) -> QSize | None:
        """The camera's frame's size (its pixels are the places the players are told of), None before one."""
        return None if self.image is None else self.image.size()

    def show_frame(self, image: QImage) -> None:
        self.image = image
        self.update()

    def show_reading(self, detections: list, scoring_tiles: set, end_sum: int | None) -> None:
        self.detections, self.scoring, self.end_sum = detections, scoring_tiles, end_sum
        self.update()

    def show_layout(self, board: Board | None) -> None:
        """Draw ``board`` (the session's, after every change) where no camera shows the table; None: no round on it."""
        self.layout_board = board
        self.update()

    def draw_instead(self, board: Board | None) -> None:
        """Draw ``board`` in place of the camera's last picture (a recording ended, the match moved on by hand);
        the next frame shown takes its place again."""
        self.image, self.detections = None, []
        self.show_layout(board)

    def layout_area(self) -> QRectF:
        """Where the layout is drawn: below the state and the end sum, above the key."""
        key = LEGEND_ROW + 6 if self.layout_board is not None and self.layout_board.tiles else 0
        return QRectF(12, 48, max(1, self.width() - 24), max(1, self.height() - 60 - key))

    def schematic(self) -> Schematic:
        """The layout shown now, laid out for the picture's shape."""
        board = self.layout_board
        if board is None:
            return Schematic()
        area = self.layout_area()
        aspect = area.width() / area.height()
        if self._drawn is None or self._drawn[0] is not board or self._drawn[1] != aspect:
            self._drawn = (board, aspect, draw_board(board, aspect))
        return self._drawn[2]

    def set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            self.status_changed.emit(status)
        self.update()

    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.update()  # the texts are translated as they are painted
            self.status_changed.emit(self.status)  # (and where the state is shown elsewhere, said again)
        super().changeEvent(event)

    def status_text(self) -> str:
        """The state as shown, in the current language."""
        text, _ = STATUS_TEXT.get(self.status, (self.status, ""))
        return translate("LiveView", text)

    def end_sum_text(self) -> str:
        #: The sum of the scoring ends on the table, shown over the picture.
        return self.tr("end sum {sum}").format(sum=self.end_sum)

    def _kind(self, detection) -> str:
        """How a tile of the camera's reading is outlined: a key of :data:`LEGEND`."""
        if detection.face == "down":
            return "down"
        if not detection.certain:
            return "unsure"
        return "scoring" if detection.pips and Tile.of(*detection.pips) in self.scoring else "other"

    def legend(self) -> list[tuple[QColor, str]]:
        """The key to the outlines, in the current language: every kind a camera's reading may show once it
        shows tiles (a key that keeps its size as tiles come and go), the two of a layout drawn with no camera."""
        if self.image is not None:
            kinds: tuple[str, ...] = tuple(LEGEND) if self.detections else ()
        else:
            kinds = ("scoring", "other") if self.layout_board is not None and self.layout_board.tiles else ()
        return [(LEGEND[kind][0], translate("LiveView", LEGEND[kind][1])) for kind in kinds]

    def _paint_legend(self, p: QPainter) -> None:
        """The key along the bottom (below a camera's picture where it leaves room): a swatch outlined in each
        colour and what it means, in rows as wide as the view allows."""
        entries = self.legend()
        if not entries:
            return
        p.setFont(QFont("DejaVu Sans", 9))
        metrics = p.fontMetrics()
        widths = [30 + metrics.horizontalAdvance(text) for _, text in entries]
        rows: list[list[int]] = [[]]
        for k, width in enumerate(widths):
            if rows[-1] and 16 + sum(widths[i] for i in rows[-1]) + width > self.width() - 20:
                rows.append([])
            rows[-1].append(k)
        box = QRectF(10, self.height() - 6 - LEGEND_ROW * len(rows), 16 + max(sum(widths[i] for i in row) for row in rows),
                     LEGEND_ROW * len(rows))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(QColor(0, 0, 0, 150)))
        p.drawRoundedRect(box, 6, 6)
        for r, row in enumerate(rows):
            x, top = box.left() + 8, box.top() + r * LEGEND_ROW
            for k in row:
                colour, text = entries[k]
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(QPen(colour, 2))
                p.drawRect(QRectF(x, top + LEGEND_ROW / 2 - 5, 16, 10))
                p.setPen(QColor("white"))
                p.drawText(QRectF(x + 22, top, widths[k] - 22, LEGEND_ROW), Qt.AlignmentFlag.AlignVCenter, text)
                x += widths[k]

    def _to_image(self, x: float, y: float) -> tuple[float, float] | None:
        if self.image is None:
            return None
        iw, ih = self.image.width(), self.image.height()
        scale = min(self.width() / iw, self.height() / ih)
        ox, oy = (self.width() - iw * scale) / 2, (self.height() - ih * scale) / 2
        return (x - ox) / scale, (y - oy) / scale

    def detection_at(self, x: float, y: float):
        point = self._to_image(x, y)
        if point is None:
            return None
        import cv2

        for d in self.detections:
            if d.face == "up" and cv2.pointPolygonTest(np.asarray(d.corners, np.float32), point, False) >= 0:
                return d
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if self.status_box.contains(event.position()):
            self.status_clicked.emit()
            return
        d = self.detection_at(event.position().x(), event.position().y())
        if d is not None:
            self.tile_clicked.emit(d)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#202020"))
        if self.image is not None:
            iw, ih = self.image.width(), self.image.height()
            scale = min(self.width() / iw, self.height() / ih)
            ox, oy = (self.width() - iw * scale) / 2, (self.height() - ih * scale) / 2
            p.drawImage(QRectF(ox, oy, iw * scale, ih * scale), self.image)
            for d in self.detections:
                poly = QPolygonF([QPointF(ox + x * scale, oy + y * scale) for x, y in d.corners])
                colour = LEGEND[self._kind(d)][0]
                p.setPen(QPen(colour, 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolygon(poly)
                if d.halves:
                    p.setFont(QFont("DejaVu Sans", 9, QFont.Weight.Bold))
                    for half in d.halves:
                        x, y = ox + half.center[0] * scale, oy + half.center[1] * scale
                        p.fillRect(QRectF(x - 7, y - 8, 14, 16), QColor(0, 0, 0, 160))
                        p.setPen(colour)
                        p.drawText(QRectF(x - 7, y - 8, 14, 16), Qt.AlignmentFlag.AlignCenter, str(half.pips))
            p.setPen(QPen(QColor("#ffd400"), 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            for x, y in self.marked:
                p.drawEllipse(QPointF(ox + x * scale, oy + y * scale), 26, 26)
        drawn = self.schematic() if self.image is None else Schematic()
        if drawn.tiles:
            paint_layout(p, self.layout_area(), drawn, self.scoring)
        elif self.image is None and self.status in ("hand", "ended", "stopped"):  # (moves entered after it)
            p.setPen(QColor("#d0d0d0"))
            p.setFont(QFont("DejaVu Sans", 13))
            p.drawText(QRectF(40, 60, self.width() - 80, self.height() - 120),
                       Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, translate("LiveView", HAND_HINT))
        self._paint_legend(p)
        _, colour = STATUS_TEXT.get(self.status, (self.status, "#6c757d"))
        text = self.status_text()
        p.setFont(QFont("DejaVu Sans", 11, QFont.Weight.Bold))
        width = max(250, p.fontMetrics().horizontalAdvance(text) + 24)  # the box fits the words of either language
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(QColor(colour)))
        self.status_box = QRectF(10, 10, width, 28)
        p.drawRoundedRect(self.status_box, 6, 6)
        p.setPen(QColor("white"))
        p.drawText(self.status_box, Qt.AlignmentFlag.AlignCenter, text)
        if self.end_sum is not None:
            text = self.end_sum_text()
            width = max(140, p.fontMetrics().horizontalAdvance(text) + 24)
            p.setBrush(QBrush(QColor(0, 0, 0, 170)))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRoundedRect(QRectF(self.width() - width - 10, 10, width, 28), 6, 6)
            p.setPen(QColor("white"))
            p.drawText(QRectF(self.width() - width - 10, 10, width, 28), Qt.AlignmentFlag.AlignCenter, text)
        p.end()
