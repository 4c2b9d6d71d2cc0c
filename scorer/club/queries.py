"""What the club asks of its database: the players, the standings, the matches as a spreadsheet."""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import and_, case, func, select
from sqlalchemy.engine import Engine

from scorer.club.schema import matches, players, seats
from scorer.errors import ClubError


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
    place: int = 0  # in the standings: players level on wins, shared wins and points difference share one

    @property
    def points_per_move(self) -> float:
        return self.move_points / self.moves if self.moves else 0.0


EVENING_STARTS = dt.time(6, 0)  # a club evening runs past midnight: the day turns at 06:00


def evening_start(now: dt.datetime) -> dt.datetime:
    """The start of the club evening ``now`` is in (local time): 06:00 today, or yesterday before 06:00 -- "tonight"
    wherever it is said (the board, ``club standings --since today``, the app's club window)."""
    day = now.date() if now.time() >= EVENING_STARTS else now.date() - dt.timedelta(days=1)
    return dt.datetime.combine(day, EVENING_STARTS)


def parse_since(value: str, now: dt.datetime | None = None) -> dt.datetime:
    """From when: ``today`` (the evening ``now`` is in, from 06:00, past midnight too), ``yesterday`` (the evening
    before) or an ISO date (2026-03-14: its evening, from 06:00); anything else a :class:`ClubError`."""
    tonight = evening_start(now or dt.datetime.now())
    word = value.strip().lower()
    if word == "today":
        return tonight
    if word == "yesterday":
        return tonight - dt.timedelta(days=1)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
        try:
            return dt.datetime.combine(dt.date.fromisoformat(word), EVENING_STARTS)
        except ValueError as exc:
            raise ClubError(f"--since {value!r}: not a date ({exc})") from None
    raise ClubError(f"--since takes today, yesterday or a date like {tonight.date().isoformat()}, not {value!r}")


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
    rows.sort(key=lambda s: (-s.wins, -s.shared_wins, -(s.points_for - s.points_against), s.player))
    placed: list[Standing] = []
    for k, row in enumerate(rows):
        level = placed and _level(placed[-1]) == _level(row)
        placed.append(replace(row, place=placed[-1].place if level else k + 1))
    return placed


def _level(s: Standing) -> tuple[int, int, int]:
    """What the standings rank by: wins, shared wins, points difference."""
    return s.wins, s.shared_wins, s.points_for - s.points_against


QUIET_MINUTES = 15  # a table that has not moved for this long is quiet: its match left, not being played


@dataclass(frozen=True)
class Unfinished:
    """The matches not finished: those a table is playing now, and those left unfinished (or only imported)."""

    playing: int
    left: int


def being_played(now: dt.datetime):
    """Written live by a table (opened there) and moved within :data:`QUIET_MINUTES` of ``now``, as a condition."""
    return and_(matches.c.finished.is_(False), matches.c.opened_at.is_not(None),
                matches.c.updated_at >= now - dt.timedelta(minutes=QUIET_MINUTES))


def unfinished(engine: Engine, since: dt.date | dt.datetime | None = None, game: str | None = None,
               now: dt.datetime | None = None) -> Unfinished:
    playing = func.coalesce(func.sum(case((being_played(now or dt.datetime.now()), 1), else_=0)), 0)
    query = select(func.count(), playing).select_from(matches).where(matches.c.finished.is_(False))
    if game:
        query = query.where(matches.c.game == game)
    if since is not None:
        query = query.where(_played(since))
    with engine.connect() as connection:
        total, live = connection.execute(query).one()
    return Unfinished(int(live or 0), int(total or 0) - int(live or 0))


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
            # (A time to the second: a file's time or the import's carries microseconds no one wants in a sheet.)
            writer.writerow([csv_cell(v.isoformat(sep=" ", timespec="seconds") if isinstance(v, dt.datetime) else v) for v in row])
            count += 1
    return count
