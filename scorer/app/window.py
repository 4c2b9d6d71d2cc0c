"""The main window: live view, cribbage-board scoreboard, move log, announcements and corrections."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QThread, QTimer, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from scorer.app import i18n
from scorer.app.corrections import ConfirmDialog, event_text
from scorer.app.layout_picture import layout_on_table
from scorer.app.liveview import LiveView
from scorer.app.pegboard import PegBoard
from scorer.app.settings import Settings
from scorer.app.speech import Speaker, engine_name
from scorer.app.tablemode import TableMode, turn_text
from scorer.app.window_banner import BANNER_STYLE, Banner
from scorer.app.window_board import Scoreboard
from scorer.app.window_club import ClubLink
from scorer.app.window_corrections import MatchCorrections
from scorer.app.window_menus import WindowMenus
from scorer.app.window_recording import RecordingControls
from scorer.app.worker import PipelineWorker, Snapshot
from scorer.app.wording import notice_spoken, notice_text, refusal_text
from scorer.errors import SourceError
from scorer.pipeline import MoveEvent, NeedsConfirmation, Notice, StatusChange, TablePipeline
from scorer.pipeline.announce import Announcement
from scorer.pipeline.notices import CAMERA_UNFIT, SAID_ALOUD, HandsLikely, HandsTaken
from scorer.pipeline.sources import FrameSource
from scorer.rules import Match
from scorer.rules.history import MatchHistory
from scorer.rules.irregular import ActedWhileAble
from scorer.rules.transcript import Step, narrate
from scorer.sessions import SessionError
from scorer.words import places


# The window's parts, each in its module: menus and keys, a recording's controls, the corrections by
# hand, the club, the scoreboard.  Their texts are translated under their own class names.
class MainWindow(WindowMenus, RecordingControls, MatchCorrections, ClubLink, Scoreboard, Banner, QMainWindow):
    """Shows the session the worker keeps (a :class:`Snapshot` after every change) and sends it requests."""

    closing = Signal()
    club_status = Signal(object)  # the club board's LiveStatus, from its worker thread
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
        self.pending_dialog: ConfirmDialog | None = None  # the camera's question open now
        self.review_at: float | None = None
        self.pictures: dict[int, QPixmap] = {}  # the live view when each move was scored, by its log line
        self.announcement: Announcement | None = None  # the last one, shown again in a new language
        self.last_announcement = ""
        self.finished = False
        self.ended_with: list | None = None  # the moves when the recording ended
        self.ended_view: tuple | None = None  # and its last picture, with what was read on it
        self.broke_off: Exception | None = None  # why the play ended before the recording did, if it did
        # A match with no camera (every move entered by hand): the picture says so, not "recording ended".
        self.by_hand = self.header.source is not None and self.header.source.kind == "hand"
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
        self.watch_camera()
        self.retranslate()
        self.banner.setText(turn_text(self.match))  # (till the first announcement: who is to act)
        self.statusBar().messageChanged.connect(self._standing_back)
        self._on_changed(self.snapshot)

    @property
    def match(self) -> Match:
        """The match as the session last reported it."""
        return self.snapshot.match

    # -- layout ------------------------------------------------------------------------

    def _build(self) -> None:
        self.live = LiveView()
        self.live.tile_clicked.connect(self._correct_tile)
        self.live.status_clicked.connect(self.status_clicked)
        right = QWidget()
        col = QVBoxLayout(right)
        self.banner = QLabel(" ")
        self.banner.setWordWrap(True)
        self.banner.setFont(QFont("DejaVu Sans", 16, QFont.Weight.Bold))
        # (Three lines always: a round's end said at length does not push the board and the moves down.)
        self.banner.setMinimumHeight(3 * QFontMetrics(self.banner.font()).lineSpacing() + 16)
        self.banner.setStyleSheet(BANNER_STYLE)
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
        self.mute.toggled.connect(self._set_muted)
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
        self._build_match_bar()
        # The voice's state sits at the status bar's right, apart from the camera's notices: a voice that
        # fails at every announcement must not hide them.
        self.voice_label = QLabel()
        self.voice_problem: str | None = None
        self.statusBar().addPermanentWidget(self.voice_label)
        self.speaker.backend_chosen.connect(self._voice_chosen)
        self.speaker.failed.connect(self._show_voice)
        self._build_menus()
        self._show_voice()

    def _speech_text(self) -> str:
        return self.tr("Speech: {engine}").format(engine=engine_name(self.speaker.engine))

    def _set_muted(self, on: bool) -> None:
        """Mute or unmute the voice; remembered, as the settings' "say the announcements aloud"."""
        self.speaker.muted = on
        if Settings.load().voice == on:
            try:
                Settings.remember(voice=not on)
            except OSError as exc:  # not remembered, but muted
                self.statusBar().showMessage(str(exc), 8000)

    def _voice_chosen(self, _engine: str) -> None:
        self.voice_problem = None
        self._show_voice()

    def _show_voice(self, problem: str | None = None) -> None:
        """The voice's engine, or what went wrong when it spoke (kept until an engine is chosen again)."""
        if problem is not None:
            self.voice_problem = problem
        self.voice_label.setText(self.voice_problem or self._speech_text())
        self.voice_label.setStyleSheet("color:#a01010" if self.voice_problem else "")

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
        self.question_action.setText(self.tr("The camera's &question…"))
        self.order_action.setText(self.tr("Another &order for the tiles taken…"))
        self.camera_action.setText(self.tr("&Try the camera again"))
        self.view_menu.setTitle(self.tr("&View"))
        self.table_action.setText(self.tr("&Table mode (full screen, large scores)"))
        self.settings_action.setText(self.tr("&Settings…"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.help_action.setText(self.tr("&How to use…"))
        self.about_action.setText(self.tr("&About…"))
        self.retranslate_recording()
        if self.announcement is not None:
            self.last_announcement = i18n.unbroken(self.announcement.text(self.lang))
        if self.review_at is not None:
            self.show_banner_reviewed()
        else:
            self.live_banner()
        self._renarrate()
        self._refresh_board()
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()
        self._show_voice()
        if self.finished:
            self._show_finished()
        elif self.held_for_players:
            self.statusBar().showMessage(self.held_text())
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
        self.follow_latest_move()

    def follow_latest_move(self) -> None:
        """The move list scrolled to its latest move (once its items' wrapped heights are laid out), unless a past
        moment is reviewed: texts in another language, or moves added while table mode hid the list, left it short."""
        if self.review_at is None:  # (the wrapped items' heights laid out first: else the last line stays half below)
            QTimer.singleShot(0, self.log, lambda: (self.log.doItemsLayout(), self.log.scrollToBottom()))

    # -- running and closing --------------------------------------------------------------

    def start(self) -> None:
        self.activateWindow()  # (the keys its own from the start: a desktop may not give it them -- Space, Esc)
        self.live.setFocus()
        self.thread.start()
        if self.snapshot.steps:  # (a match resumed: a new one has no move yet)
            self.say_resumed()
        else:
            self.say_started()
        self.follow_latest_move()  # (a resumed match: its latest move in view)

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

    # -- the session, as the worker reports it --------------------------------------------

    def _on_changed(self, snapshot: Snapshot) -> None:
        before = self.snapshot
        self.snapshot = snapshot
        if (snapshot.steps, snapshot.undone) != (before.steps, before.undone):
            self.saved_again()  # (the match changes only by a line written)
        self._show_end_sum()  # (before the moves' pictures are taken: the sum they show is the board's after them)
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
            self.follow_latest_move()
        if hasattr(self, "timeline"):
            self.timeline.set_marks([step.t for step in snapshot.steps if step.t is not None])
        if (self.by_hand or self.finished) and snapshot.match.phase is not before.match.phase:
            self._show_finished(over_a_passing_message=False)  # (what the bar says to do next follows the match)
        withdrawn = len(before.steps) - len(snapshot.steps)
        if withdrawn > 0:
            self._close_question()  # (asked of the table before the moves withdrawn)
        if withdrawn > 0 and snapshot.undone:
            if withdrawn == 1:
                said = self.tr("Undone: {move} (Redo brings it back)").format(
                    move=event_text(snapshot.undone[0].event, knock=self.knocks))
            else:
                said = self.tr("Withdrawn: {count} moves, from “{move}” on (Redo brings them back one by one)").format(
                    count=withdrawn, move=event_text(snapshot.undone[0].event, knock=self.knocks))
            self.tell_withdrawn(said)
            if self.withdrawal_unsaid:  # (scored again, the same moves come back unsaid: their going is not said)
                self.withdrawal_unsaid = False
            else:
                self.say_withdrawn(withdrawn, snapshot.undone[0].event)
            self.banner.setText(i18n.unbroken(said))
            self.announcement = None
        elif (len(snapshot.steps) > len(before.steps) and before.undone
              and snapshot.steps[-1].event == before.undone[0].event):
            said = self.tr("Redone: {move}").format(move=event_text(snapshot.steps[-1].event, knock=self.knocks))
            self.statusBar().showMessage(said, 8000)
            if self.announcement is None and self.review_at is None:  # (a move that scores is announced on the banner)
                self.banner.setText(said)
        self._enable_moves()
        self._refresh_board()
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()

    def _on_view(self, view) -> None:
        if self.review_at is None:
            self.live.show_reading(view.detections, *self._scoring())

    def _show_end_sum(self) -> None:
        if self.review_at is None:
            self.live.show_reading(self.live.detections, *self._scoring())
            if self.by_hand:  # no camera shows the table: the picture draws the layout as the session holds it
                self.live.show_layout(layout_on_table(self.match))
            elif self.ended_with is not None and self.ended_with != [s.event for s in self.snapshot.steps]:
                # Moves entered after the recording ended: its last picture no longer shows the match.
                self.live.draw_instead(layout_on_table(self.match))
            elif self.ended_with is not None and self.live.image is None and self.ended_view is not None:
                self.live.show_frame(self.ended_view[0])  # (undone and redone back to the match it ended on)
                self.live.show_reading(self.ended_view[1], *self._scoring())

    def _on_events(self, events: list) -> None:
        # (What keeps the camera from reading comes last in its batch: the bar keeps it till the next message.)
        # (Hands taken on a guess prove no pass wrong for certain: such a pass is shown, not said aloud.)
        guessed = any(isinstance(e, Notice) and isinstance(e.said, (HandsTaken, HandsLikely)) for e in events)
        for e in sorted(events, key=lambda e: isinstance(e, Notice) and isinstance(e.said, CAMERA_UNFIT)):
            if isinstance(e, MoveEvent):
                self._close_question()
                heard = self.heard_already(e.step) or e.redone
                if e.redone:
                    self.say_redone(e.step, e.announcement)
                if e.announcement is not None:
                    self._announce(e.announcement, aloud=not heard)
                else:
                    self.show_unannounced(e.step, aloud=not heard, rewritten=e.rewritten)
            elif isinstance(e, NeedsConfirmation):
                self._ask(e)
            elif isinstance(e, Notice):
                # (What keeps the camera from reading is shown till the next message; it and a pass the hands prove
                # wrong are said aloud too: nobody at the table watches the bar.)
                unfit = isinstance(e.said, CAMERA_UNFIT)
                self.statusBar().showMessage(notice_text(e, self.live.picture_size()), 0 if unfit else 8000)
                self.live.mark(places(e.message))  # (the places it names, ringed on the picture)
                if isinstance(e.said, SAID_ALOUD) and not (guessed and isinstance(e.said, ActedWhileAble)):
                    self.speaker.say(notice_spoken(e, self.live.picture_size()))
            elif isinstance(e, StatusChange):
                self.show_camera_status(e.status)
                if e.status == "over" and self.import_to_club:
                    self._import_into_club()

    def _on_failed(self, failure: object) -> None:
        message = refusal_text(failure) if isinstance(failure, BaseException) else str(failure)
        self.statusBar().showMessage(message, 15000)
        if isinstance(failure, SessionError):
            self.tell_not_saved(failure)

    def _on_finished(self, broke_off: Exception | None) -> None:
        if isinstance(broke_off, SessionError):  # (the camera's move could not be saved: the play stopped there)
            self.tell_not_saved(broke_off)
        self.finished = True
        self.broke_off = broke_off
        self.ended_with = None if self.by_hand else [s.event for s in self.snapshot.steps]
        self.ended_view = (self.live.image, self.live.detections) if self.live.image is not None else None
        self.held_for_question = self.held_for_players = False  # (nothing left to hold)
        self.heard_before = ()
        if not self.by_hand:  # (nothing left to pause or play, until scored again from a moment)
            self._playable(False)
            self.camera_action.setEnabled(isinstance(broke_off, SourceError) and not self.worker.seekable)
            if self.camera_action.isEnabled():  # (the players look at the table, not at the laptop)
                self.speaker.say(self.tr("The camera has stopped: the moves are not being read."))
        if self.live.status != "over":
            self.live.set_status("hand" if self.by_hand else "ended" if self.worker.seekable else "stopped")
        self._show_finished(over_a_passing_message=False)  # (a match resumed is told first: it follows)
