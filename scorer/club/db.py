"""The club's memory: SQLite by default, any SQLAlchemy URL (a shared PostgreSQL server) by configuration.

The session logs stay the source of truth; the database is built from them and can always be rebuilt.

Many writers at once (every table of a club evening, imports, merges) are safe:

- a match is keyed by its log's ``id`` (a uuid given when the session file is made) or, for a log
  without one, by its content's hash; it is written with an idempotent upsert, one transaction per
  match, so two writers of the same match neither fail nor double it, and a growing log (a live
  table) replaces the shorter one it extends;
- SQLite runs in WAL mode with a busy timeout, and every write transaction starts with
  ``BEGIN IMMEDIATE`` (writers queue instead of failing on a lock upgrade); PostgreSQL upserts with
  ``ON CONFLICT``, inserts players in one order (no deadlock), and a transaction that still meets a
  deadlock or serialization failure is retried;
- migrations run once, under a lock (SQLite: the write lock; PostgreSQL: ``pg_advisory_xact_lock``);
- a damaged SQLite file (``PRAGMA integrity_check`` fails) is refused with what to do.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
import os
import random
import re
import sqlite3
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, TypeVar
from urllib.parse import quote

from sqlalchemy import create_engine, delete, event, func, inspect, select, text, update
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, DBAPIError, OperationalError, SQLAlchemyError

from scorer.club.schema import matches, moves, players, round_results, seats
from scorer.club.view import view_of
from scorer.errors import ClubError, ClubUnavailable
from scorer.rules import PlayOutcome, RoundOutcome
from scorer.rules.log import LineError, MatchHeader, event_to_json
from scorer.rules.transcript import LogReading, Step, read_log

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
HEAD = "0002"
MAX_NAME = 100  # characters in a player's or a table's name, on every backend (the columns' size)
BUSY_TIMEOUT_S = 30.0  # how long a SQLite writer waits for another's transaction
_RETRIES = 8
_MIGRATION_LOCK = 0x5C0_12E_C1B  # pg_advisory_xact_lock key of the club's migrations
_WRITE = "club_write"  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)

T = TypeVar("T")


def default_url() -> str:
    env = os.environ.get("SCORER_CLUB_DB")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    path = Path(base) / "domino-scorer" / "club.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def _url(target: str) -> str:
    return target if "://" in target else f"sqlite:///{Path(target).expanduser().resolve()}"


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


# -- names ----------------------------------------------------------------------------------------


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's or table's name in the club (on any backend), or None."""
    if not name or not name.strip():
        return "an empty name"
    if len(name) > MAX_NAME:
        return f"{len(name)} characters long (the club keeps names of up to {MAX_NAME})"
    for ch in name:
        category = unicodedata.category(ch)
        if category == "Cc":
            return f"it holds the control character U+{ord(ch):04X}"
        if category == "Cs":
            return f"it holds a lone surrogate U+{ord(ch):04X} (not a character UTF-8 can store)"
    return None


def check_name(name: str, what: str = "name") -> str:
    """``name`` if the club can keep it, else a :class:`ClubError` saying why."""
    problem = name_problem(name)
    if problem:
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ClubError(f"the {what} {shown!r} cannot go into the club database: {problem}")
    return name


# -- opening --------------------------------------------------------------------------------------


