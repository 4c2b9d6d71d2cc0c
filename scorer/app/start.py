"""Starting the app: always a start screen (camera or not) -- a new match, a saved one resumed, or the demo."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from importlib.resources import as_file, files
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from scorer.app.settings import Settings, SettingsDialog
from scorer.app.window import MainWindow
from scorer.errors import ScorerError
from scorer.pipeline import PipelineConfig, TablePipeline
from scorer.pipeline.sources import Camera, FrameSource, open_video
from scorer.rules.log import MatchHeader, MatchSource
from scorer.sessions import Session, SessionSummary, list_sessions
from scorer.vision import TileDetector
from scorer.vision.calibration import config_dir, load_profile

DEMO = {"game": "horse-race", "players": ("Ann", "Ben"), "partnership": False, "starter": "Ben"}
CAMERAS_PROBED = 4


def demo_video() -> Path:
    with as_file(files("scorer") / "data" / "demo.mp4") as path:
        return Path(path)


def camera_available(index: int = 0) -> bool:
    import cv2

    cap = cv2.VideoCapture(index)
    ok = cap.isOpened() and cap.read()[0]
    cap.release()
    return bool(ok)


def cameras_found() -> list[int]:
    return [i for i in range(CAMERAS_PROBED) if camera_available(i)]


@dataclass(frozen=True)
class NewMatch:
    header: MatchHeader
    starter: str | None


@dataclass(frozen=True)
class Resume:
    path: Path


class DemoMatch:
    """The bundled demo recording, scored as a new match."""


def _summary_text(s: SessionSummary) -> str:
    assert s.header is not None
    scores = ", ".join(f"{p} {v}" for p, v in s.scores.items())
    when = s.started[:16].replace("T", " ")
    return f"{when}  {s.header.rules.title}: {scores}  ({s.events} events{', recovered' if s.state == 'recovered' else ''})"


class StartDialog(QDialog):
    """New match (game, players, pairs, starter, the source, calibration), resume, demo, settings."""

    def __init__(self, settings: Settings | None = None, cameras: list[int] | None = None,
                 sessions: list[SessionSummary] | None = None) -> None:
        super().__init__()
        self.setWindowTitle("Domino table scorer")
        self.settings = settings or Settings.load()
        self.choice: NewMatch | Resume | DemoMatch | None = None
        outer = QVBoxLayout(self)
        self.unfinished = [s for s in (sessions if sessions is not None else list_sessions()) if s.resumable]
        outer.addWidget(self._resume_box())
        outer.addWidget(self._new_match_box(cameras if cameras is not None else cameras_found()))
        row = QHBoxLayout()
        demo = QPushButton("Play the demo")
        demo.clicked.connect(self._demo)
        settings_button = QPushButton("Settings…")
        settings_button.clicked.connect(self._edit_settings)
        row.addWidget(demo)
        row.addWidget(settings_button)
        row.addStretch(1)
        quit_button = QPushButton("Quit")
        quit_button.clicked.connect(self.reject)
        row.addWidget(quit_button)
        outer.addLayout(row)

    # -- resume ------------------------------------------------------------------------------

    def _resume_box(self) -> QWidget:
        box = QGroupBox("Go on with a saved match")
        col = QVBoxLayout(box)
        if not self.unfinished:
            col.addWidget(QLabel("No unfinished match is saved."))
            self.resume_button = None
            self.others = None
            return box
        newest = self.unfinished[0]
        self.resume_button = QPushButton(f"Resume the last match: {', '.join(newest.header.players)}")  # type: ignore[union-attr]
        self.resume_button.setToolTip(str(newest.path))
        self.resume_button.clicked.connect(lambda: self._resume(newest))
        col.addWidget(QLabel(_summary_text(newest)))
        col.addWidget(self.resume_button)
        self.others = QComboBox()
        for s in self.unfinished[1:]:
            self.others.addItem(_summary_text(s), str(s.path))
        if self.unfinished[1:]:
            row = QHBoxLayout()
            row.addWidget(self.others, 1)
            other = QPushButton("Resume this one")
            other.clicked.connect(lambda: self._resume_path(Path(self.others.currentData())))  # type: ignore[union-attr]
            row.addWidget(other)
            col.addWidget(QLabel("Other unfinished matches:"))
            col.addLayout(row)
        return box

    def _resume(self, summary: SessionSummary) -> None:
        self._resume_path(summary.path)

    def _resume_path(self, path: Path) -> None:
        self.choice = Resume(path)
        self.accept()

    # -- new match ------------------------------------------------------------------------------

    def _new_match_box(self, cameras: list[int]) -> QWidget:
        box = QGroupBox("New match")
        form = QFormLayout(box)
        self.game = QComboBox()
        self.game.addItem("Horse Race", "horse-race")
        self.game.addItem("Seven Rocks", "seven-rocks")
        self.players = QLineEdit("Ann, Ben, Cid, Dee")
        try:  # the club's names, offered as one types (new names are simply typed)
            from PySide6.QtWidgets import QCompleter

            from scorer.club import open_database, player_names

            completer = QCompleter(player_names(open_database()), self)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            self.players.setCompleter(completer)
        except ScorerError:
            pass
        self.partnership = QCheckBox("two pairs (partners sit opposite)")
        self.starter = QLineEdit()
        self.starter.setPlaceholderText("who starts round 1 (empty: the camera sees who opens)")
        self.source = QComboBox()
        for i in cameras:
            self.source.addItem(f"Camera {i}", i)
        self.source.addItem("A video file or recorded session…", "file")
        self.source.addItem("A network camera (URL)…", "url")
        if self.settings.camera in cameras:
            self.source.setCurrentIndex(cameras.index(self.settings.camera))
        self.location = QLineEdit()
        self.location.setPlaceholderText("a video file, a record folder, or rtsp:// / http:// for a phone over the table")
        browse = QPushButton("Open video file…")
        browse.clicked.connect(self._browse)
        browse_folder = QPushButton("Open recorded session…")
        browse_folder.clicked.connect(self._browse_folder)
        self.source.currentIndexChanged.connect(self._source_changed)
        self.calibration = QComboBox()
        self.calibration.addItem("(none)")
        for p in sorted((config_dir() / "calibration").glob("*.json")):
            self.calibration.addItem(p.stem)
        wizard = QPushButton("Calibrate the table…")
        wizard.clicked.connect(self._calibrate)
        self.problem = QLabel("")
        self.problem.setStyleSheet("color:#b00020")
        self.problem.setWordWrap(True)
        form.addRow("Game", self.game)
        form.addRow("Players (clockwise from the seat nearest the camera)", self.players)
        form.addRow("", self.partnership)
        form.addRow("Starter", self.starter)
        form.addRow("Source", self.source)
        form.addRow("", self.location)
        row = QHBoxLayout()
        row.addWidget(browse)
        row.addWidget(browse_folder)
        form.addRow("", row)
        cal = QHBoxLayout()
        cal.addWidget(self.calibration, 1)
        cal.addWidget(wizard)
        form.addRow("Calibration", cal)
        form.addRow(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start the match")
        buttons.accepted.connect(self._start_new)
        form.addRow(buttons)
        self._source_changed()
        return box

    def _source_changed(self) -> None:
        self.location.setEnabled(not isinstance(self.source.currentData(), int))

    def source_spec(self) -> MatchSource:
        data = self.source.currentData()
        if isinstance(data, int):
            return MatchSource("camera", str(data))
        where = self.location.text().strip()
        if not where:
            raise _FormError(self.location, "Give the video file, the recorded session's folder or the camera's URL.")
        if data == "url" or "://" in where:
            return MatchSource("url", where)
        if not Path(where).exists():
            raise _FormError(self.location, f"{where}: no such file or folder.")
        return MatchSource("video", str(Path(where).resolve()), 2)

    def _start_new(self) -> None:
        for field in (self.players, self.starter, self.location):
            field.setStyleSheet("")
        try:
            players = tuple(p.strip() for p in self.players.text().split(",") if p.strip())
            try:  # the table first, as the form reads
                MatchHeader(self.game.currentData(), players, self.partnership.isChecked()).new_match()
            except ScorerError as exc:
                raise _FormError(self.players, str(exc)) from None
            starter = self.starter.text().strip() or None
            if starter is not None and starter not in players:
                raise _FormError(self.starter, f"{starter} is not one of the players ({', '.join(players)}).")
            header = MatchHeader(self.game.currentData(), players, self.partnership.isChecked(),
                                 source=self.source_spec(),
                                 calibration=None if self.calibration.currentIndex() == 0 else self.calibration.currentText())
        except _FormError as exc:
            exc.field.setStyleSheet("border: 2px solid #b00020")
            exc.field.setFocus()
            self.problem.setText(exc.message)
            return
        self.problem.setText("")
        self.choice = NewMatch(header, starter)
        self.accept()

    def _demo(self) -> None:
        self.choice = DemoMatch()
        self.accept()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a recording", "", "Videos (*.mp4 *.avi *.mkv)")
        if path:
            self.source.setCurrentIndex(self.source.findData("file"))
            self.location.setText(path)

    def _browse_folder(self) -> None:
        """A folder written by ``record`` (its video segments)."""
        path = QFileDialog.getExistingDirectory(self, "Open a recorded session")
        if path:
            self.source.setCurrentIndex(self.source.findData("file"))
            self.location.setText(path)

    def _calibrate(self) -> None:
        from scorer.app.calibrate import CalibrationWizard

        wizard = CalibrationWizard()
        if wizard.exec() == QDialog.DialogCode.Accepted and wizard.profile is not None:
            if self.calibration.findText(wizard.profile.name) < 0:
                self.calibration.addItem(wizard.profile.name)
            self.calibration.setCurrentText(wizard.profile.name)

    def _edit_settings(self) -> None:
        dialog = SettingsDialog(self.settings)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.settings = dialog.settings


class _FormError(Exception):
    def __init__(self, field: QWidget, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


# -- opening a match -------------------------------------------------------------------------------


def source_of(spec: MatchSource | None, settings: Settings) -> FrameSource:
    """The frames a match is seen from, as its session file names them."""
    if spec is None or spec.kind == "camera":
        index = int(spec.location) if spec is not None and spec.location.isdigit() else settings.camera
        return Camera(index, settings.width, settings.height)
    if spec.kind == "url":
        return Camera(spec.location, settings.width, settings.height)
    if spec.kind == "demo":
        return open_video(demo_video(), step=2)
    return open_video(spec.location, step=spec.step)


def open_window(session: Session, starter: str | None, lang: str, settings: Settings | None = None,
                realtime: bool = True, source: FrameSource | None = None) -> MainWindow:
    """The main window on ``session``; a recording goes on from where its log ends."""
    settings = settings or Settings.load()
    header = session.header
    source = source or source_of(header.source, settings)
    profile = load_profile(header.calibration) if header.calibration else None
    config = PipelineConfig(starter=starter, profile=profile, still_seconds=settings.still_seconds)
    pipeline = TablePipeline(session, TileDetector.live(), config, fps=getattr(source, "fps", 30.0) / getattr(source, "step", 1))
    recorded = header.source is not None and header.source.kind in ("video", "demo")
    start = max((s.t for s in session.steps if s.t is not None), default=0.0) if recorded else 0.0
    window = MainWindow(session, pipeline, source, lang=lang, realtime=realtime, start_seconds=start)
    window.speaker.muted = not settings.voice
    window.mute.setChecked(not settings.voice)
    return window


def open_demo(lang: str, settings: Settings) -> MainWindow:
    header = MatchHeader(DEMO["game"], DEMO["players"], DEMO["partnership"], source=MatchSource("demo", "", 2))
    return open_window(Session.create(header), DEMO["starter"], lang, settings)


def open_choice(choice: NewMatch | Resume | DemoMatch, lang: str, settings: Settings,
                parent: QWidget | None = None) -> MainWindow:
    if isinstance(choice, DemoMatch):
        return open_demo(lang, settings)
    if isinstance(choice, Resume):
        session, damage = Session.open(choice.path)
        if damage is not None:
            QMessageBox.information(parent, "The saved match was damaged", damage.describe())
        return open_window(session, None, lang, settings)
    source = source_of(choice.header.source, settings)  # a bad video fails before a file is made
    return open_window(Session.create(choice.header), choice.starter, lang, settings, source=source)


def run_app(argv: list[str] | None = None, lang: str | None = None, demo: bool = False) -> int:
    """The start screen, then the match's window; the window's Match menu comes back to the start screen."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    settings = Settings.load()
    lang = lang or settings.lang
    first: DemoMatch | None = DemoMatch() if demo else None
    while True:
        window = _open_first(first, lang, settings) if first is not None else _start_screen(lang, settings)
        first = None
        if window is None:
            return 0
        window.show()
        window.start()
        code = app.exec()
        if window.next_action != "start":
            return code
        settings = Settings.load()
        lang = window.lang


def _open_first(choice: DemoMatch, lang: str, settings: Settings) -> MainWindow | None:
    try:
        return open_choice(choice, lang, settings)
    except ScorerError as exc:
        QMessageBox.critical(None, "Cannot start the demo", str(exc))
        return None


def _start_screen(lang: str, settings: Settings) -> MainWindow | None:
    dialog = StartDialog(settings)
    while True:
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.choice is None:
            return None
        try:
            return open_choice(dialog.choice, lang, dialog.settings)
        except ScorerError as exc:  # the form stays as typed: fix and start again
            QMessageBox.warning(dialog, "Cannot start", str(exc))
            dialog.choice = None


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM") in ("offscreen", "minimal"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")
