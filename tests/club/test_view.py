"""One match as the club's board shows it (scorer/club/view.py): whose turn, and between rounds who starts the next."""

from __future__ import annotations

from scorer.club.view import view_of
from scorer.rules.game import Phase
from scorer.rules.simulate import simulate_match
from scorer.rules.transcript import read_log
from club_helpers import log_text


def test_between_rounds_the_board_names_who_starts_the_next_as_the_account_does() -> None:
    sim = simulate_match("horse-race", 3, False, seed=11)
    log = read_log(log_text(sim).split("\n"))
    steps = [s.after for s in log.steps]
    playing = next(k for k, m in enumerate(steps) if m.phase is Phase.IN_ROUND and m.next_player is not None)
    view = view_of(sim.header, log.steps[: playing + 1])
    assert view["status"] == "playing" and not view["between_rounds"] and view["next"] == steps[playing].next_player
    between = next(k for k, m in enumerate(steps) if m.phase is Phase.BEFORE_ROUND and m.round_no == 1 and not m.is_over)
    view = view_of(sim.header, log.steps[: between + 1])
    assert view["between_rounds"] and view["round"] == 1
    assert view["next"] == steps[between].next_to_act is not None  # (the one who went out starts round 2)
    assert view_of(sim.header, [])["between_rounds"] is False  # (no round yet: waiting for the first move)
    over = view_of(sim.header, log.steps)
    assert over["status"] == "finished" and over["next"] is None and not over["between_rounds"]