def _sqlite_events(engine: Engine, readonly: bool) -> None:
    """Every SQLite connection: a busy timeout, foreign keys, WAL; transactions begun by us."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:  # pragma: no cover - trivial
        dbapi_connection.isolation_level = None  # no implicit BEGINs: SQLAlchemy's begin event emits ours
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if not readonly:
            _wal(cursor)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        write = connection.get_execution_options().get(_WRITE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write and not readonly else "BEGIN")


def _wal(cursor) -> None:
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02 + random.random() * 0.05)


def _sqlite_path(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _make_engine(url: str, *, readonly: bool = False) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ClubError(f"{url}: not a database file or URL (a path, sqlite:///FILE or postgresql+psycopg://USER@HOST/DB)") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = _sqlite_path(url)
        if readonly and path is not None:
            # Read only, and nothing made beside it: where no -wal file shows a writer at work (or one that
            # stopped short), the file is opened as immutable, so SQLite makes no -wal or -shm file either.
            wal = path.with_name(path.name + "-wal")
            uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("" if wal.exists() else "&immutable=1")
            engine = create_engine(
                "sqlite://",
                creator=lambda: sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, check_same_thread=False),
            )
        else:
            engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})
        _sqlite_events(engine, readonly)
        return engine
    if backend == "postgresql":
        args = {"connect_timeout": 10} if parsed.get_driver_name() in ("psycopg", "psycopg2") and "connect_timeout" not in parsed.query else {}
        options = {"postgresql_readonly": True} if readonly else {}
        engine = create_engine(url, pool_pre_ping=True, connect_args=args, execution_options=options)
        return engine
    raise ClubError(f"{url}: the club keeps its database in SQLite or PostgreSQL, not {backend}")


def _writer(engine: Engine) -> Engine:
    return engine.execution_options(**{_WRITE: True})


def _transient(exc: BaseException) -> bool:
    """A lock, deadlock or serialization conflict: the same transaction again will do."""
    orig = getattr(exc, "orig", None)
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state in ("40001", "40P01", "55P03", "23505"):
        return True
    message = str(orig or exc).lower()
    return "database is locked" in message or "database is busy" in message or "database table is locked" in message


def _unreachable(exc: BaseException) -> bool:
    if isinstance(exc, OperationalError) and getattr(exc, "connection_invalidated", False):
        return True
    message = str(getattr(exc, "orig", None) or exc).lower()
    return any(s in message for s in ("connection refused", "could not connect", "connection failed", "server closed",
                                       "terminating connection", "timeout expired", "no such host", "unable to open database",
                                       "connection is closed", "the database system is", "consuming input failed"))


def _in_transaction(engine: Engine, work: Callable[[Connection], T], what: str, *, write: bool = True) -> T:
    """Run ``work`` in one transaction; locks and conflicts are retried, an unreachable server is
    :class:`ClubUnavailable`, anything else a :class:`ClubError` (the transaction rolled back)."""
    target = _writer(engine) if write else engine
    for attempt in range(_RETRIES):
        try:
            with target.begin() as connection:
                return work(connection)
        except ClubError:
            raise
        except DBAPIError as exc:
            if _transient(exc) and attempt < _RETRIES - 1:
                time.sleep(min(2.0, 0.05 * 2**attempt) * (0.5 + random.random()))
                continue
            if _transient(exc):
                raise ClubUnavailable(f"{what}: the database stayed locked ({_first_line(exc)}); nothing was written") from None
            if _unreachable(exc):
                raise ClubUnavailable(f"{what}: cannot reach the database: {_first_line(exc)}") from None
            raise ClubError(f"{what}: the database refused it (nothing was written): {_first_line(exc)}") from None
        except SQLAlchemyError as exc:
            raise ClubError(f"{what}: the database refused it (nothing was written): {_first_line(exc)}") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _revision(connection: Connection) -> tuple[set[str], str | None]:
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" not in tables:
        return tables, None
    return tables, connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _check_revision(url: str, tables: set[str], revision: str | None) -> None:
    if tables and revision is None:
        raise ClubError(f"{url}: this database belongs to something else (tables {', '.join(sorted(tables)[:5])}); not touching it")
    known = {p.stem.split("_")[0] for p in (MIGRATIONS / "versions").glob("0*.py")}
    if revision is not None and revision not in known:
        raise ClubError(f"{url}: made by a newer version of the scorer (schema {revision}); update the scorer to use it")


def migrate(engine: Engine, url: str = "the club database") -> None:
    """Bring the schema to the head revision, once, whatever number of processes start together."""
    from alembic import command
    from alembic.config import Config

    with engine.connect() as connection:  # most opens: already there, no lock taken
        tables, revision = _revision(connection)
    _check_revision(url, tables, revision)
    if revision == HEAD:
        return

    def upgrade(connection: Connection) -> None:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        tables, revision = _revision(connection)  # again, under the lock: another may have done it
        _check_revision(url, tables, revision)
        if revision == HEAD:
            return
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    _in_transaction(engine, upgrade, f"{url}: creating or upgrading the tables")


def integrity_problem(engine: Engine) -> str | None:
    """SQLite's own check of every page and index; None where the file is sound (or not SQLite)."""
    if not _is_sqlite(engine):
        return None
    with engine.connect() as connection:
        rows = [r[0] for r in connection.exec_driver_sql("PRAGMA integrity_check(20)")]
    if rows == ["ok"]:
        return None
    return "; ".join(str(r) for r in rows[:3]) + (f" (and {len(rows) - 3} more)" if len(rows) > 3 else "")


