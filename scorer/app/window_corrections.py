"""What the players tell the main window by hand: a pass, a draw, a tile played, the hands at a round's end,
a tile's pips read wrong, the answer to the camera's question, undo and redo.

A part of :class:`scorer.app.window.MainWindow`: each correction is tried on the match first (an illegal
one is refused with its reason), then sent to the session through the worker.
"""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDialog, QMessageBox, QPushButton

from scorer.app.corrections import ConfirmDialog, HandsDialog, TilePicker, player_menu
from scorer.app.question_picture import asked_boxes, question_picture
from scorer.app.screens import ask_text
from scorer.app.wording import question_text, refusal_text, said_again
from scorer.errors import ScorerError
from scorer.pipeline import NeedsConfirmation, pointed_at
from scorer.pipeline.recount import with_draws_undone, with_missed_draws
from scorer.pipeline.rewrite import OrderToPick
from scorer.rules import Draw, Event, Pass, Phase, Reveal, RoundStart, Tile
from scorer.words import words_of


# A question still open this long after it was put is said aloud (ms).
QUESTION_SAID_AFTER_MS = 2000


class MatchCorrections:
    """The corrections: requests to the session, through the worker."""

    # The camera's question asked and neither answered nor settled: put off ("Not now"), it can be opened again
    # (the Play menu, or a click on the "needs your confirmation" badge) until the match moves on.
    open_question: NeedsConfirmation | None = None

    def _ask(self, e: NeedsConfirmation) -> None:
        self.asking = True  # (the question it replaces closed: the recording held on for this one)
        try:
            self._show_question(e)
        finally:
            self.asking = False
        self.live.set_status("confirm")
        if e.alternatives:  # (with nothing to pick, the camera reading the table again is what settles it)
            self.hold_for_question()

    def _show_question(self, e: NeedsConfirmation) -> None:
        self._close_question()  # (one question at a time: the newest)
        self.open_question = e
        asked, picture = self._question_picture(e)
        dialog = ConfirmDialog(self, question_text(e, self.live.picture_size()), e.alternatives, picture, ringed=bool(asked), match=self.match)
        self.pending_dialog = dialog
        dialog.finished.connect(lambda _r, d=dialog: self._confirmed(d))
        # Not modal, and the keys left with the window: the table goes on while it waits (a recording waits
        # for the answer: hold_for_question), and Pause (Space), Undo and Quit must too -- an answer is clicked.
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        dialog.show()
        self._enable_moves()
        # (timed on the dialog: a window closed meanwhile takes the call with it)
        QTimer.singleShot(QUESTION_SAID_AFTER_MS, dialog, lambda d=dialog: self._call_to_the_screen(d))

    def _question_picture(self, e: NeedsConfirmation) -> tuple[list, QImage | None]:
        """The boxes the question is about, and the table as the camera saw it when it asked, those ringed (no
        picture: no camera, or a moment of the recording reviewed -- not the table asked about)."""
        if self.live.image is None or self.review_at is not None:
            return [], None
        places, tiles = pointed_at(e.question)
        detections = self.live.detections
        asked = asked_boxes(detections, places, tiles)
        # (smaller above many ways offered, one move a line: the dialog stays within a laptop's 768 px)
        size = (560, 340) if sum(map(len, e.alternatives)) <= 8 else (460, 220)
        return asked, question_picture(self.live.image, detections, asked, size)

    def _call_to_the_screen(self, dialog: ConfirmDialog) -> None:
        """The players look at the table, not at the laptop: the voice tells them to look -- where the
        question is still open (most are settled by the camera within a moment: the tile read surely)."""
        if dialog is self.pending_dialog and dialog.isVisible():
            self.speaker.say(self.tr("The camera asks: please look at the screen."))

    def _close_question(self) -> None:
        """The question open is closed unanswered: the match moved on (the camera settled it, or another
        question came), and an answer picked now would be about a table that is gone."""
        dialog, self.pending_dialog = self.pending_dialog, None
        self.open_question = None
        if self.live.status == "confirm" and self.camera_status != "confirm":
            self.live.set_status(self.camera_status)  # (the badge was kept red for this question)
        if dialog is not None and dialog.isVisible():
            dialog.reject()
        self.go_on_after_question()
        self._enable_moves()

    def _confirmed(self, dialog: ConfirmDialog) -> None:
        if dialog is self.pending_dialog:
            self.pending_dialog = None  # (answered, or put off)
            if not dialog.choice and (self.held_for_question or self.held_for_players):
                self.hold_for_players("question")
            elif not dialog.choice:
                self.statusBar().showMessage(self.tr(
                    "The question is put off: Play ▸ The camera's question… (Q), or a click on “needs your "
                    "confirmation”, opens it again while the match has not moved on."), 15000)
        if dialog.choice:
            self.open_question = None
            self._send(dialog.choice)
        dialog.deleteLater()  # (a question a dialog: put off, it is asked again in a new one)
        self.go_on_after_question()
        self._enable_moves()

    # What the camera last said of itself (waiting, reading, confirm, over).
    camera_status = "waiting"

    def show_camera_status(self, status: str) -> None:
        """The camera's state on the badge -- kept at "needs your confirmation" while a question put off is open
        (a click on it opens the question again)."""
        self.camera_status = status
        kept = self.open_question is not None and status in ("waiting", "reading")
        # (A camera paused stays "paused" on the badge while the table's state changes under it -- a move entered by hand.)
        paused = self.pause_action.isChecked() and not self.worker.seekable and status in ("waiting", "reading")
        self.live.set_status("confirm" if kept else "paused" if paused else status)

    def reopen_question(self) -> None:
        """The question put off, asked again (as the table is now: the match has not moved on since)."""
        if self.open_question is not None and self.pending_dialog is None and self.review_at is None:
            self._ask(self.open_question)

    # The ways offered again for an order taken unanswered, while the dialog is open, and the order they are of.
    order_dialog: tuple[ConfirmDialog, OrderToPick] | None = None

    def pick_order(self) -> None:
        """New tiles the camera took in an order unanswered (laid at once, or while it saw nothing): the ways the rules
        allowed, offered again -- one for each state of the game they leave, the one taken first -- each with what it
        leaves; one picked, the round is written so and scored again."""
        open_order = self.snapshot.order
        if open_order is None or self.review_at is not None:
            return
        if self.order_dialog is not None:
            self.order_dialog[0].reject()
        guess = open_order.guess
        intro = self.tr("The camera did not see in which order these tiles were laid and took the order marked “Taken "
                        "now”. If they were played in another, pick it (until the next round begins): the moves since are "
                        "scored again.")
        dialog = ConfirmDialog(self, "", open_order.ways, match=open_order.before, intro=intro, taken=guess.taken)
        self.order_dialog = (dialog, open_order)
        dialog.finished.connect(lambda _r, d=dialog: self._order_picked(d))
        dialog.setWindowModality(Qt.WindowModality.NonModal)  # (as a question: the table goes on meanwhile)
        dialog.show()

    def _order_picked(self, dialog: ConfirmDialog) -> None:
        if self.order_dialog is not None and self.order_dialog[0] is dialog:
            self.order_dialog = None
        open_order = self.snapshot.order  # (gone meanwhile: the pick is sent all the same, and told why it is not taken)
        if dialog.choice and (open_order is None or tuple(dialog.choice) != open_order.guess.taken):
            self.players_acted()
            self.worker.pick_order(dialog.choice)
        dialog.deleteLater()

    def _order_moved_on(self) -> None:
        """The ways offered again, where the order they are of has changed since: offered as it is now (revised, or
        another way picked), or closed, told why, where none is open to a pick any more (the next round begun, the
        moves withdrawn, no other way fitting the moves played since)."""
        if self.order_dialog is None or self.snapshot.order == self.order_dialog[1]:
            return
        self.order_dialog[0].reject()
        if self.snapshot.order is not None:
            self.pick_order()
        else:
            self.statusBar().showMessage(self.tr("The order of those tiles can no longer be changed."), 15000)

    # Shown in the status bar while an order taken unanswered may be changed: the notice that told of it passes.
    order_button: QPushButton | None = None

    def _offer_order(self, offered: bool) -> None:
        if self.order_button is None and offered:
            self.order_button = QPushButton()
            self.order_button.setStyleSheet("background:#c86400;color:white;font-weight:bold;padding:1px 8px")
            self.order_button.clicked.connect(self.pick_order)
            self.statusBar().addPermanentWidget(self.order_button)
        if self.order_button is not None:
            self.order_button.setText(self.tr("Order taken unanswered: change it… (O)"))
            self.order_button.setVisible(offered)

    def _correct(self, events: Sequence[Event]) -> bool:
        """Send ``events`` to the session, where the rules take them; else say why not (False)."""
        try:
            state = self.match
            for e in events:
                state, _ = state.apply(e)
        except ScorerError as exc:  # an illegal correction is refused with its reason
            QMessageBox.warning(self, self.tr("Not possible"), refusal_text(exc) + self._way_out(exc))
            return False
        self._send(events)
        return True

    def _send(self, events: Sequence[Event]) -> None:
        """The players' move to the session (through the worker); a recording held for them plays on."""
        self.players_acted()
        self.worker.correct(events)
        self.go_on_after_players()

    def players_acted(self) -> None:
        """The players changed the match themselves: what the recording scores from now on is not the moves a
        scoring again withdrew coming back (each is said, and no "as before")."""
        self.heard_before = ()

    def _way_out(self, exc: ScorerError) -> str:
        """What puts the match right where the refused move is not the mistake (a pass entered earlier is)."""
        if not getattr(words_of(exc), "template", "").startswith("round {round} is not blocked") \
                or not self.match.passes_in_a_row:
            return ""
        if self.match.rules.has_boneyard:
            return " " + self.tr("A pass was entered for a player who could play: Undo takes the passes back, one at "
                                 "a time; then enter the play.")
        return " " + self.tr("A knock was entered for a player who could play: Undo takes the knocks back, one at "
                             "a time; then enter the play.")

    def _correct_tile(self, detection) -> None:
        """Click a tile to correct its pips; the table is read again with the correction."""
        a, b = detection.pips
        text = ask_text(self, self.tr("Correct the tile"), self.tr("Its pips (two numbers 0-6):"), f"{a} {b}")
        if text is None:
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
        self._close_question()  # (the reading corrected is the word on it: an answer picked later must not undo it)
        self.players_acted()
        self.worker.correct_tile(detection.center, tile)
        self.go_on_after_players()  # (the table read again with the correction)

    def _start_round(self) -> None:
        self._for_player("starts", RoundStart)

    def _enable_moves(self) -> None:
        """The moves' buttons and menu items as the match allows them now: none once it is over; a pass or a
        knock only in a round where the rules may take one (not while the boneyard holds tiles: a player who
        cannot play draws), a draw only in a round of a game with a boneyard; the hands in or after a round;
        the next round's start between rounds; none while a past moment is reviewed."""
        match = self.match
        # (Not while a past moment is reviewed: a move entered would go to the match as it is now, unseen.)
        live = not match.is_over and self.review_at is None
        in_round = live and match.phase is Phase.IN_ROUND
        boneyard_holds = match.rules.has_boneyard and match.boneyard > 0
        allowed = {
            self.round_action: live and match.phase is Phase.BEFORE_ROUND,
            self.pass_action: in_round and not boneyard_holds,
            self.draw_action: in_round and boneyard_holds and bool(match.current_board().tiles),
            self.tile_action: live and match.phase is not Phase.ROUND_OVER,
            # (In a round too: hands holding more tiles than the log gives put in the draws it lacks.)
            self.hands_action: live and match.phase in (Phase.IN_ROUND, Phase.ROUND_OVER),
        }
        # (Why no pass: the log's boneyard, which a camera that missed a draw counts too high.)
        no_pass = self.tr("No pass while the boneyard is not empty ({count} left): a player who cannot play draws.").format(
            count=match.boneyard) if in_round and boneyard_holds else ""
        for action, enabled in allowed.items():
            action.setEnabled(enabled)
        self.question_action.setEnabled(self.open_question is not None and self.pending_dialog is None
                                        and self.review_at is None)
        self.order_action.setEnabled(self.snapshot.order is not None and self.review_at is None)
        self._offer_order(self.order_action.isEnabled() and not self.by_hand)
        self._order_moved_on()
        self.undo_action.setEnabled(bool(self.snapshot.steps) and self.review_at is None)
        self.redo_action.setEnabled(bool(self.snapshot.undone) and self.review_at is None)
        for button, action in zip(self.correction_buttons, (self.pass_action, self.draw_action, self.tile_action, self.hands_action)):
            button.setEnabled(action.isEnabled())
        self.correction_buttons[0].setToolTip(no_pass)
        self.pass_action.setToolTip(no_pass)

    def _add_pass(self) -> None:
        if self._in_round(Phase.IN_ROUND):
            self._for_player("passes" if self.match.rules.has_boneyard else "knocks", self._pass_checked)

    def _pass_checked(self, player: str) -> Pass | None:
        """A pass -- asked about first where it blocks the round (nobody can play: the hands are counted), as a
        pass entered for the wrong player can only be undone."""
        try:
            after, _ = self.match.apply(Pass(player))
        except ScorerError:  # (refused with its reason when sent)
            return Pass(player)
        if after.phase is not Phase.ROUND_OVER:
            return Pass(player)
        ask = self.tr("With this pass nobody can play: round {round} is blocked, and the hands left are counted. Is "
                      "that so?") if self.match.rules.has_boneyard else self.tr(
            "With this knock nobody can play: round {round} is blocked, and the hands left are counted. Is that so?")
        answer = QMessageBox.question(self, self.tr("Round blocked?"), ask.format(round=self.match.round_no))
        return Pass(player) if answer == QMessageBox.StandardButton.Yes else None

    def _add_draw(self) -> None:
        if self._in_round(Phase.IN_ROUND):
            self._for_player("draws", lambda p: Draw(p, 1))

    def _in_round(self, *phases: Phase) -> bool:
        """Whether the match is in one of ``phases``; else the players are told no round is being played
        (in their language: the rules' own refusal would say more, in English)."""
        if self.match.phase in phases:
            return True
        QMessageBox.information(self, self.tr("Not possible"), self.tr("No round is being played."))
        return False

    def _for_player(self, verb: str, make) -> None:
        """A pass or draw for the player chosen (the one on turn offered first)."""
        menu = player_menu(self, self.match, verb)
        chosen = menu.exec(self.cursor().pos())
        move = make(chosen.data()) if chosen is not None else None
        menu.deleteLater()  # (each move's own: kept, hundreds of them would all be retranslated at a switch)
        if move is not None:
            self._correct([move])

    def _enter_move(self) -> None:
        picker = TilePicker(self, self.match, starter=self.pipeline.config.starter)
        accepted = picker.exec() == QDialog.DialogCode.Accepted
        picker.deleteLater()  # (each move's own: kept, hundreds of them would all be retranslated at a switch)
        if accepted and picker.events:
            self._correct(picker.events)

    def _enter_hands(self) -> None:
        if not self._in_round(Phase.IN_ROUND, Phase.ROUND_OVER):
            return
        asked = self.match
        dialog = HandsDialog(self, asked)
        # (Hands refused are shown again as typed, to be mended rather than typed anew -- while the match is
        # the one they were typed for: a camera may have moved it on meanwhile.)
        try:
            while dialog.exec() == QDialog.DialogCode.Accepted:
                try:
                    if self._hands_entered(dialog.event_()):
                        return
                except (ValueError, ScorerError) as exc:
                    QMessageBox.warning(self, self.tr("Not the hands"), refusal_text(exc))
                if (self.match.phase, self.match.hand_counts) != (asked.phase, asked.hand_counts):
                    return
        finally:
            dialog.deleteLater()

    def _hands_entered(self, hands: Reveal) -> bool:
        """The hands typed in: hands with more tiles than the camera saw drawn tell of draws it missed, fewer of draws it
        counted too many (the round is written again so); any other the rules refuse is refused with its reason (False)."""
        steps = self.snapshot.steps
        if (undone := with_draws_undone(steps, hands)) is not None:
            # (A tile forgotten in the typing looks the same: asked, not taken.)
            asked = self.tr("These hands hold fewer tiles than the camera counted drawn: {changes}. Take it so? (No: check "
                            "the hands.)").format(changes=said_again(undone.said))
            if QMessageBox.question(self, self.tr("Fewer tiles"), asked) != QMessageBox.StandardButton.Yes:
                return False
        if undone is not None or with_missed_draws(steps, hands) is not None:
            self._send([hands])
            return True
        return self._correct([hands])

    def undo(self) -> None:
        if self.snapshot.steps:
            self.hold_for_players("undo")
            self.players_acted()
            self.worker.undo()

    def redo(self) -> None:
        if self.snapshot.undone:
            self.players_acted()
            self.worker.redo()
            self.go_on_after_players()
