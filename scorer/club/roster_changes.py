"""The club's players changed by its organiser: a player renamed, a name mistyped at a table merged into its player,
a merge undone (a name separated), and another laptop's such decisions taken in by a database merge (the newer
decision on a name wins)."""

from __future__ import annotations

import datetime as dt
import json
import shlex
from dataclasses import dataclass
from typing import Iterable

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection, Engine

from scorer.club.connection import in_transaction
from scorer.club.names import check_name
from scorer.club.roster import (
    MERGED, RELEASED, RENAMED, SEPARATED, Alias, Known, find_player, insert, lock, player_ids, same_player, tidy,
)
from scorer.club.schema import aliases, matches, players, seats
from scorer.errors import ClubError, ScorerError
from scorer.rules.log import parse_header


@dataclass(frozen=True)
class PlayersMerged:
    name: str  # the name merged away (now the other player's other name), or separated again
    into: str  # the player it is, or was, another name of
    matches: int  # the matches moved


def _keep_alias(connection: Connection, name: str, pid: int | None, kind: str, since: dt.datetime | None = None,
                decided: dt.datetime | None = None) -> None:
    """``name`` kept as another name of player ``pid`` (None: separated), unless it is another player's already."""
    now = dt.datetime.now()
    values = dict(player_id=pid, kind=kind, since=since or now, decided=decided or now)
    there = connection.execute(select(aliases.c.player_id, aliases.c.kind).where(aliases.c.name == name)).first()
    if there is None:
        connection.execute(aliases.insert().values(name=name, **values))
    elif there.player_id is None or there.player_id == pid or there.kind == RELEASED:
        connection.execute(update(aliases).where(aliases.c.name == name).values(**values))


def _shared(connection: Connection, one: int, other: int) -> list:
    """The matches players ``one`` and ``other`` both played in: when and at which table, the first first."""
    both = (select(seats.c.match_id).where(seats.c.player_id == one)
            .intersect(select(seats.c.match_id).where(seats.c.player_id == other)).subquery())
    return list(connection.execute(select(matches.c.played_at, matches.c.table_name).where(matches.c.id.in_(select(both)))
                                   .order_by(matches.c.played_at)))


def _played_together(shared: list, one: str, other: str) -> str:
    when, table = shared[0]
    where = f"{when:%Y-%m-%d %H:%M}" if when else "a match"
    return f"{one!r} and {other!r} played in one match ({len(shared)} in all, the first {where}{f' at {table}' if table else ''})"


def rename_player(engine: Engine, old: str, new: str) -> str:
    """The player named ``old`` named ``new`` from now on, in every match; ``old`` stays the player's other name (a
    table typing it still scores for the player).  Refused where ``new`` is another player's: that is a merge."""
    new = check_name(tidy(new), "player's name")

    def work(connection: Connection) -> str:
        lock(connection)
        pid, kept = find_player(connection, old)
        if new == kept:
            raise ClubError(f"{kept!r} is the player's name already: nothing to change")
        known = Known(connection)
        hit = known.find(new)
        exact = next((p for p, n in known.players.items() if n == new and p != pid), None)
        if exact is not None or (hit is not None and hit[0] != pid):
            other = exact if exact is not None else hit[0]  # type: ignore[index]
            owner = known.players[other]
            whose = "another player's name" if exact is not None or hit[1] % 2 else f"another name of {owner!r}"  # type: ignore[index]
            if shared := _shared(connection, pid, other):
                raise ClubError(f"{new!r} is {whose} already, and {_played_together(shared, kept, owner)}: choose another name")
            raise ClubError(f"{new!r} is {whose} already: if {kept!r} and {owner!r} are one person, "
                            f"`club players merge {shlex.quote(kept)} {shlex.quote(owner)}` makes them one")
        connection.execute(update(players).where(players.c.id == pid).values(name=new))
        connection.execute(delete(aliases).where(aliases.c.name == new, aliases.c.player_id == pid))  # (its own name again)
        _keep_alias(connection, kept, pid, RENAMED)
        return new

    return in_transaction(engine, work, f"renaming {old!r}")


