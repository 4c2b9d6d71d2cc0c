"""Scoring a recording again from an earlier moment: what the pipeline saw of the table at the moment play
had reached (a later deal's boneyard, the tiles followed, an arm's reference picture, the frame before) is
not taken for the table of the moment played from -- a later boneyard's backs, gone from the earlier table,
were counted as a draw that never happened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominosynth.truth import TruthDetector

from scorer.app.worker import PipelineWorker
from scorer.pipeline import PipelineConfig, TablePipeline, VideoFile
from scorer.rules.history import MatchHistory
from scorer.rules.log import MatchHeader
from tests.conftest import film


class Recording:
    """A generated game's video, seekable, read by its truth detector; where ``ask_at`` is given, a person
    asks to score it again from ``again_from`` once (before the frame at ``ask_at`` is read: the worker
    serves a request before it feeds the next frame)."""

    def __init__(self, video: Path, labels: Path, ask_at: float | None = None, again_from: float = 0.0) -> None:
        self.inner = VideoFile(video, step=2)
        self.fps, self.step, self.duration = self.inner.fps, 2, self.inner.duration
        self.detector = TruthDetector(labels)
        self.ask_at, self.again_from = ask_at, again_from
        self.withdrawn: int | None = None  # how many moves the request withdrew
        self.worker: PipelineWorker | None = None

    def frames(self, start: int = 0):
        for frame in self.inner.frames(start):
            self.detector.frame = frame.index
            if self.ask_at is not None and frame.t >= self.ask_at and self.withdrawn is None:
                history = self.worker.pipeline.history
                self.withdrawn = sum(1 for s in history.steps if s.t is not None and s.t > self.again_from)
                self.worker.score_again_from(self.again_from)
            yield frame

    def scored(self) -> MatchHistory:
        history = MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False))
        pipeline = TablePipeline(history, self.detector, PipelineConfig(), fps=self.fps / 2)
        self.worker = PipelineWorker(self, pipeline, realtime=False)
        self.worker.finished.connect(lambda _: self.worker.stop())
        self.worker.run()  # (no event loop: the signals reach their slots at once; it returns once the recording ended)
        return history


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory):
    """A two-round film (seed 4: draws in both rounds), its truth, and the match scored without a stop."""
    video, truth_path, labels = film(tmp_path_factory.mktemp("film"), "horse-race", 2, seed=4, rounds=2)
    truth = [json.loads(line) for line in truth_path.read_text().splitlines()[1:]]
    return video, labels, truth, Recording(video, labels).scored()


def _moment(truth: list[dict], case: str) -> tuple[float, float]:
    """(score again from, asked at) for each case."""
    rounds = [e["t"] for e in truth if e["type"] == "round"]
    draws = [e["t"] for e in truth if e["type"] == "draw" and e["t"] > rounds[1]]
    if case == "an earlier round":  # before round 1's last play, asked 2 s into round 2
        return (max(e["t"] for e in truth if e["type"] == "play" and e["t"] < rounds[1]) - 0.4,
                next(e["t"] for e in truth if e["type"] == "play" and e["t"] > rounds[1]) + 2.0)
    if case == "between a draw and its scoring":  # the same round: the boneyard then still holds the tile drawn
        return draws[0] + 0.3, draws[0] + 6.5
    return rounds[0] + 1.05, rounds[0] + 3.8  # before the opening tile is scored: no move kept


@pytest.mark.parametrize("case", ["an earlier round", "between a draw and its scoring", "before the first move"])
def test_scored_again_the_match_is_as_scored_without_a_stop(two_rounds, case: str) -> None:
    video, labels, truth, alone = two_rounds
    again_from, ask_at = _moment(truth, case)
    asked = Recording(video, labels, ask_at, again_from)
    again = asked.scored()
    assert asked.withdrawn is not None and asked.withdrawn >= 1
    # Scored again, the match is the one scored without a stop: no draw of another deal, none lost, the
    # round opened by the arm that laid its first tile.
    assert [s.event for s in again.steps] == [s.event for s in alone.steps]
    assert again.match.scores() == alone.match.scores()
