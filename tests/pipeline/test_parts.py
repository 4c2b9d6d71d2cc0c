"""The pipeline's parts on their own: questions and their keys, the explanation of a still table,
the decision of a turn, and the one function that builds a running table session."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from scorer.layout import infer_placements, reconstruct, seen_from_detections
from scorer.layout.moves import Placement
from scorer.pipeline import MoveEvent, NeedsConfirmation, Notice, PipelineConfig, TablePipeline, open_table
from scorer.pipeline.explain import Explained, Fit, explain, unsure_new_tile
from scorer.pipeline.questions import (
    Asked, HandsLeft, PlayedTileAgain, TableUnfit, WhichOrder, WhichReading, WhoLaid, WhoOpened, WhoseArm, needs_confirmation,
)
from scorer.pipeline.still import StillTable
from scorer.pipeline.turns import Laying, Move, turn_for
from scorer.rules import Draw, Match, Pass, Play, RoundStart, Side, Tile
from scorer.pipeline.sequences import score_of
from scorer.rules.history import MatchHistory
from scorer.rules.log import MatchHeader
from scorer.vision.detector import HalfReading, TileDetection

ROOT = Path(__file__).resolve().parents[2]


def _box(pips: tuple[int, int], x: float, y: float = 120.0, sure: float = 0.99) -> TileDetection:
    corners = ((x, y), (x + 48.0, y), (x + 48.0, y + 24.0), (x, y + 24.0))
    return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x + 12, y + 12), sure), HalfReading(pips[1], (x + 36, y + 12), sure)))


def _opened(tile: Tile = Tile(1, 3), game: str = "seven-rocks", players=("Ann", "Ben", "Cid", "Dee")) -> Match:
    match = MatchHeader(game, players, len(players) == 4).new_match()
    match, _ = match.apply(RoundStart("Ann"))
    match, _ = match.apply(Play("Ann", tile))
    return match


# -- questions ----------------------------------------------------------------------------------


def test_a_question_is_put_once_until_something_else_happens() -> None:
    asked = Asked()
    opener = WhoOpened(("Ann", "Ben"))
    assert asked.put(opener) and not asked.put(WhoOpened(("Ann", "Ben")))
    assert asked.put(HandsLeft()) and asked.put(opener)  # another question came between
    asked.moved_on()
    assert asked.put(opener)


def test_a_questions_key_is_what_the_players_are_told_not_what_is_offered() -> None:
    # A place is told to the pixel: a box that moved a fraction of one is the same question.
    a = WhichReading((100.2, 50.4), ((Tile(1, 3),), (Tile(1, 5),)))
    b = WhichReading((99.8, 49.6), ((Tile(1, 3),), (Tile(1, 5),)), drawn_first=1, alternatives=((Pass("Ann"),),))
    c = WhichReading((102.0, 50.0), ((Tile(1, 3),), (Tile(1, 5),)))
    assert a.key == b.key and a.key != c.key
    assert a.reason == "the new tile at (100, 50) is read unsurely: [1|3] or [1|5]"
    # The order question names no tiles: any order question is the same one.
    assert WhichOrder(frozenset({Tile(1, 3)})).key == WhichOrder(frozenset({Tile(2, 3), Tile(3, 3)})).key
    ask = needs_confirmation(2.0, PlayedTileAgain((((10.0, 20.0), Tile(2, 2)),)))
    assert ask == NeedsConfirmation(2.0, "the table does not match the game: the tile at (10, 20) against the layout reads [2|2],"
                                         " which is already played: which tile is it?",
                                    (), ("the tile at (10, 20) against the layout reads [2|2], which is already played: which tile is it?",))


def test_the_questions_play_waits_on_are_kept_open() -> None:
    asked = Asked()
    who = WhoLaid(Tile(3, 6), "Ben", ((Play("Ben", Tile(3, 6)),),))
    asked.put(who)
    asked.put(TableUnfit(("a problem",), boxes=((1.0, 2.0),)))
    asked.put(WhichReading((5.0, 5.0), ((Tile(1, 1),),)))
    assert asked.who_laid is who and asked.boxes == ((1.0, 2.0),) and asked.reading is not None
    assert asked.reading.tiles == {Tile(1, 1)} and asked.opener is None and asked.order is None


# -- the explanation of a still table (no pictures) --------------------------------------------------


def _fit(match: Match) -> Fit:
    return Fit(match.current_board(), None, lambda layout: None, lambda d: False)


def test_a_new_tile_that_fits_is_the_move_and_a_played_tile_misread_is_the_one_seen_nowhere_else() -> None:
    match = _opened()
    tiles = [_box((1, 3), 140), _box((3, 6), 188)]
    layout = reconstruct(seen_from_detections(tiles), known=match.current_board().tiles)
    notes, reading = explain(_fit(match), match, tiles, layout, ())
    assert not notes and isinstance(reading, Explained) and [p.tile for p in reading.change.placements] == [Tile(3, 6)]
    # The played [1|3] read as [1|2], nothing new: it is the played tile seen nowhere else.
    tiles = [_box((1, 2), 140)]
    layout = reconstruct(seen_from_detections(tiles), known=match.current_board().tiles)
    notes, reading = explain(_fit(match), match, tiles, layout, ())
    assert notes == [(None, "the tile at (164, 132) read as [1|2] is taken as [1|3]: a played tile seen nowhere else")]
    assert isinstance(reading, Explained) and not reading.change.placements
    # [2|6] against the 3 fits nowhere, and no other likely reading makes it fit: asked.
    tiles = [_box((1, 3), 140), _box((2, 6), 188)]
    layout = reconstruct(seen_from_detections(tiles), known=match.current_board().tiles)
    _, question = explain(_fit(match), match, tiles, layout, ())
    assert isinstance(question, TableUnfit) and question.boxes == ((164.0, 132.0),)
    assert question.reason == ("the table does not match the game: pips do not match at a join: [2|6] at (212, 132)"
                               " shows 2 where [1|3] at (164, 132) shows 3")


def test_a_new_tile_read_as_a_played_one_with_a_half_box_over_it_is_asked_about() -> None:
    # The tile laid at the [1|3]'s 3 read as [3|1] -- already played -- and a second box half a tile off
    # over it read [4|4], unsurely: leaving the played reading out fits (nothing new), but no tile lay
    # there before -- the new tile misread.  Taken for a stray box, its move was lost and the next
    # player's tile made this one's turn a pass.
    match = _opened(Tile(1, 3))
    fit = Fit(match.current_board(), None, lambda layout: None, lambda d: d.center[0] < 170)  # (the [1|3] where it lay)

    def explained(tiles: list[TileDetection], asked: tuple[tuple[float, float], ...] = ()):
        return explain(fit, match, tiles, reconstruct(seen_from_detections(tiles), known=match.current_board().tiles), asked)[1]

    misread = [_box((1, 3), 140), _box((3, 1), 188), _box((4, 4), 200, 128, sure=0.6)]
    assert explained(misread) == PlayedTileAgain((((212.0, 132.0), Tile(1, 3)),))
    # Another tile placed meanwhile: the box is a stray one -- unless the players were asked about it.
    placing = [*misread, _box((5, 1), 92)]
    reading = explained(placing)
    assert isinstance(reading, Explained) and [p.tile for p in reading.change.placements] == [Tile(1, 5)]
    assert explained(placing, asked=((212.0, 132.0),)) == PlayedTileAgain((((212.0, 132.0), Tile(1, 3)),))
    # A second box over the played tile where it lies is a stray one: nothing new, nothing asked.
    reading = explained([_box((1, 3), 140), _box((1, 3), 152, 128, sure=0.6)])
    assert isinstance(reading, Explained) and not reading.change.placements
    # The new tile read as a played one on a place of its own, another tile placed meanwhile (set 7's
    # seven-rocks-4p-806 from twice as high: Ben's [5|6] read as the played [4|5], Cid's [0|2] beside):
    # not left out as a stray box -- Ben's move would be lost -- but asked about.
    alone = [_box((1, 3), 140), _box((3, 1), 188), _box((5, 1), 92)]
    assert explained(alone) == PlayedTileAgain((((212.0, 132.0), Tile(1, 3)),))


def _no_count(x: float, y: float = 120.0) -> TileDetection:
    """A face whose pips show on neither half (taken for a back, lying in the layout: scorer.vision.plain_backs)."""
    corners = ((x, y), (x + 48.0, y), (x + 48.0, y + 24.0), (x, y + 24.0))
    return TileDetection(corners, "up", 0.9, (HalfReading.no_count((x + 12, y + 12)), HalfReading.no_count((x + 36, y + 12))))


def test_a_face_with_no_count_read_is_never_taken_for_the_tile_its_placeholder_names() -> None:
    # Laid at the [0|3]'s 0: its placeholder reading [0|0] fits, but so does every [0|x] still in the
    # set -- the players say which (the pipeline asks where unsure_new_tile offers more than one).
    match = _opened(Tile(0, 3))
    tiles = [_box((0, 3), 140), _no_count(92)]
    layout = reconstruct(seen_from_detections(tiles), known=match.current_board().tiles)
    fit = _fit(match)
    _, reading = explain(fit, match, tiles, layout, ())
    assert isinstance(reading, Explained)
    unsure = unsure_new_tile(fit, reading.tiles, reading.layout, reading.change, lambda d: False)
    assert unsure is not None
    offered = {p.tile for _, _, change in unsure[1] for p in change.placements}
    assert offered == {Tile(0, 0), Tile(0, 1), Tile(0, 2), Tile(0, 4), Tile(0, 5), Tile(0, 6)}
    # Laid at the [1|3]'s 3: no one reading of it is taken as "the only one that fits" -- asked.
    match = _opened(Tile(1, 3))
    tiles = [_box((1, 3), 140), _no_count(188)]
    layout = reconstruct(seen_from_detections(tiles), known=match.current_board().tiles)
    notes, reading = explain(_fit(match), match, tiles, layout, ())
    assert not notes and isinstance(reading, TableUnfit)


# -- turns ----------------------------------------------------------------------------------------


def _placement(match: Match, tile: Tile, on: Tile) -> Placement:
    point = next(p for p in match.current_board().free_points() if p.tile == on and p.value in (tile.a, tile.b))
    return Placement(tile, point)


def test_a_tile_laid_by_the_arm_of_a_later_player_is_played_after_the_passes_between() -> None:
    match = _opened()
    laid = _placement(match, Tile(3, 6), Tile(1, 3))
    turn = turn_for(match, [laid], 0, Laying({laid.tile: "Cid"}, {}, False), Asked())
    assert turn == Move((Pass("Ben"), Play("Cid", Tile(3, 6), Tile(1, 3), laid.at.side)))
    # No arm seen: Ben, on turn with 7 tiles, may knock only holding none of the 11 unseen tiles that
    # fit (a chance of 1 %): his play is taken, and said.
    turn = turn_for(match, [laid], 0, Laying({laid.tile: None}, {}, False), Asked())
    assert isinstance(turn, Move) and turn.events == (Play("Ben", Tile(3, 6), Tile(1, 3), laid.at.side),)
    assert [said.text() for said in turn.said] == ["no arm was seen laying [3|6]: taken as Ben [3|6], the likeliest under the rules (99%) -- correct it if it is not"]
    # Holding one tile, Ben knocks more often than not (15 of the 26 unseen tiles do not fit): asked,
    # Cid's way (Ben knocking) offered first.
    one_left = replace(match, hand_counts=(6, 1, 7, 7))
    turn = turn_for(one_left, [laid], 0, Laying({laid.tile: None}, {}, False), Asked())
    assert isinstance(turn, WhoLaid) and turn.on_turn == "Ben"
    assert turn.alternatives[0] == (Pass("Ben"), Play("Cid", Tile(3, 6), Tile(1, 3), laid.at.side))
    assert turn.alternatives[1] == (Play("Ben", Tile(3, 6), Tile(1, 3), laid.at.side),)
    # An arm from the player before the one on turn: every other player knocking back to him is less
    # likely than an arm misread (set 7's seven-rocks-4p-806 from twice as high) -- asked, the player on
    # turn's way first.
    turn = turn_for(match, [laid], 0, Laying({laid.tile: "Ann"}, {}, False), Asked())
    assert isinstance(turn, WhoseArm) and turn.arm == "Ann" and turn.on_turn == "Ben"
    assert turn.alternatives == ((Play("Ben", Tile(3, 6), Tile(1, 3), laid.at.side),),
                                 (Pass("Ben"), Pass("Cid"), Pass("Dee"), Play("Ann", Tile(3, 6), Tile(1, 3), laid.at.side)))


def test_tiles_seen_at_once_laid_by_arms_a_player_apart_are_played_with_the_passes_between() -> None:
    # (set 4's seven-rocks-4p-506 in the `cross` style: round 2's opening [2|2] by Ann, Ben knocking,
    # Cid's [2|6] -- first read together.)  No turns in a row give the [6|6] to Dee's arm: Cid passed.
    match = _opened(Tile(1, 3))
    first = _placement(match, Tile(3, 6), Tile(1, 3))
    after_first, _ = match.apply(Play("Ben", Tile(3, 6), Tile(1, 3), first.at.side))
    second = _placement(after_first, Tile(6, 6), Tile(3, 6))
    turn = turn_for(match, [first, second], 0, Laying({first.tile: "Ben", second.tile: "Dee"}, {}, False), Asked())
    assert turn == Move((Play("Ben", Tile(3, 6), Tile(1, 3), first.at.side), Pass("Cid"), Play("Dee", Tile(6, 6), Tile(3, 6), second.at.side)))
    # Arms that agree with turns in a row, or none seen: no pass.
    turn = turn_for(match, [first, second], 0, Laying({first.tile: "Ben", second.tile: None}, {}, False), Asked())
    assert isinstance(turn, Move) and turn.events == (Play("Ben", Tile(3, 6), Tile(1, 3), first.at.side),
                                                      Play("Cid", Tile(6, 6), Tile(3, 6), second.at.side))


# -- a running table session -------------------------------------------------------------------------


class _Source:
    fps, step = 30.0, 2

    def frames(self):
        return iter(())


class _Detector:
    def detect(self, image):
        return []


def test_open_table_builds_the_pipeline_from_the_history_a_source_and_the_headers_calibration() -> None:
    profile = str(ROOT / "calibration" / "example-profile.json")
    history = MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False, calibration=profile))
    detector = _Detector()
    pipeline = open_table(history, _Source(), starter="Ben", detector=detector, still_seconds=0.6)
    assert isinstance(pipeline, TablePipeline) and pipeline.history is history and pipeline.detector is detector
    assert pipeline.config.starter == "Ben" and pipeline.config.still_seconds == 0.6
    assert pipeline.config.profile is not None and pipeline.zones == pipeline.config.profile.zones
    assert pipeline.gate.fps == 15.0  # one frame in two is read
    bare = open_table(MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False)), _Source(), detector=detector)
    assert bare.config.profile is None and bare.config.still_seconds == PipelineConfig().still_seconds


def test_a_still_table_given_whole_is_acted_on() -> None:
    pipeline = TablePipeline(MatchHeader("horse-race", ("Ann", "Ben"), False).new_match(), _Detector(), PipelineConfig(starter="Ann"))
    image = np.full((240, 320, 3), 60, np.uint8)
    events = pipeline.act(StillTable.of(1.0, 1.0, image, [], [], [], colour=True))
    assert events == [] and pipeline.zones is not None and pipeline.view.t == 1.0
    assert infer_placements(pipeline.match.current_board(), reconstruct([])).placements == []


def test_hands_laid_out_in_the_look_that_shows_the_rounds_last_tile_are_counted_from_it() -> None:
    from scorer.rules import Reveal
    from scorer.rules.simulate import simulate_match

    # (main set 9's horse-race-3-1002: the last three tiles, the hands laid out and the table cleared
    # between two still looks -- the hands were seen only in the look that ended the round.)
    sim = simulate_match("horse-race", 2, seed=5)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    last, before, reveal = sim.events[k - 1], sim.events[k - 2].after, sim.events[k].event
    assert isinstance(last.event, Play) and last.after.phase.name == "ROUND_OVER"
    pipeline = TablePipeline(before, _Detector(), PipelineConfig())
    # (The move as the layout shows it, made as Turns would.)
    pipeline.turns.play = lambda t, still, sight: pipeline.apply(t, [last.event])  # type: ignore[method-assign]
    hands = dict(reveal.hands)
    laid = [_box(pips, 100.0 + 60 * i, 680.0) for i, pips in enumerate((t.a, t.b) for t in hands[before.players[0]])]
    laid += [_box(pips, 100.0 + 60 * i, 20.0) for i, pips in enumerate((t.a, t.b) for t in hands[before.players[1]])]
    image = np.full((720, 1280, 3), 60, np.uint8)
    events = pipeline.act(StillTable.of(1.0, 1.0, image, laid, laid, [], colour=True))
    assert [e.step.event for e in events if isinstance(e, MoveEvent)] == [last.event, reveal]


def test_tiles_first_seen_in_one_look_whose_places_settled_together_are_one_move_unless_one_was_put_down_before() -> None:
    from scorer.pipeline.questions import LaidAtOnce

    # Two new tiles whose places stopped moving at one moment: one motion -- most likely one tile seen as
    # two boxes: asked.  Where one of them was read in a look before (a hand over the table then), they
    # were put down apart: played.  (cross set 1's seven-rocks-4p-205, round 2's [6|6] and [2|6].)
    match = _opened(Tile(1, 3))
    first = _placement(match, Tile(3, 6), Tile(1, 3))
    after_first, _ = match.apply(Play("Ben", Tile(3, 6), Tile(1, 3), first.at.side))
    second = _placement(after_first, Tile(6, 6), Tile(3, 6))
    arms = {first.tile: None, second.tile: None}
    together = {first.tile: 47.4, second.tile: 47.4}
    assert isinstance(turn_for(match, [first, second], 0, Laying(arms, together, True, together), Asked()), LaidAtOnce)
    apart = {first.tile: 46.0, second.tile: 47.4}
    turn = turn_for(match, [first, second], 0, Laying(arms, together, True, apart), Asked())
    assert isinstance(turn, Move) and [e.tile for e in turn.events if isinstance(e, Play)] == [Tile(3, 6), Tile(6, 6)]


@pytest.mark.parametrize("game, players, partnership, seed", [("horse-race", 2, False, 5), ("seven-rocks", 4, True, 0)])
def test_hands_laid_out_and_waiting_for_a_surer_look_when_the_recording_ends_are_counted_as_read(game, players, partnership, seed) -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Pass, Reveal
    from scorer.rules.simulate import simulate_match
    from scorer.vision.detector import HalfReading, TileDetection

    # (Seven Rocks' round is blocked: the passes before the count unseen, the round still in play as kept --
    # far set 2's seven-rocks-4p-306.)
    sim = simulate_match(game, players, partnership, seed=seed)
    blocked = game == "seven-rocks"
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal) and (not blocked or isinstance(sim.events[k - 1].event, Pass)))
    j = k
    while isinstance(sim.events[j - 1].event, Pass):
        j -= 1
    reveal, before = sim.events[k].event, sim.events[j - 1].after
    pipeline = TablePipeline(before, _Detector(), PipelineConfig())
    hands = dict(reveal.hands)
    # Every tile read unsurely: the count waits for a surer look.
    sides = ((600.0, 100.0), (10.0, 100.0), (10.0, 700.0), (600.0, 700.0))  # (y, x) of each seat's row
    unsure = [TileDetection(((x, y), (x + 48, y), (x + 48, y + 24), (x, y + 24)), "up", 0.9,
                            (HalfReading(tile.a, (x + 12, y + 12), 0.6, (((tile.a + 1) % 7, 0.4),)),
                             HalfReading(tile.b, (x + 36, y + 12), 0.99)))
              for (y, x0), player in zip(sides, before.players)
              for x, tile in zip((x0, x0 + 60, x0 + 120, x0 + 180), hands[player])]
    seats = {seat: [d for d in unsure if d.corners[0][1] == y and x0 <= d.corners[0][0] < x0 + 240]
             for seat, (y, x0) in enumerate(sides[: len(before.players)])}
    assert pipeline.rounds.reveal(1.0, {s: ds for s, ds in seats.items() if ds}) == []
    events = pipeline.finish(2.0)
    assert [e.step.event for e in events if isinstance(e, MoveEvent)] == [reveal]
    assert pipeline.match.scores() == sim.events[k].after.scores()
    assert any(isinstance(e, Notice) and "taken as read" in e.message for e in events)


def _laid_as(match: Match, plays: list[Play]) -> tuple[list[Placement], Match]:
    """The placements the plays make, one after another (where each was laid), and the match after them."""
    placements = []
    for play in plays:
        after, outcome = match.apply(play)
        placements.append(Placement(play.tile, outcome.at))
        match = after
    return placements, match


def _before_the_drop() -> tuple[Match, list[Play]]:
    """camera_dropout's film up to the 5-s drop, and the six tiles laid from then on (the truth)."""
    match = MatchHeader("horse-race", ("Ann", "Ben"), False).new_match()
    for event in (RoundStart("Ann"), Play("Ann", Tile(2, 6)), Play("Ben", Tile(4, 6), Tile(2, 6)), Play("Ann", Tile(0, 4), Tile(4, 6)),
                  Play("Ben", Tile(0, 3), Tile(0, 4)), Play("Ben", Tile(3, 6), Tile(0, 3))):
        match, _ = match.apply(event)
    _, match = _laid_as(match, [Play("Ann", Tile(0, 6), Tile(3, 6), Side.HIGH)])
    match, _ = match.apply(Draw("Ben", 1))
    _, match = _laid_as(match, [Play("Ben", Tile(0, 2), Tile(0, 6))])
    match, _ = match.apply(Draw("Ann", 3))
    _, match = _laid_as(match, [Play("Ann", Tile(2, 2), Tile(2, 6))])
    match, _ = match.apply(Draw("Ben", 4))
    return match, [Play("Ben", Tile(2, 4), Tile(2, 2)), Play("Ann", Tile(4, 4), Tile(2, 4)), Play("Ann", Tile(1, 4), Tile(4, 4)),
             Play("Ben", Tile(1, 3), Tile(1, 4)), Play("Ben", Tile(3, 3), Tile(1, 3)), Play("Ben", Tile(4, 5), Tile(4, 4), Side.BRANCH_B)]


