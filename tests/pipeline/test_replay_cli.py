"""`scorer replay` with bad input: a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorer.cli import main


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "name, content, message",
    [("missing.mp4", None, "no such video file"), ("empty.mp4", b"", "empty"), ("text.mp4", b"not a video", "not a video")],
)
def test_bad_videos(tmp_path: Path, name: str, content: bytes | None, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, _, err = run("replay", str(path), "--game", "horse-race", "--players", "Ann,Ben", "--quiet")
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_players_and_starter(tmp_path: Path) -> None:
    video = Path(__file__).resolve().parents[2] / "scorer" / "data" / "demo.mp4"
    code, _, err = run("replay", str(video), "--game", "seven-rocks", "--players", "Ann,Ben", "--quiet")
    assert code == 2 and "exactly 4 players" in err
    code, _, err = run("replay", str(video), "--game", "horse-race", "--players", "Ann,Ben", "--starter", "Zed", "--quiet")
    assert code == 2 and "--starter 'Zed'" in err


def test_record_refused_leaves_nothing_behind(tmp_path: Path, monkeypatch) -> None:
    """A camera missing, a video file given as the camera, a calibration unknown: told before the folder
    and the match's file are made (an empty match left "playing" was offered to resume)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    video = Path(__file__).resolve().parents[2] / "scorer" / "data" / "demo.mp4"
    sessions = tmp_path / "sessions"
    common = ("--game", "horse-race", "--players", "Ann,Ben", "--sessions", str(sessions))
    for camera, extra, message in [(str(video), (), "is a file or folder, not a camera: `replay`"),
                                   ("http://127.0.0.1:9/none", (), "not found or cannot be opened"),
                                   ("0", ("--calibration", "no-such-table"), "no-such-table"),
                                   ("0", ("--players", "Ann"), "played by 2, 3 or 4 players")]:
        out_dir = tmp_path / "rec"
        code, out, err = run("record", "--camera", camera, "--out", str(out_dir), *common, *extra)
        assert code == 2 and message in err and "Traceback" not in err, (camera, err)
        assert not out_dir.exists() and not sessions.exists() and not (tmp_path / "data").exists(), camera
    # (OpenCV's own warnings about the missing device are not printed beside the one line that says it.)
    assert "WARN" not in err
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng for --voice
    code, out, err = run("record", "--camera", "0", "--out", str(tmp_path / "rec"), *common, "--voice")
    assert code == 2 and "--voice needs espeak-ng" in err
    assert not (tmp_path / "rec").exists() and not sessions.exists() and not (tmp_path / "data").exists()


def test_replay_of_a_record_folder_takes_the_match_as_recorded(tmp_path: Path) -> None:
    """`replay FOLDER` of a folder `record` wrote needs no --game or --players: the saved match names it."""
    import argparse

    from scorer.cli.play import _as_recorded
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session

    folder = tmp_path / "evening"
    (folder / "video").mkdir(parents=True)
    header = MatchHeader("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), True, table="Table 2",
                         source=MatchSource("camera", "0", 1, str(folder)))
    Session.create(header).close()  # (the user's sessions folder, as `record` keeps it)
    args = argparse.Namespace(video=str(folder), game=None, players=None, partnership=False, table=None, calibration=None)
    _as_recorded(args)
    assert (args.game, args.players, args.partnership, args.table) == ("seven-rocks", "Ann,Ben,Cid,Dee", True, "Table 2")
    code, _, err = run("replay", str(tmp_path / "elsewhere"), "--quiet")
    assert code == 2 and "--game and --players are needed for" in err
    # A plain video with its game named: what is missing, and what to give.
    code, _, err = run("replay", str(tmp_path / "elsewhere"), "--game", "horse-race", "--quiet")
    assert code == 2 and "--players is needed for" in err and "e.g. --players Ann,Ben,Cid" in err


def test_a_record_folder_finds_its_match_kept_elsewhere(tmp_path: Path, monkeypatch) -> None:
    """`record --sessions DIR` keeps the match outside the user's sessions folder: the folder's note says where,
    so `replay FOLDER` still finds it -- and not while the note points nowhere."""
    import argparse

    from scorer.cli.play import _as_recorded
    from scorer.pipeline.replay import SESSION_NOTE, note_session, recorded_match
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # (the user's sessions folder: empty)
    folder = tmp_path / "evening"
    (folder / "video").mkdir(parents=True)
    header = MatchHeader("horse-race", ("Ann", "Ben", "Cid"), False, source=MatchSource("camera", "0", 1, str(folder)))
    session = Session.create(header, tmp_path / "club-sessions")
    session.close()
    assert recorded_match(folder) is None  # (before the note: the user's folder has no such match)
    note_session(folder, session.path)
    assert (folder / SESSION_NOTE).is_file()
    for named in (folder, folder / "video"):
        found = recorded_match(named)
        assert found is not None and found.path == session.path.resolve()
    args = argparse.Namespace(video=str(folder), game=None, players=None, partnership=False, table=None, calibration=None)
    _as_recorded(args)
    assert (args.game, args.players) == ("horse-race", "Ann,Ben,Cid")
    session.path.unlink()  # (moved away: the note points nowhere, and the folder is a bare recording again)
    assert recorded_match(folder) is None


