"""Property tests over random legal matches from the full-information simulator."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import IllegalMove, ScorerError
from scorer.rules import FULL_SET, Draw, Match, Pass, Phase, Play, PlayOutcome, Reveal, RoundStart, Side, Tile
from scorer.rules.log import dumps, event_to_json, header_to_json
from scorer.rules.simulate import TABLES, SimulatedMatch, simulate_match
from scorer.rules.transcript import score_log

tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def simulate(table: tuple[str, int, bool], seed: int) -> SimulatedMatch:
    game, n, partnership = table
    return simulate_match(game, n, partnership, seed=seed)


@FAST
@given(tables, seeds)
def test_tiles_counts_and_scores_stay_consistent(table, seed) -> None:
    sim = simulate(table, seed)
    before: Match = sim.header.new_match()
    for step in sim.events:
        after = step.after
        if after.board is not None:
            tiles = after.board.tiles
            assert len(set(tiles)) == len(tiles)
        if after.phase in (Phase.IN_ROUND, Phase.ROUND_OVER):
            # Hands, boneyard and board always hold the whole set.
            assert sum(after.hand_counts) + after.boneyard + len(after.board) == len(FULL_SET)
            if not isinstance(step.event, Reveal):
                assert tuple(len(h) for h in step.hands) == after.hand_counts
        for raw_before, raw_after in zip(before.raw_scores, after.raw_scores):
            assert (raw_after - raw_before) % 5 == 0
        before = after


@FAST
@given(st.just(("seven-rocks", 4, True)), seeds)
def test_seven_rocks_end_sum_never_exceeds_36(table, seed) -> None:
    sim = simulate(table, seed)
    for step in sim.events:
        if isinstance(step.event, Play):
            assert step.after.board.end_sum() <= 36
            assert len(step.after.board.spinners) <= 1


@FAST
@given(tables, seeds)
def test_match_ends_exactly_when_a_side_reaches_the_target(table, seed) -> None:
    sim = simulate(table, seed)
    target = sim.header.rules.target_raw
    for step in sim.events[:-1]:
        assert not step.after.is_over
        assert all(raw < target for raw in step.after.raw_scores)
    final = sim.final
    assert final.is_over
    assert all(final.raw_scores[side] >= target for side in final.winning_sides)
    losers = set(range(final.table.n_sides)) - set(final.winning_sides)
    assert all(final.raw_scores[side] < target for side in losers)


@FAST
@given(tables, seeds)
def test_the_log_scores_the_same_as_the_simulation(table, seed) -> None:
    sim = simulate(table, seed)
    lines = [dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events]
    _, steps = score_log(lines)
    scored = list(steps)
    assert len(scored) == len(sim.events)
    assert scored[-1].after.scores() == sim.final.scores()
    assert scored[-1].after.winners() == sim.final.winners()


def _random_event(rng: random.Random, match: Match) -> object:
    players = list(match.players) + ["Zed"]
    player = rng.choice(players)
    tile = rng.choice(FULL_SET)
    at = rng.choice([None, rng.choice(FULL_SET)])
    kind = rng.randrange(5)
    if kind == 0:
        return Play(player, tile, at, rng.choice([None, *Side]))
    if kind == 1:
        return Draw(player, rng.randrange(-1, 16))
    if kind == 2:
        return Pass(player)
    if kind == 3:
        return RoundStart(rng.choice([None, player]))
    hands = tuple((p, tuple(rng.sample(FULL_SET, rng.randrange(0, 4)))) for p in match.players)
    return Reveal(hands)


@settings(max_examples=30, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=10**6))
def test_illegal_events_are_rejected_whole(table, seed, noise_seed) -> None:
    """At random points of a legal match, random events either apply cleanly or raise IllegalMove
    and leave the state exactly as it was."""
    sim = simulate(table, seed)
    rng = random.Random(noise_seed)
    for step in rng.sample(sim.events, min(15, len(sim.events))):
        state = step.after
        snapshot = replace(state)
        for _ in range(10):
            event = _random_event(rng, state)
            try:
                new, outcome = state.apply(event)
            except IllegalMove:
                assert state == snapshot
                continue
            except ScorerError:
                raise AssertionError(f"{event} raised an error that is not IllegalMove")
            assert new is not state
            if isinstance(outcome, PlayOutcome):
                assert outcome.sum == new.board.end_sum()


def test_a_thousand_tiles_played_by_the_rules_are_each_in_the_set() -> None:
    sim = simulate_match("horse-race", 4, True, seed=7)
    played = [s.event.tile for s in sim.events if isinstance(s.event, Play)]
    assert len(played) > 20 and all(isinstance(t, Tile) and t in FULL_SET for t in played)
