"""The bundled demo (scorer/data/demo.mp4): a whole Horse Race round that shows what the scorer does --
scoring plays, a player who scores and plays on, draws from the boneyard, the last tile, the hands laid
out, their totals rounded and the credit -- read right by the shipped models as the app reads it, and
announced with the round's hand totals in Finnish and in English."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "datasets") not in sys.path:
    sys.path.insert(0, str(ROOT / "datasets"))

from make_game_video import DEMO, DEMO_STARTER, first_round, what_it_shows  # noqa: E402

from scorer.pipeline.announce import number_en, number_fi  # noqa: E402
from scorer.rules import Draw, Play, Reveal, RoundStart  # noqa: E402
from scorer.rules.game import Phase, RoundOutcome  # noqa: E402
from scorer.rules.log import event_to_json  # noqa: E402
from scorer.rules.transcript import Step, record, score_log  # noqa: E402
from scorer.vision.detector import default_models_dir  # noqa: E402

DATA = ROOT / "scorer" / "data"
VIDEO = DATA / "demo.mp4"
TRUTH = DATA / "demo.truth.jsonl"
APP_STEP = 2  # what `app --demo` and the terminal demo read the recording with (scorer/app/start.py, scorer/cli/play.py)


def truth_steps() -> list[Step]:
    header, steps = score_log(TRUTH.read_text().splitlines())
    assert header.game == "horse-race" and header.players == ("Ann", "Ben") and not header.partnership
    return list(steps)


def test_the_demo_shows_a_whole_round() -> None:
    steps = truth_steps()
    assert isinstance(steps[0].event, RoundStart) and steps[0].after.next_player == DEMO_STARTER
    assert sum(isinstance(s.event, RoundStart) for s in steps) == 1  # one round, from its deal to its count
    plays = [s for s in steps if isinstance(s.event, Play)]
    scoring = [s for s in plays if s.outcome.raw_points]  # type: ignore[union-attr]
    assert len(scoring) >= 3
    # A continuation: a player scores, and plays the next tile too.
    assert any(isinstance(a.event, Play) and a.outcome.raw_points and a.outcome.continues  # type: ignore[union-attr]
               and isinstance(b.event, Play) and b.event.player == a.event.player
               for a, b in zip(steps, steps[1:]))
    # A draw from the boneyard, and the drawn tile played.
    assert any(isinstance(a.event, Draw) and isinstance(b.event, Play) and b.event.player == a.event.player
               for a, b in zip(steps, steps[1:]))
    # The round ends by a player's last tile; the hands are laid out and counted.
    assert steps[-2].event is plays[-1].event and steps[-2].after.phase is Phase.ROUND_OVER
    reveal = steps[-1]
    assert isinstance(reveal.event, Reveal) and isinstance(reveal.outcome, RoundOutcome)
    outcome = reveal.outcome
    assert not outcome.blocked and outcome.finisher == plays[-1].event.player
    # A hand whose total is rounded (not already a multiple of 5), and a credit from it.
    assert any(pips and pips % 5 for pips in outcome.hand_pips)
    assert all(total % 5 == 0 for total in outcome.hand_totals)
    assert sum(outcome.raw_changes) == sum(outcome.hand_totals) > 0
    assert sum(reveal.after.scores().values()) > 0


def test_the_demo_is_its_spec() -> None:
    """The committed truth log is what ``make_game_video.py --demo`` writes: the spec's first round."""
    steps = first_round(DEMO)
    want = [event_to_json(s.event) for s in steps]
    assert [event_to_json(s.event) for s in truth_steps()] == want
    shows = what_it_shows(steps)
    assert shows["scoring plays"] and shows["scored and played on"] and shows["draws"]
    assert shows["domino and reveal"] and shows["hands rounded"] and shows["credit"]