def _damaged(url: str, problem: str) -> ClubError:
    path = _sqlite_path(url)
    where = str(path) if path else url
    return ClubError(
        f"{where}: the club database is damaged (SQLite's integrity check: {problem}). Nothing was read from it or "
        f"written to it. The session logs are the source of truth: move the file aside (mv '{where}' '{where}.damaged', "
        f"with its -wal and -shm files) and import the logs again (scorer club --db '{where}' import "
        f"~/.local/share/domino-scorer/sessions/*.jsonl), or merge another table's copy into a new file. "
        f"`sqlite3 '{where}.damaged' .recover` may save matches whose logs are lost."
    )


def _open(url: str, *, readonly: bool, create: bool) -> Engine:
    path = _sqlite_path(url) if url.startswith("sqlite") else None
    if path is not None and not create and not path.is_file():
        raise ClubError(f"{path}: no such database file")
    if path is not None and create and not path.parent.is_dir():
        raise ClubUnavailable(f"{path}: its folder {path.parent} does not exist")
    engine = _make_engine(url, readonly=readonly)
    try:
        problem = integrity_problem(engine)
        if problem:
            raise _damaged(url, problem)
        if readonly:
            with engine.connect() as connection:
                tables, revision = _revision(connection)
            _check_revision(url, tables, revision)
            if revision is None:
                raise ClubError(f"{url}: not a club database (it has no club tables)")
        else:
            migrate(engine, url)
    except ClubError:
        engine.dispose()
        raise
    except OperationalError as exc:
        engine.dispose()
        if "file is not a database" in str(exc.orig):
            raise ClubError(f"{url}: not a club database (damaged, or another kind of file): {_first_line(exc)}") from None
        raise ClubUnavailable(f"{url}: cannot reach the database: {_first_line(exc)}") from None
    except DatabaseError as exc:
        engine.dispose()
        raise ClubError(f"{url}: not a club database (damaged, or another kind of file): {_first_line(exc)}") from None
    except SQLAlchemyError as exc:
        engine.dispose()
        raise ClubError(f"{url}: cannot open the database: {_first_line(exc)}") from None
    return engine


def open_database(target: str | None = None) -> Engine:
    """Open (and create or upgrade) the club database; a foreign or damaged file is refused."""
    return _open(_url(target or default_url()), readonly=False, create=True)


def open_readonly(target: str) -> Engine:
    """Open another club database only to read it: nothing is made, migrated or written (a merge's source)."""
    return _open(_url(target), readonly=True, create=False)


# -- reading a log --------------------------------------------------------------------------------


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


def _played_at(header: MatchHeader) -> dt.datetime | None:
    if not header.started:
        return None
    try:
        when = dt.datetime.fromisoformat(header.started)
    except ValueError:
        return None
    return when.astimezone().replace(tzinfo=None) if when.tzinfo else when


