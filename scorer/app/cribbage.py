"""Cribbage on the scorer's board: players enter the cards; the game counts, explains and moves the pegs."""

from __future__ import annotations

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
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from scorer.app.pegboard import PegBoard, Track
from scorer.cribbage import parse_card
from scorer.cribbage.match import CribbageGame, CribEvent, Cut, Deal, Go, PegCard, Show
from scorer.errors import ScorerError


class CribbageWindow(QMainWindow):
    def __init__(self, players: list[str], target: int = 121, muggins: bool = False) -> None:
        super().__init__()
        self.game = CribbageGame.start(players, target, muggins)
        self.history: list[CribbageGame] = []
        self.setWindowTitle(f"Cribbage to {target}: {', '.join(players)}")
        self.resize(980, 640)
        root = QWidget()
        col = QVBoxLayout(root)
        self.pegboard = PegBoard()
        self.pegboard.setMinimumHeight(60 + 50 * len(players))
        col.addWidget(self.pegboard)
        self.message = QLabel("Say who deals first (the lowest cut deals).")
        self.message.setStyleSheet("font-size:15px;font-weight:bold;color:#10324a")
        col.addWidget(self.message)
        grid = QGridLayout()
        box = QGroupBox("Enter what happened")
        box.setLayout(grid)
        self.dealer = QComboBox()
        self.dealer.addItems(players)
        deal = QPushButton("Deal")
        deal.clicked.connect(lambda: self.apply(Deal(self.dealer.currentText())))
        grid.addWidget(QLabel("Dealer"), 0, 0)
        grid.addWidget(self.dealer, 0, 1)
        grid.addWidget(deal, 0, 2)
        self.starter = QLineEdit()
        self.starter.setPlaceholderText("the starter, e.g. JD")
        cut = QPushButton("Cut")
        cut.clicked.connect(lambda: self._with_cards(lambda: Cut(parse_card(self.starter.text()))))
        grid.addWidget(QLabel("Starter"), 1, 0)
        grid.addWidget(self.starter, 1, 1)
        grid.addWidget(cut, 1, 2)
        self.pegger = QComboBox()
        self.pegger.addItems(players)
        self.peg_card = QLineEdit()
        self.peg_card.setPlaceholderText("card played, e.g. 5H")
        peg = QPushButton("Peg")
        peg.clicked.connect(lambda: self._with_cards(lambda: PegCard(self.pegger.currentText(), parse_card(self.peg_card.text()))))
        go = QPushButton("Go")
        go.clicked.connect(lambda: self.apply(Go()))
        grid.addWidget(QLabel("Pegging"), 2, 0)
        row = QHBoxLayout()
        row.addWidget(self.pegger)
        row.addWidget(self.peg_card)
        grid.addLayout(row, 2, 1)
        row2 = QHBoxLayout()
        row2.addWidget(peg)
        row2.addWidget(go)
        grid.addLayout(row2, 2, 2)
        self.shower = QComboBox()
        self.shower.addItems(players)
        self.show_cards = QLineEdit()
        self.show_cards.setPlaceholderText("four cards, e.g. 5H 5C 5S JD")
        self.crib = QCheckBox("crib")
        show = QPushButton("Count")
        show.clicked.connect(self._show)
        grid.addWidget(QLabel("Show"), 3, 0)
        row3 = QHBoxLayout()
        row3.addWidget(self.shower)
        row3.addWidget(self.show_cards)
        row3.addWidget(self.crib)
        grid.addLayout(row3, 3, 1)
        grid.addWidget(show, 3, 2)
        undo = QPushButton("Undo")
        undo.clicked.connect(self.undo)
        grid.addWidget(undo, 4, 2)
        col.addWidget(box)
        self.log = QListWidget()
        col.addWidget(self.log, 1)
        self.setCentralWidget(root)
        self._refresh()

    def _with_cards(self, make) -> None:
        try:
            event = make()
        except ScorerError as exc:
            self.message.setText(str(exc))
            return
        self.apply(event)

    def _show(self) -> None:
        def make() -> Show:
            cards = tuple(parse_card(t) for t in self.show_cards.text().split())
            return Show(self.shower.currentText(), cards, crib=self.crib.isChecked())

        self._with_cards(make)

    def apply(self, event: CribEvent) -> bool:
        try:
            game, scored = self.game.apply(event)
        except ScorerError as exc:
            self.message.setText(str(exc))
            return False
        self.history.append(self.game)
        self.game = game
        if isinstance(event, Deal):
            self.log.addItem(f"{event.dealer} deals")
        for s in scored:
            what = ", ".join(f"{i.kind} {' '.join(map(str, i.cards))} {i.points}" for i in s.items) or s.note
            self.log.addItem(f"  {s.player} +{s.points}: {what}")
        self.log.scrollToBottom()
        self._refresh()
        return True

    def undo(self) -> None:
        if self.history:
            self.game = self.history.pop()
            self.log.addItem("  (undone)")
            self._refresh()

    def _refresh(self) -> None:
        g = self.game
        tracks = [Track(p, g.scores[i], g.previous[i], str(g.scores[i]), g.games_won[i]) for i, p in enumerate(g.players)]
        self.pegboard.set_state(f"Cribbage: first to {g.target}", g.target, tracks)
        if g.is_over:
            kind = {1: "wins", 2: "wins with a skunk (2 games)", 3: "wins with a double skunk (3 games)"}[g.skunk]
            self.message.setText(f"{g.players[g.winner]} {kind}. Deal again for the next game.")
        elif g.dealer is not None:
            self.message.setText(f"Dealer: {g.players[g.dealer]}" + (f", starter {g.starter}" if g.starter else ", cut the starter"))


def run_cribbage_app(players: list[str], target: int = 121, muggins: bool = False) -> int:
    from PySide6.QtWidgets import QApplication

    from scorer.cribbage.match import CribbageGame

    CribbageGame.start(players, target, muggins)  # a wrong table is refused before a window opens
    app = QApplication.instance() or QApplication([])
    window = CribbageWindow(players, target, muggins)
    window.show()
    return app.exec()
