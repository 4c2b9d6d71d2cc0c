"""``club``: the club's players, history and standings, merging databases, the evening's board."""

from __future__ import annotations

import argparse
from dataclasses import astuple
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from scorer.cli.common import EXIT_BAD_INPUT, counted

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def _club(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer import club

    if args.club_command == "merge":  # the source is only read: check it before opening (maybe making) ours
        club.open_readonly(args.other).dispose()
    # (A database named for reading must be there: only an import, a merge or the default one makes it.)
    reading = args.db is not None and args.club_command in ("players", "standings", "export", "serve")
    if reading and args.club_command == "serve" and args.new and club.file_missing(args.db):
        reading = False  # (the evening's board before any table has played: made, and said so)
        out.write(f"a new, empty club database: {args.db}\n")
    engine = club.open_existing(args.db) if reading else club.open_database(args.db)
    if args.club_command == "import":
        report = club.import_report(engine, [Path(p) for p in args.logs], args.table)
        words = {"new": "imported", "updated": "updated (more moves)", "unchanged": "already in the database"}
        for path, result in report.results:
            state = words[result.state]
            out.write(f"{path}: {result.match_id[:12]} {', '.join(result.players)}: {state}{'' if result.finished else ' (unfinished)'}\n")
        for path, why in report.refused:
            err.write(f"not imported: {why}\n")
        for path in report.demos:
            out.write(f"{path}: the bundled demo, not a club match: left out\n")
        left = len(args.logs) - len(report.results) - len(report.refused) - len(report.demos)
        demos = f", {counted(len(report.demos), 'demo')} left out" if report.demos else ""
        out.write(f"{report.count('new')} imported, {report.count('updated')} updated, {report.count('unchanged')} already there, "
                  f"{len(report.refused)} refused{demos}"
                  f"{f', {left} not tried' if left else ''}\n")
        if report.stopped:
            err.write(f"error: stopped: {report.stopped} (the files before it were written as listed)\n")
        return EXIT_BAD_INPUT if report.refused or report.stopped else 0
    if args.club_command == "players":
        _players(club, engine, args, out, err)
    elif args.club_command == "standings":
        _standings(club, engine, args, out, err)
    elif args.club_command == "export":
        count = club.export_csv(engine, Path(args.csv))
        out.write(f"wrote {count} rows to {args.csv}\n")
    elif args.club_command == "merge":
        merged = club.merge(engine, args.other, skip_bad=args.skip_bad)
        out.write(f"merged {args.other}: {counted(merged.added, 'new match', 'new matches')}, {merged.updated} updated, {merged.present} already here\n")
        for name_taken in merged.names_taken:
            out.write(f"a name taken: {name_taken}\n")
        for name_left in merged.names_left:
            err.write(f"a name left: {name_left}\n")
        for bad in merged.bad:
            err.write(f"left out: {bad}\n")
    elif args.club_command == "serve":
        from scorer.club.serve import serve

        season = club.parse_since(args.season_start).date() if args.season_start else None  # (a season: from its first day)
        return serve(engine, args.host, args.port, season_since=season, out=out)
    return 0


def _players(club: ModuleType, engine: Engine, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
    """``club players``: the list (each player's other names beside), a player renamed, two players made one, or
    one other name made its own player again."""
    if args.players_command == "rename":
        new = club.rename_player(engine, args.old, args.new)
        out.write(f"{args.old!r} is {new!r} now, in every match; {_typing(club, engine, args.old)}\n")
        return
    if args.players_command == "merge":
        merged = club.merge_players(engine, args.name, args.into)
        out.write(f"{merged.name!r} is {merged.into!r} now: {counted(merged.matches, 'match', 'matches')} moved to {merged.into!r}; "
                  f"{_typing(club, engine, merged.name)}\n")
        return
    if args.players_command == "separate":
        separated = club.separate_name(engine, args.name)
        moved = (f"{counted(separated.matches, 'match', 'matches')} typed {separated.name!r} moved to a player {separated.name!r} "
                 "of their own" if separated.matches else f"no match of {separated.into!r} typed {separated.name!r} to move")
        out.write(f"{separated.name!r} is not {separated.into!r} any more: {moved}; a table typing {separated.name!r} plays as "
                  f"{separated.name!r}\n")
        return
    names, others = club.player_names(engine), club.other_names(engine)
    for name in names:
        out.write(name + (f"  (also {', '.join(others[name])})" if name in others else "") + "\n")
    if not names:
        err.write("no players yet: `club import LOG...` brings in the matches played\n")  # (not a name on stdout)


def _typing(club: ModuleType, engine: Engine, name: str) -> str:
    """Whom a table typing ``name`` scores for now (another player's name merged before stays that player's)."""
    return f"a table typing {name!r} scores for {club.player_of(engine, name)!r}"


def _standings(club: ModuleType, engine: Engine, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
    """``club standings``: a table a game, or that there is nothing to stand yet."""
    since = club.parse_since(args.since) if args.since else None
    games = [args.game] if args.game else ["horse-race", "seven-rocks"]
    told = False
    for game in games:
        rows = club.standings(engine, since, game)
        playing, left = astuple(club.unfinished(engine, since, game))
        if not rows and not playing and not left:
            continue
        told = True
        unit = "points" if game == "horse-race" else "raw points"
        out.write(f"{game} ({unit})\n")
        if rows:
            out.write(f"  {'player':<16} {'matches':>7} {'wins':>5} {'shared':>6} {'for':>6} {'against':>7} {'per move':>8}\n")
        for r in rows:
            out.write(f"  {r.player:<16} {r.matches:>7} {r.wins:>5} {r.shared_wins:>6} {r.points_for:>6} {r.points_against:>7} {r.points_per_move:>8.2f}\n")
        if playing or left:
            unfinished = [f"{counted(playing, 'match', 'matches')} still playing"] if playing else []
            unfinished += [f"{counted(left, 'match', 'matches')} left unfinished"] if left else []
            out.write(f"  ({', '.join(unfinished)}: not counted until finished)\n")
    if not told:
        err.write(f"no {args.game + ' ' if args.game else ''}matches{' since ' + args.since if args.since else ''} yet\n")


# -- the commands' arguments (scorer/cli/__init__.py adds them in the order --help lists them)


def add_club_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    club = sub.add_parser("club", help="the club's players, match history and standings; the evening's board")
    db_help = "database file or SQLAlchemy URL, e.g. postgresql+psycopg://club@server/club (default: $SCORER_CLUB_DB or the user's data folder)"
    club.add_argument("--db", help=db_help)
    db_anywhere = argparse.ArgumentParser(add_help=False)  # `club serve --db URL` as well as `club --db URL serve`
    db_anywhere.add_argument("--db", default=argparse.SUPPRESS, help=db_help)
    csub = club.add_subparsers(dest="club_command", required=True, metavar="COMMAND")
    imp = csub.add_parser("import", parents=[db_anywhere], help="import session logs (a match already there is left alone, a longer log of it updates it)")
    imp.add_argument("logs", nargs="+", metavar="LOG")
    imp.add_argument("--table", help="which table of the evening the logs come from")
    pl = csub.add_parser("players", parents=[db_anywhere], help="list the club's players (each one's other names beside); rename one, or make two one")
    psub = pl.add_subparsers(dest="players_command", metavar="ACTION")
    rn = psub.add_parser("rename", parents=[db_anywhere], help="name a player otherwise in every match (the old name stays the player's: a table typing it still scores for them)")
    rn.add_argument("old", metavar="NAME")
    rn.add_argument("new", metavar="NEW_NAME")
    mp = psub.add_parser("merge", parents=[db_anywhere], help="one player under two names (mistyped at a table): NAME's matches become INTO's, and NAME stays INTO's other name")
    mp.add_argument("name", metavar="NAME")
    mp.add_argument("into", metavar="INTO")
    sp = psub.add_parser("separate", parents=[db_anywhere], help="a player's other name that is someone else after all (a merge undone): the matches typed with it are that name's own again")
    sp.add_argument("name", metavar="NAME")
    st = csub.add_parser("standings", parents=[db_anywhere], help="wins, shared wins, points for and against, points per move (finished matches)")
    st.add_argument("--since", metavar="DATE", help="today (tonight's evening, from 06:00: past midnight too), yesterday or a "
                                                    "date (YYYY-MM-DD: from 06:00 that day)")
    st.add_argument("--game", choices=("horse-race", "seven-rocks"))
    ex = csub.add_parser("export", parents=[db_anywhere], help="one CSV row per player per match")
    ex.add_argument("--csv", required=True, metavar="FILE")
    mg = csub.add_parser("merge", parents=[db_anywhere], help="bring in another laptop's database without duplicates (one transaction; the other is only read)")
    mg.add_argument("other", metavar="OTHER.db")
    mg.add_argument("--skip-bad", action="store_true", help="merge the other matches where some stored logs cannot be read (else nothing is merged)")
    sv = csub.add_parser("serve", parents=[db_anywhere], help="the evening's board in a browser: every table live, tonight's and the season's standings")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this computer only; 0.0.0.0 for the club's network)")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--season-start", metavar="DATE", help="the season's first day (default: 1 January this year)")
    sv.add_argument("--new", action="store_true",
                    help="make the club database where none is yet (the evening's board before any table has played)")
    club.set_defaults(run=_club)