def merge_players(engine: Engine, name: str, into: str) -> PlayersMerged:
    """The player ``name`` found to be ``into`` (a name mistyped at a table, a nickname): every match of the one
    is the other's, and ``name`` stays ``into``'s other name.  Refused where the two played in one match."""

    def work(connection: Connection) -> PlayersMerged:
        lock(connection)
        target = find_player(connection, into)
        alias = Known(connection).alias(name)
        if alias is not None and alias.player_id == target[0] and alias.kind != RELEASED:
            raise ClubError(f"{name!r} is another name of {target[1]!r} already: nothing to merge")
        return _merged(connection, find_player(connection, name), target)

    return in_transaction(engine, work, f"merging {name!r} into {into!r}")


def _merged(connection: Connection, source: tuple[int, str], target: tuple[int, str], kind: str = MERGED,
            since: dt.datetime | None = None, decided: dt.datetime | None = None) -> PlayersMerged:
    (gone, gone_name), (kept, kept_name) = source, target
    if gone == kept:
        raise ClubError(f"{gone_name!r} and {kept_name!r} are one player already")
    if shared := _shared(connection, gone, kept):
        raise ClubError(f"{_played_together(shared, gone_name, kept_name)}: they are two people; to tell them apart, rename one")
    moved = connection.execute(update(seats).where(seats.c.player_id == gone).values(player_id=kept)).rowcount
    connection.execute(update(aliases).where(aliases.c.player_id == gone).values(player_id=kept))
    connection.execute(delete(players).where(players.c.id == gone))
    _keep_alias(connection, gone_name, kept, kind, since, decided)
    return PlayersMerged(gone_name, kept_name, int(moved))


def _typed_with(connection: Connection, alias: Alias) -> list[tuple[str, int]]:
    """The seats of ``alias``'s player that the match logs typed ``alias``'s name in: all of them for a name merged in,
    those of matches played since the rename for a rename's old name (before it, the name was the player's own)."""
    when = func.coalesce(matches.c.played_at, matches.c.imported_at)
    query = (select(seats.c.match_id, seats.c.seat, matches.c.log).join(matches, seats.c.match_id == matches.c.id)
             .where(seats.c.player_id == alias.player_id))
    if alias.kind == RENAMED:
        query = query.where(when >= alias.since)
    typed = []
    for mid, seat, log in connection.execute(query):
        try:
            name = parse_header(json.loads(log.split("\n", 1)[0])).players[seat]
        except (ValueError, IndexError, ScorerError) as exc:
            raise ClubError(f"match {mid[:12]}: its stored log cannot be read ({exc}); nothing was separated") from None
        if same_player(name) == same_player(alias.name):
            typed.append((mid, seat))
    return typed


def _separating(connection: Connection, name: str) -> tuple[Alias, str, list[tuple[str, int]]]:
    alias = Known(connection).alias(name)
    if alias is None or alias.player_id is None or alias.kind == RELEASED:
        find_player(connection, name)  # (separated already, or no such name: said so)
        raise ClubError(f"{name!r} is a player's own name, not another name of a player: to change it, rename the player")
    owner = connection.execute(select(players.c.name).where(players.c.id == alias.player_id)).scalar_one()
    return alias, owner, _typed_with(connection, alias)


def separable(engine: Engine, name: str) -> tuple[int, bool]:
    """How many matches :func:`separate_name` would give ``name`` back, and whether it is a rename's old name (only the
    matches since the rename)."""
    with engine.connect() as connection:
        alias, _, typed = _separating(connection, name)
        return len(typed), alias.kind == RENAMED


def separate_name(engine: Engine, name: str) -> PlayersMerged:
    """A player's other name ``name`` found not to be the player after all (a merge undone, a rename's old name taken by
    someone new): the matches a table typed it in (since the rename, for a rename's old name) are a player ``name``'s
    again, as the logs have it, and so is the name from now on."""

    def work(connection: Connection) -> PlayersMerged:
        lock(connection)
        return _separated(connection, *_separating(connection, name))

    return in_transaction(engine, work, f"separating {name!r}")