def test_tiles_laid_while_the_camera_saw_nothing_are_ordered_by_the_layout_and_by_the_looks_that_first_saw_them() -> None:
    # (benchmarks/camera_dropout.py: a phone's stream down for 5 s in a two-player Horse Race.)  Five tiles
    # turn up at once after the drop, a chain the layout orders; the sixth, [4|5] on the [4|4], is seen in a
    # later look.  Six tiles were once taken in the order read; the orders the layout allows are tried now,
    # the tiles seen in the earlier look first -- the double [3|3] before [4|5], so that Ben's turn ends on it.
    match, truth = _before_the_drop()
    placements, after = _laid_as(match, truth)
    read = [placements[k] for k in (0, 1, 2, 3, 5, 4)]  # (as the layout lists them: [4|5] before [3|3])
    seen = {p.tile: 28.5 for p in placements[:5]} | {Tile(4, 5): 30.1}
    arms = {p.tile: None for p in placements} | {Tile(4, 5): "Ben"}
    turn = turn_for(match, read, 0, Laying(arms, {}, False, {}, seen), Asked())
    assert isinstance(turn, Move) and [(e.player, e.tile) for e in turn.events] == [(e.player, e.tile) for e in truth]
    assert after.next_player == "Ann" and score_of(match, turn.events) == after.raw_scores
    # Without the looks, the orders the layout allows score differently: asked.
    assert isinstance(turn_for(match, read, 0, Laying(arms, {}, False), Asked()), WhichOrder)
    # Asked, and a tile laid since: the order is taken on a guess (said), open to revision.
    later = turn_for(match, read, 0, Laying(arms, {}, False), Asked(order=WhichOrder(frozenset(p.tile for p in placements[:5]))))
    assert isinstance(later, Move) and later.said and later.ways


