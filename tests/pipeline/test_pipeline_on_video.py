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
from scorer.pipeline.replay import run
from scorer.rules.log import MatchHeader, event_to_json
from scorer.rules.transcript import score_log
from scorer.sessions import Session
from tests.pipeline.test_recount import laid_out_hands


def _key(d: dict) -> tuple:
    # (A round's starter too: a round credited to the wrong starter is scored wrong from its first tile.)
    return (d["type"], d.get("player") or d.get("starter"), tuple(d.get("tile", ())), d.get("count"))


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
    session = Session.create(header, tmp_path)
    recorded = session.path
    pipeline = TablePipeline(session, detector, PipelineConfig(), fps=source.fps / 2)
    moves: list[MoveEvent] = []
    asked: list[NeedsConfirmation] = []
    run(detector.follow(source), pipeline, lambda e: moves.append(e) if isinstance(e, MoveEvent) else asked.append(e) if isinstance(e, NeedsConfirmation) else None)
    session.close()
    truth = [json.loads(line) for line in truth_log.read_text().splitlines()[1:]]
    # The first round's starter is drawn by lot; with no --starter the arm that opens tells it.
    assert [_key(event_to_json(m.step.event)) for m in moves] == [_key(t) for t in truth]
    # The recorded session log scores the same on its own.
    _, steps = score_log(recorded.read_text().splitlines())
    assert list(steps)[-1].after.scores() == pipeline.match.scores()
    # Every play was announced, in both languages.
    plays = [m for m in moves if m.step.event.__class__.__name__ == "Play"]
    assert all(m.announcement and m.announcement.fi and m.announcement.en for m in plays)


def test_a_corrected_reading_is_used_for_the_move(tmp_path: Path) -> None:
    """A tile misread once and corrected by a person is then played as corrected."""
    import numpy as np

    from scorer.pipeline.sources import Frame
    from scorer.rules import Tile
    from scorer.vision.detector import HalfReading, TileDetection

    def tile(pips, x):
        corners = ((x, 100.0), (x + 96.0, 100.0), (x + 96.0, 148.0), (x, 148.0))
        return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x + 24, 124), 0.99), HalfReading(pips[1], (x + 72, 124), 0.99)))

    class Misreading:
        def __init__(self):
            self.tiles = []

        def detect(self, image):
            return list(self.tiles)

    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    det = Misreading()
    pipe = TablePipeline(header.new_match(), det, PipelineConfig(starter="Ann"), fps=10)
    frames = iter(range(10_000))

    def show(image_value: int, n: int = 10):
        # A table whose middle changes with each state (a new tile is a local change).
        image = np.full((240, 320, 3), 60, np.uint8)
        image[80:160, 100:220] = image_value
        out = []
        for _ in range(n):
            i = next(frames)
            out += pipe.feed(Frame(i, i / 10, image))
        return out

    show(40)
    det.tiles = [tile((1, 4), 100)]
    events = show(90)
    assert [e.step.event.tile for e in events if isinstance(e, MoveEvent) and hasattr(e.step.event, "tile")] == [Tile(1, 4)]
    # [4|6] is laid on the 4 but read as [5|6]: it fits nowhere, so the pipeline asks.
    det.tiles = [tile((1, 4), 100), tile((5, 6), 197)]
    events = show(140)
    assert any(isinstance(e, NeedsConfirmation) for e in events)
    assert not any(isinstance(e, MoveEvent) for e in events)
    # The person clicks it and says [4|6]; the camera still reads [5|6], the correction wins.
    pipe.correct_reading((245.0, 124.0), Tile(4, 6))
    events = show(140, n=3)
    plays = [e.step.event for e in events if isinstance(e, MoveEvent)]
    assert [p.tile for p in plays] == [Tile(4, 6)] and pipe.match.current_board().end_sum() == 1 + 6


def _rect(x, y, w, h):
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _up(pips, x, y=120.0, length=48.0):
    from scorer.vision.detector import HalfReading, TileDetection

    middle = y + length / 4
    return TileDetection(_rect(x, y, length, length / 2), "up", 0.9,
                         (HalfReading(pips[0], (x + length / 4, middle), 0.99), HalfReading(pips[1], (x + 3 * length / 4, middle), 0.99)))


class ScriptedTable:
    """A 320x240 table drawn in grey blocks, an arm sweeping in for each move, and a detector
    that reports whatever the test says it sees (which may be wrong)."""

    def __init__(self, players=("Ann", "Ben"), starter="Ann", game="horse-race", partnership=False) -> None:
        import numpy as np

        from scorer.pipeline.sources import Frame

        self.Frame = Frame
        self.seen: list = []
        self.asked: list[NeedsConfirmation] = []
        self.events: list = []
        header = MatchHeader(game, players, partnership)
        self.pipe = TablePipeline(header.new_match(), self, PipelineConfig(starter=starter), fps=10)
        self.image = np.full((240, 320, 3), 60, np.uint8)
        self.index = 0
        self.still(10)

    def detect(self, image):
        return list(self.seen)

    def feed(self, image) -> list:
        self.index += 1
        events = self.pipe.feed(self.Frame(self.index, self.index / 10, image))
        self.events += events
        self.asked += [e for e in events if isinstance(e, NeedsConfirmation)]
        return events

    def still(self, n: int) -> list:
        out = []
        for _ in range(n):
            out += self.feed(self.image.copy())
        return out

    def paint(self, corners, value: int) -> None:
        (x0, y0), (x1, y1) = corners[0], corners[2]
        self.image[int(y0) : int(y1), int(x0) : int(x1)] = value

    def sweep(self, *regions: tuple[slice, slice], paint=(), erase=()) -> list:
        """Arms (or a player shifting in a seat) move over the ``regions`` (rows, columns) at once and
        leave; the table then shows ``paint``ed tiles (corners, grey value) and ``erase``d places."""
        out = []
        for k in range(6):
            image = self.image.copy()
            for region in regions:
                image[region] = 200 if k % 2 else 150
            out += self.feed(image)
        for corners, value in paint:
            self.paint(corners, value)
        for corners in erase:
            self.paint(corners, 60)
        return out

    def move(self, arm: tuple[slice, slice], seen: list, paint=(), erase=()) -> list:
        """An arm sweeps over ``arm`` (rows, columns) and leaves; the table then shows ``paint``d tiles
        (corners, grey value) and ``erase``d places, and the detector reports ``seen``."""
        out = self.sweep(arm, paint=paint, erase=erase)
        self.seen = seen
        out += self.still(10)
        return [e.step.event for e in out if isinstance(e, MoveEvent)]


FROM_BOTTOM, FROM_TOP = (slice(120, 240), slice(130, 200)), (slice(0, 140), slice(150, 230))


def test_a_face_down_tile_missed_once_is_no_draw_a_tile_taken_from_the_boneyard_is() -> None:
    from scorer.rules import Draw, Play, Tile
    from scorer.vision.detector import TileDetection

    boneyard = [TileDetection(_rect(8.0, 40.0 + 28 * k, 48.0, 24.0), "down", 0.9) for k in range(5)]
    table = ScriptedTable()
    for b in boneyard:
        table.paint(b.corners, 170)
    events = table.move(FROM_BOTTOM, [_up((1, 3), 140), *boneyard], paint=[(_up((1, 3), 140).corners, 200)])
    assert [e for e in events if isinstance(e, Play)] == [Play("Ann", Tile(1, 3))]
    # Ben plays; one boneyard tile is missed in this reading, but it still lies there.
    events = table.move(FROM_TOP, [_up((1, 3), 140), _up((3, 6), 188), *boneyard[1:]], paint=[(_up((3, 6), 188).corners, 210)])
    assert [(type(e), e.player) for e in events] == [(Play, "Ben")] and events[0].tile == Tile(3, 6)
    # Ann takes a tile from the boneyard and plays it: that is a draw (the missed one is seen again).
    through_boneyard = (slice(30, 240), slice(0, 200))
    events = table.move(through_boneyard, [_up((5, 1), 92), _up((1, 3), 140), _up((3, 6), 188), *boneyard[:2], *boneyard[3:]],
                        paint=[(_up((5, 1), 92).corners, 190)], erase=[boneyard[2].corners])
    assert events[0] == Draw("Ann", 1) and events[1].tile == Tile(1, 5) and len(events) == 2


def _opened_beside_a_boneyard():
    """A table Ann opened with [1|3] (at x = 140), five backs of the boneyard lying at its left edge."""
    from scorer.vision.detector import TileDetection

    boneyard = [TileDetection(_rect(8.0, 40.0 + 28 * k, 48.0, 24.0), "down", 0.9) for k in range(5)]
    table = ScriptedTable()
    for b in boneyard:
        table.paint(b.corners, 170)
    opening = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [opening, *boneyard], paint=[(opening.corners, 200)])
    return table, opening, boneyard


@pytest.mark.parametrize("read_then", ["unsurely", "surely"])
def test_a_draw_made_while_a_question_about_the_tile_laid_is_open_comes_after_that_tile(read_then: str) -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Draw, Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    table, opening, boneyard = _opened_beside_a_boneyard()
    # Ben lays [3|4] on the 3 (ends 1 + 4: it scores, so Ben goes on), read unsurely: [0|3] fits too.
    y = 120.0
    glared = TileDetection(_rect(188.0, y, 48.0, 24.0), "up", 0.9,
                           (HalfReading(3, (200, y + 12), 0.99), HalfReading(4, (224, y + 12), 0.6, ((0, 0.3),))))
    # (The detector misses a back of the boneyard from now on: it still lies there, and is no draw.)
    left = [*boneyard[:2], *boneyard[3:]]
    assert not table.move(FROM_TOP, [opening, glared, *left], paint=[(glared.corners, 210)])
    assert "read unsurely: [3|4] or [0|3]" in table.asked[-1].reason
    # Nobody answers; Ben takes that back, having no tile to play: a draw after laying [3|4], on his
    # continued turn -- not one before it, which would have made [3|4] the tile drawn, ending his turn.
    # (The tile read as unsurely as before -- or surely, the glare gone -- in the look after the draw.)
    laid = glared if read_then == "unsurely" else _up((3, 4), 188)
    events = table.move((slice(0, 200), slice(0, 230)), [opening, laid, *left], erase=[boneyard[2].corners])
    assert events == [Play("Ben", Tile(3, 4), Tile(1, 3), events[0].side), Draw("Ben", 1)]
    assert table.pipe.match.next_player == "Ben"
    if read_then == "unsurely":
        assert any(isinstance(e, Notice) and "no answer about the tile" in e.message for e in table.events)


