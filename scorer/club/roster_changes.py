"""The club's players changed by its organiser: a player renamed, a name mistyped at a table merged into its player,
a merge undone (a name separated), and another laptop's such decisions taken in by a database merge."""

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
from scorer.club.roster import MERGED, RENAMED, SEPARATED, Alias, Known, find_player, insert, lock, player_ids, same_player, tidy
from scorer.club.schema import aliases, matches, players, seats
from scorer.errors import ClubError, ScorerError
from scorer.rules.log import parse_header


@dataclass(frozen=True)
class PlayersMerged:
    name: str  # the name merged away (now the other player's other name), or separated again
    into: str  # the player it is, or was, another name of
    matches: int  # the matches moved


def _keep_alias(connection: Connection, name: str, pid: int | None, kind: str, since: dt.datetime | None = None) -> None:
    """``name`` kept as another name of player ``pid`` (None: separated), where it is no other player's already."""
    now = since or dt.datetime.now()
    there = connection.execute(select(aliases.c.player_id).where(aliases.c.name == name)).first()
    if there is None:
        connection.execute(aliases.insert().values(name=name, player_id=pid, kind=kind, since=now))
    elif there.player_id is None or there.player_id == pid or pid is None:
        connection.execute(update(aliases).where(aliases.c.name == name).values(player_id=pid, kind=kind, since=now))


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
    new = tidy(check_name(new, "player's name"))

    def work(connection: Connection) -> str:
        lock(connection)
        pid, kept = find_player(connection, old)
        if new == kept:
            raise ClubError(f"{kept!r} is the player's name already: nothing to change")
        known = Known(connection)
        hit = known.find(new)
        if hit is not None and hit[0] != pid:
            owner = known.players[hit[0]]
            whose = "another player's name" if hit[1] % 2 else f"another name of {owner!r}"
            shared = _shared(connection, pid, hit[0])
            if shared:
                raise ClubError(f"{new!r} is {whose} already, and {_played_together(shared, kept, owner)}: choose another name")
            raise ClubError(f"{new!r} is {whose} already: if {kept!r} and {owner!r} are one person, "
                            f"`club players merge {shlex.quote(kept)} {shlex.quote(owner)}` makes them one")
        connection.execute(update(players).where(players.c.id == pid).values(name=new))
        for alias in known.aliases:  # (a name of the player's own again is no other name of it)
            if alias.player_id == pid and same_player(alias.name) == same_player(new):
                connection.execute(delete(aliases).where(aliases.c.name == alias.name))
        if same_player(kept) != same_player(new):
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
        if alias is not None and alias.player_id == target[0]:
            raise ClubError(f"{name!r} is another name of {target[1]!r} already: nothing to merge")
        return _merged(connection, find_player(connection, name), target)

    return in_transaction(engine, work, f"merging {name!r} into {into!r}")


def _merged(connection: Connection, source: tuple[int, str], target: tuple[int, str], since: dt.datetime | None = None) -> PlayersMerged:
    (gone, gone_name), (kept, kept_name) = source, target
    if gone == kept:
        raise ClubError(f"{gone_name!r} and {kept_name!r} are one player already")
    shared = _shared(connection, gone, kept)
    if shared:
        raise ClubError(f"{_played_together(shared, gone_name, kept_name)}: they are two people; to tell them apart, rename one")
    moved = connection.execute(update(seats).where(seats.c.player_id == gone).values(player_id=kept)).rowcount
    connection.execute(update(aliases).where(aliases.c.player_id == gone).values(player_id=kept))
    connection.execute(delete(players).where(players.c.id == gone))
    _keep_alias(connection, gone_name, kept, MERGED, since)
    return PlayersMerged(gone_name, kept_name, int(moved))


