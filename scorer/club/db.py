"""The club's memory: SQLite by default, any SQLAlchemy URL (a shared PostgreSQL server) by configuration.

The session logs stay the source of truth; the database is built from them and can
always be rebuilt.  Every import is one transaction: a bad log changes nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from sqlalchemy import create_engine, func, inspect, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DatabaseError, OperationalError, SQLAlchemyError

from scorer.club.schema import matches, moves, players, round_results, seats
from scorer.errors import ScorerError
from scorer.rules import PlayOutcome, RoundOutcome
from scorer.rules.log import LineError, event_to_json
from scorer.rules.transcript import score_log

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class ClubError(ScorerError):
    """The club database cannot be opened, or an import cannot be made."""


def default_url() -> str:
    env = os.environ.get("SCORER_CLUB_DB")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    path = Path(base) / "domino-scorer" / "club.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def _url(target: str) -> str:
    return target if "://" in target else f"sqlite:///{Path(target).resolve()}"


def migrate(engine: Engine) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def open_database(target: str | None = None) -> Engine:
    """Open (and create or upgrade) the club database; a foreign or damaged file is refused."""
    url = _url(target or default_url())
    try:
        engine = create_engine(url, future=True)
        with engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
        if tables and "alembic_version" not in tables:
            raise ClubError(f"{url}: this database belongs to something else (tables {', '.join(sorted(tables)[:5])}); not touching it")
        migrate(engine)
    except ClubError:
        raise
    except OperationalError as exc:
        raise ClubError(f"{url}: cannot reach the database: {str(exc.orig).strip().splitlines()[0] if exc.orig else exc}") from None
    except DatabaseError as exc:
        raise ClubError(f"{url}: not a club database (damaged, or another kind of file): {str(exc.orig).strip() if exc.orig else exc}") from None
    return engine


def match_id(text: str) -> str:
    """The match's identity: its events, without timestamps and comments, hashed."""
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


@dataclass(frozen=True)
class Imported:
    match_id: str
    new: bool
    players: tuple[str, ...]
    finished: bool


def _player_id(connection: Connection, name: str) -> int:
    found = connection.execute(select(players.c.id).where(players.c.name == name)).scalar()
    if found is not None:
        return int(found)
    return int(connection.execute(players.insert().values(name=name)).inserted_primary_key[0])


def import_log(engine: Engine, text: str, *, source: str = "log", played_at: dt.datetime | None = None,
               table_name: str | None = None) -> Imported:
    """Score the log with the rules engine and store the match whole, or nothing."""
    ident = match_id(text)
    try:
        with engine.connect() as connection:
            known = connection.execute(select(matches.c.id, matches.c.finished).where(matches.c.id == ident)).first()
    except SQLAlchemyError as exc:
        raise ClubError(f"{source}: the database cannot be read: {exc}") from None
    try:
        header, steps_iter = score_log(text.split("\n"))
        steps = list(steps_iter) if known is None else []
    except LineError as exc:
        raise ClubError(f"{source}:{exc.number}: {exc.message}") from None
    if known is not None:
        return Imported(ident, False, header.players, bool(known[1]))
    final = steps[-1].after if steps else header.new_match()
    table = final.table
    try:
        with engine.begin() as connection:
            if connection.execute(select(matches.c.id).where(matches.c.id == ident)).first():
                return Imported(ident, False, header.players, final.is_over)
            connection.execute(matches.insert().values(
                id=ident, game=header.game, partnership=header.partnership, played_at=played_at,
                imported_at=dt.datetime.now(), table_name=table_name, finished=final.is_over,
                rounds=final.round_no, log=text,
            ))
            counts = {p: [0, 0] for p in header.players}
            rows = []
            for step in steps:
                data = event_to_json(step.event)
                points = 0
                player = getattr(step.event, "player", None)
                if isinstance(step.outcome, PlayOutcome):
                    points = step.outcome.raw_points
                    counts[step.outcome.player][0] += 1
                    counts[step.outcome.player][1] += final.rules.game_points(points)
                if isinstance(step.outcome, RoundOutcome):
                    connection.execute(round_results.insert().values(
                        match_id=ident, round=step.outcome.round_no, blocked=step.outcome.blocked, finisher=step.outcome.finisher,
                    ))
                rows.append(dict(match_id=ident, line=step.line, round=step.after.round_no, type=data["type"], player=player,
                                 event=json.dumps(data, ensure_ascii=False), points=points, t=step.t))
            if rows:
                connection.execute(moves.insert(), rows)
            scores = final.scores()
            winners = set(final.winners())
            shared = len(final.winning_sides) > 1
            for seat, name in enumerate(table.players):
                side = table.side_of(seat)
                against = max((scores[p] for p in table.players if table.side_of(table.seat(p)) != side), default=0)
                connection.execute(seats.insert().values(
                    match_id=ident, seat=seat, player_id=_player_id(connection, name), side=side, score=scores[name],
                    against=against, won=name in winners, shared=shared and name in winners,
                    moves=counts[name][0], move_points=counts[name][1],
                ))
    except SQLAlchemyError as exc:
        raise ClubError(f"{source}: the database refused the import (nothing was written): {exc}") from None
    return Imported(ident, True, header.players, final.is_over)


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


