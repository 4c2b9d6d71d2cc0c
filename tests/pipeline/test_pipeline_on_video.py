"""The pipeline on generated game videos, with a detector that knows the truth (no model needed).

This checks the pipeline's own logic end to end -- stillness, arms, draws, passes,
continuations, reveals, round starts -- against the simulator's log.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dominosynth.truth import TruthDetector
from dominosynth.video import VideoSpec, make_video

from scorer.pipeline import MoveEvent, NeedsConfirmation, PipelineConfig, TablePipeline, VideoFile
from scorer.pipeline.replay import SessionLog, run
from scorer.rules.log import MatchHeader, event_to_json
from scorer.rules.transcript import score_log


def _key(d: dict) -> tuple:
    return (d["type"], d.get("player"), tuple(d.get("tile", ())), d.get("count"))


@pytest.mark.parametrize(
    "game, players, partnership, seed, rounds",
    [("horse-race", 2, False, 3, 1), ("seven-rocks", 4, True, 12, 1), ("horse-race", 4, True, 8, 1)],
)
def test_replay_gives_the_simulators_events_and_scores(tmp_path: Path, game, players, partnership, seed, rounds) -> None:
    spec = VideoSpec(game, players, partnership, seed, size=(480, 270), max_rounds=rounds, move_seconds=1.3)
    video, truth_log, labels = tmp_path / "v.mp4", tmp_path / "v.truth.jsonl", tmp_path / "v.labels.jsonl"
    make_video(spec, video, truth_log, labels)
    names = ("Ann", "Ben", "Cid", "Dee")[:players]
    header = MatchHeader(game, names, partnership)
    detector = TruthDetector(labels)
    source = VideoFile(video, step=2)
    recorded = tmp_path / "session.jsonl"
    log = SessionLog(recorded, header)
    pipeline = TablePipeline(header.new_match(), detector, PipelineConfig(), fps=source.fps / 2, log=log)
    moves: list[MoveEvent] = []
    asked: list[NeedsConfirmation] = []
    run(detector.follow(source), pipeline, lambda e: moves.append(e) if isinstance(e, MoveEvent) else asked.append(e) if isinstance(e, NeedsConfirmation) else None)
    log.close()
    truth = [json.loads(line) for line in truth_log.read_text().splitlines()[1:]]
    # The first round's starter is drawn by lot; with no --starter the arm that opens tells it.
    assert [_key(event_to_json(m.step.event)) for m in moves] == [_key(t) for t in truth]
    # The recorded session log scores the same on its own.
    _, steps = score_log(recorded.read_text().splitlines())
    assert list(steps)[-1].after.scores() == pipeline.match.scores()
    # Every play was announced, in both languages.
    plays = [m for m in moves if m.step.event.__class__.__name__ == "Play"]
    assert all(m.announcement and m.announcement.fi and m.announcement.en for m in plays)
