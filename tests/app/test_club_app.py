"""The club in the app: tonight's matches, the standings, a player's page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from scorer.app.club import ClubWindow, evening, results_over_time
from scorer.club import import_log, open_database
from scorer.rules.log import dumps, event_to_json, header_to_json
from scorer.rules.simulate import simulate_match


def test_the_club_window_shows_the_evening_and_standings(qtbot, tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "club.db"))
    tonight = dt.datetime(2026, 11, 30, 19, 0)
    for seed, table in ((1, "table 1"), (2, "table 2"), (3, "table 1")):
        sim = simulate_match("horse-race", 2, seed=seed)
        text = "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events])
        import_log(engine, text, played_at=tonight + dt.timedelta(minutes=40 * seed), table_name=table)
    assert len(evening(engine, tonight.date())) == 3
    assert evening(engine, dt.date(2026, 12, 1)) == []
    # Past midnight is still the evening begun before it (from 06:00 to 06:00, as the club's board counts it).
    late = simulate_match("horse-race", 2, seed=4)
    text = "\n".join([dumps(header_to_json(late.header))] + [dumps(event_to_json(s.event)) for s in late.events])
    import_log(engine, text, played_at=dt.datetime(2026, 12, 1, 1, 30), table_name="table 3")
    assert len(evening(engine, tonight.date())) == 4 and evening(engine, dt.date(2026, 12, 1)) == []
    window = ClubWindow(engine, tonight.date())
    qtbot.addWidget(window)
    assert window.evening_list.count() == 4 and "table 2" in window.evening_list.item(1).text()
    assert window.table.rowCount() == 2
    window.player.setCurrentText("Ben")
    history = results_over_time(engine, "Ben")
    assert len(history) == 4 and window.summary.text().startswith("Ben: 4 matches of Horse Race")
    assert [h[0] for h in history] == sorted(h[0] for h in history)



def test_tonight_lists_a_partnership_match_by_its_pairs(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "club.db"))
    tonight = dt.datetime(2026, 11, 30, 19, 0)
    sim = simulate_match("seven-rocks", 4, partnership=True, seed=1)
    text = "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events])
    import_log(engine, text, played_at=tonight, table_name="table 1")
    ((_, _, said, finished),) = evening(engine, tonight.date())
    scores = sim.events[-1].after.scores()
    a, b, c, d = sim.header.players
    assert finished and said.replace(" (won)", "") == f"{a} & {c} {scores[a]}, {b} & {d} {scores[b]}"

def test_an_evening_with_no_match_says_so_and_the_window_closes_with_escape(qtbot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeySequence, QShortcut

    engine = open_database(str(tmp_path / "club.db"))
    window = ClubWindow(engine, dt.date(2026, 12, 4))
    qtbot.addWidget(window)
    window.show()
    assert window.evening_list.count() == 1
    assert window.evening_list.item(0).text() == "No match in the club's history today yet."
    assert not window.evening_list.item(0).flags() & Qt.ItemFlag.ItemIsSelectable
    escape = [k for k in window.findChildren(QShortcut) if k.key() == QKeySequence(Qt.Key.Key_Escape)]
    assert len(escape) == 1
    escape[0].activated.emit()
    assert not window.isVisible()


def test_the_main_window_s_club_window_reads_the_club_database_the_settings_name(qtbot, tmp_path: Path) -> None:
    from scorer.app.settings import Settings
    from scorer.app.start import open_window
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session

    club_db = tmp_path / "club" / "tonight.db"
    club_db.parent.mkdir()
    sim = simulate_match("horse-race", 2, seed=1)
    text = "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events])
    import_log(open_database(str(club_db)), text, table_name="table 1")
    header = MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("hand"))
    window = open_window(Session.create(header, tmp_path / "sessions"), None, "en",
                         Settings(voice=False, club_db=str(club_db), table="table 2"))
    qtbot.addWidget(window)
    assert window.live_table is not None and window.live_table.flush(10)  # (this table's new match written too)
    window.open_club()
    qtbot.addWidget(window.club_window)
    shown = [window.club_window.evening_list.item(k).text() for k in range(window.club_window.evening_list.count())]
    assert sorted(text.split(":")[0] for text in shown) == ["table 1", "table 2"]
    window.club_window.close()
    window.close()


def test_a_players_page_counts_finished_matches_as_the_standings_do(qtbot, tmp_path: Path) -> None:
    """A match left unfinished has no result: the page said "3 matches, 1 won" where the standings said 1 match."""
    engine = open_database(str(tmp_path / "club.db"))
    tonight = dt.datetime(2026, 11, 30, 19, 0)
    for seed, lines in ((1, None), (2, 12), (3, 8)):
        sim = simulate_match("horse-race", 2, seed=seed, names=("Kim", "Lee"))
        events = [dumps(event_to_json(s.event)) for s in sim.events][:lines]
        import_log(engine, "\n".join([dumps(header_to_json(sim.header)), *events]), played_at=tonight, table_name="T")
    assert len(results_over_time(engine, "Kim")) == 1
    window = ClubWindow(engine, tonight.date())
    qtbot.addWidget(window)
    window.player.setCurrentText("Kim")
    assert window.summary.text() in ("Kim: 1 match of Horse Race, 1 won", "Kim: 1 match of Horse Race, 0 won")


def test_a_club_database_named_that_is_not_there_is_asked_about_before_it_is_saved(qtbot, tmp_path: Path, monkeypatch) -> None:
    """A slip in the name would start an empty club of its own, the board not seeing the table."""
    from PySide6.QtWidgets import QMessageBox

    from scorer.app import settings as settings_module
    from scorer.app.settings import Settings, SettingsDialog

    monkeypatch.setattr(settings_module, "config_dir", lambda: tmp_path)
    there = tmp_path / "club.db"
    open_database(str(there))
    answers: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: answers.append(text) or QMessageBox.StandardButton.No)
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.club_db.setText(str(tmp_path / "clubb.db"))
    dialog._save()
    assert len(answers) == 1 and "clubb.db" in answers[0] and dialog.result() != dialog.DialogCode.Accepted
    dialog.club_db.setText(str(there))  # the name put right: saved, nothing asked
    dialog._save()
    assert len(answers) == 1 and dialog.settings.club_db == str(there)
    # A new club file said yes to is made at once (a board opened on it finds it); one in no folder is refused.
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.Yes)
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: warned.append(text))
    again = SettingsDialog(Settings(club_db=str(there)))
    qtbot.addWidget(again)
    again.club_db.setText(str(tmp_path / "nowhere" / "club.db"))
    again._save()
    assert len(warned) == 1 and "nowhere" in warned[0] and again.settings.club_db == str(there)
    again.club_db.setText(str(tmp_path / "new.db"))
    again._save()
    assert (tmp_path / "new.db").is_file() and again.settings.club_db == str(tmp_path / "new.db")


def test_a_players_page_shows_one_games_matches_on_its_own_scale(qtbot, tmp_path: Path) -> None:
    """Horse Race's points and Seven Rocks' raw points were one chart: now the game chosen over the tabs'."""
    engine = open_database(str(tmp_path / "club.db"))
    for game, seed, names in (("horse-race", 1, ("Ann", "Ben")), ("seven-rocks", 2, ("Ann", "Ben", "Cid", "Dee"))):
        sim = simulate_match(game, len(names), partnership=len(names) == 4, seed=seed, names=names)
        text = "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events])
        import_log(engine, text, played_at=dt.datetime(2026, 11, 30, 19, 0), table_name="T")
    window = ClubWindow(engine, dt.date(2026, 11, 30))
    qtbot.addWidget(window)
    window.player.setCurrentText("Ann")
    assert window.summary.text().startswith("Ann: 1 match of Horse Race") and len(window.chart.data) == 1
    window.game.setCurrentIndex(window.game.findData("seven-rocks"))
    assert window.summary.text().startswith("Ann: 1 match of Seven Rocks") and len(window.chart.data) == 1
    assert len(results_over_time(engine, "Ann")) == 2  # (every game's, where none is named)


