"""A pass (or knock) by a player who could place a tile, proved by the hands revealed at the round's end -- checked
against the simulator's own hands, which know what each player held at the pass; rounds played by the rules,
draws and all, have none."""

from __future__ import annotations

import random

from scorer.errors import IllegalMove
from scorer.rules import Draw, Pass, Phase, Play, Reveal, RoundStart
from scorer.rules.history import MatchHistory
from scorer.rules.irregular import acts_while_able
from scorer.rules.simulate import _Player, simulate_match


def _round_with_a_wrong_pass(game: str, players: int, seed: int):
    """A simulated round in which, at the first play on an empty boneyard (or in a game with none), the player
    passes instead and play goes on, each player placing a tile where they can; the steps, and the tiles the passer
    held that fitted at the pass (from the simulator's hands, not from the log)."""
    sim = simulate_match(game, players, game == "seven-rocks", seed=seed)
    at = next((i for i, e in enumerate(sim.events) if i and isinstance(e.event, Play) and e.hands is not None
               and sim.events[i - 1].after.boneyard == 0 and sim.events[i - 1].after.round_no == 1
               and not isinstance(sim.events[i - 1].event, RoundStart)), None)
    if at is None:
        return None
    history = MatchHistory.new(sim.header)
    for e in sim.events[:at]:
        history.apply(e.event)
    hands = [list(h) for h in sim.events[at].hands]  # (the simulator's hands once the play's tile left it)
    names = list(sim.header.players)
    passer = sim.events[at].event.player
    hands[names.index(passer)].append(sim.events[at].event.tile)
    board = history.match.current_board()
    fitted = {t for t in hands[names.index(passer)] if board.can_place(t)}
    history.apply(Pass(passer))
    chooser, rng = _Player(random.Random(seed)), random.Random(seed)
    while history.match.phase is Phase.IN_ROUND:
        match = history.match
        player = names[match.turn]
        board = match.current_board()
        playable = [t for t in hands[match.turn] if board.can_place(t)]
        if playable:
            tile = rng.choice(playable)
            hands[match.turn].remove(tile)
            history.apply(chooser.play(match, player, tile, board.placements(tile), None))
        else:
            history.apply(Pass(player))
    if history.match.phase is not Phase.ROUND_OVER:
        return None
    try:
        history.apply(Reveal(tuple((p, tuple(h)) for p, h in zip(names, hands))))
    except IllegalMove:  # (the wrong pass made the round look blocked: the rules refuse the hands, as they must)
        return None
    return history.steps, passer, fitted & set(hands[names.index(passer)])


def test_a_pass_the_hands_prove_wrong_is_found_and_no_other() -> None:
    proved = unproved = 0
    for game, players in (("horse-race", 2), ("horse-race", 4), ("seven-rocks", 4)):
        for seed in range(20):
            made = _round_with_a_wrong_pass(game, players, seed)
            if made is None:
                continue
            steps, passer, still_held = made
            found = acts_while_able(steps)
            line = next(s.line for s in steps if s.event == Pass(passer))
            if still_held:  # a tile that fitted at the pass was still in the passer's hand at the end
                assert found[0].player == passer and found[0].line == line and found[0].tile in still_held
                proved += 1
            else:  # every tile that fitted was placed later: the hands cannot prove the pass wrong
                assert not any(f.line == line for f in found)
                unproved += 1
            # Every pass found is truly wrong: the tile was in the hand and fitted the board then.
            for f in found:
                step = next(s for s in steps if s.line == f.line)
                assert isinstance(step.event, Pass) and step.before.current_board().can_place(f.tile)
    assert proved >= 5 and unproved >= 1


def test_rounds_played_by_the_rules_have_none() -> None:
    draws = 0
    for game, players in (("horse-race", 2), ("horse-race", 3), ("horse-race", 4), ("seven-rocks", 4)):
        for seed in range(3):
            sim = simulate_match(game, players, game == "seven-rocks", seed=seed)
            history = MatchHistory.new(sim.header)
            for e in sim.events:
                history.apply(e.event)
                draws += isinstance(e.event, Draw)
                assert acts_while_able(history.steps) == []
    assert draws >= 50


def test_the_pipeline_tells_a_wrong_pass_once_though_the_reveal_comes_again() -> None:
    from scorer.pipeline import Notice, PipelineConfig, TablePipeline
    from scorer.rules.irregular import ActedWhileAble
    from scorer.rules.log import MatchHeader

    class NoCamera:
        def detect(self, image):
            return []

    steps, passer, _ = _round_with_a_wrong_pass("horse-race", 4, seed=8)
    history = MatchHistory.new(MatchHeader("horse-race", steps[0].before.table.players, False))
    for step in steps[:-1]:
        history.apply(step.event)
    pipe = TablePipeline(history, NoCamera(), PipelineConfig(), fps=10)
    reveal = steps[-1].event

    def told(events):
        return [e.said for e in events if isinstance(e, Notice) and isinstance(e.said, ActedWhileAble)]

    first = told(pipe.apply(1.0, [reveal]))
    assert [w.player for w in first] == [passer]
    pipe.rewind(len(history.steps) - 1, 2.0)  # the reveal undone, then given again: told once
    assert told(pipe.apply(3.0, [reveal])) == []
