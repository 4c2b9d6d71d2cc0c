"""A tile taken as read unanswered, contradicted later by its reading seen surely elsewhere: the round is
written again with its other reading (scorer.pipeline.rewrite, Turns._revised)."""

from __future__ import annotations

from pathlib import Path

from scorer.pipeline import MoveEvent, Notice, PipelineConfig, TablePipeline
from scorer.pipeline.rewrite import Guess, guessed, played_line, with_guess_revised
from scorer.pipeline.sequences import allows
from scorer.rules import Event, Play, Reveal, Tile
from scorer.rules.history import MatchHistory
from scorer.rules.log import MatchHeader
from scorer.rules.simulate import simulate_match
from scorer.rules.transcript import score_log
from scorer.sessions import Session
from scorer.vision.detector import HalfReading, TileDetection


def _misread_play(seed: int) -> tuple[MatchHeader, list[Event], int, Tile]:
    """A Seven Rocks match's first round up to two events after a play (index k, not the round's first) that
    another tile not played this round would also fit, no later event laid against it: the events and k,
    and that other tile -- what the camera may have taken it for."""
    sim = simulate_match("seven-rocks", 4, True, seed=seed)
    events = [s.event for s in sim.events]
    end = next(i for i, e in enumerate(events) if isinstance(e, Reveal))
    header = MatchHeader("seven-rocks", sim.events[0].after.players, True)
    for k in range(2, end - 2):
        e = events[k]
        if not isinstance(e, Play) or e.at is None or any(getattr(x, "at", None) == e.tile for x in events[k + 1 : k + 3]):
            continue
        shared = ({e.tile.a, e.tile.b} & {e.at.a, e.at.b})
        played = {x.tile for x in events[: end] if isinstance(x, Play)}
        for v in shared:
            for w in range(7):
                other = Tile.of(v, w)
                if other not in played and other != e.tile and allows(header.new_match(), _taken_as(events[: k + 3], k, other)):
                    return header, events[: k + 3], k, other
    raise AssertionError("no such play in this match")


def _history(header: MatchHeader, events: list[Event], history: MatchHistory | None = None) -> MatchHistory:
    history = history or MatchHistory.new(header)
    for n, e in enumerate(events):
        history.apply(e, float(n))
    return history


def _taken_as(events: list[Event], k: int, tile: Tile) -> list[Event]:
    e = events[k]
    assert isinstance(e, Play)
    return events[:k] + [Play(e.player, tile, e.at, e.side, e.source)] + events[k + 1 :]


def test_a_question_about_one_tiles_reading_is_a_guess_with_its_other_readings() -> None:
    a, b, c, d = Tile(2, 3), Tile(1, 4), Tile(1, 6), Tile(4, 4)
    assert guessed([(a, b), (a, c)], 2) == Guess(b, (c,), 2)
    assert guessed([(b,), (c,), (d,)], 2) == Guess(b, (c, d), 2)
    assert guessed([(a, b), (c, d)], 2) is None  # (two tiles differ: not one tile's reading)
    assert guessed([(b,)], 2) is None
    assert guessed([(b,), (c,), (c,)], 2) == Guess(b, (c,), 2)  # (a reading offered twice)


def test_the_round_is_written_again_from_the_guessed_play_on_with_the_other_reading() -> None:
    header, truth, k, other = _misread_play(seed=3)
    played = truth[k]
    assert isinstance(played, Play)
    history = _history(header, _taken_as(truth, k, other))
    guess = Guess(other, (played.tile,), history.match.round_no)
    rewritten = with_guess_revised(history.steps, guess, played.tile)
    assert rewritten is not None
    assert rewritten.keep == k and [e for e, _ in rewritten.events] == truth[k:] and rewritten.changed == (0,)
    assert rewritten.events[0][1] == float(k)  # at the time the play was seen
    assert f"played {played.tile}, not {other}" in rewritten.said


