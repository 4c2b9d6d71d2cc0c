"""A cribbage game kept on the board: deals, the cut, pegging, the show, games to 121 (or 61), skunks.

Like the domino games, a state with one verb, :meth:`CribbageGame.apply`, that
rejects an impossible event whole.  Players enter what happened (the cards played
and shown); the game counts, explains and moves the pegs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence, Union

from scorer.cribbage.cards import Card, check_distinct
from scorer.cribbage.pegging import PegState
from scorer.cribbage.show import Score, count_show, his_heels
from scorer.errors import CardError, TableError
from scorer.words import Words

HAND_SIZES = {2: (6, 2), 3: (5, 1), 4: (5, 1)}  # players -> (cards dealt each, cards each gives to the crib)
EVERY_CARD_FITS_UP_TO = 31 - 10  # (no card is worth more than 10: at this count or under, a player holding cards plays)


@dataclass(frozen=True, slots=True)
class Deal:
    dealer: str


@dataclass(frozen=True, slots=True)
class Cut:
    starter: Card


@dataclass(frozen=True, slots=True)
class PegCard:
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class Go:
    """A player cannot play without passing 31 and says "go".

    With ``player`` the turn passes on; once nobody who still holds cards can play, the last card
    scores 1 and the count restarts.  Without a player (the older form): nobody at the table can
    play, at once.
    """

    player: str | None = None


@dataclass(frozen=True, slots=True)
class Show:
    """A hand (or the crib) counted with the starter; ``claimed`` is what the player said, for muggins."""

    player: str
    cards: tuple[Card, ...]
    crib: bool = False
    claimed: int | None = None


CribEvent = Union[Deal, Cut, PegCard, Go, Show]


@dataclass(frozen=True, slots=True)
class Scored:
    player: str
    points: int
    items: tuple[Score, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class CribbageGame:
    players: tuple[str, ...]
    target: int = 121
    muggins: bool = False
    scores: tuple[int, ...] = ()
    previous: tuple[int, ...] = ()  # the back pegs
    games_won: tuple[int, ...] = ()
    dealer: int | None = None
    starter: Card | None = None
    pegging: PegState = field(default_factory=PegState)
    last_pegger: int | None = None
    pegged: tuple[Card, ...] = ()
    pegged_by: tuple[int, ...] = ()  # the seat that pegged each card of ``pegged``
    turn: int | None = None  # whose turn it is to peg (None before the cut and once pegging is over)
    said_go: tuple[int, ...] = ()  # the seats that said go since the count last restarted
    shown: tuple[str, ...] = ()  # who has shown this deal (the crib as "crib")
    shown_cards: tuple[tuple[str, Card], ...] = ()  # the cards counted this deal, each with whose count it was in
    winner: int | None = None
    skunk: int = 0  # games the win is worth (1, 2 skunk, 3 double skunk)

    @classmethod
    def start(cls, players: Sequence[str], target: int = 121, muggins: bool = False) -> CribbageGame:
        players = tuple(players)
        if len(players) not in HAND_SIZES:
            raise TableError(Words("cribbage is played here by 2, 3 or 4 players, found {count}", count=len(players)))
        if len(set(players)) != len(players):
            raise TableError(Words("player names must differ, found {names}", names=", ".join(players)))
        if target not in (61, 121):
            raise TableError(Words("a game goes to 121 (or 61 for a short game), not {target}", target=target))
        zeros = (0,) * len(players)
        return cls(players, target, muggins, zeros, zeros, zeros)

    # -- reading -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def seat(self, player: str) -> int:
        if player not in self.players:
            raise CardError(Words("unknown player {player}; the players are {players}", player=repr(player), players=", ".join(self.players)))
        return self.players.index(player)

    def counting_order(self) -> list[str]:
        """Left of the dealer first, the dealer last (then the dealer's crib)."""
        assert self.dealer is not None
        n = len(self.players)
        return [self.players[(self.dealer + 1 + i) % n] for i in range(n)]

    def skunk_lines(self) -> tuple[int, int]:
        return (91, 61) if self.target == 121 else (31, 0)

    @property
    def cards_each(self) -> int:
        """Cards each player pegs in a deal (the hand after giving to the crib): 4."""
        dealt, to_crib = HAND_SIZES[len(self.players)]
        return dealt - to_crib

    def pegged_of(self, seat: int) -> tuple[Card, ...]:
        """The cards the player at ``seat`` has pegged this deal, in order."""
        return tuple(c for s, c in zip(self.pegged_by, self.pegged) if s == seat)

    def cards_left(self, seat: int) -> int:
        """Cards the player at ``seat`` still holds to peg this deal."""
        return self.cards_each - len(self.pegged_of(seat))

    @property
    def count(self) -> int:
        """The running count of the pegging."""
        return self.pegging.count

    @property
    def pegging_over(self) -> bool:
        return len(self.pegged) >= self.cards_each * len(self.players) or bool(self.shown)

    @property
    def phase(self) -> str:
        """``deal``, ``cut``, ``peg``, ``show`` or ``over``: what the table does next."""
        if self.is_over:
            return "over"
        if self.dealer is None or len(self.shown) == len(self.players) + 1:
            return "deal"
        if self.starter is None:
            return "cut"
        if not self.pegging_over:
            return "peg"
        return "show"

    def next_to_show(self) -> str | None:
        """Whose count comes next in the show ("crib" for the dealer's crib), or None when all are counted."""
        if self.dealer is None or self.starter is None:
            return None
        order = self.counting_order()
        if len(self.shown) < len(order):
            return order[len(self.shown)]
        return "crib" if len(self.shown) == len(order) else None

    def _check_cards_shown(self, event: Show, who: str) -> None:
        """A hand counted is the hand pegged: it holds every card its player pegged this deal and none another
        pegged; the crib holds no pegged card; no card is counted twice in a deal."""
        for owner, card in self.shown_cards:
            if card in event.cards:
                raise CardError(Words("{card} was counted already this deal, in the crib", card=card) if owner == "crib" else
                                Words("{card} was counted already this deal, in {player}'s hand", card=card, player=owner))
        seat = self.seat(event.player)
        for pegger, card in zip(self.pegged_by, self.pegged):
            if card in event.cards and (event.crib or pegger != seat):
                raise CardError(Words("{card} was pegged by {other}: it is not in the crib", card=card, other=self.players[pegger])
                                if event.crib else Words("{card} was pegged by {other}: it is not in {player}'s hand", card=card,
                                                         other=self.players[pegger], player=event.player))
        if event.crib:
            return
        left = list(event.cards)
        # (The cards pegged with their suit first: one pegged by its rank alone matches any card of it left.)
        for card in sorted(self.pegged_of(seat), key=lambda c: c.suit is None):
            match = next((c for c in left if c == card or (card.suit is None and c.rank == card.rank)), None)
            if match is None:
                raise CardError(Words("{player} pegged {card} this deal: the hand counted must hold it", player=event.player, card=card))
            left.remove(match)

    def _next_seat(self, after: int, skip_go: bool = True) -> int | None:
        """The next seat clockwise from ``after`` (``after`` itself last) that holds cards and has not said go."""
        n = len(self.players)
        for k in range(1, n + 1):
            seat = (after + k) % n
            if self.cards_left(seat) > 0 and not (skip_go and seat in self.said_go):
                return seat
        return None

    # -- the one verb ----------------------------------------------------------------

    def apply(self, event: CribEvent, *, as_saved: bool = False) -> tuple[CribbageGame, list[Scored]]:
        """The game after ``event``, and what it scored; an impossible event is refused whole (CardError).
        ``as_saved``: an event read back from a game's file, written before a hand shown had to be the hand
        pegged, or a go refused while every card fits -- a saved game is never lost to a rule made since."""
        if self.is_over and not isinstance(event, Deal):
            raise CardError(Words("the game is over ({player} won); deal a new game", player=self.players[self.winner]))
        if isinstance(event, Deal):
            return self._deal(event), []
        if self.dealer is None:
            raise CardError(Words("no deal yet: say who deals first"))
        if isinstance(event, Cut):
            return self._cut(event)
        if isinstance(event, PegCard):
            return self._peg(event)
        if isinstance(event, Go):
            return self._go(event, as_saved)
        if isinstance(event, Show):
            return self._show(event, as_saved)
        raise CardError(f"unknown event {event!r}")

    def _deal(self, event: Deal) -> CribbageGame:
        dealer = self.seat(event.dealer)
        game = self
        if self.is_over:  # a new game; the games won stay
            zeros = (0,) * len(self.players)
            game = replace(self, scores=zeros, previous=zeros, winner=None, skunk=0)
        elif self.dealer is not None and len(game.shown) < len(self.players) + 1 and (game.starter or game.pegged):
            raise CardError(Words("the deal is not finished: every hand and the crib are shown before the next deal"))
        return replace(game, dealer=dealer, starter=None, pegging=PegState(), last_pegger=None, pegged=(), pegged_by=(),
                       turn=None, said_go=(), shown=(), shown_cards=())

    def _add(self, seat: int, points: int) -> CribbageGame:
        if points == 0:
            return self
        scores = list(self.scores)
        previous = list(self.previous)
        previous[seat] = scores[seat]
        scores[seat] += points
        game = replace(self, scores=tuple(scores), previous=tuple(previous))
        if scores[seat] >= self.target and self.winner is None:
            # The first to reach the target wins at once, whatever the others hold.
            losers = [s for i, s in enumerate(scores) if i != seat]
            skunk_line, double_line = self.skunk_lines()
            worth = 3 if max(losers) < double_line else 2 if max(losers) < skunk_line else 1
            won = list(game.games_won)
            won[seat] += worth
            game = replace(game, winner=seat, skunk=worth, games_won=tuple(won))
        return game

    def _cut(self, event: Cut) -> tuple[CribbageGame, list[Scored]]:
        if self.starter is not None:
            raise CardError(Words("the starter is already cut ({card})", card=self.starter))
        if event.starter.suit is None:
            raise CardError(Words("the starter needs its suit (for flushes and nobs)"))
        game = replace(self, starter=event.starter, turn=(self.dealer + 1) % len(self.players), said_go=())
        heels = his_heels(event.starter)
        out = []
        if heels:
            dealer = self.players[self.dealer]
            game = game._add(self.dealer, heels)
            out.append(Scored(dealer, heels, (Score("his heels", (event.starter,), heels),)))
        return game, out

    def _peg(self, event: PegCard) -> tuple[CribbageGame, list[Scored]]:
        seat = self.seat(event.player)
        if self.starter is None:
            raise CardError(Words("cut the starter before pegging"))
        if self.shown:
            raise CardError(Words("the show has begun: pegging is over for this deal"))
        if event.card == self.starter:
            raise CardError(Words("{card} is the starter: it is in nobody's hand", card=event.card))
        if event.card.suit is not None:
            check_distinct((*self.pegged, event.card, self.starter))
        per_player = self.cards_each
        if len(self.pegged) >= per_player * len(self.players):
            raise CardError(Words("every card has been pegged"))
        if self.cards_left(seat) <= 0:
            raise CardError(Words("{player} has pegged all {count} cards", player=event.player, count=per_player))
        if seat in self.said_go:
            raise CardError(Words("{player} said go: the count must restart before {player} plays again", player=event.player))
        if self.turn is not None and seat != self.turn:
            raise CardError(Words("it is {turn}'s turn to peg, not {player}'s", turn=self.players[self.turn], player=event.player))
        if sum(1 for c in (*self.pegged, self.starter) if c.rank == event.card.rank) >= 4:
            raise CardError(Words("a deck has four cards of each rank; {card} is pegged a fifth time", card=event.card))
        state, play = self.pegging.play(event.card)
        game = replace(self, pegging=state, last_pegger=seat, pegged=self.pegged + (event.card,),
                       pegged_by=self.pegged_by + (seat,))
        out = []
        if play.points:
            game = game._add(seat, play.points)
            out.append(Scored(event.player, play.points, play.items, f"count {play.count}"))
        if len(game.pegged) == per_player * len(self.players):
            game = replace(game, pegging=PegState(), turn=None, said_go=())
            if not game.is_over and play.count != 31:
                # The last card of all scores one for the go.
                game = game._add(seat, 1)
                out.append(Scored(event.player, 1, (Score("last card", (event.card,), 1),)))
            return game, out
        if play.count == 31:
            # The count restarts; the player after the one who made 31 leads.
            game = replace(game, pegging=PegState(), said_go=())
            return replace(game, turn=game._next_seat(seat)), out
        nxt = game._next_seat(seat)
        if nxt is None:
            # Everyone else has said go or played out, and so has this player: the go is settled now.
            return game._settle_go(out)
        return replace(game, turn=nxt), out

    def _settle_go(self, out: list[Scored]) -> tuple[CribbageGame, list[Scored]]:
        """Nobody can play: the last card scores 1 (unless it made 31) and the count restarts."""
        state, point = self.pegging.go()
        game = replace(self, pegging=state, said_go=())
        if point is not None and self.last_pegger is not None:
            game = game._add(self.last_pegger, 1)
            out = out + [Scored(self.players[self.last_pegger], 1, (point,))]
        lead = game._next_seat(self.last_pegger if self.last_pegger is not None else (self.turn or 0))
        return replace(game, turn=lead), out

    def _go(self, event: Go | None = None, as_saved: bool = False) -> tuple[CribbageGame, list[Scored]]:
        if self.starter is None:
            raise CardError(Words("cut the starter before pegging"))
        if event is None or event.player is None:
            # The older form: nobody at the table can play.
            return self._settle_go([])
        seat = self.seat(event.player)
        if self.pegging_over:
            raise CardError(Words("every card has been pegged: there is no go to say"))
        if self.turn is not None and seat != self.turn:
            raise CardError(Words("it is {turn}'s turn, not {player}'s", turn=self.players[self.turn], player=event.player))
        if self.count <= EVERY_CARD_FITS_UP_TO and not as_saved:
            raise CardError(Words("the count is {count}: any card {player} holds keeps it at 31 or under, so {player} "
                                  "plays and cannot say go", count=self.count, player=event.player))
        game = replace(self, said_go=self.said_go + (seat,))
        nxt = game._next_seat(seat)
        if nxt is None:
            return game._settle_go([])
        return replace(game, turn=nxt), []

    def _show(self, event: Show, as_saved: bool = False) -> tuple[CribbageGame, list[Scored]]:
        if self.starter is None:
            raise CardError(Words("cut the starter before the show"))
        seat = self.seat(event.player)
        order = self.counting_order()
        expected = "crib" if len(self.shown) == len(order) else order[len(self.shown)]
        who = "crib" if event.crib else event.player
        if who != expected:
            raise CardError(Words("the counting goes from the dealer's left, the dealer, then the crib: expected {expected}'s count, found {who}'s",
                                  expected=_count_named(expected), who=_count_named(who)))
        if event.crib and seat != self.dealer:
            raise CardError(Words("the crib is the dealer's ({dealer}), not {player}'s", dealer=self.players[self.dealer], player=event.player))
        if self.starter in event.cards:
            raise CardError(Words("{card} is the starter: it counts with every hand, so type only the four cards of the hand",
                                  card=self.starter))
        check_distinct((*event.cards, self.starter))
        count = count_show(event.cards, self.starter, crib=event.crib)
        if not as_saved:
            self._check_cards_shown(event, who)
        game = replace(self, shown=self.shown + (who,), shown_cards=self.shown_cards + tuple((who, c) for c in event.cards),
                       turn=None, said_go=())
        out: list[Scored] = []
        claimed = count.total if event.claimed is None else event.claimed
        if claimed > count.total:
            raise CardError(Words("{player} claims {claimed} but the crib counts {total}" if event.crib else
                                  "{player} claims {claimed} but the hand counts {total}", player=event.player, claimed=claimed, total=count.total))
        game = game._add(seat, claimed)
        out.append(Scored(event.player, claimed, count.items, "crib" if event.crib else "hand"))
        missed = count.total - claimed
        if missed and self.muggins and not game.is_over:
            # Muggins: the next player takes the points that were missed.
            taker = (seat + 1) % len(self.players)
            game = game._add(taker, missed)
            out.append(Scored(self.players[taker], missed, (), f"muggins: {event.player} missed {missed}"))
        return game, out


def hand_pegged(game: CribbageGame, player: str) -> tuple[Card, ...]:
    """The hand ``player`` pegged this deal, where every card of it was pegged with its suit (the hand the
    show counts); else nothing."""
    cards = game.pegged_of(game.seat(player))
    return cards if len(cards) == game.cards_each and all(c.suit for c in cards) else ()


def _count_named(who: str) -> str:
    """A count of the show as told: the player's name, or the crib in words (said again in another language)."""
    return Words("the crib") if who == "crib" else who
