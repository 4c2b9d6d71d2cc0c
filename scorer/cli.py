"""The command line: ``python -m scorer SUBCOMMAND`` (also installed as ``domino-scorer``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Sequence, TextIO

from scorer.errors import ScorerError

EXIT_BAD_INPUT = 2


def _score(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.rules.describe import describe_placement
    from scorer.rules.game import PlayOutcome
    from scorer.rules.transcript import narrate, record
    from scorer.sessions import SessionError, read_bytes, read_session

    path = Path(args.log)
    try:
        log = (read_bytes(sys.stdin.buffer.read(), Path("<stdin>")) if args.log == "-" else read_session(path)).log
    except SessionError as exc:
        err.write(f"{exc}\n")
        return EXIT_BAD_INPUT
    header = log.header
    if not args.json:
        kind = "in partnership" if header.partnership else "alone"
        out.write(f"{header.rules.title}: {', '.join(header.players)} ({kind})\n")
    for step in log.steps:
        if args.json:
            out.write(json.dumps(record(step), ensure_ascii=False) + "\n")
        else:
            for line in narrate(step):
                out.write(line + "\n")
        if args.describe and isinstance(step.outcome, PlayOutcome) and step.after.board is not None:
            text = describe_placement(step.outcome.tile, step.after.board, step.after.rules, args.lang)
            target = err if args.json else out
            target.write("\n".join("    " + t for t in text.split("\n")) + "\n")
    if log.error is not None:
        out.flush()
        err.write(f"{path}:{log.error.number}: {log.error.message}\n")
        return EXIT_BAD_INPUT
    if not args.json and log.steps and not log.match.is_over:
        nxt = log.match.next_player
        out.write(f"Match not finished; next to act: {nxt or '(a new round)'}\n")
    return 0


def _sessions(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.sessions import find_session, list_sessions, repair

    folder = Path(args.dir) if args.dir else None
    if args.sessions_command == "show":
        ns = argparse.Namespace(log=str(find_session(args.id, folder)), json=args.json, describe=False, lang=args.lang)
        return _score(ns, out, err)
    if args.sessions_command == "repair":
        path = Path(args.file)
        damage = repair(path)
        out.write(damage.describe() + "\n" if damage else f"{path}: nothing to repair; every line reads\n")
        return 0
    sessions = list_sessions(folder)
    if args.json:
        for s in sessions:
            out.write(json.dumps({"file": str(s.path), "started": s.started, "game": s.header and s.header.game,
                                  "players": s.header and list(s.header.players), "events": s.events,
                                  "scores": s.scores, "state": s.state, "problem": s.problem}, ensure_ascii=False) + "\n")
        return 0
    if not sessions:
        out.write("No saved matches yet.\n")
    for n, s in enumerate(sessions, start=1):
        who = ", ".join(f"{p} {v}" for p, v in s.scores.items()) if s.header else "(no readable match line)"
        game = s.header.game if s.header else "?"
        out.write(f"{n:>3}  {s.started[:16].replace('T', ' ')}  {game:<11} {s.state:<9} {s.events:>4} events  {who}\n")
        out.write(f"     {s.path.name}" + (f"  ({s.problem})" if s.problem else "") + "\n")
    return 0


def _app(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The main job: the app; with no display at all, the same demo in the terminal."""
    from scorer.app.start import has_display

    if not has_display():
        err.write("No display: playing the demo recording in the terminal instead of the app.\n\n")
        from importlib.resources import as_file, files

        with as_file(files("scorer") / "data" / "demo.mp4") as video:
            ns = argparse.Namespace(video=str(video), game="horse-race", players="Ann,Ben", partnership=False,
                                    starter="Ben", calibration=None, json=False, step=1, threads=2, quiet=True,
                                    out=None, save=True, table=None)
            return _replay(ns, out, err)
    from scorer.app.start import run_app

    return run_app(lang=args.lang, demo=getattr(args, "demo", False))


