"""The match kept safe: the session log rewritten after every event (atomically), resumable after a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

from scorer.errors import ScorerError
from scorer.rules import Event, Match
from scorer.rules.log import MatchHeader, dumps, event_to_json, header_to_json
from scorer.rules.transcript import score_log


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "domino-scorer"


def autosave_path() -> Path:
    return data_dir() / "sessions" / "current.jsonl"


class Autosave:
    """Every applied event, with its time; corrections (undo) rewrite the file."""

    def __init__(self, path: Path, header: MatchHeader) -> None:
        self.path = path
        self.header = header
        self.events: list[tuple[Event, float]] = []

    def write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lines = [dumps(header_to_json(self.header))]
        lines += [dumps({**event_to_json(e), "t": round(t, 2)}) for e, t in self.events]
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def add(self, event: Event, t: float) -> None:
        self.events.append((event, t))
        self.write()

    def truncate(self, count: int) -> None:
        del self.events[count:]
        self.write()

    def finish(self, archive: Path) -> None:
        """A finished match moves to the archive (the club database reads it from there)."""
        archive.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            os.replace(self.path, archive)


def resume(path: Path) -> tuple[MatchHeader, Match, list[tuple[Event, float]]]:
    """The unfinished match in ``path``: a damaged log is a clear error, never a crash."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScorerError(f"{path}: the saved match cannot be read: {exc}") from None
    header, steps = score_log(text.splitlines())
    match = header.new_match()
    events: list[tuple[Event, float]] = []
    lines = [json.loads(line) for line in text.splitlines()[1:] if line.strip()]
    for step, data in zip(steps, lines):
        match = step.after
        events.append((step.event, float(data.get("t", 0.0))))
    return header, match, events
