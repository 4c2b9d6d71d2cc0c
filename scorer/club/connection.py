"""Opening the club's database: SQLite by default, any SQLAlchemy URL (a shared PostgreSQL server) by configuration.

Many processes open and write it at once (every table of a club evening, imports, merges):

- SQLite runs in WAL mode with a busy timeout, and every write transaction starts with
  ``BEGIN IMMEDIATE`` (writers queue instead of failing on a lock upgrade); a PostgreSQL transaction
  that meets a deadlock or serialization failure is retried;
- migrations run once, under a lock (SQLite: the write lock; PostgreSQL: ``pg_advisory_xact_lock``);
- a damaged SQLite file (``PRAGMA integrity_check`` fails) is refused with what to do.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Callable, TypeVar
from urllib.parse import quote

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, DBAPIError, OperationalError, SQLAlchemyError

from scorer.errors import ClubError, ClubUnavailable

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
HEAD = "0004"
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


def _shown(url: str) -> str:
    """The URL as told in a message: its password hidden (a message is shown on the table's screen)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


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
        raise ClubError(f"{_shown(url)}: not a database file or URL (a path, sqlite:///FILE or postgresql+psycopg://USER@HOST/DB)") from None
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
    raise ClubError(f"{_shown(url)}: the club keeps its database in SQLite or PostgreSQL, not {backend}")


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


def unreachable(exc: BaseException) -> bool:
    if isinstance(exc, OperationalError) and getattr(exc, "connection_invalidated", False):
        return True
    message = str(getattr(exc, "orig", None) or exc).lower()
    return any(s in message for s in ("connection refused", "could not connect", "connection failed", "server closed",
                                       "terminating connection", "timeout expired", "no such host", "unable to open database",
                                       "connection is closed", "the database system is", "consuming input failed"))


def in_transaction(engine: Engine, work: Callable[[Connection], T], what: str, *, write: bool = True) -> T:
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
                raise ClubUnavailable(f"{what}: the database stayed locked ({first_line(exc)}); nothing was written") from None
            if unreachable(exc):
                raise ClubUnavailable(f"{what}: cannot reach the database: {first_line(exc)}") from None
            raise ClubError(f"{what}: the database refused it (nothing was written): {first_line(exc)}") from None
        except SQLAlchemyError as exc:
            raise ClubError(f"{what}: the database refused it (nothing was written): {first_line(exc)}") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _revision(connection: Connection) -> tuple[set[str], str | None]:
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" not in tables:
        return tables, None
    return tables, connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _check_revision(url: str, tables: set[str], revision: str | None) -> None:
    if tables and revision is None:
        raise ClubError(f"{_shown(url)}: this database belongs to something else (tables {', '.join(sorted(tables)[:5])}); not touching it")
    known = {p.stem.split("_")[0] for p in (MIGRATIONS / "versions").glob("0*.py")}
    if revision is not None and revision not in known:
        raise ClubError(f"{_shown(url)}: made by a newer version of the scorer (schema {revision}); update the scorer to use it")


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

    in_transaction(engine, upgrade, f"{_shown(url)}: creating or upgrading the tables")


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
        f"`sqlite3 '{where}.damaged' .recover` may save matches whose logs are lost. The players' renames and merges "
        f"are the club's own, not in the logs: make them again (`club players`), or merge in a copy that has them."
    )


def _open(url: str, *, readonly: bool, create: bool) -> Engine:
    path = _sqlite_path(url) if url.startswith("sqlite") else None
    if not create and file_missing(url):
        raise ClubError(f"{path}: no such database file (`club import LOG...` makes one, and so does "
                        f"`club serve --new` for a board before any table has played)")
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
                raise ClubError(f"{_shown(url)}: not a club database (it has no club tables)")
        else:
            migrate(engine, url)
    except ClubError:
        engine.dispose()
        raise
    except OperationalError as exc:
        engine.dispose()
        if "file is not a database" in str(exc.orig):
            raise ClubError(f"{_shown(url)}: not a club database (damaged, or another kind of file): {first_line(exc)}") from None
        raise ClubUnavailable(f"{_shown(url)}: cannot reach the database: {first_line(exc)}") from None
    except DatabaseError as exc:
        engine.dispose()
        raise ClubError(f"{_shown(url)}: not a club database (damaged, or another kind of file): {first_line(exc)}") from None
    except SQLAlchemyError as exc:
        engine.dispose()
        raise ClubError(f"{_shown(url)}: cannot open the database: {first_line(exc)}") from None
    return engine


def open_database(target: str | None = None) -> Engine:
    """Open (and create or upgrade) the club database; a foreign or damaged file is refused."""
    return _open(_url(target or default_url()), readonly=False, create=True)


def open_existing(target: str) -> Engine:
    """Open (and upgrade) a club database that is already there; a path to no file is refused, not made empty
    (a name mistyped would show an empty board)."""
    return _open(_url(target), readonly=False, create=False)


def file_missing(target: str) -> bool:
    """Whether ``target`` names a SQLite file that is not there (a database server's URL never is)."""
    url = _url(target)
    path = _sqlite_path(url) if url.startswith("sqlite") else None
    return path is not None and not path.is_file()


def open_readonly(target: str) -> Engine:
    """Open another club database only to read it: nothing is made, migrated or written (a merge's source)."""
    return _open(_url(target), readonly=True, create=False)
