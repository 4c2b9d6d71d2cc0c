"""A full-information simulator: random legal matches for any supported table.

It deals real hands, makes every player follow the rules (play if able, else
draw, else pass), and drives the one rules engine with the resulting events, so
the log it writes is a legal session log and its scores are the engine's.
Later stages use it to lay out synthetic tables and make test videos.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterator, Sequence

from scorer.errors import RulesError
from scorer.rules.board import FreePoint
from scorer.rules.events import Draw, Event, Pass, Play, Reveal, RoundStart
from scorer.rules.game import Match, Phase
from scorer.rules.game_rules import GameRules
from scorer.rules.log import GAMES, MatchHeader
from scorer.rules.tiles import FULL_SET, Tile

DEFAULT_NAMES = ("Ann", "Ben", "Cid", "Dee")

# Every table the games are played at: (game, players, partnership).
TABLES: tuple[tuple[str, int, bool], ...] = (
    ("horse-race", 2, False),
    ("horse-race", 3, False),
    ("horse-race", 4, False),
    ("horse-race", 4, True),
    ("seven-rocks", 4, True),
)


@dataclass(frozen=True, slots=True)
class SimulatedEvent:
    """An event, the full hands right after it (by seat), and the match state after it."""

    event: Event
    hands: tuple[tuple[Tile, ...], ...]
    after: Match


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    header: MatchHeader
    events: tuple[SimulatedEvent, ...]

    @property
    def final(self) -> Match:
        return self.events[-1].after


class _Player:
    """Random but legal choices, with some variety in how the log is written."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def play(self, match: Match, player: str, tile: Tile, options: Sequence[FreePoint], source: str | None) -> Play:
        board = match.current_board()
        if not board.tiles:
            return Play(player, tile, source=source)  # type: ignore[arg-type]
        point = self.rng.choice(options)
        # Name the side sometimes (always for branches), and leave 'at' out sometimes where it is unambiguous.
        side = point.side if point.side.is_branch or self.rng.random() < 0.2 else None
        targets = {p.tile for p in board.placements(tile)}
        at = None if side is None and len(targets) == 1 and self.rng.random() < 0.3 else point.tile
        if at is None:
            side = None
        return Play(player, tile, at, side, source)  # type: ignore[arg-type]


def simulate_match(
    game: str | GameRules,
    n_players: int,
    partnership: bool = False,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    names: Sequence[str] = DEFAULT_NAMES,
    max_rounds: int = 500,
) -> SimulatedMatch:
    """Play one random legal match to its end."""
    rules = GAMES[game] if isinstance(game, str) else game
    rng = rng or random.Random(seed)
    header = MatchHeader(rules.key, tuple(names[:n_players]), partnership)
    return SimulatedMatch(header, tuple(_play_match(header, rng, max_rounds)))


def _play_match(header: MatchHeader, rng: random.Random, max_rounds: int) -> Iterator[SimulatedEvent]:
    match = header.new_match()
    rules = header.rules
    chooser = _Player(rng)
    players = header.players
    n = len(players)
    hands: list[list[Tile]] = []
    boneyard: list[Tile] = []

    def step(event: Event) -> SimulatedEvent:
        nonlocal match
        snapshot = tuple(tuple(h) for h in hands)
        match, _ = match.apply(event)
        return SimulatedEvent(event, snapshot, match)

    while not match.is_over:
        if match.round_no >= max_rounds:
            raise RulesError(f"simulation did not finish in {max_rounds} rounds")
        hands, boneyard, start = _deal(rules, match, players, rng)
        yield step(start)
        while match.phase is Phase.IN_ROUND:
            seat = match.turn
            assert seat is not None
            player = players[seat]
            board = match.current_board()
            hand = hands[seat]
            playable = [t for t in hand if board.can_place(t)]
            if playable:
                tile = rng.choice(playable)
                event = chooser.play(match, player, tile, board.placements(tile), None)
                hand.remove(tile)
                yield step(event)
                continue
            drawn = 0
            while rules.has_boneyard and boneyard:
                tile = boneyard.pop()
                hand.append(tile)
                drawn += 1
                if board.can_place(tile):
                    break
                # Some logs write each draw as it happens, some the whole run at once.
                if rng.random() < 0.5:
                    yield step(Draw(player, drawn))
                    drawn = 0
            if drawn:
                yield step(Draw(player, drawn))
            last = hand[-1] if hand else None
            if drawn and last is not None and board.can_place(last):
                source = "drawn" if rng.random() < 0.3 else None
                event = chooser.play(match, player, last, board.placements(last), source)
                hand.remove(last)
                yield step(event)
            else:
                yield step(Pass(player))
        if match.phase is Phase.ROUND_OVER:
            yield step(Reveal(tuple((players[s], tuple(hands[s])) for s in range(n))))


def _deal(rules: GameRules, match: Match, players: tuple[str, ...], rng: random.Random
          ) -> tuple[list[list[Tile]], list[Tile], RoundStart]:
    """A round dealt: the hands, the boneyard, and the event that starts the round."""
    n = len(players)
    tiles = list(FULL_SET)
    rng.shuffle(tiles)
    size = rules.hand_size(n)
    hands = [tiles[i * size : (i + 1) * size] for i in range(n)]
    boneyard = tiles[n * size :]
    starter = match.next_starter if match.next_starter is not None else rng.randrange(n)
    # Where the rules fix the starter, leave the name out now and then.
    name = None if match.next_starter is not None and rng.random() < 0.5 else players[starter]
    return hands, boneyard, RoundStart(name)
