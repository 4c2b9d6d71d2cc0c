"""Who a name typed at a table is: a player of the club, by the player's own name or by one of their other names.

A player's other names (a name merged into the player, the name before a rename) are the club's own decisions,
kept in ``aliases`` (roster_changes.py makes them); a name separated again is kept there too, as the player of
its own it is, so that a merge of another laptop's database does not bring the undone merge back.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass
from typing import Iterable

from sqlalchemy import select, text
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine

from scorer.club.schema import aliases, players, seats
from scorer.errors import ClubError

_NAMES_LOCK = 0x5C0_12E_7A3  # pg_advisory_xact_lock key of finding, making, renaming or merging players

# How a name became another's (merged in, or a player's name before a rename), or stopped being it (a merge undone:
# separated; a rename's old name separated: released, still the player's in the matches played before the rename).
MERGED, RENAMED, SEPARATED, RELEASED = "merged", "renamed", "separated", "released"


def insert(connection: Connection, table):
    """An INSERT that can be told what to do on a conflict, in the connection's dialect."""
    dialect = pg_dialect if connection.dialect.name == "postgresql" else sqlite_dialect
    return dialect.insert(table)


def same_player(name: str) -> str:
    """What two names of one player share: the words, in any letter case (casefold: in Python, not SQL, whose lower()
    on SQLite leaves Å and Ö as they are)."""
    return tidy(name).casefold()


def tidy(name: str) -> str:
    """A name as the club keeps it: its words, one space between them."""
    return " ".join(name.split())


