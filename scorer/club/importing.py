"""Storing matches: a log imported, a folder of logs, another club database merged.

The session logs stay the source of truth; the database is built from them and can always be rebuilt.
A match is keyed by its log's ``id`` (a uuid given when the session file is made) or, for a log
without one, by its content's hash; it is written with an idempotent upsert, one transaction per
match, so two writers of the same match neither fail nor double it, and a growing log (a live
table) replaces the shorter one it extends. PostgreSQL upserts with ``ON CONFLICT`` and players are
inserted in one order (no deadlock between two tables).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from sqlalchemy import delete, func, inspect, literal, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from scorer.club.connection import first_line, in_transaction, open_readonly, unreachable
from scorer.club.logs import ParsedLog, count_lines, match_id, parse_log
from scorer.club.names import check_name
from scorer.club.roster import insert, player_ids
from scorer.club.roster_changes import Decision, adopt_decisions
from scorer.club.schema import aliases, matches, moves, players, round_results, seats
from scorer.club.view import view_of
from scorer.errors import ClubError, ClubUnavailable, ScorerError
from scorer.rules import PlayOutcome, RoundOutcome
from scorer.rules.log import MatchHeader, event_to_json, parse_header


def _played_at(header: MatchHeader) -> dt.datetime | None:
    if not header.started:
        return None
    try:
        when = dt.datetime.fromisoformat(header.started)
    except ValueError:
        return None
    return when.astimezone().replace(tzinfo=None) if when.tzinfo else when



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


def _seated(connection: Connection, ident: str) -> dict[int, int]:
    """Each seat's player in a match stored (the names it was stored with, as the club took them then)."""
    return {int(seat): int(pid) for seat, pid in connection.execute(select(seats.c.seat, seats.c.player_id).where(seats.c.match_id == ident))}


def _write_children(connection: Connection, parsed: ParsedLog, fresh: bool, at: dt.datetime | None,
                    kept: dict[int, int] | None = None) -> None:
    """Seats, rounds and moves of the match: moves only where they changed (a live match grows a line
    at a time); seats and rounds whole, each seat's player as the match was first stored with (``kept``, or
    as stored): a match growing is no new look at who its names are -- a rename, merge or separation moves them."""
    ident = parsed.ident
    final = parsed.final
    table = final.table
    if fresh:
        wanted = _move_rows(parsed)
    else:
        kept = _seated(connection, ident)
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
    kept = kept or {}
    unseated = [n for seat, n in enumerate(table.players) if seat not in kept]
    ids = player_ids(connection, unseated, at) if unseated else {}  # (a live match's next move: no names to look up)
    scores = final.scores()
    winners = set(final.winners())
    shared = len(final.winning_sides) > 1
    rows = []
    for seat, name in enumerate(table.players):
        side = table.side_of(seat)
        against = max((scores[p] for p in table.players if table.side_of(table.seat(p)) != side), default=0)
        rows.append(dict(match_id=ident, seat=seat, player_id=kept.get(seat) or ids[name], side=side, score=scores[name], against=against,
                         won=name in winners, shared=shared and name in winners, moves=counts[name][0],
                         move_points=counts[name][1]))
    connection.execute(seats.insert(), rows)


def _board(parsed: ParsedLog) -> str:
    return json.dumps(view_of(parsed.header, parsed.steps), ensure_ascii=False, separators=(",", ":"))