def test_no_rewrite_where_the_rules_refuse_the_round_so_changed_or_the_tile_was_not_played_this_round() -> None:
    header, truth, k, other = _misread_play(seed=3)
    played = truth[k]
    assert isinstance(played, Play)
    history = _history(header, _taken_as(truth, k, other))
    round_no = history.match.round_no
    # A reading already played elsewhere in the round: the rules refuse it.
    earlier = next(e.tile for e in truth[:k] if isinstance(e, Play) and e.tile != played.tile)
    assert with_guess_revised(history.steps, Guess(other, (earlier,), round_no), earlier) is None
    never = next(t for t in (Tile.of(a, b) for a in range(7) for b in range(a, 7))
                 if t not in {e.tile for e in truth if isinstance(e, Play)} and t != other)
    assert with_guess_revised(history.steps, Guess(never, (played.tile,), round_no), played.tile) is None


def _box(x: float, y: float, tile: Tile, sure: float = 0.99) -> TileDetection:
    return TileDetection(((x, y), (x + 48, y), (x + 48, y + 24), (x, y + 24)), "up", 0.9,
                         (HalfReading(tile.a, (x + 12, y + 12), sure), HalfReading(tile.b, (x + 36, y + 12), sure)))


class _NoCamera:
    def detect(self, image):  # (the test hands the pipeline its readings)
        return []


def _session_with_misread_play(tmp_path: Path, taken: bool = True):
    """Session 3's play k taken as another tile (``taken``; else as it was), on a pipeline that sees nothing:
    the truth, the play, the tile it was taken for, the session and the pipeline."""
    header, truth, k, other = _misread_play(seed=3)
    played = truth[k]
    assert isinstance(played, Play)
    session = _history(header, _taken_as(truth, k, other) if taken else truth, Session.create(header, tmp_path))
    return truth, played, other, session, TablePipeline(session, _NoCamera(), PipelineConfig(), fps=10)


def test_a_guess_contradicted_by_its_reading_seen_surely_elsewhere_rewrites_the_session(tmp_path: Path) -> None:
    truth, played, other, session, pipe = _session_with_misread_play(tmp_path)
    pipe.turns.guesses.append(Guess(other, (played.tile,), pipe.match.round_no, played_line(pipe.history.steps, other)))
    # The guessed box where the layout remembers the played tile, read unsurely; the other followed and read surely.
    pipe.memory.is_remembered = lambda detection: detection.center == (124.0, 112.0)
    pipe.tracker.read_surely = lambda detection: detection.center != (124.0, 112.0)
    boxes = [_box(100.0, 100.0, other, sure=0.6), _box(400.0, 300.0, other)]

    out = pipe.turns._revised(50.0, boxes)
    (moved,) = [e for e in out if isinstance(e, MoveEvent)]
    assert moved.step.event == played
    assert moved.announcement is not None and str(played.tile) in moved.announcement.en  # said as any play is
    (said,) = [e for e in out if isinstance(e, Notice)]
    assert f"taken as {other} is {played.tile}: {other} is read surely at (424, 312)" in said.message
    assert [s.event for s in pipe.history.steps] == truth and pipe.turns.guesses == []
    session.close()
    _, steps = score_log(session.path.read_text().splitlines())  # the file alone: the undo line, the round again
    assert [s.event for s in steps] == truth


def test_a_guess_is_left_where_its_reading_is_not_seen_elsewhere_or_its_other_reading_is_on_the_table() -> None:
    header, truth, k, other = _misread_play(seed=3)
    played = truth[k]
    assert isinstance(played, Play)
    pipe = TablePipeline(_history(header, _taken_as(truth, k, other)), _NoCamera(), PipelineConfig(), fps=10)
    guess = Guess(other, (played.tile,), pipe.match.round_no)
    pipe.turns.guesses.append(guess)
    pipe.memory.is_remembered = lambda detection: detection.center == (124.0, 112.0)
    pipe.tracker.read_surely = lambda detection: detection.center != (124.0, 112.0)
    assert pipe.turns._revised(50.0, [_box(100.0, 100.0, other)]) == []  # seen only where it was guessed
    assert pipe.turns._revised(50.0, [_box(100.0, 100.0, other), _box(400.0, 300.0, other), _box(600.0, 300.0, played.tile)]) == []
    pipe.tracker.read_surely = lambda detection: False  # the other box not read surely: asked, as before
    assert pipe.turns._revised(50.0, [_box(100.0, 100.0, other), _box(400.0, 300.0, other)]) == []
    assert [s.event for s in pipe.history.steps] == _taken_as(truth, k, other) and pipe.turns.guesses == [guess]


