"""The session store: a file per match, never overwritten, recovered after a torn write, read back always."""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.rules.log import MatchHeader, dumps, header_to_json
from scorer.rules.simulate import simulate_match
from scorer.sessions import (
    Session,
    SessionError,
    find_session,
    list_sessions,
    read_session,
    repair,
    sessions_dir,
)

GOLDEN = Path(__file__).parent / "golden"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def played(game: str = "horse-race", players: int = 2, seed: int = 3, names=None, folder: Path | None = None,
           events: int | None = None, now: datetime | None = None) -> Session:
    sim = simulate_match(game, players, players == 4 and game == "seven-rocks", seed=seed,
                         **({"names": names} if names else {}))
    session = Session.create(sim.header, folder, now)
    for k, step in enumerate(sim.events[:events]):
        session.apply(step.event, 1.0 + k)
    return session


def test_each_match_is_its_own_named_file_and_a_new_one_never_touches_an_old_one(tmp_path: Path) -> None:
    first = played(folder=tmp_path, events=30)
    first.close()
    before = first.path.read_bytes()
    when = datetime(2026, 12, 3, 20, 15, tzinfo=timezone.utc)
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    a = Session.create(header, tmp_path, now=when)
    b = Session.create(header, tmp_path, now=when)  # the same second, the same players
    assert a.path != b.path and a.path.name == "2026-12-03_201500_horse-race_Ann-Ben.jsonl"
    assert a.header.id != b.header.id and a.header.started == "2026-12-03T20:15:00+00:00"
    assert first.path.read_bytes() == before
    assert {s.path for s in list_sessions(tmp_path)} == {first.path, a.path, b.path}


def test_one_writer_per_match(tmp_path: Path) -> None:
    session = played(folder=tmp_path, events=5)
    with pytest.raises(SessionError, match="open in another window"):
        Session.open(session.path)
    with session.path.open("ab") as f:  # (as if the window holding it were writing a line right now)
        f.write(b'{"type": "pl')
    with pytest.raises(SessionError, match="open in another window"):
        Session.open(session.path)  # (refused before any mending: the line being written is not cut)
    assert session.path.read_bytes().endswith(b'{"type": "pl')
    session.path.write_bytes(session.path.read_bytes()[: -len(b'{"type": "pl')])  # (the stand-in's line taken back)
    session.close()
    again, damage = Session.open(session.path)
    assert damage is None and len(again.steps) == 5
    again.close()


def test_undo_and_redo_are_lines_of_the_log_and_survive_a_restart(tmp_path: Path) -> None:
    session = played(folder=tmp_path, events=12)
    kept = session.steps
    session.undo(20.0)
    session.undo(21.0)
    assert len(session.steps) == 10 and [s.event for s in session.undone] == [s.event for s in kept[10:]]
    session.close()
    lines = session.path.read_text().split("\n")
    assert json.loads(lines[-2]) == {"type": "undo", "line": kept[10].line, "t": 21.0}
    again, _ = Session.open(session.path)
    assert again.steps == kept[:10] and [s.event for s in again.undone] == [s.event for s in kept[10:]]
    again.redo(22.0)
    assert [s.event for s in again.steps] == [s.event for s in kept[:11]] and len(again.undone) == 1
    again.rewind(3, 23.0)  # scoring again from an earlier point: one line, the tail kept to redo
    assert len(again.steps) == 3 and len(again.undone) == 9
    again.close()
    # `score` gives the events in force.
    code, out, err = run("score", str(again.path), "--json")
    assert code == 0 and len(out.strip().split("\n")) == 3, err


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_a_torn_tail_is_cut_and_every_complete_event_resumes(tmp_path_factory, data) -> None:
    folder = tmp_path_factory.mktemp("torn")
    session = played(folder=folder, seed=data.draw(st.integers(0, 50)), events=data.draw(st.integers(3, 40)))
    session.close()
    whole = session.path.read_bytes()
    ends = [i for i, b in enumerate(whole) if b == ord("\n")]
    cut = data.draw(st.integers(ends[-4] + 1, len(whole) - 1))  # somewhere in the last three lines
    session.path.write_bytes(whole[:cut])
    complete = sum(1 for e in ends if e <= cut)  # lines whose every byte but perhaps the line end is there
    torn_from = max(e + 1 for e in ends if e < cut)
    resumed, damage = Session.open(session.path)
    assert [s.event for s in resumed.steps] == [s.event for s in session.steps[: complete - 1]]
    if cut in ends or cut == torn_from:
        assert damage is None
    else:
        assert damage is not None and damage.kept_in.read_bytes() == whole[torn_from:cut]
    assert resumed.path.read_bytes() == whole[: ends[complete - 1] + 1]
    if complete - 1 < len(session.steps):
        resumed.apply(session.steps[complete - 1].event, 99.0)  # and play goes on
    resumed.close()


