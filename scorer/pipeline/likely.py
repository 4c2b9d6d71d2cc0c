"""How likely each way a tile can have been laid is, where the camera saw no arm lay it.

The hands are hidden, so each hand is taken as a fair share of the tiles nobody has seen yet (not on
the board; the boneyard's too, face down).  A player passes only holding nothing that fits (the
rules), so a way in which players pass before the tile is laid is as likely as it is that none of
their tiles fits -- with most of the tiles unseen still fitting somewhere, seldom.  Of the tile laid,
the one who laid it held it: as likely as their share of the unseen tiles.
"""

from __future__ import annotations

from math import comb
from typing import Sequence

from scorer.rules import FULL_SET, Event, Match, Pass, Play

# The likeliest way taken without asking when it is at least this likely: the player on turn laying
# the tile, where a pass would need a hand of which nothing fits.
TAKEN_WITHOUT_ASKING = 0.9


def chance_none_fits(unseen: int, fitting: int, held: int) -> float:
    """The chance that ``held`` tiles dealt from ``unseen`` of which ``fitting`` fit include none that fits."""
    if held > unseen:
        return 0.0
    return comb(unseen - fitting, held) / comb(unseen, held)


def chances(match: Match, ways: Sequence[Sequence[Event]]) -> tuple[float, ...]:
    """How likely each way is (summing to 1): each a sequence of passes, then the tile's play."""
    board = match.current_board()
    weights = []
    for way in ways:
        play = next((e for e in way if isinstance(e, Play)), None)
        if play is None:
            weights.append(0.0)
            continue
        unseen = [t for t in FULL_SET if t not in board.tiles and t != play.tile]
        fitting = sum(1 for t in unseen if board.can_place(t))
        weight = match.hand_counts[match.table.seat(play.player)] / (len(unseen) + 1)
        for e in way:
            if isinstance(e, Pass):
                weight *= chance_none_fits(len(unseen), fitting, match.hand_counts[match.table.seat(e.player)])
        weights.append(weight)
    total = sum(weights)
    return tuple(w / total for w in weights) if total > 0 else tuple(1 / len(ways) for _ in ways)


def likeliest_first(match: Match, ways: Sequence[Sequence[Event]]) -> tuple[tuple[tuple[Event, ...], ...], tuple[float, ...]]:
    """The ways ordered from the likeliest, with their chances."""
    ranked = sorted(zip(chances(match, ways), (tuple(w) for w in ways)), key=lambda pair: -pair[0])
    return tuple(w for _, w in ranked), tuple(c for c, _ in ranked)