def test_the_ways_tiles_can_have_been_laid_follow_the_layout_and_the_first_looks() -> None:
    from scorer.pipeline.sequences import ways_laid

    match = _opened(Tile(3, 3), game="horse-race", players=("Ann", "Ben"))
    placements = []
    for tile, on in ((Tile(3, 5), Tile(3, 3)), (Tile(5, 5), Tile(3, 5)), (Tile(1, 3), Tile(3, 3))):
        placements.append(_placement(match, tile, on))
        match, _ = match.apply(Play(match.next_player, tile, on, placements[-1].at.side))

    def tiles(order):  # (every order allowed: the tiles in it)
        return [Play("Ann", p.tile) for p in order]

    found = sorted([e.tile for e in way] for way in ways_laid(placements, {}, tiles))
    # [5|5] on [3|5]: after it; [1|3] anywhere.
    assert found == sorted([[Tile(3, 5), Tile(5, 5), Tile(1, 3)], [Tile(3, 5), Tile(1, 3), Tile(5, 5)], [Tile(1, 3), Tile(3, 5), Tile(5, 5)]])
    first = ways_laid(placements, {Tile(1, 3): 2.0, Tile(3, 5): 3.0, Tile(5, 5): 3.0}, tiles)
    assert [[e.tile for e in way] for way in first] == [[Tile(1, 3), Tile(3, 5), Tile(5, 5)]]
    # An order refused as it begins is given up there: the ways counted are ones allowed.
    assert [[e.tile for e in way] for way in ways_laid(placements, {}, lambda order: None if order[0].tile == Tile(3, 5) else tiles(order))] == [
        [Tile(1, 3), Tile(3, 5), Tile(5, 5)]]


