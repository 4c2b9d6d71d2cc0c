"""The main window's scoreboard: the match on a cribbage board, and the table as it was at a move of the list.

A part of :class:`scorer.app.window.MainWindow`: while a recording is reviewed the board shows that moment.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QListWidgetItem, QPushButton, QVBoxLayout

from scorer.app.corrections import event_text
from scorer.app.layout_picture import layout_on_table, layout_pixmap
from scorer.app.liveview import to_qimage
from scorer.app.pegboard import Track
from scorer.rules import Match, Phase
from scorer.rules.game import PlayOutcome, RoundOutcome
from scorer.rules.transcript import Step, narrate, scores_text


class Scoreboard:
    """The board (``_refresh_board``) and the "table then" dialog of a move clicked in the list."""

    def _scoring(self, match: Match | None = None) -> tuple[set, int | None]:
        """The board's scoring ends and their sum, as the session holds it now (or as ``match`` has them)."""
        match = self.match if match is None else match
        # (Between rounds the last round's layout is gone from the table: no sum over it.)
        board = match.board if match.phase in (Phase.IN_ROUND, Phase.ROUND_OVER) else None
        scoring = {e.tile for e in board.scoring_ends()} if board is not None else set()
        return scoring, board.end_sum() if board is not None and board.tiles else None

    def _refresh_board(self) -> None:
        if self.review_at is not None:
            count, match = self.snapshot.at(self.review_at)
            steps = self.snapshot.steps[:count]
        else:
            match, steps = self.match, self.snapshot.steps
        table = match.table
        rules = match.rules
        if rules.raw_per_point > 1:
            holes, per_hole = 61, 1
            title = self.tr("{game}: first to {target}").format(game=rules.title, target=holes)
        else:
            holes, per_hole = rules.target_raw // 5, 5
            title = self.tr("{game}: first to {target} (5 a hole)").format(game=rules.title, target=rules.target_raw)
        tracks = []
        for side in range(table.n_sides):
            name = table.side_name(side)
            seat = table.seats_of(side)[0]
            now = match.scores()[table.players[seat]]
            before = _score_before_last_change(steps, table.players[seat])
            won = 1 if side in match.winning_sides else 0
            acts = match.next_to_act  # (between rounds: who the rules name to start the next)
            on_turn = acts is not None and table.side_of(table.seat(acts)) == side
            tracks.append(Track(name, now // per_hole, before // per_hole, str(now), won, on_turn))
        self.pegboard.set_state(title, holes, tracks, skunk=(), points_per_hole=per_hole)  # (the domino games know no skunk)

    def _step_of(self, item: QListWidgetItem) -> Step | None:
        line = item.data(Qt.ItemDataRole.UserRole)
        return next((s for s in self.snapshot.steps if s.line == line), None)

    def _picture_of(self, step: Step) -> QPixmap | None:
        """The live view as it was when ``step`` was scored; in a recording, else, its frame then; with no camera,
        the layout drawn."""
        if step.line in self.pictures:
            return self.pictures[step.line]
        if self.by_hand:  # no camera: the layout after the move, drawn
            board = layout_on_table(step.after)
            return layout_pixmap(board, 560, 380, self._scoring(step.after)[0]) if board is not None and board.tiles else None
        if step.t is None or not self.worker.seekable:
            return None
        frames = self.worker.source.frames(int(round(step.t * self.worker.source.fps)))  # type: ignore[call-arg]
        frame = next(frames, None)
        frames.close()
        if frame is None:
            return None
        return QPixmap.fromImage(to_qimage(frame.image)).scaledToWidth(560, Qt.TransformationMode.SmoothTransformation)

    def _show_board_at(self, item: QListWidgetItem) -> None:
        """The table as the camera saw it when the move was scored, and the board's sum then."""
        step = self._step_of(item)
        if step is None:
            return
        dialog = QDialog(self)
        dialog.setWindowTitle(self.tr("The table then"))
        col = QVBoxLayout(dialog)
        picture = self._picture_of(step)
        if picture is not None:
            shown = QLabel()
            shown.setPixmap(picture)
            col.addWidget(shown)
        board = step.after.board
        if board is not None and board.tiles:
            sums = self.tr("End sum {sum}").format(sum=board.end_sum())
        else:
            sums = self.tr("No tiles on the table")
        told = "\n".join(line.strip() for line in narrate(step, self.lang)) or event_text(step.event)
        # (A move that scored tells the scores already -- by side, as pairs play: not told twice, nor player by player.)
        if isinstance(step.outcome, RoundOutcome) or isinstance(step.outcome, PlayOutcome) and step.outcome.raw_points:
            caption = QLabel(self.tr("After: {move}\n{sums}.").format(move=told, sums=sums))
        else:
            caption = QLabel(self.tr("After: {move}\n{sums}. Scores: {scores}.").format(move=told, sums=sums,
                                                                                         scores=scores_text(step.after)))
        caption.setWordWrap(True)
        col.addWidget(caption)
        row = QHBoxLayout()
        row.addStretch(1)
        if step.t is not None and self.worker.seekable and not self.by_hand:
            # (The moves list is where a newcomer looks for a moment: review starts from here as from the timeline.)
            review = QPushButton(self.tr("Review this moment"))
            review.setToolTip(self.tr("The recording and the match as they stood then; from there, Score again from here."))
            review.clicked.connect(lambda: (dialog.accept(), self.review(step.t)))
            row.addWidget(review)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(dialog.accept)
        row.addWidget(close)
        col.addLayout(row)
        self.board_dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # (a dialog a move: not kept all evening)
        dialog.open()


def _score_before_last_change(steps: tuple[Step, ...], player: str) -> int:
    """Where the back peg stands: the player's score before it last changed (it stays while moves score nothing)."""
    for step in reversed(steps):
        before, after = step.before.scores().get(player, 0), step.after.scores().get(player, 0)
        if before != after:
            return before
    return 0
