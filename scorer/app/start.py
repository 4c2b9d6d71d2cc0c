"""Starting the app: always a start screen (camera or not) -- a new match, a saved one resumed, or the demo."""

from __future__ import annotations

import os
import sys
from importlib.resources import as_file, files
from pathlib import Path

from PySide6.QtCore import QLoggingCategory
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

from scorer.app import i18n
from scorer.app.i18n import translate
from scorer.app.screens import show_fitted
from scorer.app.settings import Settings
from scorer.app.cribbage import CribbageWindow, ask_with_a_box, open_cribbage
from scorer.app.start_screen import CribbageChoice, DemoMatch, NewMatch, Resume, StartDialog
from scorer.app.window import MainWindow
from scorer.app.wording import refusal_text
from scorer.cribbage.store import read_game
from scorer.errors import CalibrationError, ScorerError
from scorer.pipeline import open_table
from scorer.pipeline.sources import Camera, FrameSource, NoCamera, open_video
from scorer.rules.log import MatchHeader, MatchSource
from scorer.sessions import Session, cannot_open
from scorer.vision.calibration import load_profile

DEMO = {"game": "horse-race", "players": ("Ann", "Ben"), "partnership": False, "starter": "Ben"}


def demo_video() -> Path:
    with as_file(files("scorer") / "data" / "demo.mp4") as path:
        return Path(path)


# -- opening a match -------------------------------------------------------------------------------


def source_of(spec: MatchSource | None, settings: Settings) -> FrameSource:
    """The frames a match is seen from, as its session file names them."""
    if spec is None or spec.kind == "camera":
        index = int(spec.location) if spec is not None and spec.location.isdigit() else settings.camera
        return Camera(index, settings.width, settings.height)
    if spec.kind == "url":
        return Camera(spec.location, settings.width, settings.height)
    if spec.kind == "demo":
        return open_video(demo_video(), step=spec.step)
    if spec.kind == "hand":
        return NoCamera()
    return open_video(spec.location, step=spec.step)


def open_window(session: Session, starter: str | None, lang: str, settings: Settings | None = None,
                realtime: bool = True, source: FrameSource | None = None) -> MainWindow:
    """The main window on ``session``; a recording goes on from where its log ends."""
    settings = settings or Settings.load()
    header = session.header
    source = source or source_of(header.source, settings)
    pipeline = open_table(session, source, starter=starter, still_seconds=settings.still_seconds,
                          uncalibrated=not _calibration_found(header.calibration))
    recorded = header.source is not None and header.source.kind in ("video", "demo")
    start = max((s.t for s in session.steps if s.t is not None), default=0.0) if recorded else 0.0
    window = MainWindow(session, pipeline, source, lang=lang, realtime=realtime, start_seconds=start)
    window.speaker.muted = not settings.voice
    window.mute.setChecked(not settings.voice)
    window.use_club(settings)
    return window


def _calibration_found(name: str | None) -> bool:
    """Whether the calibration ``name`` a match is read through is there; where it is lost (renamed, deleted), the
    players are asked whether to go on without it (else it is refused, as before)."""
    try:
        if name:
            load_profile(name)
        return True
    except CalibrationError as exc:
        answer = QMessageBox.question(None, translate("StartDialog", "The calibration is missing"), translate(
            "StartDialog", "{problem}\n\nGo on without it? The table is then read uncalibrated (each seat by the edge of the "
            "picture nearest it); a calibration saved again under the name {name} is used the next time.").format(
            problem=str(exc), name=name))
        if answer != QMessageBox.StandardButton.Yes:
            raise
        return False


def open_demo(lang: str, settings: Settings) -> MainWindow:
    header = MatchHeader(DEMO["game"], DEMO["players"], DEMO["partnership"], source=MatchSource("demo", "", 1))
    return open_window(Session.create(header), DEMO["starter"], lang, settings)


def open_choice(choice: NewMatch | Resume | DemoMatch, lang: str, settings: Settings,
                parent: QWidget | None = None) -> MainWindow:
    if isinstance(choice, DemoMatch):
        return open_demo(lang, settings)
    if isinstance(choice, Resume):
        session, damage = Session.open(choice.path)
        if damage is not None:
            QMessageBox.information(parent, translate("StartDialog", "The saved match was damaged"), damage.describe())
        return open_window(session, None, lang, settings)
    source = source_of(choice.header.source, settings)  # a bad video fails before a file is made
    return open_window(Session.create(choice.header), choice.starter, lang, settings, source=source)


def run_app(argv: list[str] | None = None, lang: str | None = None, demo: bool = False) -> int:
    """The start screen, then the match's window; the window's Match menu (cribbage's Start screen) comes back to
    the start screen."""
    # (Qt's multimedia looks for PipeWire, optional, and says so twice at every start where it is missing.)
    QLoggingCategory.setFilterRules("qt.multimedia.symbolsresolver.warning=false")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    settings = Settings.load()
    lang = i18n.set_language(lang or settings.lang)  # before the first widget: every text in that language
    first: DemoMatch | None = DemoMatch() if demo else None
    while True:
        window = _open_first(first, lang, settings) if first is not None else _start_screen(lang, settings)
        first = None
        if window is None:
            return 0
        show_fitted(window)
        if not isinstance(window, CribbageWindow):  # (cribbage has no camera nor worker to start)
            window.start()
        code = app.exec()
        if window.next_action != "start":
            return code
        settings = Settings.load()
        lang = i18n.set_language(window.lang)  # (cribbage keeps its own language: the start screen follows it)


def _open_first(choice: DemoMatch, lang: str, settings: Settings) -> MainWindow | None:
    try:
        return open_choice(choice, lang, settings)
    except ScorerError as exc:
        QMessageBox.critical(None, translate("StartDialog", "Cannot start the demo"), refusal_text(exc))
        return None


def _start_screen(lang: str, settings: Settings) -> MainWindow | CribbageWindow | None:
    dialog = StartDialog(settings)
    while True:
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.choice is None:
            return None
        try:
            if isinstance(dialog.choice, CribbageChoice):
                return _open_cribbage(dialog.choice, i18n.language())
            return open_choice(dialog.choice, i18n.language(), dialog.settings)  # the settings may have changed it
        except ScorerError as exc:  # the form stays as typed: fix and start again
            QMessageBox.warning(dialog, translate("StartDialog", "Cannot start"), refusal_text(exc))
            dialog.choice = None


def _open_cribbage(choice: CribbageChoice, lang: str) -> CribbageWindow:
    if choice.saved is not None:
        try:
            saved = read_game(choice.saved)
        except OSError as exc:  # (gone or unreadable since the list was made)
            raise cannot_open(choice.saved, exc) from None
        return CribbageWindow(list(choice.players), lang=lang, saved=saved)
    return open_cribbage(list(choice.players), choice.target, choice.muggins, lang=lang, ask_resume=ask_with_a_box(lang))


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM") in ("offscreen", "minimal"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")
