"""Corrections that fit the table: a question's alternatives, a play picked from the 28 tiles and then one
of its legal ends, the hands at a round's end, and the player a pass or draw is for."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from scorer.errors import ScorerError
from scorer.rules import FULL_SET, Event, GameRules, Match, Phase, Play, PlayOutcome, Reveal, Tile
from scorer.rules.log import event_to_json

# Where the pips of 0..6 lie on a half of unit size (x, y from its top-left corner).
_PIPS = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)),
}


def tile_pixmap(tile: Tile, half: int = 28, enabled: bool = True) -> QPixmap:
    """A domino drawn side by side: ``tile.a`` on the left, ``tile.b`` on the right."""
    pixmap = QPixmap(2 * half + 4, half + 4)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    body = QColor("#f7f1e3") if enabled else QColor("#d9d9d9")
    ink = QColor("#1b1b1b") if enabled else QColor("#a0a0a0")
    painter.setPen(QPen(ink, 1.5))
    painter.setBrush(body)
    painter.drawRoundedRect(QRectF(2, 2, 2 * half, half), half * 0.15, half * 0.15)
    painter.drawLine(QPointF(2 + half, 2 + half * 0.15), QPointF(2 + half, 2 + half * 0.85))
    painter.setBrush(ink)
    radius = half * 0.09
    for k, value in enumerate((tile.a, tile.b)):
        for x, y in _PIPS[value]:
            painter.drawEllipse(QPointF(2 + k * half + x * half, 2 + y * half), radius, radius)
    painter.end()
    return pixmap


def event_text(e: Event) -> str:
    data = event_to_json(e)
    if data["type"] == "play":
        at = f" on [{data['at'][0]}|{data['at'][1]}]" if "at" in data else ""
        return f"{data['player']} plays [{data['tile'][0]}|{data['tile'][1]}]{at}"
    if data["type"] == "round":
        return f"{data.get('starter')} starts the round"
    if data["type"] == "draw":
        return f"{data['player']} draws {data['count']}"
    if data["type"] == "pass":
        return f"{data['player']} passes"
    if data["type"] == "reveal":
        return "hands left: " + "; ".join(
            f"{name} " + (" ".join(f"[{a}|{b}]" for a, b in tiles) or "none") for name, tiles in data["hands"].items())
    return data["type"]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Tiles typed as pairs of numbers: "1 2, 3 4" or "[1|2] [3|4]"."""
    values = [int(v) for v in text.replace("[", " ").replace("]", " ").replace("|", " ").replace(",", " ").split()]
    if len(values) % 2:
        raise ValueError(f"{text!r}: tiles are pairs of numbers, like 1 2, 3 4")
    return tuple(Tile.of(values[i], values[i + 1]) for i in range(0, len(values), 2))


def _ok_cancel(dialog: QDialog, form: QFormLayout) -> None:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)