def test_the_demo_video_is_about_a_minute_and_a_half_and_small() -> None:
    capture = cv2.VideoCapture(str(VIDEO))
    try:
        fps = capture.get(cv2.CAP_PROP_FPS)
        frames = capture.get(cv2.CAP_PROP_FRAME_COUNT)
        size = (capture.get(cv2.CAP_PROP_FRAME_WIDTH), capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    finally:
        capture.release()
    assert fps == DEMO.fps and size == DEMO.size
    assert 75 <= frames / fps <= 100
    assert VIDEO.stat().st_size < 10 * 2**20
    # The last event (the reveal) is seen, and held long enough to hear the count, before the video ends.
    last_t = max(s.t for s in truth_steps() if s.t is not None)
    assert frames / fps - last_t >= 5


@pytest.mark.skipif(not (default_models_dir() / "detector.onnx").exists(), reason="no shipped model")
def test_the_app_scores_the_demo_right_and_says_the_hand_totals() -> None:
    """As the app reads the demo (every second frame, the starter known): the truth's events, no question,
    and the round's announcement says each hand, its rounded total and the credit, in both languages."""
    from scorer.pipeline import PipelineConfig, TablePipeline
    from scorer.pipeline.events import MoveEvent, NeedsConfirmation, Notice
    from scorer.pipeline.replay import run
    from scorer.pipeline.sources import open_video
    from scorer.rules.history import MatchHistory
    from scorer.rules.log import MatchHeader
    from scorer.vision import TileDetector

    source = open_video(VIDEO, step=APP_STEP)
    history = MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False))
    pipeline = TablePipeline(history, TileDetector.live(), PipelineConfig(starter=DEMO_STARTER),
                             fps=source.fps / source.step)
    seen: list = []
    run(source, pipeline, seen.append)
    assert [e for e in seen if isinstance(e, (NeedsConfirmation, Notice))] == []
    moves = [e for e in seen if isinstance(e, MoveEvent)]
    truth = truth_steps()
    # The same events, in order, each scored alike (the free point each tile went on, its sum, its points).
    assert [record(m.step) for m in moves] == [record(s) for s in truth]
    assert pipeline.match.scores() == truth[-1].after.scores()

    # Every scoring play is announced with its points; the round with the hands and the credit.
    for move in moves:
        if isinstance(move.step.event, Play) and move.step.outcome.raw_points:  # type: ignore[union-attr]
            assert move.announcement is not None and "point" in move.announcement.spoken("en")
            assert "piste" in move.announcement.spoken("fi")
    round_end = moves[-1]
    outcome = round_end.step.outcome
    assert isinstance(outcome, RoundOutcome) and round_end.announcement is not None
    said = round_end.announcement
    players = round_end.step.after.table.players
    for player, pips, total in zip(players, outcome.hand_pips, outcome.hand_totals):
        if not pips:
            continue
        # Shown: "Ben's hand 13 → 15"; spoken: "Ben's hand thirteen, rounded to fifteen".
        assert f"{player}'s hand {pips} → {total}" in said.text("en")
        assert f"käsi {pips} → {total}" in said.text("fi")
        assert f"{player}'s hand {number_en(pips)}, rounded to {number_en(total)}" in said.spoken("en")
        assert f"käsi {number_fi(pips)}, pyöristettynä {number_fi(total)}" in said.spoken("fi")
    for player, change in zip(players, outcome.raw_changes):
        if change:
            points = change // 5
            assert f"{player} scores {number_en(points)} point" in said.spoken("en")
            assert f"{player} saa {number_fi(points)} piste" in said.spoken("fi")
    # Then where the match stands, said: a player who listens hears every side's score.
    standing = pipeline.match.scores()
    assert said.spoken("en").endswith(" Scores: " + ", ".join(f"{p} {number_en(standing[p])}" for p in players) + ".")
    assert said.spoken("fi").endswith(" Pisteet: " + ", ".join(f"{p} {number_fi(standing[p])}" for p in players) + ".")
    assert "Scores" not in said.text("en")  # (shown on the board beside it)
    for lang in ("en", "fi"):
        assert not any(c in said.spoken(lang) for c in "→[]|")