def test_the_orders_played_on_from_their_beginnings_are_those_played_from_the_start() -> None:
    from scorer.pipeline.sequences import PlayedOn, sequence_for, ways_laid

    match, truth = _before_the_drop()
    placements, _ = _laid_as(match, truth)
    for prefix in ([], [Draw("Ben", 2)], [Draw("Ann", 1)]):  # (the last refused: it is Ben's turn)
        kept = PlayedOn(match, prefix)
        assert ways_laid(placements, {}, kept) == ways_laid(placements, {}, lambda order: sequence_for(match, prefix, order))
        assert ways_laid(placements, {}, kept) == ways_laid(placements, {}, lambda order: sequence_for(match, prefix, order))
    assert ways_laid(placements, {}, PlayedOn(match, [])) and not ways_laid(placements, {}, PlayedOn(match, [Draw("Ann", 1)]))


def test_frames_that_stop_coming_for_a_while_leave_the_moves_between_unseen() -> None:
    from scorer.pipeline.arms import BLIND_SECONDS
    from scorer.pipeline.sources import Frame

    pipeline = TablePipeline(MatchHeader("horse-race", ("Ann", "Ben"), False).new_match(), _Detector(), PipelineConfig(starter="Ann"))
    image = np.full((240, 320, 3), 60, np.uint8)
    for index in range(3):
        pipeline.feed(Frame(index, index / 30, image))
    assert not pipeline.arms.blind
    pipeline.feed(Frame(3, 2 / 30 + BLIND_SECONDS + 0.1, image))
    assert pipeline.arms.blind
    # The table is read again once still, though it looks the same: a tile laid later in view is seen laid.
    for index in range(4, 40):
        pipeline.feed(Frame(index, BLIND_SECONDS + index / 30, image))
    assert not pipeline.arms.blind and len(pipeline.arms.reads_after_blind) == 1