# -- writing --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """What one import did: ``state`` is new, updated (a longer log of a match already there),
    unchanged (the same log, or the database already holds a later one)."""

    match_id: str
    state: str
    players: tuple[str, ...]
    finished: bool
    lines: int = 0

    @property
    def new(self) -> bool:
        return self.state == "new"

    @property
    def written(self) -> bool:
        return self.state in ("new", "updated")


def _insert(connection: Connection, table):
    dialect = pg_dialect if connection.dialect.name == "postgresql" else sqlite_dialect
    return dialect.insert(table)


def _player_ids(connection: Connection, names: Iterable[str]) -> dict[str, int]:
    wanted = sorted(set(names))  # one order in every transaction: no deadlock between two tables
    connection.execute(_insert(connection, players).on_conflict_do_nothing(index_elements=["name"]), [{"name": n} for n in wanted])
    rows = connection.execute(select(players.c.name, players.c.id).where(players.c.name.in_(wanted)))
    return {name: int(pid) for name, pid in rows}


def _move_rows(parsed: ParsedLog, lines: set[int] | None = None) -> dict[int, dict]:
    """The moves table's rows of the steps in force (of ``lines`` only, where given)."""
    rows = {}
    for step in parsed.steps:
        if lines is not None and step.line not in lines:
            continue
        data = event_to_json(step.event)
        points = step.outcome.raw_points if isinstance(step.outcome, PlayOutcome) else 0
        rows[step.line] = dict(match_id=parsed.ident, line=step.line, round=step.after.round_no, type=data["type"],
                               player=getattr(step.event, "player", None), event=json.dumps(data, ensure_ascii=False),
                               points=points, t=step.t)
    return rows


def _write_children(connection: Connection, parsed: ParsedLog, fresh: bool) -> None:
    """Seats, rounds and moves of the match: moves only where they changed (a live match grows a line
    at a time); seats and rounds whole."""
    ident = parsed.ident
    final = parsed.final
    table = final.table
    if fresh:
        wanted = _move_rows(parsed)
    else:
        connection.execute(delete(seats).where(seats.c.match_id == ident))
        connection.execute(delete(round_results).where(round_results.c.match_id == ident))
        stored = {int(r[0]) for r in connection.execute(select(moves.c.line).where(moves.c.match_id == ident))}
        in_force = {step.line for step in parsed.steps}
        gone = sorted(stored - in_force)
        if gone:
            connection.execute(delete(moves).where(moves.c.match_id == ident, moves.c.line.in_(gone)))
        wanted = _move_rows(parsed, in_force - stored)
    if wanted:
        connection.execute(moves.insert(), [wanted[line] for line in sorted(wanted)])
    results = [dict(match_id=ident, round=s.outcome.round_no, blocked=s.outcome.blocked, finisher=s.outcome.finisher)
               for s in parsed.steps if isinstance(s.outcome, RoundOutcome)]
    if results:
        connection.execute(round_results.insert(), results)
    counts = {p: [0, 0] for p in parsed.header.players}
    for step in parsed.steps:
        if isinstance(step.outcome, PlayOutcome):
            counts[step.outcome.player][0] += 1
            counts[step.outcome.player][1] += final.rules.game_points(step.outcome.raw_points)
    ids = _player_ids(connection, table.players)
    scores = final.scores()
    winners = set(final.winners())
    shared = len(final.winning_sides) > 1
    rows = []
    for seat, name in enumerate(table.players):
        side = table.side_of(seat)
        against = max((scores[p] for p in table.players if table.side_of(table.seat(p)) != side), default=0)
        rows.append(dict(match_id=ident, seat=seat, player_id=ids[name], side=side, score=scores[name], against=against,
                         won=name in winners, shared=shared and name in winners, moves=counts[name][0],
                         move_points=counts[name][1]))
    connection.execute(seats.insert(), rows)


def _board(parsed: ParsedLog) -> str:
    return json.dumps(view_of(parsed.header, parsed.steps), ensure_ascii=False, separators=(",", ":"))


