"""A live table: the match written into the club database move by move, without ever holding the game up.

    live = LiveTable(url_or_engine, "Table 3")
    session.listeners.append(live)      # after every line the session writes
    ...
    live.close()                        # at the end: a last try, then the worker stops

The listener only reads the session's text and hands it to a worker thread (a queue holding the
latest text of each match: moves that come faster than the database are coalesced). The worker
upserts the whole log (an idempotent import keyed by the log's ``id``), so a table that lost the
server needs no bookkeeping: the next write carries every move since. While the database cannot be
reached the table keeps scoring on its session log; the worker tries again on the next move and on
a retry timer, and ``behind`` says the club has not got everything yet.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable

from sqlalchemy.engine import Engine

from scorer.club.connection import open_database
from scorer.club.importing import import_parsed
from scorer.club.logs import count_lines, parse_log
from scorer.club.names import check_name
from scorer.errors import ClubError, ClubUnavailable
from scorer.rules.transcript import LogReading

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LiveStatus:
    """Where the club stands for this table: ``behind`` while some move is not in the database yet."""

    behind: bool
    written: int  # writes that reached the database
    pending: int  # matches waiting to be written
    error: str | None  # the last failure, None once caught up
    lines: int = 0  # lines of the last log written


class LiveTable:
    """Writes each match it is handed into the club database, off the caller's thread.

    ``target``: a database file, an SQLAlchemy URL (``postgresql+psycopg://...``), an open
    :class:`Engine`, or None for the default club database. ``table``: the table's name at the club
    evening (else the log's own ``table``). ``on_status`` is called (from the worker thread) whenever
    ``behind`` changes; a Qt app should emit a signal from it."""

    def __init__(self, target: str | Engine | None = None, table: str | None = None, *, retry_seconds: float = 5.0,
                 on_status: Callable[[LiveStatus], None] | None = None) -> None:
        if table is not None:
            check_name(table, "table's name")
        self.table = table
        self.retry_seconds = retry_seconds
        self.on_status = on_status
        self._target = target
        self._engine: Engine | None = target if isinstance(target, Engine) else None
        self._owns_engine = self._engine is None
        self._cond = threading.Condition()
        self._pending: dict[str, tuple[str, LogReading | None]] = {}  # match key -> the latest log not yet written
        self._ids: dict[str, str] = {}  # match key -> the id its last write was stored under
        self._busy = False
        self._kicked = False  # a move came in while a write was under way
        self._closing = False
        self._retry_at: float | None = None
        self._written = 0
        self._lines = 0
        self._error: str | None = None
        self._behind = False
        self._thread = threading.Thread(target=self._run, name=f"club-live-{table or 'table'}", daemon=True)
        self._thread.start()

    # -- the caller's side -------------------------------------------------------------------

    def __call__(self, session) -> None:
        """The session listener: never raises, never waits for the database."""
        try:
            text = session.text()
            key = str(getattr(session, "path", None) or id(session))
            # The session's own steps in force are the log's (it has just written it): not scored again.
            header, steps = getattr(session, "header", None), getattr(session, "steps", None)
            reading = None if header is None or steps is None else LogReading(header, tuple(steps), (), count_lines(text))
        except Exception as exc:  # a listener guard (it never raises into the session's writer): the next move will carry it
            log.warning("club: cannot read the session's log: %s", exc)
            return
        self.push(text, key, reading)

    def push(self, text: str, key: str = "log", reading: LogReading | None = None) -> None:
        """Queue ``text`` (a whole log; ``reading``: its steps in force, where the caller has them) to be
        written; a later push of the same key replaces it."""
        with self._cond:
            if self._closing:
                return
            self._pending[key] = (text, reading)
            self._retry_at = None  # a new move: try now, whatever the timer said
            self._kicked = self._busy
            self._cond.notify_all()

    @property
    def status(self) -> LiveStatus:
        with self._cond:
            return LiveStatus(self._behind or bool(self._pending) or self._busy, self._written, len(self._pending),
                              self._error, self._lines)

    @property
    def behind(self) -> bool:
        return self.status.behind

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything handed over is written (True), or a write failed / the time ran out (False)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                if self._retry_at is not None and not self._busy:
                    return False  # waiting for the server: not caught up
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
            return not self._behind

    def close(self, timeout: float = 5.0) -> bool:
        """One last try at what is pending (up to ``timeout`` s), then stop. True if nothing is left behind."""
        with self._cond:
            self._retry_at = None
            self._cond.notify_all()
        done = self.flush(timeout)
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout=max(0.1, timeout))
        if self._owns_engine and self._engine is not None and not self._thread.is_alive():
            self._engine.dispose()
        return done

    # -- the worker ---------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closing and (not self._pending or (self._retry_at is not None and time.monotonic() < self._retry_at)):
                    wait = None if self._retry_at is None else max(0.0, self._retry_at - time.monotonic())
                    self._cond.wait(wait)
                if self._closing:
                    return
                batch, self._pending = self._pending, {}
                self._busy = True
            failed: dict[str, tuple[str, LogReading | None]] = {}
            error = None
            for key, (text, reading) in batch.items():
                try:
                    self._write(key, text, reading)
                except ClubUnavailable as exc:
                    failed[key] = (text, reading)
                    error = str(exc)
                except ClubError as exc:  # this log cannot go in as it is (a bad line, a name too long): say so
                    error = str(exc)
                    log.warning("club: %s", exc)
                except Exception as exc:  # never let the worker die: treat it as the server's trouble
                    failed[key] = (text, reading)
                    error = f"{type(exc).__name__}: {exc}"
                    log.exception("club: writing the match failed")
            with self._cond:
                for key, item in failed.items():
                    self._pending.setdefault(key, item)  # a newer text pushed meanwhile wins
                self._busy = False
                was = self._behind
                self._behind = error is not None
                self._error = error
                # Failed: try again on the timer, or at once where a move came in meanwhile.
                self._retry_at = time.monotonic() + self.retry_seconds if failed and not self._kicked else None
                self._kicked = False
                status = LiveStatus(self._behind or bool(self._pending), self._written, len(self._pending), self._error, self._lines)
                self._cond.notify_all()
            if self.on_status is not None and (was != self._behind or error):
                try:
                    self.on_status(status)
                except Exception:  # the caller's callback must not stop the worker
                    log.exception("club: the status callback failed")

    def _write(self, key: str, text: str, reading: LogReading | None) -> None:
        if self._engine is None:
            try:
                self._engine = open_database(self._target if isinstance(self._target, str) else None)
            except ClubUnavailable:
                raise
            except ClubError as exc:
                if "damaged" in str(exc) or "belongs to something else" in str(exc) or "newer version" in str(exc):
                    raise  # the database itself is wrong: the log is fine, but retrying will not help
                raise ClubUnavailable(str(exc)) from None
        parsed = parse_log(text, key, reading)
        previous = self._ids.get(key)
        # (This table's first write of the match -- a match resumed, or the table's name changed: shown as played now.)
        result = import_parsed(self._engine, parsed, source=key, table_name=self.table,
                               replaces=previous if parsed.by_content else None, touch=previous is None)
        with self._cond:
            self._ids[key] = result.match_id
            self._written += 1
            self._lines = result.lines
