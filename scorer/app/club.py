"""The club in the app: tonight's matches across tables, the standings, and each player's results over time."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QKeySequence, QPainter, QPen, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import select
from sqlalchemy.engine import Engine

from scorer.app.i18n import decimal, translate
from scorer.app.screens import show_fitted
from scorer.app import club_players
from scorer.club import ClubError, file_missing, open_database, other_names, player_names, standings
from scorer.club.connection import default_url
from scorer.rules.log import GAMES
from scorer.club.queries import EVENING_STARTS, evening_start
from scorer.club.schema import matches, players, seats


def evening(engine: Engine, day: dt.date) -> list[tuple[str, str, str, bool]]:
    """(table, game, "Ann 61, Ben 40", finished) for each match played on the evening of ``day`` -- from 06:00 to 06:00
    the day after, as the club's board and ``club standings --since today`` count it (pairs as one side: "Ann & Cid
    61, Ben & Dee 40")."""
    start = dt.datetime.combine(day, EVENING_STARTS)
    end = start + dt.timedelta(days=1)
    when = matches.c.played_at
    with engine.connect() as c:
        rows = list(c.execute(
            select(matches.c.id, matches.c.table_name, matches.c.game, matches.c.finished)
            .where(when >= start, when < end).order_by(when)
        ))
        out = []
        for mid, table, game, finished in rows:
            sides: dict[int, tuple[list[str], int, bool]] = {}
            for name, score, won, side in c.execute(
                select(players.c.name, seats.c.score, seats.c.won, seats.c.side)
                .select_from(seats.join(players, seats.c.player_id == players.c.id))
                .where(seats.c.match_id == mid).order_by(seats.c.seat)
            ):
                sides.setdefault(side, ([], score, won))[0].append(name)
            won_text = translate("ClubWindow", " (won)")
            text = ", ".join(f"{' & '.join(names)} {score}{won_text if won else ''}" for names, score, won in sides.values())
            out.append((table or "", game, text, bool(finished)))
    return out


def results_over_time(engine: Engine, player: str, game: str | None = None) -> list[tuple[dt.datetime, int, int, bool]]:
    """(when, score, best opposing score, won) for each of the player's finished matches (of ``game``: one game's
    points on one scale), oldest first (one left unfinished has no result: the standings do not count it either)."""
    with engine.connect() as c:
        query = (
            select(matches.c.played_at, matches.c.imported_at, seats.c.score, seats.c.against, seats.c.won)
            .select_from(seats.join(players, seats.c.player_id == players.c.id).join(matches, seats.c.match_id == matches.c.id))
            .where(players.c.name == player, matches.c.finished)
        )
        rows = c.execute(query if game is None else query.where(matches.c.game == game))
        data = [(p or i, s, a, bool(w)) for p, i, s, a, w in rows]
    return sorted(data)


class ResultsChart(QWidget):
    """Each match as a bar: the margin over the best opponent, green for a win."""

    def __init__(self) -> None:
        super().__init__()
        self.data: list[tuple[dt.datetime, int, int, bool]] = []
        self.setMinimumHeight(180)

    def set_data(self, data) -> None:
        self.data = data
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("white"))
        w, h = self.width(), self.height()
        mid = h / 2
        if not self.data:
            p.setPen(QColor("#666666"))
            p.drawText(QRectF(0, 0, w, h), Qt.AlignmentFlag.AlignCenter, self.tr("no matches yet"))
            return
        p.setPen(QPen(QColor("#999999"), 1))
        p.drawLine(QPointF(30, mid), QPointF(w - 10, mid))
        margins = [s - a for _, s, a, _ in self.data]
        top = max(1, max(abs(m) for m in margins))
        bar = (w - 40) / len(self.data)
        for i, ((_, _, _, won), m) in enumerate(zip(self.data, margins)):
            height = (h / 2 - 20) * m / top
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#2ca02c" if won else "#d62728"))
            p.drawRect(QRectF(30 + i * bar + 1, mid - max(height, 0), max(2, bar - 2), abs(height)))
        p.setPen(QColor("#333333"))
        p.setFont(QFont("DejaVu Sans", 8))
        caption = (self.tr("margin over the best opponent, 1 match (±{top})").format(top=top) if len(self.data) == 1 else
                   self.tr("margin over the best opponent, {count} matches (±{top})").format(count=len(self.data), top=top))
        p.drawText(QRectF(2, 2, w, 14), Qt.AlignmentFlag.AlignLeft, caption)
        p.end()


def open_club_window(parent: QWidget, club_db: str) -> "ClubWindow | None":
    """The club window over ``parent`` (a window of its own, usable beside a modal start screen), on the club
    database ``club_db`` (empty: this computer's club file); None where it cannot be opened (said in a box)."""
    if file_missing(club_db or default_url()):  # (a name mistyped in the settings is never made a club)
        QMessageBox.information(parent, translate("ClubWindow", "Club"), translate(
            "ClubWindow", "No club file yet: {file}. It is made when the first match is saved into the club.").format(
            file=club_db or translate("ClubWindow", "this computer's club file")))
        return None
    try:
        window = ClubWindow(open_database(club_db or None), parent=parent)
    except ClubError as exc:
        QMessageBox.warning(parent, translate("ClubWindow", "Club"), str(exc))
        return None
    window.move(parent.screen().availableGeometry().center() - window.rect().center())  # (whole on the screen)
    show_fitted(window)
    return window


