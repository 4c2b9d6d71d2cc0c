"""Table mode: the score readable from across the room -- each player's or pair's score large, who is on
turn, and the last announcement."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from scorer.app.i18n import names, translate
from scorer.rules import Match, Phase

ON_TURN_COLOUR = "#ffd54a"



def turn_text(match: Match) -> str:
    """Who is to act, in the app's language: "Ben's turn", "Waiting for the next round", "Match over: Ben wins"."""
    if match.is_over:
        winners = match.winners()
        #: {names}: the winners joined by "and"; {names_fi}: joined by "ja".
        text = translate("TableMode", "Match over: {names} wins", "one winner") if len(winners) == 1 else \
            translate("TableMode", "Match over: {names} win", "several winners")
        return text.format(names=" and ".join(winners), names_fi=" ja ".join(winners))
    if match.next_player:
        #: Whose turn it is; {name_gen}: the name in the Finnish genitive ("Benin vuoro").
        return translate("TableMode", "{name}'s turn").format(**names(match.next_player))
    if match.phase is Phase.ROUND_OVER and match.finisher is None:
        return translate("TableMode", "Round {round} is blocked: nobody can play. The hands left to count").format(
            round=match.round_no)
    if match.phase is Phase.ROUND_OVER:
        return translate("TableMode", "Round {round} is over: the hands left to count").format(round=match.round_no)
    if not match.round_no:
        return translate("TableMode", "Waiting for the first round")
    if match.next_to_act:
        return translate("TableMode", "{name} starts the next round").format(**names(match.next_to_act))
    return translate("TableMode", "Waiting for the next round")

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
        self.grid.setColumnStretch(0, 3)  # names three fifths of the width, scores two
        self.grid.setColumnStretch(1, 2)
        self.grid.setContentsMargins(0, 0, 48, 0)  # (the scores clear of the screen's right edge)
        self.turn = QLabel("")
        self.turn.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.announcement = QLabel("")
        self.announcement.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.announcement.setWordWrap(True)
        self.camera = QLabel()  # (a camera without a picture, shown across the room as it is on the picture)
        self.camera.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.camera.setStyleSheet("background:#dc3545; border-radius:8px; padding:6px")
        self.camera.hide()
        self.hint = QLabel()
        self.hint.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.hint.setStyleSheet("color:#7f97a8")
        col.addWidget(self.title)
        col.addWidget(self.camera)
        col.addLayout(self.grid, 3)
        col.addWidget(self.turn, 1)
        col.addWidget(self.announcement, 2)
        col.addWidget(self.hint)
        self.names: list[QLabel] = []
        self.scores: list[QLabel] = []
        self.shown: tuple[Match, str] | None = None
        self.retranslate()

    def retranslate(self) -> None:
        """The texts in the current language (also on Qt's LanguageChange)."""
        self.hint.setText(self.tr("F11 or Esc: back to the full view"))
        if self.shown is not None:
            self.show_state(*self.shown)

    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def show_camera(self, trouble: str | None) -> None:
        """What keeps the camera from seeing the table (no picture, stopped), or None once it sees it again."""
        self.camera.setText(trouble or "")
        self.camera.setVisible(bool(trouble))
        self.camera.setFont(QFont("DejaVu Sans", max(10, self.height() // 30), QFont.Weight.Bold))

    def show_state(self, match: Match, announcement: str) -> None:
        self.shown = (match, announcement)
        table = match.table
        while len(self.names) < table.n_sides:
            name, score = QLabel(""), QLabel("")
            score.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.grid.addWidget(name, len(self.names), 0)
            self.grid.addWidget(score, len(self.scores), 1)
            self.names.append(name)
            self.scores.append(score)
        on_turn = match.next_to_act  # (between rounds: who the rules name to start the next)
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
        if match.round_no:
            self.title.setText(self.tr("{game} — round {round}").format(game=match.rules.title, round=match.round_no))
        else:
            self.title.setText(match.rules.title)
        self.turn.setText(turn_text(match))
        # (no announcement yet -- a match resumed, a round not begun -- leaves the banner saying whose turn it is)
        self.announcement.setText("" if announcement == self.turn.text() else announcement)
        self._fit_fonts()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_fonts()

    def _fit_fonts(self) -> None:
        """Sizes follow the window: the scores share about two fifths of its height, and no text is
        wider than its room (a long name or a narrow window makes the font smaller, never cut)."""
        h, w = max(self.height(), 300), max(self.width(), 300)
        rows = max(len(self.names), 2)
        size = max(12, int(h * 0.42 / rows / 1.6))
        size = min([size] + [_fitting(label.text(), size, 0.55 * w, bold=True) for label in self.names]
                   + [_fitting(label.text(), size, 0.35 * w, bold=True) for label in self.scores])
        big = QFont("DejaVu Sans", size, QFont.Weight.Bold)
        for label in self.names + self.scores:
            label.setFont(big)
        self.title.setFont(QFont("DejaVu Sans", _fitting(self.title.text(), max(10, h // 30), 0.95 * w)))
        turn = _fitting(self.turn.text(), max(10, h // 18), 0.95 * w, bold=True)
        self.turn.setFont(QFont("DejaVu Sans", turn, QFont.Weight.Bold))
        self.announcement.setFont(QFont("DejaVu Sans", max(10, h // 22)))


def _fitting(text: str, size: int, width: float, bold: bool = False) -> int:
    """The largest point size up to ``size`` at which ``text`` is at most ``width`` pixels wide."""
    while size > 8:
        font = QFont("DejaVu Sans", size, QFont.Weight.Bold if bold else QFont.Weight.Normal)
        if QFontMetrics(font).horizontalAdvance(text) <= width:
            break
        size = int(size * 0.9)
    return size
