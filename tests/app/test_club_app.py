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
    window = ClubWindow(engine, tonight.date())
    qtbot.addWidget(window)
    assert window.evening_list.count() == 3 and "table 2" in window.evening_list.item(1).text()
    assert window.table.rowCount() == 2
    window.player.setCurrentText("Ben")
    history = results_over_time(engine, "Ben")
    assert len(history) == 3 and window.summary.text().startswith("Ben: 3 matches")
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
    window.open_club()
    qtbot.addWidget(window.club_window)
    assert window.club_window.evening_list.count() == 1 and "table 1" in window.club_window.evening_list.item(0).text()
    window.club_window.close()
    window.close()
