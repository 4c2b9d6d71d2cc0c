"""The main window: live view, cribbage-board scoreboard, move log, announcements and corrections."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QThread, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QFont, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from scorer.app import i18n
from scorer.app.corrections import ConfirmDialog, HandsDialog, TilePicker, event_text, player_menu
from scorer.app.liveview import LiveView, to_qimage
from scorer.app.pegboard import PegBoard, Track
from scorer.app.tablemode import TableMode
from scorer.app.settings import Settings
from scorer.app.speech import Speaker, engine_name
from scorer.app.timeline import Timeline
from scorer.app.wording import question_text
from scorer.app.worker import PipelineWorker, Snapshot
from scorer.errors import ScorerError
from scorer.pipeline import MoveEvent, NeedsConfirmation, Notice, StatusChange, TablePipeline
from scorer.pipeline.announce import Announcement
from scorer.pipeline.sources import FrameSource
from scorer.rules import Draw, Event, Match, Pass, RoundStart, Tile
from scorer.rules.history import MatchHistory
from scorer.rules.log import event_to_json
from scorer.rules.transcript import Step, narrate


class MainWindow(QMainWindow):
    """Shows the session the worker keeps (a :class:`Snapshot` after every change) and sends it requests."""

    closing = Signal()
    club_status = Signal(object)  # the club board's LiveStatus, from its worker thread
    live_table = None  # the club's LiveTable, where the match is written move by move
    # Handed to the start screen when the window closes: "start" (new, open, resume) or None (quit).
    next_action: str | None = None

    def __init__(self, session: MatchHistory, pipeline: TablePipeline, source: FrameSource, lang: str = "en",
                 realtime: bool = True, speaker: Speaker | None = None, start_seconds: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.header = session.header
        self.snapshot = Snapshot.of(session)
        self.pipeline = pipeline
        self.lang = i18n.known(lang)
        if i18n.language() != self.lang:
            i18n.set_language(self.lang)
        self.speaker = speaker or Speaker(self.lang)
        self.import_to_club = True
        self.review_at: float | None = None
        self.pictures: dict[int, QPixmap] = {}  # the live view when each move was scored, by its log line
        self.announcement: Announcement | None = None  # the last one, shown again in a new language
        self.last_announcement = ""
        self.finished = False
        self.resize(1280, 760)
        self._build()
        self.worker = PipelineWorker(source, pipeline, realtime, start_seconds=start_seconds)
        self.thread = QThread(self)
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.run)
        self.worker.frame.connect(self.live.show_frame)
        self.worker.view.connect(self._on_view)
        self.worker.events.connect(self._on_events)
        self.worker.changed.connect(self._on_changed)
        self.worker.reviewed.connect(self._on_reviewed)
        self.worker.failed.connect(self._on_failed)
        self.worker.finished.connect(self._on_finished)
        if self.worker.seekable:
            self._build_timeline(source)
        self.retranslate()
        self._on_changed(self.snapshot)

    @property
    def match(self) -> Match:
        """The match as the session last reported it."""
        return self.snapshot.match

    # -- layout ------------------------------------------------------------------------

    def _build(self) -> None:
        self.live = LiveView()
        self.live.tile_clicked.connect(self._correct_tile)
        right = QWidget()
        col = QVBoxLayout(right)
        self.banner = QLabel(" ")
        self.banner.setWordWrap(True)
        self.banner.setMinimumHeight(64)
        self.banner.setFont(QFont("DejaVu Sans", 16, QFont.Weight.Bold))
        self.banner.setStyleSheet("background:#10324a;color:white;padding:8px;border-radius:6px")
        self.pegboard = PegBoard()
        self.log = QListWidget()
        self.log.setWordWrap(True)
        self.log.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log.itemClicked.connect(self._show_board_at)
        col.addWidget(self.banner)
        col.addWidget(self.pegboard)
        self.moves_label = QLabel()
        col.addWidget(self.moves_label)
        col.addWidget(self.log, 1)
        buttons = QHBoxLayout()
        self.correction_buttons: list[QPushButton] = []
        for slot in (self._add_pass, self._add_draw, self._enter_move, self._enter_hands):
            b = QPushButton()
            b.clicked.connect(slot)
            buttons.addWidget(b)
            self.correction_buttons.append(b)
        self.mute = QCheckBox()
        self.mute.toggled.connect(lambda on: setattr(self.speaker, "muted", on))
        buttons.addWidget(self.mute)
        col.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.live)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.table_mode = TableMode()
        self.pages = QStackedWidget()
        self.pages.addWidget(splitter)
        self.pages.addWidget(self.table_mode)
        self.setCentralWidget(self.pages)
        self.match_bar = QToolBar()
        self.addToolBar(self.match_bar)
        self.undo_action = QAction(self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        self.redo_action = QAction(self)
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.redo_action.triggered.connect(self.redo)
        self.match_bar.addAction(self.undo_action)
        self.match_bar.addAction(self.redo_action)
        self.club_action = QAction(self)
        self.club_action.triggered.connect(self.open_club)
        self.match_bar.addAction(self.club_action)
        self.lang_box = QComboBox()
        for code, name in i18n.LANGS.items():  # each language named in itself
            self.lang_box.addItem(name, code)
        self.lang_box.setCurrentIndex(max(0, self.lang_box.findData(self.lang)))
        self.lang_box.currentIndexChanged.connect(lambda _i: self._set_lang(self.lang_box.currentData()))
        self.lang_label = QLabel()
        self.match_bar.addWidget(self.lang_label)
        self.match_bar.addWidget(self.lang_box)
        self.speaker.backend_chosen.connect(lambda _name: self.statusBar().showMessage(self._speech_text(), 8000))
        self.speaker.failed.connect(lambda why: self.statusBar().showMessage(why, 15000))
        self._build_menus()
        self.statusBar().showMessage(self._speech_text())

    def _speech_text(self) -> str:
        return self.tr("Speech: {engine}").format(engine=engine_name(self.speaker.engine))

    def _action(self, menu, slot, shortcut=None) -> QAction:
        action = menu.addAction("")
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            self.addAction(action)  # its key works while the menu bar is hidden (table mode)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.match_menu = bar.addMenu("")
        self.new_action = self._action(self.match_menu, lambda: self._to_start_screen(), QKeySequence.StandardKey.New)
        self.open_action = self._action(self.match_menu, lambda: self._to_start_screen(), QKeySequence.StandardKey.Open)
        self.resume_action = self._action(self.match_menu, lambda: self._to_start_screen(), "Ctrl+R")
        self.match_menu.addAction(self.club_action)
        self.match_menu.addSeparator()
        self.quit_action = self._action(self.match_menu, self.close, QKeySequence.StandardKey.Quit)
        self.play_menu = bar.addMenu("")
        self.pause_action = self._action(self.play_menu, self._toggle_pause_action, "Space")
        self.pause_action.setCheckable(True)
        self.round_action = self._action(self.play_menu, self._start_round, "N")
        self.pass_action = self._action(self.play_menu, self._add_pass, "P")
        self.draw_action = self._action(self.play_menu, self._add_draw, "D")
        self.tile_action = self._action(self.play_menu, self._enter_move, "T")
        self.hands_action = self._action(self.play_menu, self._enter_hands, "E")
        self.play_menu.addSeparator()
        self.play_menu.addAction(self.undo_action)
        self.play_menu.addAction(self.redo_action)
        self.view_menu = bar.addMenu("")
        self.table_action = self._action(self.view_menu, self.toggle_table_mode, "F11")
        self.table_action.setCheckable(True)
        leave = QAction(self)
        leave.setShortcut(QKeySequence("Esc"))
        leave.triggered.connect(lambda: self.table_action.isChecked() and self.toggle_table_mode())
        self.addAction(leave)
        self.settings_action = self._action(self.view_menu, self._edit_settings)
        self.language_menu = self.view_menu.addMenu("")
        group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code, name in i18n.LANGS.items():
            action = self.language_menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(code == self.lang)
            action.triggered.connect(lambda _=False, c=code: self.lang_box.setCurrentIndex(self.lang_box.findData(c)))
            group.addAction(action)
            self.language_actions[code] = action
        self.help_menu = bar.addMenu("")
        self.help_action = self._action(self.help_menu, self._show_help, QKeySequence.StandardKey.HelpContents)
        self.about_action = self._action(self.help_menu, self._show_about)

    # -- the texts, in the language chosen ------------------------------------------------------

    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "worker"):
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Every text of the window in the current language: menus, buttons, labels, the status, the
        move list, the board's title, the banner and the table mode (on Qt's LanguageChange too)."""
        self.setWindowTitle(self.tr("Domino table scorer — {game}: {players}").format(
            game=self.match.rules.title, players=", ".join(self.header.players)))
        self.moves_label.setText(self.tr("Moves (click one to see the board then)"))
        for button, text in zip(self.correction_buttons, (self.tr("Pass / knock…"), self.tr("Draw…"), self.tr("Play…"),
                                                          self.tr("Round end…"))):
            button.setText(text)
        self.mute.setText(self.tr("Mute"))
        self.match_bar.setWindowTitle(self.tr("Match"))
        self.undo_action.setText(self.tr("Undo"))
        self.redo_action.setText(self.tr("Redo"))
        self.club_action.setText(self.tr("Club"))
        self.lang_label.setText(self.tr(" Language "))
        self.match_menu.setTitle(self.tr("&Match"))
        self.new_action.setText(self.tr("&New match…"))
        self.open_action.setText(self.tr("&Open a recording…"))
        self.resume_action.setText(self.tr("&Resume a saved match…"))
        self.quit_action.setText(self.tr("&Quit"))
        self.play_menu.setTitle(self.tr("&Play"))
        self.pause_action.setText(self.tr("&Pause"))
        self.round_action.setText(self.tr("Start the &next round…"))
        self.pass_action.setText(self.tr("P&ass / knock…"))
        self.draw_action.setText(self.tr("&Draw…"))
        self.tile_action.setText(self.tr("P&lay a tile…"))
        self.hands_action.setText(self.tr("Round &end: the hands…"))
        self.view_menu.setTitle(self.tr("&View"))
        self.table_action.setText(self.tr("&Table mode (full screen, large scores)"))
        self.settings_action.setText(self.tr("&Settings…"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.help_action.setText(self.tr("&How to use…"))
        self.about_action.setText(self.tr("&About…"))
        if hasattr(self, "play_button"):
            self.recording_bar.setWindowTitle(self.tr("Recording"))
            self.play_button.setText(self.tr("Play") if self.play_button.isChecked() else self.tr("Pause"))
            self.live_button.setText(self.tr("Back to live"))
            self.again_button.setText(self.tr("Score again from here…"))
            self.time_label.setText(self.tr("{seconds} s").format(
                seconds=i18n.decimal(self.review_at if self.review_at is not None else self.worker.position)))
        if self.announcement is not None:
            self.last_announcement = self.announcement.text(self.lang)
            self.banner.setText(self.last_announcement)
        self._renarrate()
        self._refresh_board()
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()
        if self.finished:
            self._show_finished()
        else:
            self.statusBar().showMessage(self._speech_text())
        self.live.update()

    def _item_text(self, step: Step) -> str:
        return "\n".join(line.strip() for line in narrate(step, self.lang)) or event_text(step.event)

    def _renarrate(self) -> None:
        """The move list again, in the current language."""
        by_line = {s.line: s for s in self.snapshot.steps}
        for row in range(self.log.count()):
            item = self.log.item(row)
            step = by_line.get(item.data(Qt.ItemDataRole.UserRole))
            if step is not None:
                item.setText(self._item_text(step))

    def _to_start_screen(self) -> None:
        self.next_action = "start"
        self.close()

    def toggle_table_mode(self) -> None:
        on = self.pages.currentWidget() is not self.table_mode
        self.pages.setCurrentWidget(self.table_mode if on else self.pages.widget(0))
        self.table_action.setChecked(on)
        for toolbar in self.findChildren(QToolBar):
            toolbar.setVisible(not on)
        self.menuBar().setVisible(not on)
        self.statusBar().setVisible(not on)
        if on:
            self._refresh_table_mode()
            self.showFullScreen()
        else:
            self.showNormal()

    def _refresh_table_mode(self) -> None:
        self.table_mode.show_state(self.match, self.last_announcement)

    def _show_help(self) -> None:
        QMessageBox.information(self, self.tr("How to use"), i18n.translate("MainWindow", HELP_TEXT))

    def _show_about(self) -> None:
        path = getattr(self.session, "path", None)
        QMessageBox.about(self, self.tr("About"), self.tr(
            "Domino table scorer\n\nScores Horse Race and Seven Rocks from a camera over the table, on a cribbage "
            "board. Every match is kept in its session file ({path}).").format(
                path=path if path is not None else self.tr("in memory")))

    def _build_timeline(self, source) -> None:
        """For a recording: play/pause, a position slider marked at every move, review and scoring again."""
        bar = self.recording_bar = QToolBar()
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, bar)
        self.play_button = QPushButton()
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._toggle_pause)
        self.timeline = Timeline(getattr(source, "duration", 0.0) or 1.0)
        self.timeline.picked.connect(self.review)
        self.time_label = QLabel()
        self.live_button = QPushButton()
        self.live_button.clicked.connect(self.back_to_live)
        self.again_button = QPushButton()
        self.again_button.clicked.connect(self._ask_score_again)
        bar.addWidget(self.play_button)
        bar.addWidget(self.timeline)
        bar.addWidget(self.time_label)
        # A widget in a tool bar is shown and hidden through its action.
        self.review_actions = (bar.addWidget(self.live_button), bar.addWidget(self.again_button))
        self._show_review_buttons(False)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._follow_position)
        self._timer.start(200)

    def _show_review_buttons(self, on: bool) -> None:
        for action in self.review_actions:
            action.setVisible(on)

    def _follow_position(self) -> None:
        if self.review_at is None:
            self.timeline.show_position(self.worker.position)
            self.time_label.setText(self.tr("{seconds} s").format(seconds=i18n.decimal(self.worker.position)))

    def _toggle_pause_action(self) -> None:
        if hasattr(self, "play_button"):
            self.play_button.setChecked(self.pause_action.isChecked())
        else:
            self.worker.pause(self.pause_action.isChecked())

    def _toggle_pause(self, paused: bool) -> None:
        self.play_button.setText(self.tr("Play") if paused else self.tr("Pause"))
        self.pause_action.setChecked(paused)
        self.worker.pause(paused)
        if paused:
            self.statusBar().showMessage(self.tr("Paused: corrections, undo and redo still apply at once."))

    # -- review and scoring again ------------------------------------------------------

    def review(self, seconds: float) -> None:
        """The recording and the match as they stood at ``seconds``; the session is not changed."""
        self.review_at = seconds
        self.worker.review(seconds)
        self._show_review_buttons(True)
        self.live.show_reading([], set(), None)  # the live readings are not that moment's
        self.live.set_status("review")
        self._refresh_board()
        count, then = self.snapshot.at(seconds)
        self.time_label.setText(self.tr("{seconds} s").format(seconds=i18n.decimal(seconds)))
        self.timeline.show_position(seconds)
        if count:
            self.log.setCurrentRow(count - 1)
        scores = ", ".join(f"{p} {v}" for p, v in then.scores().items())
        self.statusBar().showMessage(self.tr("Reviewing {seconds} s: {scores} (move {count} of {total})").format(
            seconds=i18n.decimal(seconds), scores=scores, count=count, total=len(self.snapshot.steps)))

    def _on_reviewed(self, seconds: float) -> None:
        self.time_label.setText(self.tr("{seconds} s").format(seconds=i18n.decimal(seconds)))

    def back_to_live(self) -> None:
        self.review_at = None
        self.worker.back_to_live()
        self._show_review_buttons(False)
        self.log.clearSelection()
        self.live.set_status("ended" if self.finished else "waiting")
        self._refresh_board()
        self.statusBar().showMessage(self.tr("Live again."), 3000)

    def _ask_score_again(self) -> None:
        if self.review_at is None:
            return
        count, _ = self.snapshot.at(self.review_at)
        later = len(self.snapshot.steps) - count
        if later == 1:
            ask = self.tr("Withdraw the move after {seconds} s and score the recording again from there?\n\n"
                          "It stays in the session log as undone, and Redo brings it back.")
        else:
            ask = self.tr("Withdraw the {count} moves after {seconds} s and score the recording again from there?\n\n"
                          "They stay in the session log as undone, and Redo brings them back.")
        answer = QMessageBox.question(self, self.tr("Score again from here"),
                                      ask.format(count=later, seconds=i18n.decimal(self.review_at)))
        if answer == QMessageBox.StandardButton.Yes:
            self.score_again_from(self.review_at)

    def score_again_from(self, seconds: float) -> None:
        self.review_at = None
        self._show_review_buttons(False)
        self.log.clearSelection()
        self.live.set_status("waiting")
        self.worker.score_again_from(seconds)
        if hasattr(self, "play_button"):
            self.play_button.setChecked(False)  # scoring again means playing on from there

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.worker.stop()
        self.thread.quit()
        self.thread.wait(5000)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.stop()
        close = getattr(self.session, "close", None)
        if close is not None:
            close()
        if self.live_table is not None:
            self.live_table.close(timeout=5)  # a last try to bring the club up to date
        club = getattr(self, "club_window", None)
        if club is not None:
            club.close()
        self.closing.emit()
        super().closeEvent(event)

    def attach_club(self, live) -> None:
        """Write the match into the club's database move by move (``live``: a scorer.club LiveTable)."""
        self.live_table = live
        self.import_to_club = False  # the live table holds the match already
        self.session.listeners.append(live)
        self.club_status.connect(self._on_club_status)
        live(self.session)  # the match as it stands, at once (a resumed one too)

    def _on_club_status(self, status) -> None:
        if status.behind:
            self.statusBar().showMessage(
                self.tr("Club board: not reached ({error}); the match is kept here and sent when it is back")
                .format(error=status.error or "…"), 15000)
        else:
            self.statusBar().showMessage(self.tr("Club board: up to date"), 5000)

    # -- the session, as the worker reports it --------------------------------------------

    def _on_changed(self, snapshot: Snapshot) -> None:
        before = self.snapshot
        self.snapshot = snapshot
        lines = [s.line for s in snapshot.steps]
        kept = 0
        while kept < min(self.log.count(), len(lines)) and self.log.item(kept).data(Qt.ItemDataRole.UserRole) == lines[kept]:
            kept += 1
        while self.log.count() > kept:
            self.log.takeItem(self.log.count() - 1)
        for step in snapshot.steps[kept:]:
            item = QListWidgetItem(self._item_text(step))
            item.setData(Qt.ItemDataRole.UserRole, step.line)
            self.log.addItem(item)
            if self.review_at is None and self.live.image is not None and step.line not in self.pictures:
                self.pictures[step.line] = self.live.grab().scaledToWidth(560, Qt.TransformationMode.SmoothTransformation)
        if len(snapshot.steps) > kept:
            self.log.scrollToBottom()
        if hasattr(self, "timeline"):
            self.timeline.set_marks([step.t for step in snapshot.steps if step.t is not None])
        withdrawn = len(before.steps) - len(snapshot.steps)
        if withdrawn > 0 and snapshot.undone:
            if withdrawn == 1:
                said = self.tr("Undone: {move} (Redo brings it back)").format(move=event_text(snapshot.undone[0].event))
            else:
                said = self.tr("Withdrawn: {count} moves from {move} on (Redo brings them back one by one)").format(
                    count=withdrawn, move=event_text(snapshot.undone[0].event))
            self.statusBar().showMessage(said, 8000)
            self.banner.setText(said)
            self.announcement = None
        self._show_end_sum()
        self.undo_action.setEnabled(bool(snapshot.steps))
        self.redo_action.setEnabled(bool(snapshot.undone))
        self._refresh_board()
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()

    def _on_view(self, view) -> None:
        if self.review_at is None:
            self.live.show_reading(view.detections, *self._scoring())

    def _scoring(self) -> tuple[set, int | None]:
        """The board's scoring ends and their sum, as the session holds it now."""
        board = self.match.board
        scoring = {e.tile for e in board.scoring_ends()} if board is not None else set()
        return scoring, board.end_sum() if board is not None and board.tiles else None

    def _show_end_sum(self) -> None:
        if self.review_at is None:
            self.live.show_reading(self.live.detections, *self._scoring())

    def _on_events(self, events: list) -> None:
        for e in events:
            if isinstance(e, MoveEvent):
                if e.announcement is not None:
                    self._announce(e.announcement)
            elif isinstance(e, NeedsConfirmation):
                self._ask(e)
            elif isinstance(e, Notice):
                self.statusBar().showMessage(e.message, 8000)
            elif isinstance(e, StatusChange):
                self.live.set_status(e.status)
                if e.status == "over" and self.import_to_club:
                    self._import_into_club()

    def _announce(self, announcement: Announcement) -> None:
        self.announcement = announcement
        text = announcement.text(self.lang)
        self.last_announcement = text
        self.banner.setText(text)
        self.speaker.say_announcement(announcement)
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()

    def _ask(self, e: NeedsConfirmation) -> None:
        self.live.set_status("confirm")
        dialog = ConfirmDialog(self, question_text(e), e.alternatives)
        self.pending_dialog = dialog
        dialog.finished.connect(lambda _r, d=dialog: self._confirmed(d))
        dialog.open()

    def _confirmed(self, dialog: ConfirmDialog) -> None:
        if dialog.choice:
            self.worker.correct(dialog.choice)

    def _on_failed(self, message: str) -> None:
        self.statusBar().showMessage(message, 15000)

    def _import_into_club(self) -> None:
        """A finished match goes into the club's history at once (a failure is shown, never fatal)."""
        path = getattr(self.session, "path", None)
        if path is None:
            return
        from scorer.club import ClubError, import_log, open_database

        try:
            import_log(open_database(), path.read_text(encoding="utf-8"), source=str(path))
            self.statusBar().showMessage(self.tr("The match is saved in the club's history."), 8000)
        except (ClubError, OSError) as exc:  # the club database is optional; the session file stays
            self.statusBar().showMessage(self.tr("Club database: {error}").format(error=exc), 15000)

    def open_club(self) -> None:
        from scorer.app.club import ClubWindow
        from scorer.club import ClubError, open_database

        try:
            self.club_window = ClubWindow(open_database())
        except ClubError as exc:
            QMessageBox.warning(self, self.tr("Club"), str(exc))
            return
        self.club_window.show()

    def _on_finished(self) -> None:
        self.finished = True
        if self.live.status != "over":
            self.live.set_status("ended")
        self._show_finished()

    def _show_finished(self) -> None:
        self.statusBar().showMessage(self.tr("The match is over.") if self.match.is_over else
                                     self.tr("The recording ended: corrections, undo and review still work."))

    # -- scoreboard ------------------------------------------------------------------------

    def _refresh_board(self) -> None:
        if self.review_at is not None:
            count, match = self.snapshot.at(self.review_at)
            steps = self.snapshot.steps[:count]
        else:
            match, steps = self.match, self.snapshot.steps
        previous = steps[-1].before.scores() if steps else match.scores()
        table = match.table
        rules = match.rules
        if rules.raw_per_point > 1:
            holes, per_hole = 61, 1
            title = self.tr("{game}: first to {target}").format(game=rules.title, target=holes)
        else:
            holes, per_hole = rules.target_raw // 5, 5
            title = self.tr("{game}: first to {target} (5 a hole)").format(game=rules.title, target=rules.target_raw)
        tracks = []
        for side in range(table.n_sides):
            name = table.side_name(side)
            seat = table.seats_of(side)[0]
            now = match.scores()[table.players[seat]]
            before = previous.get(table.players[seat], 0)
            won = 1 if side in match.winning_sides else 0
            on_turn = match.next_player is not None and table.side_of(table.seat(match.next_player)) == side
            tracks.append(Track(name, now // per_hole, before // per_hole, str(now), won, on_turn))
        self.pegboard.set_state(title, holes, tracks, skunk=())  # the domino games know no skunk

    def _step_of(self, item: QListWidgetItem) -> Step | None:
        line = item.data(Qt.ItemDataRole.UserRole)
        return next((s for s in self.snapshot.steps if s.line == line), None)

    def _picture_of(self, step: Step) -> QPixmap | None:
        """The live view as it was when ``step`` was scored; in a recording, else, its frame then."""
        if step.line in self.pictures:
            return self.pictures[step.line]
        if step.t is None or not self.worker.seekable:
            return None
        frames = self.worker.source.frames(int(round(step.t * self.worker.source.fps)))  # type: ignore[call-arg]
        frame = next(frames, None)
        frames.close()
        if frame is None:
            return None
        return QPixmap.fromImage(to_qimage(frame.image)).scaledToWidth(560, Qt.TransformationMode.SmoothTransformation)

    def _show_board_at(self, item: QListWidgetItem) -> None:
        """The table as the camera saw it when the move was scored, and the board's sum then."""
        step = self._step_of(item)
        if step is None:
            return
        dialog = QDialog(self)
        dialog.setWindowTitle(self.tr("The table then"))
        col = QVBoxLayout(dialog)
        picture = self._picture_of(step)
        if picture is not None:
            shown = QLabel()
            shown.setPixmap(picture)
            col.addWidget(shown)
        board = step.after.board
        if board is not None and board.tiles:
            sums = self.tr("End sum {sum}").format(sum=board.end_sum())
        else:
            sums = self.tr("No tiles on the table")
        scores = ", ".join(f"{p} {v}" for p, v in step.after.scores().items())
        told = "\n".join(line.strip() for line in narrate(step, self.lang)) or event_text(step.event)
        caption = QLabel(self.tr("After: {move}\n{sums}. Scores: {scores}.").format(move=told, sums=sums, scores=scores))
        caption.setWordWrap(True)
        col.addWidget(caption)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(dialog.accept)
        col.addWidget(close, 0, Qt.AlignmentFlag.AlignRight)
        self.board_dialog = dialog
        dialog.open()

    # -- corrections: requests to the session ---------------------------------------------------

    def _correct(self, events: Sequence[Event]) -> None:
        try:
            state = self.match
            for e in events:
                state, _ = state.apply(e)
        except ScorerError as exc:  # an illegal correction is refused with its reason
            QMessageBox.warning(self, self.tr("Not possible"), str(exc))
            return
        self.worker.correct(events)

    def _correct_tile(self, detection) -> None:
        """Click a tile to correct its pips; the table is read again with the correction."""
        from PySide6.QtWidgets import QInputDialog

        a, b = detection.pips
        text, ok = QInputDialog.getText(self, self.tr("Correct the tile"), self.tr("Its pips (two numbers 0-6):"),
                                        text=f"{a} {b}")
        if not ok:
            return
        try:
            values = [int(v) for v in text.replace("|", " ").replace(",", " ").split()]
            if len(values) != 2:
                raise ValueError
            tile = Tile.of(*values)
        except (ValueError, ScorerError):
            QMessageBox.warning(self, self.tr("Not a tile"), self.tr(
                "{text} is not a tile: give two numbers from 0 to 6, like 3 4").format(text=repr(text)))
            return
        self.worker.correct_tile(detection.center, tile)

    def _start_round(self) -> None:
        self._for_player("starts", RoundStart)

    def _edit_settings(self) -> None:
        from scorer.app.settings import SettingsDialog

        dialog = SettingsDialog(Settings.load(), speaker=self.speaker)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.speaker.muted = not dialog.settings.voice
            self.mute.setChecked(not dialog.settings.voice)
            if dialog.settings.lang != self.lang:
                self.lang_box.setCurrentIndex(self.lang_box.findData(dialog.settings.lang))

    def _add_pass(self) -> None:
        self._for_player("passes" if self.match.rules.has_boneyard else "knocks", Pass)

    def _add_draw(self) -> None:
        self._for_player("draws", lambda p: Draw(p, 1))

    def _for_player(self, verb: str, make) -> None:
        """A pass or draw for the player chosen (the one on turn offered first)."""
        menu = player_menu(self, self.match, verb)
        chosen = menu.exec(self.cursor().pos())
        if chosen is not None:
            self._correct([make(chosen.data())])

    def _enter_move(self) -> None:
        picker = TilePicker(self, self.match)
        if picker.exec() == QDialog.DialogCode.Accepted and picker.play is not None:
            self._correct([picker.play])

    def _enter_hands(self) -> None:
        dialog = HandsDialog(self, self.match)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            try:
                self._correct([dialog.event_()])
            except (ValueError, ScorerError) as exc:
                QMessageBox.warning(self, self.tr("Not the hands"), str(exc))

    def undo(self) -> None:
        if self.snapshot.steps:
            self.worker.undo()

    def redo(self) -> None:
        if self.snapshot.undone:
            self.worker.redo()

    def _set_lang(self, lang: str) -> None:
        """Switch the language: Qt's translators, the window's texts, the voice; remembered for next time."""
        lang = i18n.known(lang)
        if self.lang_box.currentData() != lang:
            self.lang_box.setCurrentIndex(self.lang_box.findData(lang))  # comes back here
            return
        self.lang = i18n.set_language(lang)
        self.speaker.lang = self.lang
        self.language_actions[self.lang].setChecked(True)
        try:
            Settings.remember(lang=self.lang)
        except OSError as exc:  # not remembered, but switched
            self.statusBar().showMessage(str(exc), 8000)
        self.retranslate()


# Translated where shown (MainWindow._show_help).
HELP_TEXT = QT_TRANSLATE_NOOP("MainWindow", """The camera over the table reads every tile; each move is scored and said aloud.

Seats: players are given clockwise from the seat nearest the camera.
When the camera is unsure it asks: pick the right reading, or fix it by hand.

Play menu (or the buttons): a pass or a draw for any player, a tile played by hand (pick the tile, then the end it goes on), the hands at a round's end, undo and redo.
Space pauses a recording; a click on its timeline shows that moment (the match is not changed); "Score again from here" withdraws the later moves (Redo brings them back).
F11: table mode, the scores large for the whole table.

Every move is saved at once in the match's session file; after a crash the start screen offers to go on.""")