def test_record_keeps_the_score_and_replay_finds_its_match_in_another_folder(tmp_path: Path, monkeypatch) -> None:
    """`record` from a camera (a generated film standing in for one, read by the truth detector): the scores
    printed are the film's truth, the match's file goes to --sessions DIR, and `replay FOLDER` finds it there."""
    from dominosynth.truth import TruthDetector

    from scorer.pipeline import sources
    from scorer.pipeline.replay import SESSION_NOTE
    from scorer.rules.transcript import score_log
    from scorer.sessions import list_sessions
    from scorer.vision import TileDetector
    from tests.conftest import film

    video, truth, labels = film(tmp_path, "horse-race", 2, seed=3, rounds=1)
    detector = TruthDetector(labels)

    class FilmCamera:
        """The film, given as a camera gives frames (and let go as a camera is)."""

        def __init__(self, *_args) -> None:
            self.inner = sources.VideoFile(video)
            self.fps = self.inner.fps

        def connect(self) -> None:
            pass

        def release(self) -> None:
            pass

        def frames(self):
            return detector.follow(self.inner).frames()

    monkeypatch.setattr(sources, "Camera", FilmCamera)
    monkeypatch.setattr(TileDetector, "live", classmethod(lambda cls, threads=None: detector))
    out, sessions = tmp_path / "evening", tmp_path / "club-sessions"
    code, said, err = run("record", "--camera", "0", "--out", str(out), "--sessions", str(sessions),
                          "--game", "horse-race", "--players", "Ann,Ben", "--segment-seconds", "3")
    assert code == 0, err
    _, steps = score_log(truth.read_text().splitlines())
    scores = "Scores: " + ", ".join(f"{p} {s}" for p, s in list(steps)[-1].after.scores().items())
    assert said.splitlines()[-1] == scores
    [kept] = list_sessions(sessions)
    assert (out / SESSION_NOTE).read_text().strip() == str(kept.path.resolve()) and not list_sessions()
    class Followed:
        """The recording as opened, its frames told to the truth detector as they are read."""

        def __init__(self, inner) -> None:
            self.inner = inner

        def frames(self, *args):
            return detector.follow(self.inner).frames(*args)

        def __getattr__(self, name: str):
            return getattr(self.inner, name)

    opened = sources.open_video
    monkeypatch.setattr(sources, "open_video", lambda *a, **k: Followed(opened(*a, **k)))
    code, said, err = run("replay", str(out), "--quiet")  # (game and players as recorded, found by the note)
    assert code == 0, err
    assert scores in said


def test_tiles_laid_from_other_seats_than_on_turn_make_the_players_given_doubted() -> None:
    from scorer.cli.common import CLI_WORDS
    from scorer.cli.play import _Unanswered
    from scorer.pipeline.questions import WhoseArm
    from scorer.rules import Tile

    asked = _Unanswered()
    assert asked.said(CLI_WORDS["en"]) == ""
    asked.note(WhoseArm((Tile(2, 6),), "Ben", "Ann"))
    asked.note(None)  # (a question of another kind, or none given: not counted as another seat's)
    said = asked.said(CLI_WORDS["en"])
    assert "Questions asked with no one to answer them: 2." in said and "another seat" not in said
    asked.note(WhoseArm((Tile(0, 6),), "Ann", "Ben"))
    said = asked.said(CLI_WORDS["fi"]).split("\n")
    assert said[1].startswith("Niistä 2 koski laattaa") and "tarkista annetut pelaajat" in said[1]


def test_a_recorded_tables_match_goes_to_this_computers_club_file_where_none_is_named(tmp_path: Path, monkeypatch) -> None:
    """`record --table 9` with no club database named writes into the club file `club serve` shows, as the app does;
    without --table, nowhere."""
    import argparse

    from sqlalchemy import select

    from scorer.cli.play import _club_table
    from scorer.club import open_existing
    from scorer.club.schema import matches
    from scorer.rules.log import MatchHeader
    from scorer.sessions import Session

    monkeypatch.delenv("SCORER_CLUB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path / "sessions")
    err = io.StringIO()
    assert _club_table(argparse.Namespace(club_db=None, table=None), session, err) is None
    live = _club_table(argparse.Namespace(club_db=None, table="9"), session, err)
    assert live is not None
    try:
        assert live.close(timeout=10)
    finally:
        session.close()
    engine = open_existing(str(tmp_path / "data" / "domino-scorer" / "club.db"))
    with engine.connect() as c:
        assert [row.table_name for row in c.execute(select(matches.c.table_name))] == ["9"]
