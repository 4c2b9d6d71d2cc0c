"""Draws the camera missed, told by the hands laid out at a round's end (scorer.pipeline.recount)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.pipeline import MoveEvent, NeedsConfirmation, Notice, PipelineConfig, TablePipeline
from scorer.pipeline.recount import with_missed_draws
from scorer.rules import Draw, Event, Phase, Reveal
from scorer.rules.history import MatchHistory
from scorer.rules.log import MatchHeader
from scorer.rules.simulate import simulate_match
from scorer.rules.transcript import score_log
from scorer.sessions import Session
from scorer.vision.detector import HalfReading, TileDetection


def _first_round(game: str, players: int, seed: int, partnership: bool = False) -> tuple[MatchHeader, list[Event], Reveal]:
    """A simulated match's events up to its first round's end, and the hands then laid out."""
    sim = simulate_match(game, players, partnership, seed=seed)
    events = [s.event for s in sim.events]
    k = next(k for k, e in enumerate(events) if isinstance(e, Reveal))
    reveal = events[k]
    assert isinstance(reveal, Reveal)
    return MatchHeader(game, sim.events[0].after.players, partnership), events[:k], reveal


def _history(header: MatchHeader, events: list[Event], history: MatchHistory | None = None) -> MatchHistory:
    history = history or MatchHistory.new(header)
    for n, e in enumerate(events):
        history.apply(e, float(n))
    return history


def _as_logged(history: MatchHistory) -> list[Event]:
    return [s.event for s in history.steps]


def test_a_draw_of_three_seen_as_two_is_made_three_by_the_hands_laid_out() -> None:
    header, events, reveal = _first_round("horse-race", 4, seed=7)
    k = next(k for k, e in enumerate(events) if isinstance(e, Draw) and e.count == 3)
    seen = events[:k] + [Draw(events[k].player, 2)] + events[k + 1:]
    history = _history(header, seen)
    redrawn = with_missed_draws(history.steps, reveal)
    assert redrawn is not None
    assert redrawn.keep == k and [e for e, _ in redrawn.events] == events[k:]
    assert redrawn.events[redrawn.changed[0]] == (Draw(events[k].player, 3), float(k))  # at the time the draw was seen
    assert f"{events[k].player} drew 3, not 2 (at {k:.1f} s)" in redrawn.said


def test_a_draw_never_seen_is_put_before_a_play_of_the_player_so_that_every_event_and_the_hands_fit() -> None:
    header, events, reveal = _first_round("horse-race", 4, seed=35)  # Ben draws once in the round
    k = next(k for k, e in enumerate(events) if isinstance(e, Draw))
    player = events[k].player
    assert events[k].count == 1
    history = _history(header, events[:k] + events[k + 1:])
    assert with_missed_draws(history.steps, reveal, unseen=False) is None  # (no draw of his to make larger)
    redrawn = with_missed_draws(history.steps, reveal)
    assert redrawn is not None
    (at,) = redrawn.changed
    assert redrawn.events[at][0] == Draw(player, 1) and f"{player} drew 1 before" in redrawn.said
    history.rewind(redrawn.keep)
    for e, t in redrawn.events:
        history.apply(e, t)
    history.apply(reveal)  # the rules allow the hands now
    truth = _history(header, [*events, reveal])
    assert history.match.scores() == truth.match.scores()


@pytest.mark.parametrize("change", ["none", "fewer", "no boneyard"])
def test_hands_that_fit_the_log_or_hold_fewer_tiles_or_a_game_without_draws_are_not_recounted(change: str) -> None:
    game = "seven-rocks" if change == "no boneyard" else "horse-race"
    header, events, reveal = _first_round(game, 4, seed=7, partnership=game == "seven-rocks")
    if change == "fewer":  # a tile of a hand missed by the camera, not a draw that never was
        k = next(k for k, e in enumerate(events) if isinstance(e, Draw) and e.count == 3)
        events = events[:k] + [Draw(events[k].player, 4)] + events[k + 1:]
    elif change == "no boneyard":
        player, hand = next((p, h) for p, h in reveal.hands if h)
        reveal = Reveal(tuple((p, h + h[:1] if p == player else h) for p, h in reveal.hands))
    assert with_missed_draws(_history(header, events).steps, reveal) is None



@pytest.mark.parametrize("counted", ["a draw of three as four", "a draw that never was"])
def test_hands_typed_in_with_fewer_tiles_take_back_the_draw_counted_too_many(counted: str) -> None:
    # (A camera that saw nothing for a while put the player on turn first to draw the backs gone meanwhile, one of
    # them the next player's -- or took a back moved aside for one drawn.)  The hands a person types in are the hands.
    from scorer.pipeline.notices import DrawsPutIn
    from scorer.pipeline.recount import with_draws_undone

    header, events, reveal = _first_round("horse-race", 4, seed=7)
    k = next(k for k, e in enumerate(events) if isinstance(e, Draw) and e.count == 3)
    player = events[k].player
    if counted == "a draw of three as four":
        seen, told = events[:k] + [Draw(player, 4)] + events[k + 1:], f"{player} drew 3, not 4 (at {k:.1f} s)"
    else:
        seen, told = events[:k + 1] + [Draw(player, 1)] + events[k + 1:], f"{player} drew 0, not 1 (at {k + 1:.1f} s)"
    history = _history(header, seen)
    assert with_missed_draws(history.steps, reveal) is None  # (the camera's own reading of fewer: a tile it missed)
    undone = with_draws_undone(history.steps, reveal)
    assert undone is not None and [e for e, _ in undone.events] == events[undone.keep:] and told in undone.said
    pipeline = TablePipeline(history, _NoCamera(), PipelineConfig())
    said = [e.said for e in pipeline.confirm([reveal], 99.0) if isinstance(e, Notice)]
    assert said == [DrawsPutIn(undone.changes, fewer=True)] and said[0].text().startswith("the hands laid out hold fewer")
    truth = _history(header, [*events, reveal])
    assert pipeline.match.scores() == truth.match.scores() and pipeline.match.phase is truth.match.phase
    # Hands with a tile more for one and fewer for another are no such count: refused by the rules, as before.
    (a, hand_a), (b, hand_b) = [(p, h) for p, h in reveal.hands if h][:2]
    mixed = Reveal(tuple((p, h + hand_b[:1] if p == a else h[1:] if p == b else h) for p, h in reveal.hands))
    assert with_draws_undone(_history(header, seen).steps, mixed) is None

def laid_out_hands(reveal: Reveal, sure: float = 0.99) -> dict[int, list[TileDetection]]:
    """Each hand laid out face up in front of its seat, read with ``sure``."""
    out = {}
    for seat, (_, tiles) in enumerate(reveal.hands):
        y = 10.0 + 50 * seat
        out[seat] = [TileDetection(((x, y), (x + 48, y), (x + 48, y + 24), (x, y + 24)), "up", 0.9,
                                   (HalfReading(t.a, (x + 12, y + 12), sure), HalfReading(t.b, (x + 36, y + 12), sure)))
                     for x, t in ((100.0 + 60 * i, t) for i, t in enumerate(tiles))]
    return out


class _NoCamera:
    def detect(self, image):  # (the tests hand the pipeline its still tables' readings)
        return []


def test_a_missed_draw_is_written_into_the_session_where_the_boneyard_shows_it_else_asked_with_the_hands(tmp_path: Path) -> None:
    header, events, reveal = _first_round("horse-race", 4, seed=7)
    k = next(k for k, e in enumerate(events) if isinstance(e, Draw) and e.count == 3)
    seen = events[:k] + [Draw(events[k].player, 2)] + events[k + 1:]

    # The boneyard's backs seen now are one fewer than the log says: taken, said, and written to the session.
    session = _history(header, seen, Session.create(header, tmp_path))
    pipe = TablePipeline(session, _NoCamera(), PipelineConfig(), fps=10)
    logged = pipe.match.boneyard
    out = pipe.rounds.reveal(30.0, laid_out_hands(reveal), backs=logged - 1)
    assert [e.step.event for e in out if isinstance(e, MoveEvent)] == [Draw(events[k].player, 3), reveal]
    assert any(isinstance(e, Notice) and "drew 3, not 2" in e.message for e in out)
    assert _as_logged(pipe.history) == [*events, reveal] and pipe.match.phase is Phase.BEFORE_ROUND
    session.close()
    _, steps = score_log(session.path.read_text().splitlines())  # the file alone: the undo line, the round again
    assert [s.event for s in steps] == [*events, reveal]

    # The backs seen do not tell it: the hands wait; the table cleared, the players are asked with them as
    # read, and their answer writes the draw in.
    pipe = TablePipeline(_history(header, seen), _NoCamera(), PipelineConfig(), fps=10)
    assert pipe.rounds.reveal(30.0, laid_out_hands(reveal), backs=logged) == []
    assert pipe.rounds.reveal(31.0, laid_out_hands(reveal, sure=0.6), backs=logged) == []  # (read unsurely: no word)
    (asked,) = [e for e in pipe.rounds.reveal(32.0, {}, cleared=True) if isinstance(e, NeedsConfirmation)]
    assert asked.alternatives == ((reveal,),)
    out = pipe.confirm([reveal], 40.0)
    assert [e.step.event for e in out if isinstance(e, MoveEvent)] == [Draw(events[k].player, 3), reveal]
    assert _as_logged(pipe.history) == [*events, reveal]



def test_a_draw_counted_that_never_was_is_taken_back_where_the_boneyard_shows_the_back_still_there() -> None:
    # (camera_dropout, dropped twice: a back the next player drew right after a gap was put to the player on turn,
    # and another counted gone that was not -- the round's end waited for a reveal the log refused.)
    header, events, reveal = _first_round("horse-race", 4, seed=7)
    k = next(k for k, e in enumerate(events) if isinstance(e, Draw) and e.count == 3)
    seen = events[:k] + [Draw(events[k].player, 4)] + events[k + 1:]
    pipe = TablePipeline(_history(header, seen), _NoCamera(), PipelineConfig(), fps=10)
    logged = pipe.match.boneyard
    # The backs seen are as many as the log says: a tile of the hand missed is likelier -- nothing taken.
    assert pipe.rounds.reveal(30.0, laid_out_hands(reveal), backs=logged) == []
    # One back more than the log says too, but the draw was seen drawn: a hand's tile lying face down is likelier.
    assert pipe.rounds.reveal(30.5, laid_out_hands(reveal), backs=logged + 1) == [] and pipe.match.phase is Phase.ROUND_OVER
    # The draw counted at the first look after the camera saw nothing (by whom, it did not see): it was of three.
    pipe.draws.counted_blind.add(k + 0.0033)  # (the history keeps times to the hundredth)
    out = pipe.rounds.reveal(31.0, laid_out_hands(reveal), backs=logged + 1)
    assert any(isinstance(e, Notice) and f"{events[k].player} drew 3, not 4" in e.message for e in out)
    assert _as_logged(pipe.history) == [*events, reveal] and pipe.match.phase is Phase.BEFORE_ROUND

def test_a_tile_more_in_a_hand_of_a_player_never_seen_drawing_is_asked_about_not_taken(tmp_path: Path) -> None:
    # A boneyard tile turned face up in a seat's strip shows as one tile more in that hand and one back
    # fewer -- as a draw never seen would.  Only a draw seen and counted short is taken unasked.
    header, events, reveal = _first_round("horse-race", 4, seed=35)  # Ben draws once in the round
    k = next(k for k, e in enumerate(events) if isinstance(e, Draw))
    seen = events[:k] + events[k + 1:]
    pipe = TablePipeline(_history(header, seen), _NoCamera(), PipelineConfig(), fps=10)
    assert pipe.rounds.reveal(30.0, laid_out_hands(reveal), backs=pipe.match.boneyard - 1) == []
    assert _as_logged(pipe.history) == seen
    (asked,) = [e for e in pipe.rounds.reveal(32.0, {}, cleared=True) if isinstance(e, NeedsConfirmation)]
    assert asked.alternatives == ((reveal,),)  # the players say; their answer writes the draw in
    out = pipe.confirm([reveal], 41.0)
    assert [type(e.step.event) for e in out if isinstance(e, MoveEvent)] == [Draw, Reveal]
    assert pipe.match.scores() == _history(header, [*events, reveal]).match.scores()



@pytest.mark.parametrize("seed, k", [(0, 11), (76, 157)])
def test_a_player_counted_out_while_play_goes_on_on_the_layout_drew_a_tile_the_camera_missed(seed: int, k: int) -> None:
    import random

    from dominosynth.layout import lay_out

    from scorer.layout import reconstruct
    from scorer.layout.joins import SeenTile
    from scorer.pipeline.still import Sight
    from scorer.rules import Play, Tile
    from scorer.vision.geometry import long_first

    # Horse Race, three players (main set 5's horse-race-3-602: white backs on a bright table): Ben, one
    # tile left, draws one the camera does not see and lays it -- so the log has him out.  Then Cid lays a
    # tile on the layout: play goes on, so Ben held more.  The round is written again with the draw put
    # before Ben's last play, after which Cid is on turn.  (Seed 76: Ben has drawn earlier in the round
    # and lays a double from his hand first -- making that draw larger would leave him on turn.)
    sim = simulate_match("horse-race", 3, seed=seed)
    events = [s.event for s in sim.events]
    drawn, played, next_play = events[k : k + 3]
    assert isinstance(drawn, Draw) and drawn.player == "Ben" and sim.events[k - 1].after.hand_counts[1] == 1
    assert isinstance(played, Play) and played.player == "Ben" and isinstance(next_play, Play) and next_play.player == "Cid"
    header = MatchHeader("horse-race", ("Ann", "Ben", "Cid"), False)
    pipe = TablePipeline(_history(header, events[:k] + [played]), _NoCamera(), PipelineConfig(), fps=10)
    assert pipe.match.phase is Phase.ROUND_OVER

    def seen(board, seats=None) -> Sight:
        geoms = lay_out(board, random.Random(1), (0, 0, 1000, 700))
        tiles = [SeenTile(tuple(map(tuple, long_first(g.corners()))), g.end_values) for g in geoms]
        return Sight([], seats or {}, tiles, reconstruct(tiles, known=pipe.match.current_board().tiles))

    assert pipe.rounds.played_on(20.0, seen(sim.events[k + 1].after.board)) == []  # nothing laid since: still out
    # A tile beside the layout while the hands are being laid out is no play (a revealed hand's tile).
    hand = laid_out_hands(Reveal((("Ann", (Tile(1, 2),)),)))
    assert pipe.rounds.played_on(20.5, seen(sim.events[k + 2].after.board, hand)) == []
    out = pipe.rounds.played_on(21.0, seen(sim.events[k + 2].after.board))
    assert [e.step.event for e in out if isinstance(e, MoveEvent)] == [drawn]
    assert any(isinstance(e, Notice) and "Ben was counted out, yet play goes on" in e.message and "Ben drew 1 before laying"
               in e.message for e in out)
    assert _as_logged(pipe.history) == events[: k + 2] and pipe.match.phase is Phase.IN_ROUND
    assert pipe.match.next_player == "Cid"
