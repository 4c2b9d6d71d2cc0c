"""Cribbage on the scorer's board: players say what happened; the game counts, explains, speaks and saves.

The window follows the deal: who deals, the cut, the pegging (the running count large, whose turn,
a button per rank for the card played, "Go"), then the show in counting order.  Every action is
appended to the game's file at once (fsynced, see :mod:`scorer.cribbage.store`) and announced on the
banner and aloud; an unfinished game is offered again on the next start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from scorer.app.pegboard import PegBoard, Track
from scorer.app.speech import CHOOSING, TEXT_ONLY, Speaker
from scorer.cribbage import parse_card
from scorer.cribbage.cards import Card
from scorer.cribbage.match import CribbageGame, CribEvent, Cut, Deal, Go, PegCard, Scored, Show
from scorer.cribbage.speak import announce, kind_words
from scorer.cribbage.store import GameFile, SavedGame, find_unfinished
from scorer.errors import ScorerError
from scorer.pipeline.announce import genitive_fi

RANKS = [(1, "A"), *((n, str(n)) for n in range(2, 11)), (11, "J"), (12, "Q"), (13, "K")]
SUIT_CHOICES = [("", "—"), ("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]

TEXTS = {
    "en": {
        "title": "Cribbage to {target}: {players}", "board": "Cribbage: first to {target}",
        "deal_box": "Deal", "dealer": "Dealer", "deal": "Deal",
        "cut_box": "Cut", "starter": "Starter", "starter_hint": "the starter, e.g. JD", "cut": "Cut",
        "peg_box": "Pegging: the card played", "suit": "suit (optional)", "go": "Go",
        "peg_hint": "or type a card, e.g. 5H", "peg": "Peg",
        "show_box": "Show", "show_hint": "four cards, e.g. 5H 5C 5S JD", "crib": "crib", "count_button": "Count",
        "undo": "Undo", "new": "New game", "mute": "Mute", "test_voice": "Test the voice", "language": " Language ",
        "count": "Count", "to_play": "{name} to play", "choose_dealer": "Who deals? (the lowest cut deals)",
        "cuts": "{name} cuts the starter", "shows": "Count {whose} hand", "shows_crib": "Count {whose} crib",
        "deal_next": "Deal the next hand", "wins": "{name} wins", "log": "What happened",
        "voice": "Voice: {engine}", "text_only": "text only", "choosing": "choosing a voice…",
        "saved": "saved to {path}", "not_saved": "NOT SAVED: {error}",
        "undone": "Undone.", "nothing_to_undo": "Nothing to undo.",
        "resume_title": "An unfinished game", "new_confirm": "Put this game aside and start a new one?",
        "resume": "An unfinished cribbage game of {players} (to {target}) was saved on {when}:\n{scores}\n\nResume it?",
        "win_kind": {1: "{name} wins.", 2: "{name} wins with a skunk (2 games).",
                     3: "{name} wins with a double skunk (3 games)."},
    },
    "fi": {
        "title": "Cribbage {target} pisteeseen: {players}", "board": "Cribbage: ensin {target} pisteeseen",
        "deal_box": "Jako", "dealer": "Jakaja", "deal": "Jaa",
        "cut_box": "Nosto", "starter": "Nostokortti", "starter_hint": "nostokortti, esim. JD", "cut": "Nosta",
        "peg_box": "Pelaus: pelattu kortti", "suit": "maa (valinnainen)", "go": "Go",
        "peg_hint": "tai kirjoita kortti, esim. 5H", "peg": "Pelaa",
        "show_box": "Käsien laskenta", "show_hint": "neljä korttia, esim. 5H 5C 5S JD", "crib": "seimi",
        "count_button": "Laske",
        "undo": "Kumoa", "new": "Uusi peli", "mute": "Äänetön", "test_voice": "Kokeile ääntä", "language": " Kieli ",
        "count": "Summa", "to_play": "{gen} vuoro", "choose_dealer": "Kuka jakaa? (pienimmän nostanut jakaa)",
        "cuts": "{name} nostaa nostokortin", "shows": "Laske {gen} käsi", "shows_crib": "Laske {gen} seimi",
        "deal_next": "Jaa seuraava käsi", "wins": "{name} voitti", "log": "Mitä tapahtui",
        "voice": "Ääni: {engine}", "text_only": "vain teksti", "choosing": "valitaan ääntä…",
        "saved": "tallennettu: {path}", "not_saved": "EI TALLENNETTU: {error}",
        "undone": "Kumottu.", "nothing_to_undo": "Ei mitään kumottavaa.",
        "resume_title": "Kesken jäänyt peli", "new_confirm": "Jätetäänkö tämä peli kesken ja aloitetaan uusi?",
        "resume": "Kesken jäänyt cribbage-peli ({players}, {target} pisteeseen) tallennettiin {when}:\n{scores}\n\n"
                  "Jatketaanko sitä?",
        "win_kind": {1: "{name} voitti.", 2: "{name} voitti skunkilla (2 peliä).",
                     3: "{name} voitti tupla-skunkilla (3 peliä)."},
    },
}


def _big(px: int, bold: bool = True) -> QFont:
    font = QFont("DejaVu Sans", 10, QFont.Weight.Bold if bold else QFont.Weight.Normal)
    font.setPixelSize(px)
    return font


class CribbageWindow(QMainWindow):
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
        self.save_error = ""
        if saved is not None:
            self.game, self.history, self.done = saved.replay()
            self.file = GameFile(saved.path)
            players, target, muggins = list(self.game.players), self.game.target, self.game.muggins
        else:
            self.game = CribbageGame.start(players, target, muggins)
            if save:
                self._new_file()
        self.speaker = speaker or Speaker(self.lang, self)
        self.speaker.lang = self.lang
        self.resize(1180, 820)
        self._build()
        for event, scored in self.done:
            self._log_event(event, scored)
        self.speaker.backend_chosen.connect(lambda _name: self._show_status())
        self.speaker.failed.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self._refresh()
        self._show_status()
        if saved is not None:
            self.message.setText(self._prompt())

    # -- texts ----------------------------------------------------------------------------

    def t(self, key: str, **kw) -> str:
        text = TEXTS[self.lang][key]
        return text.format(**kw) if kw else text

    def _engine_name(self, engine: str) -> str:
        """The voice's name in this window's language (the engines' own names are kept)."""
        return {TEXT_ONLY: self.t("text_only"), CHOOSING: self.t("choosing")}.get(engine, engine)

    # -- layout ----------------------------------------------------------------------------

    def _build(self) -> None:
        players = list(self.game.players)
        root = QWidget()
        col = QVBoxLayout(root)
        self.pegboard = PegBoard()
        self.pegboard.setMinimumHeight(90 + 80 * len(players))
        col.addWidget(self.pegboard, 3)
        status = QHBoxLayout()
        count_box = QVBoxLayout()
        self.count_caption = QLabel()
        self.count_caption.setFont(_big(18))
        self.count_label = QLabel("0")
        self.count_label.setFont(_big(64))
        self.count_label.setStyleSheet("color:#10324a")
        self.count_label.setMinimumWidth(130)
        self.series_label = QLabel("")
        self.series_label.setFont(_big(18, bold=False))
        count_box.addWidget(self.count_caption)
        count_box.addWidget(self.count_label)
        count_box.addWidget(self.series_label)
        status.addLayout(count_box)
        right = QVBoxLayout()
        self.turn_label = QLabel("")
        self.turn_label.setFont(_big(40))
        self.turn_label.setStyleSheet("color:#7a1010")
        self.message = QLabel(" ")
        self.message.setWordWrap(True)
        self.message.setFont(_big(20))
        self.message.setStyleSheet("background:#10324a;color:white;padding:8px;border-radius:6px")
        self.message.setMinimumHeight(70)
        right.addWidget(self.turn_label)
        right.addWidget(self.message)
        status.addLayout(right, 1)
        col.addLayout(status)

        controls = QHBoxLayout()
        # The deal.
        self.deal_box = QGroupBox()
        deal_grid = QGridLayout(self.deal_box)
        self.dealer = QComboBox()
        self.dealer.addItems(players)
        self.deal_button = QPushButton()
        self.deal_button.clicked.connect(lambda: self.apply(Deal(self.dealer.currentText())))
        self.dealer_caption = QLabel()
        deal_grid.addWidget(self.dealer_caption, 0, 0)
        deal_grid.addWidget(self.dealer, 0, 1)
        deal_grid.addWidget(self.deal_button, 1, 0, 1, 2)
        controls.addWidget(self.deal_box)
        # The cut.
        self.cut_box = QGroupBox()
        cut_grid = QGridLayout(self.cut_box)
        self.starter = QLineEdit()
        self.starter.returnPressed.connect(self._cut)
        self.cut_button = QPushButton()
        self.cut_button.clicked.connect(self._cut)
        self.starter_caption = QLabel()
        cut_grid.addWidget(self.starter_caption, 0, 0)
        cut_grid.addWidget(self.starter, 0, 1)
        cut_grid.addWidget(self.cut_button, 1, 0, 1, 2)
        controls.addWidget(self.cut_box)
        # Pegging: a button per rank for the player on turn, and go.
        self.peg_box = QGroupBox()
        peg_grid = QGridLayout(self.peg_box)
        self.rank_buttons: dict[int, QPushButton] = {}
        for i, (rank, text) in enumerate(RANKS):
            b = QPushButton(text)
            b.setFont(_big(20))
            b.setMinimumSize(48, 44)
            b.clicked.connect(lambda _=False, r=rank: self.peg_rank(r))
            peg_grid.addWidget(b, i // 7, i % 7)
            self.rank_buttons[rank] = b
        self.go_button = QPushButton()
        self.go_button.setFont(_big(20))
        self.go_button.setMinimumSize(48, 44)
        self.go_button.setStyleSheet("background:#ffe0a0")
        self.go_button.clicked.connect(self.say_go)
        peg_grid.addWidget(self.go_button, 1, 6)
        self.suit = QComboBox()
        for code, text in SUIT_CHOICES:
            self.suit.addItem(text, code)
        self.suit_caption = QLabel()
        self.peg_card = QLineEdit()
        self.peg_card.returnPressed.connect(self._peg_typed)
        row = QHBoxLayout()
        row.addWidget(self.suit_caption)
        row.addWidget(self.suit)
        row.addWidget(self.peg_card, 1)
        peg_grid.addLayout(row, 2, 0, 1, 7)
        controls.addWidget(self.peg_box, 2)
        # The show.
        self.show_box = QGroupBox()
        show_grid = QGridLayout(self.show_box)
        self.shower = QComboBox()
        self.shower.addItems(players)
        self.show_cards = QLineEdit()
        self.show_cards.returnPressed.connect(self._show)
        self.crib = QCheckBox()
        self.count_button = QPushButton()
        self.count_button.clicked.connect(self._show)
        show_grid.addWidget(self.shower, 0, 0)
        show_grid.addWidget(self.crib, 0, 1)
        show_grid.addWidget(self.show_cards, 1, 0, 1, 2)
        show_grid.addWidget(self.count_button, 2, 0, 1, 2)
        controls.addWidget(self.show_box, 1)
        col.addLayout(controls)
        self.log_caption = QLabel()
        col.addWidget(self.log_caption)
        self.log = QListWidget()
        self.log.setFont(_big(14, bold=False))
        col.addWidget(self.log, 1)
        self.setCentralWidget(root)

        bar = QToolBar("Game")
        self.addToolBar(bar)
        self.undo_action = QAction(self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        bar.addAction(self.undo_action)
        self.new_action = QAction(self)
        self.new_action.triggered.connect(self.new_game)
        bar.addAction(self.new_action)
        self.mute = QCheckBox()
        self.mute.toggled.connect(lambda on: setattr(self.speaker, "muted", on))
        bar.addWidget(self.mute)
        self.test_button = QPushButton()
        self.test_button.clicked.connect(self.test_voice)
        bar.addWidget(self.test_button)
        self.lang_caption = QLabel()
        bar.addWidget(self.lang_caption)
        self.lang_box = QComboBox()
        self.lang_box.addItem("English", "en")
        self.lang_box.addItem("suomi", "fi")
        self.lang_box.setCurrentIndex(self.lang_box.findData(self.lang))
        self.lang_box.currentIndexChanged.connect(lambda _i: self.set_lang(self.lang_box.currentData()))
        bar.addWidget(self.lang_box)
        self._retranslate()

    def _retranslate(self) -> None:
        g = self.game
        self.setWindowTitle(self.t("title", target=g.target, players=", ".join(g.players)))
        self.deal_box.setTitle(self.t("deal_box"))
        self.dealer_caption.setText(self.t("dealer"))
        self.deal_button.setText(self.t("deal"))
        self.cut_box.setTitle(self.t("cut_box"))
        self.starter_caption.setText(self.t("starter"))
        self.starter.setPlaceholderText(self.t("starter_hint"))
        self.cut_button.setText(self.t("cut"))
        self.peg_box.setTitle(self.t("peg_box"))
        self.go_button.setText(self.t("go"))
        self.suit_caption.setText(self.t("suit"))
        self.peg_card.setPlaceholderText(self.t("peg_hint"))
        self.show_box.setTitle(self.t("show_box"))
        self.show_cards.setPlaceholderText(self.t("show_hint"))
        self.crib.setText(self.t("crib"))
        self.count_button.setText(self.t("count_button"))
        self.count_caption.setText(self.t("count"))
        self.log_caption.setText(self.t("log"))
        self.undo_action.setText(self.t("undo"))
        self.new_action.setText(self.t("new"))
        self.mute.setText(self.t("mute"))
        self.test_button.setText(self.t("test_voice"))
        self.lang_caption.setText(self.t("language"))

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
        self._refresh()
        self._show_status()

    def _show_status(self) -> None:
        where = self.t("not_saved", error=self.save_error) if self.save_error else (
            self.t("saved", path=self.file.path) if self.file else "")
        voice = self.t("voice", engine=self._engine_name(self.speaker.engine))
        self.statusBar().showMessage(voice + ("  ·  " + where if where else ""))

    # -- saving ------------------------------------------------------------------------------

    def _new_file(self) -> None:
        g = self.game
        try:
            self.file = GameFile.create(list(g.players), g.target, g.muggins, getattr(self, "lang", "en"), self.folder)
            self.save_error = ""
        except OSError as exc:
            self.file, self.save_error = None, str(exc)

    def _save(self, write: Callable[[GameFile], None]) -> None:
        if self.file is None:
            return
        try:
            write(self.file)
            self.save_error = ""
        except OSError as exc:  # the disk is full or gone: say so, keep playing
            self.save_error = str(exc)
            self._show_status()

    # -- actions -----------------------------------------------------------------------------

    def _with_cards(self, make) -> None:
        try:
            event = make()
        except ScorerError as exc:
            self._error(str(exc))
            return
        self.apply(event)

    def _error(self, text: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("background:#8a1010;color:white;padding:8px;border-radius:6px")

    def _cut(self) -> None:
        self._with_cards(lambda: Cut(parse_card(self.starter.text())))

    def _show(self) -> None:
        def make() -> Show:
            cards = tuple(parse_card(t) for t in self.show_cards.text().split())
            return Show(self.shower.currentText(), cards, crib=self.crib.isChecked())

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
            self._error(str(exc))
            return False
        self.history.append(before)
        self.game = game
        self.done.append((event, scored))
        self._save(lambda f: f.add(event))
        said = announce(before, event, game, scored)
        self.message.setStyleSheet("background:#10324a;color:white;padding:8px;border-radius:6px")
        self.message.setText(said.text(self.lang) + (" " + self.t("deal_next") + "." if game.is_over else ""))
        self.speaker.say(said.spoken(self.lang))
        self._log_event(event, scored)
        self._refresh()
        return True

    def _log_event(self, event: CribEvent, scored: list[Scored]) -> None:
        fi = self.lang == "fi"
        if isinstance(event, Deal):
            self.log.addItem(f"{event.dealer} jakaa" if fi else f"{event.dealer} deals")
        elif isinstance(event, Cut):
            self.log.addItem(f"  nostokortti {event.starter}" if fi else f"  starter {event.starter}")
        elif isinstance(event, PegCard):
            self.log.addItem(f"  {event.player} pelaa {event.card}" if fi else f"  {event.player} pegs {event.card}")
        elif isinstance(event, Go):
            self.log.addItem(f"  {event.player or ('pöytä' if fi else 'table')}: go")
        elif isinstance(event, Show):
            cards = " ".join(map(str, event.cards))
            what = ("seimi " if fi else "crib ") if event.crib else ""
            self.log.addItem(f"  {event.player} näyttää {what}{cards}" if fi else f"  {event.player} shows {what}{cards}")
        for s in scored:
            what = ", ".join(f"{kind_words(i.kind, len(i.cards), self.lang)} {' '.join(map(str, i.cards))} {i.points}"
                             for i in s.items) or s.note
            self.log.addItem(f"    {s.player} +{s.points}: {what}")
        self.log.scrollToBottom()

    def undo(self) -> None:
        if not self.history:
            self.message.setText(self.t("nothing_to_undo"))
            return
        self.game = self.history.pop()
        if self.done:
            self.done.pop()
        self._save(lambda f: f.undo())
        self.log.addItem("  (kumottu)" if self.lang == "fi" else "  (undone)")
        self.message.setText(self.t("undone"))
        self.speaker.say(self.t("undone"))
        self._refresh()

    def new_game(self, ask: bool = True) -> None:
        """Put this game aside (its file marked so) and start a new one with the same players."""
        g = self.game
        if ask and self.history and not g.is_over:
            answer = QMessageBox.question(self, self.t("new"), self.t("new_confirm"))
            if answer != QMessageBox.StandardButton.Yes:
                return
        if self.file is not None and not g.is_over:
            self._save(lambda f: f.abandon())
        self.game = CribbageGame.start(g.players, g.target, g.muggins)
        self.history.clear()
        self.done.clear()
        self.log.clear()
        self._new_file()
        self._refresh()
        self._show_status()

    def test_voice(self) -> None:
        engine = self.speaker.test()
        self.statusBar().showMessage(self.t("voice", engine=self._engine_name(engine)), 8000)

    # -- showing the state ---------------------------------------------------------------------

    def _prompt(self) -> str:
        g = self.game
        phase = g.phase
        if phase == "over":
            return self.t("win_kind")[g.skunk].format(name=g.players[g.winner])
        if phase == "deal":
            return self.t("choose_dealer") if g.dealer is None else self.t("deal_next")
        if phase == "cut":
            cutter = g.players[(g.dealer + 1) % len(g.players)]
            return self.t("cuts", name=cutter, gen=genitive_fi(cutter))
        if phase == "peg":
            name = g.players[g.turn] if g.turn is not None else ""
            return self.t("to_play", name=name, gen=genitive_fi(name))
        who = g.next_to_show()
        if who == "crib":
            dealer = g.players[g.dealer]
            return self.t("shows_crib", whose=f"{dealer}'s", gen=genitive_fi(dealer))
        if who:
            return self.t("shows", whose=f"{who}'s", gen=genitive_fi(who))
        return self.t("deal_next")

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
        self.turn_label.setText(self._prompt())
        self.count_label.setText(str(g.count) if phase == "peg" else "–")
        self.series_label.setText("  ".join(str(c) for c in g.pegging.series))
        self.deal_box.setEnabled(phase in ("deal", "over"))
        self.cut_box.setEnabled(phase == "cut")
        self.peg_box.setEnabled(phase == "peg")
        self.show_box.setEnabled(phase == "show")
        if g.dealer is not None and phase in ("deal", "over"):
            self.dealer.setCurrentIndex((g.dealer + 1) % len(g.players))  # the deal passes to the left
        if phase == "peg":
            used = [c.rank for c in g.pegged] + ([g.starter.rank] if g.starter else [])
            for rank, button in self.rank_buttons.items():
                value = min(rank, 10)
                button.setEnabled(g.count + value <= 31 and used.count(rank) < 4)
            self.go_button.setEnabled(g.count > 0)
        if phase == "show":
            who = g.next_to_show()
            if who == "crib":
                self.shower.setCurrentIndex(g.dealer)
                self.crib.setChecked(True)
            elif who:
                self.shower.setCurrentText(who)
                self.crib.setChecked(False)
        self.undo_action.setEnabled(bool(self.history))


def _scores_text(game: CribbageGame) -> str:
    return ", ".join(f"{p} {s}" for p, s in zip(game.players, game.scores))


def open_cribbage(players: list[str], target: int = 121, muggins: bool = False, *, lang: str | None = None,
                  ask_resume: Callable[[SavedGame, CribbageGame], bool] | None = None,
                  folder: Path | None = None, speaker: Speaker | None = None) -> CribbageWindow:
    """The window: the unfinished saved game if there is one and ``ask_resume`` says so, else a new game.

    A saved game not resumed is marked put aside, so it is not offered again.
    """
    saved = find_unfinished(folder)
    if saved is not None:
        game, _, _ = saved.replay()
        if ask_resume is None or ask_resume(saved, game):
            return CribbageWindow(players, target, muggins, lang=lang, saved=saved, folder=folder, speaker=speaker)
        GameFile(saved.path).abandon()
    return CribbageWindow(players, target, muggins, lang=lang, folder=folder, speaker=speaker)


def _ask_with_a_box(lang: str) -> Callable[[SavedGame, CribbageGame], bool]:
    def ask(saved: SavedGame, game: CribbageGame) -> bool:
        texts = TEXTS[lang if lang in TEXTS else "en"]
        when = str(saved.header.get("started", "")).replace("T", " ")
        text = texts["resume"].format(players=", ".join(game.players), target=game.target, when=when,
                                      scores=_scores_text(game))
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
    window = open_cribbage(players, target, muggins, lang=lang, ask_resume=_ask_with_a_box(lang))
    window.show()
    return app.exec()