def _store(connection: Connection, parsed: ParsedLog, *, source: str, played_at: dt.datetime | None,
           table_name: str | None, replaces: str | None = None) -> Imported:
    """One match, upserted in the caller's transaction."""
    final = parsed.final
    now = dt.datetime.now()
    table_name = table_name or parsed.header.table
    if table_name is not None:
        check_name(table_name, "table's name")

    def result(state: str) -> Imported:
        return Imported(parsed.ident, state, parsed.header.players, final.is_over, parsed.lines)

    if replaces and replaces != parsed.ident:  # a log without an id, grown by a move: its old hash goes
        connection.execute(delete(matches).where(matches.c.id == replaces))
    lookup = select(matches.c.log).where(matches.c.id == parsed.ident).with_for_update()
    row = connection.execute(lookup).first()
    if row is None:
        values = dict(id=parsed.ident, game=parsed.header.game, partnership=parsed.header.partnership,
                      played_at=_played_at(parsed.header) or played_at or now, imported_at=now, updated_at=now,
                      table_name=table_name, finished=final.is_over, rounds=final.round_no, log=parsed.text,
                      lines=parsed.lines, started=parsed.header.started, board=_board(parsed))
        statement = _insert(connection, matches).values(**values).on_conflict_do_nothing(index_elements=["id"])
        if connection.execute(statement.returning(matches.c.id)).first() is not None:
            _write_children(connection, parsed, fresh=True)
            return result("new")
        row = connection.execute(lookup).first()  # another writer made it meanwhile (it is locked now)
        if row is None:  # pragma: no cover - made and deleted in between
            raise ClubUnavailable(f"{source}: the match changed under the import; try again")
    stored = row[0]
    if parsed.by_content or stored == parsed.text or stored.startswith(parsed.text):
        return result("unchanged")  # the same events, or the database already has a later state of this log
    if not parsed.text.startswith(stored):
        raise ClubError(f"{source}: the database holds a different log under this match's id ({parsed.ident}); "
                        f"not overwritten. Two logs share one id: give one of them a new id to keep both")
    connection.execute(update(matches).where(matches.c.id == parsed.ident).values(
        log=parsed.text, lines=parsed.lines, finished=final.is_over, rounds=final.round_no, updated_at=now, board=_board(parsed),
        **({"table_name": table_name} if table_name else {}),
    ))
    _write_children(connection, parsed, fresh=False)
    return result("updated")


def import_parsed(engine: Engine, parsed: ParsedLog, *, source: str = "log", played_at: dt.datetime | None = None,
                  table_name: str | None = None, replaces: str | None = None) -> Imported:
    return _in_transaction(engine, lambda c: _store(c, parsed, source=source, played_at=played_at, table_name=table_name,
                                                    replaces=replaces), source)


def import_log(engine: Engine, text: str, *, source: str = "log", played_at: dt.datetime | None = None,
               table_name: str | None = None, replaces: str | None = None) -> Imported:
    """Score the log with the rules engine and store the match whole, in one transaction, or nothing.

    Idempotent: the same log again changes nothing; a longer state of a log already there (same
    ``id``, the stored log a prefix of it) replaces it; ``replaces`` names a row this log supersedes
    (a live log without an id, keyed by its content's hash, that grew)."""
    known = _already_there(engine, text, source)
    if known is not None:
        return known
    return import_parsed(engine, parse_log(text, source), source=source, played_at=played_at,
                         table_name=table_name, replaces=replaces)


def _already_there(engine: Engine, text: str, source: str) -> Imported | None:
    """A log the database already holds (or a later state of it): known without scoring it again."""
    try:
        first = json.loads(text.split("\n", 1)[0])
    except ValueError:
        return None
    if not isinstance(first, dict) or first.get("type") != "match" or not isinstance(first.get("players"), list):
        return None
    ident = first.get("id")
    by_content = ident is None
    if by_content:
        ident = match_id(text)
    elif not isinstance(ident, str):
        return None
    try:
        with engine.connect() as connection:
            row = connection.execute(select(matches.c.log, matches.c.finished, matches.c.lines).where(matches.c.id == ident)).first()
    except DBAPIError as exc:
        if _unreachable(exc):
            raise ClubUnavailable(f"{source}: cannot reach the database: {_first_line(exc)}") from None
        raise ClubError(f"{source}: the database cannot be read: {_first_line(exc)}") from None
    if row is None or not (by_content or row.log == text or row.log.startswith(text)):
        return None
    return Imported(ident, "unchanged", tuple(str(p) for p in first["players"]), bool(row.finished), int(row.lines))


