"""Starting the app: a new match, the last unfinished one, or a recording; the demo when there is no camera."""

from __future__ import annotations

import os
import sys
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
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
)

from scorer.app.session import Autosave, autosave_path, resume
from scorer.app.settings import Settings, SettingsDialog
from scorer.app.window import MainWindow
from scorer.errors import ScorerError
from scorer.pipeline import PipelineConfig, TablePipeline
from scorer.pipeline.sources import Camera, open_video
from scorer.rules.log import MatchHeader
from scorer.vision import TileDetector
from scorer.vision.calibration import config_dir, load_profile

DEMO = {"game": "horse-race", "players": ("Ann", "Ben"), "partnership": False, "starter": "Ben"}


def demo_video() -> Path:
    with as_file(files("scorer") / "data" / "demo.mp4") as path:
        return Path(path)


def camera_available(index: int = 0) -> bool:
    import cv2

    cap = cv2.VideoCapture(index)
    ok = cap.isOpened() and cap.read()[0]
    cap.release()
    return bool(ok)


class StartDialog(QDialog):
    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Domino table scorer — new match")
        form = QFormLayout(self)
        self.game = QComboBox()
        self.game.addItems(["horse-race", "seven-rocks"])
        self.players = QLineEdit("Ann, Ben, Cid, Dee")
        try:  # the club's names, offered as one types (new names are simply typed)
            from PySide6.QtWidgets import QCompleter

            from scorer.club import open_database, player_names

            names = player_names(open_database())
            completer = QCompleter(names, self)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            self.players.setCompleter(completer)
        except ScorerError:
            pass
        self.partnership = QCheckBox("two pairs (partners sit opposite)")
        self.starter = QLineEdit()
        self.starter.setPlaceholderText("who starts round 1 (empty: the camera sees who opens)")
        self.settings = Settings.load()
        self.camera = QSpinBox()
        self.camera.setRange(0, 9)
        self.camera.setValue(self.settings.camera)
        self.video = QLineEdit()
        self.video.setPlaceholderText("a recording to replay instead of the camera")
        browse = QPushButton("Open video file…")
        browse.clicked.connect(self._browse)
        browse_folder = QPushButton("Open recorded session…")
        browse_folder.clicked.connect(self._browse_folder)
        self.calibration = QComboBox()
        self.calibration.addItem("(none)")
        for p in sorted((config_dir() / "calibration").glob("*.json")):
            self.calibration.addItem(p.stem)
        form.addRow("Game", self.game)
        form.addRow("Players (clockwise from the seat nearest the camera)", self.players)
        form.addRow("", self.partnership)
        form.addRow("Starter", self.starter)
        form.addRow("Camera", self.camera)
        form.addRow("Recording", self.video)
        row = QHBoxLayout()
        row.addWidget(browse)
        row.addWidget(browse_folder)
        form.addRow("", row)
        form.addRow("Calibration", self.calibration)
        wizard = QPushButton("Calibrate the table…")
        wizard.clicked.connect(self._calibrate)
        form.addRow("", wizard)
        settings_button = QPushButton("Settings…")
        settings_button.clicked.connect(self._edit_settings)
        form.addRow("", settings_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.resume_button = buttons.addButton("Resume last match", QDialogButtonBox.ButtonRole.ActionRole)
        self.resume_button.setEnabled(autosave_path().exists())
        self.resume_button.clicked.connect(self._resume)
        self.resumed = False
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a recording", "", "Videos (*.mp4 *.avi *.mkv)")
        if path:
            self.video.setText(path)

    def _browse_folder(self) -> None:
        """A folder written by ``record`` (its video segments and session log)."""
        path = QFileDialog.getExistingDirectory(self, "Open a recorded session")
        if path:
            self.video.setText(path)

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
            self.camera.setValue(self.settings.camera)

    def _resume(self) -> None:
        self.resumed = True
        self.accept()


def open_window(header: MatchHeader, source, starter: str | None, calibration: str | None, lang: str,
                realtime: bool = True, match=None, events=None, settings: Settings | None = None) -> MainWindow:
    settings = settings or Settings.load()
    match = match or header.new_match()
    profile = load_profile(calibration) if calibration else None
    autosave = Autosave(autosave_path(), header)
    autosave.events = list(events or [])
    autosave.write()
    config = PipelineConfig(starter=starter, profile=profile, still_seconds=settings.still_seconds)
    pipeline = TablePipeline(match, TileDetector.live(), config, fps=getattr(source, "fps", 30.0) / getattr(source, "step", 1))
    window = MainWindow(header, match, pipeline, source, autosave, lang=lang, realtime=realtime)
    window.speaker.muted = not settings.voice
    window.mute.setChecked(not settings.voice)
    return window


def run_app(argv: list[str] | None = None, lang: str = "en", demo: bool = False) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    try:
        if demo or not camera_available():
            if not demo:
                QMessageBox.information(None, "No camera", "No camera was found: playing the bundled demo recording.")
            header = MatchHeader(DEMO["game"], DEMO["players"], DEMO["partnership"])
            window = open_window(header, open_video(demo_video(), step=2), DEMO["starter"], None, lang)
        else:
            dialog = StartDialog()
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return 0
            if dialog.resumed:
                header, match, events = resume(autosave_path())
                st = dialog.settings
                source = Camera(dialog.camera.value(), st.width, st.height)
                window = open_window(header, source, None, None, st.lang, match=match, events=events, settings=st)
            else:
                players = tuple(p.strip() for p in dialog.players.text().split(",") if p.strip())
                header = MatchHeader(dialog.game.currentText(), players, dialog.partnership.isChecked())
                header.new_match()  # checks the table before anything opens
                st = dialog.settings
                source = open_video(dialog.video.text(), step=2) if dialog.video.text() else Camera(dialog.camera.value(), st.width, st.height)
                calibration = None if dialog.calibration.currentIndex() == 0 else dialog.calibration.currentText()
                window = open_window(header, source, dialog.starter.text().strip() or None, calibration, st.lang, settings=st)
    except ScorerError as exc:
        QMessageBox.critical(None, "Cannot start", str(exc))
        return 2
    window.show()
    window.start()
    return app.exec()


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM") in ("offscreen", "minimal"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")
