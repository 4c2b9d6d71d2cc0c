"""`scorer score`: hand-computed logs, golden transcripts, and every kind of bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.cli import main
from tests.conftest import write_log

GOLDEN = Path(__file__).parent / "golden"
HEADER_HR2 = {"type": "match", "game": "horse-race", "players": ["Ann", "Ben"], "partnership": False}


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def records(path: Path) -> list[dict]:
    code, out, err = run("score", str(path), "--json")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_horse_race_worked_log_is_scored_as_computed_by_hand() -> None:
    recs = records(GOLDEN / "worked-sequence-horse-race.jsonl")
    plays = [r for r in recs if r["type"] == "play"]
    assert [p["sum"] for p in plays] == [5, 6, 10, 5, 5, 10, 14, 10, 12, 5, 9, 6]
    assert [p["points"] for p in plays] == [5, 0, 10, 5, 5, 10, 0, 10, 0, 5, 0, 0]
    reveal = next(r for r in recs if r["type"] == "reveal")
    # Ben's 20 pips -> 20 -> 4 points for Ann, who went out (Horse Race: the other hands together, rounded once).
    assert reveal["credited"] == {"Ann": {"hands": 20, "raw": 20}} and "hand_totals" not in reveal
    assert reveal["scores"] == {"Ann": 11, "Ben": 0}
    assert reveal["next"] == "Ann"  # (who went out starts the next round)
    assert recs[-1]["scores"] == {"Ann": 13, "Ben": 1}
    assert recs[-1]["next"] == "Ann"
    assert plays[0]["ends"] == [[[1, 4], 4], [[1, 4], 1]]
    # The drawn [3|5] scored but ended Ben's turn.
    drawn = plays[9]
    assert drawn["player"] == "Ben" and drawn["points"] == 5 and drawn["next"] == "Ann"


def test_seven_rocks_worked_log_is_scored_as_computed_by_hand() -> None:
    recs = records(GOLDEN / "worked-sequence-seven-rocks.jsonl")
    plays = [r for r in recs if r["type"] == "play"]
    assert [p["sum"] for p in plays] == [10, 10, 2, 5, 8, 3, 3]
    assert recs[-1]["scores"] == {"Ann": 10, "Ben": 15, "Cid": 10, "Dee": 15}
    assert [r["next"] for r in recs] == ["Ann", "Ben", "Cid", "Dee", "Ann", "Ben", "Cid", "Dee", "Ann"]


GOLDEN_CASES = sorted(p for p in GOLDEN.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


@pytest.mark.parametrize("log", GOLDEN_CASES, ids=lambda p: p.stem)
def test_golden_transcripts(log: Path) -> None:
    expected = log.with_name(log.name.replace(".jsonl", ".expected.jsonl")).read_text(encoding="utf-8")
    code, out, err = run("score", str(log), "--json")
    assert code == 0, err
    assert out == expected, "regenerate with `python scripts/make_golden.py` only if the change is intended"


def test_every_golden_match_but_the_worked_ones_reaches_its_end() -> None:
    for log in GOLDEN_CASES:
        if log.stem.startswith("sim-"):
            assert "winners" in records(log)[-1]


def test_readable_account_and_description(tmp_path: Path) -> None:
    code, out, _ = run("score", str(GOLDEN / "worked-sequence-horse-race.jsonl"), "--describe", "--lang", "fi")
    assert code == 0
    assert "Ann pelaa [1|4] avaukseksi: päät 4 + 1 = 5, saa 5 raakapistettä = 1 piste" in out
    assert "Spinnerit: [1|1], [4|4]" in out
    assert "(yksin)" in out and "Ottelu on kesken; vuorossa: Ann" in out
    code, out, _ = run("score", str(GOLDEN / "worked-sequence-horse-race.jsonl"))
    assert "Ann plays [1|4] opens: ends 4 + 1 = 5, scores 5 raw = 1 point" in out
    code, out, _ = run("score", str(GOLDEN / "sim-horse-race-4-pairs.jsonl"))
    assert code == 0 and "Match over:" in out


@pytest.mark.parametrize("lang, plays, board, values, last_tile", [
    ("en", " plays [", "    Tiles: ", "Scoring values", " played the last tile: "),
    ("fi", " pelaa [", "    Laatat: ", "Pisteytykseen lasketut arvot", " pelasi viimeisen laattansa: "),
])
def test_each_play_is_described_once_right_after_it_and_before_what_followed(lang, plays, board, values, last_tile) -> None:
    code, out, _ = run("score", str(GOLDEN / "sim-horse-race-4.jsonl"), "--describe", "--lang", lang)
    lines = out.splitlines()
    assert code == 0 and not [line for line in lines if line.strip().startswith(("Played [", "Pelattu ["))]
    played = [i for i, line in enumerate(lines) if plays in line]
    assert played and all(lines[i + 1].startswith(board) and lines[i + 1].count(values) == 1 for i in played)
    assert sum(board in line for line in lines) == len(played)  # (no other description)
    # A round ends after its last play's description, not between the play and it.
    ends = [i for i, line in enumerate(lines) if last_tile in line]
    assert ends and all(max(k for k in played if k < i) + 1 < i for i in ends)


@pytest.mark.parametrize("log, en, fi", [
    ("sim-horse-race-4", "Match over: Dee wins (Ann 19, Ben 7, Cid 13, Dee 74)",
     "Ottelu päättyi: Dee voitti (Ann 19, Ben 7, Cid 13, Dee 74)"),
    ("sim-seven-rocks", "Match over: Ben and Dee win (Ann & Cid 95, Ben & Dee 265)",
     "Ottelu päättyi: Ben ja Dee voittivat (Ann & Cid 95, Ben & Dee 265)"),
])
def test_the_match_over_line_says_who_won_in_both_languages(log: str, en: str, fi: str) -> None:
    assert run("score", str(GOLDEN / f"{log}.jsonl"))[1].splitlines()[-1] == en
    assert run("score", str(GOLDEN / f"{log}.jsonl"), "--lang", "fi")[1].splitlines()[-1] == fi


def test_the_demo_is_introduced_in_the_language_chosen() -> None:
    code, out, _ = run("demo", "--lang", "fi")
    assert code == 0 and out.startswith("Dominopöydän pistelaskija: mukana tuleva esittelyottelu pisteytettynä siirto siirrolta.\n\n")
    assert "Kierros 1: " in out and "Round 1: " not in out
    code, out, _ = run("demo")
    assert code == 0 and out.startswith("Domino table scorer: the bundled demo match, scored move by move.\n\nHorse Race: ")


BAD = [
    ("not json", ['{"type": "round", "starter": "Ann"'], 2, "not valid JSON"),
    ("unknown event", [{"type": "jump", "player": "Ann"}], 2, "unknown event type 'jump'"),
    ("bad tile", [{"type": "round", "starter": "Ann"}, {"type": "play", "player": "Ann", "tile": [3, 7]}], 3, "pips 0..6"),
    (
        "tile played twice",
        [{"type": "round", "starter": "Ann"}, {"type": "play", "player": "Ann", "tile": [1, 4]},
         {"type": "play", "player": "Ann", "tile": [4, 1], "at": [1, 4]}],
        4,
        "already on the board",
    ),
    (
        "tile does not match",
        [{"type": "round", "starter": "Ann"}, {"type": "play", "player": "Ann", "tile": [1, 4]},
         {"type": "play", "player": "Ann", "tile": [2, 3], "at": [1, 4]}],
        4,
        "does not match",
    ),
    (
        "branch before both lines",
        [{"type": "round", "starter": "Ann"}, {"type": "play", "player": "Ann", "tile": [2, 2]},
         {"type": "play", "player": "Ann", "tile": [2, 3], "at": [2, 2], "side": "branch-a"}],
        4,
        "both line sides must be filled",
    ),
    (
        "wrong player",
        [{"type": "round", "starter": "Ann"}, {"type": "play", "player": "Ben", "tile": [1, 4]}],
        3,
        "it is Ann's turn, not Ben's",
    ),
    ("unknown player", [{"type": "round", "starter": "Zed"}], 2, "unknown player 'Zed'"),
    ("unknown key", [{"type": "round", "starter": "Ann", "startr": "Ann"}], 2, "an unknown key 'startr'"),
    ("play before a round", [{"type": "play", "player": "Ann", "tile": [1, 4]}], 2, "expected a round event"),
]


@pytest.mark.parametrize("name, events, line, message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_reported_with_its_line(tmp_path: Path, name, events, line, message) -> None:
    path = tmp_path / "bad.jsonl"
    text = json.dumps(HEADER_HR2) + "\n" + "".join((e if isinstance(e, str) else json.dumps(e)) + "\n" for e in events)
    path.write_text(text, encoding="utf-8")
    code, out, err = run("score", str(path), "--json")
    assert code == 2
    assert err.startswith(f"{path}:{line}: ")
    assert message in err
    assert "Traceback" not in err
    # Everything before the bad line was already reported.
    assert len(out.splitlines()) == line - 2


def test_play_after_the_match_ended(tmp_path: Path) -> None:
    lines = (GOLDEN / "sim-horse-race-2.jsonl").read_text().splitlines()
    path = tmp_path / "over.jsonl"
    path.write_text("\n".join(lines + ['{"type": "pass", "player": "Ann"}']) + "\n")
    code, _, err = run("score", str(path))
    assert code == 2 and f":{len(lines) + 1}: the match is over" in err


@pytest.mark.parametrize(
    "header, message",
    [
        ({"type": "match", "game": "seven-rocks", "players": ["A", "B"], "partnership": False}, "exactly 4 players"),
        ({"type": "match", "game": "horse-race", "players": ["A", "B", "C", "D", "E"], "partnership": False}, "2, 3 or 4"),
        ({"type": "match", "game": "chess", "players": ["A", "B"], "partnership": False}, "unknown game"),
        ({"type": "round", "starter": "A"}, "first line must be the match line"),
    ],
)
def test_bad_match_line(tmp_path: Path, header, message) -> None:
    path = write_log(tmp_path / "bad.jsonl", [header])
    code, _, err = run("score", str(path))
    assert code == 2 and err.startswith(f"{path}:1: ") and message in err


def test_missing_and_empty_files(tmp_path: Path) -> None:
    code, _, err = run("score", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "cannot read" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, _, err = run("score", str(empty))
    assert code == 2 and "empty" in err


def test_python_dash_m_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scorer", "score", str(GOLDEN / "worked-sequence-seven-rocks.jsonl"), "--json"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0 and proc.stdout.count("\n") == 9


def test_the_board_commands_say_a_note_as_a_note_not_as_a_problem() -> None:
    from scorer.cli import _write_problems

    out = io.StringIO()
    _write_problems(["the tile at (3, 4) is read uncertainly"], ["the tile at (3, 4) is taken as [0|4]"], out)
    assert out.getvalue() == "problem: the tile at (3, 4) is read uncertainly\nnote: the tile at (3, 4) is taken as [0|4]\n"


def test_the_board_commands_say_problems_and_notes_in_finnish() -> None:
    from scorer.cli import _write_problems
    from scorer.words import Figure, Words, at

    out = io.StringIO()
    problem = Words("the tile at {place} is read uncertainly as {read} ({confidence}): please check it",
                    place=at((3, 4)), read="[4, 2]", confidence=Figure(0.876, 2))
    note = Words("{tile} lies lengthwise in the line: read as a double laid crosswise",
                 tile=Words("{tile} at {place}", tile="[2|2]", place=at((225, 137))))
    _write_problems([problem], [note], out, "fi")
    assert out.getvalue() == ("ongelma: laatta (3, 4) luetaan epävarmasti [4, 2] (0,88): tarkista se\n"
                              "huomio: [2|2] (225, 137) on rivissä pitkittäin: luettu poikittain pelatuksi tuplaksi\n")


def test_an_unfinished_account_ends_with_whose_turn_or_who_starts_the_next_round(tmp_path: Path) -> None:
    code, out, _ = run("simulate", "--game", "horse-race", "--seed", "3")
    lines = out.splitlines()
    reveal = next(k for k, line in enumerate(lines) if json.loads(line)["type"] == "reveal")
    finisher = next(p for p, hand in json.loads(lines[reveal])["hands"].items() if not hand)

    def last_line(count: int, *args: str) -> str:
        log = tmp_path / f"first-{count}.jsonl"
        log.write_text("\n".join(lines[:count]) + "\n")
        code, out, err = run("score", str(log), *args)
        assert code == 0, err
        return out.splitlines()[-1]

    assert last_line(3).startswith("Match not finished; next to act: ")
    assert last_line(reveal) == "Match not finished; round 1 is over: the hands are still to be counted"
    # The player who went out starts the next round (RULES: Horse Race), named in the account.
    assert last_line(reveal + 1) == f"Match not finished; {finisher} starts round 2"
    assert last_line(reveal + 1, "--lang", "fi") == f"Ottelu on kesken; kierroksen 2 aloittaa {finisher}"


def test_a_video_given_to_score_is_told_apart_from_a_damaged_log(tmp_path: Path) -> None:
    video = Path(__file__).resolve().parents[1] / "scorer" / "data" / "demo.mp4"
    code, _, err = run("score", str(video))
    assert code == 2 and "not a session log but a binary file (a video? `replay VIDEO` scores a recorded game)" in err


def test_seven_rocks_is_played_in_pairs_whether_said_or_not() -> None:
    import argparse

    from scorer.cli.play import _header_for
    from scorer.rules.log import MatchSource

    args = argparse.Namespace(game="seven-rocks", players="Ann,Ben,Cid,Dee", partnership=False, table=None, calibration=None,
                              starter=None)
    assert _header_for(args, MatchSource("video", "game.mp4", 1)).partnership
    args.game, args.players = "horse-race", "Ann,Ben,Cid"
    assert not _header_for(args, MatchSource("video", "game.mp4", 1)).partnership


def test_a_refusal_is_said_in_the_language_asked(tmp_path: Path) -> None:
    log = write_log(tmp_path / "wrong-turn.jsonl", [HEADER_HR2, {"type": "round", "starter": "Ann"},
                                                   {"type": "play", "player": "Ben", "tile": [1, 2]}])
    code, _, err = run("score", str(log), "--lang", "fi")
    assert code == 2 and err.endswith(":3: vuorossa on Ann, ei Ben (pelaus)\n")
    code, _, err = run("replay", str(tmp_path / "nosuch.mp4"), "--game", "horse-race", "--players", "Ann,Ben", "--lang", "fi")
    assert code == 2 and err.startswith("virhe: ")