def _taken_in_a_wrong_order() -> tuple[TablePipeline, tuple[Play, ...], tuple[tuple[Play, ...], ...], Match]:
    """The six tiles of the drop taken, unanswered, with Ben's [4|5] before his double [3|3]; the ways the rules
    allowed; the match before them."""
    from scorer.pipeline.sequences import sequence_for, ways_laid

    match, truth = _before_the_drop()
    placements, _ = _laid_as(match, truth)
    ways = tuple(tuple(way) for way in ways_laid(placements, {}, lambda order: sequence_for(match, [], order)))
    taken = next(way for way in ways if [e.tile for e in way if isinstance(e, Play)][-2:] == [Tile(4, 5), Tile(3, 3)])
    pipeline = TablePipeline(MatchHistory.of(match), _Detector(), PipelineConfig())
    pipeline.apply(30.1, taken)
    pipeline.turns.orders.take(taken, ways)
    return pipeline, taken, ways, match


def test_the_players_pick_another_order_for_tiles_taken_in_one_unanswered() -> None:
    from scorer.pipeline.notices import OrderPicked
    from scorer.pipeline.sequences import state_after
    from scorer.rules.transcript import scores_text

    pipeline, taken, ways, before = _taken_in_a_wrong_order()
    _, truth_after = _laid_as(*_before_the_drop())
    truth = next(way for way in ways if (m := state_after(before, way)).raw_scores == truth_after.raw_scores and m.next_player == "Ann")
    open_order = pipeline.order_to_pick()
    assert open_order is not None and open_order.guess.taken == taken == open_order.ways[0] and open_order.before == before
    # One way for each state of the game they leave, the truth's among them.
    states = [state_after(before, way) for way in open_order.ways]
    assert len(ways) >= len(open_order.ways) == len({(m.raw_scores, m.turn, m.hand_counts) for m in states}) > 1
    left = [(m.raw_scores, m.next_player, m.hand_counts) for m in states]
    assert (truth_after.raw_scores, truth_after.next_player, truth_after.hand_counts) in left
    # Picked: the round written so, said once with the scores then (not move by move: the players are at the screen).
    events = pipeline.pick_order(truth, 40.0)
    assert [e.said for e in events if isinstance(e, Notice)] == [OrderPicked(truth, scores=scores_text(truth_after))]
    assert not any(isinstance(e, MoveEvent) for e in events)
    assert pipeline.match.raw_scores == truth_after.raw_scores and pipeline.match.next_player == "Ann"
    # Picked, it is open to another pick, as now taken; picking the one taken changes nothing.
    assert (again := pipeline.order_to_pick()) is not None and again.guess.taken == truth == again.ways[0]
    assert pipeline.pick_order(truth, 41.0) == []
    # The players' pick is their answer: a later tile the camera cannot fit to it does not make it revised away.
    assert pipeline.turns.orders.revised(41.5, Tile(1, 5), lambda m: m.next_player == "Ben") == []
    assert pipeline.match.next_player == "Ann"
    # Back to the first order: the round written so again.
    pipeline.pick_order(taken, 42.0)
    assert pipeline.match.next_player == "Ben" and tuple(pipeline.match.history[-len(taken):]) == taken