def test_a_damaged_line_in_the_middle_resumes_up_to_it_and_says_so(tmp_path: Path) -> None:
    session = played(folder=tmp_path, events=20)
    session.close()
    lines = session.path.read_bytes().split(b"\n")
    lines[8] = b'{"type": "play", "player": "Ann", "til'  # a sector lost mid-file
    session.path.write_bytes(b"\n".join(lines))
    summary = list_sessions(tmp_path)[0]
    assert summary.state == "damaged" and summary.problem.startswith("line 9:")
    resumed, damage = Session.open(session.path)
    assert damage is not None and damage.line == 9 and damage.events_kept == 7
    assert "line 9 could not be read" in damage.describe() and damage.kept_in.name.endswith(".damaged")
    assert damage.kept_in.read_bytes().startswith(b'{"type": "play", "player": "Ann", "til')
    assert [s.event for s in resumed.steps] == [s.event for s in session.steps[:7]]
    resumed.close()
    assert list_sessions(tmp_path)[0].state == "recovered"


def test_repair_says_what_it_cut(tmp_path: Path) -> None:
    session = played(folder=tmp_path, events=10)
    session.close()
    with open(session.path, "ab") as f:
        f.write(b'{"type": "dra')
    code, out, _ = run("sessions", "--dir", str(tmp_path), "repair", str(session.path))
    assert code == 0 and "line 12 could not be read" in out and "13 bytes" in out
    code, out, _ = run("sessions", "--dir", str(tmp_path), "repair", str(session.path))
    assert code == 0 and "nothing to repair" in out


LINE_ENDS = ["\u2028", "\u2029", "\x85", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("end", LINE_ENDS, ids=[f"U+{ord(c):04X}" for c in LINE_ENDS])
def test_names_holding_line_ends_are_written_and_read_back(tmp_path: Path, end: str) -> None:
    names = [f"Jo{end}e", "Ben"]
    session = played(names=names, folder=tmp_path)
    session.close()
    text = session.path.read_text(encoding="utf-8")
    assert len(text.splitlines()) == len(text.split("\n")) - 1  # no reader sees a line end inside a line
    assert read_session(session.path).log.match.scores() == session.match.scores()
    code, out, err = run("score", str(session.path), "--json")
    assert code == 0, err
    assert json.loads(out.strip().split("\n")[-1])["scores"] == session.match.scores()


def test_simulate_then_score_with_a_line_separator_in_a_name(tmp_path: Path) -> None:
    code, out, _ = run("simulate", "--names", "Jo\u2028e,Ben", "--seed", "3")
    assert code == 0
    path = tmp_path / "x.jsonl"
    path.write_text(out, encoding="utf-8")
    code, out, err = run("score", str(path))
    assert code == 0, err


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=12).filter(lambda n: n.strip() == n and n), min_size=2, max_size=4,
                      unique=True), seed=st.integers(0, 10_000))
def test_any_unicode_names_score_the_same_after_writing_and_reading_back(tmp_path_factory, names, seed) -> None:
    sim = simulate_match("horse-race", len(names), False, seed=seed, names=names)
    text = "".join(dumps(d) + "\n" for d in [header_to_json(sim.header)] + [
        __import__("scorer.rules.log", fromlist=["event_to_json"]).event_to_json(s.event) for s in sim.events])
    path = tmp_path_factory.mktemp("names") / "m.jsonl"
    path.write_bytes(text.encode("utf-8"))
    log = read_session(path).log
    assert log.error is None and log.match.scores() == sim.events[-1].after.scores()


