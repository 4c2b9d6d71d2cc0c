"""The app's settings, kept in the user's config folder: camera, resolution, language, voice, stability time."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QSpinBox

from scorer.vision.calibration import config_dir


@dataclass
class Settings:
    camera: int = 0
    width: int = 1280
    height: int = 720
    lang: str = "en"
    voice: bool = True
    still_seconds: float = 0.4

    @classmethod
    def path(cls) -> Path:
        return config_dir() / "settings.json"

    @classmethod
    def load(cls) -> Settings:
        try:
            data = json.loads(cls.path().read_text())
            known = {f.name for f in fields(cls)}
            return cls(**{k: v for k, v in data.items() if k in known})
        except (OSError, ValueError, TypeError):
            return cls()  # missing or damaged: the defaults, never a crash

    def save(self) -> None:
        path = self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=2))


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.setWindowTitle("Settings")
        self.settings = settings
        form = QFormLayout(self)
        self.camera = QSpinBox()
        self.camera.setRange(0, 9)
        self.camera.setValue(settings.camera)
        self.resolution = QComboBox()
        self.resolution.addItems(["1280x720", "1920x1080", "640x480"])
        self.resolution.setCurrentText(f"{settings.width}x{settings.height}")
        self.lang = QComboBox()
        self.lang.addItems(["en", "fi"])
        self.lang.setCurrentText(settings.lang)
        self.voice = QCheckBox("say the announcements aloud")
        self.voice.setChecked(settings.voice)
        self.still = QDoubleSpinBox()
        self.still.setRange(0.2, 3.0)
        self.still.setSingleStep(0.1)
        self.still.setValue(settings.still_seconds)
        self.still.setSuffix(" s")
        form.addRow("Camera", self.camera)
        form.addRow("Resolution", self.resolution)
        form.addRow("Language", self.lang)
        form.addRow("Voice", self.voice)
        form.addRow("Still table for", self.still)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _save(self) -> None:
        w, h = (int(v) for v in self.resolution.currentText().split("x"))
        self.settings = Settings(self.camera.value(), w, h, self.lang.currentText(), self.voice.isChecked(), self.still.value())
        self.settings.save()
        self.accept()
