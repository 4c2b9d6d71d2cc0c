"""One match as the club's board shows it: plain JSON data, computed from the steps in force when the
match is written (and kept with it), so the board never has to score a log again."""

from __future__ import annotations

from typing import Any, Sequence

from scorer.rules.game import Match, Phase
from scorer.rules.game_rules import GameRules
from scorer.rules.log import MatchHeader
from scorer.rules.transcript import Step, narrate


def board_scale(rules: GameRules) -> tuple[int, int, str]:
    """(holes, game points a hole, title) -- as the app's cribbage board (scorer/app/window.py) shows it."""
    if rules.raw_per_point > 1:
        return 61, 1, f"{rules.title}: first to 61"
    return rules.target_raw // 5, 5, f"{rules.title}: first to {rules.target_raw} (5 a hole)"


def view_of(header: MatchHeader, steps: Sequence[Step]) -> dict[str, Any]:
    """One match on the board: each side's score, the score before its last change (the back peg),
    the holes they stand at, the round, whose turn, the last move told in words."""
    match: Match = steps[-1].after if steps else header.new_match()
    rules = match.rules
    table = match.table
    holes, per_hole, title = board_scale(rules)
    before = [0] * table.n_sides
    current = [0] * table.n_sides
    for step in steps:
        for side in range(table.n_sides):
            now = rules.game_points(step.after.raw_scores[side])
            if now != current[side]:
                before[side], current[side] = current[side], now
    sides = []
    for side in range(table.n_sides):
        score = rules.game_points(match.raw_scores[side])
        sides.append({
            "name": table.side_name(side),
            "players": [table.players[s] for s in table.seats_of(side)],
            "score": score,
            "before": before[side],
            "hole": max(0, min(holes, score // per_hole)),
            "back_hole": max(0, min(holes, before[side] // per_hole)),
            "won": side in match.winning_sides,
            "to_play": match.next_player in [table.players[s] for s in table.seats_of(side)] if not match.is_over else False,
        })
    last = steps[-1] if steps else None
    return {
        "game": header.game,
        "title": title,
        "holes": holes,
        "per_hole": per_hole,
        "target": rules.game_points(rules.target_raw),
        "round": match.round_no,
        "status": "finished" if match.is_over else "playing",
        "winners": list(match.winners()) if match.is_over else [],
        "next": None if match.is_over else match.next_to_act,  # (between rounds: the next round's starter, where fixed)
        "between_rounds": not match.is_over and match.phase is not Phase.IN_ROUND and match.round_no > 0,
        "sides": sides,
        "last_move": _told(last, "en"),
        "last_move_fi": _told(last, "fi"),  # (the board's page in Finnish)
        "events": len(steps),
    }


def _told(last: Step | None, lang: str) -> str:
    """The last move, and what it led to, in words -- without the scores, which are on the board itself."""
    told = [line.strip() for line in narrate(last, lang)] if last is not None else []
    return (" · ".join(t for t in told if not t.startswith(("Scores:", "Pisteet:")))
            or ("odotetaan ensimmäistä siirtoa" if lang == "fi" else "waiting for the first move"))