def _import(engine, seed: int, names: tuple[str, ...], when: dt.datetime) -> None:
    sim = simulate_match("horse-race", len(names), seed=seed, names=names)
    text = "\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events])
    import_log(engine, text, played_at=when, table_name="table 1")


def test_a_player_page_renames_a_player_and_makes_a_mistyped_name_its_player(qtbot, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtWidgets import QInputDialog, QMessageBox

    engine = open_database(str(tmp_path / "club.db"))
    tonight = dt.datetime(2026, 11, 30, 19, 0)
    for seed, names in ((1, ("Ann", "Ben")), (2, ("Ann", "Bem")), (3, ("Bem", "Cid")), (4, ("Ben", "Cid")),
                         (5, ("Ann", "Cid"))):
        _import(engine, seed, names, tonight + dt.timedelta(minutes=40 * seed))
    window = ClubWindow(engine, tonight.date())
    qtbot.addWidget(window)
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _p, _t, text, *a: asked.append(text) or QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text, *a: asked.append(text))

    window.player.setCurrentText("Cid")
    window.merge_button.click()  # (Cid played with Bem, Bem is Ben: none of the others can be Cid)
    assert asked.pop() == "Cid has played with every other player of the club: Cid is none of them."
    window.player.setCurrentText("Bem")
    offered: list[list[str]] = []
    monkeypatch.setattr(QInputDialog, "getItem", lambda _p, _t, _l, items, *a: offered.append(items) or ("Ben", True))
    window.merge_button.click()
    assert offered == [["Ben"]]  # (Ann and Cid played with Bem: two people)
    assert asked.pop() == ("Bem's 2 matches go to Ben. A table typing Bem scores for Ben from now on. "
                           "“Separate a name…” on Ben's page undoes it.")
    assert window.player.currentText() == "Ben" and window.table.rowCount() == 3  # (Ann, Ben, Cid)
    assert window.summary.text().startswith("Ben: 4 matches of Horse Race, ") and window.summary.text().endswith(" · also typed as Bem")

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("ann", True))
    window.rename_button.click()  # (another player's name, one who played with Ben: another name wanted)
    assert asked.pop() == "ann is already Ann's name, and Ben and Ann played in one match: choose another name."
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("  Benjamin   Ek ", True))
    window.rename_button.click()
    assert window.player.currentText() == "Benjamin Ek" and "also typed as Bem, Ben" in window.summary.text()
    assert [window.player.itemText(i) for i in range(window.player.count())] == ["Ann", "Benjamin Ek", "Cid"]

    offered.clear()
    monkeypatch.setattr(QInputDialog, "getItem", lambda _p, _t, _l, items, *a: offered.append(items) or ("Bem", True))
    window.separate_button.click()  # (Bem was someone else after all: the merge undone, as the logs typed it)
    assert offered == [["Bem", "Ben"]] and asked.pop() == ("2 matches typed Bem go from Benjamin Ek to a player Bem. "
                                                          "A table typing Bem plays as Bem from now on.")
    assert window.player.currentText() == "Bem" and window.summary.text().startswith("Bem: 2 matches of Horse Race")
    assert not window.separate_button.isEnabled()
    window.player.setCurrentText("Benjamin Ek")
    assert window.summary.text().endswith(" · also typed as Ben")

    from scorer.club import merge_players

    merge_players(engine, "Bem", "Benjamin Ek")  # (meanwhile, elsewhere: the page shown is out of date)
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a: warned.append(text))
    window.player.setCurrentText("Bem")
    window.merge_button.click()
    assert warned == ["'Bem' is another name of 'Benjamin Ek' (merged or renamed): name the player as 'Benjamin Ek'"]
    assert window.player.findText("Bem") < 0  # (the window refreshed)
