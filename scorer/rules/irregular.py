"""Turns the revealed hands show to be against the rules: a player who could place a tile passed, knocked or drew.

A player who can place a tile must (a draw stops at the first tile that fits, which is played at once). What a
player shows at the round's end proves a turn wrong where the tile was surely in the hand at that turn and fitted
the board as it stood then:
- a pass comes only once the boneyard is empty (Seven Rocks has none), and a hand only shrinks after it: every
  tile shown was held at each of the player's passes;
- at a player's last draw of the round, every tile shown was held, or drawn then -- and a drawn tile that fitted
  ends the drawing and is played. Either way a tile shown that fitted the board then proves the draw wrong. (At
  an earlier draw a tile shown may have come from a later one: nothing is proved.)
The moves stand as played -- the round is over -- but the players are told.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from scorer.rules.events import Draw, Pass, Play, Reveal, RoundStart
from scorer.rules.tiles import Tile
from scorer.rules.transcript import Step
from scorer.words import Words

Act = Literal["passed", "knocked", "drew"]


@dataclass(frozen=True, slots=True)
class ActedWhileAble:
    """``player`` passed, knocked (a game with no boneyard) or drew at log line ``line`` though ``tile``, shown at
    the round's end, could be placed then."""

    player: str
    line: int
    tile: Tile
    act: Act = "passed"

    def text(self) -> Words:
        if self.act == "knocked":
            return Words("{player} knocked holding {tile}, which could be placed: a player who can place a tile must "
                         "-- the scores stand as the moves were played", player=self.player, tile=self.tile)
        if self.act == "drew":
            return Words("{player} drew though {tile}, shown at the round's end, could be placed: a player who can place "
                         "a tile must, and the first tile drawn that fits is played -- the scores stand as the moves were "
                         "played", player=self.player, tile=self.tile)
        return Words("{player} passed holding {tile}, which could be placed: a player who can place a tile must "
                     "-- the scores stand as the moves were played", player=self.player, tile=self.tile)


def acts_while_able(steps: Sequence[Step]) -> list[ActedWhileAble]:
    """The passes, knocks and last draws of the round that ``steps`` end with a reveal of, proved wrong by the
    hands revealed (none where the last step is no reveal)."""
    if not steps or not isinstance(steps[-1].event, Reveal):
        return []
    reveal = steps[-1].event
    found = []
    drew_later: set[str] = set()
    passed_on_this_board: set[str] = set()  # (a draw that emptied the boneyard, then a pass: told once, at the pass)
    for step in reversed(steps[:-1]):
        event = step.event
        if isinstance(event, RoundStart):
            break
        if isinstance(event, Play):
            passed_on_this_board.clear()
        if isinstance(event, Draw) and (event.player in drew_later or event.player in passed_on_this_board):
            drew_later.add(event.player)
            continue
        if isinstance(event, (Pass, Draw)):
            board = step.before.current_board()
            fitting = [t for t in reveal.hand_of(event.player) or () if board.can_place(t)]
            act: Act = "drew" if isinstance(event, Draw) else "passed" if step.before.rules.has_boneyard else "knocked"
            if fitting:
                found.append(ActedWhileAble(event.player, step.line, fitting[0], act))
                if isinstance(event, Pass):
                    passed_on_this_board.add(event.player)
            if isinstance(event, Draw):
                drew_later.add(event.player)
    return found[::-1]