class ClubWindow(QMainWindow):
    def __init__(self, engine: Engine, day: dt.date | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.setWindowTitle(self.tr("Club"))
        self.resize(900, 560)
        tabs = QTabWidget()
        self.evening_list = QListWidget()
        tabs.addTab(self.evening_list, self.tr("Tonight"))
        self.game = QComboBox()
        for key, rules in GAMES.items():
            self.game.addItem(rules.title, key)
        self.game.currentIndexChanged.connect(self.refresh)
        self.table = QTableWidget(0, 7)
        self.table.setHorizontalHeaderLabels([self.tr("player"), self.tr("matches"), self.tr("wins"), self.tr("shared"),
                                              self.tr("for"), self.tr("against"), self.tr("per move")])
        tabs.addTab(self.table, self.tr("Standings"))
        page = QWidget()
        pcol = QVBoxLayout(page)
        self.player = QComboBox()
        self.player.currentTextChanged.connect(self._show_player)
        self.summary = QLabel()
        self.chart = ResultsChart()
        prow = QHBoxLayout()
        prow.addWidget(self.player, 1)
        self.rename_button = QPushButton(self.tr("Rename…"))
        self.rename_button.setToolTip(self.tr("Name the player otherwise in every match"))
        self.rename_button.clicked.connect(lambda: self._changed(club_players.rename(self, self.engine, self.player.currentText())))
        self.merge_button = QPushButton(self.tr("Same person as…"))
        self.merge_button.setToolTip(self.tr("A name mistyped at a table: its matches are another player's"))
        self.merge_button.clicked.connect(lambda: self._changed(club_players.merge(self, self.engine, self.player.currentText())))
        self.separate_button = QPushButton(self.tr("Separate a name…"))
        self.separate_button.setToolTip(self.tr("One of the player's other names is someone else: the matches typed with it go back to it"))
        self.separate_button.clicked.connect(lambda: self._changed(club_players.separate(self, self.engine, self.player.currentText())))
        for button in (self.rename_button, self.merge_button, self.separate_button):
            prow.addWidget(button)
        pcol.addLayout(prow)
        pcol.addWidget(self.summary)
        pcol.addWidget(self.chart, 1)
        tabs.addTab(page, self.tr("Player"))
        # (The game over the tabs: the standings and a player's matches are one game's, on its own scale.)
        central = QWidget()
        col = QVBoxLayout(central)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Game")))
        row.addWidget(self.game)
        row.addStretch(1)
        col.addLayout(row)
        col.addWidget(tabs)
        self.setCentralWidget(central)
        for keys in (QKeySequence(QKeySequence.StandardKey.Close), QKeySequence(Qt.Key.Key_Escape)):
            QShortcut(keys, self, self.close)
        self.day_given = day  # (None: the evening it is at each refresh -- past midnight, the one begun before it)
        self.refresh()

    @property
    def day(self) -> dt.date:
        return self.day_given or evening_start(dt.datetime.now()).date()

    def refresh(self) -> None:
        self.evening_list.clear()
        playing = self.tr(" (playing)")
        for table, game, text, finished in evening(self.engine, self.day):
            title = GAMES[game].title if game in GAMES else game
            self.evening_list.addItem(f"{table + ': ' if table else ''}{title} — {text}{'' if finished else playing}")
        if not self.evening_list.count():
            empty = QListWidgetItem(self.tr("No match in the club's history today yet."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.evening_list.addItem(empty)
        rows = standings(self.engine, game=self.game.currentData())
        self.table.setRowCount(len(rows))
        for r, s in enumerate(rows):
            for c, value in enumerate([s.player, s.matches, s.wins, s.shared_wins, s.points_for, s.points_against, decimal(s.points_per_move, 2)]):
                self.table.setItem(r, c, QTableWidgetItem(str(value)))
        current = self.player.currentText()
        self.player.blockSignals(True)
        self.player.clear()
        self.player.addItems(player_names(self.engine))
        if current:
            self.player.setCurrentText(current)
        self.player.blockSignals(False)
        self._show_player(self.player.currentText())

    def _changed(self, name: str | None) -> None:
        """The window again after a player was renamed, merged or separated (``name``: the player to show), or after
        the club refused it (another window or table may have changed the players meanwhile)."""
        if name is not None:
            self.player.blockSignals(True)
            self.player.clear()
            self.player.blockSignals(False)
        self.refresh()
        if name is not None:
            self.player.setCurrentText(name)

    def _show_player(self, name: str) -> None:
        """The player's matches of the game the standings show (Horse Race's points and Seven Rocks' raw points are not
        one scale)."""
        game = self.game.currentData()
        data = results_over_time(self.engine, name, game) if name else []
        wins = sum(1 for d in data if d[3])
        title = GAMES[game].title if game in GAMES else ""
        self.rename_button.setEnabled(bool(name))
        self.merge_button.setEnabled(self.player.count() > 1)
        if not name:
            self.summary.setText("")
        elif len(data) == 1:
            self.summary.setText(self.tr("{name}: 1 match of {game}, {wins} won").format(name=name, game=title, wins=wins))
        else:
            self.summary.setText(self.tr("{name}: {count} matches of {game}, {wins} won").format(
                name=name, count=len(data), game=title, wins=wins))
        also = other_names(self.engine).get(name)
        self.separate_button.setEnabled(bool(also))
        if also:
            typed_as = self.tr(" · also typed as {name}") if len(also) == 1 else self.tr(" · also typed as {names}")
            self.summary.setText(self.summary.text() + typed_as.format(name=also[0], names=", ".join(also)))
        self.chart.set_data(data)
