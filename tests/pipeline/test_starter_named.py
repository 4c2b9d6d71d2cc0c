"""The first round's starter named at the start (the start screen, `--starter`), and its first tile laid from
another player's side: asked who started, the arm's player offered first and the one named too -- a wrong
name no longer holds the whole match to the wrong turn order, every question offering only that player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominosynth.truth import TruthDetector

from scorer.pipeline import NeedsConfirmation, Notice, PipelineConfig, TablePipeline, VideoFile
from scorer.pipeline.notices import StarterTaken
from scorer.pipeline.questions import StarterContradicted
from scorer.rules.history import MatchHistory
from scorer.rules.log import MatchHeader
from scorer.rules.transcript import score_log
from tests.conftest import film


@pytest.fixture(scope="module")
def one_round(tmp_path_factory):
    video, truth, labels = film(tmp_path_factory.mktemp("film"), "horse-race", 2, seed=3, rounds=1)
    lines = truth.read_text().splitlines()
    starter = next(json.loads(line)["starter"] for line in lines if json.loads(line)["type"] == "round")
    _, steps = score_log(lines)
    return video, labels, starter, list(steps)[-1].after.scores()


def _scored(one_round, answer: bool):
    video, labels, starter, _ = one_round
    wrong = next(p for p in ("Ann", "Ben") if p != starter)
    detector = TruthDetector(labels)
    pipeline = TablePipeline(MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False)), detector,
                             PipelineConfig(starter=wrong), fps=15)
    asked, told = [], []
    for frame in VideoFile(video, step=2).frames():
        detector.frame = frame.index
        for event in pipeline.feed(frame):
            if isinstance(event, NeedsConfirmation):
                asked.append(event.question)
                if answer and isinstance(event.question, StarterContradicted):
                    pipeline.confirm(list(event.alternatives[0]), event.t)
            elif isinstance(event, Notice):
                told.append(event.said)
    pipeline.finish(frame.t)
    return wrong, pipeline, asked, told


def test_a_wrong_starter_named_is_asked_about_and_the_arm_s_player_answered(one_round) -> None:
    wrong, pipeline, asked, told = _scored(one_round, answer=True)
    question = asked[0]
    assert isinstance(question, StarterContradicted) and (question.named, question.arm) == (wrong, one_round[2])
    assert question.alternatives[0][0].starter == one_round[2] and question.alternatives[1][0].starter == wrong
    assert len(asked) == 1 and not any(isinstance(s, StarterTaken) for s in told)
    assert pipeline.match.scores() == one_round[3]


def test_unanswered_the_arm_s_player_is_taken_once_play_goes_on_and_said(one_round) -> None:
    wrong, pipeline, asked, told = _scored(one_round, answer=False)
    assert isinstance(asked[0], StarterContradicted)
    taken = [s for s in told if isinstance(s, StarterTaken)]
    assert taken and (taken[0].starter, taken[0].named) == (one_round[2], wrong)
    assert pipeline.match.scores() == one_round[3]
