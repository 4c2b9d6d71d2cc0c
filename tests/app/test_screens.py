"""Windows fitted to a laptop's screen (scorer.app.screens): a main window larger than the screen opens maximised, the
help scrolls, a small dialog is wide enough for its title."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QMainWindow, QPlainTextEdit

from scorer.app import screens


def test_a_window_larger_than_the_screen_opens_maximised(qtbot, monkeypatch) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 760)
    monkeypatch.setattr(screens, "free_area", lambda _w: (1366, 768 - 30))  # (a laptop, a panel of 30 px)
    screens.show_fitted(window)
    assert window.isMaximized()
    window.showNormal()  # (restored: as large as the screen lets it be, not the size asked for)
    assert window.width() <= 1366 - screens.FRAME[0] and window.height() <= 768 - 30 - screens.FRAME[1]
    roomy = QMainWindow()
    qtbot.addWidget(roomy)
    roomy.resize(1280, 760)
    monkeypatch.setattr(screens, "free_area", lambda _w: (1920, 1050))
    screens.show_fitted(roomy)
    assert roomy.isVisible() and not roomy.isMaximized()


def test_the_help_scrolls_within_the_screen(qtbot, monkeypatch) -> None:
    seen: list[QDialog] = []
    monkeypatch.setattr(screens, "free_area", lambda _w: (1280, 720))
    monkeypatch.setattr(QDialog, "exec", lambda dialog: seen.append(dialog) or 1)
    parent = QMainWindow()
    qtbot.addWidget(parent)
    screens.show_long_text(parent, "How to use", "a line of help\n" * 200)
    (dialog,) = seen
    assert dialog.windowTitle() == "How to use" and dialog.height() <= 720 - screens.FRAME[1]
    (view,) = dialog.findChildren(QPlainTextEdit)
    assert view.isReadOnly() and view.toPlainText().count("a line of help") == 200
    qtbot.waitUntil(lambda: not parent.findChildren(QDialog))  # (the help's dialog not kept, once closed)


def test_a_small_dialog_is_as_wide_as_its_title(qtbot) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    dialog.setWindowTitle("Kierroksen loppu: jäljelle jääneet kädet")
    screens.wide_enough_for_title(dialog)
    assert dialog.minimumWidth() > dialog.fontMetrics().horizontalAdvance(dialog.windowTitle()) + 100


def test_a_line_asked_for_comes_back_or_none_when_cancelled(qtbot, monkeypatch) -> None:
    from PySide6.QtWidgets import QApplication, QInputDialog

    answers = iter([QDialog.DialogCode.Accepted, QDialog.DialogCode.Rejected])
    widths: list[tuple[int, int]] = []  # (each dialog's minimum width, its title's)
    monkeypatch.setattr(QInputDialog, "exec", lambda dialog: widths.append(
        (dialog.minimumWidth(), dialog.fontMetrics().horizontalAdvance(dialog.windowTitle()))) or next(answers))
    assert screens.ask_text(None, "Correct the tile", "Its pips (two numbers 0-6):", "3 4") == "3 4"
    assert screens.ask_text(None, "Correct the tile", "Its pips (two numbers 0-6):", "3 4") is None
    qtbot.waitUntil(lambda: not any(isinstance(w, QInputDialog) for w in QApplication.topLevelWidgets()))  # (none kept)
    assert all(least > title for least, title in widths)