def test_a_tile_read_in_a_look_that_could_not_act_and_a_back_taken_after_it_are_the_play_then_the_next_players_draw() -> None:
    from dataclasses import replace

    import numpy as np

    from scorer.layout.moves import Placement
    from scorer.rules import Draw, Play, Tile

    # (main set 9's horse-race-3-1002.)  Ben laid [3|6] on the 3 (ends 1 + 6: no score, his turn ends);
    # the look after it read it but could not act (a board tile unseen); Ann then took a back, and the
    # next look reads both: Ben's play, then Ann's draw -- not a draw of Ben's before his play.
    table, opening, boneyard = _opened_beside_a_boneyard()
    pipe, before = table.pipe, table.pipe.match
    point = next(p for p in pipe.match.current_board().free_points() if p.value == 3)
    laid = Placement(Tile(3, 6), point)
    pipe.arms.side_that_laid = lambda tile: 2  # type: ignore[method-assign]  # (Ben's edge)
    pipe.arms.first_read[laid.tile] = (10.0, (212.0, 132.0))
    pipe.draws.boneyard.taken = [np.asarray(boneyard[0].corners, np.float64)]
    pipe.arms.settled_at = lambda box: 11.0  # (the back's place last moved after that look)
    assert pipe.turns._drawn_after([laid], 1)
    events = [e.step.event for e in pipe.turns.laid_then_drawn(12.0, [laid], 1) or [] if isinstance(e, MoveEvent)]
    assert events == [Play("Ben", Tile(3, 6), Tile(1, 3), point.side), Draw("Ann", 1)]
    # A tile drawn and laid at once is first read after the draw: drawn first, as ever.
    pipe.arms.first_read[laid.tile] = (11.5, (212.0, 132.0))
    assert not pipe.turns._drawn_after([laid], 1)
    # Ben's last tile: the round is over, and nobody draws after it -- left to the draws-first way.
    last = replace(before, hand_counts=(6, 1))
    pipe = TablePipeline(last, table, PipelineConfig(), fps=10)
    pipe.arms.side_that_laid = lambda tile: 2  # type: ignore[method-assign]
    assert pipe.turns.laid_then_drawn(12.0, [Placement(Tile(3, 6), point)], 1) is None


