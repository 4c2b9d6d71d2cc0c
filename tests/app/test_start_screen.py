"""The start screen's new-match form: names that are one name refused, and a message that follows the choices."""

from __future__ import annotations

from pathlib import Path

from scorer.app.settings import Settings
from scorer.app.start import NewMatch, StartDialog
from scorer.app.start_form import same_names

RED = "border: 2px solid #b00020"


def form(qtbot, players: str = "Ann, Ben") -> StartDialog:
    dialog = StartDialog(Settings(players=players), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    return dialog


def test_names_the_same_but_for_case_and_spaces_are_one_player_refused(qtbot) -> None:
    assert same_names(("Ann", "Ben", " ann ".strip())) == ("Ann", "ann")
    assert same_names(("Ann", "Ben", "Anna")) is None
    dialog = form(qtbot)
    dialog.players.setText("Ann,  ann ")
    dialog._start_new()
    assert dialog.choice is None and dialog.players.styleSheet() == RED
    assert dialog.problem.text() == "Each player needs a name of their own: Ann and ann are the same name."
    dialog.players.setText("Ann, ÅSA, Ben, åsa")  # (any script's case)
    assert "ÅSA and åsa" in dialog.problem.text()
    dialog.players.setText("Ann, Anna")
    assert dialog.problem.text() == ""
    dialog._start_new()
    assert isinstance(dialog.choice, NewMatch) and dialog.choice.header.players == ("Ann", "Anna")


def test_the_message_follows_the_game_the_players_and_the_pairs(qtbot) -> None:
    dialog = form(qtbot)
    dialog.game.setCurrentIndex(dialog.game.findData("seven-rocks"))
    assert dialog.partnership.isChecked()  # (Seven Rocks is played in pairs only)
    assert dialog.problem.text() == ""  # (told by Start, not as the form is being filled)
    dialog.players.setText("Ann, Ben, Cid")
    assert dialog.problem.text() == ""
    dialog._start_new()
    assert dialog.problem.text().startswith("Seven Rocks is played by exactly 4 players")
    dialog.players.setText("Ann, Ben")  # (told, it follows the choices)
    assert dialog.problem.text().startswith("Seven Rocks is played by exactly 4 players")
    assert dialog.players.styleSheet() == RED
    # Back to Horse Race: the pairs box as it was, the two players fine again, the message gone.
    dialog.game.setCurrentIndex(dialog.game.findData("horse-race"))
    assert not dialog.partnership.isChecked()
    assert dialog.problem.text() == "" and dialog.players.styleSheet() == ""
    dialog.partnership.setChecked(True)
    dialog._start_new()
    assert dialog.problem.text().startswith("Horse Race partnerships need 4 players")
    dialog.players.setText("Ann, Ben, Cid, Dee")
    assert dialog.problem.text() == ""
    dialog.players.setText("Ann")
    dialog.partnership.setChecked(False)
    assert dialog.problem.text() == ""
    dialog._start_new()
    assert dialog.problem.text() == "Horse Race is played by 2, 3 or 4 players, found 1."
    dialog.game.setCurrentIndex(dialog.game.findData("seven-rocks"))
    dialog.players.setText("Ann, Ben, Cid, Dee")
    dialog.partnership.setChecked(False)
    dialog._start_new()
    assert dialog.problem.text() == "Seven Rocks is played in two partnerships, not each player on their own."


def test_a_starters_or_a_sources_problem_is_told_by_start_and_taken_back_once_mended(qtbot, tmp_path: Path) -> None:
    dialog = form(qtbot)
    dialog.starter.setText("Ci")  # typed, not yet started: no message at each letter
    assert dialog.problem.text() == ""
    dialog.starter.setText("Cid")
    dialog._start_new()
    assert "Cid is not one of the players" in dialog.problem.text() and dialog.starter.styleSheet() == RED
    dialog.players.setText("Ann, Ben, cid")
    assert dialog.problem.text() == "" and dialog.starter.styleSheet() == ""
    # A source's problem holds whatever the table.
    dialog.source.setCurrentIndex(dialog.source.findData("file"))
    dialog.location.setText(str(tmp_path / "nonesuch.mp4"))
    dialog._start_new()
    assert "no such file or folder" in dialog.problem.text() and dialog.location.styleSheet() == RED
    dialog.players.setText("Ann, Ben")
    assert "no such file or folder" in dialog.problem.text()


def test_the_match_played_last_is_offered_first_a_damaged_one_too_and_a_new_match_for_its_table_asks(
        qtbot, tmp_path: Path, monkeypatch) -> None:
    import os

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from scorer.app import start_screen
    from scorer.app.start import Resume
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.rules.simulate import simulate_match
    from scorer.sessions import Session, list_sessions

    def played(names: tuple[str, ...], events: int) -> Path:
        sim = simulate_match("horse-race", 2, seed=5, names=names)
        session = Session.create(MatchHeader("horse-race", names, False, source=MatchSource("hand")), tmp_path)
        for step in sim.events[:events]:
            session.apply(step.event)
        session.close()
        return session.path

    ann_ben = played(("Ann", "Ben"), 12)
    damaged = played(("Cid", "Dee"), 8)
    with damaged.open("ab") as f:
        f.write(b'{"type": "play", "player"')  # (torn by a power cut)
    played(("Ann", "Ben"), 0)  # (started later by a slip of Enter: no move in it)
    demo = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("demo")), tmp_path)
    demo.apply(simulate_match("horse-race", 2, seed=5).events[0].event)  # (a demo watched a while: played again, not resumed)
    demo.close()
    os.utime(ann_ben)  # (then the real match played on: written last)
    dialog = StartDialog(Settings(players="Ann, Ben"), cameras=[], sessions=list_sessions(tmp_path))
    qtbot.addWidget(dialog)
    assert [s.path for s in dialog.unfinished[:2]] == [ann_ben, damaged] and dialog.unfinished[2].events == 0
    assert len(dialog.unfinished) == 3
    assert "its damaged end is cut off, and kept aside, when resumed" in dialog.others.itemText(0)
    asked = []
    monkeypatch.setattr(start_screen, "resume_instead", lambda parent, summary: asked.append(summary.path))
    dialog._start_new()  # (closed unanswered: neither)
    assert asked == [ann_ben] and dialog.choice is None
    monkeypatch.setattr(start_screen, "resume_instead", lambda parent, summary: False)
    dialog._start_new()
    assert isinstance(dialog.choice, NewMatch)
    monkeypatch.undo()
    dialog.choice = None

    def click_resume() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox) and "This table's match is unfinished" in box.text()
        next(b for b in box.buttons() if b.text() == "Resume it").click()

    QTimer.singleShot(0, click_resume)
    dialog._start_new()
    assert dialog.choice == Resume(ann_ben)
    dialog.choice = None
    told = []

    def answer(button: QMessageBox.StandardButton) -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        told.append(box.text())
        box.button(button).click()

    QTimer.singleShot(0, lambda: answer(QMessageBox.StandardButton.No))
    dialog.other_button.click()  # (the damaged one, first of the others)
    assert dialog.choice is None and told[0].startswith(
        "Line 10 of this match's file cannot be read. Resuming keeps the 8 events before it;")
    QTimer.singleShot(0, lambda: answer(QMessageBox.StandardButton.Yes))
    dialog.other_button.click()
    assert dialog.choice == Resume(damaged)


