"""Turns the revealed hands show to be against the rules: a player who could place a tile passed or knocked.

A player who can place a tile must.  Every tile a player shows at the round's end was in their hand at each of
their passes that round: a pass comes only once the boneyard is empty (Seven Rocks has none), and a hand only
shrinks after it.  So a tile shown that fitted the board as it stood at a pass proves the pass wrong.  The moves
stand as played -- the round is over -- but the players are told.

Draws are not judged: where the camera saw them, their place in the log may be a guess (a draw the hands showed
missed is put before the player's last play; a draw and a play seen in one still table are written draw first),
and a tile shown would then "prove" a draw wrong against a board it was never made at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from scorer.rules.events import Pass, Reveal, RoundStart
from scorer.rules.tiles import Tile
from scorer.rules.transcript import Step
from scorer.words import Words

Act = Literal["passed", "knocked"]


@dataclass(frozen=True, slots=True)
class ActedWhileAble:
    """``player`` passed, or knocked (a game with no boneyard), at log line ``line`` though ``tile``, shown at the
    round's end, could be placed then."""

    player: str
    line: int
    tile: Tile
    act: Act = "passed"

    def text(self) -> Words:
        if self.act == "knocked":
            return Words("{player} knocked holding {tile}, which could be placed: a player who can place a tile must "
                         "-- the scores stand as the moves were played", player=self.player, tile=self.tile)
        return Words("{player} passed holding {tile}, which could be placed: a player who can place a tile must "
                     "-- the scores stand as the moves were played", player=self.player, tile=self.tile)


def acts_while_able(steps: Sequence[Step]) -> list[ActedWhileAble]:
    """The passes and knocks of the round that ``steps`` end with a reveal of, proved wrong by the hands revealed
    (none where the last step is no reveal)."""
    if not steps or not isinstance(steps[-1].event, Reveal):
        return []
    reveal = steps[-1].event
    found = []
    for step in reversed(steps[:-1]):
        if isinstance(step.event, RoundStart):
            break
        if isinstance(step.event, Pass):
            board = step.before.current_board()
            fitting = [t for t in reveal.hand_of(step.event.player) or () if board.can_place(t)]
            if fitting:
                act: Act = "passed" if step.before.rules.has_boneyard else "knocked"
                found.append(ActedWhileAble(step.event.player, step.line, fitting[0], act))
    return found[::-1]
