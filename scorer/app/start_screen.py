"""The start screen: a saved match resumed, a new match (game, players, starter, source, calibration), the demo."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
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
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from scorer.app import i18n
from scorer.app.cameras import cameras_found
from scorer.app.cribbage_start import CribbageStartDialog, unfinished_count
from scorer.app.i18n import Retranslated, translate
from scorer.app.settings import Settings, SettingsDialog
from scorer.app.calibrate import CalibrationChooser
from scorer.app.club import open_club_window
from scorer.app.start_resume import cut_accepted, offered_first, resume_instead, same_table, summary_text
from scorer.app.start_form import (  # (the choices re-exported: the app's start and the tests take them from here)
    CribbageChoice as CribbageChoice, DemoMatch as DemoMatch, FormError, NewMatch as NewMatch, Resume as Resume, as_player,
    players_typed, source_box, table_problem,
)
from scorer.errors import ScorerError
from scorer.rules.log import MatchHeader, MatchSource
from scorer.sessions import SessionSummary, list_sessions

def _button(slot) -> QPushButton:
    button = QPushButton()
    button.clicked.connect(slot)
    return button


class StartDialog(Retranslated, QDialog):
    """New match (game, players, pairs, starter, the source, calibration), resume, demo, settings."""

    def __init__(self, settings: Settings | None = None, cameras: list[int] | None = None,
                 sessions: list[SessionSummary] | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings.load()
        self.choice: NewMatch | Resume | DemoMatch | CribbageChoice | None = None
        outer = QVBoxLayout(self)
        self.unfinished = offered_first(sessions if sessions is not None else list_sessions())
        self.cameras = cameras if cameras is not None else cameras_found()
        outer.addWidget(self._resume_box())
        outer.addWidget(self._new_match_box(self.cameras))
        row = QHBoxLayout()
        self.demo_button, self.cribbage_button, self.club_button, self.settings_button = (
            _button(self._demo), _button(self._cribbage), _button(self._club), _button(self._edit_settings))
        # The language, here too: a first start has none saved (the names need no translating).
        self.lang_box = i18n.language_box(i18n.language(), self._set_lang)
        row.addWidget(self.demo_button)
        row.addWidget(self.cribbage_button)
        row.addWidget(self.club_button)
        row.addWidget(self.settings_button)
        row.addWidget(self.lang_box)
        row.addStretch(1)
        self.quit_button = QPushButton()
        self.quit_button.clicked.connect(self.reject)
        row.addWidget(self.quit_button)
        outer.addLayout(row)
        # Enter in the form starts the match typed, on a resume button tabbed to that match; the focus starts
        # in the form (first in the focus chain, the resume button became Enter's), helper buttons never are.
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(button in (self.start_button, self.resume_button, self.other_button))
        # (set once the button is in the dialog: Qt takes it as the dialog's own default only then -- the one
        # Enter goes back to when the focus leaves a resume button)
        self.start_button.setDefault(True)
        self.players.setFocus()
        self.built = True
        self.retranslate()

    def retranslate(self) -> None:
        """The start screen's texts in the current language (also on Qt's LanguageChange)."""
        self.setWindowTitle(self.tr("Domino table scorer"))
        self.demo_button.setText(self.tr("Play the demo"))
        waiting = unfinished_count()
        self.cribbage_button.setText(self.tr("Cribbage… ({count} unfinished)").format(count=waiting) if waiting else self.tr("Cribbage…"))
        self.cribbage_button.setToolTip(self.tr("A cribbage game on its own board: an unfinished one resumed, or a new "
                                                "one to 121 or 61, with muggins or not"))
        self.club_button.setText(self.tr("Club…"))
        self.club_button.setToolTip(self.tr("The club's history: tonight's matches, the standings, each player's page"))
        self.settings_button.setText(self.tr("Settings…"))
        self.quit_button.setText(self.tr("Quit"))
        self.resume_group.setTitle(self.tr("Go on with a saved match"))
        if self.resume_button is None:
            self.no_resume.setText(self.tr("No unfinished domino match is saved."))
        else:
            newest = self.unfinished[0]
            self.resume_button.setText(self.tr("Resume the last match: {players}").format(
                players=", ".join(newest.header.players)))  # type: ignore[union-attr]
            self.newest_label.setText(summary_text(newest))
            for i, summary in enumerate(self.unfinished[1:]):
                self.others.setItemText(i, summary_text(summary))  # type: ignore[union-attr]
            if self.other_button is not None:
                self.other_button.setText(self.tr("Resume this one"))
                self.others_label.setText(self.tr("Other unfinished matches:"))
        self.new_group.setTitle(self.tr("New match"))
        self.partnership.setText(self.tr("two pairs (partners sit opposite)"))
        # (the placeholder short enough to be read whole in the field; the tooltip says it all)
        self.starter.setPlaceholderText(self.tr("empty: whoever lays the first tile"))
        self.starter.setToolTip(self.tr("who starts round 1 (empty: whoever lays the first tile, as your lot drew)"))
        for i in range(self.source.count()):
            data = self.source.itemData(i)
            if isinstance(data, int):
                self.source.setItemText(i, self.tr("Camera {number}").format(number=data))
            elif data == "file":
                self.source.setItemText(i, self.tr("A video file or recorded session…"))
            elif data == "url":
                self.source.setItemText(i, self.tr("A network camera (URL)…"))
            elif data == "hand":
                self.source.setItemText(i, self.tr("No camera: every move entered by hand"))
        self.location.setPlaceholderText(self.tr("a file, a folder, rtsp:// or http://"))
        self.location.setToolTip(self.tr("a video file, a record folder, or rtsp:// / http:// for a phone over the table"))
        self.browse_button.setText(self.tr("Open video file…"))
        self.browse_folder_button.setText(self.tr("Open recorded session…"))
        self.calibration.retranslate()
        self.game_label.setText(self.tr("Game"))
        self.players_label.setText(self.tr("Players (clockwise from the seat nearest the camera)"))
        self.starter_label.setText(self.tr("Starter"))
        self.source_label.setText(self.tr("Source"))
        self.calibration_label.setText(self.tr("Calibration"))
        self.start_button.setText(self.tr("Start the match"))
        self._recheck()  # (a problem told, told again in the new language)

    # -- resume ------------------------------------------------------------------------------

    def _resume_box(self) -> QWidget:
        box = self.resume_group = QGroupBox()
        col = QVBoxLayout(box)
        self.other_button: QPushButton | None = None
        if not self.unfinished:
            self.no_resume = QLabel()
            col.addWidget(self.no_resume)
            self.resume_button = None
            self.others = None
            return box
        newest = self.unfinished[0]
        self.resume_button = QPushButton()
        self.resume_button.setToolTip(str(newest.path))
        self.resume_button.clicked.connect(lambda: self._resume(newest))
        self.newest_label = QLabel()
        col.addWidget(self.newest_label)
        col.addWidget(self.resume_button)
        self.others = QComboBox()
        for s in self.unfinished[1:]:
            self.others.addItem(summary_text(s), str(s.path))
        if self.unfinished[1:]:
            row = QHBoxLayout()
            row.addWidget(self.others, 1)
            self.other_button = QPushButton()
            self.other_button.clicked.connect(lambda: self._resume_path(Path(self.others.currentData())))  # type: ignore[union-attr]
            row.addWidget(self.other_button)
            self.others_label = QLabel()
            col.addWidget(self.others_label)
            col.addLayout(row)
        return box

    def _resume(self, summary: SessionSummary) -> None:
        self._resume_path(summary.path)

    def _resume_path(self, path: Path) -> None:
        summary = next((s for s in self.unfinished if s.path == path), None)
        if summary is not None and not cut_accepted(self, summary):
            return
        self.choice = Resume(path)
        self.accept()

    # -- new match ------------------------------------------------------------------------------

    def _new_match_box(self, cameras: list[int]) -> QWidget:
        box = self.new_group = QGroupBox()
        form = self.form = QFormLayout(box)
        self.game = QComboBox()
        # (its list drops below it: opened over it, the game chosen before lay under the pointer, and a click where
        # the box was kept it -- a newcomer started Seven Rocks for two meaning Horse Race)
        self.game.setStyleSheet("combobox-popup: 0")
        self.game.addItem("Horse Race", "horse-race")
        self.game.addItem("Seven Rocks", "seven-rocks")
        self.game.setCurrentIndex(max(0, self.game.findData(self.settings.game)))
        self.players = QLineEdit(self.settings.players)
        self._offer_club_names()
        self.partnership = QCheckBox()
        self.partnership.setChecked(self.settings.partnership)
        self.pairs_before = self.settings.partnership and self.game.currentData() != "seven-rocks"
        self.game.currentIndexChanged.connect(self._game_changed)
        self.starter = QLineEdit()
        self.source = source_box(cameras, self.settings)
        self.source.currentIndexChanged.connect(self._source_changed)
        self.source.activated.connect(self._source_chosen)
        self.location = QLineEdit(self.settings.location)
        self.problem = QLabel("")
        self.problem.setStyleSheet("color:#b00020")
        self.problem.setWordWrap(True)
        self.problem_field: QWidget | None = None  # the field the problem told comes from, framed red
        self.game_label, self.players_label, self.starter_label, self.source_label, self.calibration_label = (
            QLabel() for _ in range(5))
        form.addRow(self.game_label, self.game)
        form.addRow(self.players_label, self.players)
        form.addRow("", self.partnership)
        form.addRow(self.starter_label, self.starter)
        form.addRow(self.source_label, self.source)
        form.addRow("", self.location)
        form.addRow("", self._browse_buttons())
        # (The wizard looks through the camera chosen above, at the resolution play takes its pictures at.)
        self.calibration = CalibrationChooser(self.settings.calibration, lambda: (
            d if isinstance(d := self.source.currentData(), int) else self.settings.camera, self.settings.width, self.settings.height))
        form.addRow(self.calibration_label, self.calibration)
        form.addRow(self.problem)
        buttons = QDialogButtonBox()
        # Not the standard OK: Qt would set that button's text back to its own "OK" on a change of language.
        self.start_button = buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._start_new)
        form.addRow(buttons)
        self._source_changed()
        # (after the form's game-changed handler: the pairs box set first, then the table checked)
        for changed in (self.game.currentIndexChanged, self.players.textChanged, self.partnership.toggled,
                        self.starter.textChanged):
            changed.connect(self._recheck)
        return box

    def _offer_club_names(self) -> None:
        """The club's names, offered as one types the players (new names are simply typed)."""
        try:
            from PySide6.QtWidgets import QCompleter

            from scorer.club import file_missing, open_readonly, player_names
            from scorer.club.connection import default_url

            # (Only a club file already there, read: none is made, and a server is not waited for before the screen.)
            club = self.settings.club_db or default_url()
            if ("://" not in club or club.startswith("sqlite")) and not file_missing(club):
                completer = QCompleter(player_names(open_readonly(club)), self)
                completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
                self.players.setCompleter(completer)
        except ScorerError:
            pass

    def _game_changed(self) -> None:
        # Seven Rocks is played in two pairs only: chosen, it ticks the pairs box; left, the box is as it was.
        if self.game.currentData() == "seven-rocks":
            self.pairs_before = self.partnership.isChecked()
            self.partnership.setChecked(True)
        else:
            self.partnership.setChecked(self.pairs_before)

    def _browse_buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.browse_button = QPushButton()
        self.browse_button.clicked.connect(self._browse)
        self.browse_folder_button = QPushButton()
        self.browse_folder_button.clicked.connect(self._browse_folder)
        row.addWidget(self.browse_button)
        row.addWidget(self.browse_folder_button)
        return row

    def _source_changed(self) -> None:
        data = self.source.currentData()
        self.location.setEnabled(not isinstance(data, int) and data != "hand")
        self.calibration.set_usable(data != "hand")  # (no camera: no calibration to read it through)

    def _source_chosen(self) -> None:
        """A recording picked from the open list opens the file picker (the item promises it) where none is given."""
        data, where = self.source.currentData(), self.location.text().strip()
        if data == "file" and self.source.picked and not (where and Path(where).exists()):
            self._browse()

    def source_spec(self) -> MatchSource:
        data = self.source.currentData()
        if isinstance(data, int):
            return MatchSource("camera", str(data))
        if data == "hand":
            return MatchSource("hand")
        where = self.location.text().strip()
        if not where:
            raise FormError(self.location, self.tr("Give the video file, the recorded session's folder or the camera's URL."))
        if "://" in where or (data == "url" and not Path(where).exists()):  # (a file typed as a URL is a video)
            return MatchSource("url", where)
        if not Path(where).exists():
            raise FormError(self.location, self.tr("{path}: no such file or folder.").format(path=where))
        return MatchSource("video", str(Path(where).resolve()), 2)

    def _checked_players(self) -> tuple[str, ...]:
        """The players typed, where they can play the game chosen (in pairs or not); else a FormError on them."""
        players = players_typed(self.players.text())
        problem = table_problem(self.game.currentData(), players, self.partnership.isChecked())
        if problem is not None:
            raise FormError(self.players, problem)
        return players

    def _checked_starter(self, players: tuple[str, ...]) -> str | None:
        starter = as_player(self.starter.text().strip(), players) or None
        if starter is not None and starter not in players:
            raise FormError(self.starter, self.tr("{name} is not one of the players ({players}).").format(
                name=starter, players=", ".join(players)))
        return starter

    def _show_problem(self, exc: FormError | None) -> None:
        """The form's problem told under it and its field framed red; None: no problem, every field plain."""
        self.problem_field = None if exc is None else exc.field
        for field in (self.players, self.starter, self.location):
            field.setStyleSheet("border: 2px solid #b00020" if field is self.problem_field else "")
        self.problem.setText("" if exc is None else exc.message)

    def _recheck(self) -> None:
        """A problem told follows the choices: taken back once mended, or told as it now stands; a new one is
        first told by Start (not at each letter of a name typed).  A source's problem holds whatever the table."""
        if (shown := self.problem_field) is None or shown is self.location:
            return
        try:
            players = self._checked_players()
            if shown is self.starter:
                self._checked_starter(players)
        except FormError as exc:
            self._show_problem(exc)
            return
        self._show_problem(None)

    def _start_new(self) -> None:
        try:
            players = self._checked_players()  # the table first, as the form reads
            starter = self._checked_starter(players)
            header = MatchHeader(self.game.currentData(), players, self.partnership.isChecked(),
                                 table=self.settings.table or None, source=self.source_spec(),
                                 calibration=self.calibration.chosen())
        except FormError as exc:
            self._show_problem(exc)
            exc.field.setFocus()
            return
        self._show_problem(None)
        unfinished = same_table(self.unfinished, header.game, players)
        if unfinished is not None and (resume := resume_instead(self, unfinished)) is not False:
            if resume:
                self._resume_path(unfinished.path)
            return
        self.choice = NewMatch(header, starter)
        data, spec = self.source.currentData(), header.source  # ("No camera" is offered anyway where none is found)
        table = {"game": header.game, "players": ", ".join(players), "partnership": header.partnership,
                 "source": data if data in ("file", "url") else "", "camera": data if isinstance(data, int) else self.settings.camera,
                 "location": spec.location if spec is not None and spec.kind in ("video", "url") else self.settings.location,
                 "calibration": (self.calibration.chosen() or "") if self.calibration.box.isEnabled() else self.settings.calibration}
        self.settings = replace(self.settings, **table)
        try:  # the table offered again next time
            Settings.remember(**table)
        except OSError:
            pass
        self.accept()

    def _cribbage(self) -> None:
        dialog = CribbageStartDialog(players_typed(self.players.text()))
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.choice = dialog.choice
            self.accept()

    def _club(self) -> None:
        self.club_window = open_club_window(self, self.settings.club_db)

    def _demo(self) -> None:
        self.choice = DemoMatch()
        self.accept()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a recording"), "", self.tr("Videos (*.mp4 *.avi *.mkv)"))
        if path:
            self.source.setCurrentIndex(self.source.findData("file"))
            self.location.setText(path)

    def _browse_folder(self) -> None:
        """A folder written by ``record`` (its video segments)."""
        path = QFileDialog.getExistingDirectory(self, self.tr("Open a recorded session"))
        if path:
            self.source.setCurrentIndex(self.source.findData("file"))
            self.location.setText(path)

    def _set_lang(self, lang: str) -> None:
        """This screen and what follows in ``lang`` (Qt's LanguageChange retranslates it), remembered."""
        i18n.set_language(lang)
        self.settings = replace(self.settings, lang=i18n.language())
        try:
            Settings.remember(lang=self.settings.lang)
        except OSError:
            pass  # (not remembered: switched all the same)

    def _edit_settings(self) -> None:
        dialog = SettingsDialog(replace(self.settings, lang=i18n.language()))  # (the language in use, as --lang chose it)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.settings = dialog.settings
            if self.settings.lang != i18n.language():
                i18n.set_language(self.settings.lang)  # this screen and what follows, in the language chosen
                self.retranslate()
                self.lang_box.setCurrentIndex(self.lang_box.findData(i18n.language()))
