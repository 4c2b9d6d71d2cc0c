"""The app on the session store: resume shows the moves, undo after resume, review without changing the log,
corrections after a recording ended, and a start screen without a camera whose form keeps a mistake."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog

from scorer.app.start import DemoMatch, NewMatch, Resume, StartDialog
from scorer.rules.log import MatchHeader
from scorer.rules.simulate import simulate_match
from scorer.sessions import Session, list_sessions, read_session

from tests.app.test_app import NoDetector, StillCamera, make_window, saved, seekable_recording


def test_a_resumed_match_shows_its_moves_and_undo_works_on_them(qtbot, tmp_path: Path) -> None:
    sim = simulate_match("horse-race", 2, seed=7)
    first = Session.create(sim.header, tmp_path)
    for step in sim.events[:25]:
        first.apply(step.event, 0.0)
    first.close()
    session, damage = Session.open(first.path)
    assert damage is None
    window = make_window(tmp_path, sim.header, StillCamera(), NoDetector(), session=session)
    qtbot.addWidget(window)
    assert window.log.count() == 25 and window.match.scores() == sim.events[24].after.scores()
    assert window.undo_action.isEnabled() and not window.redo_action.isEnabled()
    window.start()
    window.undo()
    qtbot.waitUntil(lambda: window.log.count() == 24, timeout=10_000)
    assert window.match.scores() == sim.events[23].after.scores() == saved(window).match.scores()
    assert len(saved(window).steps) == 24 and window.redo_action.isEnabled()
    window.close()


def sim_scores(sim):
    return [s for s in sim.events if s.after.round_no == 1][-1].after.scores()


def test_review_after_a_seek_leaves_the_log_and_corrections_after_the_end_count(qtbot, tmp_path: Path) -> None:
    sim, source, detector = seekable_recording(tmp_path)
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    window = make_window(tmp_path, header, source, detector)
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) >= 6, timeout=60_000)
    window.play_button.setChecked(True)
    qtbot.wait(200)
    written = window.session.path.read_bytes()
    assert not window.live_button.isVisible()
    at = window.snapshot.steps[2].t
    window.review(at)
    qtbot.waitUntil(lambda: window.time_label.text() != "", timeout=5_000)
    qtbot.wait(300)
    # The board shows the match as it stood then; the log is untouched.
    then = window.snapshot.steps[2].after.scores()
    assert [int(t.label) for t in window.pegboard.tracks] == [then[p] for p in header.players]
    assert window.live_button.isVisible() and window.session.path.read_bytes() == written
    assert window.log.currentRow() == 2
    window.back_to_live()
    qtbot.waitUntil(lambda: not window.live_button.isVisible(), timeout=2_000)
    window.play_button.setChecked(False)
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    count = len(window.snapshot.steps)
    assert read_session(window.session.path).log.steps == window.snapshot.steps
    # After the recording ended, undo, a move entered by hand and redo still go into the session.
    last = window.snapshot.steps[-1].event
    window.undo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == count - 1, timeout=10_000)
    window._correct([last])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == count, timeout=10_000)
    window.undo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == count - 1, timeout=10_000)
    window.redo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == count, timeout=10_000)
    assert window.match.scores() == sim_scores(sim) and saved(window).match.scores() == window.match.scores()
    assert len(saved(window).steps) == count
    window.close()


def _an_unfinished_match() -> Session:
    """A three-player Horse Race left after nine events, saved."""
    sim = simulate_match("horse-race", 3, seed=2)
    older = Session.create(sim.header)
    for step in sim.events[:9]:
        older.apply(step.event, 0.0)
    older.close()
    return older


def test_the_start_screen_without_a_camera_offers_resume_and_keeps_a_mistaken_form(qtbot, tmp_path: Path) -> None:
    older = _an_unfinished_match()
    dialog = StartDialog(cameras=[], sessions=list_sessions())
    qtbot.addWidget(dialog)
    assert dialog.resume_button is not None and "Ann, Ben, Cid" in dialog.resume_button.text()
    assert dialog.source.currentData() == "hand"  # no camera: scored by hand, unless a recording or a URL is given
    dialog.source.setCurrentIndex(dialog.source.findData("file"))
    dialog.show()
    dialog.players.setText("Ann")  # one player: no game is played so
    dialog.location.setText(str(tmp_path))
    dialog._start_new()
    assert dialog.isVisible() and dialog.choice is None
    assert "2" in dialog.problem.text() and "border" in dialog.players.styleSheet()
    assert dialog.players.text() == "Ann"  # what was typed is kept
    dialog.players.setText("Ann, Ben")
    dialog.starter.setText("Cid")
    dialog._start_new()
    assert dialog.choice is None and "border" in dialog.starter.styleSheet()
    dialog.starter.setText("Ben")
    dialog._start_new()
    assert isinstance(dialog.choice, NewMatch) and dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.choice.header.players == ("Ann", "Ben") and dialog.choice.starter == "Ben"
    again = StartDialog(cameras=[0], sessions=list_sessions())
    qtbot.addWidget(again)
    # The last new match's source is offered again: the recording, where it was.
    assert again.source.currentData() == "file" and again.location.text() == str(tmp_path)
    again.resume_button.click()
    assert isinstance(again.choice, Resume) and again.choice.path == older.path
    demo = StartDialog(cameras=[], sessions=[])
    qtbot.addWidget(demo)
    assert demo.resume_button is None
    demo._demo()
    assert isinstance(demo.choice, DemoMatch)


def test_enter_in_the_new_match_form_starts_that_match_not_the_saved_one(qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QPushButton

    _an_unfinished_match()
    dialog = StartDialog(cameras=[], sessions=list_sessions())
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.resume_button is not None  # (offered first, and first in the focus chain)
    dialog.players.setFocus()
    dialog.players.setText("Ann, Ben")
    qtbot.keyClick(dialog.players, Qt.Key.Key_Return)
    assert isinstance(dialog.choice, NewMatch) and dialog.choice.header.players == ("Ann", "Ben")
    # Enter on the saved match's button (tabbed to) resumes it; no other helper button is Enter's.
    again = StartDialog(cameras=[], sessions=list_sessions())
    qtbot.addWidget(again)
    again.show()
    assert again.focusWidget() is again.players
    assert [b for b in again.findChildren(QPushButton) if b.autoDefault()] == [again.resume_button, again.start_button]
    # Tabbed to the resume button and back to the form, Enter starts the match typed again.
    again.activateWindow()
    qtbot.waitUntil(again.isActiveWindow)
    qtbot.keyClick(again.players, Qt.Key.Key_Backtab)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is again.resume_button and again.resume_button.isDefault()
    qtbot.keyClick(again.resume_button, Qt.Key.Key_Tab)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is again.players and again.start_button.isDefault()
    again.resume_button.setFocus()
    qtbot.keyClick(again.resume_button, Qt.Key.Key_Return)
    assert isinstance(again.choice, Resume)
    # That match was scored by hand for want of a camera: a camera found next time is offered first.
    assert dialog.choice.header.source.kind == "hand"
    assert StartDialog(cameras=[0], sessions=[]).source.currentData() == 0


def test_a_table_with_a_club_database_writes_each_move_to_the_board(qtbot, tmp_path: Path) -> None:
    from scorer.club import LiveTable, open_database
    from scorer.club.board import BoardData

    sim = simulate_match("horse-race", 2, seed=7)
    session = Session.create(sim.header, tmp_path)
    for step in sim.events[:5]:
        session.apply(step.event, 0.0)
    window = make_window(tmp_path, sim.header, StillCamera(), NoDetector(), session=session)
    qtbot.addWidget(window)
    target = str(tmp_path / "club.db")
    window.attach_club(LiveTable(target, "Table 3", on_status=window.club_status.emit))
    window.start()
    window._correct([sim.events[5].event])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 6, timeout=10_000)

    def on_board():
        tables = BoardData(open_database(target)).tables()["tables"]
        return tables[0] if tables else None

    qtbot.waitUntil(lambda: on_board() is not None and on_board()["match"]["lines"] == 7, timeout=20_000)
    table = on_board()
    assert table["table"] == "Table 3" and table["match"]["status"] == "playing"
    scores = {s["name"]: s["score"] for s in table["match"]["sides"]}
    assert scores == sim.events[5].after.scores()
    window.close()


def test_with_no_camera_a_match_is_scored_by_hand_and_resumed_so(qtbot, tmp_path: Path) -> None:
    from scorer.app.corrections import TilePicker
    from scorer.app.settings import Settings
    from scorer.app.start import open_choice
    from scorer.rules import Play, RoundStart, Tile
    from scorer.rules.log import MatchSource

    dialog = StartDialog(Settings(), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    dialog.players.setText("Ann, Ben")
    dialog._start_new()
    assert isinstance(dialog.choice, NewMatch) and dialog.choice.header.source == MatchSource("hand")
    window = open_choice(dialog.choice, "en", Settings(voice=False))
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10000)
    assert window.live.status == "hand" and "No camera" in window.statusBar().currentMessage()
    picker = TilePicker(window, window.match)  # between rounds: the play opens the round
    qtbot.addWidget(picker)
    picker.tile_buttons[Tile(5, 5)].click()
    picker.end_buttons[0].click()
    assert picker.events == [RoundStart("Ann"), Play("Ann", Tile(5, 5))]
    window._correct(picker.events)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 2, timeout=10000)
    assert window.match.scores() == {"Ann": 2, "Ben": 0} and "two points" in window.last_announcement
    # The club's board follows with the settings as they come: this computer's own club file, ``club serve``'s.
    from scorer.club import open_database
    from scorer.club.board import BoardData

    def on_board(target=None):
        tables = BoardData(open_database(target)).tables()["tables"]
        return tables[0] if tables else None

    qtbot.waitUntil(lambda: on_board() is not None and on_board()["match"]["lines"] == 3, timeout=20_000)
    other = str(tmp_path / "other.db")  # the settings changed during the match: the new board at once
    window.use_club(Settings(club_db=other, table="Table 2"))
    qtbot.waitUntil(lambda: on_board(other) is not None and on_board(other)["table"] == "Table 2", timeout=20_000)
    path = window.session.path
    window.close()
    again = StartDialog(cameras=[], sessions=list_sessions())
    qtbot.addWidget(again)
    assert again.players.text() == "Ann, Ben"  # the last new match's table offered again
    again.resume_button.click()
    resumed = open_choice(again.choice, "en", Settings(voice=False))
    qtbot.addWidget(resumed)
    assert resumed.session.path == path and resumed.by_hand and len(resumed.snapshot.steps) == 2
    resumed.close()


def test_a_recording_picked_in_the_source_list_opens_the_file_picker(qtbot, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    video = tmp_path / "evening.mp4"
    video.write_bytes(b"")
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a) or (str(video), ""))
    dialog = StartDialog(cameras=[0], sessions=[])
    qtbot.addWidget(dialog)
    dialog.show()
    source = dialog.source

    def pick(data) -> None:
        """The item picked from the open list, as a click in it does."""
        source.showPopup()
        source.view().setCurrentIndex(source.model().index(source.findData(data), 0))
        qtbot.keyClick(source.view(), Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: not source.view().isVisible())

    # Stepped past with the keys (the items: camera 0, the recording, the network camera, no camera): no picker.
    source.setCurrentIndex(source.findData("hand"))
    qtbot.keyClick(source, Qt.Key.Key_Up)
    qtbot.keyClick(source, Qt.Key.Key_Up)
    qtbot.keyClick(source, Qt.Key.Key_Up)
    assert source.currentData() == 0 and not asked
    pick("file")
    assert source.currentData() == "file" and len(asked) == 1 and dialog.location.text() == str(video)
    pick("url")  # the network camera: its address is typed, no picker
    assert source.currentData() == "url" and len(asked) == 1
    pick("file")  # back to the recording, already given: no picker again
    assert source.currentData() == "file" and len(asked) == 1
    dialog.location.clear()
    source.setCurrentIndex(source.findData("hand"))
    source.setCurrentIndex(source.findData("file"))  # set by the program: no picker
    qtbot.wait(10)
    qtbot.keyClick(source, Qt.Key.Key_Down)
    qtbot.keyClick(source, Qt.Key.Key_Up)  # stepped back to it by key, some time after the list closed: no picker
    assert source.currentData() == "file" and len(asked) == 1


def test_about_tells_the_version_and_where_the_match_is_kept(qtbot, tmp_path: Path, monkeypatch) -> None:
    from importlib import metadata

    from scorer.app import window_menus

    sim = simulate_match("horse-race", 2, seed=1)
    window = make_window(tmp_path, sim.header, StillCamera(), NoDetector())
    qtbot.addWidget(window)
    told: list[str] = []
    monkeypatch.setattr(window_menus.QMessageBox, "about", lambda _parent, _title, text: told.append(text))
    window._show_about()
    assert told[0].startswith(f"Domino table scorer {metadata.version('domino-table-scorer')}\n")
    assert str(window.session.path) in told[0]


def test_replays_of_a_video_are_told_apart_by_it_on_the_start_screen(qtbot) -> None:
    from dataclasses import replace

    from scorer.rules.log import MatchSource

    sim = simulate_match("horse-race", 3, seed=2)
    for name in ("tuesday.mp4", "friday.mp4"):
        session = Session.create(replace(sim.header, source=MatchSource("video", f"/films/{name}", 2)))
        for step in sim.events[:9]:
            session.apply(step.event, 0.0)
        session.close()
    dialog = StartDialog(cameras=[], sessions=list_sessions())
    qtbot.addWidget(dialog)
    shown = [dialog.newest_label.text()] + [dialog.others.itemText(i) for i in range(dialog.others.count())]
    assert sorted(n for text in shown for n in ("tuesday.mp4", "friday.mp4") if f"Horse Race · {n}:" in text) == [
        "friday.mp4", "tuesday.mp4"]


def test_a_match_open_elsewhere_is_refused_in_the_players_language(tmp_path: Path) -> None:
    import pytest

    from scorer.app.wording import refusal_text
    from scorer.sessions import SessionError

    first = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    try:
        with pytest.raises(SessionError) as refused:
            Session.open(first.path)
    finally:
        first.close()
    assert "tämä ottelu on jo auki toisessa ikkunassa" in refusal_text(refused.value, "fi")
    assert "this match is open in another window" in refusal_text(refused.value, "en")


def test_a_file_typed_as_a_network_camera_is_played_as_a_video(qtbot, tmp_path: Path) -> None:
    """A camera never plays a file (it would loop it): a path typed in the URL field is read as a recording."""
    video = tmp_path / "evening.mp4"
    video.write_bytes(b"x")
    dialog = StartDialog(cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    dialog.source.setCurrentIndex(dialog.source.findData("url"))
    dialog.location.setText(str(video))
    assert dialog.source_spec().kind == "video"
    dialog.location.setText("rtsp://192.168.1.20:8554/table")
    assert dialog.source_spec().kind == "url"