class ConfirmDialog(QDialog):
    """The camera is unsure: pick one of the readings, or enter the move by hand."""

    def __init__(self, parent: QWidget, reason: str, alternatives: Sequence[Sequence[Event]]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Please confirm")
        self.choice: Sequence[Event] | None = None
        layout = QVBoxLayout(self)
        label = QLabel(reason)
        label.setWordWrap(True)
        layout.addWidget(label)
        for alt in alternatives:
            button = QPushButton("; ".join(event_text(e) for e in alt))
            button.clicked.connect(lambda _=False, a=alt: self._pick(a))
            layout.addWidget(button)
        later = QPushButton("Not now (fix it by hand)")
        later.clicked.connect(self.reject)
        layout.addWidget(later)

    def _pick(self, alt: Sequence[Event]) -> None:
        self.choice = alt
        self.accept()


class HandsDialog(QDialog):
    """The hands left at a round's end, entered by hand (when the camera cannot read them)."""

    def __init__(self, parent: QWidget, match: Match) -> None:
        super().__init__(parent)
        self.setWindowTitle("Round end: the hands left")
        form = QFormLayout(self)
        self.fields: list[tuple[str, QLineEdit]] = []
        for player, count in zip(match.players, match.hand_counts):
            field = QLineEdit()
            field.setPlaceholderText(f"{count} tile(s), e.g. 1 2, 3 4" if count else "none")
            form.addRow(player, field)
            self.fields.append((player, field))
        _ok_cancel(self, form)

    def event_(self) -> Reveal:
        return Reveal(tuple((player, parse_tiles(field.text())) for player, field in self.fields))


def legal_plays(match: Match, player: str, tile: Tile) -> list[tuple[Play, PlayOutcome]]:
    """Every way ``player`` may lay ``tile`` now, each with what it scores (none where the rules refuse)."""
    board = match.current_board()
    candidates = [Play(player, tile)] if not board.tiles else [
        Play(player, tile, p.tile, p.side) for p in board.placements(tile)]
    ways = []
    for play in candidates:
        try:
            _, outcome = match.apply(play)
        except ScorerError:
            continue
        if isinstance(outcome, PlayOutcome):
            ways.append((play, outcome))
    return ways


def end_text(play: Play, outcome: PlayOutcome, rules: GameRules) -> str:
    where = "opens the round" if play.at is None else f"on [{play.at.a}|{play.at.b}], its {play.side.value if play.side else ''} side"
    terms = " + ".join(str(e.value) for e in outcome.ends) or "0"
    points = rules.game_points(outcome.raw_points)
    scored = f"{points} point{'' if points == 1 else 's'}" if points else "no points"
    return f"{where}: ends {terms} = {outcome.sum}, {scored}"


class TilePicker(QDialog):
    """A play by hand: the player, one of the 28 tiles, then one of the free ends it may go on."""

    def __init__(self, parent: QWidget | None, match: Match) -> None:
        super().__init__(parent)
        self.setWindowTitle("Enter a play")
        self.match = match
        self.play: Play | None = None
        col = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Player"))
        self.player = QComboBox()
        self.player.addItems(list(match.players))
        if match.next_player:
            self.player.setCurrentText(match.next_player)
        self.player.currentTextChanged.connect(self._refresh)
        row.addWidget(self.player, 1)
        col.addLayout(row)
        col.addWidget(QLabel("The tile laid:"))
        grid = QGridLayout()
        self.tile_buttons: dict[Tile, QToolButton] = {}
        for tile in FULL_SET:
            button = QToolButton()
            button.setIcon(QIcon(tile_pixmap(tile)))
            button.setIconSize(QSize(64, 34))
            button.setToolTip(f"[{tile.a}|{tile.b}]")
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, t=tile: self._pick_tile(t))
            grid.addWidget(button, tile.a, tile.b - tile.a)  # one row per low half, as a set is laid out
            self.tile_buttons[tile] = button
        col.addLayout(grid)
        self.ends_label = QLabel("Pick a tile.")
        col.addWidget(self.ends_label)
        self.ends = QVBoxLayout()
        col.addLayout(self.ends)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.reject)
        col.addWidget(cancel, 0, Qt.AlignmentFlag.AlignRight)
        self.end_buttons: list[QPushButton] = []
        self._refresh()

    def _refresh(self) -> None:
        """Only tiles the chosen player may lay now can be picked."""
        player = self.player.currentText()
        for tile, button in self.tile_buttons.items():
            legal = bool(legal_plays(self.match, player, tile))
            button.setEnabled(legal)
            button.setIcon(QIcon(tile_pixmap(tile, enabled=legal)))
            button.setChecked(False)
        self._show_ends([])

    def _pick_tile(self, tile: Tile) -> None:
        for other, button in self.tile_buttons.items():
            button.setChecked(other == tile)
        self._show_ends(legal_plays(self.match, self.player.currentText(), tile))

    def _show_ends(self, ways: list[tuple[Play, PlayOutcome]]) -> None:
        for button in self.end_buttons:
            button.deleteLater()
        self.end_buttons = []
        if not ways:
            self.ends_label.setText("Pick a tile." if self.match.phase is Phase.IN_ROUND else "No round is being played.")
            return
        self.ends_label.setText("Where it goes:")
        for play, outcome in ways:
            button = QPushButton(end_text(play, outcome, self.match.rules))
            button.clicked.connect(lambda _=False, p=play: self._choose(p))
            self.ends.addWidget(button)
            self.end_buttons.append(button)

    def _choose(self, play: Play) -> None:
        self.play = play
        self.accept()


def player_menu(parent: QWidget, match: Match, verb: str) -> QMenu:
    """A menu of the players, the one on turn first and marked, for a pass or a draw."""
    menu = QMenu(parent)
    on_turn = match.next_player
    players = sorted(match.players, key=lambda p: p != on_turn)
    for player in players:
        action = menu.addAction(f"{player} {verb}" + ("  (on turn)" if player == on_turn else ""))
        action.setData(player)
    return menu