BAD_LINES = {
    "deep nesting": '{"type": "pass", "player": "Ann", "comment": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "a 5,000-digit count": '{"type": "draw", "player": "Ann", "count": ' + "9" * 5000 + "}",
    "side as a list": '{"type": "play", "player": "Ann", "tile": [1, 4], "side": []}',
    "t as text": '{"type": "round", "starter": "Ann", "t": "soon"}',
    "comment as a number": '{"type": "round", "starter": "Ann", "comment": 5}',
    "hands as a list": '{"type": "reveal", "hands": [1, 2]}',
    "undo of nothing": '{"type": "undo", "line": 7}',
}


@pytest.mark.parametrize("name", list(BAD_LINES))
def test_a_bad_line_is_a_clean_error_with_its_line(tmp_path: Path, name: str) -> None:
    header = json.dumps({"type": "match", "game": "horse-race", "players": ["Ann", "Ben"], "partnership": False})
    path = tmp_path / "bad.jsonl"
    path.write_text(header + "\n" + BAD_LINES[name] + "\n", encoding="utf-8")
    code, _, err = run("score", str(path))
    assert code == 2 and err.startswith(f"{path}:2: ") and "Traceback" not in err
    assert len(err) < 400


@pytest.mark.parametrize("raw, message", [
    (b"\xef\xbb\xbf", "byte-order mark"),
    (b'{"type": "round", "starter": "Ann\xff"}', "not valid UTF-8"),
])
def test_a_bom_or_invalid_utf8_is_named_with_its_line(tmp_path: Path, raw: bytes, message: str) -> None:
    header = json.dumps({"type": "match", "game": "horse-race", "players": ["Ann", "Ben"], "partnership": False})
    path = tmp_path / "bad.jsonl"
    line = raw + header.encode() if raw.startswith(b"\xef") else header.encode() + b"\n" + raw
    path.write_bytes(line + b"\n")
    code, _, err = run("score", str(path))
    number = 1 if raw.startswith(b"\xef") else 2
    assert code == 2 and err.startswith(f"{path}:{number}: ") and message in err


def test_the_sessions_command_lists_shows_and_finds(tmp_path: Path) -> None:
    older = played(folder=sessions_dir(), seed=4, now=datetime(2026, 11, 1, 19, 0).astimezone())  # played out
    older.close()
    newer = played(folder=sessions_dir(), events=15, seed=5, names=["Åsa", "Ben"])
    newer.close()
    code, out, _ = run("sessions")
    assert code == 0
    rows = [line for line in out.split("\n") if line[:3].strip().isdigit()]
    assert len(rows) == 2 and "playing" in rows[0] and "Åsa" in rows[0] and "finished" in rows[1]
    code, out, _ = run("sessions", "--json")
    states = [json.loads(line)["state"] for line in out.strip().split("\n")]
    assert states == ["playing", "finished"]
    assert find_session("1") == newer.path and find_session(newer.header.id[:10]) == newer.path
    code, out, _ = run("sessions", "show", "2")
    assert code == 0 and "Match over" in out
    code, _, err = run("sessions", "show", "nonesuch")
    assert code == 2 and "no saved match" in err
    # A folder of its own named before the command or after it.
    elsewhere = played(folder=tmp_path / "elsewhere", seed=6)
    elsewhere.close()
    before = run("sessions", "--dir", str(tmp_path / "elsewhere"), "show", "1")
    after = run("sessions", "show", "1", "--dir", str(tmp_path / "elsewhere"))
    assert before == after and before[0] == 0 and before[1] != run("sessions", "show", "1")[1]


def test_the_sessions_list_marks_the_demo_and_keeps_its_columns_aligned() -> None:
    from scorer.rules.log import MatchSource

    played("seven-rocks", 4, seed=6, folder=sessions_dir(), events=10,
           now=datetime(2026, 11, 1, 19, 0).astimezone()).close()
    demo = MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("demo", "", 1))  # as the app's demo
    Session.create(demo, now=datetime(2026, 11, 2, 19, 0).astimezone()).close()
    played(folder=sessions_dir(), seed=4, now=datetime(2026, 11, 3, 19, 0).astimezone()).close()
    code, out, _ = run("sessions")
    rows = [line for line in out.split("\n") if line[:3].strip().isdigit()]
    assert code == 0 and len(rows) == 3
    assert "horse-race (the demo)  playing" in rows[1] and "(the demo)" not in rows[0] + rows[2]
    assert "seven-rocks" in rows[2] and "seven-rocks  " in rows[2]
    # Each column starts where its head does in every row: the state; the count of events ends where its head does.
    head = out.split("\n")[0]
    assert head.split() == ["#", "started", "game", "state", "events", "scores"]
    assert {row.index("finished" if "finished" in row else "playing") for row in rows} == {head.index("state")}
    assert {row.index(" Ann") for row in rows} == {head.index("events") + len("events") + 1}
    code, out, _ = run("sessions", "--lang", "fi")
    head, *_ = out.split("\n")
    assert head.split() == ["#", "aloitettu", "peli", "tila", "tapahtumia", "pisteet"]
    assert "horse-race (esittely)  kesken" in out and "päättynyt" in out and "playing" not in out
    assert "Kierros 1" in run("sessions", "--lang", "fi", "show", "1")[1]  # (the list's language, for `show` too)
    assert "Round 1" in run("sessions", "--lang", "fi", "show", "1", "--lang", "en")[1]
    code, out, _ = run("sessions", "--json")
    assert [json.loads(line)["demo"] for line in out.strip().split("\n")] == [False, True, False]


