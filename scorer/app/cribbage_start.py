"""Starting cribbage from the start screen: an unfinished game resumed, or a new one -- its players, a game
to 121 or 61, muggins or not."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from scorer.app.cribbage_texts import scores_text
from scorer.app.i18n import Retranslated
from scorer.app.start_form import CribbageChoice, players_typed
from scorer.app.wording import refusal_text
from scorer.cribbage.store import last_table, list_unfinished
from scorer.errors import ScorerError

PROBLEM_STYLE = "color:#a01010"


def unfinished_count(folder: Path | None = None) -> int:
    """How many cribbage games wait to be resumed (the start screen says so on its button)."""
    return len(list_unfinished(folder))


class CribbageStartDialog(Retranslated, QDialog):
    """The unfinished games, newest first, each to resume; and a new game's players, length and muggins."""

    def __init__(self, players: tuple[str, ...] = (), folder: Path | None = None) -> None:
        """``players``: the names typed on the start screen."""
        super().__init__()
        self.choice: CribbageChoice | None = None
        self.unfinished = list_unfinished(folder)
        outer = QVBoxLayout(self)
        self.resume_group = QGroupBox()
        resume = QHBoxLayout(self.resume_group)
        self.saved_games = QComboBox()
        self.resume_button = QPushButton()
        self.resume_button.clicked.connect(self._resume)
        resume.addWidget(self.saved_games, 1)
        resume.addWidget(self.resume_button)
        self.resume_group.setVisible(bool(self.unfinished))
        outer.addWidget(self.resume_group)
        self.new_group = QGroupBox()
        form = QFormLayout(self.new_group)
        self.players_caption, self.length_caption = QLabel(), QLabel()
        # The last cribbage table's game; else two typed for dominoes (most cribbage is for two).
        last, target, muggins = last_table(folder)
        self.players = QLineEdit(", ".join(last or (players if len(players) == 2 else ())))
        self.players.returnPressed.connect(self._start)
        self.length = QComboBox()
        self.length.addItem("", 121)
        self.length.addItem("", 61)
        self.length.setCurrentIndex(self.length.findData(target))
        self.muggins = QCheckBox()
        self.muggins.setChecked(muggins)
        self.problem = QLabel()
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.setWordWrap(True)
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self._start)
        form.addRow(self.players_caption, self.players)
        form.addRow(self.length_caption, self.length)
        form.addRow("", self.muggins)
        form.addRow(self.problem)
        form.addRow(self.start_button)
        outer.addWidget(self.new_group)
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.reject)
        row.addWidget(self.cancel_button)
        outer.addLayout(row)
        for button in (self.resume_button, self.cancel_button):
            button.setAutoDefault(False)
        self.start_button.setDefault(True)
        self.players.setFocus()
        self.built = True
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Cribbage"))
        self.resume_group.setTitle(self.tr("Go on with an unfinished game"))
        self.saved_games.clear()
        for saved, game in self.unfinished:
            self.saved_games.addItem(self.tr("{players}, to {target}: {scores} (last saved {when})").format(
                players=", ".join(game.players), target=game.target, scores=scores_text(game), when=saved.last_saved()))
        self.resume_button.setText(self.tr("Resume"))
        self.new_group.setTitle(self.tr("A new game"))
        self.players_caption.setText(self.tr("Players"))
        self.players.setPlaceholderText(self.tr("2 to 4 names in seating order, e.g. Ann, Ben"))
        self.length_caption.setText(self.tr("Game to"))
        self.length.setItemText(0, self.tr("121 points (a standard game)"))
        self.length.setItemText(1, self.tr("61 points (a short game)"))
        self.muggins.setText(self.tr("Muggins: points a player misses in the show go to the next player"))
        self.start_button.setText(self.tr("Start the game"))
        self.cancel_button.setText(self.tr("Cancel"))

    def _start(self) -> None:
        try:
            self.choice = CribbageChoice.of(players_typed(self.players.text()), self.length.currentData(),
                                            self.muggins.isChecked())
        except ScorerError as exc:
            self.problem.setText(refusal_text(exc))
            self.players.setFocus()
            return
        self.accept()

    def _resume(self) -> None:
        saved, game = self.unfinished[self.saved_games.currentIndex()]
        self.choice = CribbageChoice(game.players, game.target, game.muggins, saved=saved.path)
        self.accept()
