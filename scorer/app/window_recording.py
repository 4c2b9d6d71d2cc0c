"""A recording's controls in the main window: play and pause, a timeline marked at every move, a moment
reviewed (the match is not changed), and the recording scored again from there.

A part of :class:`scorer.app.window.MainWindow`: the bar is built only where the source can seek (a video);
the Play menu's Pause works on any source.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QMessageBox, QPushButton, QToolBar

from scorer.app import i18n
from scorer.app.timeline import Timeline
from scorer.app.worker import fault_text
from scorer.app.wording import said_again
from scorer.errors import ScorerError, SourceError
from scorer.rules.transcript import scores_text
from scorer.words import words_of


NO_PICTURE_S = 3.0  # a camera giving no picture this long is told (it is opened again by itself for 30 s)
FIRST_PICTURE_S = 8.0  # ... or no first picture this long: a camera's first opening, a phone's stream, takes a while


class RecordingControls:
    """The recording bar at the bottom and reviewing: ``review_at`` is the moment shown, None when live."""

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
        if getattr(self, "last_picture", None) is not None:
            self.last_picture = time.monotonic()  # (a pause is no camera without a picture)
        self.first_awaited = None  # (nor a first picture long in coming)
        if hasattr(self, "play_button"):
            self.play_button.setChecked(self.pause_action.isChecked())
            return
        self.worker.pause(self.pause_action.isChecked())
        if self.pause_action.isChecked():  # (a camera: the picture goes on, and so does the table)
            self.live.set_status("paused")
            self.statusBar().showMessage(self.tr("Paused: the camera's picture is shown, but no move is read till Play ▸ "
                                                 "Pause again; what is laid meanwhile is read then."))
        elif self.live.status == "paused":
            self.show_camera_status(self.camera_status)
            self.statusBar().clearMessage()

    def _toggle_pause(self, paused: bool) -> None:
        if not paused:
            # (played on, by the players or a scoring again: a pause after is theirs)
            self.held_for_question = self.held_for_players = False
        self.play_button.setText(self.tr("Play") if paused else self.tr("Pause"))
        self.pause_action.setChecked(paused)
        self.worker.pause(paused)
        if paused:
            self.statusBar().showMessage(self.tr("Paused: corrections, undo and redo still apply at once."))
        elif self.pending_dialog is not None and self.pending_dialog.isVisible():
            self.statusBar().showMessage(self.tr("Playing on with the question open: the camera may settle it on its "
                                                 "best reading as play goes on; till then an answer picked counts."), 15000)
        else:
            self.statusBar().clearMessage()

    # A recording, unlike the table, can wait: at a question it is paused until the question is answered or put
    # off ("Not now"), so that no later frame settles it by a guess while the players read it.
    held_for_question = False
    asking = False

    def hold_for_question(self) -> None:
        if hasattr(self, "play_button") and not self.play_button.isChecked() and not self.finished:
            self.held_for_question = True
            self.play_button.setChecked(True)
            self.statusBar().showMessage(self.tr("Paused for the question: the recording goes on once it is answered."))

    # The recording held for the players, till they act -- a move entered, redone or answered, a tile corrected,
    # or Play: after an undo (played on, the camera would read the same table again and score the move undone
    # anew before they could put it right), and after a question put off ("Not now": they fix it by hand).
    held_for_players = False
    held_because = ""  # "undo" or "question": why, said again in the language of the moment

    def hold_for_players(self, because: str) -> None:
        if not hasattr(self, "play_button") or self.finished:
            return
        if self.held_for_question:  # (the question is closed or put off: the hold is the players' now)
            self.held_for_question, self.held_for_players = False, True
        elif not self.play_button.isChecked():
            self.held_for_players = True
            self.play_button.setChecked(True)
        if self.held_for_players:
            self.held_because = because
            self.statusBar().showMessage(self.held_text())

    def held_text(self) -> str:
        """Why the recording waits for the players, and how it goes on."""
        if self.held_because == "question":
            return self.tr("The question is put off and the recording waits: enter the move with the buttons, or click "
                           "a tile to correct it; Play lets the camera read on. Q, or a click on “needs your "
                           "confirmation”, opens the question again.")
        return self.tr("Paused after the undo: enter the move as it was, or click a tile to correct it; Play reads the "
                       "table again as it is.")

    def tell_withdrawn(self, said: str) -> None:
        """Moves withdrawn, said in the status bar -- with why the recording waits, while it waits for the players."""
        if self.held_for_players:
            self.statusBar().showMessage(f"{said}. {self.held_text()}")
        else:
            self.statusBar().showMessage(said, 8000)

    def go_on_after_players(self) -> None:
        if self.held_for_players:
            self.held_for_players = False
            if self.play_button.isChecked():
                self.play_button.setChecked(False)

    def go_on_after_question(self) -> None:
        if self.held_for_question and self.pending_dialog is None and not self.asking:
            self.held_for_question = False
            if self.play_button.isChecked():
                self.play_button.setChecked(False)

    def _broke_off_text(self, error: Exception) -> str:
        """Why the recording or the camera stopped before its end (or the scoring, where it was not them)."""
        if not isinstance(error, ScorerError):
            return self.tr("Scoring stopped by a fault in the program. What was scored is kept; corrections and undo "
                           "still work. ({error})").format(error=fault_text(error))
        if not isinstance(error, SourceError):
            return self.tr("Scoring stopped: {error}. What was scored is kept; corrections and undo still work.").format(
                error=said_again(words_of(error)).rstrip("."))
        if not self.worker.seekable:
            # (what to do first: a network camera's address makes the rest long)
            return self.tr("The camera stopped: once it is back, Play ▸ Try the camera again, or a click on “the camera "
                           "stopped”; what was scored is kept ({error}).").format(error=said_again(words_of(error)).rstrip("."))
        return self.tr("The recording stopped: {error}. What was scored is kept; corrections, undo and review still "
                       "work.").format(error=error)

    def review(self, seconds: float) -> None:
        """The recording and the match as they stood at ``seconds``; the session is not changed."""
        self.review_at = seconds
        self.worker.review(seconds)
        self._show_review_buttons(True)
        self._enable_moves()
        self.live.show_reading([], set(), None)  # the live readings are not that moment's
        self.live.set_status("review")
        self._refresh_board()
        count, then = self.snapshot.at(seconds)
        self.time_label.setText(self.tr("{seconds} s").format(seconds=i18n.decimal(seconds)))
        self.timeline.show_position(seconds)
        if count:
            self.log.setCurrentRow(count - 1)
        self.statusBar().showMessage(self.tr("Reviewing {seconds} s: {scores} (move {count} of {total})").format(
            seconds=i18n.decimal(seconds), scores=scores_text(then), count=count, total=len(self.snapshot.steps)))
        self.show_banner_reviewed()

    def _on_reviewed(self, seconds: float) -> None:
        self.time_label.setText(self.tr("{seconds} s").format(seconds=i18n.decimal(seconds)))

    def back_to_live(self) -> None:
        self.review_at = None
        self.live_banner()
        self.worker.back_to_live()
        self._show_review_buttons(False)
        self._enable_moves()
        self.log.clearSelection()
        self.log.scrollToBottom()  # (the latest move in view again)
        if self.finished:
            self.live.set_status("ended")
        else:
            self.show_camera_status(self.camera_status)  # (a question put off still shown)
        self._refresh_board()
        self._show_end_sum()  # (a match moved on by hand since the recording ended: its layout drawn again)
        if self.held_for_players:
            self.statusBar().showMessage(self.held_text())  # (still waiting for the players: why, again)
        else:
            self.statusBar().showMessage(self.tr("Live again."), 3000)

    def _ask_score_again(self) -> None:
        if self.review_at is None:
            return
        count, _ = self.snapshot.at(self.review_at)
        later = len(self.snapshot.steps) - count
        if later == 1:
            ask = self.tr("Withdraw the move after {seconds} s and score the recording again from there?\n\n"
                          "It stays in the session log as undone; Redo brings it back until the recording scores a new move.")
        else:
            ask = self.tr("Withdraw the {count} moves after {seconds} s and score the recording again from there?\n\n"
                          "They stay in the session log as undone; Redo brings them back until the recording scores a new move.")
        answer = QMessageBox.question(self, self.tr("Score again from here"),
                                      ask.format(count=later, seconds=i18n.decimal(self.review_at)))
        if answer == QMessageBox.StandardButton.Yes:
            self.score_again_from(self.review_at)

    def watch_camera(self) -> None:
        """A camera (not a recording, not moves by hand): a picture missing for a few seconds told on the picture and
        aloud -- the players wait while it is opened again -- and Try the camera again offered once it stopped."""
        camera = not self.by_hand and not self.worker.seekable
        self.camera_action.setVisible(camera)
        if not camera:
            return
        self.last_picture: float | None = None  # (none yet)
        self.first_awaited: float | None = None  # (since the window first waited for a picture, shown and playing)
        self.worker.frame.connect(self._picture_came)
        self.live.status_changed.connect(self._camera_state_across_the_room)
        self._picture_timer = QTimer(self)
        self._picture_timer.timeout.connect(self._no_picture_yet)
        self._picture_timer.start(1000)

    def _camera_state_across_the_room(self, status: str) -> None:
        """Table mode shows it too: the players look at the screen across the table, where the picture is hidden."""
        self.table_mode.show_camera(self.live.status_text() if status in ("no picture", "stopped") else None)

    def _picture_came(self, _image) -> None:
        self.last_picture = time.monotonic()
        if self.live.status == "no picture":
            self.show_camera_status(self.camera_status)
            self.speaker.say(self.tr("The camera's picture is back."))  # (the players waited for it: play on)

    def _no_picture_yet(self) -> None:
        if self.finished or not self.isVisible() or self.pause_action.isChecked() \
                or self.live.status in ("no picture", "over"):
            return  # (a window closed, at the start screen, has no camera to tell of)
        now = time.monotonic()
        if self.last_picture is None:
            self.first_awaited = self.first_awaited or now
            waited, allowed = now - self.first_awaited, FIRST_PICTURE_S
        else:
            waited, allowed = now - self.last_picture, NO_PICTURE_S
        if waited > allowed:
            self.live.set_status("no picture")
            self.speaker.say(self.tr("No picture from the camera: wait, it is being opened again."))

    def status_clicked(self) -> None:
        """A click on the state shown: the question put off asked again; a camera that stopped tried again."""
        if self.live.status == "confirm":
            self.reopen_question()
        elif self.live.status == "stopped" and self.camera_action.isEnabled():  # (the camera stopped, not the saving)
            self.try_camera_again()

    def try_camera_again(self) -> None:
        """A camera that stopped (unplugged, not found on resuming) opened again; the match goes on from the log."""
        if not self.finished or not self.camera_action.isEnabled():
            return
        self.finished, self.ended_with, self.broke_off = False, None, None
        self.camera_action.setEnabled(False)
        self._playable(True)
        self.last_picture = self.first_awaited = None
        self.live.set_status("waiting")
        self.statusBar().showMessage(self.tr("Opening the camera again…"), 5000)
        self.worker.connect_again()

    def retranslate_recording(self) -> None:
        """The recording bar's texts, where there is one (a video); the status bar's offer of another order."""
        if self.order_button is not None:
            self._offer_order(not self.order_button.isHidden())
        if hasattr(self, "play_button"):
            self.recording_bar.setWindowTitle(self.tr("Recording"))
            self.play_button.setText(self.tr("Play") if self.play_button.isChecked() else self.tr("Pause"))
            self.live_button.setText(self.tr("Back to live"))
            self.again_button.setText(self.tr("Score again from here…"))
            self.time_label.setText(self.tr("{seconds} s").format(
                seconds=i18n.decimal(self.review_at if self.review_at is not None else self.worker.position)))

    def _playable(self, on: bool) -> None:
        """Pause and Play offered: while the recording or the camera goes on."""
        self.pause_action.setEnabled(on)
        if hasattr(self, "play_button"):
            self.play_button.setEnabled(on)

    # The moves "Score again from here" withdrew, in order: each scored again the same is shown but not said a
    # second time; the first that comes out otherwise ends it (from there the recording tells something new).
    heard_before: tuple = ()
    withdrawal_unsaid = False  # (the withdrawal that scoring again makes: not said)

    def heard_already(self, step) -> bool:
        """Whether ``step``'s move, just scored, is the next of the moves withdrawn -- said before.  The last of
        them scored again the same, the scores are said once: the players listening hear the result stands."""
        if self.heard_before and self.heard_before[0] == step.event:
            self.heard_before = self.heard_before[1:]
            if not self.heard_before:
                self.speaker.say(self.tr("Scored again as before: {scores}").format(scores=scores_text(step.after)))
            return True
        self.heard_before = ()
        return False

    def score_again_from(self, seconds: float) -> None:
        count, _ = self.snapshot.at(seconds)
        self.heard_before = tuple(s.event for s in self.snapshot.steps[count:])
        self.withdrawal_unsaid = bool(self.heard_before)
        self._close_question()  # (the session forgets what it asked: the table is read again from there)
        self.live_banner()
        self.finished, self.ended_with = False, None
        self._playable(True)
        self.review_at = None
        self._show_review_buttons(False)
        self._enable_moves()
        self.log.clearSelection()
        self.live.set_status("waiting")
        self.statusBar().clearMessage()  # (not the moment reviewed: what to do next comes back)
        self.worker.score_again_from(seconds)
        if hasattr(self, "play_button"):
            self.play_button.setChecked(False)  # scoring again means playing on from there