def _store(connection: Connection, parsed: ParsedLog, *, source: str, played_at: dt.datetime | None,
           table_name: str | None, replaces: str | None = None, touch: bool = False) -> Imported:
    """One match, upserted in the caller's transaction.  ``touch``: a live table's first write of it (made, resumed,
    or the table renamed): it is at it now, though its log may be as stored -- the match is marked opened and
    changed now, under the table's name.  (Only a live table touches: an import or a merge of a file leaves the
    times and names of a match a table is playing alone.)"""
    final = parsed.final
    now = dt.datetime.now()
    table_name = table_name or parsed.header.table
    if table_name is not None:
        check_name(table_name, "table's name")

    def result(state: str) -> Imported:
        return Imported(parsed.ident, state, parsed.header.players, final.is_over, parsed.lines)

    if replaces is None and parsed.by_content:  # (looked for in this transaction: two imports of it at once find one)
        replaces = _grown_from(connection, parsed, table_name)
    earlier, kept = None, None
    if replaces and replaces != parsed.ident:  # a log without an id, grown by a move: its old hash goes, its table and times stay
        earlier = connection.execute(select(matches.c.table_name, matches.c.played_at, matches.c.imported_at, matches.c.opened_at)
                                     .where(matches.c.id == replaces).with_for_update()).first()
        kept = _seated(connection, replaces)
        connection.execute(delete(matches).where(matches.c.id == replaces))
        if earlier is not None:
            table_name = table_name or earlier.table_name
    lookup = select(matches.c.log, matches.c.played_at).where(matches.c.id == parsed.ident).with_for_update()
    row = connection.execute(lookup).first()
    if row is None:
        values = dict(id=parsed.ident, game=parsed.header.game, partnership=parsed.header.partnership,
                      played_at=_played_at(parsed.header) or (earlier.played_at if earlier else played_at) or now,
                      imported_at=earlier.imported_at if earlier else now, updated_at=now,
                      opened_at=now if touch else earlier.opened_at if earlier else None,
                      table_name=table_name, finished=final.is_over, rounds=final.round_no, log=parsed.text,
                      lines=parsed.lines, started=parsed.header.started, board=_board(parsed))
        statement = insert(connection, matches).values(**values).on_conflict_do_nothing(index_elements=["id"])
        if connection.execute(statement.returning(matches.c.id)).first() is not None:
            _write_children(connection, parsed, True, values["played_at"], kept)
            return result("new" if earlier is None else "updated")
        row = connection.execute(lookup).first()  # another writer made it meanwhile (it is locked now)
        if row is None:  # pragma: no cover - made and deleted in between
            raise ClubUnavailable(f"{source}: the match changed under the import; try again")
    stored = row[0]
    if parsed.by_content or stored == parsed.text or stored.startswith(parsed.text):
        # The same events, or the database already has a later state of this log; a table renamed or resumed
        # is shown where it is, as playing now.
        if touch:
            connection.execute(update(matches).where(matches.c.id == parsed.ident).values(
                updated_at=now, opened_at=now, **({"table_name": table_name} if table_name else {})))
        return result("unchanged")
    if not parsed.text.startswith(stored):
        raise ClubError(f"{source}: the database holds a different log under this match's id ({parsed.ident}); "
                        f"not overwritten. Two logs share one id: give one of them a new id to keep both")
    connection.execute(update(matches).where(matches.c.id == parsed.ident).values(
        log=parsed.text, lines=parsed.lines, finished=final.is_over, rounds=final.round_no, updated_at=now, board=_board(parsed),
        **({"table_name": table_name} if table_name else {}), **({"opened_at": now} if touch else {}),
    ))
    _write_children(connection, parsed, False, row.played_at)
    return result("updated")


def import_parsed(engine: Engine, parsed: ParsedLog, *, source: str = "log", played_at: dt.datetime | None = None,
                  table_name: str | None = None, replaces: str | None = None, touch: bool = False) -> Imported:
    return in_transaction(engine, lambda c: _store(c, parsed, source=source, played_at=played_at, table_name=table_name,
                                                    replaces=replaces, touch=touch), source)


def import_log(engine: Engine, text: str, *, source: str = "log", played_at: dt.datetime | None = None,
               table_name: str | None = None, replaces: str | None = None) -> Imported:
    """Score the log with the rules engine and store the match whole, in one transaction, or nothing.

    Idempotent: the same log again changes nothing; a longer state of a log already there (same
    ``id``, the stored log a prefix of it; or, without an id, a stored log of SAME_MATCH_LINES or more its
    start) replaces it; ``replaces`` names a row this log supersedes (a live log without an id, keyed by its
    content's hash, that grew)."""
    known = _already_there(engine, text, source)
    if known is not None:
        return known
    return import_parsed(engine, parse_log(text, source), source=source, played_at=played_at, table_name=table_name,
                         replaces=replaces)


def _stored_logs(engine: Engine, source: str, *conditions) -> list:
    """The stored matches' ids, logs, states and line counts where ``conditions`` hold."""
    try:
        with engine.connect() as connection:
            return list(connection.execute(select(matches.c.id, matches.c.log, matches.c.finished, matches.c.lines).where(*conditions)))
    except DBAPIError as exc:
        if unreachable(exc):
            raise ClubUnavailable(f"{source}: cannot reach the database: {first_line(exc)}") from None
        raise ClubError(f"{source}: the database cannot be read: {first_line(exc)}") from None


# A log without an id has no identity but its text: one that begins with a stored log is taken for that match
# further played only where the stored log holds this many lines (a header and 20 events) -- different matches
# often open alike (simulated ones share their first lines), but not for twenty moves.
SAME_MATCH_LINES = 21


