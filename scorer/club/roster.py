"""The club's players by name: who a name typed at a table is, a player renamed, two players found to be one.

A player's other names (a name merged into the player, the name before a rename) are kept in ``aliases``:
a table typing one again scores for the player, and an import or a merge rebuilds the same standings.
"""

from __future__ import annotations

import difflib
import json
import shlex
from dataclasses import dataclass
from typing import Iterable

from sqlalchemy import delete, select, text, update
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine

from scorer.club.connection import in_transaction
from scorer.club.names import check_name
from scorer.club.schema import aliases, matches, players, seats
from scorer.errors import ClubError
from scorer.rules.log import parse_header

_NAMES_LOCK = 0x5C0_12E_7A3  # pg_advisory_xact_lock key of finding, making, renaming or merging players


def insert(connection: Connection, table):
    """An INSERT that can be told what to do on a conflict, in the connection's dialect."""
    dialect = pg_dialect if connection.dialect.name == "postgresql" else sqlite_dialect
    return dialect.insert(table)


def same_player(name: str) -> str:
    """What two names of one player share: the words, in any letter case (casefold: in Python, not SQL, whose lower()
    on SQLite leaves Å and Ö as they are)."""
    return " ".join(name.split()).casefold()


def tidy(name: str) -> str:
    """A name as the club keeps it: its words, one space between them."""
    return " ".join(name.split())


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":  # (two tables naming "ann" and "Ann" at once: one after the other)
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _NAMES_LOCK})


def _known(connection: Connection) -> dict[str, int]:
    """Each known name (as :func:`same_player` has it) and its player: the players' own names, the one kept first,
    then their other names."""
    known: dict[str, int] = {}
    for name, pid in connection.execute(select(players.c.name, players.c.id).order_by(players.c.id)):
        known.setdefault(same_player(name), int(pid))
    for name, pid in connection.execute(select(aliases.c.name, aliases.c.player_id).order_by(aliases.c.name)):
        known.setdefault(same_player(name), int(pid))
    return known


def player_ids(connection: Connection, names: Iterable[str]) -> dict[str, int]:
    """Each name's player in the club.  A name that differs from a known player's, or from one of the player's
    other names, only in letter case or in spaces (around or between its words) is that player: "ann" or "Ben "
    typed at one table is not a new player for good.  Two names of one match are never made one player: such
    names are kept as they are."""
    given = sorted(set(names))
    _lock(connection)
    known = _known(connection)
    found = {n: known.get(same_player(n)) for n in given}
    taken = [pid for pid in found.values() if pid is not None]
    as_typed = len(set(taken)) < len(taken) or len({same_player(n) for n in given}) < len(given)
    if as_typed:
        found = {n: None for n in given}
    new = {n: (n if as_typed else tidy(n)) for n, pid in found.items() if pid is None}
    if new:
        wanted = sorted(set(new.values()))  # one order in every transaction: no deadlock between two tables
        connection.execute(insert(connection, players).on_conflict_do_nothing(index_elements=["name"]), [{"name": n} for n in wanted])
        rows = connection.execute(select(players.c.name, players.c.id).where(players.c.name.in_(wanted)))
        made = {name: int(pid) for name, pid in rows}
        found.update({n: made[name] for n, name in new.items()})
    return {n: int(pid) for n, pid in found.items() if pid is not None}