def test_tiles_drawn_before_the_opening_tile_is_first_read_surely_are_counted_after_it() -> None:
    from scorer.rules import Draw, Play, Tile
    from scorer.vision.detector import TileDetection

    # Two players: the boneyard as dealt, 14 backs at the table's left edge, seen with no tile face up.
    boneyard = [TileDetection(_rect(4.0 + 50 * (k // 7), 12.0 + 30 * (k % 7), 48.0, 24.0), "down", 0.9) for k in range(14)]
    table = ScriptedTable()
    for b in boneyard:
        table.paint(b.corners, 170)
    table.seen = list(boneyard)
    table.still(10)
    # Ann opens with [1|4] (5: it scores, so she goes on), which the camera misses in that look; in the
    # next (a glass put down at the edge) it sees the tile, but no arm near it: a round opens with a
    # tile put down by a hand, so this is no opening yet.
    opening, drawn = _up((1, 4), 140), _up((4, 6), 188)
    table.move(FROM_BOTTOM, list(boneyard), paint=[(opening.corners, 200)])
    table.move((slice(180, 240), slice(260, 320)), [opening, *boneyard], paint=[(_rect(290.0, 200.0, 20.0, 20.0), 120)])
    assert table.pipe.match.round_no == 0
    # Having no tile to play, she draws three and lays the third, [4|6], on the 4 -- the first look
    # that reads the opening tile surely: her draws come after it, on her continued turn.
    left = boneyard[3:]
    events = table.move((slice(110, 150), slice(0, 240)), [opening, drawn, *left], paint=[(drawn.corners, 210)],
                        erase=[b.corners for b in boneyard[:3]])
    assert events[-3:] == [Play("Ann", Tile(1, 4)), Draw("Ann", 3), Play("Ann", Tile(4, 6), Tile(1, 4), events[-1].side)]
    assert table.pipe.match.boneyard == 14 - 3 and table.pipe.match.next_player == "Ben"


def test_a_round_opened_under_a_hovering_hand_is_the_openers_and_the_draw_after_it_counted() -> None:
    from scorer.rules import Draw, Play, RoundStart, Tile
    from scorer.vision.detector import TileDetection

    # (set 4's horse-race-4-503, round 2.)  Four players: the 8 backs dealt, seen whole only with Ann's
    # hand resting over the table from her edge; she opens with [1|3] while it stays -- the one look
    # that reads the tile with her arm still there.
    boneyard = [TileDetection(_rect(20.0 + 44 * (k // 4), 40.0 + 26 * (k % 4), 40.0, 20.0), "down", 0.9) for k in range(8)]
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"))
    hand = (slice(130, 240), slice(250, 280))
    table.sweep(hand, paint=[(b.corners, 170) for b in boneyard])
    table.image[hand] = (40, 60, 120)
    table.seen = list(boneyard)
    table.still(10)
    opening, laid = _up((1, 3), 140), _up((3, 6), 188)
    table.sweep(hand, paint=[(opening.corners, 200)])
    table.image[hand] = (40, 60, 120)
    table.seen = [opening, *boneyard]
    table.still(6)
    assert table.pipe.match.round_no == 0
    # Her hand gone, Ben draws a back from his edge, having no tile to play (no motion near the tile:
    # no opening yet), then lays it, [3|6], on the 3: the round opens with both tiles -- the opening
    # Ann's, not given to the arm that moved next (Ben's, drawing), and Ben's draw counted.
    table.image[hand] = 60
    table.move((slice(30, 130), slice(0, 80)), [opening, *boneyard[1:]], erase=[boneyard[0].corners])
    events = table.move((slice(100, 160), slice(0, 240)), [opening, laid, *boneyard[1:]], paint=[(laid.corners, 210)])
    assert not table.asked
    assert events == [RoundStart("Ann"), Play("Ann", Tile(1, 3)), Draw("Ben", 1), Play("Ben", Tile(3, 6), Tile(1, 3), events[-1].side)]
    assert table.pipe.match.boneyard == 8 - 1 and table.pipe.match.next_player == "Cid"


def test_a_draw_entered_by_hand_is_not_counted_again_when_the_boneyard_is_next_seen() -> None:
    from scorer.rules import Draw, Play, Side, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    table, opening, boneyard = _opened_beside_a_boneyard()
    # Ben takes a tile from the boneyard and lays [3|6] on the 3, which this look reads [2|6]: it fits
    # nowhere, so the players are asked, and nothing is taken from this look -- the draw neither.
    laid, y = _up((3, 6), 188), 120.0
    misread = TileDetection(laid.corners, "up", 0.9, (HalfReading(2, (200, y + 12), 0.99), HalfReading(6, (224, y + 12), 0.99)))
    left = [*boneyard[:2], *boneyard[3:]]
    through_boneyard = (slice(0, 200), slice(0, 230))
    events = table.move(through_boneyard, [opening, misread, *left], paint=[(laid.corners, 210)], erase=[boneyard[2].corners])
    assert not events and table.asked
    # The players enter Ben's turn by hand; the table is read again at once, the tile now read right.
    table.seen = [opening, laid, *left]
    out = table.pipe.confirm([Draw("Ben", 1), Play("Ben", Tile(3, 6), Tile(1, 3), Side.HIGH)], 9.0) + table.still(10)
    # The tile gone from the boneyard is the draw they entered, not another one (by Ann, now on turn).
    assert [e.step.event for e in out if hasattr(e, "step")] == [Draw("Ben", 1), Play("Ben", Tile(3, 6), Tile(1, 3), Side.HIGH)]
    assert table.pipe.match.boneyard == 14 - 1


def test_a_played_tile_missed_or_misread_later_is_kept_while_its_place_is_unchanged() -> None:
    from scorer.rules import Play, Tile

    table = ScriptedTable()
    first, second, third = _up((1, 3), 140), _up((3, 6), 188), _up((5, 1), 92)
    # Each tile has a look of its own (pips), so a place with another tile on it looks different.
    events = table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    assert events[-1] == Play("Ann", Tile(1, 3))
    # Ben's [3|6] is seen, but [1|3] is missed this time: it is still there.
    events = table.move(FROM_TOP, [second], paint=[(second.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)]
    # Ann's [1|5]; the detector now reads [3|6] as [3|5]: the remembered reading wins.
    events = table.move(FROM_BOTTOM, [first, _up((3, 5), 188), third], paint=[(third.corners, 190), (_rect(100, 124, 6, 6), 50)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(1, 5)]
    assert table.pipe.match.current_board().end_sum() == 5 + 6
    # A played tile really taken away (its place now bare table) is reported, not filled in -- once it
    # stays unseen (a hand hovering over the layout hides tiles for a moment).
    table.paint(first.corners, 60)
    events = table.move(FROM_TOP, [second, third])
    assert not events and not table.asked
    table.still(15)
    assert table.asked and table.pipe.status == "confirm"


def test_a_misread_tile_is_taken_as_its_one_likely_reading_that_fits_the_game() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    # Ben lays [3|6] on the 3; the reader says [5|6], with 3 its second guess for that half.
    y = 120.0
    misread = TileDetection(_rect(188.0, y, 48.0, 24.0), "up", 0.9,
                            (HalfReading(5, (200, y + 12), 0.62, ((3, 0.35),)), HalfReading(6, (224, y + 12), 0.99)))
    events = table.move(FROM_TOP, [first, misread], paint=[(misread.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)]
    # (The join with [1|3] settles it: a half must match the half it meets.)
    assert any(isinstance(e, Notice) and "taken as [3|6]" in e.message for e in table.events)
    # With no likely reading that fits, the players are asked instead.
    wrong = TileDetection(_rect(92.0, y, 48.0, 24.0), "up", 0.9,
                          (HalfReading(5, (104, y + 12), 0.99), HalfReading(4, (128, y + 12), 0.99)))
    events = table.move(FROM_BOTTOM, [first, _up((3, 6), 188), wrong], paint=[(wrong.corners, 190)])
    assert not events and table.asked


def test_two_boxes_over_one_place_are_settled_by_the_game_or_asked_about() -> None:
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    def box(pips, x, y=120.0):
        return TileDetection(_rect(x, y, 48.0, 24.0), "up", 0.9,
                             (HalfReading(pips[0], (x + 12, y + 12), 0.99), HalfReading(pips[1], (x + 36, y + 12), 0.99)))

    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    # Ben lays [3|6]; a second box, half over it and half over bare table, reads [5|2]: tiles never
    # overlap, so one box is wrong, and only [3|6] fits the game.
    events = table.move(FROM_TOP, [first, box((3, 6), 188), box((5, 2), 212)], paint=[(box((3, 6), 188).corners, 210)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)]
    # Ann lays a tile on the 1; two boxes over it read [1|4] and [1|2], and either fits: she is asked.
    table.asked.clear()
    events = table.move(FROM_BOTTOM, [first, box((3, 6), 188), box((4, 1), 92), box((2, 1), 96)], paint=[(box((4, 1), 92).corners, 190)])
    assert not events and table.asked and "seen two ways" in table.asked[-1].reason
    assert {tuple(e.tile for e in alt) for alt in table.asked[-1].alternatives} == {(Tile(1, 4),), (Tile(1, 2),)}


def test_the_video_generator_lays_a_revealed_hand_without_stacking_tiles() -> None:
    import random

    from dominosynth.video import VideoSpec, _Table

    table = _Table(VideoSpec("horse-race", 4, False, 1), random.Random(1), 4)
    w, h = table.view_mm
    for side in range(4):
        spots = table.hand_spots(side, 7)
        assert len({(round(x), round(y)) for x, y, _ in spots}) == 7, side
        assert all(0 < x < w and 0 < y < h for x, y, _ in spots), side


def test_the_round_end_count_reads_each_hand_once_and_asks_when_it_cannot() -> None:
    from scorer.pipeline import MoveEvent, NeedsConfirmation
    from scorer.rules import Reveal
    from scorer.rules.simulate import simulate_match
    from scorer.vision.detector import HalfReading, TileDetection

    sim = simulate_match("horse-race", 2, seed=5)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    step, before = sim.events[k], sim.events[k - 1].after
    hands = dict(step.event.hands)

    def laid(tiles, y: float, sure: float = 0.99, twice: bool = False) -> list[TileDetection]:
        out = []
        for k, t in enumerate(tiles):
            x = 100.0 + 60 * k
            halves = (HalfReading(t.a, (x + 12, y + 12), sure), HalfReading(t.b, (x + 36, y + 12), sure))
            out.append(TileDetection(_rect(x, y, 48.0, 24.0), "up", 0.9, halves))
            if twice and k == 0:  # a second, slightly shifted box on the same tile
                out.append(TileDetection(_rect(x + 3, y + 1, 48.0, 24.0), "up", 0.6, halves))
        return out

    players = before.players
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    # Each hand laid in front of its seat (two players sit bottom and top); a tile seen with two boxes counts once.
    seats = {0: laid(hands[players[0]], 600, twice=True), 1: laid(hands[players[1]], 10)}
    events = pipe.rounds.reveal(1.0, seats)
    assert [e.step.event for e in events if isinstance(e, MoveEvent)] == [step.event]
    # Read unsurely, it waits; the table cleared before a sure reading, the players are asked.
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    unsure = {0: laid(hands[players[0]], 600, sure=0.6), 1: laid(hands[players[1]], 10, sure=0.6)}
    assert pipe.rounds.reveal(1.0, unsure) == []
    asked = [e for e in pipe.rounds.reveal(2.0, {}, cleared=True) if isinstance(e, NeedsConfirmation)]
    assert asked and asked[0].alternatives == ((step.event,),)


def test_a_hand_tile_read_as_one_on_the_board_is_taken_as_its_one_likely_reading_the_rules_allow() -> None:
    from scorer.pipeline import MoveEvent, Notice
    from scorer.rules import Reveal, Tile
    from scorer.rules.simulate import simulate_match
    from scorer.vision.detector import HalfReading, TileDetection

    sim = simulate_match("horse-race", 2, seed=13)  # three tiles left in hand
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    step, before = sim.events[k], sim.events[k - 1].after
    hands, board, players = dict(step.event.hands), before.current_board(), before.players
    held = {t for tiles in hands.values() for t in tiles}
    # A tile of a hand with a half misread so that it reads as a tile on the board.
    tile, first, misread_as, wrong = next((t, kept, other, b.b if b.a == kept else b.a) for t in sorted(held)
                                          for kept, other in ((t.a, t.b), (t.b, t.a)) for b in board.tiles if kept in (b.a, b.b) and b != t)
    # Another reading of that half that gives a tile in nobody's hand and not on the board (the boneyard's).
    spare = next((v for v in range(7) if v not in (misread_as, wrong) and Tile.of(first, v) not in board.tiles and Tile.of(first, v) not in held), None)

    def laid(tiles, y: float, odd_one=None) -> list[TileDetection]:
        out = []
        for n, t in enumerate(tiles):
            x = 100.0 + 60 * n
            # The other tiles read right, but one of them unsurely too.
            halves = (HalfReading(t.a, (x + 12, y + 12), 0.99), HalfReading(t.b, (x + 36, y + 12), 0.6 if n == 0 else 0.99))
            if t == tile:
                halves = (HalfReading(first, (x + 12, y + 12), 0.99), HalfReading(wrong, (x + 36, y + 12), 0.6, odd_one))
            out.append(TileDetection(_rect(x, y, 48.0, 24.0), "up", 0.9, halves))
        return out

    # Read as the tile on the board, with its true count the likely other reading: the rules leave that one.
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    seats = {0: laid(hands[players[0]], 600, ((misread_as, 0.3),)), 1: laid(hands[players[1]], 10, ((misread_as, 0.3),))}
    events = pipe.rounds.reveal(1.0, seats)
    (revealed,) = [e.step.event for e in events if isinstance(e, MoveEvent)]
    assert {p: sorted(h) for p, h in revealed.hands} == {p: sorted(h) for p, h in step.event.hands}
    assert any(isinstance(e, Notice) and "the rules allow" in e.message for e in events)
    # Where another likely reading is allowed too (a tile still in the boneyard), it waits for a surer look.
    assert spare is not None
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    odd_one = ((misread_as, 0.3), (spare, 0.05))
    seats = {0: laid(hands[players[0]], 600, odd_one), 1: laid(hands[players[1]], 10, odd_one)}
    assert pipe.rounds.reveal(1.0, seats) == []


def test_an_answer_that_ends_the_round_after_the_table_was_cleared_lets_the_next_tile_open_a_round() -> None:
    from scorer.rules import Phase, Play, Reveal, RoundStart
    from scorer.rules.simulate import simulate_match

    # The round is over; the hands were never read surely and the table was cleared, so the players
    # are asked for them.  They answer only once the next round's first tile is down: the cleared
    # table was the end of the round's tiles, and that tile opens the next round.
    sim = simulate_match("horse-race", 2, seed=5)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    before = sim.events[k - 1].after
    assert before.phase is Phase.ROUND_OVER
    table = ScriptedTable()
    table.pipe = TablePipeline(before, table, PipelineConfig(), fps=10)
    table.still(10)
    (ask,) = table.asked
    assert "hands left at the round's end" in ask.reason
    opening = next(s.event for s in sim.events[k + 1 :] if isinstance(s.event, Play))
    first = _up((opening.tile.a, opening.tile.b), 140)
    table.pipe.confirm([sim.events[k].event])
    assert table.pipe.match.phase is Phase.BEFORE_ROUND
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    started = [e.step.event for e in table.events if isinstance(e, MoveEvent) and isinstance(e.step.event, RoundStart)]
    assert started and table.pipe.match.round_no == before.round_no + 1
    assert table.pipe.match.current_board().tiles == (opening.tile,)


def _three_of_the_last_layout(board, tile) -> list:
    """Three of the last round's tiles, ``tile`` and two joined after it in a line, in the middle of the
    table at the last look."""
    a, b = tile.a, tile.b
    joined = next(t for t in board.tiles if t != tile and b in (t.a, t.b))
    c = joined.b if joined.a == b else joined.a
    third = next(t for t in board.tiles if t not in (tile, joined) and c in (t.a, t.b))
    return [_up((a, b), 40, 70), _up((b, c), 88, 70), _up((c, third.b if third.a == c else third.a), 136, 70)]


def _table_after_the_round(after, old: list, remembered: bool, **seats) -> ScriptedTable:
    """The table at the round's end, counted, with the ``old`` tiles of its layout still lying there."""
    import numpy as np

    table = ScriptedTable(**seats)
    table.pipe = TablePipeline(after, table, PipelineConfig(), fps=10)
    # (A grained cloth: the camera's steadiness is judged by the table, not by the tiles alone.)
    table.image[:] = np.random.default_rng(1).integers(40, 90, table.image.shape[:2], dtype=np.uint8)[..., None]
    for d in old:
        table.paint(d.corners, 190)
    table.seen = old
    table.still(10)
    if remembered:  # (as the round's play left them)
        table.pipe.memory.remember(old, set(after.current_board().tiles), np.ascontiguousarray(table.image[..., 0]))
    return table


def test_a_round_opens_where_the_table_was_cleared_and_its_first_tiles_put_down_between_two_looks() -> None:
    from scorer.rules import Phase, Play, Reveal, RoundStart
    from scorer.rules.simulate import simulate_match

    # The round ended and was counted; hands moved over the table until the next round's first tiles lay
    # there, so no still look saw it cleared.  The opening tile was in the last round's layout and lies
    # elsewhere now, joined to the next as no two tiles were in it: the layout was broken up, and those
    # tiles open the next round (a film lost its whole second round so: docs/experiments.md, session 41).
    sim = simulate_match("horse-race", 2, seed=2)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    after = sim.events[k].after
    opening, second = [s.event for s in sim.events[k + 1 :] if isinstance(s.event, Play)][:2]
    board = after.current_board()
    assert after.phase is Phase.BEFORE_ROUND and opening.tile in board.tiles
    assert not any({j.tile, j.new_tile} == {opening.tile, second.tile} for j in board.joins)
    a, b = opening.tile.a, opening.tile.b
    old = _three_of_the_last_layout(board, opening.tile)

    first = _up((a, b), 140, 120)
    shared = b if b in (second.tile.a, second.tile.b) else a
    other = second.tile.b if second.tile.a == shared else second.tile.a
    next_one = _up((shared, other), 188, 120) if shared == b else _up((other, shared), 92, 120)
    new = [(first.corners, 200), (next_one.corners, 180)]
    table = _table_after_the_round(after, old, remembered=True)
    # (The opening tile put down as the old layout was swept away, the next one by another hand after it,
    # reaching in beside the first.)
    table.sweep(FROM_BOTTOM, paint=new[:1], erase=[d.corners for d in old])
    beside = (slice(118, 146), slice(190, 320)) if shared == b else (slice(118, 146), slice(0, 138))
    moves = table.move(beside, [first, next_one], paint=new[1:])
    assert [type(e) for e in moves] == [RoundStart, Play, Play] and [m.tile for m in moves[1:]] == [opening.tile, second.tile]
    assert table.pipe.match.round_no == after.round_no + 1
    # The old layout bumped a few pixels with a hand near it: its joins are the old ones -- no round.
    table = _table_after_the_round(after, old, remembered=True)
    bumped = [_up(d.pips, d.corners[0][0] + 12, d.corners[0][1] + 6) for d in old]
    assert table.move(FROM_BOTTOM, bumped, paint=[(d.corners, 190) for d in bumped], erase=[d.corners for d in old]) == []
    # Where nothing of the last round is remembered (the session resumed between rounds), a layout seen
    # proves nothing moved: the round waits for a look at the cleared table, as before.
    table = _table_after_the_round(after, old, remembered=False)
    assert table.move(FROM_BOTTOM, [first, next_one], paint=new, erase=[d.corners for d in old]) == []
    assert table.pipe.match.phase is Phase.BEFORE_ROUND


def test_a_round_first_seen_with_two_tiles_down_is_opened_by_the_arm_that_laid_the_first() -> None:
    from scorer.rules import Phase, Play, Reveal, RoundStart
    from scorer.rules.simulate import simulate_match

    # Seven Rocks, four seats (Ann at the bottom, Ben left, Cid at the top, Dee right); a blocked round
    # names no one to open the next.  The old layout is swept away, a hand resting over the bare table;
    # Ben lays the opening [4|5] from the left; a look sees it alone (the table never seen cleared without
    # a hand: no round yet); then Cid, reaching over it from the top, lays [4|4] beside it.  The round is
    # Ben's -- the arm before the look that first read the [4|5] -- not Cid's, whose arm was the last over
    # its place (`cross` set 5's seven-rocks-4p-605).
    sim = simulate_match("seven-rocks", 4, True, seed=0)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal) and s.after.next_starter is None)
    after = sim.events[k].after
    opening, second = [s.event for s in sim.events[k + 1 :] if isinstance(s.event, Play)][:2]
    assert after.phase is Phase.BEFORE_ROUND and (opening.player, opening.tile.a, opening.tile.b) == ("Ben", 4, 5)
    assert (second.player, second.tile.a, second.tile.b) == ("Cid", 4, 4)
    old = _three_of_the_last_layout(after.current_board(), opening.tile)
    table = _table_after_the_round(after, old, remembered=True, players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks",
                                   partnership=True)
    first, double = _up((4, 5), 140, 120), _up((4, 4), 92, 120)
    for d in old:
        table.paint(d.corners, 60)
    table.seen = []
    resting = (slice(40, 90), slice(260, 320))  # (Dee's hand, over the bare table)
    table.image[resting] = 220
    table.still(10)
    table.image[resting] = 60
    assert table.move((slice(105, 150), slice(0, 165)), [first], paint=[(first.corners, 200)]) == []
    moves = table.move((slice(0, 140), slice(90, 190)), [first, double], paint=[(double.corners, 180)])
    assert [(type(e), getattr(e, "starter", None) or e.player) for e in moves] == [(RoundStart, "Ben"), (Play, "Ben"), (Play, "Cid")]


def test_hands_asked_about_and_left_unanswered_are_taken_as_read_when_the_next_round_opens() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import FULL_SET, Phase, Play, Reveal, RoundStart
    from scorer.rules.simulate import simulate_match
    from scorer.vision.detector import HalfReading, TileDetection

    # The hands were laid out and read unsurely, the table cleared, the players asked with the hands as
    # read -- and they put the next round's first tile down instead of answering: the hands as read are
    # taken, said, and the tile opens the next round (the rest of the evening is not held up).
    sim = simulate_match("horse-race", 2, seed=5)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    before, reveal = sim.events[k - 1].after, sim.events[k].event
    table = ScriptedTable()
    table.pipe = TablePipeline(before, table, PipelineConfig(), fps=10)

    assert table.pipe.rounds.reveal(1.0, laid_out_hands(reveal, sure=0.6)) == []
    table.still(10)
    (ask,) = table.asked
    assert ask.alternatives == ((reveal,),)
    opening = next(s.event for s in sim.events[k + 1 :] if isinstance(s.event, Play))
    first = _up((opening.tile.a, opening.tile.b), 140)
    moves = table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    assert [type(e) for e in moves] == [Reveal, RoundStart, Play] and moves[0] == reveal
    assert any(isinstance(e, Notice) and "no answer about the hands left" in e.message for e in table.events)
    assert table.pipe.match.phase is Phase.IN_ROUND and table.pipe.match.current_board().tiles == (opening.tile,)
    # Without hands to offer (never all seen), the question stays and nothing is taken; nor where the
    # hands offered hold a tile more than the log gives a player (a draw missed, or a stray tile: the
    # players say which).
    held = {t for _, hand in reveal.hands for t in hand} | set(before.current_board().tiles)
    stray = next(t for t in FULL_SET if t not in held)
    more = Reveal(tuple((p, hand + (stray,) if seat == 0 else hand) for seat, (p, hand) in enumerate(reveal.hands)))
    for offered in (None, more):
        table = ScriptedTable()
        table.pipe = TablePipeline(before, table, PipelineConfig(), fps=10)
        if offered is not None:
            assert table.pipe.rounds.reveal(1.0, laid_out_hands(offered)) == []
        table.still(10)
        assert table.asked[-1].alternatives == (((offered,),) if offered else ())
        assert table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)]) == []
        assert table.pipe.match.phase is Phase.ROUND_OVER


def test_hands_left_unanswered_with_a_draw_counted_short_are_taken_with_that_draw_when_the_next_round_opens() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Draw, Phase, Play, Reveal, RoundStart
    from scorer.rules.history import MatchHistory
    from scorer.rules.simulate import simulate_match

    # Ann drew three tiles and the camera counted two (one more back seen in the boneyard than lies
    # there: a box across two backs).  The hands laid out are read surely, Ann's with one tile
    # more than the log gives her; the boneyard's count does not settle it, so the players are asked --
    # and they put the next round's first tile down instead of answering.  Ann's draw is taken as three
    # (said), the hands as read, and the round opened by Ben (at the top): the evening is not held up.
    sim = simulate_match("horse-race", 2, seed=18)
    events = [s.event for s in sim.events]
    k = next(k for k, e in enumerate(events) if isinstance(e, Reveal))
    d = next(i for i, e in enumerate(events[:k]) if isinstance(e, Draw) and e.player == "Ann" and e.count == 3)

    def asked_about_the_hands() -> ScriptedTable:
        history = MatchHistory.new(sim.header)
        for e in events[:k]:
            history.apply(Draw("Ann", 2) if e is events[d] else e, 0.0)
        table = ScriptedTable()
        table.pipe = TablePipeline(history, table, PipelineConfig(), fps=10)
        assert table.pipe.rounds.reveal(1.0, laid_out_hands(events[k])) == []
        table.still(10)
        return table

    table = asked_about_the_hands()
    assert table.asked[-1].alternatives == ((events[k],),)
    opening = next(e for e in events[k + 1 :] if isinstance(e, Play))
    first = _up((opening.tile.a, opening.tile.b), 140)
    moves = table.move(FROM_TOP, [first], paint=[(first.corners, 200)])
    assert [type(e) for e in moves] == [Draw, Reveal, RoundStart, Play] and moves[0] == events[d] and moves[1] == events[k]
    assert [s.event for s in table.pipe.steps][: k + 1] == events[: k + 1]
    said = [e.message for e in table.events if isinstance(e, Notice)]
    assert any("Ann drew 3, not 2" in m for m in said) and any("no answer about the hands left" in m for m in said)
    assert table.pipe.match.phase is Phase.IN_ROUND and table.pipe.match.current_board().tiles == (opening.tile,)
    # A recording that ends on that question ends with the hands so taken.
    table = asked_about_the_hands()
    ended = [e.step.event for e in table.pipe.finish(3.0) if isinstance(e, MoveEvent)]
    assert ended == [events[d], events[k]] and table.pipe.match.phase is not Phase.ROUND_OVER
    # Answered, the hands as read are not kept past the next round's opening (nor offered at its end).
    table = asked_about_the_hands()
    table.pipe.confirm([events[k]], 3.0)
    assert [s.event for s in table.pipe.steps][: k + 1] == events[: k + 1]
    table.move(FROM_TOP, [first], paint=[(first.corners, 200)])
    assert table.pipe.match.current_board().tiles == (opening.tile,) and table.pipe.rounds.reveal_guess is None


def test_a_move_held_up_by_a_question_is_made_by_the_player_whose_arm_laid_the_tile() -> None:
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    # Seven Rocks, four seats (Ann at the bottom, Ben left, Cid at the top, Dee right): a player may pass.
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, laid = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    # Ben lays [3|6] on the 3, and this look reads it [2|6]: it fits nowhere, so the players are asked.
    y = 120.0
    misread = TileDetection(laid.corners, "up", 0.9, (HalfReading(2, (200, y + 12), 0.99), HalfReading(6, (224, y + 12), 0.99)))
    from_left = (slice(40, 110), slice(0, 120))
    events = table.move(from_left, [first, misread], paint=[(laid.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert not events and table.asked
    # Cid reaches in at the top (and leaves something at his edge); the next look reads the tile right.
    # The tile is Ben's, laid by his arm -- not Cid's after Ben passed.
    from_top = (slice(0, 60), slice(150, 230))
    events = table.move(from_top, [first, laid], paint=[(_rect(160, 5, 20, 10), 120)])
    assert [(type(e), e.player) for e in events] == [(Play, "Ben")] and events[0].tile == Tile(3, 6)


def test_the_arm_that_reached_the_tile_laid_it_not_a_larger_motion_at_another_edge() -> None:
    from scorer.rules import Play, Tile

    # Seven Rocks, four seats (Ann at the bottom, Ben left, Cid at the top, Dee right).
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, laid = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    # Ben reaches in from the left to lay [3|6]; meanwhile Dee shifts in his seat at the right edge --
    # a larger motion, but nowhere near the tile.  Ben played; nobody passed.
    # (Ben's hand over the place it lays the tile in.)
    table.sweep((slice(122, 142), slice(0, 230)), (slice(0, 240), slice(280, 320)), paint=[(laid.corners, 210)])
    table.seen = [first, laid]
    events = [e.step.event for e in table.still(10) if isinstance(e, MoveEvent)]
    assert [(type(e), e.player, e.tile) for e in events] == [(Play, "Ben", Tile(3, 6))] and not table.asked


def test_a_tile_laid_with_no_arm_seen_is_taken_as_the_player_on_turns_where_a_knock_is_unlikely() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile

    # Seven Rocks, four seats: after Ann's opening it is Ben's turn; he may knock only holding none of
    # the 11 unseen tiles that fit.  [3|6] appears with no arm seen (a dark tile on a dark cloth).
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, laid = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    table.paint(laid.corners, 70)
    table.seen = [first, laid]
    events = [e.step.event for e in table.still(10) if isinstance(e, MoveEvent)]
    assert [(e.player, e.tile) for e in events if isinstance(e, Play)] == [("Ben", Tile(3, 6))] and not table.asked
    assert any("no arm was seen laying [3|6]: taken as Ben [3|6], the likeliest under the rules (99%)" in e.message
               for e in table.events if isinstance(e, Notice))


def test_a_tile_laid_with_no_arm_seen_where_a_later_player_may_have_laid_it_is_asked_about(monkeypatch) -> None:
    from scorer.rules import Pass, Play, Tile

    # As above, where the odds leave it open (here: the camera asks whatever the odds): Cid, Dee or Ann
    # again may have laid the next tile, those between knocking.
    monkeypatch.setattr("scorer.pipeline.turns.TAKEN_WITHOUT_ASKING", 1.01)
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, laid = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    table.paint(laid.corners, 70)
    table.seen = [first, laid]
    events = [e for e in table.still(10) if isinstance(e, MoveEvent)]
    assert not events and "who laid [3|6]" in table.asked[-1].reason
    players = [[(type(e), e.player) for e in alternative] for alternative in table.asked[-1].alternatives]
    assert players == [[(Play, "Ben")], [(Pass, "Ben"), (Play, "Cid")], [(Pass, "Ben"), (Pass, "Cid"), (Play, "Dee")],
                       [(Pass, "Ben"), (Pass, "Cid"), (Pass, "Dee"), (Play, "Ann")]]
    # Nobody answers, and play goes on: Cid lays [6|6] on the 6.  The tile asked about is taken as Ben's, and said so.
    double = _up((6, 6), 236)
    events = table.move(FROM_TOP, [first, laid, double], paint=[(double.corners, 210)])
    assert [(e.player, e.tile) for e in events] == [("Ben", Tile(3, 6)), ("Cid", Tile(6, 6))]
    assert any("no answer about who laid [3|6]: taken as Ben [3|6], the likeliest under the rules" in getattr(e, "message", "")
               for e in table.events)


def test_a_tile_asked_about_and_left_unanswered_is_taken_with_the_passes_the_next_arm_tells(monkeypatch) -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Pass, Play, Tile

    # As above, but play goes on from the right edge: Dee lays [6|6] on the 6.  Cid, between Ben and
    # Dee, passed: the [3|6] laid with no arm seen is taken as Ben's, on turn, then Cid's pass, then Dee's.
    monkeypatch.setattr("scorer.pipeline.turns.TAKEN_WITHOUT_ASKING", 1.01)
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, laid, double = _up((1, 3), 140), _up((3, 6), 188), _up((6, 6), 236)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    table.paint(laid.corners, 70)
    table.seen = [first, laid]
    table.still(10)
    assert "who laid [3|6]" in table.asked[-1].reason
    table.move((slice(125, 140), slice(250, 320)), [first, laid, double], paint=[(double.corners, 210)])
    moves = [e.step.event for e in table.events if isinstance(e, MoveEvent)][1:]  # (after the round's opening)
    assert [(type(e), e.player, getattr(e, "tile", None)) for e in moves] == [
        (Play, "Ann", Tile(1, 3)), (Play, "Ben", Tile(3, 6)), (Pass, "Cid", None), (Play, "Dee", Tile(6, 6))]
    assert any("no answer about who laid [3|6]: taken as Ben [3|6], the likeliest under the rules" in e.message
               for e in table.events if isinstance(e, Notice))


def test_a_tile_asked_about_and_left_unanswered_is_told_by_the_hands_laid_out_at_the_rounds_end() -> None:
    from scorer.layout.moves import Placement
    from scorer.pipeline import Notice
    from scorer.pipeline.questions import WhoLaid
    from scorer.pipeline.sequences import laid_after_passes, sequence_for
    from scorer.rules import Pass, Phase, Reveal
    from scorer.rules.simulate import simulate_match
    from scorer.vision.detector import HalfReading, TileDetection

    # Horse Race, four seats, one tile each for Ann and Ben: Ann passes and Ben goes out with his last
    # tile, laid with no arm seen -- asked who laid it (Ann was on turn).  Nobody answers; the hands are
    # laid out: Ben shows none, so it was his, Ann having passed.
    sim = simulate_match("horse-race", 4, seed=1)
    k = next(k for k in range(3, len(sim.events))
             if isinstance(sim.events[k].event, Reveal) and isinstance(sim.events[k - 2].event, Pass))
    passed, played, reveal = (sim.events[i].event for i in (k - 2, k - 1, k))
    before = sim.events[k - 3].after
    assert passed.player == "Ann" and played.player == "Ben" and before.hand_counts[:2] == (1, 1)
    point = next(p for p in before.current_board().free_points()
                 if p.tile == played.at and p.value in (played.tile.a, played.tile.b) and played.side in (None, p.side))
    placement = Placement(played.tile, point)
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    pipe.asked.put(WhoLaid(played.tile, "Ann", (tuple(sequence_for(before, [], [placement])),) + laid_after_passes(before, placement)))

    assert pipe.rounds.who_laid_by_hands(1.0, laid_out_hands(reveal, sure=0.6)) == []  # read unsurely: it waits
    events = pipe.rounds.who_laid_by_hands(2.0, laid_out_hands(reveal))
    moves = [e.step.event for e in events if isinstance(e, MoveEvent)]
    assert [(type(e), getattr(e, "player", None), getattr(e, "tile", None)) for e in moves] == [
        (Pass, "Ann", None), (type(played), "Ben", played.tile), (Reveal, None, None)]
    assert moves[2] == reveal and pipe.match.phase is not Phase.IN_ROUND
    assert any(f"no answer about who laid {played.tile}: the hands laid out tell -- taken as Ann passed, then Ben {played.tile}"
               in e.message for e in events if isinstance(e, Notice))


def test_a_tile_laid_by_the_arm_of_the_player_who_laid_last_is_told_by_the_hands_of_the_blocked_round() -> None:
    from scorer.layout.moves import Placement
    from scorer.pipeline import Notice
    from scorer.pipeline.questions import Asked, WhoseArm
    from scorer.pipeline.turns import Laying, turn_for
    from scorer.rules import Pass, Phase, Play, Reveal
    from scorer.rules.simulate import simulate_match

    # Seven Rocks, four seats: Ben, Cid and Dee knock, and Ann lays [4|4] again, by her own arm -- the
    # whole table knocking round to her, so the camera asks whether it was Ben's.  Nobody answers; the
    # others knock again, the round is blocked and the hands are laid out: Ben shows as many tiles as
    # the log gives him without the [4|4], so it was Ann's, the others passing.
    sim = simulate_match("seven-rocks", 4, partnership=True, seed=11)
    events = [s.event for s in sim.events]
    k = next(k for k in range(4, len(events) - 5) if isinstance(events[k], Play) and isinstance(events[k + 5], Reveal)
             and all(isinstance(e, Pass) for e in events[k - 3 : k] + events[k + 1 : k + 5]))
    played, before, reveal = events[k], sim.events[k - 4].after, events[k + 5]
    assert played.player == "Ann"
    point = next(p for p in before.current_board().free_points()
                 if p.tile == played.at and p.value in (played.tile.a, played.tile.b) and played.side in (None, p.side))
    question = turn_for(before, [Placement(played.tile, point)], 0, Laying({played.tile: "Ann"}, {}, False), Asked())
    assert isinstance(question, WhoseArm) and question.on_turn == "Ben"
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    pipe.asked.put(question)

    assert pipe.rounds.hands_in_round(1.0, laid_out_hands(reveal, sure=0.6)) == []  # read unsurely: it waits
    told = pipe.rounds.hands_in_round(2.0, laid_out_hands(reveal))
    moves = [e.step.event for e in told if isinstance(e, MoveEvent)]
    said = [(type(e), getattr(e, "player", None), getattr(e, "tile", None)) for e in moves]
    assert said == [(Pass, "Ben", None), (Pass, "Cid", None), (Pass, "Dee", None), (Play, "Ann", played.tile), (Reveal, None, None)]
    assert moves[-1] == reveal and pipe.match.phase is Phase.BEFORE_ROUND and pipe.asked.open is None
    assert any(f"no answer about who laid {played.tile}: the hands laid out tell" in e.message for e in told if isinstance(e, Notice))


def test_two_tiles_seen_at_once_are_given_to_the_arms_that_laid_them() -> None:
    from scorer.rules import Play, Tile

    # Seven Rocks, four seats (Ann at the bottom, Ben left, Cid at the top, Dee right).  After Ann's
    # [1|3], Ben reaches in from the left and lays [1|6] on the 1, and Cid at once from the top lays
    # [3|4] on the 3 -- no still table between the two.  Played the other way round ([3|4] first) the
    # ends would score differently, but the arms tell who laid which: nothing to ask.
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, bens, cids = _up((1, 3), 140), _up((6, 1), 92), _up((3, 4), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    table.sweep((slice(125, 140), slice(0, 130)), paint=[(bens.corners, 210)])
    table.sweep((slice(0, 135), slice(205, 225)), paint=[(cids.corners, 210)])
    table.seen = [first, bens, cids]
    events = [e.step.event for e in table.still(10) if isinstance(e, MoveEvent)]
    assert [(e.player, e.tile) for e in events] == [("Ben", Tile(1, 6)), ("Cid", Tile(3, 4))] and not table.asked
    assert all(isinstance(e, Play) for e in events)


def test_an_order_of_play_asked_about_and_left_unanswered_is_taken_as_the_tiles_settled_and_said() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Tile

    # As above, but one arm from Ann's side sweeps over both places (the camera cannot tell whose
    # arms they were): the players are asked which order.  Nobody answers; Dee lays [4|5] on the 4.
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), game="seven-rocks", partnership=True)
    first, bens, cids, dees = _up((1, 3), 140), _up((6, 1), 92), _up((3, 4), 188), _up((4, 5), 236)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    for tile in (bens, cids):
        table.sweep((slice(110, 240), slice(80, 240)), paint=[(tile.corners, 210)])
    table.seen = [first, bens, cids]
    table.still(10)
    assert table.asked and "orders that score differently" in table.asked[-1].reason
    events = table.move((slice(125, 140), slice(250, 320)), [first, bens, cids, dees], paint=[(dees.corners, 210)])
    assert [(e.player, e.tile) for e in events] == [("Ben", Tile(1, 6)), ("Cid", Tile(3, 4)), ("Dee", Tile(4, 5))]
    said = [e.message for e in table.events if isinstance(e, Notice)]
    assert "no answer about the order the new tiles were played in: taken as Ben [1|6], then Cid [3|4], then Dee [4|5]" in said[-1]


def test_the_round_is_opened_by_the_arm_that_reached_the_opening_tile() -> None:
    from scorer.rules import RoundStart

    # No starter given.  Ann reaches in from the bottom to lay the opening tile while Dee shifts in his
    # seat at the right edge -- a larger motion, nowhere near the tile: Ann opened.
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), starter=None)
    opening = _up((1, 3), 140)
    table.sweep((slice(130, 240), slice(150, 178)), (slice(0, 240), slice(280, 320)), paint=[(opening.corners, 200)])
    table.seen = [opening]
    events = [e.step.event for e in table.still(10) if isinstance(e, MoveEvent)]
    assert events[0] == RoundStart("Ann") and not table.asked


def test_who_opened_the_round_is_asked_and_the_next_players_arm_is_no_answer() -> None:
    from scorer.pipeline import NeedsConfirmation
    from scorer.rules import Play, RoundStart, Tile

    # No starter given: the arm that lays the opening tile names the starter.  Here the camera misses it
    # (the tile is there in the next still frame, no arm seen reaching in).
    table = ScriptedTable(players=("Ann", "Ben", "Cid", "Dee"), starter=None)
    opening = _up((1, 3), 140)
    table.paint(opening.corners, 200)
    table.seen = [opening]
    table.still(10)
    assert table.asked and "who started the round" in table.asked[-1].reason
    # Ann reaches in from her side and lays [3|6] on the 3: she did not open the round, and her arm does
    # not answer the question -- nothing is scored until the players do.
    laid = _up((3, 6), 188)
    events = table.move(FROM_BOTTOM, [opening, laid], paint=[(laid.corners, 210)])
    assert events == [] and not table.pipe.match.board
    # They say Dee opened: Dee's [1|3], then Ann's [3|6].
    out = table.pipe.confirm([RoundStart("Dee")], 9.0) + table.still(10)
    plays = [e.step.event for e in out if hasattr(e, "step") and isinstance(e.step.event, Play)]
    assert [(p.player, p.tile) for p in plays] == [("Dee", Tile(1, 3)), ("Ann", Tile(3, 6))]
    assert not any(isinstance(e, NeedsConfirmation) for e in out)


def _opened_with_1_3() -> tuple[ScriptedTable, object]:
    """A table opened with [1|3] (at x = 140), and that tile's box."""
    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    return table, first



def test_a_new_tile_seen_on_a_still_table_and_missed_when_read_again_is_still_played() -> None:
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    class Flaky(ScriptedTable):
        """The detector's output for the next reads, then what the test says it sees."""

        def __init__(self) -> None:
            self.script: list[list] = []
            super().__init__()

        def detect(self, image):
            return list(self.script.pop(0)) if self.script else list(self.seen)

    # Ben lays [3|5] on the 3; the first look reads it surely, and a stray box beside it unsurely, so the
    # still table is read again -- and those looks miss the tile (glare, a box lost in the NMS) and the
    # stray box.  Nothing moved in between: the tile is there.
    table = Flaky()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    y = 120.0
    laid = TileDetection(_rect(188.0, y, 48.0, 24.0), "up", 0.9, (HalfReading(3, (200, y + 12), 0.99), HalfReading(5, (224, y + 12), 0.95)))
    stray = TileDetection(_rect(140.0, 160.0, 48.0, 24.0), "up", 0.5, (HalfReading(2, (152, 172), 0.5), HalfReading(6, (176, 172), 0.6)))
    table.script = [[first, laid, stray], [first], [first]]
    events = table.move(FROM_TOP, [first], paint=[(laid.corners, 210), (_rect(220, 128, 6, 6), 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 5)]



def test_a_layout_cut_in_two_by_boxes_short_at_a_join_is_still_the_layout() -> None:
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    def short(pips, x0: float, x1: float, y: float = 120.0) -> TileDetection:
        return TileDetection(_rect(x0, y, x1 - x0, 24.0), "up", 0.9,
                             (HalfReading(pips[0], (x0 + 12, y + 12), 0.99), HalfReading(pips[1], (x1 - 12, y + 12), 0.99)))

    table = ScriptedTable()
    one_three, three_five, five_six = _up((1, 3), 140), _up((3, 5), 188), _up((5, 6), 236)
    table.move(FROM_BOTTOM, [one_three], paint=[(one_three.corners, 200)])
    table.move(FROM_TOP, [one_three, three_five], paint=[(three_five.corners, 210)])
    table.move(FROM_BOTTOM, [one_three, three_five, five_six], paint=[(five_six.corners, 190)])
    # Ben lays [6|2]; the boxes of [3|5] and [5|6] come out short where they meet (two dark tiles on a
    # dark cloth), so no join is seen there: two pieces, each holding played tiles.
    laid = _up((6, 2), 284)
    seen = [one_three, short((3, 5), 188, 226), short((5, 6), 246, 284), laid]
    events = table.move(FROM_TOP, seen, paint=[(laid.corners, 220)])
    assert [(e.tile, e.at) for e in events if isinstance(e, Play)] == [(Tile(2, 6), Tile(5, 6))] and not table.asked


def _opened_with_1_3_then_3_read_as_3_1(runner_up: int):
    """A table opened with [1|3], and the box of a tile laid next on its 3, read [3|1] (the tile
    already played) with ``runner_up`` as its second half's likely other reading."""
    from scorer.vision.detector import HalfReading, TileDetection

    table, first = _opened_with_1_3()
    y = 120.0
    misread = TileDetection(_rect(188.0, y, 48.0, 24.0), "up", 0.9,
                            (HalfReading(3, (200, y + 12), 0.99), HalfReading(1, (224, y + 12), 0.55, ((runner_up, 0.4),))))
    return table, first, misread


def test_a_new_tile_misread_as_one_already_played_is_taken_as_its_likely_reading() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile

    # Ben lays [3|6] on the 3; its 6 is read as a 1 -- [1|3], the tile already played (no join
    # mismatch: the 3 meets the 3).  The 6 is that half's runner-up: the rules take it.
    table, first, misread = _opened_with_1_3_then_3_read_as_3_1(runner_up=6)
    events = table.move(FROM_TOP, [first, misread], paint=[(misread.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)]
    assert any(isinstance(e, Notice) and "taken as [3|6]" in e.message for e in table.events)


def _answered(table: ScriptedTable, offered: list, tile) -> NeedsConfirmation:
    """The last question asked, offering one-tile readings ``offered`` (sorted): answered ``tile``, and the
    table read again."""
    ask = table.asked[-1]
    assert sorted(alt[0].tile for alt in ask.alternatives) == offered
    (chosen,) = [alt for alt in ask.alternatives if alt[0].tile == tile]
    table.pipe.confirm(chosen)
    table.still(10)
    return ask


def test_a_new_tile_read_unsurely_in_every_frame_is_asked_about_where_another_reading_fits() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    # Ben lays [3|4] on the 3; glare on its 4 makes every still frame read it [3|0] unsurely, 4 the
    # runner-up.  [0|3] and [3|4] both fit the 3: read again and again alike, it is still a guess.
    table, first = _opened_with_1_3()
    y = 120.0
    glared = TileDetection(_rect(188.0, y, 48.0, 24.0), "up", 0.9,
                           (HalfReading(3, (200, y + 12), 0.99), HalfReading(0, (224, y + 12), 0.6, ((4, 0.3),))))
    events = table.move(FROM_TOP, [first, glared], paint=[(glared.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert not [e for e in events if isinstance(e, Play)]
    # The players say [3|4]: it is played, and that box reads [3|4] from now on.
    ask = _answered(table, [Tile(0, 3), Tile(3, 4)], Tile(3, 4))
    assert "(212, 132) is read unsurely: [0|3] or [3|4]" in ask.reason
    assert table.pipe.match.current_board().tiles == (Tile(1, 3), Tile(3, 4)) and len(table.asked) == 1
    # Asked, and play goes on without an answer: the likeliest reading is taken, so the game does not
    # stall -- and said.
    table3, _ = _opened_with_1_3()
    table3.move(FROM_TOP, [first, glared], paint=[(glared.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert len(table3.asked) == 1
    next_tile = _up((5, 1), 92)
    events = table3.move(FROM_BOTTOM, [first, glared, next_tile], paint=[(next_tile.corners, 190)])
    assert sorted(e.tile for e in events if isinstance(e, Play)) == [Tile(0, 3), Tile(1, 5)]
    assert any(isinstance(e, Notice) and "no answer about the tile at (212, 132)" in e.message for e in table3.events)
    # Where its runner-up is a tile already played, the rules leave one reading: taken, not asked.
    table2, first2, misread = _opened_with_1_3_then_3_read_as_3_1(runner_up=6)
    unsure = TileDetection(misread.corners, "up", 0.9, (misread.halves[0], HalfReading(6, misread.halves[1].center, 0.6, ((1, 0.35),))))
    events = table2.move(FROM_TOP, [first2, unsure], paint=[(unsure.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)] and not table2.asked


def _glared_3_4_asked_about() -> tuple[ScriptedTable, object, object]:
    """Ben's [3|4] laid on the [1|3], every look reading it [3|0] unsurely: asked about, unanswered."""
    from scorer.vision.detector import HalfReading, TileDetection

    table, first = _opened_with_1_3()
    y = 120.0
    glared = TileDetection(_rect(188.0, y, 48.0, 24.0), "up", 0.9,
                           (HalfReading(3, (200, y + 12), 0.99), HalfReading(0, (224, y + 12), 0.6, ((4, 0.3),))))
    table.move(FROM_TOP, [first, glared], paint=[(glared.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert len(table.asked) == 1
    return table, first, glared


def test_a_move_withdrawn_while_a_question_is_open_leaves_the_question_to_be_asked_again() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, RoundStart, Tile

    # Ben's new tile is asked about; nobody answers, and a person undoes Ann's [1|3].  The question was
    # about the table before the undo: it is asked again of the table as it is -- not settled on its
    # likeliest answer, which would lay Ann's [1|3] again without anyone's word.
    table, _, _ = _glared_3_4_asked_about()
    withdrawn = table.pipe.rewind(len(table.pipe.steps) - 1, 5.0)
    assert [s.event.tile for s in withdrawn if isinstance(s.event, Play)] == [Tile(1, 3)]
    events = table.still(10)
    assert [type(s.event) for s in table.pipe.steps] == [RoundStart]
    assert not [e for e in events if isinstance(e, (MoveEvent, Notice))]
    assert len(table.asked) == 2 and "(212, 132) is read unsurely" in table.asked[-1].reason
    # Redo brings the [1|3] back: Ann's tile is no answer about Ben's, which is asked about again.
    events = table.pipe.confirm([withdrawn[0].event], 6.0) + table.still(10)
    assert [s.event for s in table.pipe.steps][1:] == [withdrawn[0].event]
    assert [e.reason for e in table.asked[2:]] == ["the new tile at (212, 132) is read unsurely: [0|3] or [3|4]"]


def test_a_guess_withdrawn_is_asked_about_again_not_taken_from_where_it_lay() -> None:
    from scorer.rules import Play, Tile

    # Ben's tile asked about and left unanswered, Ann's next tile takes it as read, [0|3].  A person
    # scores again from before Ben's move: the [0|3] is not the board's any more, and its place
    # remembered is forgotten with it -- Ben's tile is asked about again, not laid again as the guess.
    table, first, glared = _glared_3_4_asked_about()
    next_tile = _up((5, 1), 92)
    table.move(FROM_BOTTOM, [first, glared, next_tile], paint=[(next_tile.corners, 190)])
    assert [s.event.tile for s in table.pipe.steps if isinstance(s.event, Play)] == [Tile(1, 3), Tile(0, 3), Tile(1, 5)]
    table.pipe.rewind(2, 9.0)
    events = table.still(10)
    assert [s.event.tile for s in table.pipe.steps if isinstance(s.event, Play)] == [Tile(1, 3)]
    assert not [e for e in events if isinstance(e, MoveEvent)]
    assert "the new tile at (212, 132) is read unsurely" in table.asked[-1].reason and len(table.asked) == 2


def test_an_opening_tile_read_the_same_unsure_way_in_every_look_is_asked_about() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    # Ann opens with [5|5]; the box falls short of one end, and every look reads [4|5] unsurely, 5 the
    # runner-up.  The votes of looks that see the same picture make it no surer, and any tile may open
    # a round: asked.
    def opened() -> tuple[ScriptedTable, TileDetection]:
        table = ScriptedTable()
        short = TileDetection(_rect(140.0, 120.0, 48.0, 24.0), "up", 0.9,
                              (HalfReading(4, (152, 132), 0.6, ((5, 0.35),)), HalfReading(5, (176, 132), 0.99)))
        events = table.move(FROM_BOTTOM, [short], paint=[(short.corners, 200)])
        assert not [e for e in events if isinstance(e, Play)]
        return table, short

    table, short = opened()
    # Ann says [5|5]: it opens the round.
    assert "read unsurely" in _answered(table, [Tile(4, 5), Tile(5, 5)], Tile(5, 5)).reason
    assert table.pipe.match.current_board().tiles == (Tile(5, 5),)
    # Nobody answers and play goes on: the reading as read is taken, and said.
    table2, short2 = opened()
    laid = _up((5, 6), 188)
    events = table2.move(FROM_TOP, [short2, laid], paint=[(laid.corners, 210)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(4, 5), Tile(5, 6)]
    assert any(isinstance(e, Notice) and "no answer" in e.message for e in table2.events)
    # A question about a reading left open when the last round ended is no answer to this round's: a tile
    # read unsurely where that one lay is asked about anew.
    from scorer.pipeline.questions import WhichReading

    table3 = ScriptedTable()
    table3.pipe.asked.reading = WhichReading((164.0, 132.0), ((Tile(4, 5),), (Tile(5, 5),)))
    short3 = TileDetection(short.corners, "up", 0.9, short.halves)
    events = table3.move(FROM_BOTTOM, [short3], paint=[(short3.corners, 200)])
    assert not [e for e in events if isinstance(e, Play)] and "read unsurely" in table3.asked[-1].reason


@pytest.mark.parametrize("right_first", [True, False])
def test_two_tiles_seen_at_once_are_played_in_the_order_their_places_settled(right_first: bool) -> None:
    from scorer.rules import Play, Tile

    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    # Ben lays one tile and Ann the next before the table is still in between: both are seen at
    # once, and either order is legal and scores alike -- who played which is in when each place settled.
    # (Both arms reach in from the right, where nobody sits at a table of two: they tell nothing.  The
    # one to the left tile passes above the right one.)
    right, left = _up((3, 6), 188), _up((5, 1), 92)
    over_right = [(slice(122, 142), slice(200, 320))]
    over_left = [(slice(96, 116), slice(100, 320)), (slice(96, 140), slice(104, 128))]
    moves = [(over_right, right, 210), (over_left, left, 170)]
    if not right_first:
        moves.reverse()
    for arm, tile, grey in moves:
        table.sweep(*arm, paint=[(tile.corners, grey)])
    table.seen = [first, right, left]
    events = [e.step.event for e in table.still(10) if isinstance(e, MoveEvent)]
    played = [(e.player, e.tile) for e in events if isinstance(e, Play)]
    if right_first:
        assert played == [("Ben", Tile(3, 6)), ("Ann", Tile(1, 5))]
    else:
        assert played == [("Ben", Tile(1, 5)), ("Ann", Tile(3, 6))]


def test_two_new_tiles_whose_places_settled_at_one_moment_are_asked_about() -> None:
    from scorer.rules import Tile

    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    # One arm, one motion -- and two new boxes, [3|6] and [6|2] in line: no player lays two tiles at
    # once, so this is one tile seen as two (or moves the camera cannot tell apart): the players say.
    right, further = _up((3, 6), 188), _up((6, 2), 236)
    events = table.move(FROM_TOP, [first, right, further], paint=[(right.corners, 210), (further.corners, 190)])
    assert not events and "appeared at once" in table.asked[-1].reason
    (alternative,) = table.asked[-1].alternatives
    assert [(e.player, e.tile) for e in alternative] == [("Ben", Tile(3, 6)), ("Ann", Tile(2, 6))]


def test_a_tile_laid_by_an_arm_from_a_player_not_on_turn_who_may_not_pass_is_asked_about() -> None:
    from scorer.rules import Play, Tile

    # Horse Race, two players: after Ann's opening it is Ben's turn, and with tiles in the boneyard he
    # may not pass.  The next tile comes from Ann's side: Ann reached across for him -- or the camera
    # missed Ben's move.  Either way it is not for the camera to say.
    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200)])
    laid = _up((3, 6), 188)
    events = table.move((slice(150, 240), slice(190, 240)), [first, laid], paint=[(laid.corners, 210)])
    assert not events and "it is Ben's turn" in table.asked[-1].reason
    (alternative,) = table.asked[-1].alternatives
    assert [(e.player, e.tile) for e in alternative if isinstance(e, Play)] == [("Ben", Tile(3, 6))]


def test_a_tile_that_barely_moved_the_picture_is_not_given_to_the_arm_before_it() -> None:
    from scorer.rules import Play, Tile

    table = ScriptedTable()
    first, laid = _up((1, 3), 140), _up((3, 6), 188)
    # Ann opens, her arm sweeping over the place where the next tile will lie.
    table.move((slice(100, 240), slice(130, 240)), [first], paint=[(first.corners, 200)])
    # Ben reaches in from the top, away from that place, and lays [3|6] there -- a tile the colour of the
    # table but for its pips, so the place seems to have settled under Ann's arm.  The table read after
    # Ann's move showed no box there: it is Ben's move.
    events = table.move((slice(0, 60), slice(150, 230)), [first, laid], paint=[(_rect(205, 127, 10, 10), 20)])
    assert [(type(e), e.player, e.tile) for e in events] == [(Play, "Ben", Tile(3, 6))] and not table.asked


def test_a_back_in_a_seats_strip_read_as_a_double_blank_is_no_tile_of_the_hand() -> None:
    import numpy as np

    from scorer.pipeline.still import off_backs

    back = _up((0, 0), 20, 200)  # a plain back, read face up as [0|0], where the boneyard lies
    hand = [_up((2, 5), 120, 200), _up((1, 6), 170, 200)]
    seats = off_backs({0: [back, *hand], 1: [back]}, [np.asarray(back.corners)])
    assert seats == {0: hand}



def test_a_box_reading_a_tile_seen_elsewhere_is_left_out_where_the_table_fits_without_it() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    table = ScriptedTable()
    first = _up((1, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    # Ben lays [3|6] on the 3; a weak box against its end, mostly on bare table, also reads [3|6] (as
    # in a set-3 game, where a box half over the last tile read [0|1] beside the real [0|1]).
    x, y = 236.0, 130.0
    ghost = TileDetection(_rect(x, y, 48.0, 24.0), "up", 0.4,
                          (HalfReading(6, (x + 12, y + 12), 0.95), HalfReading(3, (x + 36, y + 12), 0.95)))
    real = _up((3, 6), 188)
    events = table.move(FROM_TOP, [first, real, ghost], paint=[(real.corners, 210), (_rect(200, 128, 6, 6), 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)] and not table.asked
    assert any(isinstance(e, Notice) and "is left out" in e.message for e in table.events)


def test_a_tile_seen_in_two_places_where_either_fits_is_asked_about() -> None:
    from scorer.rules import Play, Tile

    table = ScriptedTable()
    first, second = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    table.move(FROM_TOP, [first, second], paint=[(second.corners, 210), (_rect(200, 128, 6, 6), 30)])
    # [1|6] is read at both ends of the line, and it fits at either: which one is for the players.
    at_the_one, at_the_six = _up((6, 1), 92), _up((6, 1), 236)
    events = table.move(FROM_BOTTOM, [first, second, at_the_one, at_the_six], paint=[(at_the_one.corners, 190)])
    assert not [e for e in events if isinstance(e, Play)] and "seen in two places" in table.asked[-1].reason
    assert {alt[0].side.value for alt in table.asked[-1].alternatives} == {"low", "high"}
    assert all(alt[0].tile == Tile(1, 6) for alt in table.asked[-1].alternatives)


def test_a_loose_box_read_as_a_played_tile_does_not_move_where_that_tile_is_remembered() -> None:
    from scorer.rules import Play, Tile

    table = ScriptedTable()
    first, second = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    # Ben lays [3|6]; a box on a mark on the table, apart from the layout, also reads [3|6].
    ghost = _up((3, 6), 150, 60.0)
    events = table.move(FROM_TOP, [first, second, ghost], paint=[(second.corners, 210), (_rect(200, 128, 6, 6), 30), (ghost.corners, 120)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(3, 6)]
    # Ann lays [1|5]; the detector misses [3|6] now, and the ghost box is gone.  [3|6] is remembered
    # where it was joined, not at the mark: it stands in, and the move is scored.
    third = _up((5, 1), 92)
    events = table.move(FROM_BOTTOM, [first, third], paint=[(third.corners, 190), (_rect(100, 124, 6, 6), 50)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(1, 5)] and not table.asked
    assert table.pipe.match.current_board().end_sum() == 5 + 6


def test_a_double_blank_taken_for_a_back_in_a_revealed_hand_is_read_by_its_divider() -> None:
    import numpy as np

    from scorer.pipeline import MoveEvent
    from scorer.rules import Reveal, Tile
    from scorer.rules.simulate import simulate_match
    from scorer.pipeline.still import StillTable
    from scorer.vision.detector import HalfReading, TileDetection

    sim, k = next(
        (sim, k) for seed in range(200) for sim in [simulate_match("horse-race", 2, seed=seed)]
        for k, s in enumerate(sim.events)
        if isinstance(s.event, Reveal) and any(Tile(0, 0) in hand and len(hand) > 1 for _, hand in s.event.hands)
    )
    step, before = sim.events[k], sim.events[k - 1].after
    hands = dict(step.event.hands)
    image = np.full((640, 800, 3), 70, np.uint8)
    up, down = [], []
    for seat, (player, y) in enumerate(zip(before.players, (590.0, 10.0))):
        for j, t in enumerate(hands[player]):
            x = 100.0 + 80 * j
            corners = _rect(x, y, 48.0, 24.0)
            image[int(y) : int(y) + 24, int(x) : int(x) + 48] = 225
            if t == Tile(0, 0):  # plain but for its divider: the detector calls it a back
                image[int(y) + 2 : int(y) + 22, int(x) + 23 : int(x) + 25] = 40
                down.append(TileDetection(corners, "down", 0.8))
            else:
                up.append(TileDetection(corners, "up", 0.9, (HalfReading(t.a, (x + 12, y + 12), 0.99), HalfReading(t.b, (x + 36, y + 12), 0.99))))
    # A real back beside the hands, with no divider, stays a back.
    image[300:324, 700:748] = 225
    down.append(TileDetection(_rect(700.0, 300.0, 48.0, 24.0), "down", 0.8))
    pipe = TablePipeline(before, ScriptedTable().pipe.detector, PipelineConfig(), fps=10)
    events = pipe.act(StillTable.of(1.0, 0.0, image, up, down, [], colour=False))
    revealed = [e.step.event for e in events if isinstance(e, MoveEvent)]
    assert len(revealed) == 1 and {p: sorted(h) for p, h in revealed[0].hands} == {p: sorted(h) for p, h in step.event.hands}


def test_a_new_tile_read_surely_as_a_played_one_beside_the_layout_is_asked_about() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Pass, Play, Tile

    table = ScriptedTable()
    first, second = _up((1, 3), 140), _up((3, 6), 188)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(150, 126, 6, 6), 40)])
    table.move(FROM_TOP, [first, second], paint=[(second.corners, 210), (_rect(200, 128, 6, 6), 30)])
    # Ann lays a tile on the 1, read surely as [3|6] (played already): neither a stray box to
    # ignore (her move would be lost and scored as a pass later) nor a guess -- she is asked.
    misread = _up((6, 3), 92)
    events = table.move(FROM_BOTTOM, [first, second, misread], paint=[(misread.corners, 190)])
    assert not [e for e in events if isinstance(e, (Play, Pass))] and table.asked
    assert set(table.pipe.match.current_board().tiles) == {Tile(1, 3), Tile(3, 6)}
    # Nobody answers, and Ben lays [2|6] on the 6: the next move does not answer the question
    # (taken as it looks, Ann's turn would be scored as a pass).
    third = _up((6, 2), 236)
    events = table.move(FROM_TOP, [first, second, misread, third], paint=[(third.corners, 180)])
    assert not [e for e in events if isinstance(e, (Play, Pass))]
    assert set(table.pipe.match.current_board().tiles) == {Tile(1, 3), Tile(3, 6)}
    # Ann enters both moves by hand; the box still read [3|6] is then taken as her [1|5], the played
    # tile the camera does not see, and play goes on without another question.
    table.pipe.confirm([Play("Ann", Tile(1, 5)), Play("Ben", Tile(2, 6))])
    asked = len(table.asked)
    fourth = _up((4, 5), 44)
    events = table.move(FROM_BOTTOM, [first, second, misread, third, fourth], paint=[(fourth.corners, 170)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(4, 5)] and len(table.asked) == asked
    assert any(isinstance(e, Notice) and "taken as [1|5]: a played tile seen nowhere else" in e.message for e in table.events)


def test_a_reading_that_leaves_a_tile_beside_it_unjoined_is_not_taken() -> None:
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection

    # Ben lays [3|4] on the 3 and Ann (at once) [4|4] against its 4, not yet pushed home (too far
    # off to count as joined).  [3|4] is read [3|1] (played already), with 5 as its second half's
    # runner-up: [3|5] fits the [1|3] -- but leaves the [4|4] lying against it unjoined, so it is
    # no reading of the table; the players are asked.
    table, first, misread = _opened_with_1_3_then_3_read_as_3_1(runner_up=5)
    y = 120.0
    double = TileDetection(_rect(254.0, y - 12, 24.0, 48.0), "up", 0.9,
                           (HalfReading(4, (266, y - 0), 0.99), HalfReading(4, (266, y + 24), 0.99)))
    events = table.move(FROM_TOP, [first, misread, double], paint=[(misread.corners, 210), (double.corners, 230)])
    assert not [e for e in events if isinstance(e, Play)] and table.asked
    assert set(table.pipe.match.current_board().tiles) == {Tile(1, 3)}


def test_a_double_blank_taken_for_a_back_where_a_double_goes_on_a_0_is_played() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile
    from scorer.vision.detector import TileDetection

    table = ScriptedTable()
    first = _up((0, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(170, 126, 6, 6), 40)])
    # Ben lays the double blank crosswise on the 0; plain black but for its outline, it is seen as a back.
    blank = TileDetection(_rect(116.0, 108.0, 24.0, 48.0), "down", 0.8)
    events = table.move(FROM_TOP, [first, blank], paint=[(blank.corners, 30)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(0, 0)]
    assert any(isinstance(e, Notice) and "taken as [0|0]" in e.message for e in table.events)


def test_a_plain_box_read_as_the_double_blank_that_may_be_a_back_is_played_and_said() -> None:
    from scorer.pipeline import Notice
    from scorer.rules import Play, Tile
    from scorer.vision.detector import HalfReading, TileDetection
    from scorer.vision.plain_backs import BLANK_OR_BACK

    table = ScriptedTable()
    first = _up((0, 3), 140)
    table.move(FROM_BOTTOM, [first], paint=[(first.corners, 200), (_rect(170, 126, 6, 6), 40)])
    # The detector's plain box on the 0, read as the double blank unsurely (it may be a back): in every
    # frame alike, so the frames' agreeing does not make it sure; it fits, it is played, and said.
    corners = _rect(116.0, 108.0, 24.0, 48.0)
    blank = TileDetection(corners, "up", 0.8, (HalfReading(0, (128.0, 120.0), BLANK_OR_BACK),
                                               HalfReading(0, (128.0, 144.0), BLANK_OR_BACK)), maybe_back=True)
    events = table.move(FROM_TOP, [first, blank], paint=[(blank.corners, 200)])
    assert [e.tile for e in events if isinstance(e, Play)] == [Tile(0, 0)]
    assert any(isinstance(e, Notice) and "seen as a back, is taken as [0|0]" in e.message for e in table.events)
    assert not table.pipe.tracker.read_surely(blank)


def test_tiles_too_small_for_live_reading_are_pointed_out_once() -> None:
    from scorer.pipeline.core import LIVE_SMALL_TILE_PX
    from scorer.pipeline.events import Notice

    def told(length: float) -> list[str]:
        table = ScriptedTable()
        table.move(FROM_BOTTOM, [_up((1, 4), 150, length=length)], paint=[(_rect(150, 120, length, length / 2), 180)])
        table.move(FROM_BOTTOM, [_up((1, 4), 150, length=length), _up((4, 6), 150 + length + 1, length=length)],
                   paint=[(_rect(150 + length + 1, 120, length, length / 2), 190)])
        return [e.message for e in table.events if isinstance(e, Notice) and "too small" in e.message]

    # A far camera: said once, with the length needed; at the usual distance, nothing.
    far = told(LIVE_SMALL_TILE_PX - 6)
    assert len(far) == 1 and f"at least {LIVE_SMALL_TILE_PX} px" in far[0]
    assert told(LIVE_SMALL_TILE_PX + 3) == []


def test_a_picture_too_grainy_to_read_is_pointed_out_once() -> None:
    import numpy as np

    from scorer.pipeline.events import Notice

    def told(sigma: float) -> list[str]:
        table = ScriptedTable()
        speckle = np.random.default_rng(0).normal(0.0, sigma, table.image.shape)
        table.image = np.clip(table.image + speckle, 0, 255).astype(np.uint8)
        table.move(FROM_BOTTOM, [_up((1, 4), 150)], paint=[(_rect(150, 120, 48, 24), 180)])
        table.move(FROM_BOTTOM, [_up((1, 4), 150), _up((4, 6), 199)], paint=[(_rect(199, 120, 48, 24), 190)])
        return [e.message for e in table.events if isinstance(e, Notice) and "too grainy" in e.message]

    # A room too dark for the camera, its gain up: said once, asking for light; a clean picture, nothing.
    grainy = told(80.0)
    assert len(grainy) == 1 and "more light on the table" in grainy[0]
    assert told(3.0) == []


def test_a_picture_too_dark_with_tiles_laid_is_pointed_out_once() -> None:
    from scorer.pipeline.events import Notice

    def told(dimmed: bool, read: bool, first_laid: bool = True) -> list[str]:
        table = ScriptedTable()
        if first_laid:  # (in the room's light: read, and played)
            table.move(FROM_BOTTOM, [_up((1, 4), 150)], paint=[(_rect(150, 120, 48, 24), 180)])
        if dimmed:  # the lights dimmed under a camera that does not brighten them back: every level an eighth
            table.image //= 8
        tile_level = int(table.image.max()) if first_laid else 22
        for k, x in enumerate((199, 248)):  # (two more tiles laid in that light)
            table.move(FROM_BOTTOM, [_up((1, 4), 150), _up((4, 6), 199), _up((6, 2), 248)][: k + 2] if read else [],
                       paint=[(_rect(x, 120, 48, 24), tile_level)])
        return [e.message for e in table.events if isinstance(e, Notice) and "very dark" in e.message]

    # Mid-round, the lights dimmed: said once, asking for light, whether the tiles laid since are read or not.
    for read in (False, True):
        dark = told(dimmed=True, read=read)
        assert len(dark) == 1 and "more light on the table" in dark[0]
    # Nothing read on a lit table; a dark table with nothing laid on it yet (a bare cloth): nothing to say.
    assert told(dimmed=False, read=False) == [] and told(dimmed=True, read=False, first_laid=False) == []


def test_the_too_dark_notice_is_for_tiles_in_play_not_a_table_between_rounds() -> None:
    from scorer.pipeline.events import Notice
    from scorer.rules import Phase, Reveal
    from scorer.rules.simulate import simulate_match

    sim = simulate_match("horse-race", 2, seed=5)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    in_round, counting, between = sim.events[k - 2].after, sim.events[k - 1].after, sim.events[k].after
    assert (in_round.phase, counting.phase, between.phase) == (Phase.IN_ROUND, Phase.ROUND_OVER, Phase.BEFORE_ROUND)
    assert in_round.current_board().tiles and between.current_board().tiles  # (the last layout still lies there)

    def told(state, seen: list) -> int:
        table = ScriptedTable()
        table.pipe = TablePipeline(state, table, PipelineConfig(), fps=10)
        table.image[:] = 8  # (a dark room)
        table.paint(_rect(150, 120, 48, 24), 30)
        table.seen = seen
        table.still(10)
        return sum(isinstance(e, Notice) and "very dark" in e.message for e in table.events)

    face = [_up((1, 4), 150)]
    # Mid-round, read or not (the lights out); the hands being counted, where anything is seen.
    assert told(in_round, []) == told(in_round, face) == told(counting, face) == 1
    # A table cleared after the count; between rounds, the old layout lying there or not.
    assert told(counting, []) == told(between, []) == told(between, face) == 0