def _cribbage_app(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``cribbage app``: the desktop board (started here, at the top, so scorer.cribbage stays below the app)."""
    from scorer.app.cribbage import run_cribbage_app

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    return run_cribbage_app(players, args.target, args.muggins, args.lang)


def _demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """A recorded match's session log, scored move by move in the terminal."""
    from importlib.resources import as_file, files

    resource = files("scorer") / "data" / "demo-horse-race.jsonl"
    with as_file(resource) as path:
        out.write("Domino table scorer: the bundled demo match, scored move by move.\n\n")
        ns = argparse.Namespace(log=str(path), json=False, describe=False, lang=args.lang)
        return _score(ns, out, err)


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.errors import TableError
    from scorer.rules.log import dumps, event_to_json, header_to_json
    from scorer.rules.simulate import simulate_match

    names = args.names.split(",") if args.names else None
    if names and args.players is not None and args.players != len(names):
        raise TableError(f"--players {args.players} but --names gives {len(names)}: {', '.join(names)}")
    n = len(names) if names else args.players or 4
    partnership = args.partnership or args.game == "seven-rocks"  # Seven Rocks is always played in pairs
    sim = simulate_match(args.game, n, partnership, seed=args.seed, **({"names": names} if names else {}))
    out.write(dumps(header_to_json(sim.header)) + "\n")
    for step in sim.events:
        out.write(dumps(event_to_json(step.event)) + "\n")
    return 0


def _detect(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import time

    import cv2

    from scorer.errors import ImageError
    from scorer.vision import TileDetector, load_image
    from scorer.vision.annotate import annotate

    detector = TileDetector(threads=args.threads)
    failed = 0
    for index, name in enumerate(args.images):
        try:
            image = load_image(name)
        except ImageError as exc:
            err.write(f"{exc}\n")
            failed += 1
            continue
        start = time.perf_counter()
        tiles = detector.detect(image)
        ms = (time.perf_counter() - start) * 1000
        h, w = image.shape[:2]
        if args.json:
            record = {"path": name, "width": w, "height": h, "ms": round(ms, 1), "tiles": [t.to_json() for t in tiles]}
            out.write(json.dumps(record) + "\n")
        else:
            up = [t for t in tiles if t.face == "up"]
            out.write(f"{name}: {w}x{h}, {len(up)} tile(s) face up, {len(tiles) - len(up)} face down ({ms:.0f} ms)\n")
            for t in sorted(tiles, key=lambda t: (t.center[1], t.center[0])):
                cx, cy = t.center
                if t.pips is None:
                    out.write(f"  face down        at ({cx:.0f}, {cy:.0f})\n")
                else:
                    a, b = t.pips
                    flag = "" if t.certain else f"  uncertain ({t.read_confidence:.2f})"
                    out.write(f"  [{min(a, b)}|{max(a, b)}] at ({cx:.0f}, {cy:.0f}){flag}\n")
        if args.annotate:
            target = Path(args.annotate)
            if len(args.images) > 1:
                target = target.with_name(f"{target.stem}-{index:03d}-{Path(name).stem}{target.suffix or '.png'}")
            if not cv2.imwrite(str(target), annotate(image, tiles)):
                err.write(f"{target}: could not write the annotated image\n")
                failed += 1
        out.flush()
    return 1 if failed else 0


def _for_seconds(frames, seconds: float):
    """Frames until ``seconds`` have passed (a camera gives frames for ever)."""
    import time as _time

    end = _time.monotonic() + seconds
    for frame in frames:
        if _time.monotonic() > end:
            return
        yield frame


def _calibrate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from itertools import islice

    from scorer.pipeline.sources import Camera, VideoFile
    from scorer.vision import load_image
    from scorer.vision.calibration import calibrate, calibrate_frames, save_profile

    def taken(n: int) -> None:
        more = args.views - n
        err.write(f"view {n} taken" + (f"; lay the target somewhere else on the table ({more} more)\n" if more else "\n"))

    if args.image:
        profile = calibrate(load_image(args.image), args.name)
    elif args.video:
        frames = islice(VideoFile(args.video).frames(), 300 * args.views)
        profile = calibrate_frames((f.image for f in frames), args.name, args.views, taken)
    else:
        if args.views > 1:
            err.write(f"lay the target on the table and keep it still; then move it {args.views - 1} times, toward the corners\n")
        frames = _for_seconds(Camera(args.camera).frames(), 10.0 * args.views)
        profile = calibrate_frames((f.image for f in frames), args.name, args.views, taken)
    path = save_profile(profile, Path(args.dir) if args.dir else None)
    out.write(
        f"calibration profile {profile.name!r} saved to {path}\n"
        f"  target markers seen: {profile.markers} of 6, fit error {profile.error_mm:.2f} mm\n"
        f"  scale at the target: {profile.px_per_mm:.2f} px/mm; a tile should look {profile.tile_px[0]:.0f} x {profile.tile_px[1]:.0f} px\n"
    )
    fit = profile.lens_fit or {}
    if profile.lens is not None:
        out.write(f"  lens distortion corrected: k = {fit['k']:+.3f} over {fit['views']} view(s); "
                  f"the target fits the plane to {fit['error_with_mm']:.2f} mm instead of {fit['error_without_mm']:.2f} mm\n")
    else:
        out.write(f"  lens distortion: none measurable from {fit.get('views', 1)} view(s) "
                  "(for a wide lens, calibrate from a video with --views 5, the target laid near each corner)\n")
    from scorer.pipeline.core import LIVE_SMALL_TILE_PX

    if profile.tile_px[0] < LIVE_SMALL_TILE_PX:  # (where live play would tell the players so too)
        out.write(f"  warning: tiles will be small in the image (under {LIVE_SMALL_TILE_PX} px); move the camera closer "
                  "for reliable pip reading\n")
    return 0


def _board(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.layout import read_board
    from scorer.rules import GAMES, describe_board
    from scorer.vision import TileDetector, load_image
    from scorer.vision.calibration import load_profile

    rules = GAMES[args.game]
    image = load_image(args.image)
    profile = load_profile(args.calibration) if args.calibration else None
    before = _board_before(args.before, rules.every_double_spins) if args.before else None
    # One image, read with care: at two input sizes, each tile also read turned round (over twice a live frame's time).
    detections = TileDetector.thorough(threads=args.threads).detect(image)
    if before is not None:
        return _move(args, before, detections, image, profile, rules, out, err)
    reading = read_board(detections, rules.every_double_spins, profile.to_table if profile else None,
                         image=image)
    layout, board = reading.layout, reading.board
    problems = reading.problems + [f"note: {n}" for n in reading.notes]
    if args.json:
        record = {"path": args.image, **_board_record(board), "loose": [list(layout.tiles[i].pips) for i in layout.loose()],
                  "problems": problems}
        out.write(json.dumps(record) + "\n")
    else:
        out.write(describe_board(board, args.lang) + "\n")
        terms = " + ".join(str(e.value) for e in board.scoring_ends()) or "0"
        out.write(f"End sum: {terms} = {board.end_sum()}; scores {board.points()} raw\n")
        _write_problems(problems, out)
    return _annotated(args, image, detections, layout, board, profile, reading.unseen_ends, err)


def _write_problems(problems: list[str], out: TextIO) -> None:
    """Problems and notes (what the rules settled: "note: ..."), one a line, each said as what it is."""
    for p in problems:
        out.write(f"{p}\n" if p.startswith("note: ") else f"problem: {p}\n")


def _board_record(board) -> dict:
    """A board as the ``board --json`` record gives it (the tiles and joins also read back by ``--before``)."""
    return {
        "tiles": [t.as_list() for t in board.tiles],
        "spinners": [t.as_list() for t in board.spinners],
        "joins": [[j.tile.as_list(), j.side.value, j.new_tile.as_list(), j.new_side.value] for j in board.joins],
        "free": [[p.tile.as_list(), p.side.value, p.value] for p in board.free_points()],
        "ends": [[e.tile.as_list(), e.value] for e in board.scoring_ends()],
        "sum": board.end_sum(),
        "points": board.points(),
    }


def _annotated(args: argparse.Namespace, image, detections, layout, board, profile, unseen_ends, err: TextIO) -> int:
    """With ``--annotate``, the image with what was read drawn on it, written; the exit status."""
    import cv2

    from scorer.layout.annotate import annotate_board

    if args.annotate:
        drawn = annotate_board(image, detections, layout, board, profile.to_image if profile else None, unseen_ends)
        if not cv2.imwrite(args.annotate, drawn):
            err.write(f"{args.annotate}: could not write the annotated image\n")
            return 1
    return 0


def _board_before(path: str, every_double_spins: bool):
    """The board a ``board --json`` record holds (its first line), rebuilt and checked by the rules."""
    from scorer.errors import IllegalMove, TableError
    from scorer.rules import Board, Side, Tile

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError(f"{path}: cannot read the board before: {exc}") from exc
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        record = json.loads(first)
        tiles = [Tile.of(*t) for t in record["tiles"]]
        joins = [(Tile.of(*t), Side(side), Tile.of(*new)) for t, side, new, _ in record["joins"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise TableError(f"{path}: expected a board as `board --json` writes it (\"tiles\" and \"joins\"), found {first[:80]!r}") from exc
    if not tiles:
        return Board(every_double_spins)
    try:
        return Board.replayed(every_double_spins, tiles[0], joins)
    except IllegalMove as exc:
        raise TableError(f"{path}: the board before does not follow the rules of this game: {exc}") from exc


def _move(args: argparse.Namespace, before, detections, image, profile, rules, out: TextIO, err: TextIO) -> int:
    """``board IMAGE --before BOARD.json``: the tile(s) laid since that board, where, and the sum after."""
    from scorer.layout import read_move

    reading = read_move(before, detections, to_table=profile.to_table if profile else None, image=image)
    change = reading.change
    board = change.board if change.board is not None else before
    problems = reading.problems + [f"note: {n}" for n in reading.notes]
    if args.json:
        placements = [{"tile": p.tile.as_list(), "at": None if p.at is None else [p.at.tile.as_list(), p.at.side.value, p.at.value]}
                      for p in change.placements]
        record = {"path": args.image, "placements": placements, **_board_record(board), "problems": problems}
        out.write(json.dumps(record) + "\n")
    else:
        _describe_move(before, change.placements, problems, rules, args.lang, out)
    return _annotated(args, image, detections, reading.layout, board, profile, [], err)


def _describe_move(before, placements, problems: list[str], rules, lang: str, out: TextIO) -> None:
    from scorer.rules import describe_placement

    if not placements:
        out.write("No new tile is seen joined to the board before.\n")
    step = before
    for p in placements:
        step = step.place(p.tile, p.at)
        where = "" if p.at is None else f" at {p.at.tile} ({p.at.side.value}, {p.at.value})"
        out.write(f"New tile{where}:\n{describe_placement(p.tile, step, rules, lang)}\n")
    _write_problems(problems, out)


def _new_session(args: argparse.Namespace, source, folder: Path | None):
    """The match the arguments name, in a new session file in ``folder`` (the user's sessions folder
    by default); with ``folder`` False, kept in memory only."""
    from scorer.rules.history import MatchHistory
    from scorer.rules.log import MatchHeader
    from scorer.sessions import Session

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    header = MatchHeader(args.game, tuple(players), bool(args.partnership), table=getattr(args, "table", None),
                         source=source, calibration=args.calibration)
    if args.starter and args.starter not in players:
        from scorer.errors import TableError

        raise TableError(f"--starter {args.starter!r} is not one of the players ({', '.join(players)})")
    header.new_match()
    return MatchHistory.new(header) if folder is False else Session.create(header, folder)


def _pipeline_for(args: argparse.Namespace, history, source):
    """The pipeline scoring ``history``'s match from ``source``, seen through the calibration its header names."""
    from scorer.pipeline.session import open_table

    return open_table(history, source, starter=args.starter, threads=args.threads)


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.pipeline.events import MoveEvent, NeedsConfirmation, Notice
    from scorer.pipeline.replay import progress_bar, run
    from scorer.pipeline.sources import open_video
    from scorer.rules.log import MatchSource
    from scorer.rules.transcript import narrate
    from scorer.sessions import sessions_dir

    source = open_video(args.video, step=args.step)
    folder = Path(args.out) if args.out else sessions_dir() if args.save else False
    where = MatchSource("video", str(Path(args.video).resolve()), args.step)
    history = _new_session(args, where, folder)
    if folder is not False:
        err.write(f"saving the match to {history.path}\n")
    pipeline = _pipeline_for(args, history, source)

    def on_event(event) -> None:
        if args.json:
            if isinstance(event, (MoveEvent, NeedsConfirmation, Notice)):
                out.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")
        elif isinstance(event, MoveEvent):
            for line in narrate(event.step):
                out.write(f"{event.t:7.1f}s {line}\n")
        elif isinstance(event, NeedsConfirmation):
            out.write(f"{event.t:7.1f}s  ? needs confirmation: {event.reason}\n")
        elif isinstance(event, Notice):
            out.write(f"{event.t:7.1f}s  ! {event.message}\n")
        out.flush()

    show = progress_bar(source.duration, err) if not args.quiet else None
    try:
        stats = run(source, pipeline, on_event, show)
    finally:
        if folder is not False:
            history.close()
    if show is not None:
        err.write("\n")
    if source.ended_early:
        err.write(f"{args.video}: the video ends early (truncated?) at {stats.video_seconds:.1f} s; events so far are kept\n")
    if not args.json:
        out.write(f"Scores: {', '.join(f'{p} {s}' for p, s in pipeline.match.scores().items())}\n")
    err.write(f"replayed {stats.video_seconds:.1f} s of video in {stats.wall_seconds:.1f} s ({stats.speed:.1f}x real time)\n")
    return 1 if source.ended_early else 0


def _record(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.pipeline.events import MoveEvent, NeedsConfirmation
    from scorer.pipeline.replay import record
    from scorer.pipeline.sources import Camera
    from scorer.rules.log import MatchSource
    from scorer.sessions import SessionError

    folder = Path(args.out).resolve()
    if any((folder / "video").glob("*.avi")):
        raise SessionError(f"{folder} already holds a recording: give a new folder for a new match")
    folder.mkdir(parents=True, exist_ok=True)
    kind = "camera" if args.camera.isdigit() else "url"
    session = _new_session(args, MatchSource(kind, args.camera, 1, str(folder)),
                           Path(args.sessions) if args.sessions else None)
    camera = Camera(int(args.camera) if args.camera.isdigit() else args.camera, args.width, args.height, args.fps)
    pipeline = _pipeline_for(args, session, camera)
    live = None
    club_db = args.club_db or os.environ.get("SCORER_CLUB_DB")
    if club_db:  # the club's board sees the match move by move
        from scorer.club import LiveTable

        def behind(status) -> None:
            if status.behind:
                err.write(f"club database not reached ({status.error}); the match is kept and sent when it is back\n")

        live = LiveTable(club_db, args.table, on_status=behind)
        session.listeners.append(live)
        live(session)

    def on_event(event) -> None:
        if isinstance(event, MoveEvent) and event.announcement is not None:
            out.write(f"{event.t:7.1f}s {event.announcement.text(args.lang)}\n")
        elif isinstance(event, NeedsConfirmation):
            out.write(f"{event.t:7.1f}s ? {event.reason}\n")
        out.flush()

    out.write(f"recording to {folder}, the match to {session.path} (Ctrl+C to stop)\n")
    out.flush()
    try:
        record(camera, pipeline, folder, on_event, args.segment_seconds)
    except KeyboardInterrupt:
        out.write("stopped\n")
    finally:
        session.close()
        if live is not None:
            live.close(timeout=5)
    return 0


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorer", description="Domino table scorer")
    parser.set_defaults(run=_app, lang=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    app = sub.add_parser("app", help="the desktop app (the default command)")
    app.add_argument("--lang", choices=("fi", "en"), help="the app's language (default: as last chosen in the settings)")
    app.add_argument("--demo", action="store_true", help="play the bundled demo recording even with a camera")
    app.set_defaults(run=_app)

    demo = sub.add_parser("demo", help="score a bundled demo match log in the terminal")
    demo.add_argument("--lang", choices=("fi", "en"), default="en")
    demo.set_defaults(run=_demo)

    score = sub.add_parser("score", help="score a session log move by move")
    score.add_argument("log", help="session log (JSON Lines); - for the standard input (simulate | score -)")
    score.add_argument("--json", action="store_true", help="one JSON object per event line")
    score.add_argument("--describe", action="store_true", help="describe the board after each placement")
    score.add_argument("--lang", choices=("fi", "en"), default="en", help="language of --describe")
    score.set_defaults(run=_score)

    detect = sub.add_parser("detect", help="find every tile and read its pips in images")
    detect.add_argument("images", nargs="+", metavar="IMAGE")
    detect.add_argument("--json", action="store_true", help="one JSON object per image")
    detect.add_argument("--annotate", metavar="OUT.png", help="draw what was read")
    detect.add_argument("--threads", type=int, default=2)
    detect.set_defaults(run=_detect)

    board = sub.add_parser("board", help="rebuild the layout in an image as the game's spinner graph")
    board.add_argument("image", metavar="IMAGE")
    board.add_argument("--game", choices=("horse-race", "seven-rocks"), required=True)
    board.add_argument("--calibration", metavar="NAME", help="a calibration profile (name or .json path)")
    board.add_argument("--json", action="store_true")
    board.add_argument("--before", metavar="BOARD.json",
                       help="the board before the move (as `board --json` writes it): name the tile(s) laid since, and where")
    board.add_argument("--annotate", metavar="OUT.png")
    board.add_argument("--lang", choices=("fi", "en"), default="en")
    board.add_argument("--threads", type=int, default=2)
    board.set_defaults(run=_board)

    replay = sub.add_parser("replay", help="score a recorded game video")
    replay.add_argument("video", metavar="VIDEO")
    replay.add_argument("--game", choices=("horse-race", "seven-rocks"), required=True)
    replay.add_argument("--players", required=True, help="names in clockwise order, from the seat nearest the camera")
    replay.add_argument("--partnership", action="store_true")
    replay.add_argument("--starter", help="who starts the first round (else the arm that opens it tells)")
    replay.add_argument("--calibration", metavar="NAME")
    replay.add_argument("--json", action="store_true")
    replay.add_argument("--step", type=int, default=2, help="read every Nth frame (default 2: 15 fps from 30)")
    replay.add_argument("--threads", type=int, default=2)
    replay.add_argument("--quiet", action="store_true", help="no progress bar")
    replay.add_argument("--save", action="store_true", help="keep the match in the user's sessions folder")
    replay.add_argument("--out", metavar="DIR", help="keep the match in a new session file in DIR")
    replay.add_argument("--table", help="which table of a club evening")
    replay.set_defaults(run=_replay)

    rec = sub.add_parser("record", help="record a live game: video and session log side by side")
    rec.add_argument("--camera", default="0", help="a camera's index, or a network camera's URL")
    rec.add_argument("--width", type=int, default=1280)
    rec.add_argument("--height", type=int, default=720)
    rec.add_argument("--fps", type=float, default=30.0)
    rec.add_argument("--game", choices=("horse-race", "seven-rocks"), required=True)
    rec.add_argument("--players", required=True)
    rec.add_argument("--partnership", action="store_true")
    rec.add_argument("--starter")
    rec.add_argument("--calibration", metavar="NAME")
    rec.add_argument("--out", required=True, help="a new folder for the video segments")
    rec.add_argument("--sessions", metavar="DIR", help="where the match's session file goes (default: the user's sessions folder)")
    rec.add_argument("--table", help="which table of a club evening")
    rec.add_argument("--club-db", metavar="URL", help="write the match into this club database move by move "
                     "(default: $SCORER_CLUB_DB where set; else not)")
    rec.add_argument("--segment-seconds", type=float, default=10.0)
    rec.add_argument("--lang", choices=("fi", "en"), default="en")
    rec.add_argument("--threads", type=int, default=2)
    rec.set_defaults(run=_record)

    cal = sub.add_parser("calibrate", help="find the printed target and save a table calibration profile")
    source = cal.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N")
    source.add_argument("--video", metavar="FILE")
    source.add_argument("--image", metavar="FILE")
    cal.add_argument("--name", default="default", help="profile name (default: default)")
    cal.add_argument("--views", type=int, default=1, metavar="N",
                     help="views of the target in different places (video or camera), to measure the lens (default 1)")
    cal.add_argument("--dir", help="where to save profiles (default: the user's config folder)")
    cal.set_defaults(run=_calibrate)

    club = sub.add_parser("club", help="the club's players, match history and standings; the evening's board")
    db_help = "database file or SQLAlchemy URL, e.g. postgresql+psycopg://club@server/club (default: $SCORER_CLUB_DB or the user's data folder)"
    club.add_argument("--db", help=db_help)
    db_anywhere = argparse.ArgumentParser(add_help=False)  # `club serve --db URL` as well as `club --db URL serve`
    db_anywhere.add_argument("--db", default=argparse.SUPPRESS, help=db_help)
    csub = club.add_subparsers(dest="club_command", required=True, metavar="COMMAND")
    imp = csub.add_parser("import", parents=[db_anywhere], help="import session logs (a match already there is left alone, a longer log of it updates it)")
    imp.add_argument("logs", nargs="+", metavar="LOG")
    imp.add_argument("--table", help="which table of the evening the logs come from")
    csub.add_parser("players", parents=[db_anywhere], help="list the club's players")
    st = csub.add_parser("standings", parents=[db_anywhere], help="wins, shared wins, points for and against, points per move (finished matches)")
    st.add_argument("--since", metavar="DATE", help="today, yesterday or a date (YYYY-MM-DD)")
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
    club.set_defaults(run=_club)

    ses = sub.add_parser("sessions", help="the saved matches, newest first; show one; repair a damaged one")
    ses.add_argument("--dir", help="a sessions folder (default: the user's data folder)")
    ses.add_argument("--json", action="store_true")
    ses.set_defaults(run=_sessions, sessions_command="list")
    ssub = ses.add_subparsers(dest="sessions_command", metavar="COMMAND")
    show = ssub.add_parser("show", help="the account of one match, as `score` gives it")
    show.add_argument("id", metavar="ID", help="its number in the list, the start of its file name, or a path")
    show.add_argument("--json", action="store_true")
    show.add_argument("--lang", choices=("fi", "en"), default="en")
    rep = ssub.add_parser("repair", help="cut a torn or damaged tail off (kept beside it as FILE.damaged)")
    rep.add_argument("file", metavar="FILE")

    sim = sub.add_parser("simulate", help="write a random legal match as a session log")
    sim.add_argument("--game", choices=("horse-race", "seven-rocks"), default="horse-race")
    sim.add_argument("--players", type=int, default=None, help="number of players (2-4; default 4)")
    sim.add_argument("--names", help="comma-separated player names, clockwise (overrides --players)")
    sim.add_argument("--partnership", action="store_true")
    sim.add_argument("--seed", type=int, default=None)
    sim.set_defaults(run=_simulate)

    from scorer.cribbage.cli import add_cribbage_parser

    add_cribbage_parser(sub, _cribbage_app)

    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args, out, err))
    except ScorerError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
