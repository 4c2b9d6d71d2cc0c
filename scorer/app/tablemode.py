"""Table mode: the score readable from across the room -- each player's or pair's score large, who is on
turn, and the last announcement."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from scorer.rules import Match

ON_TURN_COLOUR = "#ffd54a"


class TableMode(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableMode")
        self.setStyleSheet("QWidget#tableMode {background:#0b2233} QLabel {color:white; background:transparent}")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        col = QVBoxLayout(self)
        self.title = QLabel("")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.grid = QGridLayout()
        self.turn = QLabel("")
        self.turn.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.announcement = QLabel("")
        self.announcement.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.announcement.setWordWrap(True)
        self.hint = QLabel("F11 or Esc: back to the full view")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.hint.setStyleSheet("color:#7f97a8")
        col.addWidget(self.title)
        col.addLayout(self.grid, 3)
        col.addWidget(self.turn, 1)
        col.addWidget(self.announcement, 2)
        col.addWidget(self.hint)
        self.names: list[QLabel] = []
        self.scores: list[QLabel] = []

    def show_state(self, match: Match, announcement: str) -> None:
        table = match.table
        while len(self.names) < table.n_sides:
            name, score = QLabel(""), QLabel("")
            score.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.grid.addWidget(name, len(self.names), 0)
            self.grid.addWidget(score, len(self.scores), 1)
            self.names.append(name)
            self.scores.append(score)
        on_turn = match.next_player
        turn_side = table.side_of(table.seat(on_turn)) if on_turn else None
        scores = match.scores()
        for side in range(table.n_sides):
            player = table.players[table.seats_of(side)[0]]
            marked = side == turn_side
            self.names[side].setText(("▶ " if marked else "   ") + table.side_name(side))
            self.scores[side].setText(str(scores[player]))
            colour = ON_TURN_COLOUR if marked else "white"
            self.names[side].setStyleSheet(f"color:{colour}")
            self.scores[side].setStyleSheet(f"color:{colour}")
        self.title.setText(f"{match.rules.title} — round {match.round_no}" if match.round_no else match.rules.title)
        if match.is_over:
            self.turn.setText("Match over: " + " and ".join(match.winners()))
        else:
            self.turn.setText(f"{on_turn}'s turn" if on_turn else "Waiting for the next round")
        self.announcement.setText(announcement)
        self._fit_fonts()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_fonts()

    def _fit_fonts(self) -> None:
        """Sizes follow the window: the scores share about two fifths of its height."""
        h = max(self.height(), 300)
        rows = max(len(self.names), 2)
        big = QFont("DejaVu Sans", max(12, int(h * 0.42 / rows / 1.6)), QFont.Weight.Bold)
        for label in self.names + self.scores:
            label.setFont(big)
        self.title.setFont(QFont("DejaVu Sans", max(10, h // 30)))
        self.turn.setFont(QFont("DejaVu Sans", max(10, h // 18), QFont.Weight.Bold))
        self.announcement.setFont(QFont("DejaVu Sans", max(10, h // 22)))
