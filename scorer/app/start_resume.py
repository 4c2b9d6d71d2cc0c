"""The start screen's saved matches: which is offered first, how each is told, and the question asked when a new
match is started for a table whose match is unfinished (a slip of Enter would bury it)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget

from scorer.app.i18n import translate
from scorer.sessions import SessionSummary


def offered_first(sessions: list[SessionSummary]) -> list[SessionSummary]:
    """The matches to go on with: the real match played last first, then those with no move yet, each the last
    written first.  Not the demo: "Play the demo" plays it again (a newcomer found a demo watched once offered as
    an unfinished match at every start)."""
    unfinished = [s for s in sessions if s.resumable and not s.is_demo]
    return sorted(unfinished, key=lambda s: (s.events == 0, -s.written))


def summary_text(s: SessionSummary) -> str:
    assert s.header is not None
    scores = s.side_scores
    when = s.started[:16].replace("T", " ")
    if s.state == "recovered":
        #: A saved match: when it began, the game, the scores, how many events its file holds; it was recovered after a crash.
        text = translate("StartDialog", "{when}  {game}: {scores}  ({count} events, recovered)")
    elif s.state == "damaged":
        #: A saved match whose last lines cannot be read (a crash, a full disk): they are cut off when it is resumed.
        text = translate("StartDialog", "{when}  {game}: {scores}  ({count} events; its damaged end is cut off, and kept "
                                        "aside, when resumed)")
    else:
        text = translate("StartDialog", "{when}  {game}: {scores}  ({count} events)")
    game = s.header.rules.title + (translate("StartDialog", " (the demo)") if s.is_demo else "")
    source = s.header.source
    if source is not None and source.kind == "video" and source.location:  # (replays of one video told apart by it)
        game += f" · {Path(source.location).name}"
    return text.format(when=when, game=game, scores=scores, count=s.events)


def same_table(unfinished: list[SessionSummary], game: str, players: tuple[str, ...]) -> SessionSummary | None:
    """The unfinished real match (with moves) of ``game`` for ``players`` (any order and case), the last played."""
    names = sorted(p.casefold() for p in players)
    return next((s for s in unfinished if s.header is not None and not s.is_demo and s.events
                 and s.header.game == game and sorted(p.casefold() for p in s.header.players) == names), None)


def cut_accepted(parent: QWidget, summary: SessionSummary) -> bool:
    """Whether to go on with ``summary``: a damaged match only once the players are told what resuming cuts off
    (its first unreadable line and every line after it, kept beside the file)."""
    if summary.state != "damaged":
        return True
    answer = QMessageBox.question(parent, translate("StartDialog", "A damaged match"), translate(
        "StartDialog", "Line {line} of this match's file cannot be read. Resuming keeps the {count} events before it; "
                       "that line and every line after it are cut off and kept beside the file, in {name}.\n\n"
                       "Resume it?").format(line=summary.bad_line, count=summary.events,
                                            name=summary.path.name + ".damaged"))
    return answer == QMessageBox.StandardButton.Yes


def resume_instead(parent: QWidget, summary: SessionSummary) -> bool | None:
    """Asks whether to go on with ``summary`` rather than start anew: True to resume, False for a new match, None
    (closed, cancelled) for neither."""
    box = QMessageBox(QMessageBox.Icon.Question, translate("StartDialog", "An unfinished match"),
                      translate("StartDialog", "This table's match is unfinished:\n{match}\n\nGo on with it?").format(
                          match=summary_text(summary)), parent=parent)
    resume = box.addButton(translate("StartDialog", "Resume it"), QMessageBox.ButtonRole.AcceptRole)
    new = box.addButton(translate("StartDialog", "Start a new match"), QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(resume)
    box.exec()
    return True if box.clickedButton() is resume else False if box.clickedButton() is new else None