def _player(connection: Connection, name: str) -> tuple[int, str]:
    """The player called ``name`` (in any letter case and spacing), by id and name as kept; else why not."""
    rows = list(connection.execute(select(players.c.id, players.c.name).order_by(players.c.id)))
    for pid, kept in rows:
        if same_player(kept) == same_player(name):
            return int(pid), kept
    for alias, pid in connection.execute(select(aliases.c.name, aliases.c.player_id)):
        if same_player(alias) == same_player(name):
            kept = next(k for p, k in rows if p == pid)
            raise ClubError(f"{name!r} is another name of {kept!r} (merged or renamed): name the player as {kept!r}")
    close = difflib.get_close_matches(name, [k for _, k in rows], n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else " (`club players` lists them)"
    raise ClubError(f"no player named {name!r} in the club{hint}")


def other_names(engine: Engine) -> dict[str, list[str]]:
    """Each player's other names (merged into the player, or before a rename), by the player's name."""
    with engine.connect() as connection:
        rows = connection.execute(select(players.c.name, aliases.c.name).join(aliases, aliases.c.player_id == players.c.id)
                                  .order_by(players.c.name, aliases.c.name))
        found: dict[str, list[str]] = {}
        for name, alias in rows:
            found.setdefault(name, []).append(alias)
        return found


def player_of(engine: Engine, name: str) -> str | None:
    """The player a table typing ``name`` scores for (its own name or another of theirs), or None for a new one."""
    with engine.connect() as connection:
        pid = _known(connection).get(same_player(name))
        return None if pid is None else connection.execute(select(players.c.name).where(players.c.id == pid)).scalar_one()


def matches_of(engine: Engine, name: str) -> int:
    """How many matches the player ``name`` played in, finished or not."""
    with engine.connect() as connection:
        pid = _player(connection, name)[0]
        return len(list(connection.execute(select(seats.c.match_id).where(seats.c.player_id == pid))))


def matches_together(engine: Engine, name: str, other: str) -> int:
    """How many matches the players ``name`` and ``other`` both played in (two people, never to be merged)."""
    with engine.connect() as connection:
        return len(_shared(connection, _player(connection, name)[0], _player(connection, other)[0]))


def _shared(connection: Connection, one: int, other: int) -> list:
    """The matches players ``one`` and ``other`` both played in: when and at which table, the first first."""
    both = (select(seats.c.match_id).where(seats.c.player_id == one)
            .intersect(select(seats.c.match_id).where(seats.c.player_id == other)).subquery())
    return list(connection.execute(select(matches.c.played_at, matches.c.table_name).where(matches.c.id.in_(select(both)))
                                   .order_by(matches.c.played_at)))


def _keep_alias(connection: Connection, name: str, pid: int) -> None:
    """``name`` kept as another name of player ``pid`` (taking it over from whoever had it)."""
    connection.execute(delete(aliases).where(aliases.c.name == name))
    connection.execute(aliases.insert().values(name=name, player_id=pid))


def rename_player(engine: Engine, old: str, new: str) -> str:
    """The player named ``old`` named ``new`` from now on, in every match; ``old`` stays the player's other name
    (a table typing it still scores for the player).  Refused where ``new`` is another player's: that is a merge."""
    new = tidy(check_name(new, "player's name"))

    def work(connection: Connection) -> str:
        _lock(connection)
        pid, kept = _player(connection, old)
        other = _known(connection).get(same_player(new))
        if other is not None and other != pid:
            owner = connection.execute(select(players.c.name).where(players.c.id == other)).scalar_one()
            whose = "another player's name" if same_player(owner) == same_player(new) else f"another name of {owner!r}"
            raise ClubError(f"{new!r} is {whose} already: if {kept!r} and {owner!r} are one person, "
                            f"`club players merge {shlex.quote(kept)} {shlex.quote(owner)}` makes them one")
        if new == kept:
            return kept
        connection.execute(update(players).where(players.c.id == pid).values(name=new))
        for (alias,) in list(connection.execute(select(aliases.c.name).where(aliases.c.player_id == pid))):
            if same_player(alias) == same_player(new):  # (the name is the player's own again)
                connection.execute(delete(aliases).where(aliases.c.name == alias))
        if same_player(kept) != same_player(new):
            _keep_alias(connection, kept, pid)
        return new

    return in_transaction(engine, work, f"renaming {old!r}")


@dataclass(frozen=True)
class PlayersMerged:
    name: str  # the name merged away (now the other player's other name), or separated again
    into: str  # the player it is, or was, another name of
    matches: int  # the matches moved


def merge_players(engine: Engine, name: str, into: str) -> PlayersMerged:
    """The player ``name`` found to be ``into`` (a name mistyped at a table, a nickname): every match of the one
    is the other's, and ``name`` stays ``into``'s other name.  Refused where the two played in one match."""

    def work(connection: Connection) -> PlayersMerged:
        _lock(connection)
        target = _player(connection, into)
        if _known(connection).get(same_player(name)) == target[0] and same_player(name) != same_player(target[1]):
            raise ClubError(f"{name!r} is another name of {target[1]!r} already: nothing to merge")
        return _merged(connection, _player(connection, name), target)

    return in_transaction(engine, work, f"merging {name!r} into {into!r}")


def _merged(connection: Connection, source: tuple[int, str], target: tuple[int, str]) -> PlayersMerged:
    (gone, gone_name), (kept, kept_name) = source, target
    if gone == kept:
        raise ClubError(f"{gone_name!r} and {kept_name!r} are one player already")
    shared = _shared(connection, gone, kept)
    if shared:
        when, table = shared[0]
        where = f"{when:%Y-%m-%d %H:%M}" if when else "a match"
        raise ClubError(f"{gone_name!r} and {kept_name!r} played in one match ({len(shared)} in all, the first {where}"
                        f"{f' at {table}' if table else ''}): they are two people; to tell them apart, rename one")
    moved = connection.execute(update(seats).where(seats.c.player_id == gone).values(player_id=kept)).rowcount
    connection.execute(update(aliases).where(aliases.c.player_id == gone).values(player_id=kept))
    connection.execute(delete(players).where(players.c.id == gone))
    _keep_alias(connection, gone_name, kept)
    return PlayersMerged(gone_name, kept_name, int(moved))


def separate_name(engine: Engine, name: str) -> PlayersMerged:
    """A player's other name ``name`` found not to be the player after all (a merge undone, a rename's old name
    taken by someone else): the matches a table typed it in are a player ``name``'s again, as the logs have it."""

    def work(connection: Connection) -> PlayersMerged:
        _lock(connection)
        alias, pid = _alias(connection, name)
        connection.execute(delete(aliases).where(aliases.c.name == alias))
        owner = connection.execute(select(players.c.name).where(players.c.id == pid)).scalar_one()
        typed = [(mid, seat) for mid, seat, log in connection.execute(
            select(seats.c.match_id, seats.c.seat, matches.c.log).join(matches, seats.c.match_id == matches.c.id)
            .where(seats.c.player_id == pid)) if same_player(parse_header(json.loads(log.split("\n", 1)[0])).players[seat]) == same_player(alias)]
        if typed:
            separate = player_ids(connection, [alias])[alias]
            for mid, seat in typed:
                connection.execute(update(seats).where(seats.c.match_id == mid, seats.c.seat == seat).values(player_id=separate))
        return PlayersMerged(alias, owner, len(typed))

    return in_transaction(engine, work, f"separating {name!r}")


def _alias(connection: Connection, name: str) -> tuple[str, int]:
    """The other name ``name`` (in any letter case and spacing) as kept, and whose it is; else why not."""
    for alias, pid in connection.execute(select(aliases.c.name, aliases.c.player_id).order_by(aliases.c.name)):
        if same_player(alias) == same_player(name):
            return alias, int(pid)
    _player(connection, name)  # (no player of that name either: said so)
    raise ClubError(f"{name!r} is a player's own name, not another name of a player: to change it, rename the player")


def adopt_other_names(connection: Connection, names: Iterable[tuple[str, str]]) -> list[str]:
    """Another database's other names (``(name, player)`` pairs) taken in where they tell something new: a name
    known here as a player of its own is merged into that player; one here another player's, or one whose two
    players played together, is left as it is.  What was left, and why, one line each."""
    _lock(connection)
    left = []
    for alias, owner in names:
        known = _known(connection)
        here, target = known.get(same_player(alias)), known.get(same_player(owner))
        if target is None:
            target = player_ids(connection, [owner])[owner]
        if here == target:
            continue
        if here is None:
            _keep_alias(connection, alias, target)
            continue
        source = connection.execute(select(players.c.id, players.c.name).where(players.c.id == here)).one()
        target_name = connection.execute(select(players.c.name).where(players.c.id == target)).scalar_one()
        if same_player(source.name) != same_player(alias):
            left.append(f"{alias!r} is {target_name!r} there but {source.name!r} here: left as it is")
            continue
        try:
            _merged(connection, (int(source.id), source.name), (target, target_name))
        except ClubError as exc:
            left.append(f"{alias!r} is {target_name!r} there, not merged here: {exc}")
    return left
