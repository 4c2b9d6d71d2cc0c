"""The session log: JSON Lines, one match per file.  Reading checks every field; writing is its inverse.

Format (documented in ``docs/session-log.md``)::

    {"type": "match", "game": "horse-race", "players": ["Ann", "Ben"], "partnership": false}
    {"type": "round", "starter": "Ann"}
    {"type": "play", "player": "Ann", "tile": [3, 4], "at": [4, 4]}
    {"type": "draw", "player": "Ben", "count": 2}
    {"type": "pass", "player": "Ben"}
    {"type": "reveal", "hands": {"Ann": [[1, 2]], "Ben": []}}
    {"type": "undo", "line": 4}

Lines are split on "\\n" alone; :func:`dumps` escapes every other character a reader may take for a line end.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from scorer.errors import LineError as LineError  # (defined in the one tree; imported from here too)
from scorer.errors import LogFormatError
from scorer.rules.events import Draw, Event, Pass, Play, Reveal, RoundStart
from scorer.rules.game import Match
from scorer.rules.game_rules import GameRules
from scorer.rules.horse_race import HorseRace
from scorer.rules.seven_rocks import SevenRocks
from scorer.rules.tiles import Side, Tile

GAMES: dict[str, GameRules] = {rules.key: rules for rules in (HorseRace(), SevenRocks())}

# Keys any line may carry besides its own: a timestamp into a recording and a free note.
_META_KEYS = {"t", "comment"}
_KEYS = {
    "match": ({"type", "game", "players", "partnership"}, {"id", "started", "table", "source", "calibration"}),
    "round": ({"type"}, {"starter"}),
    "play": ({"type", "player", "tile"}, {"at", "side", "source"}),
    "draw": ({"type", "player"}, {"count"}),
    "pass": ({"type", "player"}, set()),
    "reveal": ({"type", "hands"}, set()),
    "undo": ({"type", "line"}, set()),
}
_SOURCE_KINDS = ("camera", "video", "url", "demo", "hand")
# Characters that str.splitlines() and some JSON-lines readers take for a line end, yet JSON leaves raw.
_LINE_ENDS_JSON_KEEPS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


@dataclass(frozen=True, slots=True)
class MatchSource:
    """Where the match is seen from: a camera (its index), a video file or recorded folder, a network
    camera's URL, the bundled demo, or nowhere (``hand``: every move entered by hand); ``recording`` is the
    folder ``record`` writes the video into."""

    kind: str
    location: str = ""
    step: int = 1
    recording: str | None = None


@dataclass(frozen=True, slots=True)
class MatchHeader:
    game: str
    players: tuple[str, ...]
    partnership: bool
    id: str | None = None  # unique per match, given when its session file is made
    started: str | None = None  # ISO 8601 date and time, with its UTC offset
    table: str | None = None  # which table of a club evening
    source: MatchSource | None = None
    calibration: str | None = None  # the table profile's name

    @property
    def is_demo(self) -> bool:
        """Whether this is the bundled demo's match (saved as any match, but no club's)."""
        return self.source is not None and self.source.kind == "demo"

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


@dataclass(frozen=True, slots=True)
class Undo:
    """A log line that withdraws the event on ``line`` and every event in force after it."""

    line: int


def decode(number: int, raw: bytes) -> str:
    """One line's bytes as text; invalid UTF-8 or a byte-order mark is a :class:`LineError`."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise LineError(number, "the line starts with a byte-order mark (U+FEFF): save the log as UTF-8 without BOM")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if number == 1 and b"\0" in raw:  # (a text file has no zero bytes: a video, a picture, an archive)
            raise LineError(number, "not a session log but a binary file (a video? `replay VIDEO` scores a recorded game)") from None
        raise LineError(number, f"not valid UTF-8 (byte {exc.start + 1} of the line: {raw[exc.start:exc.start + 1]!r})") from None


