"""A session log as the club reads it: its identity and its steps in force, checked before storing."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from scorer.club.names import name_problem
from scorer.errors import ClubError
from scorer.rules.log import LineError, MatchHeader
from scorer.rules.transcript import LogReading, Step, read_log


def match_id(text: str) -> str:
    """The identity of a log without an ``id``: its events, without timestamps and comments, hashed."""
    canonical = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            canonical.append(line.strip())
            continue
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k not in ("t", "comment")}
        canonical.append(json.dumps(data, sort_keys=True, separators=(",", ":")))
    return hashlib.sha256("\n".join(canonical).encode()).hexdigest()


def count_lines(text: str) -> int:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return len(lines)


@dataclass(frozen=True)
class ParsedLog:
    """A log read through its events in force, ready to store."""

    ident: str
    text: str
    header: MatchHeader
    steps: tuple[Step, ...]
    lines: int
    by_content: bool  # keyed by the content's hash (no id in the match line)

    @property
    def final(self):
        return self.steps[-1].after if self.steps else self.header.new_match()


def parse_log(text: str, source: str = "log", reading: LogReading | None = None) -> ParsedLog:
    """Read ``text`` with the rules engine (steps in force: undone ones left out) and check what the
    club stores of it; a bad line or name is a :class:`ClubError` naming the source and line."""
    try:
        reading = reading or read_log(text.split("\n"))
    except LineError as exc:
        raise ClubError(f"{source}:{exc.number}: {exc.message}") from None
    if reading.error is not None:
        raise ClubError(f"{source}:{reading.error.number}: {reading.error.message}")
    header = reading.header
    for name in header.players:
        problem = name_problem(name)
        if problem:
            raise ClubError(f"{source}:1: the player {name[:40]!r} cannot go into the club database: {problem}")
    if header.table is not None and name_problem(header.table):
        raise ClubError(f"{source}:1: the table's name {header.table[:40]!r} cannot go into the club database: {name_problem(header.table)}")
    ident = header.id or match_id(text)
    return ParsedLog(ident, text, header, tuple(reading.steps), count_lines(text), header.id is None)
