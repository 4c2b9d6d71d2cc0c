"""The main window: live view, cribbage-board scoreboard, move log, announcements and corrections."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QThread, Qt, QTimer, Signal
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

from scorer.app.corrections import ConfirmDialog, HandsDialog, TilePicker, event_text, player_menu
from scorer.app.liveview import LiveView, to_qimage
from scorer.app.pegboard import PegBoard, Track
from scorer.app.tablemode import TableMode
from scorer.app.settings import Settings
from scorer.app.speech import Speaker
from scorer.app.timeline import Timeline
from scorer.app.worker import PipelineWorker, Snapshot
from scorer.errors import ScorerError
from scorer.pipeline import MoveEvent, NeedsConfirmation, Notice, StatusChange, TablePipeline
from scorer.pipeline.announce import Announcement
from scorer.pipeline.sources import FrameSource
from scorer.rules import Draw, Event, Match, Pass, Tile
from scorer.rules.history import MatchHistory
from scorer.rules.log import event_to_json
from scorer.rules.transcript import Step, narrate


class MainWindow(QMainWindow):
    """Shows the session the worker keeps (a :class:`Snapshot` after every change) and sends it requests."""

    closing = Signal()
    # Handed to the start screen when the window closes: "start" (new, open, resume) or None (quit).
    next_action: str | None = None

    def __init__(self, session: MatchHistory, pipeline: TablePipeline, source: FrameSource, lang: str = "en",
                 realtime: bool = True, speaker: Speaker | None = None, start_seconds: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.header = session.header
        self.snapshot = Snapshot.of(session)
        self.pipeline = pipeline
        self.lang = lang
        self.speaker = speaker or Speaker(lang)
        self.import_to_club = True
        self.review_at: float | None = None
        self.pictures: dict[int, QPixmap] = {}  # the live view when each move was scored, by its log line
        self.last_announcement = ""
        self.setWindowTitle(f"Domino table scorer — {self.match.rules.title}: {', '.join(self.header.players)}")
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
        self.finished = False
        if self.worker.seekable:
            self._build_timeline(source)
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
        col.addWidget(QLabel("Moves (click one to see the board then)"))
        col.addWidget(self.log, 1)
        buttons = QHBoxLayout()
        for text, slot in (("Pass / knock…", self._add_pass), ("Draw…", self._add_draw), ("Play…", self._enter_move),
                           ("Round end…", self._enter_hands)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        self.mute = QCheckBox("Mute")
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
        bar = QToolBar("Match")
        self.addToolBar(bar)
        self.undo_action = QAction("Undo", self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        self.redo_action = QAction("Redo", self)
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.redo_action.triggered.connect(self.redo)
        bar.addAction(self.undo_action)
        bar.addAction(self.redo_action)
        club = QAction("Club", self)
        club.triggered.connect(self.open_club)
        bar.addAction(club)
        self.lang_box = QComboBox()
        self.lang_box.addItems(["en", "fi"])
        self.lang_box.setCurrentText(self.lang)
        self.lang_box.currentTextChanged.connect(self._set_lang)
        bar.addWidget(QLabel(" Language "))
        bar.addWidget(self.lang_box)
        self.statusBar().showMessage(f"Speech: {self.speaker.engine}")
        self.speaker.backend_chosen.connect(lambda name: self.statusBar().showMessage(f"Speech: {name}", 8000))
        self.speaker.failed.connect(lambda why: self.statusBar().showMessage(why, 15000))
        self._build_menus(club)

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            self.addAction(action)  # its key works while the menu bar is hidden (table mode)
        return action

    def _build_menus(self, club: QAction) -> None:
        bar = self.menuBar()
        match = bar.addMenu("&Match")
        self._action(match, "&New match…", lambda: self._to_start_screen(), QKeySequence.StandardKey.New)
        self._action(match, "&Open a recording…", lambda: self._to_start_screen(), QKeySequence.StandardKey.Open)
        self._action(match, "&Resume a saved match…", lambda: self._to_start_screen(), "Ctrl+R")
        match.addAction(club)
        match.addSeparator()
        self._action(match, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        play = bar.addMenu("&Play")
        self.pause_action = self._action(play, "&Pause", self._toggle_pause_action, "Space")
        self.pause_action.setCheckable(True)
        self._action(play, "P&ass / knock…", self._add_pass, "P")
        self._action(play, "&Draw…", self._add_draw, "D")
        self._action(play, "P&lay a tile…", self._enter_move, "T")
        self._action(play, "Round &end: the hands…", self._enter_hands, "E")
        play.addSeparator()
        play.addAction(self.undo_action)
        play.addAction(self.redo_action)
        view = bar.addMenu("&View")
        self.table_action = self._action(view, "&Table mode (full screen, large scores)", self.toggle_table_mode, "F11")
        self.table_action.setCheckable(True)
        leave = QAction(self)
        leave.setShortcut(QKeySequence("Esc"))
        leave.triggered.connect(lambda: self.table_action.isChecked() and self.toggle_table_mode())
        self.addAction(leave)
        languages = view.addMenu("&Language")
        group = QActionGroup(self)
        for code, name in (("en", "English"), ("fi", "Suomi")):
            action = languages.addAction(name)
            action.setCheckable(True)
            action.setChecked(code == self.lang)
            action.triggered.connect(lambda _=False, c=code: self.lang_box.setCurrentText(c))
            group.addAction(action)
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&How to use…", self._show_help, QKeySequence.StandardKey.HelpContents)
        self._action(help_menu, "&About…", self._show_about)

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
        QMessageBox.information(self, "How to use", HELP_TEXT)

    def _show_about(self) -> None:
        QMessageBox.about(self, "About", "Domino table scorer\n\nScores Horse Race and Seven Rocks from a camera over the "
                          "table, on a cribbage board. Every match is kept in its session file "
                          f"({getattr(self.session, 'path', 'in memory')}).")

    def _build_timeline(self, source) -> None:
        """For a recording: play/pause, a position slider marked at every move, review and scoring again."""
        bar = QToolBar("Recording")
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, bar)
        self.play_button = QPushButton("Pause")
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._toggle_pause)
        self.timeline = Timeline(getattr(source, "duration", 0.0) or 1.0)
        self.timeline.picked.connect(self.review)
        self.time_label = QLabel("0.0 s")
        self.live_button = QPushButton("Back to live")
        self.live_button.clicked.connect(self.back_to_live)
        self.again_button = QPushButton("Score again from here…")
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
            self.time_label.setText(f"{self.worker.position:.1f} s")

    def _toggle_pause_action(self) -> None:
        if hasattr(self, "play_button"):
            self.play_button.setChecked(self.pause_action.isChecked())
        else:
            self.worker.pause(self.pause_action.isChecked())

    def _toggle_pause(self, paused: bool) -> None:
        self.play_button.setText("Play" if paused else "Pause")
        self.worker.pause(paused)
        if paused:
            self.statusBar().showMessage("Paused: corrections, undo and redo still apply at once.")

    # -- review and scoring again ------------------------------------------------------

    def review(self, seconds: float) -> None:
        """The recording and the match as they stood at ``seconds``; the session is not changed."""
        self.review_at = seconds
        self.worker.review(seconds)
        self._show_review_buttons(True)
        self._refresh_board()
        count, then = self.snapshot.at(seconds)
        self.time_label.setText(f"{seconds:.1f} s")
        self.timeline.show_position(seconds)
        if count:
            self.log.setCurrentRow(count - 1)
        scores = ", ".join(f"{p} {v}" for p, v in then.scores().items())
        self.statusBar().showMessage(f"Reviewing {seconds:.1f} s: {scores} ({count} of {len(self.snapshot.steps)} moves)")

    def _on_reviewed(self, seconds: float) -> None:
        self.time_label.setText(f"{seconds:.1f} s")

    def back_to_live(self) -> None:
        self.review_at = None
        self.worker.back_to_live()
        self._show_review_buttons(False)
        self._refresh_board()
        self.statusBar().showMessage("Live again.", 3000)

    def _ask_score_again(self) -> None:
        if self.review_at is None:
            return
        count, _ = self.snapshot.at(self.review_at)
        later = len(self.snapshot.steps) - count
        answer = QMessageBox.question(
            self, "Score again from here",
            f"Withdraw the {later} move(s) after {self.review_at:.1f} s and score the recording again from there?\n\n"
            "They stay in the session log as undone, and Redo brings them back.")
        if answer == QMessageBox.StandardButton.Yes:
            self.score_again_from(self.review_at)

    def score_again_from(self, seconds: float) -> None:
        self.review_at = None
        self._show_review_buttons(False)
        self.worker.score_again_from(seconds)

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
        self.closing.emit()
        super().closeEvent(event)

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
            item = QListWidgetItem("\n".join(line.strip() for line in narrate(step)) or event_text(step.event))
            item.setData(Qt.ItemDataRole.UserRole, step.line)
            self.log.addItem(item)
            if self.review_at is None and self.live.image is not None and step.line not in self.pictures:
                self.pictures[step.line] = self.live.grab().scaledToWidth(560, Qt.TransformationMode.SmoothTransformation)
        if len(snapshot.steps) > kept:
            self.log.scrollToBottom()
        if hasattr(self, "timeline"):
            for step in snapshot.steps:
                if step.t is not None:
                    self.timeline.mark(step.t)
        if len(snapshot.steps) < len(before.steps) and snapshot.undone:
            self.statusBar().showMessage(f"Undone: {event_text(snapshot.undone[0].event)} (Redo brings it back)", 6000)
        self.undo_action.setEnabled(bool(snapshot.steps))
        self.redo_action.setEnabled(bool(snapshot.undone))
        self._refresh_board()
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()

    def _on_view(self, view) -> None:
        board = self.match.board
        scoring = {e.tile for e in board.scoring_ends()} if board is not None else set()
        self.live.show_reading(view.detections, scoring, board.end_sum() if board is not None and board.tiles else None)

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
        text = announcement.text(self.lang)
        self.last_announcement = text
        self.banner.setText(text)
        self.speaker.say_announcement(announcement)
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()

    def _ask(self, e: NeedsConfirmation) -> None:
        self.live.set_status("confirm")
        dialog = ConfirmDialog(self, e.reason, e.alternatives)
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
            self.statusBar().showMessage("The match is saved in the club's history.", 8000)
        except (ClubError, OSError) as exc:  # the club database is optional; the session file stays
            self.statusBar().showMessage(f"Club database: {exc}", 15000)

    def open_club(self) -> None:
        from scorer.app.club import ClubWindow
        from scorer.club import ClubError, open_database

        try:
            self.club_window = ClubWindow(open_database())
        except ClubError as exc:
            QMessageBox.warning(self, "Club", str(exc))
            return
        self.club_window.show()

    def _on_finished(self) -> None:
        self.finished = True
        self.statusBar().showMessage("The match is over." if self.match.is_over else
                                     "The recording ended: corrections, undo and review still work.")

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
            holes, per_hole, title = 61, 1, f"{rules.title}: first to 61"
        else:
            holes, per_hole, title = rules.target_raw // 5, 5, f"{rules.title}: first to {rules.target_raw} (5 a hole)"
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
        dialog.setWindowTitle("The table then")
        col = QVBoxLayout(dialog)
        picture = self._picture_of(step)
        if picture is not None:
            shown = QLabel()
            shown.setPixmap(picture)
            col.addWidget(shown)
        board = step.after.board
        sums = f"End sum {board.end_sum()}" if board is not None and board.tiles else "No tiles on the table"
        scores = ", ".join(f"{p} {v}" for p, v in step.after.scores().items())
        caption = QLabel(f"After: {event_text(step.event)}\n{sums}. Scores: {scores}.")
        caption.setWordWrap(True)
        col.addWidget(caption)
        close = QPushButton("Close")
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
            QMessageBox.warning(self, "Not possible", str(exc))
            return
        self.worker.correct(events)

    def _correct_tile(self, detection) -> None:
        """Click a tile to correct its pips; the table is read again with the correction."""
        from PySide6.QtWidgets import QInputDialog

        a, b = detection.pips
        text, ok = QInputDialog.getText(self, "Correct the tile", "Its pips (two numbers 0-6):", text=f"{a} {b}")
        if not ok:
            return
        try:
            values = [int(v) for v in text.replace("|", " ").replace(",", " ").split()]
            if len(values) != 2:
                raise ValueError
            tile = Tile.of(*values)
        except (ValueError, ScorerError):
            QMessageBox.warning(self, "Not a tile", f"{text!r} is not a tile: give two numbers from 0 to 6, like 3 4")
            return
        self.worker.correct_tile(detection.center, tile)

    def _add_pass(self) -> None:
        self._for_player("passes", Pass)

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
                QMessageBox.warning(self, "Not the hands", str(exc))

    def undo(self) -> None:
        if self.snapshot.steps:
            self.worker.undo()

    def redo(self) -> None:
        if self.snapshot.undone:
            self.worker.redo()

    def _set_lang(self, lang: str) -> None:
        self.lang = lang
        self.speaker.lang = lang
        Settings.remember(lang=lang)


HELP_TEXT = """The camera over the table reads every tile; each move is scored and said aloud.

Seats: players are given clockwise from the seat nearest the camera.
When the camera is unsure it asks: pick the right reading, or fix it by hand.

Play menu (or the buttons): a pass or a draw for any player, a tile played by hand (pick the tile,
then the end it goes on), the hands at a round's end, undo and redo.
Space pauses a recording; a click on its timeline shows that moment (the match is not changed);
"Score again from here" withdraws the later moves (Redo brings them back).
F11: table mode, the scores large for the whole table.

Every move is saved at once in the match's session file; after a crash the start screen offers to go on."""