def test_the_start_screen_offers_the_clubs_names_and_makes_no_club_file(qtbot, tmp_path: Path) -> None:
    """The names typed are completed from the club file the settings name, only read: the screen made this computer's
    own empty club file at every start, though the settings named the club's shared one."""
    import os

    from scorer.club import import_log, open_database
    from scorer.rules.log import dumps, event_to_json, header_to_json
    from scorer.rules.simulate import simulate_match

    own = Path(os.environ["XDG_DATA_HOME"]) / "domino-scorer" / "club.db"
    shared = tmp_path / "club.db"
    sim = simulate_match("horse-race", 2, seed=1, names=("Kirsi", "Lauri"))
    import_log(open_database(str(shared)), "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(e.event)) for e in sim.events]))
    dialog = StartDialog(Settings(players="Ann, Ben", club_db=str(shared)), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    completer = dialog.players.completer()
    assert completer is not None and {"Kirsi", "Lauri"} <= set(completer.model().stringList())
    assert not own.exists()
    missing = StartDialog(Settings(players="Ann, Ben", club_db=str(tmp_path / "clubb.db")), cameras=[], sessions=[])
    qtbot.addWidget(missing)
    assert missing.players.completer() is None and not (tmp_path / "clubb.db").exists() and not own.exists()


def test_the_start_screen_opens_the_club_window_on_the_club_the_settings_name(qtbot, tmp_path: Path) -> None:
    from scorer.club import import_log, open_database
    from scorer.rules.log import dumps, event_to_json, header_to_json
    from scorer.rules.simulate import simulate_match

    shared = tmp_path / "club.db"
    sim = simulate_match("horse-race", 2, seed=1, names=("Kirsi", "Lauri"))
    import_log(open_database(str(shared)), "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(e.event)) for e in sim.events]))
    dialog = StartDialog(Settings(players="Ann, Ben", club_db=str(shared)), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    dialog.club_button.click()
    window = dialog.club_window
    assert window is not None and window.isVisible() and window.table.rowCount() == 2
    assert [window.player.itemText(i) for i in range(window.player.count())] == ["Kirsi", "Lauri"]
    window.close()


def test_the_start_screen_s_club_makes_no_club_file(qtbot, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text, *a: told.append(text))
    dialog = StartDialog(Settings(players="Ann, Ben", club_db=str(tmp_path / "clubb.db")), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    dialog.club_button.click()
    assert dialog.club_window is None and not (tmp_path / "clubb.db").exists()
    assert told == [f"No club file yet: {tmp_path / 'clubb.db'}. It is made when the first match is saved into the club."]