def _typed_with(connection: Connection, alias: Alias, since: dt.datetime) -> list[tuple[str, int]]:
    """The seats of ``alias``'s player that the match logs typed ``alias``'s name in: all of them for a name merged in,
    those of matches played since the rename for a rename's old name (before it, the name was the player's own)."""
    when = func.coalesce(matches.c.played_at, matches.c.imported_at)
    query = (select(seats.c.match_id, seats.c.seat, matches.c.log).join(matches, seats.c.match_id == matches.c.id)
             .where(seats.c.player_id == alias.player_id))
    if alias.kind == RENAMED:
        query = query.where(when >= since)
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
    known = Known(connection)
    alias = known.alias(name)
    if alias is None or alias.player_id is None:
        find_player(connection, name)  # (no player of that name either: said so)
        raise ClubError(f"{name!r} is a player's own name, not another name of a player: to change it, rename the player")
    since = connection.execute(select(aliases.c.since).where(aliases.c.name == alias.name)).scalar_one()
    return alias, known.players[alias.player_id], _typed_with(connection, alias, since)


def separable(engine: Engine, name: str) -> int:
    """How many matches :func:`separate_name` would give ``name`` back."""
    with engine.connect() as connection:
        return len(_separating(connection, name)[2])


def separate_name(engine: Engine, name: str) -> PlayersMerged:
    """A player's other name ``name`` found not to be the player after all (a merge undone, a rename's old name taken by
    someone new): the matches a table typed it in (since the rename, for a rename's old name) are a player ``name``'s
    again, as the logs have it, and so is the name from now on."""

    def work(connection: Connection) -> PlayersMerged:
        lock(connection)
        alias, owner, typed = _separating(connection, name)
        _keep_alias(connection, alias.name, None, SEPARATED)
        if typed:
            connection.execute(insert(connection, players).on_conflict_do_nothing(index_elements=["name"]), [{"name": alias.name}])
            own = connection.execute(select(players.c.id).where(players.c.name == alias.name)).scalar_one()
            for mid, seat in typed:
                connection.execute(update(seats).where(seats.c.match_id == mid, seats.c.seat == seat).values(player_id=own))
        return PlayersMerged(alias.name, owner, len(typed))

    return in_transaction(engine, work, f"separating {name!r}")


@dataclass(frozen=True)
class NamesTaken:
    taken: list[str]  # another database's decisions taken in, one line each
    left: list[str]  # those left as they are here, and why


def adopt_other_names(connection: Connection, names: Iterable[tuple[str, str | None, str, dt.datetime]]) -> NamesTaken:
    """Another database's other names (``(name, player or None, kind, since)``) taken in where they tell something new:
    a name known here as a player of its own is merged into that player; one here another player's, or separated here,
    or one whose two players played together, is left as it is.  A separation there is not one here."""
    lock(connection)
    taken, left = [], []
    for alias, owner, kind, since in names:
        known = Known(connection)
        here = known.alias(alias)
        if owner is None or (here is not None and here.player_id is not None and known.players[here.player_id] == owner):
            continue
        if here is not None and here.player_id is None:
            left.append(f"{alias!r} is {owner!r} there but was separated here: left as it is")
            continue
        hit, target = known.find(alias), known.find(owner)
        target_id, target_name = (target[0], known.players[target[0]]) if target else (None, owner)
        if hit is not None and hit[0] == target_id:
            continue
        if hit is not None and hit[1] in (0, 2):  # (another name here, of another player)
            left.append(f"{alias!r} is {owner!r} there but {known.players[hit[0]]!r} here: left as it is")
            continue
        shared = _shared(connection, hit[0], target_id) if hit is not None and target_id is not None else []
        if shared:
            left.append(f"{alias!r} is {owner!r} there, not here: {_played_together(shared, alias, owner)}")
            continue
        pid = target_id if target_id is not None else player_ids(connection, [owner])[owner]
        if hit is None:
            _keep_alias(connection, alias, pid, kind, since)
            taken.append(f"{alias!r} is {target_name!r}, as there")
        else:
            moved = _merged(connection, (hit[0], known.players[hit[0]]), (pid, target_name), since).matches
            taken.append(f"{alias!r} is {target_name!r}, as there: {moved} match{'' if moved == 1 else 'es'} moved")
    return NamesTaken(taken, left)
