"""The spoken Finnish of a round's end: a verb's object in the right case."""

from __future__ import annotations

from scorer.pipeline.announce import announced
from scorer.rules.history import MatchHistory
from scorer.rules.game import RoundOutcome
from scorer.rules.simulate import simulate_match


def _round_ends_with_points(points: int):
    """Announcements of simulated rounds' ends in which some side gains exactly ``points`` points."""
    for seed in range(200):
        sim = simulate_match("horse-race", 2, seed=seed)
        history = MatchHistory.new(sim.header)
        for simulated in sim.events:
            step = history.apply(simulated.event)
            if isinstance(step.outcome, RoundOutcome):
                gains = [step.after.rules.game_points(c) for c in step.outcome.raw_changes if c]
                if points in gains:
                    yield step
        if seed > 20:
            return


def test_one_point_gained_is_said_in_the_accusative_and_more_in_the_partitive() -> None:
    one = next(_round_ends_with_points(1))
    said = announced(one)
    assert said is not None
    assert "saa yhden pisteen" in said.spoken("fi"), said.spoken("fi")
    assert "saa yksi piste" not in said.spoken("fi")
    assert "scores one point" in said.spoken("en")
    three = next(_round_ends_with_points(3))
    said = announced(three)
    assert said is not None and "saa kolme pistettä" in said.spoken("fi"), said.spoken("fi")


def test_a_turn_that_goes_on_is_said_to_go_on() -> None:
    from scorer.rules.transcript import score_log
    from tests.club.club_helpers import log_text

    _, steps = score_log(log_text(simulate_match("horse-race", 3, seed=1)).splitlines())
    said = [(s, announced(s)) for s in steps]
    going_on = [(s, a) for s, a in said if a is not None and getattr(s.outcome, "continues", False)]
    assert going_on and all(a.spoken("en").endswith(f"{s.outcome.player} continues.") for s, a in going_on)
    assert all(a.spoken("fi").endswith(f"{s.outcome.player} jatkaa vuoroaan.") for s, a in going_on)
    ended = [a for s, a in said if a is not None and getattr(s.outcome, "continues", None) is False]
    assert ended and not any("continues" in a.spoken("en") for a in ended)


def test_the_last_tile_of_a_round_says_the_round_is_over() -> None:
    """A play that empties a hand is said with the round's end: the table hears the hands are to be counted now (a
    newcomer entering moves by hand heard only the tile, the next step shown in the status bar)."""
    from scorer.rules import Phase, Play

    sim = simulate_match("seven-rocks", 4, True, seed=2)
    history = MatchHistory.new(sim.header)
    last = [history.apply(e.event) for e in sim.events]
    out = next(s for s in last if isinstance(s.event, Play) and s.after.phase is Phase.ROUND_OVER)
    said = announced(out)
    n = out.after.round_no
    words_en = {1: "one", 2: "two", 3: "three"}[n]
    words_fi = {1: "yksi", 2: "kaksi", 3: "kolme"}[n]
    assert said.spoken("en").endswith(f"{out.event.player} is out: round {words_en} is over.")
    assert said.spoken("fi").endswith(f"{out.event.player} pelasi viimeisen laattansa: kierros {words_fi} päättyi.")
    others = [s for s in last if isinstance(s.event, Play) and s.after.phase is Phase.IN_ROUND]
    assert not any("is over" in announced(s).spoken("en") for s in others)