def _grown_from(connection: Connection, parsed: ParsedLog, table_name: str | None) -> str | None:
    """The stored match this log without an id goes on from (its log, at least SAME_MATCH_LINES long, the start of
    this one; at the same table, where one is named): the same match, further played, which it replaces."""
    starts_this = func.substr(literal(parsed.text), 1, func.length(matches.c.log)) == matches.c.log
    at_table = [] if table_name is None else [or_(matches.c.table_name.is_(None), matches.c.table_name == table_name)]
    query = (select(matches.c.id).where(matches.c.game == parsed.header.game, matches.c.lines < parsed.lines,
                                        matches.c.lines >= SAME_MATCH_LINES, starts_this, *at_table)
             .order_by(matches.c.lines.desc()).limit(1))
    return connection.execute(query).scalar()


def _already_there(engine: Engine, text: str, source: str) -> Imported | None:
    """A log the database already holds (or a later state of it): known without scoring it again."""
    try:
        text.encode("utf-8")  # (text no database can hold: the reading says what is wrong with it)
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
    row = next(iter(_stored_logs(engine, source, matches.c.id == ident)), None)
    if row is None and by_content:  # (a log without an id whose later state the database holds)
        lines = count_lines(text)
        row = next(iter(_stored_logs(engine, source, matches.c.game == first.get("game"), matches.c.lines > lines,
                                     func.substr(matches.c.log, 1, len(text)) == text)), None) if lines >= SAME_MATCH_LINES else None
        ident = row.id if row is not None else ident
    elif row is not None and not (by_content or row.log == text or row.log.startswith(text)):
        row = None
    if row is None:
        return None
    return Imported(ident, "unchanged", tuple(str(p) for p in first["players"]), bool(row.finished), int(row.lines))


@dataclass
class ImportReport:
    """What ``club import`` did, file by file: every match written is in ``results``; a file refused
    is in ``refused`` with why; the bundled demo's matches, no club's, in ``demos``; ``stopped`` says why
    the import ended early, if it did."""

    results: list[tuple[Path, Imported]]
    refused: list[tuple[Path, str]]
    stopped: str | None = None
    demos: list[Path] = field(default_factory=list)

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
    if _is_cribbage(text_):
        raise ClubError(f"{path}: a cribbage game: the club keeps the domino matches (Horse Race, Seven Rocks) only")
    played = dt.datetime.fromtimestamp(path.stat().st_mtime)
    return import_log(engine, text_, source=str(path), played_at=played, table_name=table_name)


def _is_cribbage(text: str) -> bool:
    """Whether ``text`` is a cribbage game's file (its first line names its format so: scorer.cribbage.store,
    which the club does not read)."""
    try:
        first = json.loads(text.split("\n", 1)[0])
    except ValueError:
        return False
    return isinstance(first, dict) and "cribbage" in str(first.get("format", ""))


def _is_demo(path: Path) -> bool:
    """Whether the log is of the bundled demo (its match line's source), which the app saves as any match."""
    try:
        with path.open(encoding="utf-8") as f:
            first = json.loads(f.readline())
        return isinstance(first, dict) and parse_header(first).is_demo
    except (OSError, UnicodeDecodeError, ValueError, ScorerError):
        return False  # (the import says what is wrong with it)


def import_report(engine: Engine, paths: Iterable[Path], table_name: str | None = None) -> ImportReport:
    """Import every file; a bad log is reported and the others go on; an unreachable database stops it."""
    report = ImportReport([], [])
    for path in paths:
        path = Path(path)
        if _is_demo(path):
            report.demos.append(path)
            continue
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
    names_taken: list[str] = field(default_factory=list)  # the source's decisions on its players' names taken in
    names_left: list[str] = field(default_factory=list)  # ... and those left, and why


def _decisions(connection: Connection) -> list[Decision]:
    """A database's decisions on its players' names; none in one made before there were any."""
    if not inspect(connection).has_table("aliases"):
        return []
    rows = connection.execute(select(aliases.c.name, players.c.name, aliases.c.kind, aliases.c.since, aliases.c.decided)
                              .join(players, aliases.c.player_id == players.c.id, isouter=True))
    return [Decision(*row) for row in rows]


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
            decisions = _decisions(connection)
    except SQLAlchemyError as exc:
        raise ClubError(f"{other}: cannot read its matches: {first_line(exc)}") from None
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
        names = adopt_decisions(connection, decisions)  # (first: its matches then seat as there)
        done = Merged(0, 0, 0, bad, names.taken, names.left)
        for parsed, played_at, table_name in good:
            state = _store(connection, parsed, source=other, played_at=played_at, table_name=table_name).state
            done.added += state == "new"
            done.updated += state == "updated"
            done.present += state == "unchanged"
        return done

    return in_transaction(engine, work, f"merging {other}")
