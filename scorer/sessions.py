"""The session store: every match its own append-only log file, written once and read back always.

One writer (:class:`Session`) and one reader (:func:`read_session`) for the app, ``record``,
``replay --out`` and the club.  Each line is flushed and fsynced as it is written; a file is made
exclusively (a new match never touches an old one) and its folder fsynced.  A torn or damaged tail
is cut off when the file is opened again, the cut bytes kept beside it in ``NAME.damaged``.  Undo is
an ``undo`` line, so the file only grows (docs/session-log.md).
"""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, Iterable

from scorer.errors import SessionError as SessionError  # (defined in the one tree; imported from here too)
from scorer.logfile import HeldLog, beside, cannot_open as cannot_open, fsync_folder, hold
from scorer.rules.history import MatchHistory
from scorer.rules.log import LineError, MatchHeader, decode, dumps, header_to_json, split
from scorer.rules.transcript import LogReading, read_log
from scorer.words import Words, os_reason

SUFFIX = ".jsonl"


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "domino-scorer"


def sessions_dir() -> Path:
    return data_dir() / "sessions"


def _slug(text: str, limit: int) -> str:
    """Letters and digits of any script, others dropped: safe in a file name on every system."""
    return re.sub(r"[^\w-]+", "", text.replace(" ", "-"), flags=re.UNICODE).strip("-_")[:limit]


def file_name(header: MatchHeader, started: datetime) -> str:
    """``2026-12-03_1402_horse-race_Ann-Ben-Cid``: found by date, time, game and players."""
    names = "-".join(filter(None, (_slug(p, 16) for p in header.players))) or "players"
    return f"{started:%Y-%m-%d_%H%M%S}_{header.game}_{names[:60]}"


# -- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionReading:
    """A session file as read: the log read to its end or its first bad line, and the bytes behind it."""

    path: Path
    log: LogReading
    size: int  # bytes in the file
    good_bytes: int  # bytes of the lines read whole (with their line ends)
    ends_torn: bool  # the last line has no line end (it was cut while written)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SessionError(f"{path}: cannot read the log: {exc.strerror or exc}") from None


def _texts(raw_lines: list[bytes]) -> Iterable[str]:
    for number, raw in enumerate(raw_lines, start=1):
        yield decode(number, raw)


def read_session(path: Path) -> SessionReading:
    """The match in ``path`` up to its first bad line; a file with no readable match line is an error
    (:class:`SessionError`, whose message names the file and line)."""
    return read_bytes(_read_bytes(path), path)


def read_bytes(data: bytes, path: Path) -> SessionReading:
    """A log's bytes read as :func:`read_session` reads a file (``path`` names it in messages)."""
    raw_lines = split(data)
    try:
        log = read_log(_texts(raw_lines))
    except LineError as exc:
        raise SessionError(f"{path}:{exc.number}: {exc.message}") from None
    good = len(data) if log.error is None else sum(len(raw) + 1 for raw in raw_lines[: log.error.number - 1])
    return SessionReading(path, log, len(data), good, bool(data) and not data.endswith(b"\n"))


# -- recovery -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Damage:
    """What a recovery cut off: from ``line`` to the end, ``cut_bytes`` bytes, kept in ``kept_in``."""

    path: Path
    line: int
    reason: str
    cut_bytes: int
    kept_in: Path
    events_kept: int

    def describe(self) -> str:
        return (f"{self.path.name}: line {self.line} could not be read ({self.reason}); from it to the end, "
                f"{self.cut_bytes} bytes were cut off and kept in {self.kept_in.name}. "
                + ("The 1 event before it is kept." if self.events_kept == 1 else f"The {self.events_kept} events before it are kept."))


def repair_alone(path: Path) -> Damage | None:
    """:func:`repair`, where no window or process has the match open (else SessionError): it would cut the line
    being written."""
    held = _hold(path)
    try:
        return repair(path)
    except OSError as exc:
        raise cannot_open(path, exc) from None
    finally:
        held.close()


