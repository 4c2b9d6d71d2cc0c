"""The session log: JSON Lines, one match per file.  Reading checks every field; writing is its inverse.

Format (documented in ``docs/session-log.md``)::

    {"type": "match", "game": "horse-race", "players": ["Ann", "Ben"], "partnership": false}
    {"type": "round", "starter": "Ann"}
    {"type": "play", "player": "Ann", "tile": [3, 4], "at": [4, 4]}
    {"type": "draw", "player": "Ben", "count": 2}
    {"type": "pass", "player": "Ben"}
    {"type": "reveal", "hands": {"Ann": [[1, 2]], "Ben": []}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from scorer.errors import LogFormatError, ScorerError
from scorer.rules.events import Draw, Event, Pass, Play, Reveal, RoundStart
from scorer.rules.game import GameRules, Match
from scorer.rules.horse_race import HorseRace
from scorer.rules.seven_rocks import SevenRocks
from scorer.rules.tiles import Side, Tile

GAMES: dict[str, GameRules] = {rules.key: rules for rules in (HorseRace(), SevenRocks())}

# Keys any line may carry besides its own: a timestamp into a recording and a free note.
_META_KEYS = {"t", "comment"}
_KEYS = {
    "match": ({"type", "game", "players", "partnership"}, set()),
    "round": ({"type"}, {"starter"}),
    "play": ({"type", "player", "tile"}, {"at", "side", "source"}),
    "draw": ({"type", "player"}, {"count"}),
    "pass": ({"type", "player"}, set()),
    "reveal": ({"type", "hands"}, set()),
}


@dataclass(frozen=True, slots=True)
class MatchHeader:
    game: str
    players: tuple[str, ...]
    partnership: bool

    @property
    def rules(self) -> GameRules:
        return GAMES[self.game]

    def new_match(self) -> Match:
        return Match.start(self.rules, self.players, self.partnership)


@dataclass(frozen=True, slots=True)
class LogLine:
    """One non-blank line of a log: its 1-based number and the decoded JSON object."""

    number: int
    data: Mapping[str, Any]


class LineError(ScorerError):
    """An error tied to a line of a log file."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number
        self.message = message

    def __str__(self) -> str:
        return f"line {self.number}: {self.message}"


def read_lines(lines: Iterable[str]) -> Iterator[LogLine]:
    """Decode each non-blank line; a line that is not a JSON object raises :class:`LineError`."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LineError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(data, dict):
            raise LineError(number, f"expected a JSON object, found {type(data).__name__}")
        yield LogLine(number, data)


def _check_keys(data: Mapping[str, Any]) -> str:
    kind = data.get("type")
    if not isinstance(kind, str):
        raise LogFormatError(f"every line needs a string 'type', found {kind!r}")
    if kind not in _KEYS:
        raise LogFormatError(f"unknown event type {kind!r}; expected one of {', '.join(_KEYS)}")
    required, optional = _KEYS[kind]
    missing = sorted(required - data.keys())
    if missing:
        raise LogFormatError(f"a {kind!r} line needs {', '.join(map(repr, missing))}")
    unknown = sorted(data.keys() - required - optional - _META_KEYS)
    if unknown:
        raise LogFormatError(f"a {kind!r} line has unknown key(s) {', '.join(map(repr, unknown))}")
    return kind


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise LogFormatError(f"{what} must be a player's name, found {value!r}")
    return value


def _tile(value: Any, what: str) -> Tile:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and 0 <= v <= 6 for v in value)
    ):
        raise LogFormatError(f"{what} must be a tile [a, b] with pips 0..6, found {json.dumps(value)}")
    return Tile.of(value[0], value[1])


def parse_header(data: Mapping[str, Any]) -> MatchHeader:
    if data.get("type") != "match":
        raise LogFormatError(f"the first line must be the match line {{\"type\": \"match\", ...}}, found type {data.get('type')!r}")
    _check_keys(data)
    game = data["game"]
    if not isinstance(game, str) or game not in GAMES:
        raise LogFormatError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    players = data["players"]
    if not isinstance(players, list) or not players:
        raise LogFormatError(f"'players' must be a list of names, found {json.dumps(players)}")
    names = tuple(_name(p, "each player") for p in players)
    partnership = data["partnership"]
    if not isinstance(partnership, bool):
        raise LogFormatError(f"'partnership' must be true or false, found {json.dumps(partnership)}")
    return MatchHeader(game, names, partnership)


def parse_event(data: Mapping[str, Any]) -> Event:
    kind = _check_keys(data)
    if kind == "match":
        raise LogFormatError("a second match line: one log holds one match")
    if kind == "round":
        starter = data.get("starter")
        return RoundStart(None if starter is None else _name(starter, "'starter'"))
    if kind == "reveal":
        return _parse_reveal(data["hands"])
    player = _name(data["player"], "'player'")
    if kind == "play":
        at = data.get("at")
        side = data.get("side")
        source = data.get("source")
        if side is not None and side not in {s.value for s in Side}:
            raise LogFormatError(f"'side' must be one of {', '.join(s.value for s in Side)}, found {side!r}")
        if source is not None and source not in ("hand", "drawn"):
            raise LogFormatError(f"'source' must be \"hand\" or \"drawn\", found {json.dumps(source)}")
        return Play(
            player,
            _tile(data["tile"], "'tile'"),
            None if at is None else _tile(at, "'at'"),
            None if side is None else Side(side),
            source,
        )
    if kind == "draw":
        count = data.get("count", 1)
        if type(count) is not int or count < 1:
            raise LogFormatError(f"'count' must be a whole number of at least 1, found {json.dumps(count)}")
        return Draw(player, count)
    return Pass(player)


def _parse_reveal(hands: Any) -> Reveal:
    if not isinstance(hands, dict):
        raise LogFormatError(f"'hands' must map each player to a list of tiles, found {json.dumps(hands)}")
    parsed = []
    for name, tiles in hands.items():
        if not isinstance(tiles, list):
            raise LogFormatError(f"{name}'s hand must be a list of tiles, found {json.dumps(tiles)}")
        parsed.append((name, tuple(_tile(t, f"a tile in {name}'s hand") for t in tiles)))
    return Reveal(tuple(parsed))


def header_to_json(header: MatchHeader) -> dict[str, Any]:
    return {"type": "match", "game": header.game, "players": list(header.players), "partnership": header.partnership}


def event_to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, RoundStart):
        return {"type": "round"} if event.starter is None else {"type": "round", "starter": event.starter}
    if isinstance(event, Play):
        out: dict[str, Any] = {"type": "play", "player": event.player, "tile": event.tile.as_list()}
        if event.at is not None:
            out["at"] = event.at.as_list()
        if event.side is not None:
            out["side"] = event.side.value
        if event.source is not None:
            out["source"] = event.source
        return out
    if isinstance(event, Draw):
        return {"type": "draw", "player": event.player, "count": event.count}
    if isinstance(event, Pass):
        return {"type": "pass", "player": event.player}
    return {"type": "reveal", "hands": {name: [t.as_list() for t in tiles] for name, tiles in event.hands}}


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
