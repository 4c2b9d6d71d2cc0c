"""The main window's banner: the last announcement, or who is to act -- and what of it is said aloud.

A part of :class:`scorer.app.window.MainWindow`: a move that scores is announced (banner and voice); a move that
scores nothing leaves the announcement standing, but where none stands the banner follows whose turn it is, and a
round that ends with nothing to announce (blocked) is said; a moment of a recording reviewed has its own banner.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from scorer.app import i18n
from scorer.app.corrections import event_text
from scorer.app.tablemode import turn_text
from scorer.app.wording import refusal_text, said_again
from scorer.errors import SessionError
from scorer.words import words_of
from scorer.pipeline.announce import Announcement, announced
from scorer.rules import Draw, Event, Pass, Phase, Reveal
from scorer.rules.transcript import Step, scores_text


BANNER_STYLE = "background:#10324a;color:white;padding:8px;border-radius:6px"
NOT_SAVED_STYLE = "background:#a01010;color:white;padding:8px;border-radius:6px"


class Banner:
    """``announcement``: the one the banner shows (None: it shows whose turn it is, or what was undone)."""

    announcement: Announcement | None = None
    last_announcement = ""
    not_saved: QLabel | None = None  # the status bar's red mark while a move could not be saved
    standing = ""  # what the status bar last said to do next (a passing message may stand over it)

    @property
    def knocks(self) -> bool:
        """Whether a pass is told as a knock: a game with no boneyard (Seven Rocks)."""
        return not self.match.rules.has_boneyard

    def tell_not_saved(self, failure: SessionError) -> None:
        """A move the match's file refused (a full disk) is not in the match: shown on the banner, said aloud, and
        marked red in the status bar until a move is saved again -- nobody at the table may be watching the laptop."""
        told = refusal_text(failure)
        if self.not_saved is None:
            self.not_saved = QLabel()
            self.not_saved.setStyleSheet("background:#a01010;color:white;font-weight:bold;padding:2px 8px")
            self.statusBar().addPermanentWidget(self.not_saved)
        self.not_saved.setText(self.tr("NOT SAVED"))
        self.not_saved.setToolTip(told)
        self.not_saved.show()
        self.announcement = None
        reason = getattr(words_of(failure), "values", {}).get("reason")
        why = said_again(reason) if reason else self.tr("it could not be written")
        said = self.tr("The move was not saved and is not in the match: {reason}. Enter it again once it can be "
                       "saved.").format(reason=why.rstrip("."))
        self.banner.setText(i18n.unbroken(said))  # (the file's name is in the status bar)
        self.banner.setStyleSheet(NOT_SAVED_STYLE)
        self.speaker.say(said)

    def saved_again(self) -> None:
        for note in self.session.take_notes():  # (another program replaced or removed the file: written again)
            self.statusBar().showMessage(said_again(note), 30000)
        if self.not_saved is not None and not self.not_saved.isHidden():
            self.not_saved.hide()
            self.banner.setStyleSheet(BANNER_STYLE)

    def _announce(self, announcement: Announcement, aloud: bool = True) -> None:
        self.announcement = announcement
        text = i18n.unbroken(announcement.text(self.lang))
        self.last_announcement = text
        if self.review_at is None:  # (a moment reviewed keeps its own banner till back to live)
            self.banner.setText(text)
        if aloud:
            self.speaker.say_announcement(announcement)
        if self.pages.currentWidget() is self.table_mode:
            self._refresh_table_mode()

    def show_unannounced(self, step: Step, aloud: bool = True, rewritten: bool = False) -> None:
        """A move with nothing to announce (a round started, a pass, a draw): where no announcement stands the
        banner follows whose turn it is; a round ended by it (blocked: nobody can play) is shown and said. A pass
        or a draw is said: players who listen rather than watch hear that it was taken."""
        ended = step.before.phase is Phase.IN_ROUND and step.after.phase is Phase.ROUND_OVER
        if aloud and not rewritten and isinstance(step.event, (Pass, Draw)):  # (one put in later: told as such)
            self.speaker.say(event_text(step.event, knock=self.knocks))
        if ended:
            self.announcement = None
        if self.announcement is not None or self.review_at is not None:
            return
        text = turn_text(step.after)  # (the session's snapshot may follow the events; a blocked round said so)
        self.banner.setText(text)
        if ended and aloud:
            self.speaker.say(text)

    def say_redone(self, step: Step, announcement: Announcement | None) -> None:
        """A move Redo brought back is said as such ("Redone: ..."), not as a move just made: the players listening
        would count a draw or a score twice."""
        move = announcement.spoken(self.lang) if announcement is not None else event_text(step.event, knock=self.knocks)
        self.speaker.say(self.tr("Redone: {move}").format(move=move))

    def say_started(self) -> None:
        """A new match is said as it starts (the game, who plays, what comes first): the table hears that the voice
        works before the first move is scored."""
        match = self.match
        sides = ", ".join(match.table.side_name(side) for side in range(match.table.n_sides))
        self.speaker.say(self.tr("New match: {game}, {sides}. {turn}.").format(
            game=match.rules.title, sides=sides, turn=turn_text(match)))

    def say_resumed(self) -> None:
        """A match resumed is said as it stands -- the round, the scores, who is to act: the table may have got up
        since, and nobody need read the laptop to go on."""
        match = self.match
        scores, turn = scores_text(match), turn_text(match)
        if match.is_over:
            said = turn
        elif match.phase is Phase.IN_ROUND:
            said = self.tr("Resumed: round {round}. {scores}. {turn}.").format(round=match.round_no, scores=scores, turn=turn)
        elif match.phase is Phase.ROUND_OVER:
            said = self.tr("Resumed: round {round} is over. {scores}. {turn}.").format(round=match.round_no, scores=scores,
                                                                                      turn=turn)
        else:  # (between rounds: the last one counted)
            said = self.tr("Resumed after round {round}. {scores}. {turn}.").format(round=match.round_no, scores=scores,
                                                                                   turn=turn)
        self.statusBar().showMessage(said, 15000)
        self.speaker.say(said)

    def say_withdrawn(self, count: int, first: Event) -> None:
        """Moves withdrawn (undo, score again) are said too: players who listen rather than watch hear a score
        taken back."""
        if count == 1 and isinstance(first, Reveal):  # (not every tile of every hand read out)
            self.speaker.say(self.tr("Undone: the hands of round {round}").format(round=self.match.round_no))
        elif count == 1:
            self.speaker.say(self.tr("Undone: {move}").format(move=event_text(first, knock=self.knocks)))
        else:
            self.speaker.say(self.tr("Withdrawn: {count} moves").format(count=count))

    def live_banner(self) -> None:
        """The banner as the live match has it (back from a moment reviewed)."""
        self.banner.setText(self.last_announcement if self.announcement is not None else turn_text(self.match))

    def show_banner_reviewed(self) -> None:
        """The banner as it stood at the moment reviewed: the last announcement then (or who was to act), marked
        with its time -- not the live one, which is of a later table."""
        count, then = self.snapshot.at(self.review_at)
        said = next((a for a in map(announced, reversed(self.snapshot.steps[:count])) if a is not None), None)
        text = i18n.unbroken(said.text(self.lang)) if said is not None else turn_text(then)
        self.banner.setText(self.tr("At {seconds} s: {said}").format(seconds=i18n.decimal(self.review_at), said=text))

    def _show_finished(self, over_a_passing_message: bool = True) -> None:
        """What to do next, in the status bar -- where ``over_a_passing_message`` is False, not over a notice still
        shown (a pass the hands prove wrong, told as the round's end comes): it follows once that one is gone."""
        if self.match.is_over:
            text = self.tr("The match is over.")
        elif self.by_hand and self.match.phase is Phase.ROUND_OVER:
            text = self.tr("Round {round} is over: give the hands left (Round end…).").format(round=self.match.round_no)
        elif self.by_hand:
            text = self.tr("No camera: enter each move with the buttons; undo and redo work as ever.")
        elif self.broke_off is not None:
            text = self._broke_off_text(self.broke_off)
        else:
            text = self.tr("The recording ended: corrections, undo and review still work.")
        if over_a_passing_message or self.statusBar().currentMessage() in ("", self.standing):
            self.statusBar().showMessage(text)
        self.standing = text

    def _standing_back(self, message: str) -> None:
        """A passing message gone (an undo's, a notice's), what to do next is said again, where the bar says it.  A
        message is also the bar's tooltip: a long one, cut at the window's edge, is read whole under the pointer."""
        self.statusBar().setToolTip(message)
        if not message and (self.by_hand or self.finished):
            self._show_finished()