def _separated(connection: Connection, alias: Alias, owner: str, typed: list[tuple[str, int]],
               decided: dt.datetime | None = None) -> PlayersMerged:
    renamed = alias.kind == RENAMED  # (a rename's old name stays the player's in the matches played before it)
    connection.execute(update(aliases).where(aliases.c.name == alias.name).values(
        kind=RELEASED if renamed else SEPARATED, player_id=alias.player_id if renamed else None, decided=decided or dt.datetime.now()))
    if typed:
        connection.execute(insert(connection, players).on_conflict_do_nothing(index_elements=["name"]), [{"name": alias.name}])
        own = connection.execute(select(players.c.id).where(players.c.name == alias.name)).scalar_one()
        for mid, seat in typed:
            connection.execute(update(seats).where(seats.c.match_id == mid, seats.c.seat == seat).values(player_id=own))
    return PlayersMerged(alias.name, owner, len(typed))


@dataclass(frozen=True)
class Decision:
    """Another database's decision on a name: whose other name it is (``player`` None: separated there), how, when."""

    name: str
    player: str | None
    kind: str
    since: dt.datetime
    decided: dt.datetime


@dataclass(frozen=True)
class NamesTaken:
    taken: list[str]  # another database's decisions taken in, one line each
    left: list[str]  # those left as they are here, and why


def adopt_decisions(connection: Connection, decisions: Iterable[Decision]) -> NamesTaken:
    """Another database's decisions on its players' names, taken in where newer than this one's on the same name: a
    name merged there merged here (a player of that name here made that player's), a rename there made here, a merge
    or a rename undone there undone here.  Left, and said, where they cannot be: the name another player's here, or
    the two players in one match here."""
    lock(connection)
    done = NamesTaken([], [])
    for there in sorted(decisions, key=lambda d: d.decided):
        here = Known(connection).alias(there.name)
        if here is not None and here.decided >= there.decided:
            continue  # (this database decided it since: its decision stands)
        if there.player is None or there.kind == RELEASED:
            if here is not None and here.kind in (MERGED, RENAMED):
                alias, owner, typed = _separating(connection, here.name)
                moved = _separated(connection, alias, owner, typed, there.decided).matches
                done.taken.append(f"{there.name!r} is not {owner!r} any more, as there: {_count(moved)} moved")
            elif here is None:  # (kept as there: its matches, merged next, seat as there; a merge later knows it)
                found = None if there.player is None else Known(connection).find(there.player)
                pid = None if there.player is None else found[0] if found else player_ids(connection, [there.player])[there.player]
                _keep_alias(connection, there.name, pid, there.kind, there.since, there.decided)
            continue
        _adopt_merge(connection, there, done)
    return done


def _adopt_merge(connection: Connection, there: Decision, done: NamesTaken) -> None:
    known = Known(connection)
    assert there.player is not None
    hit, target = known.find(there.name), known.find(there.player)
    target_id = target[0] if target else None
    if hit is not None and hit[0] == target_id:
        if there.kind == RENAMED and known.players[hit[0]] != there.player and there.player not in known.players.values():
            connection.execute(update(players).where(players.c.id == hit[0]).values(name=there.player))  # (a letter case renamed)
            done.taken.append(f"{known.players[hit[0]]!r} is {there.player!r}, as there")
        _keep_alias(connection, there.name, hit[0], there.kind, there.since, there.decided)
        return
    if hit is not None and hit[1] in (0, 2):  # (another name here, of another player)
        done.left.append(f"{there.name!r} is {there.player!r} there but {known.players[hit[0]]!r} here: left as it is")
        return
    if hit is not None and target_id is not None and (shared := _shared(connection, hit[0], target_id)):
        done.left.append(f"{there.name!r} is {there.player!r} there, not here: {_played_together(shared, there.name, there.player)}")
        return
    pid = target_id if target_id is not None else player_ids(connection, [there.player])[there.player]
    target_name = known.players.get(pid, there.player)
    if hit is None:
        _keep_alias(connection, there.name, pid, there.kind, there.since, there.decided)
        done.taken.append(f"{there.name!r} is {target_name!r}, as there")
    else:
        moved = _merged(connection, (hit[0], known.players[hit[0]]), (pid, target_name), there.kind, there.since, there.decided).matches
        done.taken.append(f"{there.name!r} is {target_name!r}, as there: {_count(moved)} moved")


def _count(matches_moved: int) -> str:
    return f"{matches_moved} match{'' if matches_moved == 1 else 'es'}"
