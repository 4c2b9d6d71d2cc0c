"""Windows sized to the screen they open on: a laptop beside the table often has 1366x768 or 1280x720."""

from __future__ import annotations

from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QInputDialog, QPlainTextEdit, QVBoxLayout, QWidget

# What a window manager adds around a window (its title bar, borders): measured on Openbox, a title bar of 20-30 px.
FRAME = (16, 40)


def free_area(widget: QWidget | None) -> tuple[int, int]:
    """The width and height a window may take on ``widget``'s screen (the panels left out); large where none is known."""
    screen = (widget.screen() if widget is not None else None) or QGuiApplication.primaryScreen()
    if screen is None:
        return 10_000, 10_000
    free = screen.availableGeometry()
    return free.width(), free.height()


def show_fitted(window: QWidget) -> None:
    """Show a main window at the size it asked for where that fits the screen with its frame, else maximised and, once
    restored, as large as the screen lets it be: the bottom row of buttons and the status bar must not be below the
    screen's edge.  The screen is the one under the pointer (where the start screen was clicked), not the first."""
    screen = QGuiApplication.screenAt(QCursor.pos())
    if screen is not None and screen is not window.screen():
        window.setScreen(screen)
        window.move(screen.availableGeometry().topLeft())
    width, height = free_area(window)
    if window.width() + FRAME[0] > width or window.height() + FRAME[1] > height:
        least = window.minimumSizeHint()
        window.resize(max(least.width(), min(window.width(), width - FRAME[0])),
                      max(least.height(), min(window.height(), height - FRAME[1])))
        window.showMaximized()
    else:
        window.show()


def show_long_text(parent: QWidget, title: str, text: str) -> None:
    """A long text (the help) in a dialog that scrolls, as high as the screen lets it be."""
    dialog = QDialog(parent)
    dialog.setWindowTitle(title)
    view = QPlainTextEdit(text)
    view.setReadOnly(True)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
    buttons.accepted.connect(dialog.accept)
    layout = QVBoxLayout(dialog)
    layout.addWidget(view)
    layout.addWidget(buttons)
    width, height = free_area(parent)
    line = view.fontMetrics().lineSpacing()
    dialog.resize(min(90 * view.fontMetrics().averageCharWidth(), width - FRAME[0]),
                  min(34 * line, height - FRAME[1] - 20))
    try:
        dialog.exec()
    finally:
        dialog.deleteLater()


# Room a title bar takes beside its title: the window's icon and its buttons (Openbox: about 100 px).
TITLE_BAR_BUTTONS = 140


def wide_enough_for_title(dialog: QWidget) -> None:
    """A small dialog at least as wide as its title needs: a window manager cuts a title to the dialog's width
    ("Corre… he tile"), and the title says what the dialog is for."""
    title = dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())
    # (a minimum set by hand replaces the layout's own: the larger of the two kept)
    dialog.setMinimumWidth(max(dialog.minimumSizeHint().width(), dialog.minimumWidth(), int(title * 1.2) + TITLE_BAR_BUTTONS))


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    """A line of text asked for (None: cancelled), in a dialog wide enough for its title."""
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setTextValue(text)
    wide_enough_for_title(dialog)
    try:
        return dialog.textValue() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()