def test_only_the_orders_the_moves_since_fit_are_offered_and_one_withdrawn_is_gone() -> None:
    from scorer.pipeline.notices import OrderPicked
    from scorer.pipeline.sequences import state_after

    pipeline, taken, ways, before = _taken_in_a_wrong_order()
    ann_next = next(way for way in ways if state_after(before, way).next_player == "Ann")
    assert (open_order := pipeline.order_to_pick()) is not None and any(state_after(before, w).next_player == "Ann" for w in open_order.ways)
    # Ben, left on turn by the order taken, plays on: no way leaving Ann on turn fits the moves since -- none offered,
    # and one picked all the same is refused, told why.
    pipeline.apply(45.0, [Draw("Ben", 1)])
    history = pipeline.match.history
    open_order = pipeline.order_to_pick()
    assert open_order is None or all(state_after(before, w).next_player == "Ben" for w in open_order.ways)
    assert [e.said for e in pipeline.pick_order(ann_next, 46.0) if isinstance(e, Notice)] == [OrderPicked(ann_next, kept=True)]
    assert pipeline.match.history == history
    # The moves taken withdrawn (undo): no order is open to a pick now, and one picked is told so.
    pipeline.rewind(len(pipeline.history.steps) - len(taken) - 1)
    assert pipeline.order_to_pick() is None
    assert [e.said for e in pipeline.pick_order(ann_next, 47.0) if isinstance(e, Notice)] == [OrderPicked(ann_next, gone=True)]