def split(data: bytes) -> list[bytes]:
    """The lines of a log's bytes, split on "\\n" alone (a final line without one included)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def read_lines(lines: Iterable[str]) -> Iterator[LogLine]:
    """Decode each non-blank line; a line that is not a JSON object raises :class:`LineError`."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        if text.startswith("\ufeff"):
            raise LineError(number, "the line starts with a byte-order mark (U+FEFF): save the log as UTF-8 without BOM")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LineError(number, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
        except RecursionError:
            raise LineError(number, "not a session-log line: nested deeper than any event is") from None
        except ValueError as exc:  # a number too long to convert
            raise LineError(number, f"not a session-log line: {exc}") from None
        if not isinstance(data, dict):
            raise LineError(number, f"expected a JSON object, found {type(data).__name__}")
        yield LogLine(number, data)


def _check_keys(data: Mapping[str, Any]) -> str:
    kind = data.get("type")
    if not isinstance(kind, str):
        raise LogFormatError(f"every line needs a string 'type', found {_shown(kind)}")
    if kind not in _KEYS:
        raise LogFormatError(f"unknown event type {_shown(kind)}; expected one of {', '.join(_KEYS)}")
    required, optional = _KEYS[kind]
    missing = sorted(required - data.keys())
    if missing:
        raise LogFormatError(f"a {kind!r} line needs {', '.join(map(repr, missing))}")
    unknown = sorted(data.keys() - required - optional - _META_KEYS)
    if unknown:
        raise LogFormatError(f"a {kind!r} line has {_unknown_keys(unknown)}")
    t = data.get("t", 0.0)
    if type(t) not in (int, float) or not math.isfinite(t) or t < 0:
        raise LogFormatError(f"'t' must be seconds into the recording (a number of at least 0), found {_shown(t)}")
    if not isinstance(data.get("comment", ""), str):
        raise LogFormatError(f"'comment' must be text, found {_shown(data['comment'])}")
    return kind


def _unknown_keys(keys: Sequence[str]) -> str:
    """ "an unknown key 'x'" or "unknown keys 'x', 'y'" """
    return ("an unknown key " if len(keys) == 1 else "unknown keys ") + ", ".join(map(repr, keys))


def _shown(value: Any) -> str:
    """A value from a line, short enough for an error message."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _text(data: Mapping[str, Any], key: str, limit: int = 200) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise LogFormatError(f"'{key}' must be text of 1 to {limit} characters, found {_shown(value)}")
    return value


def _source(value: Any) -> MatchSource | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("kind") not in _SOURCE_KINDS:
        raise LogFormatError(f"'source' must be an object with a 'kind' of {', '.join(_SOURCE_KINDS)}, found {_shown(value)}")
    unknown = sorted(value.keys() - {"kind", "location", "step", "recording"})
    if unknown:
        raise LogFormatError(f"'source' has {_unknown_keys(unknown)}")
    location = value.get("location", "")
    step = value.get("step", 1)
    recording = value.get("recording")
    if not isinstance(location, str) or type(step) is not int or not 1 <= step <= 100:
        raise LogFormatError(f"'source' needs a text 'location' and a 'step' of 1 to 100, found {_shown(value)}")
    if recording is not None and (not isinstance(recording, str) or not recording):
        raise LogFormatError(f"'source' 'recording' must be a folder's path, found {_shown(recording)}")
    return MatchSource(value["kind"], location, step, recording)


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise LogFormatError(f"{what} must be a player's name, found {_shown(value)}")
    return value


def _tile(value: Any, what: str) -> Tile:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and 0 <= v <= 6 for v in value)
    ):
        raise LogFormatError(f"{what} must be a tile [a, b] with pips 0..6, found {_shown(value)}")
    return Tile.of(value[0], value[1])


def parse_header(data: Mapping[str, Any]) -> MatchHeader:
    if data.get("type") != "match":
        raise LogFormatError(f"the first line must be the match line {{\"type\": \"match\", ...}}, found type {_shown(data.get('type'))}")
    _check_keys(data)
    game = data["game"]
    if not isinstance(game, str) or game not in GAMES:
        raise LogFormatError(f"unknown game {_shown(game)}; expected one of {', '.join(GAMES)}")
    players = data["players"]
    if not isinstance(players, list) or not players:
        raise LogFormatError(f"'players' must be a list of names, found {_shown(players)}")
    names = tuple(_name(p, "each player") for p in players)
    partnership = data["partnership"]
    if not isinstance(partnership, bool):
        raise LogFormatError(f"'partnership' must be true or false, found {_shown(partnership)}")
    return MatchHeader(game, names, partnership, _text(data, "id", 64), _text(data, "started", 40), _text(data, "table"),
                       _source(data.get("source")), _text(data, "calibration"))


def parse_line(data: Mapping[str, Any]) -> Event | Undo:
    """An event line, or an undo line."""
    if data.get("type") == "undo":
        _check_keys(data)
        line = data["line"]
        if type(line) is not int or line < 2:
            raise LogFormatError(f"'line' must be the number of an earlier event's line, found {_shown(line)}")
        return Undo(line)
    return parse_event(data)


def parse_event(data: Mapping[str, Any]) -> Event:
    kind = _check_keys(data)
    if kind == "match":
        raise LogFormatError("a second match line: one log holds one match")
    if kind == "undo":
        raise LogFormatError("an undo line where an event was expected")
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
        if side is not None and side not in [s.value for s in Side]:
            raise LogFormatError(f"'side' must be one of {', '.join(s.value for s in Side)}, found {_shown(side)}")
        if source is not None and source not in ("hand", "drawn"):
            raise LogFormatError(f"'source' must be \"hand\" or \"drawn\", found {_shown(source)}")
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
            raise LogFormatError(f"'count' must be a whole number of at least 1, found {_shown(count)}")
        return Draw(player, count)
    return Pass(player)


def _parse_reveal(hands: Any) -> Reveal:
    if not isinstance(hands, dict):
        raise LogFormatError(f"'hands' must map each player to a list of tiles, found {_shown(hands)}")
    parsed = []
    for name, tiles in hands.items():
        if not isinstance(tiles, list):
            raise LogFormatError(f"{name}'s hand must be a list of tiles, found {_shown(tiles)}")
        parsed.append((name, tuple(_tile(t, f"a tile in {name}'s hand") for t in tiles)))
    return Reveal(tuple(parsed))


def header_to_json(header: MatchHeader) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "match", "game": header.game, "players": list(header.players),
                           "partnership": header.partnership}
    for key in ("id", "started", "table", "calibration"):
        if getattr(header, key) is not None:
            out[key] = getattr(header, key)
    if header.source is not None:
        source = header.source
        out["source"] = {"kind": source.kind, "location": source.location, "step": source.step}
        if source.recording is not None:
            out["source"]["recording"] = source.recording
    return out


def undo_to_json(undo: Undo) -> dict[str, Any]:
    return {"type": "undo", "line": undo.line}


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
    """One line of the log: JSON with no character in it that any reader takes for a line end."""
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    for raw, escaped in _LINE_ENDS_JSON_KEEPS.items():
        text = text.replace(raw, escaped)
    return text
