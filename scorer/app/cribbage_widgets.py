"""The cribbage window's widgets and their texts: the board, the count, the prompt, a box per phase of
the deal (deal, cut, pegging, show), the log and the tool bar.

A part of :class:`scorer.app.cribbage.CribbageWindow`: the buttons call its actions (``apply``,
``peg_rank``, ``say_go``, ``undo`` ...), and ``t`` gives the texts in its language.
"""

from __future__ import annotations

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
    QPushButton,
    QSpinBox,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from scorer.app.i18n import language_box
from scorer.app.pegboard import PegBoard
from scorer.cribbage.match import Deal

# The banner: what was done, or what was refused.
NEUTRAL_STYLE = "background:#10324a;color:white;padding:8px;border-radius:6px"
ERROR_STYLE = "background:#8a1010;color:white;padding:8px;border-radius:6px"

RANKS = [(1, "A"), *((n, str(n)) for n in range(2, 11)), (11, "J"), (12, "Q"), (13, "K")]
SUIT_CHOICES = [("", "—"), ("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]


def _big(px: int, bold: bool = True) -> QFont:
    font = QFont("DejaVu Sans", 10, QFont.Weight.Bold if bold else QFont.Weight.Normal)
    font.setPixelSize(px)
    return font


class CribbageWidgets:
    """Builds the window's widgets (``_build``) and sets their texts in its language (``_retranslate``)."""

    def _build(self) -> None:
        players = list(self.game.players)
        root = QWidget()
        col = QVBoxLayout(root)
        self.pegboard = PegBoard()
        self.pegboard.setMinimumHeight(90 + 80 * len(players))
        col.addWidget(self.pegboard, 3)
        col.addLayout(self._build_status())
        controls = QHBoxLayout()
        controls.addWidget(self._build_deal_box(players))
        controls.addWidget(self._build_cut_box())
        controls.addWidget(self._build_peg_box(), 2)
        controls.addWidget(self._build_show_box(players), 1)
        col.addLayout(controls)
        self.log_caption = QLabel()
        col.addWidget(self.log_caption)
        self.log = QListWidget()
        self.log.setFont(_big(14, bold=False))
        col.addWidget(self.log, 1)
        self.setCentralWidget(root)
        self.status_line = QLabel()  # (permanent: a passing message or a hovered button does not hide it)
        self.statusBar().addPermanentWidget(self.status_line)  # (no stretch: a passing message gets the rest)
        self._build_toolbar()
        self._retranslate()

    def _build_status(self) -> QHBoxLayout:
        """The running count large, the cards pegged, whose turn it is and the message banner."""
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
        self.series_label.setWordWrap(True)
        self.series_label.setFixedWidth(230)  # (the cards played wrap under the count: the banner stays put)
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
        self.message.setStyleSheet(NEUTRAL_STYLE)
        self.message.setMinimumHeight(70)
        right.addWidget(self.turn_label)
        right.addWidget(self.message)
        status.addLayout(right, 1)
        return status

    def _build_deal_box(self, players: list[str]) -> QGroupBox:
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
        return self.deal_box

    def _build_cut_box(self) -> QGroupBox:
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
        return self.cut_box

    def _build_peg_box(self) -> QGroupBox:
        """Pegging: a button per rank for the player on turn, "Go", and a card typed with its suit."""
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
        return self.peg_box

    def _build_show_box(self, players: list[str]) -> QGroupBox:
        self.show_box = QGroupBox()
        show_grid = QGridLayout(self.show_box)
        self.shower = QComboBox()
        self.shower.addItems(players)
        self.shower.setEnabled(False)  # (the counting order says whose count is next; the game sets these two)
        self.show_cards = QLineEdit()
        self.show_cards.returnPressed.connect(self._show)
        self.crib = QCheckBox()
        self.crib.setEnabled(False)
        self.count_button = QPushButton()
        self.count_button.clicked.connect(self._show)
        # Muggins: what the player claims; points missed go to the next player.  Its lowest value is "the
        # full count" (nothing claimed apart).
        self.claim_caption = QLabel()
        self.claimed = QSpinBox()
        self.claimed.setRange(-1, 29)
        self.claimed.setValue(-1)
        self.claimed.setMinimumWidth(150)  # ("the full count" whole, however narrow the show box)
        show_grid.addWidget(self.shower, 0, 0)
        show_grid.addWidget(self.crib, 0, 1)
        show_grid.addWidget(self.show_cards, 1, 0, 1, 2)
        show_grid.addWidget(self.claim_caption, 2, 0)
        show_grid.addWidget(self.claimed, 2, 1)
        show_grid.addWidget(self.count_button, 3, 0, 1, 2)
        self.claim_caption.setVisible(self.game.muggins)
        self.claimed.setVisible(self.game.muggins)
        return self.show_box

    def _build_toolbar(self) -> None:
        """Undo, a new game, back to the start screen, the voice (mute, test) and the window's language."""
        bar = QToolBar("Game")
        self.addToolBar(bar)
        self.undo_action = QAction(self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        bar.addAction(self.undo_action)
        self.new_action = QAction(self)
        self.new_action.triggered.connect(lambda: self.new_game())  # (not new_game(checked): that would not ask)
        bar.addAction(self.new_action)
        self.start_screen_action = QAction(self)  # (the game stays saved: the start screen lists it to resume)
        self.start_screen_action.setShortcut("Ctrl+R")
        self.start_screen_action.triggered.connect(self.to_start_screen)
        bar.addAction(self.start_screen_action)
        self.mute = QCheckBox()
        self.mute.toggled.connect(lambda on: setattr(self.speaker, "muted", on))
        bar.addWidget(self.mute)
        self.test_button = QPushButton()
        self.test_button.clicked.connect(self.test_voice)
        bar.addWidget(self.test_button)
        self.lang_caption = QLabel()
        bar.addWidget(self.lang_caption)
        self.lang_box = language_box(self.lang, self.set_lang)
        bar.addWidget(self.lang_box)

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
        self.claim_caption.setText(self.t("claimed"))
        self.claimed.setSpecialValueText(self.t("full_count"))
        self.count_caption.setText(self.t("count"))
        self.log_caption.setText(self.t("log"))
        self.undo_action.setText(self.t("undo"))
        self.new_action.setText(self.t("new"))
        self.start_screen_action.setText(self.t("start_screen"))
        self.mute.setText(self.t("mute"))
        self.test_button.setText(self.t("test_voice"))
        self.lang_caption.setText(self.t("language"))
