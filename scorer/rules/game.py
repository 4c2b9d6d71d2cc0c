"""A match of a Fives-family domino game as an immutable state with one verb: ``apply``.

The scorer does not know the players' hands while a round is played (the deal is
physical), so the state tracks what the table shows: the board, how many tiles
each hand and the boneyard hold, whose turn it is, and the scores.  Each game
(:mod:`horse_race`, :mod:`seven_rocks`) is a :class:`~scorer.rules.game_rules.GameRules` on this base.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Sequence

from scorer.errors import IllegalMove
from scorer.rules.board import Board, FreePoint, ScoringEnd
from scorer.rules.events import Draw, Event, Pass, Play, Reveal, RoundStart
from scorer.rules.game_rules import GameRules, Table
from scorer.rules.tiles import FULL_SET, Tile, round_to_five
from scorer.words import Listed, Words


class Phase(str, Enum):
    BEFORE_ROUND = "before-round"  # waiting for a round to start
    IN_ROUND = "in-round"
    ROUND_OVER = "round-over"  # a hand was emptied or the round blocked: waiting for the reveal
    MATCH_OVER = "match-over"


@dataclass(frozen=True, slots=True)
class PlayOutcome:
    player: str
    tile: Tile
    at: FreePoint | None
    ends: tuple[ScoringEnd, ...]
    sum: int
    raw_points: int
    continues: bool  # the same player acts next (Horse Race)


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    round_no: int
    blocked: bool
    finisher: str | None
    hand_pips: tuple[int, ...]  # per seat
    hand_totals: tuple[int, ...]  # per seat, rounded to 5
    raw_changes: tuple[int, ...]  # per side
    winning_sides: tuple[int, ...]


Outcome = PlayOutcome | RoundOutcome | None


@dataclass(frozen=True, slots=True)
class Match:
    """The state of a match between events.  Build with :meth:`start`; advance with :meth:`apply`."""

    table: Table
    phase: Phase = Phase.BEFORE_ROUND
    round_no: int = 0
    board: Board | None = None
    hand_counts: tuple[int, ...] = ()
    boneyard: int = 0
    turn: int | None = None
    starter: int | None = None  # who started the current round
    drew_this_turn: bool = False
    passes_in_a_row: int = 0
    finisher: int | None = None
    next_starter: int | None = None
    raw_scores: tuple[int, ...] = ()
    winning_sides: tuple[int, ...] = ()
    history: tuple[Event, ...] = field(default=(), repr=False)

    @classmethod
    def start(cls, rules: GameRules, players: Sequence[str], partnership: bool = False) -> Match:
        table = Table(rules, tuple(players), partnership)
        return cls(table=table, raw_scores=(0,) * table.n_sides)

    # -- reading ---------------------------------------------------------------

    @property
    def rules(self) -> GameRules:
        return self.table.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    @property
    def next_player(self) -> str | None:
        """Who is expected to act next; ``None`` while no round is being played."""
        if self.phase is Phase.IN_ROUND and self.turn is not None:
            return self.players[self.turn]
        return None

    @property
    def next_to_act(self) -> str | None:
        """Who acts next: the player on turn, or before a round the one the rules name to start it; ``None``
        where nobody is named (a first round's starter is drawn by lot, a match over)."""
        if self.phase is Phase.BEFORE_ROUND and self.next_starter is not None and not self.is_over:
            return self.players[self.next_starter]
        return self.next_player

    def score_of(self, player: str) -> int:
        """The player's (or their pair's) score in game points."""
        return self.rules.game_points(self.raw_scores[self.table.side_of(self.table.seat(player))])

    def scores(self) -> dict[str, int]:
        return {p: self.score_of(p) for p in self.players}

    def winners(self) -> tuple[str, ...]:
        return tuple(self.players[s] for side in self.winning_sides for s in self.table.seats_of(side))

    def current_board(self) -> Board:
        return self.board if self.board is not None else Board(self.rules.every_double_spins)

    # -- the one verb ----------------------------------------------------------

    def apply(self, event: Event) -> tuple[Match, Outcome]:
        """The state after ``event`` and what it scored; raises :class:`IllegalMove` and changes nothing."""
        if self.phase is Phase.MATCH_OVER:
            raise IllegalMove(Words("the match is over ({winners} won); no more events", winners=", ".join(self.winners())))
        state = self
        if (
            self.phase is Phase.BEFORE_ROUND
            and self.next_starter is not None
            and isinstance(event, (Play, Draw, Pass))
            and event.player == self.players[self.next_starter]
        ):
            # The rules fix the starter, so the round may begin without its own event.
            state, _ = self._start_round(RoundStart())
        if isinstance(event, RoundStart):
            new, outcome = state._start_round(event)
        elif isinstance(event, Play):
            new, outcome = state._play(event)
        elif isinstance(event, Draw):
            new, outcome = state._draw(event)
        elif isinstance(event, Pass):
            new, outcome = state._pass(event)
        elif isinstance(event, Reveal):
            new, outcome = state._reveal(event)
        else:
            raise IllegalMove(f"unknown event {event!r}")
        return replace(new, history=self.history + (event,)), outcome

    # -- the steps -------------------------------------------------------------

    def _start_round(self, event: RoundStart) -> tuple[Match, Outcome]:
        if self.phase is Phase.IN_ROUND:
            raise IllegalMove(Words("round {round} is still being played; a new round cannot start", round=self.round_no))
        if self.phase is Phase.ROUND_OVER:
            raise IllegalMove(Words("round {round} is over but its hands were not revealed; expected a reveal", round=self.round_no))
        round_no = self.round_no + 1
        if self.next_starter is not None:
            fixed = self.players[self.next_starter]
            if event.starter is not None and event.starter != fixed:
                raise IllegalMove(Words("{player} played the last tile of round {round} and starts round {next}, not {starter}",
                                        player=fixed, round=self.round_no, next=round_no, starter=event.starter))
            starter = self.next_starter
        elif event.starter is None:
            why = Words("the first round") if round_no == 1 else Words("round {round} (after a blocked round)", round=round_no)
            raise IllegalMove(Words("the starter of {which} is drawn by lot; the round event must name the starter", which=why))
        else:
            starter = self.table.seat(event.starter)
        n = len(self.players)
        size = self.rules.hand_size(n)
        return (
            replace(
                self,
                phase=Phase.IN_ROUND,
                round_no=round_no,
                board=Board(self.rules.every_double_spins),
                hand_counts=(size,) * n,
                boneyard=len(FULL_SET) - size * n,
                turn=starter,
                starter=starter,
                drew_this_turn=False,
                passes_in_a_row=0,
                finisher=None,
                next_starter=None,
            ),
            None,
        )

    def _check_actor(self, player: str, action: str) -> int:
        if self.phase is Phase.BEFORE_ROUND:
            raise IllegalMove(Words("no round is being played: expected a round event before {player}'s {action}", player=player,
                                    action=action))
        if self.phase is Phase.ROUND_OVER:
            why = (Words("{player} played the last tile", player=self.players[self.finisher]) if self.finisher is not None
                   else Words("it is blocked"))
            raise IllegalMove(Words("round {round} is over ({why}): expected the reveal of the hands, not a {action}",
                                    round=self.round_no, why=why, action=action))
        seat = self.table.seat(player)
        assert self.turn is not None
        if seat != self.turn:
            raise IllegalMove(Words("it is {on_turn}'s turn, not {player}'s ({action})", on_turn=self.players[self.turn], player=player,
                                    action=action))
        return seat

    def _resolve_point(self, board: Board, event: Play) -> FreePoint | None:
        tile = event.tile
        if not board.tiles:
            if event.at is not None:
                raise IllegalMove(Words("{tile} opens the round: the board is empty, so it cannot be attached to {at}", tile=tile,
                                        at=event.at))
            return None
        if tile in board:
            raise IllegalMove(Words("{tile} is already on the board", tile=tile))
        if event.at is None:
            if event.side is not None:
                raise IllegalMove(Words("a play that names a side must also name the tile it is attached to ('at')"))
            candidates = board.placements(tile)
            targets = sorted({p.tile for p in candidates})
            if not targets:
                raise IllegalMove(Words("{tile} fits no free point; free: {free}", tile=tile, free=_describe_points(board.free_points())))
            if len(targets) > 1:
                raise IllegalMove(Words("{tile} fits more than one tile ({tiles}): name the one it is attached to with 'at'",
                                        tile=tile, tiles=", ".join(map(str, targets))))
            return candidates[0]
        if event.at not in board:
            raise IllegalMove(Words("{tile} is put at {at}, which is not on the board", tile=tile, at=event.at))
        if event.side is not None:
            point = board.point(event.at, event.side)
            if not tile.has(point.value):
                raise IllegalMove(Words("{tile} does not match {side} of {at}, which shows {value}", tile=tile, at=event.at,
                                        side=event.side.words, value=point.value))
            return point
        candidates = tuple(p for p in board.placements(tile) if p.tile == event.at)
        if not candidates:
            free_here = [p for p in board.free_points() if p.tile == event.at]
            shows = _describe_points(free_here) if free_here else Words("no free side")
            raise IllegalMove(Words("{tile} does not match {at}: it has {shows}", tile=tile, at=event.at, shows=shows))
        return candidates[0]

    def _play(self, event: Play) -> tuple[Match, Outcome]:
        seat = self._check_actor(event.player, Words("play"))
        if event.source == "drawn" and not self.drew_this_turn:
            raise IllegalMove(Words("{player} has not drawn: a drawn tile is played right after the draw", player=event.player))
        if event.source == "hand" and self.drew_this_turn:
            raise IllegalMove(Words("{player} has just drawn: the play right after a draw is the drawn tile", player=event.player))
        board = self.current_board()
        point = self._resolve_point(board, event)
        new_board = board.place(event.tile, point)
        ends = new_board.scoring_ends()
        total = sum(e.value for e in ends)
        points = total if total > 0 and total % 5 == 0 else 0
        side = self.table.side_of(seat)
        scores = _add(self.raw_scores, side, points)
        hands = _add(self.hand_counts, seat, -1)
        new = replace(self, board=new_board, raw_scores=scores, hand_counts=hands, passes_in_a_row=0, drew_this_turn=False)
        continues = False
        if points > 0 and scores[side] >= self.rules.target_raw:
            new = replace(new, phase=Phase.MATCH_OVER, turn=None, winning_sides=(side,))
        elif hands[seat] == 0:
            new = replace(new, phase=Phase.ROUND_OVER, turn=None, finisher=seat)
        else:
            continues = self.rules.continues_turn(event.tile, points, from_hand=not self.drew_this_turn)
            new = replace(new, turn=seat if continues else self.table.next_seat(seat))
        return new, PlayOutcome(event.player, event.tile, point, ends, total, points, continues)

    def _draw(self, event: Draw) -> tuple[Match, Outcome]:
        seat = self._check_actor(event.player, Words("draw"))
        if not self.rules.has_boneyard:
            raise IllegalMove(Words("{game} has no boneyard: nobody draws (a player who cannot place knocks)", game=self.rules.title))
        if not self.current_board().tiles:
            raise IllegalMove(Words("{player} starts the round and opens with any tile: there is nothing to draw for", player=event.player))
        if type(event.count) is not int or event.count < 1:
            raise IllegalMove(f"a draw takes at least one tile, found count {event.count!r}")
        if event.count > self.boneyard:
            raise IllegalMove(Words("{player} draws {count} but the boneyard holds {boneyard}", player=event.player, count=event.count,
                                    boneyard=self.boneyard))
        return (
            replace(
                self,
                boneyard=self.boneyard - event.count,
                hand_counts=_add(self.hand_counts, seat, event.count),
                drew_this_turn=True,
            ),
            None,
        )

    def _pass(self, event: Pass) -> tuple[Match, Outcome]:
        seat = self._check_actor(event.player, Words("pass"))
        if not self.current_board().tiles:
            raise IllegalMove(Words("{player} starts the round and opens with any tile: no pass is possible", player=event.player))
        if self.rules.has_boneyard and self.boneyard > 0:
            raise IllegalMove(Words("{player} may not pass while the boneyard is not empty ({boneyard} left): a player who cannot play draws",
                                    player=event.player, boneyard=self.boneyard))
        passes = self.passes_in_a_row + 1
        new = replace(self, passes_in_a_row=passes, drew_this_turn=False)
        if passes >= len(self.players):
            return replace(new, phase=Phase.ROUND_OVER, turn=None, finisher=None), None
        return replace(new, turn=self.table.next_seat(seat)), None

    def _reveal(self, event: Reveal) -> tuple[Match, Outcome]:
        if self.phase is Phase.BEFORE_ROUND:
            raise IllegalMove(Words("no round is being played: there are no hands to reveal"))
        table = self.table
        board = self.current_board()
        names = [name for name, _ in event.hands]
        for name in names:
            table.seat(name)
        if len(set(names)) != len(names):
            raise IllegalMove(Words("the reveal lists a player's hand twice"))
        missing = [p for p in table.players if p not in names]
        if missing:
            raise IllegalMove(Words("the reveal lists no hand for {players} (give [] for an empty hand)", players=", ".join(missing)))
        blocked = self.finisher is None
        # A block (passed round, or revealed without every pass logged) must be proved by the hands -- and
        # cannot be while the boneyard holds tiles, whatever they are.
        if blocked and self.rules.has_boneyard and self.boneyard > 0:
            raise IllegalMove(Words("round {round} is not over: the boneyard is not empty ({boneyard} left)",
                                    round=self.round_no, boneyard=self.boneyard))
        seen: set[Tile] = set()
        hands: list[tuple[Tile, ...]] = []
        for seat, player in enumerate(table.players):
            hand = event.hand_of(player) or ()
            if len(hand) != self.hand_counts[seat]:
                raise IllegalMove(Words("{player} has {count} in hand by the log, the reveal shows {shown}", player=player,
                                            count=self.hand_counts[seat], shown=len(hand)))
            for tile in hand:
                if tile in board:
                    raise IllegalMove(Words("{player}'s revealed {tile} is on the board", player=player, tile=tile))
                if tile in seen:
                    raise IllegalMove(Words("{tile} is revealed twice", tile=tile))
                seen.add(tile)
            hands.append(hand)
        if blocked:
            for seat, hand in enumerate(hands):
                playable = [t for t in hand if board.can_place(t)]
                if playable:
                    raise IllegalMove(Words("round {round} is not blocked: {player} holds {tile}, which can be placed",
                                            round=self.round_no, player=table.players[seat], tile=playable[0]))
        pips = tuple(sum(t.pips for t in hand) for hand in hands)
        score = self.rules.round_scores(table, pips, self.finisher)
        scores = tuple(s + c for s, c in zip(self.raw_scores, score.raw_changes))
        outcome = RoundOutcome(
            round_no=self.round_no,
            blocked=blocked,
            finisher=None if self.finisher is None else table.players[self.finisher],
            hand_pips=pips,
            hand_totals=tuple(round_to_five(p) for p in pips),
            raw_changes=score.raw_changes,
            winning_sides=score.winning_sides,
        )
        new = replace(
            self, phase=Phase.BEFORE_ROUND, turn=None, raw_scores=scores, next_starter=self.finisher, drew_this_turn=False
        )
        if self.rules.scores_win_at_round_end:
            reached = tuple(side for side in range(table.n_sides) if scores[side] >= self.rules.target_raw)
            if reached:
                new = replace(new, phase=Phase.MATCH_OVER, winning_sides=reached, next_starter=None)
        return new, outcome


def credited_hands(after: Match, outcome: RoundOutcome) -> dict[int, tuple[int, ...]]:
    """For each side credited with the other hands at a round's end (Horse Race), those hands' pips in seat
    order, empty ones left out: their sum, rounded once, is the credit.  Empty where each hand is rounded
    on its own (Seven Rocks)."""
    if after.rules.rounds_each_hand:
        return {}
    table = after.table
    return {side: tuple(pips for seat, pips in enumerate(outcome.hand_pips) if table.side_of(seat) != side and pips)
            for side in outcome.winning_sides}


def counted_as(pips: Sequence[int], rounded: int) -> str:
    """How hands were counted: "31 + 22 = 53 → 55", "17 → 15", "10 + 10 = 20"; "" for one hand not rounded."""
    total = sum(pips)
    text = " + ".join(map(str, pips)) + (f" = {total}" if len(pips) > 1 else "")
    if rounded != total:
        text += f" → {rounded}"
    return text if len(pips) > 1 or rounded != total else ""


def _add(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return values[:index] + (values[index] + delta,) + values[index + 1 :]


def _describe_points(points: Sequence[FreePoint]) -> str:
    if not points:
        return Words("none")
    return Listed([Words("{side} of {tile} shows {value}", tile=p.tile, side=p.side.words, value=p.value) for p in points])
