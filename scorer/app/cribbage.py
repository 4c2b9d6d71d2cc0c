"""Cribbage on the scorer's board: players say what happened; the game counts, explains, speaks and saves.

The window follows the deal: who deals, the cut, the pegging (the running count large, whose turn,
a button per rank for the card played, "Go"), then the show in counting order.  Every action is
appended to the game's file at once (fsynced, see :mod:`scorer.cribbage.store`) and announced on the
banner and aloud; an unfinished game is offered again on the next start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox

from scorer.app.cribbage_texts import TEXTS, log_lines, phrase, prompt, scores_text
from scorer.app.cribbage_widgets import ERROR_STYLE, NEUTRAL_STYLE, CribbageWidgets
from scorer.app.pegboard import Track
from scorer.app.screens import show_fitted
from scorer.app.speech import CHOOSING, TEXT_ONLY, Speaker
from scorer.app.wording import refusal_text, said_in
from scorer.cribbage import parse_card
from scorer.cribbage.cards import Card
from scorer.cribbage.match import (
    EVERY_CARD_FITS_UP_TO, CribbageGame, CribEvent, Cut, Go, PegCard, Scored, Show, hand_pegged,
)
from scorer.cribbage.speak import announce, speakable_cards
from scorer.cribbage.store import GameFile, SavedGame, find_unfinished
from scorer.errors import ScorerError, SessionError
from scorer.words import words_of


class CribbageWindow(CribbageWidgets, QMainWindow):
    """The cribbage game on the board: the actions the players report, the game's state shown and saved."""

    # Handed to the app when the window closes: "start" (back to the start screen) or None (quit).
    next_action: str | None = None

    def __init__(self, players: list[str], target: int = 121, muggins: bool = False, *, lang: str | None = None,
                 speaker: Speaker | None = None, save: bool = True, saved: SavedGame | None = None,
                 folder: Path | None = None) -> None:
        super().__init__()
        if lang is None:
            from scorer.app.settings import Settings

            lang = Settings.load().lang
        self.lang = lang if lang in TEXTS else "en"
        self.folder = folder
        self.history: list[CribbageGame] = []
        self.done: list[tuple[CribEvent, list[Scored]]] = []
        self.file: GameFile | None = None
        self.saving = save  # (a game whose file could not be made is made again at the first action: see _save)
        self.save_error = ""
        if saved is not None:
            self.file = GameFile(saved.path)  # held first, then read: as it is, not as it was when offered
            try:
                self.game, self.history, self.done = self.file.saved().replay()
            except BaseException:  # (a game that cannot be read: let go, the error as it is)
                self.file.close()
                raise
            players, target, muggins = list(self.game.players), self.game.target, self.game.muggins
        else:
            self.game = CribbageGame.start(players, target, muggins)
            if save:
                self._new_file()
        self.speaker = speaker or Speaker(self.lang, self)
        self.speaker.lang = self.lang
        self.resize(1180, 820)
        self._build()
        self._show_log()
        self.speaker.backend_chosen.connect(lambda _name: self._show_status())
        self.speaker.failed.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self._refresh()
        self._show_status()
        if saved is not None:  # (said as it stands: the table may have got up since)
            self.message.setText(prompt(self.game, self.lang))
            counting = f". {self.t('count')} {self.game.count}" if self.game.phase == "peg" and self.game.count else ""
            self.speaker.say(self.t("resumed", scores=scores_text(self.game) + counting,
                                    prompt=prompt(self.game, self.lang).rstrip(".")))

    # -- texts ----------------------------------------------------------------------------

    def t(self, key: str, **kw) -> str:
        return phrase(self.lang, key, **kw)

    def _engine_name(self, engine: str) -> str:
        """The voice's name in this window's language (the engines' own names are kept)."""
        return {TEXT_ONLY: self.t("text_only"), CHOOSING: self.t("choosing")}.get(engine, engine)

    def set_lang(self, lang: str) -> None:
        if lang not in TEXTS or lang == self.lang:
            return
        self.lang = lang
        self.speaker.lang = lang
        try:
            from scorer.app.settings import Settings

            Settings.remember(lang=lang)
        except OSError:
            pass
        self._retranslate()
        self._show_log()
        self.message.setStyleSheet(NEUTRAL_STYLE)
        self.message.setText(prompt(self.game, self.lang))  # (the last words were in the other language)
        self._refresh()
        self._show_status()

    def _show_status(self) -> None:
        where = self.t("not_saved", error=self.save_error) if self.save_error else (
            self.t("saved", path=self.file.path.name) if self.file else "")
        self.status_line.setToolTip(str(self.file.path) if self.file else "")
        voice = self.t("voice", engine=self._engine_name(self.speaker.engine))
        self.status_line.setText(voice + ("  ·  " + where if where else ""))

    # -- saving ------------------------------------------------------------------------------

    def _new_file(self) -> None:
        g = self.game
        if self.file is not None:
            self.file.close()  # (the game before, let go)
        try:
            self.file = GameFile.create(list(g.players), g.target, g.muggins, getattr(self, "lang", "en"), self.folder)
            self.save_error = ""
        except (OSError, SessionError) as exc:  # (the disk full; the file made, and taken by another program)
            self.file, self.save_error = None, str(exc)

    def _save(self, write: Callable[[GameFile], None]) -> bool:
        """Whether ``write`` went to the game's file (or no file is kept); a line the disk refuses is refused
        with what it was, so the file stays the game -- shown and said: enter it again once there is room."""
        if self.file is None and self.saving:
            self._new_file()
        if self.file is None and not self.save_error:
            return True
        try:
            if self.file is None:  # (the disk refused even the file: nothing is done till it can be made)
                raise OSError(self.save_error)
            write(self.file)
            for note in self.file.take_notes():  # (another program replaced or removed the file: written again)
                self.statusBar().showMessage(said_in(self.lang)(note), 30000)
        except (OSError, SessionError) as exc:  # (a file replaced, then not to be held again: a SessionError)
            self.save_error = (said_in(self.lang)(words_of(exc)) if isinstance(exc, SessionError)
                               else exc.strerror or str(exc))
            self._show_status()
            self._error(self.t("not_saved_move", error=self.save_error) + ".", refused=False)
            return False
        if self.save_error:
            self.save_error = ""
            self._show_status()
        return True

    # -- actions -----------------------------------------------------------------------------

    def _with_cards(self, make) -> None:
        try:
            event = make()
        except ScorerError as exc:
            self._error(refusal_text(exc, self.lang))
            return
        self.apply(event)

    def _error(self, text: str, refused: bool = True) -> None:
        """A refusal (``refused``: of what was entered), shown and said: players who look at their cards would take
        silence for the entry taken."""
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_STYLE)
        self.speaker.say(speakable_cards(self.t("refused", reason=text) if refused else text, self.lang))

    def _cut(self) -> None:
        self._with_cards(lambda: Cut(parse_card(self.starter.text())))

    def _show(self) -> None:
        def make() -> Show:
            cards = tuple(parse_card(t) for t in self.show_cards.text().split())
            claimed = self.claimed.value() if self.game.muggins and self.claimed.value() >= 0 else None
            return Show(self.shower.currentText(), cards, crib=self.crib.isChecked(), claimed=claimed)

        self._with_cards(make)

    def _turn_player(self) -> str | None:
        g = self.game
        return g.players[g.turn] if g.turn is not None else None

    def peg_rank(self, rank: int) -> bool:
        """The player on turn plays a card of ``rank`` (with the suit chosen, if any)."""
        player = self._turn_player()
        if player is None:
            self._error("Cut the starter first." if self.lang == "en" else "Nosta ensin nostokortti.")
            return False
        card = Card(rank, self.suit.currentData() or None)
        ok = self.apply(PegCard(player, card))
        if ok:
            self.suit.setCurrentIndex(0)
        return ok

    def _peg_typed(self) -> None:
        player = self._turn_player()
        if player is None:
            return

        def make() -> PegCard:
            return PegCard(player, parse_card(self.peg_card.text(), suit_required=False))

        self._with_cards(make)
        self.peg_card.clear()

    def say_go(self) -> bool:
        """The player on turn cannot play without passing 31."""
        player = self._turn_player()
        if player is None:
            return False
        return self.apply(Go(player))

    def apply(self, event: CribEvent) -> bool:
        before = self.game
        try:
            game, scored = before.apply(event)
        except ScorerError as exc:
            self._error(refusal_text(exc, self.lang))
            return False
        if not self._save(lambda f: f.add(event)):
            return False
        self.history.append(before)
        self.game = game
        self.done.append((event, scored))
        said = announce(before, event, game, scored)
        self.message.setStyleSheet(NEUTRAL_STYLE)
        self.message.setText(said.text(self.lang) + (" " + self.t("deal_new_game") + "." if game.is_over else ""))
        self.speaker.say(said.spoken(self.lang))
        self._log_event(event, scored)
        # (A card field used is emptied: Enter again must not count the same cards for the next count.)
        if isinstance(event, Cut):
            self.starter.clear()
        elif isinstance(event, Show):
            self.show_cards.clear()
            self.claimed.setValue(self.claimed.minimum())
        self._refresh()
        return True

    def _log_event(self, event: CribEvent, scored: list[Scored]) -> None:
        self.log.addItems(log_lines(event, scored, self.lang))
        self.log.scrollToBottom()

    def _show_log(self) -> None:
        """What happened, the game's events in force, in the window's language (an undone one is gone from it)."""
        self.log.clear()
        for event, scored in self.done:
            self.log.addItems(log_lines(event, scored, self.lang))
        QTimer.singleShot(0, self.log.scrollToBottom)  # (once laid out: a game resumed opens at its last lines)

    def undo(self) -> None:
        if not self.history:
            self.message.setText(self.t("nothing_to_undo"))
            return
        if not self._save(lambda f: f.undo()):
            return
        self.game = self.history.pop()
        if self.done:
            self.done.pop()
        self.show_cards.clear()  # (a hand offered for the count undone is another's now: offered again as it comes)
        self._show_log()
        now = prompt(self.game, self.lang)  # (what stands after the undo, said: players who listen know where they are)
        if self.game.phase == "peg":
            now += f", {self.t('count').lower()} {self.game.count}"
        self.message.setStyleSheet(NEUTRAL_STYLE)
        self.message.setText(f"{self.t('undone')} {now}.")
        self.speaker.say(speakable_cards(f"{self.t('undone')} {now}.", self.lang))
        self._refresh()

    def new_game(self, ask: bool = True) -> None:
        """Put this match aside (its file marked so) and start a new one with the same players: scores and games
        won from nothing (the next game of this match is dealt in the Deal box)."""
        g = self.game
        if ask and self.history:
            answer = QMessageBox.question(self, self.t("new"), self.t("new_confirm"))
            if answer != QMessageBox.StandardButton.Yes:
                return
        if self.file is not None and not g.is_over:
            self._save(lambda f: f.abandon())
        self.game = CribbageGame.start(g.players, g.target, g.muggins)
        self.history.clear()
        self.done.clear()
        self.log.clear()
        self.file = None
        if self.saving:
            self._new_file()
        self.message.setStyleSheet(NEUTRAL_STYLE)
        self.message.setText(prompt(self.game, self.lang))  # (not the last game's last words)
        self._refresh()
        self._show_status()

    def to_start_screen(self) -> None:
        self.next_action = "start"
        self.close()

    def closeEvent(self, event) -> None:  # noqa: N802
        self.speaker.stop()  # (not on over the start screen, nor after the app has quit)
        if self.file is not None:
            self.file.close()  # (the game let go: offered again at the start screen)
        super().closeEvent(event)

    def test_voice(self) -> None:
        engine = self.speaker.test({lang: TEXTS[lang]["voice_sample"] for lang in TEXTS})
        self.statusBar().showMessage(self.t("voice", engine=self._engine_name(engine)), 8000)

    # -- showing the state ---------------------------------------------------------------------

    def _refresh(self) -> None:
        g = self.game
        phase = g.phase
        on_turn = g.turn if phase == "peg" else None
        if phase == "show":
            who = g.next_to_show()
            on_turn = g.dealer if who == "crib" else (g.players.index(who) if who in g.players else None)
        tracks = [Track(p, g.scores[i], g.previous[i], str(g.scores[i]), g.games_won[i], on_turn == i)
                  for i, p in enumerate(g.players)]
        self.pegboard.set_state(self.t("board", target=g.target), g.target, tracks)
        self.turn_label.setText(prompt(self.game, self.lang))
        self.count_label.setText(str(g.count) if phase == "peg" else "–")
        self.series_label.setText("  ".join(str(c) for c in g.pegging.series))
        self.deal_box.setEnabled(phase in ("deal", "over"))
        self.cut_box.setEnabled(phase == "cut")
        self.peg_box.setEnabled(phase == "peg")
        self.show_box.setEnabled(phase == "show")
        if g.dealer is not None:  # (the deal passes to the left; mid-deal the box shows who deals)
            self.dealer.setCurrentIndex((g.dealer + 1) % len(g.players) if phase in ("deal", "over") else g.dealer)
        if phase == "peg":
            used = [c.rank for c in g.pegged] + ([g.starter.rank] if g.starter else [])
            for rank, button in self.rank_buttons.items():
                value = min(rank, 10)
                button.setEnabled(g.count + value <= 31 and used.count(rank) < 4)
            self.go_button.setEnabled(g.count > EVERY_CARD_FITS_UP_TO)
        if phase == "cut":
            self.starter.setFocus()
        if phase == "show":
            who = g.next_to_show()
            if who == "crib":
                self.shower.setCurrentIndex(g.dealer)
                self.crib.setChecked(True)
            elif who:
                self.shower.setCurrentText(who)
                self.crib.setChecked(False)
                if not self.show_cards.text().strip():
                    self.show_cards.setText(" ".join(map(str, hand_pegged(g, who))))
            self.show_cards.setFocus()
        self.undo_action.setEnabled(bool(self.history))