def repair(path: Path) -> Damage | None:
    """Cut a torn or damaged tail off ``path`` (kept beside it); None where nothing needed cutting.

    A complete last line that lost only its line end gets it back."""
    reading = read_session(path)
    log = reading.log
    if log.error is None:
        if reading.ends_torn:
            with open(path, "ab") as f:
                f.write(b"\n")
                f.flush()
                os.fsync(f.fileno())
        return None
    data = _read_bytes(path)
    kept_in = beside(path, "damaged")
    with open(kept_in, "xb") as f:
        f.write(data[reading.good_bytes:])
        f.flush()
        os.fsync(f.fileno())
    with open(path, "r+b") as f:
        f.truncate(reading.good_bytes)
        f.flush()
        os.fsync(f.fileno())
    fsync_folder(path.parent)
    return Damage(path, log.error.number, log.error.message, len(data) - reading.good_bytes, kept_in, len(log.steps))


# -- writing ------------------------------------------------------------------------------------


BUSY = "{path}: this match is open in another window or process"


def _hold(path: Path) -> BinaryIO:
    """``path`` held to append to, locked: one writer per match."""
    return hold(path, BUSY)


class Session(MatchHistory):
    """The match being played, written to its file: every change is a line appended (and fsynced)
    before it counts; nothing else holds the match."""

    def __init__(self, path: Path, reading: LogReading, lines: int, held: BinaryIO | None = None) -> None:
        """``held``: the file, already opened and locked by :func:`_hold` (else it is opened here)."""
        super().__init__(reading)
        self.path = path
        self._lines = lines
        self._file = HeldLog(path, BUSY, held)

    @classmethod
    def create(cls, header: MatchHeader, folder: Path | None = None, now: datetime | None = None) -> Session:
        """A new file for a new match in ``folder`` (the user's sessions folder by default)."""
        folder = Path(folder) if folder is not None else sessions_dir()
        now = now or datetime.now().astimezone()
        header.new_match()  # a table the game cannot be played at makes no file
        header = replace(header, id=header.id or uuid.uuid4().hex, started=header.started or now.isoformat(timespec="seconds"))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise SessionError(Words("{folder}: cannot make the sessions folder: a file of that name is in the way",
                                     folder=folder)) from None
        except OSError as exc:
            raise SessionError(Words("{folder}: cannot make the sessions folder: {reason}", folder=folder,
                                     reason=os_reason(exc))) from None
        stem = file_name(header, now)
        line = (dumps(header_to_json(header)) + "\n").encode("utf-8")
        for n in range(1, 1000):
            path = folder / (stem + ("" if n == 1 else f"-{n}") + SUFFIX)
            try:
                with open(path, "xb") as f:
                    f.write(line)
                    f.flush()
                    os.fsync(f.fileno())
                break
            except FileExistsError:
                continue
            except OSError as exc:
                if path.exists():  # (made, but the match line could not be written: no empty match left behind)
                    path.unlink(missing_ok=True)
                raise SessionError(Words("{path}: cannot write the match: {reason}", path=path,
                                         reason=os_reason(exc))) from None
        else:
            raise SessionError(f"{folder}: a thousand matches named {stem}: cannot make another")
        fsync_folder(folder)
        return cls(path, LogReading(header, (), (), 1), 1)

    @classmethod
    def open(cls, path: Path) -> tuple[Session, Damage | None]:
        """A saved match to go on with: a damaged tail is cut off first (and said in the Damage)."""
        held = _hold(path)  # (held first: a tail is cut off only where no other window writes it)
        try:
            damage = repair(path)
            reading = read_session(path)
            lines = len(split(_read_bytes(path)))
        except OSError as exc:  # (a read-only disk)
            held.close()
            raise cannot_open(path, exc) from None
        except BaseException:  # (anything else: the lock let go, the error as it is)
            held.close()
            raise
        return cls(path, reading.log, lines, held), damage

    # -- the file -----------------------------------------------------------------------------

    def _write(self, data: dict[str, Any]) -> int:
        """Append one line; a line the disk refuses (full, gone) is cut off again, so the file ends in whole lines
        and the next line written follows the last one saved."""
        if self._file.closed and not self._file.lost:
            raise SessionError(f"{self.path}: the match is closed")
        try:
            self._file.append((dumps(data) + "\n").encode("utf-8"))
        except OSError as exc:
            raise SessionError(Words("{path}: cannot save the move: {reason}", path=self.path,
                                     reason=os_reason(exc))) from None
        self._lines += 1
        return self._lines

    def take_notes(self) -> list[str]:
        """What was done about the file that the players should know (another program replaced it, say), once."""
        return self._file.take_notes()

    def text(self) -> str:
        """The log's text as written so far, as this window holds it (for a club database that keeps the log)."""
        return self._file.data.decode("utf-8")

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- listing ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionSummary:
    path: Path
    header: MatchHeader | None
    started: str  # ISO date and time (the file's time where the log names none)
    events: int
    scores: dict[str, int]
    state: str  # playing, finished, recovered (a tail was cut), damaged (its tail is cut when opened again)
    problem: str | None = None
    written: float = 0.0  # when the file was last written (seconds since the epoch; 0 where unknown)
    bad_line: int = 0  # a damaged match's first line that cannot be read (0: none)

    @property
    def resumable(self) -> bool:
        """Whether the match can be gone on with: a match line read and the match not over (a damaged tail is
        cut off, and kept beside it, when it is opened)."""
        return self.header is not None and self.state in ("playing", "recovered", "damaged")

    @property
    def is_demo(self) -> bool:
        """Whether this is a match of the bundled demo (its match line names the demo as its source)."""
        return self.header is not None and self.header.is_demo

    @property
    def side_scores(self) -> str:
        """The scores by side: "Ann 9, Ben 5"; a partnership's once a pair: "Ann & Cid 55, Ben & Dee 10"."""
        if self.header is None:
            return ""
        table = self.header.new_match().table
        return ", ".join(f"{table.side_name(side)} {self.scores.get(table.players[table.seats_of(side)[0]], 0)}"
                         for side in range(table.n_sides))