def standings(engine: Engine, since: dt.date | None = None, game: str | None = None) -> list[Standing]:
    """Wins first, then shared wins, then points difference."""
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
        .group_by(players.c.name)
    )
    if game:
        query = query.where(matches.c.game == game)
    if since:
        when = func.coalesce(matches.c.played_at, matches.c.imported_at)
        query = query.where(when >= dt.datetime.combine(since, dt.time()))
    with engine.connect() as connection:
        rows = [Standing(r[0], int(r[1]), int(r[2] or 0), int(r[3] or 0), int(r[4] or 0), int(r[5] or 0), int(r[6] or 0), int(r[7] or 0))
                for r in connection.execute(query)]
    return sorted(rows, key=lambda s: (-s.wins, -s.shared_wins, -(s.points_for - s.points_against), s.player))


def export_csv(engine: Engine, path: Path) -> int:
    """One row per player per match."""
    query = (
        select(matches.c.id, matches.c.game, matches.c.played_at, matches.c.table_name, seats.c.seat, players.c.name,
               seats.c.side, seats.c.score, seats.c.against, seats.c.won, seats.c.shared, seats.c.moves, seats.c.move_points)
        .select_from(seats.join(players, seats.c.player_id == players.c.id).join(matches, seats.c.match_id == matches.c.id))
        .order_by(matches.c.imported_at, matches.c.id, seats.c.seat)
    )
    with engine.connect() as connection, open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["match", "game", "played_at", "table", "seat", "player", "side", "score", "against", "won", "shared", "moves", "move_points"])
        count = 0
        for row in connection.execute(query):
            writer.writerow(list(row))
            count += 1
    return count


def merge(engine: Engine, other: str) -> tuple[int, int]:
    """Bring in another table's database: each of its matches is re-imported from its log (no duplicates)."""
    source = open_database(other)
    with source.connect() as connection:
        rows = list(connection.execute(select(matches.c.log, matches.c.played_at, matches.c.table_name)))
    added = 0
    for log, played_at, table_name in rows:
        added += import_log(engine, log, source=other, played_at=played_at, table_name=table_name).new
    return added, len(rows) - added


def import_files(engine: Engine, paths: Iterable[Path], table_name: str | None = None) -> list[Imported]:
    out = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ClubError(f"{path}: cannot read the log: {exc}") from None
        played = dt.datetime.fromtimestamp(path.stat().st_mtime)
        out.append(import_log(engine, text, source=str(path), played_at=played, table_name=table_name))
    return out
