"""Corrections that fit the table: a question's alternatives, a play picked from the 28 tiles and then one
of its legal ends, the hands at a round's end, and the player a pass or draw is for."""

from __future__ import annotations

import re
from typing import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPen, QPixmap
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
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from scorer.app.i18n import language, translate
from scorer.app.layout_picture import PIPS
from scorer.app.screens import wide_enough_for_title
from scorer.app.wording import refusal_text
from scorer.errors import ScorerError
from scorer.pipeline.sequences import state_after
from scorer.rules import FULL_SET, Event, GameRules, Match, Phase, Play, PlayOutcome, Reveal, RoundStart, Tile
from scorer.rules.log import event_to_json
from scorer.rules.transcript import scores_text

# More ways offered than this are shown in a list that scrolls (a camera blind for a while can leave many).
WAYS_SHOWN_WHOLE = 3
# ... and ways this tall (px) together, a few long ones (squeezed into a short window, their lines were cut off).
WAYS_HEIGHT_WHOLE = 420

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
        for x, y in PIPS[value]:
            painter.drawEllipse(QPointF(2 + k * half + x * half, 2 + y * half), radius, radius)
    painter.end()
    return pixmap


def _tile(pair) -> str:
    return f"[{pair[0]}|{pair[1]}]"


def event_text(e: Event, *, knock: bool = False) -> str:
    """One event in a line, in the current language (a question's alternatives, what an undo took back); a pass
    is told as a knock where ``knock`` (a game with no boneyard)."""
    data = event_to_json(e)
    kind = data["type"]
    if kind == "play":
        if "at" in data:
            return translate("Events", "{name} plays {tile} on {at}").format(
                name=data["player"], tile=_tile(data["tile"]), at=_tile(data["at"]))
        return translate("Events", "{name} plays {tile}").format(name=data["player"], tile=_tile(data["tile"]))
    if kind == "round":
        return translate("Events", "{name} starts the round").format(name=data.get("starter"))
    if kind == "draw":
        if data["count"] == 1:
            return translate("Events", "{name} draws 1").format(name=data["player"])
        return translate("Events", "{name} draws {count}").format(name=data["player"], count=data["count"])
    if kind == "pass":
        return translate("Events", _VERBS["knocks" if knock else "passes"]).format(name=data["player"])
    if kind == "reveal":
        hands = "; ".join(
            f"{name} " + (" ".join(_tile(t) for t in tiles) or translate("Events", "none", "no tiles left in a hand"))
            for name, tiles in data["hands"].items())
        return translate("Events", "hands left: {hands}").format(hands=hands)
    return kind


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Tiles typed as pairs of numbers: "1 2, 3 4" or "[1|2] [3|4]"."""
    problem = translate("HandsDialog", "{text}: tiles are pairs of numbers from 0 to 6, like 1 2, 3 4")
    try:
        values = [int(v) for v in text.replace("[", " ").replace("]", " ").replace("|", " ").replace(",", " ").split()]
        if len(values) % 2:
            raise ValueError
        return tuple(Tile.of(values[i], values[i + 1]) for i in range(0, len(values), 2))
    except (ValueError, ScorerError):
        raise ValueError(problem.format(text=repr(text))) from None


def _ok_cancel(dialog: QDialog, form: QFormLayout) -> None:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    wide_enough_for_title(dialog)


class ConfirmDialog(QDialog):
    """The camera is unsure: pick one of the readings, or enter the move by hand."""

    def __init__(self, parent: QWidget, reason: str, alternatives: Sequence[Sequence[Event]],
                 picture: QImage | None = None, ringed: bool = False, match: Match | None = None,
                 intro: str | None = None, taken: Sequence[Event] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Please confirm"))
        self.setMinimumWidth(460)
        self.choice: Sequence[Event] | None = None
        layout = QVBoxLayout(self)
        if picture is not None and ringed:
            where = self.tr("The picture shows the table as the camera saw it: what it asks about is ringed in magenta, "
                            "tiles read unsurely are framed in orange.")
        elif picture is not None:
            where = self.tr("The picture shows the table as the camera saw it: tiles read unsurely are framed in orange.")
        else:
            where = self.tr("In the camera's picture the tiles read unsurely are framed in orange.")
        if re.search(r"\(\d+, \d+\)", reason):  # (only where the question names a place by its pixel)
            where += " " + self.tr("A place such as (412, 200) is a pixel of the camera's picture.")
        if intro is not None:  # (not a question: a choice the camera took, offered again)
            ask = QLabel(intro)
        elif alternatives:
            ask = QLabel(self.tr("The camera is not sure what happened. {where} Pick what was played:").format(where=where))
        else:  # (nothing to pick from: the moves are entered with the buttons under the moves list)
            ask = QLabel(self.tr("The camera cannot tell what happened. {where} Enter what was played with "
                                 "Play…, Draw…, Pass / knock… or Round end… under the moves list -- or wait: the "
                                 "camera reads the table again as play goes on.").format(where=where))
        ask.setWordWrap(True)
        layout.addWidget(ask)
        if picture is not None:
            shown = QLabel()
            shown.setPixmap(QPixmap.fromImage(picture))
            shown.setAlignment(Qt.AlignmentFlag.AlignCenter)
            layout.addWidget(shown)
        if reason:
            label = QLabel(reason)
            label.setWordWrap(True)
            layout.addWidget(label)
        ways = self._ways(alternatives, match, taken)
        scrolled = len(alternatives) > WAYS_SHOWN_WHOLE or ways.sizeHint().height() > WAYS_HEIGHT_WHOLE
        if scrolled:
            scroll = QScrollArea()
            scroll.setWidget(ways)
            scroll.setWidgetResizable(True)
            scroll.setMinimumHeight(min(ways.sizeHint().height(), 200))
            layout.addWidget(scroll)
        else:
            layout.addWidget(ways)
        later = QPushButton(self.tr("Keep it as taken") if taken is not None else self.tr("Not now (fix it by hand)"))
        later.clicked.connect(self.reject)
        layout.addWidget(later)
        if scrolled:
            # The list taller than its least where the ways need it, within a laptop's 768 px (a least any taller
            # overlapped the button below it).
            more = min(ways.sizeHint().height() - 200, 700 - self.sizeHint().height())
            self.resize(self.sizeHint().width(), self.sizeHint().height() + max(0, more))

    def _ways(self, alternatives: Sequence[Sequence[Event]], match: Match | None, taken: Sequence[Event] | None) -> QWidget:
        """A button for each way offered, one move a line (a way of six moves on one line ran off the dialog's edge),
        with what it leaves where that tells them apart, and the way taken marked."""
        ways = QWidget()
        listed = QVBoxLayout(ways)
        listed.setContentsMargins(0, 0, 0, 0)
        scores = _scores_after(match, alternatives) if match is not None else []
        for k, alt in enumerate(alternatives):
            lines = [event_text(e) for e in alt] + ([scores[k]] if scores else [])
            if taken is not None and tuple(alt) == tuple(taken):
                lines.insert(0, self.tr("Taken now:"))
            button = QPushButton("\n".join(lines))
            button.clicked.connect(lambda _=False, a=alt: self._pick(a))
            listed.addWidget(button)
        return ways

    def _pick(self, alt: Sequence[Event]) -> None:
        self.choice = alt
        self.accept()


def _scores_after(match: Match, ways: Sequence[Sequence[Event]]) -> list[str]:
    """What each way leaves, where the ways differ in it and some are of several moves (a question about the order
    of moves that score differently): the scores and who plays next -- and the tiles each holds, where those differ
    too (the players can count them)."""
    if all(len(way) <= 1 for way in ways):
        return []  # (one move each: what it leaves is plain)
    try:
        after = [state_after(match, way) for way in ways]
    except ScorerError:
        return []  # (the match moved on since the question: its ways no longer start from it)
    lines = []
    for state in after:
        if state.next_player is None:
            line = translate("Events", "Scores then: {scores}; the round is over").format(scores=scores_text(state))
        else:
            line = translate("Events", "Scores then: {scores}; {name} to play").format(scores=scores_text(state), name=state.next_player)
        if len({m.hand_counts for m in after}) > 1:
            held = ", ".join(f"{name} {count}" for name, count in zip(state.players, state.hand_counts))
            line += "\n" + translate("Events", "Tiles in hand then: {held}").format(held=held)
        lines.append(line)
    return lines if len(set(lines)) > 1 else []


class HandsDialog(QDialog):
    """The hands left at a round's end, entered by hand (when the camera cannot read them)."""

    def __init__(self, parent: QWidget, match: Match) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Round end: the hands left"))
        form = QFormLayout(self)
        # (said in the dialog too: without a window manager's title bar the fields alone were a riddle)
        intro = QLabel(self.tr("The hands left in round {round}: type the tiles each player still holds, each tile as "
                               "its two numbers of pips. A hand played out stays empty.").format(round=match.round_no))
        intro.setWordWrap(True)
        form.addRow(intro)
        if match.phase is Phase.IN_ROUND and match.rules.has_boneyard and match.boneyard > 0:  # (told before the typing)
            form.addRow(QLabel(self.tr(
                "The round is still in play: the boneyard holds one tile by the moves entered. It ends here only if the "
                "hands hold the draw that was not entered.") if match.boneyard == 1 else self.tr(
                "The round is still in play: the boneyard holds {count} tiles by the moves entered. It ends here only if "
                "the hands hold draws that were not entered.").format(count=match.boneyard),
                wordWrap=True, styleSheet="color:#a05000"))
        self.fields: list[tuple[str, QLineEdit]] = []
        for player, count in zip(match.players, match.hand_counts):
            field = QLineEdit()
            if count == 1:
                hint = self.tr("1 tile, e.g. 3 4")
            elif count:
                hint = self.tr("{count} tiles, e.g. 1 2, 3 4").format(count=count)
            else:
                hint = self.tr("none", "no tiles left in a hand")
            field.setPlaceholderText(hint)
            field.setMinimumWidth(field.fontMetrics().horizontalAdvance(hint) + 24)
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
    """Where a tile may go and what it scores there: "on [4|4], its line B: ends 5 + 10 = 15, 3 points"."""
    from scorer.rules.describe import side_name

    if play.at is None:
        where = translate("TilePicker", "opens the round")
    else:
        side = side_name(play.side, "fi" if language() == "fi" else "en") if play.side else ""
        where = translate("TilePicker", "on {tile} ({side})").format(tile=f"[{play.at.a}|{play.at.b}]", side=side)
    terms = " + ".join(str(e.value) for e in outcome.ends) or "0"
    points = rules.game_points(outcome.raw_points)
    if points == 1:
        scored = translate("TilePicker", "1 point")
    elif points:
        scored = translate("TilePicker", "{count} points").format(count=points)
    else:
        scored = translate("TilePicker", "no points")
    return translate("TilePicker", "{where}: ends {terms} = {sum}, {scored}").format(
        where=where, terms=terms, sum=outcome.sum, scored=scored)


class TilePicker(QDialog):
    """A play by hand: the player, one of the 28 tiles, then one of the free ends it may go on.  Between
    rounds the play opens the next round, its player starting it (``events``: the round's start, then the play);
    ``starter``: who was named at the start to open the first round."""

    def __init__(self, parent: QWidget | None, match: Match, starter: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Enter a play"))
        self.match = match
        self.play: Play | None = None
        self.events: list[Event] = []
        col = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Player")))
        self.player = QComboBox()
        self.player.addItems(list(match.players))
        if match.next_player:
            self.player.setCurrentText(match.next_player)
        elif match.phase is Phase.BEFORE_ROUND and match.next_starter is not None:  # (the last round's finisher opens)
            self.player.setCurrentText(match.players[match.next_starter])
        elif match.phase is Phase.BEFORE_ROUND and match.round_no == 0 and starter in match.players:
            self.player.setCurrentText(starter)
        self.player.currentTextChanged.connect(self._refresh)
        row.addWidget(self.player, 1)
        col.addLayout(row)
        col.addWidget(QLabel(self.tr("The tile laid:")))
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
        self.ends_label = QLabel(self.tr("Pick a tile."))
        col.addWidget(self.ends_label)
        self.ends = QVBoxLayout()
        col.addLayout(self.ends)
        cancel = QPushButton(self.tr("Cancel"))
        cancel.clicked.connect(self.reject)
        col.addWidget(cancel, 0, Qt.AlignmentFlag.AlignRight)
        self.end_buttons: list[QPushButton] = []
        self._refresh()

    def _opening(self) -> RoundStart | None:
        """The round the play opens, between rounds (None within one)."""
        return RoundStart(self.player.currentText()) if self.match.phase is Phase.BEFORE_ROUND else None

    def _state(self) -> Match | str:
        """The match the play is laid in (the next round started by the chosen player), or why there is none."""
        opening = self._opening()
        if opening is None:
            return self.match
        try:
            return self.match.apply(opening)[0]
        except ScorerError as exc:  # (the match is over, or another player starts this round)
            return refusal_text(exc)

    def _refresh(self) -> None:
        """Only tiles the chosen player may lay now can be picked."""
        player, state = self.player.currentText(), self._state()
        for tile, button in self.tile_buttons.items():
            legal = isinstance(state, Match) and bool(legal_plays(state, player, tile))
            button.setEnabled(legal)
            button.setIcon(QIcon(tile_pixmap(tile, enabled=legal)))
            button.setChecked(False)
        self._show_ends([])

    def _pick_tile(self, tile: Tile) -> None:
        for other, button in self.tile_buttons.items():
            button.setChecked(other == tile)
        state = self._state()
        self._show_ends(legal_plays(state, self.player.currentText(), tile) if isinstance(state, Match) else [])

    def _show_ends(self, ways: list[tuple[Play, PlayOutcome]]) -> None:
        for button in self.end_buttons:
            button.deleteLater()
        self.end_buttons = []
        if not ways:
            state = self._state()
            if isinstance(state, str):
                self.ends_label.setText(state)
            elif state.phase is Phase.IN_ROUND:
                self.ends_label.setText(self.tr("Pick a tile: it opens the round.") if self._opening() else self.tr("Pick a tile."))
            else:
                self.ends_label.setText(self.tr("No round is being played."))
            return
        self.ends_label.setText(self.tr("Where it goes:"))
        for play, outcome in ways:
            button = QPushButton(end_text(play, outcome, self.match.rules))
            button.clicked.connect(lambda _=False, p=play: self._choose(p))
            self.ends.addWidget(button)
            self.end_buttons.append(button)

    def _choose(self, play: Play) -> None:
        self.play = play
        opening = self._opening()
        self.events = [play] if opening is None else [opening, play]
        self.accept()


# The menu entries for a pass, a knock or a draw, by the verb the caller gives.
_VERBS = {
    "passes": QT_TRANSLATE_NOOP("Events", "{name} passes"),
    "knocks": QT_TRANSLATE_NOOP("Events", "{name} knocks"),
    "draws": QT_TRANSLATE_NOOP("Events", "{name} draws"),
    "starts": QT_TRANSLATE_NOOP("Events", "{name} starts the round"),
}


def player_menu(parent: QWidget, match: Match, verb: str) -> QMenu:
    """A menu of the players, the one on turn first and marked, for a pass (``verb`` "passes"), a knock
    ("knocks") or a draw ("draws")."""
    menu = QMenu(parent)
    on_turn = match.next_player
    players = sorted(match.players, key=lambda p: p != on_turn)
    if match.phase is Phase.BEFORE_ROUND and match.next_starter is not None:
        players = [match.players[match.next_starter]]  # (who played out the last round starts the next: no choice)
    for player in players:
        template = translate("Events", _VERBS[verb]) if verb in _VERBS else "{name} " + verb
        text = template.format(name=player)
        if player == on_turn:
            text += " " + translate("Events", "(on turn)")
        action = menu.addAction(text)
        action.setData(player)
    return menu