def summarize(path: Path) -> SessionSummary:
    try:
        written = path.stat().st_mtime
        modified = datetime.fromtimestamp(written).astimezone().isoformat(timespec="seconds")
    except OSError:
        written, modified = 0.0, ""
    try:
        reading = read_session(path)
    except SessionError as exc:
        return SessionSummary(path, None, modified, 0, {}, "damaged", str(exc), written)
    log = reading.log
    match = log.match
    if match.is_over:
        state = "finished"
    elif log.error is not None:
        state = "damaged"
    elif path.with_name(path.name + ".damaged").exists():
        state = "recovered"
    else:
        state = "playing"
    problem = None if log.error is None else f"line {log.error.number}: {log.error.message}"
    return SessionSummary(path, log.header, log.header.started or modified, len(log.steps), match.scores(), state, problem,
                          written, 0 if log.error is None else log.error.number)


def list_sessions(folder: Path | None = None) -> list[SessionSummary]:
    """Every saved match in ``folder``, newest first."""
    folder = Path(folder) if folder is not None else sessions_dir()
    if not folder.is_dir():
        return []
    found = [summarize(p) for p in folder.glob("*" + SUFFIX) if p.is_file()]
    return sorted(found, key=lambda s: (_instant(s.started), s.path.name), reverse=True)


def _instant(started: str) -> float:
    try:
        return datetime.fromisoformat(started).timestamp()
    except ValueError:
        return 0.0


def find_session(key: str, folder: Path | None = None) -> Path:
    """A session by path, file name, the start of its name or of its match id, or its place in the
    list (1 the newest)."""
    path = Path(key)
    if path.is_file():
        return path
    sessions = list_sessions(folder)
    if key.isdigit() and 1 <= int(key) <= len(sessions):
        return sessions[int(key) - 1].path
    hits = [s.path for s in sessions
            if s.path.name.startswith(key) or (s.header is not None and (s.header.id or "").startswith(key))]
    if len(hits) == 1:
        return hits[0]
    where = folder or sessions_dir()
    if not hits:
        raise SessionError(f"no saved match is named {key!r} in {where} (`sessions` lists them)")
    raise SessionError(f"{key!r} names {len(hits)} saved matches in {where}: give more of the name")
