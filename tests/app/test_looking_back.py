"""The app when the players look back: a question put off and opened again, a moment of the recording reviewed
(its own banner), a recording scored again (moves said once), an undo while a recording plays (it waits)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel

from scorer.app import i18n
from scorer.app.corrections import event_text
from scorer.pipeline import MoveEvent, NeedsConfirmation, StatusChange
from scorer.pipeline.announce import announced
from scorer.rules import Play, RoundStart, Tile
from scorer.rules.log import MatchHeader
from scorer.rules.transcript import scores_text
from tests.app.test_app import NoDetector, StillCamera, make_window, one_round_film, seekable_recording


@pytest.fixture(scope="module")
def film(tmp_path_factory) -> Path:
    """The folder of one generated one-round film, made once for these tests (it is only read)."""
    folder = tmp_path_factory.mktemp("film")
    one_round_film(folder)
    return folder


def _recording_window(qtbot, tmp_path: Path, film: Path, start: bool = True):
    """A window over the film as a recording, shown and playing (as fast as it goes) where ``start``."""
    _, source, detector = seekable_recording(tmp_path, film)
    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), source, detector)
    qtbot.addWidget(window)
    if start:
        window.show()
        window.start()
    return window


def test_a_question_put_off_is_opened_again_until_the_match_moves_on(qtbot, tmp_path: Path) -> None:
    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    window.show()
    window.start()
    asked = NeedsConfirmation(1.0, "who started the round?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))
    window._on_events([asked])
    assert window.live.status == "confirm" and not window.question_action.isEnabled()  # (open on the screen)
    window.pending_dialog.reject()  # "Not now"
    assert window.pending_dialog is None and window.open_question is asked
    assert window.question_action.isEnabled() and "put off" in window.statusBar().currentMessage()
    # A click on the badge "needs your confirmation" asks it again; so does the Play menu's item.
    qtbot.mouseClick(window.live, Qt.MouseButton.LeftButton, pos=QPoint(30, 24))
    assert window.pending_dialog is not None and window.pending_dialog.isVisible()
    assert not window.question_action.isEnabled()
    window.pending_dialog.reject()
    window.question_action.trigger()
    dialog = window.pending_dialog
    assert dialog is not None and any("who started the round?" in label.text() for label in dialog.findChildren(QLabel))
    dialog._pick((RoundStart("Ben"),))  # answered: the question is gone for good
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 1, timeout=10_000)
    assert window.open_question is None and not window.question_action.isEnabled()
    # Put off, then the match moves on (a move entered by hand): the question was of a table that is gone.
    window._on_events([NeedsConfirmation(2.0, "which tile is it?", ((Play("Ben", Tile(3, 4)),),))])
    window.pending_dialog.reject()
    assert window.question_action.isEnabled()
    window._correct([Play("Ben", Tile(5, 5))])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 2, timeout=10_000)
    assert window.open_question is None and not window.question_action.isEnabled()
    window.live.set_status("confirm")
    qtbot.mouseClick(window.live, Qt.MouseButton.LeftButton, pos=QPoint(30, 24))
    assert window.pending_dialog is None  # (nothing to open again)
    window.stop()


def test_a_reviewed_moment_has_its_own_banner_and_a_recording_scored_again_says_each_move_once(qtbot, tmp_path: Path, film: Path) -> None:
    window = _recording_window(qtbot, tmp_path, film, start=False)
    said: list[str] = []
    window.speaker.say_announcement = lambda a: said.append(a.en)
    spoken: list[str] = []  # (what else is said: a round blocked, an undo, a result that stands)
    window.speaker.say = spoken.append
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    steps = window.snapshot.steps
    announcements = [a.en for a in map(announced, steps) if a is not None]
    assert said == announcements and len(said) >= 4
    live_banner = window.banner.text()
    assert live_banner == i18n.unbroken(announcements[-1])
    # A moment reviewed: the banner is the last announcement then, marked with its time, not the live one.
    count = next(i for i in range(2, len(steps)) if announced(steps[i - 1]) is not None)
    at = steps[count - 1].t
    window.review(at)
    assert window.banner.text() == f"At {i18n.decimal(at)} s: {i18n.unbroken(announced(steps[count - 1]).en)}"
    window._set_lang("fi")
    assert window.banner.text().startswith(f"Kohdassa {i18n.decimal(at)} s: ")
    window._set_lang("en")
    window.back_to_live()
    assert window.banner.text() == live_banner
    # Scored again from there: the moves that come back the same are shown, not said a second time.
    later = steps[count:]
    spoken.clear()
    window.score_again_from(at)
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert [s.event for s in window.snapshot.steps[count:]] == [s.event for s in later]
    assert said == announcements and window.banner.text() == live_banner
    # (not the moves' going, which came back: the result that stands, once)
    assert spoken == [f"Scored again as before: {scores_text(window.match)}"]
    # The first move that comes out otherwise is said, and so is every one after it.
    window.heard_before = (later[0].event, later[1].event)
    assert window.heard_already(later[0]) and not window.heard_already(later[0])
    assert window.heard_before == () and not window.heard_already(later[1])
    window.stop()


def test_an_undo_while_a_recording_plays_waits_for_the_players(qtbot, tmp_path: Path, film: Path) -> None:
    window = _recording_window(qtbot, tmp_path, film)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) >= 3, timeout=60_000)
    window.undo()
    assert window.play_button.isChecked() and window.statusBar().currentMessage().startswith("Paused after the undo")
    qtbot.waitUntil(lambda: bool(window.snapshot.undone), timeout=10_000)
    undone = window.snapshot.undone[0].event
    # (the undo's own line says why the recording waits, and stays till the players act)
    assert window.statusBar().currentMessage() == (f"Undone: {event_text(undone)} (Redo brings it back). Paused after the "
                                                   "undo: enter the move as it was, or click a tile to correct it; Play "
                                                   "reads the table again as it is.")
    kept = len(window.snapshot.steps)
    qtbot.wait(600)  # (held: the camera does not read the move undone back in)
    assert len(window.snapshot.steps) == kept and window.snapshot.undone[0].event == undone
    # Entered again by hand (here as it was), the recording plays on.
    window._correct([undone])
    assert not window.play_button.isChecked()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) > kept, timeout=10_000)
    assert window.snapshot.steps[kept].event == undone
    window.undo()
    qtbot.waitUntil(lambda: bool(window.snapshot.undone), timeout=10_000)
    window.play_button.setChecked(False)  # Play: the camera reads the table again, the move comes back as read
    assert not window.held_for_players
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert any(s.event == undone for s in window.snapshot.steps)
    window.stop()


def test_an_undo_at_a_question_keeps_the_recording_waiting(qtbot, tmp_path: Path, film: Path) -> None:
    """A recording held for the camera's question, then a move undone: the undo closes the question, and the
    recording waits on for the players (it played on, and scored the move undone again)."""
    window = _recording_window(qtbot, tmp_path, film)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) >= 3, timeout=60_000)
    window._on_events([NeedsConfirmation(9.0, "who laid it?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))])
    assert window.play_button.isChecked() and window.held_for_question
    window.undo()
    qtbot.waitUntil(lambda: bool(window.snapshot.undone), timeout=10_000)
    kept = len(window.snapshot.steps)
    assert window.pending_dialog is None and window.open_question is None
    qtbot.wait(600)
    assert window.play_button.isChecked() and len(window.snapshot.steps) == kept
    window.redo()  # (brought back: the recording plays on)
    qtbot.waitUntil(lambda: not window.play_button.isChecked(), timeout=10_000)
    window.stop()


def test_a_question_put_off_keeps_the_badge_and_the_review_keeps_its_banner(qtbot, tmp_path: Path, film: Path) -> None:
    window = _recording_window(qtbot, tmp_path, film)
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    window._on_events([NeedsConfirmation(9.0, "who laid it?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))])
    window.pending_dialog.reject()
    # The camera reads on (its state "reading", then "waiting"): the badge stays red while the question is open.
    window._on_events([StatusChange(9.5, "reading"), StatusChange(9.6, "waiting")])
    assert window.live.status == "confirm"
    qtbot.mouseClick(window.live, Qt.MouseButton.LeftButton, pos=QPoint(30, 24))
    assert window.pending_dialog is not None
    # A moment reviewed keeps its banner while the live match moves (a move redone, an announcement).
    at = window.snapshot.steps[3].t
    window.review(at)
    reviewed = window.banner.text()
    window._on_events([MoveEvent(10.0, window.snapshot.steps[-1], announced(window.snapshot.steps[-1]))])
    assert window.banner.text() == reviewed and window.pending_dialog is None
    window.back_to_live()
    assert window.banner.text() != reviewed
    # Scored again from a moment after the last move: nothing is withdrawn, yet the banner is live again and
    # the question (which the session forgets) is closed.
    window._on_events([NeedsConfirmation(11.0, "who laid it?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))])
    window.pending_dialog.reject()
    window.review(window.snapshot.steps[-1].t + 0.5)
    window.score_again_from(window.snapshot.steps[-1].t + 0.5)
    assert not window.banner.text().startswith("At ") and window.open_question is None
    assert not window.question_action.isEnabled()
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    window.stop()


def test_a_hold_for_the_players_keeps_saying_why_and_what_they_change_is_said(qtbot, tmp_path: Path, film: Path) -> None:
    window = _recording_window(qtbot, tmp_path, film)
    spoken: list[str] = []
    window.speaker.say = spoken.append
    window.speaker.say_announcement = lambda a: spoken.append(a.en)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) >= 3, timeout=60_000)
    window._on_events([NeedsConfirmation(9.0, "who laid it?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))])
    window.pending_dialog.reject()  # put off: the recording waits for the players
    waits = "The question is put off and the recording waits"
    assert window.held_for_players and window.statusBar().currentMessage().startswith(waits)
    window.reopen_question()
    window.pending_dialog.reject()  # (put off again, still held: said so again, not the passing line)
    assert window.held_for_players and window.statusBar().currentMessage().startswith(waits)
    window.review(window.snapshot.steps[1].t)
    window.back_to_live()
    assert window.statusBar().currentMessage().startswith(waits)  # (not "Live again." over a recording that waits)
    window._set_lang("fi")
    assert window.statusBar().currentMessage().startswith("Kysymys on siirretty myöhemmäksi, ja tallenne odottaa")
    window._set_lang("en")
    window.play_button.setChecked(False)
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert not window.held_for_players and not window.held_for_question
    # Scored again; the players undo a move while it is scored again: that undo is said, as any undo.
    steps = window.snapshot.steps
    window.score_again_from(steps[2].t)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 3, timeout=60_000)  # (withdrawn, then scored again)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) >= 4, timeout=60_000)
    window.play_button.setChecked(True)
    qtbot.wait(300)
    kept = len(window.snapshot.steps)
    spoken.clear()
    window.undo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == kept - 1, timeout=10_000)
    assert spoken and spoken[0].startswith("Undone: ")
    # Redone by the players: the move is announced as any move they bring back, and no "as before" is said.
    spoken.clear()
    window.redo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == kept, timeout=10_000)
    assert not any(s.startswith("Scored again as before") for s in spoken)
    window.stop()