def open_cribbage(players: list[str], target: int = 121, muggins: bool = False, *, lang: str | None = None,
                  ask_resume: Callable[[SavedGame, CribbageGame], bool] | None = None,
                  folder: Path | None = None, speaker: Speaker | None = None) -> CribbageWindow:
    """The window: the unfinished saved game of ``players`` if there is one and ``ask_resume`` says so, else a new game.

    A saved game not resumed stays as it is, listed with the unfinished games (the start screen's Cribbage…).
    """
    saved = find_unfinished(folder, players)
    if saved is not None:
        game, _, _ = saved.replay()
        if ask_resume is None or ask_resume(saved, game):
            return CribbageWindow(players, target, muggins, lang=lang, saved=saved, folder=folder, speaker=speaker)
    return CribbageWindow(players, target, muggins, lang=lang, folder=folder, speaker=speaker)


def ask_with_a_box(lang: str) -> Callable[[SavedGame, CribbageGame], bool]:
    def ask(saved: SavedGame, game: CribbageGame) -> bool:
        texts = TEXTS[lang if lang in TEXTS else "en"]
        when = saved.last_saved()
        text = texts["resume"].format(players=", ".join(game.players), target=game.target, when=when,
                                      scores=scores_text(game))
        answer = QMessageBox.question(None, texts["resume_title"], text,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.Yes)
        return answer == QMessageBox.StandardButton.Yes

    return ask


def run_cribbage_app(players: list[str], target: int = 121, muggins: bool = False, lang: str | None = None) -> int:
    from PySide6.QtWidgets import QApplication

    from scorer.app.settings import Settings

    CribbageGame.start(players, target, muggins)  # a wrong table is refused before a window opens
    from scorer.app.i18n import set_language

    app = QApplication.instance() or QApplication([])
    lang = set_language(lang or Settings.load().lang)  # Qt's own texts too (the Yes and No of the resume question)
    window = open_cribbage(players, target, muggins, lang=lang, ask_resume=ask_with_a_box(lang))
    show_fitted(window)
    code = app.exec()
    if window.next_action != "start":
        return code
    from scorer.app.start import run_app  # (the start screen opens cribbage: imported here, not at the top)

    return run_app(lang=window.lang)
