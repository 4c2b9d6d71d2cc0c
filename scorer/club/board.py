"""The evening on one board: every table's match on the cribbage board's scale, and the standings.

Plain data (dicts of JSON types) built from the club database; ``club serve`` sends it to the page
and gives it as ``/api/tables.json`` and ``/api/standings.json``.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Engine

from scorer.club.queries import (  # (evening_start: the evening's start, for callers too)
    QUIET_MINUTES, being_played, evening_start, standings, unfinished,
)
from scorer.club.view import board_scale, view_of  # noqa: F401 (board_scale: the board's scale, for callers)
from scorer.club.schema import matches
from scorer.errors import ScorerError
from scorer.rules.log import GAMES
from scorer.rules.transcript import read_log

# A match with no move for this long is shown as quiet, not playing: its table may have closed the app.
GAMES_SHOWN = ("horse-race", "seven-rocks")


def season_start(now: dt.datetime) -> dt.date:
    """The default season: the calendar year."""
    return dt.date(now.year, 1, 1)


def _iso(value: dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat(timespec="seconds")


def match_view(log: str) -> dict[str, Any]:
    """The view of a stored log written before the view was stored with it (schema 0001)."""
    reading = read_log(log.split("\n"))
    if reading.error is not None:
        raise reading.error
    return view_of(reading.header, reading.steps)


class BoardData:
    """Builds the board's data; a match's view is computed once per state (cached by its id and lines)."""

    def __init__(self, engine: Engine, season_since: dt.date | None = None) -> None:
        self.engine = engine
        self.season_since = season_since
        self._views: dict[str, tuple[int, dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._shared_shown = False  # a card split for a shared name: the board changes with time alone (it folds back)

    def token(self, now: dt.datetime | None = None) -> tuple:
        """Changes whenever anything on the board may have changed (a line written, a match added, a match gone quiet;
        while a table's name is shown shared, each minute)."""
        now = now or dt.datetime.now()
        with self.engine.connect() as c:
            row = c.execute(select(func.count(), func.coalesce(func.sum(matches.c.lines), 0), func.max(matches.c.updated_at),
                                   func.sum(func.cast(matches.c.finished, matches.c.lines.type)),
                                   func.sum(case((being_played(now), 1), else_=0)))).first()
        return (evening_start(now), tuple(row), now.replace(second=0, microsecond=0) if self._shared_shown else None)

    def tables(self, now: dt.datetime | None = None) -> dict[str, Any]:
        now = now or dt.datetime.now()
        start = evening_start(now)
        when = func.coalesce(matches.c.played_at, matches.c.imported_at)
        with self.engine.connect() as c:
            rows = list(c.execute(
                select(matches.c.id, matches.c.table_name, matches.c.lines, when, matches.c.updated_at, matches.c.started,
                       matches.c.opened_at)
                .where(when >= start).order_by(when, matches.c.id)
            ))
            stale = [r[0] for r in rows if self._views.get(r[0], (None,))[0] != r[2]]
            fresh: dict[str, tuple[int, dict[str, Any]]] = {}
            for chunk in range(0, len(stale), 500):
                found = c.execute(select(matches.c.id, matches.c.lines, matches.c.board)
                                  .where(matches.c.id.in_(stale[chunk:chunk + 500])))
                for ident, lines, board in found:
                    if board is not None:
                        fresh[ident] = (lines, json.loads(board))
                    else:  # written before the board was kept with the match: read its log once
                        log = c.execute(select(matches.c.log).where(matches.c.id == ident)).scalar()
                        try:
                            fresh[ident] = (lines, match_view(log))
                        except ScorerError as exc:  # a stored log the rules cannot read: shown, not fatal
                            fresh[ident] = (lines, {"status": "unreadable", "error": str(exc), "sides": [], "game": "?",
                                                    "title": "?", "holes": 61, "per_hole": 1, "last_move": str(exc)})
        with self._lock:
            self._views.update(fresh)
            tables: dict[str, dict[str, Any]] = {}
            for ident, table_name, lines, played, updated, started, opened in rows:
                if ident not in self._views:
                    continue
                # (live: written move by move by a table; else imported -- an unfinished one is left, not being played)
                view = dict(self._views[ident][1], id=ident, lines=self._views[ident][0], played_at=_iso(played), updated_at=_iso(updated),
                            started=started, live=opened is not None)
                # (a match of no table is titled by its players, as they look for it)
                title = table_name or ", ".join(side["name"] for side in view["sides"]) or ident[:8]
                entry = tables.setdefault(table_name or ident, {"table": title, "named": table_name is not None, "matches": []})
                entry["matches"].append(_Placed(view, opened, updated, played))
        out = []
        for entry in tables.values():
            out += _cards(entry, now)
        self._shared_shown = any(t["shared_name"] for t in out)
        # Named tables in their numbers' order (where the players look for theirs); then matches of no table,
        # those being played first, the latest first.
        named = sorted((t for t in out if t["named"]), key=lambda t: _natural(t["table"]))
        unnamed = sorted((t for t in out if not t["named"]), key=lambda t: (t["match"]["played_at"] or "", t["match"]["id"]), reverse=True)
        out = named + sorted(unnamed, key=lambda t: t["match"]["status"] != "playing")
        return {"evening_start": _iso(start), "generated": _iso(now.replace(microsecond=0)), "tables": out,
                "quiet_minutes": QUIET_MINUTES}

    def standings(self, now: dt.datetime | None = None) -> dict[str, Any]:
        now = now or dt.datetime.now()
        tonight = evening_start(now)
        season = self.season_since or season_start(now)

        def block(since: dt.datetime | dt.date) -> dict[str, Any]:
            games = {}
            for game in GAMES_SHOWN:
                rows = standings(self.engine, since, game)
                if rows:
                    games[game] = {
                        "title": GAMES[game].title,
                        "unit": "points" if GAMES[game].raw_per_point > 1 else "raw points",
                        "rows": [dict(asdict(r), points_per_move=round(r.points_per_move, 2)) for r in rows],
                    }
            counts = unfinished(self.engine, since, now=now)
            return {"since": since.isoformat(), "games": games, "playing": counts.playing, "left": counts.left}

        return {"generated": _iso(now.replace(microsecond=0)), "tonight": block(tonight), "season": block(season)}


@dataclass(frozen=True)
class _Placed:
    """A match's view under its table's name, with the times that place it there."""

    view: dict[str, Any]
    opened: dt.datetime | None  # when a table last opened it (None: only imported, or an older scorer's)
    updated: dt.datetime | None
    played: dt.datetime | None

    @property
    def when(self) -> dt.datetime:
        """A match a table writes live is placed by when it last changed; one only imported by when it was played."""
        return (self.updated if self.opened else self.played) or dt.datetime.min

    def played_live_since(self, moment: dt.datetime) -> bool:
        """Written live, unfinished, and moved since ``moment``: a table is at it."""
        return self.opened is not None and self.view["status"] == "playing" and (self.updated or dt.datetime.min) > moment


def _cards(entry: dict[str, Any], now: dt.datetime) -> list[dict[str, Any]]:
    """A table's cards: the match it changed last (the one played now -- not a match left unfinished before it),
    the others listed under it as earlier.  Where another unfinished match under the same name has moved since the
    current one was opened at its table (and within :data:`QUIET_MINUTES`), two tables were given one name: each is
    shown, marked so.  (A table that left a match for another, and back, moved each only while it had it open.)"""
    recent = now - dt.timedelta(minutes=QUIET_MINUTES)
    # (A match a table is playing keeps the card over one imported meanwhile, though the file's time is later.)
    placed: list[_Placed] = sorted(entry["matches"], key=lambda m: (m.played_live_since(recent), m.when,
                                                                    m.view["played_at"] or "", m.view["id"]))
    *before, current = placed
    since = max(recent, current.opened or now)  # (both written live, or neither is told)
    also_live = [m for m in before if entry["named"] and m.played_live_since(since)]
    earlier = [{"id": m["id"], "game": m["game"], "title": m["title"], "status": m["status"], "winners": m.get("winners", []),
                "scores": {s["name"]: s["score"] for s in m["sides"]}} for m in (p.view for p in before if p not in also_live)]
    return ([{"table": entry["table"], "named": entry["named"], "match": current.view, "earlier": earlier,
              "shared_name": bool(also_live)}]
            + [{"table": entry["table"], "named": True, "match": m.view, "earlier": [], "shared_name": True}
               for m in also_live[::-1]])


def _natural(name: str) -> tuple:
    """'Table 2' before 'Table 10'."""
    import re

    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name))
