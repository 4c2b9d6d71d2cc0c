"""A recording's position slider, marked at every move: a click or a drag picks a moment."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider

# The slider counts tenths of a second.
STEPS_PER_SECOND = 10


class Timeline(QSlider):
    picked = Signal(float)  # seconds into the recording, where a person clicked or let go of the handle

    def __init__(self, duration: float) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setRange(0, max(1, int(duration * STEPS_PER_SECOND)))
        self.setMinimumHeight(28)
        self._marks: set[int] = set()
        self.sliderReleased.connect(lambda: self.picked.emit(self.seconds()))

    def mousePressEvent(self, event) -> None:  # noqa: N802
        """A click on the groove goes to that moment (a plain slider would only step a page)."""
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        handle = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self)
        if handle.contains(event.position().toPoint()):
            super().mousePressEvent(event)
            return
        groove = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self)
        x = int(event.position().x()) - groove.left() - handle.width() // 2
        span = groove.width() - handle.width()
        self.setValue(QStyle.sliderValueFromPosition(self.minimum(), self.maximum(), x, span))
        self.picked.emit(self.seconds())

    @property
    def marks(self) -> list[float]:
        """Seconds into the recording at which a move was scored."""
        return [m / STEPS_PER_SECOND for m in sorted(self._marks)]

    def mark(self, seconds: float) -> None:
        step = int(round(seconds * STEPS_PER_SECOND))
        if step not in self._marks:
            self._marks.add(step)
            self.update()

    def set_marks(self, seconds: list[float]) -> None:
        """Exactly these moments marked (the moves in force: an undone move loses its mark)."""
        marks = {int(round(t * STEPS_PER_SECOND)) for t in seconds}
        if marks != self._marks:
            self._marks = marks
            self.update()

    def seconds(self) -> float:
        return self.value() / STEPS_PER_SECOND

    def show_position(self, seconds: float) -> None:
        if not self.isSliderDown():
            self.setValue(int(seconds * STEPS_PER_SECOND))

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        if not self._marks:
            return
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        groove = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self)
        handle = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self)
        # The handle's centre travels over the groove less half a handle at each end.
        span = groove.width() - handle.width()
        painter = QPainter(self)
        colour = QColor("#d2691e")
        for m in self._marks:
            x = groove.left() + handle.width() // 2 + QStyle.sliderPositionFromValue(self.minimum(), self.maximum(), m, span)
            # fillRect, not drawLine: PySide6's drawLine overloads have crashed here (a refcount error).
            painter.fillRect(x - 1, self.height() - 8, 2, 7, colour)
        painter.end()