@dataclass
class ImportReport:
    """What ``club import`` did, file by file: every match written is in ``results``; a file refused
    is in ``refused`` with why; ``stopped`` says why the import ended early, if it did."""

    results: list[tuple[Path, Imported]]
    refused: list[tuple[Path, str]]
    stopped: str | None = None

    def count(self, state: str) -> int:
        return sum(1 for _, r in self.results if r.state == state)


def import_files(engine: Engine, paths: Iterable[Path], table_name: str | None = None) -> list[Imported]:
    """Import each file (each its own transaction); the first bad one raises, the ones before it stay."""
    out = []
    for path in paths:
        out.append(_import_file(engine, Path(path), table_name))
    return out


def _import_file(engine: Engine, path: Path, table_name: str | None) -> Imported:
    try:
        text_ = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ClubError(f"{path}: cannot read the log: {exc}") from None
    played = dt.datetime.fromtimestamp(path.stat().st_mtime)
    return import_log(engine, text_, source=str(path), played_at=played, table_name=table_name)


def import_report(engine: Engine, paths: Iterable[Path], table_name: str | None = None) -> ImportReport:
    """Import every file; a bad log is reported and the others go on; an unreachable database stops it."""
    report = ImportReport([], [])
    for path in paths:
        path = Path(path)
        try:
            report.results.append((path, _import_file(engine, path, table_name)))
        except ClubUnavailable as exc:
            report.stopped = str(exc)
            break
        except ClubError as exc:
            report.refused.append((path, str(exc)))
    return report


# -- merging --------------------------------------------------------------------------------------


@dataclass
class Merged:
    added: int
    updated: int
    present: int
    bad: list[str]  # the source's matches whose stored logs could not be read (left out, or refused whole)


def merge(engine: Engine, other: str, *, skip_bad: bool = False) -> Merged:
    """Bring in another club database: each of its matches re-imported from its stored log, all in one
    transaction. The source is only read (opened read-only; a missing file is an error, never made).
    A stored log the rules engine refuses stops the merge whole, naming every such match, unless
    ``skip_bad``: then the others are merged and the bad ones named."""
    source = open_readonly(other)
    try:
        with source.connect() as connection:
            rows = list(connection.execute(select(matches.c.id, matches.c.log, matches.c.played_at, matches.c.table_name)
                                           .order_by(matches.c.imported_at, matches.c.id)))
    except SQLAlchemyError as exc:
        raise ClubError(f"{other}: cannot read its matches: {_first_line(exc)}") from None
    finally:
        source.dispose()
    good, bad = [], []
    for ident, log, played_at, table_name in rows:
        try:
            good.append((parse_log(log, f"{other}: match {ident[:12]}"), played_at, table_name))
        except ClubError as exc:
            bad.append(str(exc))
    if bad and not skip_bad:
        raise ClubError(f"{other}: {len(bad)} of its {len(rows)} stored logs cannot be read; nothing was merged "
                        f"(merge with --skip-bad to bring in the other {len(good)}):\n  " + "\n  ".join(bad))

    def work(connection: Connection) -> Merged:
        done = Merged(0, 0, 0, bad)
        for parsed, played_at, table_name in good:
            state = _store(connection, parsed, source=other, played_at=played_at, table_name=table_name).state
            done.added += state == "new"
            done.updated += state == "updated"
            done.present += state == "unchanged"
        return done

    return _in_transaction(engine, work, f"merging {other}")


# -- reading the club -----------------------------------------------------------------------------