def test_an_order_taken_unanswered_that_a_later_arm_contradicts_is_played_otherwise() -> None:
    # The six tiles of the drop asked about, unanswered, and taken in the order read: Ben's [4|5] before his double
    # [3|3], which leaves Ben on turn.  Ann's arm lays [1|5] next: the round is written again with the way the rules
    # allowed that lets Ann play it -- the double first -- said, and the table read again.
    from scorer.pipeline.notices import OrderRevised
    from scorer.pipeline.sequences import sequence_for, ways_laid

    match, truth = _before_the_drop()
    placements, after = _laid_as(match, truth)
    ways = tuple(tuple(way) for way in ways_laid(placements, {}, lambda order: sequence_for(match, [], order)))
    taken = next(way for way in ways if [e.tile for e in way if isinstance(e, Play)][-2:] == [Tile(4, 5), Tile(3, 3)])
    (laid,), _ = _laid_as(after, [Play("Ann", Tile(1, 5), Tile(4, 5))])

    def taken_so(ways_offered: tuple[tuple[Play, ...], ...]) -> TablePipeline:
        pipeline = TablePipeline(MatchHistory.of(match), _Detector(), PipelineConfig())
        pipeline.apply(30.1, taken)
        assert pipeline.match.next_player == "Ben"
        pipeline.turns.orders.take(taken, ways_offered)
        pipeline.turns._laying = lambda t, placements: Laying({laid.tile: "Ann"}, {}, False)  # type: ignore[method-assign]
        return pipeline

    pipeline = taken_so(ways)
    events = pipeline.turns.lay(31.7, [laid], 0)
    assert [(e.player, e.tile) for e in pipeline.match.history if isinstance(e, Play)][-6:] == [(e.player, e.tile) for e in truth]
    assert pipeline.match.next_player == "Ann" and pipeline.match.raw_scores == after.raw_scores
    assert any(isinstance(e, Notice) and isinstance(e.said, OrderRevised) for e in events)
    # The order stays open to the players' pick, as now taken.
    revised = tuple(pipeline.match.history[-len(taken):])  # ([1|5] is played at the look again)
    assert (open_order := pipeline.order_to_pick()) is not None and open_order.guess.taken == revised
    # Where no way lets the tile be played so, the players are asked, as before.
    pipeline = taken_so((taken,))
    assert any(isinstance(e, NeedsConfirmation) for e in pipeline.turns.lay(31.7, [laid], 0))
    assert pipeline.match.next_player == "Ben"
