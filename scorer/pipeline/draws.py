"""Tiles drawn from the boneyard, as the still tables show them: a face-down tile taken from where it
lay is a draw (:class:`~scorer.pipeline.boneyard.Boneyard` follows the backs place by place)."""

from __future__ import annotations

import numpy as np

from scorer.layout import Layout
from scorer.pipeline.boneyard import Boneyard
from scorer.pipeline.still import StillTable
from scorer.rules import FULL_SET, Match
from scorer.vision.detector import TileDetection


class Draws:
    """The boneyard followed from one still table acted on to the next."""

    def __init__(self) -> None:
        self.boneyard = Boneyard()
        # A draw was entered by hand: the boneyard as seen next is taken as it is, not as drawn from again.
        self.told = False
        # The table as last seen with no layout and no tile face up: the round's boneyard as dealt,
        # where the opening tile is read only after tiles were drawn.
        self.before_opening: StillTable | None = None
        # When draws were counted at the first look after the camera saw nothing (who drew them, the camera did not see).
        self.counted_blind: set[float] = set()
        # Draws counted in a look that asked the players instead of writing them (count, the log's boneyard then, round,
        # when): the boneyard followed from there shows only what is drawn since, so they are counted again next look.
        self._asked_with: tuple[int, int, int, float] | None = None
        # The first look at a round already in play (a match resumed, a camera opened again): the backs the log gives
        # the boneyard and its heap lacks (count, the log's boneyard then, round) -- drawn unseen, or missed in one look.
        self._lacking: tuple[int, int, int] | None = None

    def asked_with(self, draws: int, match: Match, t: float) -> None:
        """A look counted ``draws`` and asked a question instead of writing them."""
        self._asked_with = (draws, match.boneyard, match.round_no, t) if draws else None

    def still_unwritten(self, match: Match, t: float) -> int:
        """The draws the last look that asked counted, less those the log has taken since (the answer, a draw entered
        by hand): counted again in the look at ``t`` (blind as they were counted, where they were).  Once; none where
        the log's boneyard grew since (draws withdrawn: undo, score again) or a round began."""
        asked, self._asked_with = self._asked_with, None
        if asked is None or asked[2] != match.round_no or match.boneyard > asked[1]:
            return 0
        count, boneyard, _, when = asked
        left = max(0, count - (boneyard - match.boneyard))
        if left and when in self.counted_blind:
            self.counted_blind.add(t)
        return left

    def lacking(self, match: Match) -> int:
        """The backs the first look at this round in play found lacking from the log's boneyard, the log unchanged
        since; once (the draws to try where no order of the tiles laid meanwhile is playable without them)."""
        lacking, self._lacking = self._lacking, None
        if lacking is None or (lacking[1], lacking[2]) != (match.boneyard, match.round_no):
            return 0
        return lacking[0]

    def forget(self, table_too: bool = False) -> None:
        """The log rewound: the counts kept for the next looks go -- and (``table_too``: the frames go on from another
        moment) what was seen of the table: a draw entered by hand since, the table seen cleared."""
        self._asked_with = self._lacking = None
        if table_too:
            self.told, self.before_opening = False, None

    def since(self, match: Match, still: StillTable, tiles: list[TileDetection], layout: Layout) -> int:
        """Tiles drawn since the last accepted state: face-down tiles taken from where they lay (none
        of them where the layout's tiles lie now)."""
        if not match.rules.has_boneyard:
            return 0
        if self.told:
            self.told = False
            self.boneyard.reset(*still.boneyard)
            return 0
        played = [np.asarray(tiles[i].corners) for i in layout.component]
        if not self.boneyard.seen and match.current_board().tiles:
            self.boneyard.reset(*still.boneyard)
            lacking = match.boneyard - len(self.boneyard)
            self._lacking = (lacking, match.boneyard, match.round_no) if lacking > 0 else None
            return 0
        return min(self.boneyard.update(*still.boneyard, played), match.boneyard)

    def cleared(self, still: StillTable, match: Match, arm_over: bool = False) -> None:
        """A still table between rounds with no tile face up: the boneyard as it may have been dealt.
        (With an arm over the table, only where every tile dealt to the boneyard is seen: the arm may
        hide backs -- and it may be the opener's, about to lay the first tile.)"""
        n = len(match.players)
        if not arm_over or len(still.backs) == len(FULL_SET) - match.rules.hand_size(n) * n:
            self.before_opening = still

    def dealt(self, match: Match, still: StillTable, tiles: list[TileDetection], layout: Layout) -> int:
        """A round opened on this table: the boneyard as dealt.  Returns the tiles drawn before its
        opening tile was read (surely), where the table before it showed the whole boneyard."""
        now = still.boneyard
        self.boneyard.reset(*now)
        before, self.before_opening = self.before_opening, None
        if before is not None and match.rules.has_boneyard and len(before.backs) > len(self.boneyard):
            # Fewer backs than on the table before the opening: where that table showed the whole
            # boneyard as dealt, tiles were drawn before the opening tile was read (surely) -- counted,
            # after it.  (Any other count: the table then was not yet the dealt one.)
            self.boneyard.reset(*before.boneyard)
            if len(self.boneyard) == match.boneyard:
                return self.since(match, still, tiles, layout)
            self.boneyard.reset(*now)
        return 0