def test_the_sessions_list_says_where_cribbage_games_are_kept() -> None:
    from scorer.cribbage.store import GameFile

    code, out, _ = run("sessions")
    assert out == "No saved matches yet.\n"  # (no cribbage game either: nothing more said)
    GameFile.create(["Ann", "Ben"], 121, False, "en")
    code, out, _ = run("sessions")
    assert code == 0 and "Cribbage games are kept apart, 1 game in" in out and "cribbage app --players" in out
    assert "Cribbage-pelit pidetään erikseen, 1 peli kansiossa" in run("sessions", "--lang", "fi")[1]


def test_a_move_the_full_disk_refuses_is_cut_off_and_the_next_follows_the_last_saved(tmp_path: Path, monkeypatch) -> None:
    import errno
    import os

    import scorer.logfile as sessions

    sim = simulate_match("horse-race", 2, False, seed=3)
    session = played(folder=tmp_path, events=10)
    saved = session.path.read_bytes()
    real_write = sessions._write_out

    def half_then_full(fd: int, data) -> int:  # the disk fills in the middle of the line
        monkeypatch.setattr(sessions, "_write_out", refuse)
        return real_write(fd, data[: len(data) // 2])

    def refuse(fd: int, data) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sessions, "_write_out", half_then_full)
    with pytest.raises(SessionError, match="cannot save the move: the disk is full"):
        session.apply(sim.events[10].event, 11.0)
    assert session.path.read_bytes() == saved and len(session.steps) == 10  # (not half a line, not in the match)
    monkeypatch.setattr(sessions, "_write_out", real_write)  # space freed: the same move entered again
    session.apply(sim.events[10].event, 12.0)
    session.apply(sim.events[11].event, 13.0)
    session.close()
    again, damage = Session.open(session.path)
    assert damage is None and [s.event for s in again.steps] == [s.event for s in sim.events[:12]]
    again.close()


def test_a_match_on_a_disk_that_cannot_be_written_is_refused_with_its_reason(tmp_path: Path, monkeypatch) -> None:
    import builtins
    import errno

    session = played(folder=tmp_path, events=4)
    session.close()
    path = session.path
    with path.open("ab") as f:
        f.write(b'{"type": "pl')  # torn: resuming it would cut the tail
    real_open = builtins.open

    def read_only(file, mode="r", *args, **kw):
        if any(m in mode for m in "awx+"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(file, mode, *args, **kw)

    monkeypatch.setattr(builtins, "open", read_only)
    with pytest.raises(SessionError, match="cannot open the match to go on with it: the disk is read-only"):
        Session.open(path)
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    with pytest.raises(SessionError, match="cannot write the match: the disk is read-only"):
        Session.create(header, tmp_path / "new")

    class Full:  # made, but the disk is full before the match line is in it
        def __init__(self, file) -> None:
            self.file = file

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self.file.close()

        def write(self, data) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(builtins, "open", lambda file, mode="r", *a, **kw: Full(real_open(file, mode, *a, **kw))
                        if mode == "xb" else real_open(file, mode, *a, **kw))
    with pytest.raises(SessionError, match="cannot write the match: the disk is full"):
        Session.create(header, tmp_path / "new")
    assert list((tmp_path / "new").iterdir()) == []  # (no empty match left behind)


def test_a_match_gone_is_not_made_again_and_repair_leaves_a_match_in_use_alone(tmp_path: Path) -> None:
    session = played(folder=tmp_path, events=5)
    with session.path.open("ab") as f:
        f.write(b'{"type": "pl')  # (the line the window holding it is writing)
    code, out, err = run("sessions", "repair", str(session.path))
    assert code != 0 and "open in another window" in err and session.path.read_bytes().endswith(b'{"type": "pl')
    session.close()
    code, out, err = run("sessions", "repair", str(session.path))
    assert code == 0 and "line 7 could not be read" in out
    gone = tmp_path / "moved-away.jsonl"
    with pytest.raises(SessionError, match="cannot open the match to go on with it: it is gone"):
        Session.open(gone)
    assert not gone.exists()