def test_a_guess_read_surely_since_or_whose_play_was_written_again_is_no_longer_revised() -> None:
    header, truth, k, other = _misread_play(seed=3)
    played = truth[k]
    assert isinstance(played, Play)
    pipe = TablePipeline(_history(header, _taken_as(truth, k, other)), _NoCamera(), PipelineConfig(), fps=10)
    pipe.memory.is_remembered = lambda detection: detection.center == (124.0, 112.0)
    boxes = [_box(100.0, 100.0, other), _box(400.0, 300.0, other)]
    # Its box read surely since (the camera, or a person's correction): the guess is dropped.
    pipe.turns.guesses.append(Guess(other, (played.tile,), pipe.match.round_no))
    pipe.tracker.read_surely = lambda detection: True
    assert pipe.turns._revised(50.0, boxes) == [] and pipe.turns.guesses == []
    # Its play undone and entered again (another log line): not the play the guess took.
    line = played_line(pipe.history.steps, other)
    pipe.turns.guesses.append(Guess(other, (played.tile,), pipe.match.round_no, line))
    undone = pipe.history.rewind(k)
    for step in undone:
        pipe.history.apply(step.event, step.t)
    pipe.tracker.read_surely = lambda detection: detection.center != (124.0, 112.0)
    assert pipe.turns._revised(50.0, boxes) == []
    assert [s.event for s in pipe.history.steps] == _taken_as(truth, k, other)


def test_a_played_tile_corrected_by_a_person_rewrites_its_move_and_rescores_the_moves_since(tmp_path: Path) -> None:
    from collections import Counter

    from scorer.pipeline.tracker import Track

    truth, played, other, session, pipe = _session_with_misread_play(tmp_path)
    box = _box(100.0, 100.0, other)
    pipe.tracker.tracks = [Track(0, box, Counter({other: 9}), Counter({other: 9}), settled=other)]

    out = pipe.correct_reading(box.center, played.tile, 50.0)
    (moved,) = [e for e in out if isinstance(e, MoveEvent)]
    assert moved.step.event == played and moved.announcement is not None
    (said,) = [e for e in out if isinstance(e, Notice)]
    assert said.message.startswith(f"the tile at (124, 112) is {played.tile}, as corrected: {played.player} played "
                                   f"{played.tile}, not {other}")
    assert [s.event for s in pipe.history.steps] == truth
    session.close()
    _, steps = score_log(session.path.read_text().splitlines())  # the file alone: the undo line, the round again
    assert [s.event for s in steps] == truth
    # A tile corrected to what the rules refuse there: the match left as it is, and the picture as the match has it
    # (a label the log contradicts would stay on the table all round).
    again = TablePipeline(_history(session.header, truth), _NoCamera(), PipelineConfig(), fps=10)
    again.tracker.tracks = [Track(0, box, Counter({played.tile: 9}), settled=played.tile)]
    kept = [s.event for s in again.history.steps]
    refused = Tile(6, 6) if played.tile != Tile(6, 6) else Tile(0, 0)
    (said,) = again.correct_reading(box.center, refused, 60.0)
    assert said.message == (f"the tile at (124, 112) is not taken as {refused}: the rules do not allow {refused} where "
                            f"{played.tile} was laid -- it stays {played.tile} (undo the move to enter another)")
    assert [s.event for s in again.history.steps] == kept and again.tracker.reading_at(box.center) == played.tile


def test_a_box_corrected_beside_the_played_tile_read_the_same_leaves_the_move(tmp_path: Path) -> None:
    """A new tile misread as one on the board (the camera asks which it is): corrected by hand, it is that
    box that is corrected, not the move that laid the tile it was taken for."""
    from collections import Counter

    from scorer.pipeline.tracker import Track

    truth, played, other, session, pipe = _session_with_misread_play(tmp_path, taken=False)
    on_board, stray = _box(100.0, 100.0, played.tile), _box(600.0, 400.0, played.tile)
    pipe.tracker.tracks = [Track(0, on_board, Counter({played.tile: 9}), settled=played.tile),
                           Track(1, stray, Counter({played.tile: 9}), settled=played.tile)]
    (said,) = pipe.correct_reading(stray.center, other, 50.0)
    assert said.message == f"the tile at (624, 412) is {other}, as corrected"
    assert [s.event for s in pipe.history.steps] == truth
    session.close()
