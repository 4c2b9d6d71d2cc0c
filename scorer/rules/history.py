"""A match as the events in force: apply, undo, redo and rewind, each a line of the session log.

:class:`MatchHistory` keeps it in memory; the session store's ``Session`` writes each line to its file."""

from __future__ import annotations

from typing import Any, Callable

from scorer.rules.events import Event
from scorer.rules.game import Match
from scorer.rules.log import MatchHeader, event_to_json
from scorer.rules.transcript import LogReading, Step, withdraw


class MatchHistory:
    """The events in force and what undo took off (a redo brings back the next first)."""

    def __init__(self, reading: LogReading, start: Match | None = None) -> None:
        self.header = reading.header
        self._start = start  # the state before the first event, where not the match's start
        self._steps = list(reading.steps)
        self._undone = list(reading.undone)
        self._lines = reading.lines
        self.listeners: list[Callable[[MatchHistory], None]] = []

    @classmethod
    def new(cls, header: MatchHeader, match: Match | None = None) -> MatchHistory:
        """A match from its start, or from ``match`` (a state reached elsewhere, as the first in force)."""
        return cls(LogReading(header, (), (), 1), match)

    @classmethod
    def of(cls, match: Match) -> MatchHistory:
        """In memory, from ``match`` as it stands."""
        table = match.table
        return cls.new(MatchHeader(match.rules.key, table.players, table.partnership), match)

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    @property
    def undone(self) -> tuple[Step, ...]:
        return tuple(self._undone)

    @property
    def match(self) -> Match:
        if self._steps:
            return self._steps[-1].after
        return self._start if self._start is not None else self.header.new_match()

    def apply(self, event: Event, t: float | None = None) -> Step:
        """Apply ``event``; an illegal one raises (nothing written) and changes nothing."""
        before = self.match
        after, outcome = before.apply(event)
        t = None if t is None else round(t, 2)
        line = self._write({**event_to_json(event), **({} if t is None else {"t": t})})
        step = Step(line, event, before, after, outcome, t)
        self._steps.append(step)
        self._undone = self._undone[1:] if self._undone and self._undone[0].event == event else []
        self._changed()
        return step

    def rewind(self, count: int, t: float | None = None) -> tuple[Step, ...]:
        """Withdraw every event after the first ``count`` (one undo line); redo brings them back."""
        if count >= len(self._steps):
            return ()
        line = self._steps[count].line
        self._write({"type": "undo", "line": line, **({} if t is None else {"t": round(t, 2)})})
        taken = withdraw(self._steps, line)
        self._undone[:0] = taken
        self._changed()
        return tuple(taken)

    def undo(self, t: float | None = None) -> Step | None:
        taken = self.rewind(len(self._steps) - 1, t) if self._steps else ()
        return taken[0] if taken else None

    def redo(self, t: float | None = None) -> Step | None:
        return self.apply(self._undone[0].event, t) if self._undone else None

    def _write(self, data: dict[str, Any]) -> int:
        """Keep the line (here only counted); return its number."""
        self._lines += 1
        return self._lines

    def take_notes(self) -> list[str]:
        """What was done about where the match is kept that the players should know, each once (in memory: none)."""
        return []

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener(self)
