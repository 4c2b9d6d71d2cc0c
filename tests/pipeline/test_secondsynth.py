"""The second, independent video renderer (datasets/secondsynth): its truth log is a legal, scorable match
log, its video has the frames its plan says, and every camera condition renders."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from scorer.rules.transcript import score_log

from secondsynth import CONDITIONS, SecondSpec, make_video, plan_video

SMALL = (320, 180)


def _frames(path: Path) -> int:
    cap = cv2.VideoCapture(str(path))
    n = 0
    while True:
        ok, _ = cap.read()
        if not ok:
            break
        n += 1
    cap.release()
    return n


@pytest.mark.parametrize("game, players, partnership, seed, conditions", [
    ("horse-race", 2, False, 3, frozenset()),
    ("seven-rocks", 4, True, 4, CONDITIONS),
])
def test_a_short_video_and_its_truth_log(tmp_path: Path, game, players, partnership, seed, conditions) -> None:
    spec = SecondSpec(game, players, partnership, seed, max_rounds=1, fps=10.0, size=SMALL, conditions=conditions)
    video, log = tmp_path / "game.mp4", tmp_path / "game.jsonl"
    make_video(spec, video, log)
    lines = log.read_text(encoding="utf-8").splitlines()
    header, steps = score_log(lines)
    steps = list(steps)
    assert header.game == game and len(steps) == len(lines) - 1
    times = [json.loads(line)["t"] for line in lines[1:]]
    assert times == sorted(times)
    plan = plan_video(spec)
    assert plan.log_lines == lines  # the same seed, the same match and timing
    assert _frames(video) == len(plan.frames)
    assert times[-1] <= len(plan.frames) / spec.fps


@pytest.mark.parametrize("condition", sorted(CONDITIONS))
def test_every_condition_renders_and_changes_the_picture(condition: str) -> None:
    from secondsynth.video import Renderer

    spec = SecondSpec("horse-race", 4, False, 7, max_rounds=1, fps=5.0, size=SMALL)
    calm = Renderer(plan_video(spec))
    plan = plan_video(SecondSpec("horse-race", 4, False, 7, max_rounds=1, fps=5.0, size=SMALL,
                                 conditions=frozenset({condition})))
    cond = Renderer(plan)
    differs = 0
    for i in range(0, min(len(plan.frames), len(calm.plan.frames)), 2):
        a, b = calm.frame(i), cond.frame(i)
        assert a.shape == b.shape == (SMALL[1], SMALL[0], 3)
        differs += int(cv2.absdiff(a, b).max() > 12)
    assert differs > 0
