"""The pipeline under what a real evening adds (datasets/dominosynth/evening.py), each condition on its
own: a round filmed with it and replayed with a detector that knows the truth (the pipeline's own
logic: stillness, arms, draws, the boneyard), nobody answering -- every event right, nothing asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dominosynth.evening import CONDITIONS
from dominosynth.truth import TruthDetector
from dominosynth.video import VideoSpec, make_video

from scorer.pipeline import MoveEvent, NeedsConfirmation, Notice, PipelineConfig, TablePipeline, VideoFile
from scorer.pipeline.replay import run
from scorer.rules.log import MatchHeader, event_to_json


def _key(d: dict) -> tuple:
    return (d["type"], d.get("player") or d.get("starter"), tuple(d.get("tile", ())), d.get("count"))


def _replayed(tmp_path: Path, conditions: frozenset[str], game: str = "horse-race", players: int = 2, seed: int = 3):
    spec = VideoSpec(game, players, players == 4, seed, size=(480, 270), max_rounds=1, max_events=12,
                     conditions=conditions)
    video, truth_log, labels = tmp_path / "v.mp4", tmp_path / "v.truth.jsonl", tmp_path / "v.labels.jsonl"
    make_video(spec, video, truth_log, labels)
    header = MatchHeader(game, ("Ann", "Ben", "Cid", "Dee")[:players], players == 4)
    detector = TruthDetector(labels)
    source = VideoFile(video, step=2)
    pipeline = TablePipeline(header.new_match(), detector, PipelineConfig(), fps=source.fps / 2)
    events: list = []
    run(detector.follow(source), pipeline, events.append)
    truth = [_key(json.loads(line)) for line in truth_log.read_text().splitlines()[1:]]
    moves = [_key(event_to_json(e.step.event)) for e in events if isinstance(e, MoveEvent)]
    return truth, moves, events


@pytest.mark.parametrize("condition", CONDITIONS)
def test_a_round_under_one_condition_is_scored_exactly_with_nothing_asked(tmp_path: Path, condition: str) -> None:
    truth, moves, events = _replayed(tmp_path, frozenset({condition}))
    assert moves == truth
    assert [e.reason for e in events if isinstance(e, NeedsConfirmation)] == []
    notices = [e.message for e in events if isinstance(e, Notice)]
    if condition == "bump":
        assert any("the camera moved by" in n for n in notices), notices
    else:
        assert not any("camera moved" in n for n in notices), notices
    # The lights dimmed mid-round, the camera's exposure fixed: asked for more light, once (read on here
    # only by the detector that knows the truth).
    assert sum("very dark" in n for n in notices) == (condition == "dim"), notices


def test_a_hand_hovering_over_the_layout_hides_tiles_for_a_moment_without_a_question() -> None:
    from test_pipeline_on_video import FROM_BOTTOM, FROM_TOP, ScriptedTable, _up

    from scorer.rules import Play, Tile

    table = ScriptedTable()
    opening = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [opening], paint=[(opening.corners, 200)])
    # Ben's hand comes in and hovers over [1|3], still for a second: the camera sees no [1|3].
    table.sweep(FROM_TOP)
    table.image[100:160, 130:200] = 120
    table.seen = []
    table.still(12)
    assert table.asked == []
    # It lays [3|6] and leaves: Ben's move, and nothing was asked.
    table.image[100:160, 130:200] = 60
    laid = _up((3, 6), 188)
    events = table.move(FROM_TOP, [opening, laid], paint=[(opening.corners, 200), (laid.corners, 210)])
    assert events == [Play("Ben", Tile(3, 6), Tile(1, 3), events[0].side)] and table.asked == []


def test_a_tile_that_stays_unseen_is_asked_about() -> None:
    from test_pipeline_on_video import FROM_BOTTOM, FROM_TOP, ScriptedTable, _up

    table = ScriptedTable()
    opening = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [opening], paint=[(opening.corners, 200)])
    table.move(FROM_TOP, [], erase=[opening.corners])  # taken away: unseen from then on
    assert table.asked == []  # (looked at again first)
    table.still(30)
    assert [a.reason for a in table.asked] == ["the table does not match the game: the layout is not seen (covered, or the camera "
                                               "moved; if the round is over, blocked, give the hands left)"]


def test_a_hand_resting_over_the_boneyard_draws_nothing_and_a_hand_that_stays_is_read_past() -> None:
    from test_pipeline_on_video import FROM_TOP, _opened_beside_a_boneyard, _up

    from scorer.rules import Play, Tile

    table, opening, boneyard = _opened_beside_a_boneyard()
    # Ben's arm reaches in from the left edge, its hand resting over three backs: the camera sees only two.
    table.sweep(FROM_TOP)
    table.image[40:130, 20:70] = 110
    table.image[90:120, 0:110] = 110
    table.seen = [opening, *boneyard[3:]]
    events = table.still(12)
    assert not [e for e in events if isinstance(e, MoveEvent)] and table.asked == []
    # It goes back out; Ben lays [3|6]: his play, no draw.
    table.image[40:130, 20:70] = 60
    table.image[90:120, 0:110] = 60
    for b in boneyard:
        table.paint(b.corners, 170)
    laid = _up((3, 6), 188)
    events = table.move(FROM_TOP, [opening, laid, *boneyard], paint=[(laid.corners, 210)])
    assert events == [Play("Ben", Tile(3, 6), Tile(1, 3), events[0].side)] and table.asked == []


def test_an_arm_coming_in_aslant_at_a_corner_is_told_by_where_it_points_from() -> None:
    import cv2
    import numpy as np

    from scorer.pipeline.arms import reaches_of_motion

    # A sleeve from the right edge low down, its hand reaching left and a little up: it crosses the
    # bottom edge for longer than the right one, but it comes from the right (edges: 0 bottom, 3 right).
    mask = np.zeros((90, 160), np.uint8)
    cv2.line(mask, (175, 100), (110, 68), 1, 22)
    cv2.circle(mask, (105, 66), 8, 1, -1)
    (side, _), = reaches_of_motion(mask.astype(bool))
    assert side == 3
    # Straight up from the bottom: the bottom.
    mask[:] = 0
    cv2.line(mask, (80, 95), (80, 40), 1, 14)
    (side, _), = reaches_of_motion(mask.astype(bool))
    assert side == 0