def player_names(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return [r[0] for r in connection.execute(select(players.c.name).order_by(players.c.name))]


@dataclass(frozen=True)
class Standing:
    player: str
    matches: int
    wins: int
    shared_wins: int
    points_for: int
    points_against: int
    moves: int
    move_points: int

    @property
    def points_per_move(self) -> float:
        return self.move_points / self.moves if self.moves else 0.0


def parse_since(value: str, today: dt.date | None = None) -> dt.date:
    """``today``, ``yesterday`` or an ISO date (2026-03-14); anything else a :class:`ClubError`."""
    today = today or dt.date.today()
    word = value.strip().lower()
    if word == "today":
        return today
    if word == "yesterday":
        return today - dt.timedelta(days=1)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
        try:
            return dt.date.fromisoformat(word)
        except ValueError as exc:
            raise ClubError(f"--since {value!r}: not a date ({exc})") from None
    raise ClubError(f"--since takes today, yesterday or a date like {today.isoformat()}, not {value!r}")


def _played(since: dt.datetime | dt.date | None):
    if since is None:
        return None
    start = since if isinstance(since, dt.datetime) else dt.datetime.combine(since, dt.time())
    return func.coalesce(matches.c.played_at, matches.c.imported_at) >= start


def standings(engine: Engine, since: dt.date | dt.datetime | None = None, game: str | None = None) -> list[Standing]:
    """Finished matches only (one being played counts when it ends). Wins first, then shared wins,
    then points difference."""
    query = (
        select(
            players.c.name,
            func.count(seats.c.match_id),
            func.sum(func.cast(seats.c.won & ~seats.c.shared, type_=seats.c.seat.type)),
            func.sum(func.cast(seats.c.shared, type_=seats.c.seat.type)),
            func.sum(seats.c.score),
            func.sum(seats.c.against),
            func.sum(seats.c.moves),
            func.sum(seats.c.move_points),
        )
        .select_from(seats.join(players, seats.c.player_id == players.c.id).join(matches, seats.c.match_id == matches.c.id))
        .where(matches.c.finished.is_(True))
        .group_by(players.c.name)
    )
    if game:
        query = query.where(matches.c.game == game)
    if since is not None:
        query = query.where(_played(since))
    with engine.connect() as connection:
        rows = [Standing(r[0], int(r[1]), int(r[2] or 0), int(r[3] or 0), int(r[4] or 0), int(r[5] or 0), int(r[6] or 0), int(r[7] or 0))
                for r in connection.execute(query)]
    return sorted(rows, key=lambda s: (-s.wins, -s.shared_wins, -(s.points_for - s.points_against), s.player))


def unfinished_count(engine: Engine, since: dt.date | dt.datetime | None = None, game: str | None = None) -> int:
    query = select(func.count()).select_from(matches).where(matches.c.finished.is_(False))
    if game:
        query = query.where(matches.c.game == game)
    if since is not None:
        query = query.where(_played(since))
    with engine.connect() as connection:
        return int(connection.execute(query).scalar() or 0)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A cell a spreadsheet shows as text: one starting with = + - @ (or tab, CR) gets a leading '."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def export_csv(engine: Engine, path: Path) -> int:
    """One row per player per match (unfinished ones too, marked by ``finished``)."""
    query = (
        select(matches.c.id, matches.c.game, matches.c.played_at, matches.c.table_name, matches.c.finished, seats.c.seat,
               players.c.name, seats.c.side, seats.c.score, seats.c.against, seats.c.won, seats.c.shared, seats.c.moves,
               seats.c.move_points)
        .select_from(seats.join(players, seats.c.player_id == players.c.id).join(matches, seats.c.match_id == matches.c.id))
        .order_by(matches.c.imported_at, matches.c.id, seats.c.seat)
    )
    with engine.connect() as connection, open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["match", "game", "played_at", "table", "finished", "seat", "player", "side", "score", "against",
                         "won", "shared", "moves", "move_points"])
        count = 0
        for row in connection.execute(query):
            writer.writerow([csv_cell(v) for v in row])
            count += 1
    return count


__all__ = [
    "ClubError", "ClubUnavailable", "ImportReport", "Imported", "MAX_NAME", "Merged", "ParsedLog", "Standing",
    "check_name", "count_lines", "csv_cell", "default_url", "export_csv", "import_files", "import_log", "import_parsed",
    "import_report", "integrity_problem", "match_id", "merge", "migrate", "name_problem", "open_database",
    "open_readonly", "parse_log", "parse_since", "player_names", "standings", "unfinished_count",
]
