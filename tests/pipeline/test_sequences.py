"""The rules events that can explain new tiles on the table (scorer.pipeline.sequences)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from scorer.layout.moves import Placement
from scorer.pipeline.sequences import (
    in_order_put_down, laid_after_passes, passes_until, played_as, put_down_apart, score_of, sequence_by_arms, sequence_for,
)
from scorer.rules import Match, Pass, Play, Tile
from scorer.vision.detector import HalfReading, TileDetection
from tests.conftest import t


def _placed_on(match: Match, tile: tuple[int, int], value: int) -> Placement:
    """``tile`` laid at the free point of the board showing ``value``."""
    point = next(p for p in match.current_board().free_points() if p.value == value)
    return Placement(t(*tile), point)


def test_the_passes_from_the_player_on_turn_up_to_another(sr4: Match) -> None:
    assert passes_until(sr4, "Ann") == []
    assert passes_until(sr4, "Cid") == [Pass("Ann"), Pass("Ben")]


def test_a_sequence_the_rules_do_not_allow_is_none(sr4: Match) -> None:
    opening = Placement(t(1, 2), None)
    assert sequence_for(sr4, [], [opening]) == [Play("Ann", t(1, 2), None, None)]
    # The round's starter opens it: nobody else, the starter passing first.
    assert sequence_for(sr4, passes_until(sr4, "Ben"), [opening]) is None
    assert laid_after_passes(sr4, opening) == ()


def test_each_later_player_may_have_laid_a_tile_those_between_passing(sr4: Match) -> None:
    m, _ = sr4.apply(Play("Ann", t(1, 2)))
    ways = laid_after_passes(m, _placed_on(m, (2, 4), 2))
    # (Seven Rocks has no boneyard: a pass is always the rules' to allow.)
    assert [[e.player for e in way] for way in ways] == [["Ben", "Cid"], ["Ben", "Cid", "Dee"], ["Ben", "Cid", "Dee", "Ann"]]
    assert all(isinstance(way[-1], Play) and way[-1].tile == t(2, 4) for way in ways)


def test_tiles_seen_at_once_are_taken_in_the_order_their_places_settled(sr4: Match) -> None:
    m, _ = sr4.apply(Play("Ann", t(1, 2)))
    first, second = _placed_on(m, (2, 4), 2), _placed_on(m, (1, 6), 1)
    candidates = [seq for order in ((first, second), (second, first)) if (seq := sequence_for(m, [], order)) is not None]
    chosen = in_order_put_down(candidates, {t(1, 6): 3.0, t(2, 4): 3.5})
    assert played_as(chosen) == "Ben [1|6], then Cid [2|4]"
    # Settled too close together to tell apart: the first legal sequence.
    assert in_order_put_down(candidates, {t(1, 6): 3.0, t(2, 4): 3.1}) == candidates[0]
    assert put_down_apart([3.0, 3.5]) and not put_down_apart([3.0, 3.1]) and put_down_apart([None, 3.0])
    assert score_of(m, chosen) == m.apply(chosen[0])[0].apply(chosen[1])[0].raw_scores


def test_tiles_settled_at_once_are_not_played_after_one_that_settled_clearly_later(sr4: Match) -> None:
    # [2|4] laid on the 2, [4|6] against it (its arm moving the [2|4]'s place too: both settled at once),
    # [1|6] laid last, on the 1: no order settles them all apart, but [1|6] is not played first.
    m, _ = sr4.apply(Play("Ann", t(1, 2)))
    first, second = _placed_on(m, (2, 4), 2), _placed_on(m, (1, 6), 1)
    m2, _ = m.apply(Play("Ben", t(2, 4)))
    against = _placed_on(m2, (4, 6), 4)
    orders = ((second, first, against), (first, second, against), (first, against, second))
    candidates = [seq for order in orders if (seq := sequence_for(m, [], order)) is not None]
    assert len(candidates) == 3
    chosen = in_order_put_down(candidates, {t(2, 4): 50.6, t(4, 6): 50.67, t(1, 6): 52.2})
    assert played_as(chosen) == "Ben [2|4], then Cid [4|6], then Dee [1|6]"


def test_tiles_played_as_the_arms_that_laid_them_tell_those_between_passing(sr4: Match) -> None:
    m, _ = sr4.apply(Play("Ann", t(1, 2)))
    first, second = _placed_on(m, (2, 4), 2), _placed_on(m, (1, 6), 1)
    # [2|4] by Cid (Ben passing), [1|6] with no arm seen: by the player then on turn, Dee.
    seq = sequence_by_arms(m, [first, second], {t(2, 4): "Cid", t(1, 6): None})
    assert played_as(seq) == "Ben passed, then Cid [2|4], then Dee [1|6]"
    # Laid by the player who has just played, with a whole round of passes between: the rules allow it,
    # but two arms misread are likelier than the whole table knocking (set 7's seven-rocks-4p-806): none.
    assert sequence_by_arms(m, [first, second], {t(2, 4): "Ben", t(1, 6): "Ben"}) is None


def test_no_tile_is_played_by_the_arms_after_the_round_is_over(hr2: Match) -> None:
    # Horse Race of two: Ann goes out with her seventh tile; a tile more cannot be anyone's.
    from dataclasses import replace

    m = replace(hr2, hand_counts=(1, 7))
    opening, more = Placement(t(1, 2), None), Placement(t(2, 4), None)
    assert sequence_by_arms(m, [opening, more], {t(1, 2): "Ann", t(2, 4): "Ben"}) is None


def box(x: float, tile: Tile) -> TileDetection:
    """A tile 40 px long lying along the top of the picture from ``x``, read surely."""
    return TileDetection(((x, 0), (x + 40, 0), (x + 40, 20), (x, 20)), "up", 0.9,
                         (HalfReading(tile.a, (x + 10, 10), 0.99), HalfReading(tile.b, (x + 30, 10), 0.99)))


class NoLayout:
    """A layout that does not read the boxes again (Arms.note_places then takes the boxes' readings)."""

    tiles: list = []


def test_a_tile_is_put_down_when_first_read_though_the_next_ones_arm_moved_its_place_again() -> None:
    # cross set 1 at 1.6's horse-race-4-203: [4|5] first read at 50.9 (the gate's clock), [2|6] laid beside
    # it, settled at 51.5; the arm drawing after them moved the [4|5]'s place again at 52.2.
    from scorer.pipeline.arms import Arms

    arms = Arms(lambda box: None)
    arms.note_places([box(0, t(4, 5))], NoLayout(), 50.93)
    arms.note_places([box(300, t(2, 6))], NoLayout(), 40.0)  # (a misreading elsewhere, long before)
    arms.note_places([box(0, t(4, 5)), box(100, t(2, 6))], NoLayout(), 52.4)
    arms.settled = {t(4, 5): 52.17, t(2, 6): 51.53}
    assert arms.put_down() == {t(4, 5): 50.93, t(2, 6): 51.53}


def test_a_tile_misread_at_first_was_put_down_when_a_box_first_lay_at_its_place() -> None:
    # set 4's seven-rocks-4p-506: Ben's [1|4] (x 0) read as the played [1|6], a box half a tile off over it
    # as [4|4], at 53.5 and 55.1 (the gate's clock); Cid's [2|5] laid at 54.6 (x 200); Dee's [4|4] against
    # the [1|4] at 56.2, moving its place again; at 56.7 both read right.  Ben laid the [1|4], first.
    from scorer.pipeline.arms import Arm, Arms

    def look(at: float, side: int, boxes: list[TileDetection]) -> None:
        # The arm that moved before the look; the table read two frames after it was still.
        arms.arms.append(Arm(at - 0.13, ((side, np.zeros((4, 4), bool)),)))
        arms.note_places(boxes, NoLayout(), at)
        arms.read(at, boxes)

    arms = Arms(lambda box: None)
    look(51.9, 0, [box(300, t(1, 6))])
    look(53.53, 1, [box(300, t(1, 6)), box(0, t(1, 6)), box(-17, t(4, 4))])
    look(55.13, 2, [box(300, t(1, 6)), box(0, t(1, 6)), box(-17, t(4, 4)), box(200, t(2, 5))])
    look(56.73, 3, [box(300, t(1, 6)), box(0, t(1, 4)), box(-40, t(4, 4)), box(200, t(2, 5))])
    arms.settled = {t(1, 4): 56.2, t(4, 4): 56.2, t(2, 5): 54.6}
    assert arms.put_down() == {t(1, 4): 53.53, t(4, 4): 56.2, t(2, 5): 54.6}
    assert [arms.side_that_laid(tile) for tile in (t(1, 4), t(2, 5), t(4, 4))] == [1, 2, 3]
    # A box of the round before at the place proves nothing: the round is over.
    arms.round_over()
    arms.note_places([box(0, t(3, 3))], NoLayout(), 60.0)
    arms.settled = {t(3, 3): 61.0}
    assert arms.put_down() == {t(3, 3): 60.0}
    # Where tiles were read follows a knocked camera: a tile laid where another lay before the knock
    # (one tile's length away) is first read when it is, and the one moved keeps its first read.
    arms = Arms(lambda box: None)
    look(70.0, 0, [box(0, t(1, 3))])
    arms.follow((40.0, 0.0))
    look(72.0, 2, [box(40, t(1, 3)), box(0, t(6, 1))])
    assert arms.first_read[t(6, 1)][0] == 72.0 and arms.first_read[t(1, 3)][0] == 70.0
    # A round opened on a table never seen cleared: the boxes read before lay on the last round's table.
    look(80.0, 0, [box(0, t(1, 3)), box(40, t(3, 3))])  # (after the count, the old layout still there)
    arms.first_read_now([(box(40, t(3, 5)), t(3, 5))], 82.0, 82.0)
    look(84.0, 1, [box(40, t(3, 5)), box(80, t(5, 5))])
    assert arms.first_read[t(3, 5)][0] == 82.0 and arms.first_read[t(5, 5)][0] == 84.0
    # A look since, the old layout swept away but for a stray box read unsurely, saw the table bare: the
    # next round's tiles read after it are dated from their first reads (set 10's seven-rocks-4p-1105).
    from dataclasses import replace

    look(90.0, 0, [box(0, t(1, 3)), box(40, t(3, 3))])  # (after the next count, the old layout still there)
    stray = box(600, t(4, 4))
    look(92.0, 0, [replace(stray, halves=tuple(replace(h, confidence=0.1) for h in stray.halves))])
    look(94.0, 3, [box(40, t(5, 6))])
    arms.first_read_now([(box(40, t(5, 6)), t(5, 6)), (box(80, t(4, 6)), t(4, 6))], 96.0, 96.0)
    assert arms.first_read[t(5, 6)][0] == 94.0 and arms.first_read[t(4, 6)][0] == 96.0


def test_of_two_tiles_first_seen_at_once_the_one_read_in_a_look_before_opened_the_round() -> None:
    # cross set 1's seven-rocks-4p-205: Cid's opening [6|6] was read in a look with a hand over the table
    # (at 46.0, the gate's clock; such a look cannot act), Dee's [2|6] laid against it by the next look
    # (47.6), where both were first seen.  Their places settled together: [6|6] opened the round.
    from scorer.pipeline.arms import Arms

    class Both:  # (the layout the two make: its tiles as read, both of the played layout)
        tiles = [SimpleNamespace(tile=t(2, 6)), SimpleNamespace(tile=t(6, 6))]
        component = [0, 1]

    arms = Arms(lambda box: None)
    arms.read(44.33, [])
    arms.read(46.0, [box(40, t(6, 6))])
    both = [box(0, t(2, 6)), box(40, t(6, 6))]
    arms.seen([t(2, 6), t(6, 6)], 47.6)
    arms.note_places(both, NoLayout(), 47.6)
    arms.read(47.6, both)
    arms.settled = {t(2, 6): 47.4, t(6, 6): 47.4}
    assert arms.opening_tile(Both()) == t(6, 6)


def test_a_round_opened_on_a_table_seen_bare_only_under_a_hand_first_reads_its_tiles_since_then() -> None:
    # The same film: round 1's layout cleared away, and the table seen bare, while a hand was over it
    # (looks that cannot act); [6|6] read at 46.0 under the hand; the round opened at 47.6 with [2|6]
    # beside it.  Round 1's [4|6] had lain where the [6|6] lies: forgotten, as every tile of round 1.
    from scorer.pipeline.arms import Arms

    arms = Arms(lambda box: None)
    arms.note_places([box(40, t(4, 6))], NoLayout(), 5.4)
    arms.seen([t(4, 6)], 5.4)
    arms.read(41.0, [box(40, t(4, 6))])
    arms.read(43.4, [])
    arms.read(46.0, [box(40, t(6, 6))])
    both = [box(0, t(2, 6)), box(40, t(6, 6))]
    arms.read(47.6, both)
    arms.first_read_now([(d, tile) for d, tile in zip(both, (t(2, 6), t(6, 6)))], 47.6, 47.5)
    assert {tile: when for tile, (when, _) in arms.first_read.items()} == {t(2, 6): 47.6, t(6, 6): 46.0}
    assert arms.first_seen == {t(2, 6): 47.5, t(6, 6): 47.5}
    # A bare table seen before the last round is no mark of this one: with no bare look since that round
    # ended, the tiles were first read now.
    arms = Arms(lambda box: None)
    arms.read(1.0, [])
    arms.read(5.0, [box(40, t(3, 3))])
    arms.round_over()
    both = [box(0, t(2, 4)), box(40, t(4, 4))]
    arms.read(14.0, both)
    arms.first_read_now([(d, tile) for d, tile in zip(both, (t(2, 4), t(4, 4)))], 14.0, 14.0)
    assert {tile: when for tile, (when, _) in arms.first_read.items()} == {t(2, 4): 14.0, t(4, 4): 14.0}


def test_a_tile_read_by_a_stray_box_too_lies_where_the_layout_has_it() -> None:
    # set 10's seven-rocks-4p-1105: something at the table's edge, read unsurely as one tile after another,
    # read [3|4] in the look where Ben laid the [3|4]: the tile's place and first read are the layout's box,
    # not the stray one (whose place had settled long before, giving the tile to an earlier arm).
    from types import SimpleNamespace

    from scorer.pipeline.arms import Arms

    laid, beside, stray = box(40, t(3, 4)), box(0, t(2, 3)), box(600, t(3, 4))
    for boxes, component in (([laid, beside, stray], [0, 1]), ([stray, beside, laid], [1, 2])):
        arms = Arms(lambda box: None)
        layout = SimpleNamespace(tiles=[SimpleNamespace(pips=d.pips) for d in boxes], component=component)
        arms.note_places(boxes, layout, 10.0)  # type: ignore[arg-type]
        assert arms.places[t(3, 4)] == laid.center and arms.first_read[t(3, 4)][1] == laid.center


def test_tiles_first_read_after_the_frames_stopped_coming_were_laid_unseen() -> None:
    # A phone's stream down for 5 s (benchmarks/camera_dropout.py): the tiles first read in the first look
    # after it were laid while the camera saw nothing -- when, and by whose arm, is not known; a tile read
    # before the gap, or first read in a later look, was seen laid.
    from scorer.pipeline.arms import Arm, Arms

    arms = Arms(lambda box: None)
    arms.frame_size = (640, 480)

    def look(at: float, boxes: list[TileDetection]) -> None:
        arms.arms.append(Arm(at - 0.13, ((1, np.ones((4, 4), bool)),)))
        arms.note_places(boxes, NoLayout(), at)
        arms.read(at, boxes)

    look(17.6, [box(0, t(2, 2))])
    assert not arms.frame_came(17.9, 15.0)
    assert arms.frame_came(23.0, 15.0)  # (none for 5 s)
    look(18.6, [box(0, t(2, 2)), box(100, t(2, 4)), box(200, t(4, 4))])
    look(20.2, [box(0, t(2, 2)), box(100, t(2, 4)), box(200, t(4, 4)), box(300, t(4, 5))])
    arms.settled = {t(2, 2): 17.4, t(2, 4): 18.4, t(4, 4): 18.4, t(4, 5): 20.0}
    assert [arms.laid_unseen(tile) for tile in (t(2, 2), t(2, 4), t(4, 4), t(4, 5))] == [False, True, True, False]
    assert arms.put_down() == {t(2, 2): 17.4, t(4, 5): 20.0}
    assert arms.side_that_laid(t(2, 4)) is None and arms.side_that_laid(t(4, 5)) == 1
