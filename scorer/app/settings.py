"""The app's settings, kept in the user's config folder: camera, resolution, language, voice, stability time."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
)

from scorer.vision.calibration import config_dir


@dataclass
class Settings:
    camera: int = 0
    width: int = 1280
    height: int = 720
    lang: str = "en"
    voice: bool = True
    still_seconds: float = 0.4
    club_db: str = ""  # the club database's file or URL, where each move is written live; empty: this computer's own
    table: str = ""  # this table's name on the club's board
    # The last new match's table, offered again on the start screen.
    game: str = "horse-race"
    players: str = "Ann, Ben, Cid, Dee"
    partnership: bool = False
    source: str = ""  # the last new match's "file" or "url"; empty: a camera (``camera``), or none found
    location: str = ""  # the video file, recorded session's folder or camera URL last given
    calibration: str = ""  # the calibration profile last chosen for a new match (none: empty)

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
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2))
        os.replace(tmp, path)  # a crash mid-write leaves the old settings, not half a file

    @classmethod
    def remember(cls, **changes) -> Settings:
        """Load, change some fields (``Settings.remember(lang="fi")``), save; returns the saved settings."""
        settings = replace(cls.load(), **changes)
        settings.save()
        return settings


class SettingsDialog(QDialog):
    """The settings; the voice in use is shown, with a button that says a sample sentence.

    ``speaker`` is the app's :class:`~scorer.app.speech.Speaker`; without one the dialog makes its own
    (which tries the backends afresh).
    """

    def __init__(self, settings: Settings, speaker=None, samples: dict[str, str] | None = None) -> None:
        super().__init__()
        self.samples = samples  # the voice test's sentence (a match's own; None: a Horse Race move)
        self.setWindowTitle(self.tr("Settings"))
        self.settings = settings
        if speaker is None:
            from scorer.app.speech import Speaker

            speaker = Speaker(settings.lang, self)
        self.speaker = speaker
        form = QFormLayout(self)
        self.camera = QSpinBox()
        self.camera.setRange(0, 9)
        self.camera.setValue(settings.camera)
        self.resolution = QComboBox()
        self.resolution.addItems(["1280x720", "1920x1080", "640x480"])
        self.resolution.setCurrentText(f"{settings.width}x{settings.height}")
        self.lang = QComboBox()
        self.lang.addItem("English", "en")
        self.lang.addItem("suomi (Finnish)", "fi")
        self.lang.setCurrentIndex(max(0, self.lang.findData(settings.lang)))
        self.voice = QCheckBox(self.tr("say the announcements aloud"))
        self.voice.setChecked(settings.voice)
        self.backend = QLabel()
        self.backend.setWordWrap(True)
        self.backend.setMinimumWidth(280)  # wide enough for the engine and its note (a narrow wrapped label gets cut)
        self.test_button = QPushButton(self.tr("Test the voice"))
        self.test_button.clicked.connect(self.test_voice)
        voice_row = QHBoxLayout()
        voice_row.addWidget(self.backend, 1)
        voice_row.addWidget(self.test_button)
        self.tested = QLabel("")
        self.tested.setWordWrap(True)
        self.still = QDoubleSpinBox()
        self.still.setRange(0.2, 3.0)
        self.still.setSingleStep(0.1)
        self.still.setValue(settings.still_seconds)
        self.still.setSuffix(self.tr(" s", "seconds"))
        self.club_db = QLineEdit(settings.club_db)
        self.club_db.setPlaceholderText(self.tr("empty: this computer's club file"))
        self.club_db.setToolTip(self.tr("empty: this computer's club file; or a file, or postgresql+psycopg://user:password@host/club"))
        self.table = QLineEdit(settings.table)
        self.table.setPlaceholderText(self.tr("e.g. Table 3"))
        form.addRow(self.tr("Camera"), self.camera)
        form.addRow(self.tr("Resolution"), self.resolution)
        form.addRow(self.tr("Language"), self.lang)
        form.addRow(self.tr("Voice"), self.voice)
        form.addRow(self.tr("Speaks with"), voice_row)
        form.addRow("", self.tested)
        form.addRow(self.tr("Still table for"), self.still)
        form.addRow(self.tr("Club database"), self.club_db)
        form.addRow(self.tr("This table's name"), self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        speaker.backend_chosen.connect(self._show_backend)
        speaker.failed.connect(self._show_failure)
        self._show_backend()

    def chosen_lang(self) -> str:
        return self.lang.currentData() or "en"

    def _show_backend(self, *_args) -> None:
        from scorer.app.speech import TEXT_ONLY, engine_name

        engine = self.speaker.engine
        self.backend.setText(f"<b>{engine_name(engine)}</b>" + (
            self.tr(" — announcements are shown, not spoken") if engine == TEXT_ONLY else ""))
        tried = "; ".join(f"{name}: {why}" for name, why in self.speaker.rejected)
        self.backend.setToolTip(self.tr("Tried and not used: {tried}").format(tried=tried) if tried else "")
        self.test_button.setEnabled(not self.speaker.choosing)

    def _show_failure(self, message: str) -> None:
        self.tested.setText(message)
        self.adjustSize()

    def _club_file_made(self, club: str) -> bool:
        """Whether the club database ``club`` is there, or made now as the players said (a slip in its name would
        start an empty club of its own: they are asked first)."""
        from scorer.club import ClubError, file_missing, open_database

        if not file_missing(club):
            return True
        asked = QMessageBox.question(self, self.tr("Club database"), self.tr(
            "There is no club database at {path}. Make a new, empty one there? (The tables of one club evening "
            "must all name the same one: No lets you check the name.)").format(path=club))
        if asked != QMessageBox.StandardButton.Yes:
            return False
        try:
            open_database(club).dispose()
        except ClubError as exc:  # (its folder missing, not writable)
            QMessageBox.warning(self, self.tr("Club database"), str(exc))
            return False
        return True

    def test_voice(self) -> None:
        """Say a sample sentence in the language chosen in the form."""
        previous = self.speaker.lang
        self.speaker.lang = self.chosen_lang()
        engine = self.speaker.test(self.samples)
        self.speaker.lang = previous
        said = self.speaker.said_texts[-1] if self.speaker.said_texts else ""
        if engine == "text only":
            self.tested.setText(self.tr("No voice was found (Qt TextToSpeech and espeak-ng were tried); nothing is said."))
        else:
            self.tested.setText(self.tr("Saying with {engine}: “{text}”").format(engine=engine, text=said))
        self.adjustSize()

    def _save(self) -> None:
        club = self.club_db.text().strip()
        if club and club != self.settings.club_db and not self._club_file_made(club):
            self.club_db.setFocus()
            return
        w, h = (int(v) for v in self.resolution.currentText().split("x"))
        self.settings = replace(self.settings, camera=self.camera.value(), width=w, height=h, lang=self.chosen_lang(),
                                voice=self.voice.isChecked(), still_seconds=self.still.value(),
                                club_db=self.club_db.text().strip(), table=self.table.text().strip())
        self.settings.save()
        self.accept()