def lock(connection: Connection) -> None:
    """One transaction at a time finds, makes or changes players (two tables naming "ann" and "Ann" at once)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _NAMES_LOCK})


@dataclass(frozen=True)
class Alias:
    name: str
    player_id: int | None  # None: separated (the name is its own player's again)
    kind: str
    since: dt.datetime
    decided: dt.datetime

    def applies(self, at: dt.datetime | None) -> bool:
        """Whether a table typing this name in a match played ``at`` (None: now) meant its player."""
        if self.player_id is None:
            return False
        return self.kind != RELEASED or (at is not None and at < self.since)


class Known:
    """The club's names for a match played ``at`` (None: now): its players' own and their other names, exact and as
    :func:`same_player` has them.  A name is looked up as typed first, then in any case and spacing; at each step the
    club's decisions (other names) before its players' own names (a name merged into Ben is Ben's even where a table
    made it a player of its own by typing it beside Ben)."""

    def __init__(self, connection: Connection, at: dt.datetime | None = None) -> None:
        self.players = {int(pid): name for pid, name in connection.execute(select(players.c.id, players.c.name))}
        self.aliases = sorted((Alias(n, None if p is None else int(p), k, since, decided) for n, p, k, since, decided in connection.execute(
            select(aliases.c.name, aliases.c.player_id, aliases.c.kind, aliases.c.since, aliases.c.decided))),
            key=lambda a: a.name)  # (one order on every backend)
        taken = [a for a in self.aliases if a.applies(at)]
        self.steps: list[dict[str, int]] = [{a.name: a.player_id for a in taken}, {n: p for p, n in self.players.items()}, {}, {}]  # type: ignore[misc]
        for alias in taken:
            self.steps[2].setdefault(same_player(alias.name), alias.player_id)  # type: ignore[arg-type]
        for pid in sorted(self.players):  # (the player kept first)
            self.steps[3].setdefault(same_player(self.players[pid]), pid)

    def find(self, name: str) -> tuple[int, int] | None:
        """The player ``name`` is, and how surely (0: another name as typed, 1: a player's as typed, 2 and 3: the same in
        another case or spacing); None for a name the club does not know."""
        for rank, step in enumerate(self.steps):
            pid = step.get(name if rank < 2 else same_player(name))
            if pid is not None:
                return pid, rank
        return None

    def alias(self, name: str) -> Alias | None:
        """The alias row of ``name``, as typed or in another case or spacing (separated ones too)."""
        exact = [a for a in self.aliases if a.name == name]
        found = exact or [a for a in self.aliases if same_player(a.name) == same_player(name)]
        return found[0] if found else None


# Known.find's ranks, as surely each is the player where two names of one match find one: the player's own name as
# typed, then in another case, before another name of the player ("ben" beside "Bem", merged into Ben: "ben" is Ben).
_CLASH_ORDER = (2, 0, 3, 1)


def player_ids(connection: Connection, names: Iterable[str], at: dt.datetime | None = None) -> dict[str, int]:
    """Each name's player in the club, in a match played ``at`` (:class:`Known`); a name it does not know is a new
    player, kept tidied.  Two names of one match are never made one player: where two find the same player, the one
    found the more surely is that player and the other a player of its own name as typed (both, where neither is)."""
    given = sorted(set(names))
    lock(connection)
    known = Known(connection, at)
    found = {n: known.find(n) for n in given}
    by_player: dict[int, list[str]] = {}
    for n, hit in found.items():
        if hit is not None:
            by_player.setdefault(hit[0], []).append(n)
    as_typed: set[str] = set()
    for group in by_player.values():
        # (Beside another name of the same player, the player's own name as typed is the player, before an other name.)
        order = sorted((_CLASH_ORDER[found[n][1]], n) for n in group)  # type: ignore[index]
        keeps = order[0][1] if len(order) == 1 or order[0][0] < order[1][0] else None
        as_typed.update(n for n in group if n != keeps)
    unknown = [n for n in given if found[n] is None]
    clashing = {same_player(n) for n in unknown if sum(same_player(m) == same_player(n) for m in unknown) > 1}
    wanted = {n: n for n in as_typed} | {n: n if same_player(n) in clashing else tidy(n) for n in unknown}
    ids = {n: hit[0] for n, hit in found.items() if hit is not None and n not in as_typed}
    if wanted:
        names_wanted = sorted(set(wanted.values()))  # one order in every transaction: no deadlock between two tables
        connection.execute(insert(connection, players).on_conflict_do_nothing(index_elements=["name"]), [{"name": n} for n in names_wanted])
        made = {name: int(pid) for name, pid in connection.execute(select(players.c.name, players.c.id).where(players.c.name.in_(names_wanted)))}
        ids.update({n: made[name] for n, name in wanted.items()})
    return ids


def find_player(connection: Connection, name: str) -> tuple[int, str]:
    """The player called ``name`` (as typed first, then in any letter case and spacing), by id and name as kept; else
    why not (one of a player's other names is not the player's name)."""
    known = Known(connection)
    if name in known.steps[1]:
        return known.steps[1][name], name
    pid = known.steps[3].get(same_player(name))
    if pid is not None:
        return pid, known.players[pid]
    alias = known.alias(name)
    if alias is not None and alias.player_id is not None:
        kept = known.players[alias.player_id]
        if alias.kind == RELEASED:
            raise ClubError(f"{name!r} was {kept!r}'s name before a rename, and was separated from {kept!r} on "
                            f"{alias.decided:%Y-%m-%d}; no match since has been typed {name!r}")
        raise ClubError(f"{name!r} is another name of {kept!r} (merged or renamed): name the player as {kept!r}")
    if alias is not None:
        raise ClubError(f"{name!r} was separated on {alias.decided:%Y-%m-%d}, and no match has been typed {name!r} since")
    folded = {same_player(n): n for n in sorted(known.players.values())}
    close = [folded[c] for c in difflib.get_close_matches(same_player(name), list(folded), n=3, cutoff=0.6)]
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else " (`club players` lists them)"
    raise ClubError(f"no player named {name!r} in the club{hint}")


def other_names(engine: Engine) -> dict[str, list[str]]:
    """Each player's other names (merged into the player, or before a rename), by the player's name."""
    with engine.connect() as connection:
        rows = connection.execute(select(players.c.name, aliases.c.name).join(aliases, aliases.c.player_id == players.c.id)
                                  .where(aliases.c.kind.in_([MERGED, RENAMED])))
        found: dict[str, list[str]] = {}
        for name, alias in sorted(rows):
            if same_player(name) != same_player(alias):  # (a rename of the letter case only: no other name to tell)
                found.setdefault(name, []).append(alias)
        return found


def player_of(engine: Engine, name: str) -> str | None:
    """The player a table typing ``name`` scores for, or None for a new one."""
    with engine.connect() as connection:
        known = Known(connection)
        hit = known.find(name)
        return None if hit is None else known.players[hit[0]]


def matches_of(engine: Engine, name: str) -> int:
    """How many matches the player ``name`` played in, finished or not."""
    with engine.connect() as connection:
        pid = find_player(connection, name)[0]
        return len(list(connection.execute(select(seats.c.match_id).where(seats.c.player_id == pid))))


def never_with(engine: Engine, name: str) -> list[str]:
    """The club's other players who never played in one match with ``name``: those ``name`` may be (a mistyped name)."""
    with engine.connect() as connection:
        pid = find_player(connection, name)[0]
        theirs = select(seats.c.match_id).where(seats.c.player_id == pid)
        met = {int(p) for p, in connection.execute(select(seats.c.player_id).where(seats.c.match_id.in_(theirs)))}
        return sorted(n for p, n in connection.execute(select(players.c.id, players.c.name)) if int(p) not in met)
