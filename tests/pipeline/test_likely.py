"""Where the camera saw no arm lay a tile: how likely each way is under the rules, and a question
left open when a recording ends settled on its likeliest answer."""

from __future__ import annotations

from math import comb

import pytest

from scorer.pipeline import MoveEvent, Notice, TablePipeline
from scorer.pipeline.likely import chance_none_fits, chances
from scorer.pipeline.questions import WhoLaid
from scorer.rules import Pass, Play, RoundStart, Tile
from scorer.rules.log import MatchHeader


def _opened():
    match = MatchHeader("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), True).new_match()
    match, _ = match.apply(RoundStart("Ann"))
    match, _ = match.apply(Play("Ann", Tile(1, 3)))
    return match


def test_the_chance_that_no_tile_held_fits_is_hypergeometric() -> None:
    assert chance_none_fits(10, 3, 2) == pytest.approx(comb(7, 2) / comb(10, 2))
    assert chance_none_fits(10, 0, 4) == 1.0
    assert chance_none_fits(10, 10, 1) == 0.0
    assert chance_none_fits(3, 1, 5) == 0.0  # (more held than unseen: no such hand)


def test_a_knock_is_as_likely_as_a_hand_of_which_nothing_fits() -> None:
    match = _opened()
    on_turn = (Play("Ben", Tile(3, 6), Tile(1, 3)),)
    knocked = (Pass("Ben"), Play("Cid", Tile(3, 6), Tile(1, 3)))
    odds = chances(match, [on_turn, knocked])
    assert sum(odds) == pytest.approx(1.0)
    # 26 tiles unseen (besides [3|6]), 11 of them fit the 1 or the 3; Ben holds 7, Cid 7.
    knock = comb(15, 7) / comb(26, 7)
    assert odds[1] / odds[0] == pytest.approx(knock)


class _NoTiles:
    def detect(self, image):
        return []


def test_a_question_open_when_the_recording_ends_is_settled_on_its_likeliest_answer() -> None:
    pipeline = TablePipeline(_opened(), _NoTiles())
    likeliest = (Play("Ben", Tile(3, 6), Tile(1, 3)),)
    pipeline.put(4.0, WhoLaid(Tile(3, 6), "Ben", (likeliest, (Pass("Ben"), Play("Cid", Tile(3, 6), Tile(1, 3))))))
    events = pipeline.finish(5.0)
    notices = [e.message for e in events if isinstance(e, Notice)]
    assert notices == ["no answer about who laid [3|6]: taken as Ben [3|6], the likeliest under the rules -- correct it if it is not"]
    assert [e.step.event for e in events if isinstance(e, MoveEvent)] == [likeliest[0]]
    assert pipeline.finish(6.0) == []  # (nothing open any more)
