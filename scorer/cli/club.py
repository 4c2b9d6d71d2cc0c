"""``club``: the club's players, history and standings, merging databases, the evening's board."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from scorer.cli.common import EXIT_BAD_INPUT


def _club(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer import club

    if args.club_command == "merge":  # the source is only read: check it before opening (maybe making) ours
        club.open_readonly(args.other).dispose()
    engine = club.open_database(args.db)
    if args.club_command == "import":
        report = club.import_report(engine, [Path(p) for p in args.logs], args.table)
        words = {"new": "imported", "updated": "updated (more moves)", "unchanged": "already in the database"}
        for path, result in report.results:
            state = words[result.state]
            out.write(f"{path}: {result.match_id[:12]} {', '.join(result.players)}: {state}{'' if result.finished else ' (unfinished)'}\n")
        for path, why in report.refused:
            err.write(f"not imported: {why}\n")
        left = len(args.logs) - len(report.results) - len(report.refused)
        out.write(f"{report.count('new')} imported, {report.count('updated')} updated, {report.count('unchanged')} already there, "
                  f"{len(report.refused)} refused{f', {left} not tried' if left else ''}\n")
        if report.stopped:
            err.write(f"error: stopped: {report.stopped} (the files before it were written as listed)\n")
        return EXIT_BAD_INPUT if report.refused or report.stopped else 0
    if args.club_command == "players":
        for name in club.player_names(engine):
            out.write(name + "\n")
    elif args.club_command == "standings":
        since = club.parse_since(args.since) if args.since else None
        games = [args.game] if args.game else ["horse-race", "seven-rocks"]
        for game in games:
            rows = club.standings(engine, since, game)
            playing = club.unfinished_count(engine, since, game)
            if not rows and not playing:
                continue
            unit = "points" if game == "horse-race" else "raw points"
            out.write(f"{game} ({unit})\n")
            if rows:
                out.write(f"  {'player':<16} {'matches':>7} {'wins':>5} {'shared':>6} {'for':>6} {'against':>7} {'per move':>8}\n")
            for r in rows:
                out.write(f"  {r.player:<16} {r.matches:>7} {r.wins:>5} {r.shared_wins:>6} {r.points_for:>6} {r.points_against:>7} {r.points_per_move:>8.2f}\n")
            if playing:
                out.write(f"  ({playing} match{'es' if playing != 1 else ''} still playing, not counted until finished)\n")
    elif args.club_command == "export":
        count = club.export_csv(engine, Path(args.csv))
        out.write(f"wrote {count} rows to {args.csv}\n")
    elif args.club_command == "merge":
        merged = club.merge(engine, args.other, skip_bad=args.skip_bad)
        out.write(f"merged {args.other}: {merged.added} new match(es), {merged.updated} updated, {merged.present} already here\n")
        for bad in merged.bad:
            err.write(f"left out: {bad}\n")
    elif args.club_command == "serve":
        from scorer.club.serve import serve

        season = club.parse_since(args.season_start) if args.season_start else None
        return serve(engine, args.host, args.port, season_since=season, out=out)
    return 0
