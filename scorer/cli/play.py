"""The commands that play a match: ``app`` (the default), ``replay`` a video, ``record`` a live game,
``cribbage app``.  The app is imported only here, when it is started: the command line is the top."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Literal, TextIO

from scorer.cli.common import CLI_WORDS, add_match_arguments, add_threads_argument, calibration_told, sentences_in
from scorer.words import decimal

if TYPE_CHECKING:
    from scorer.club.live import LiveStatus, LiveTable
    from scorer.pipeline.core import TablePipeline
    from scorer.pipeline.events import PipelineEvent
    from scorer.pipeline.sources import FrameSource
    from scorer.rules.history import MatchHistory
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session


@dataclass(frozen=True)
class ReplayOptions:
    """What ``replay`` needs: the video, the match (game, players clockwise as "A,B,..."), how to read
    it and where the match goes (``out``: a new session file in that folder; ``save``: in the user's
    sessions folder; neither: kept in memory)."""

    video: str
    game: str
    players: str
    partnership: bool = False
    starter: str | None = None
    calibration: str | None = None
    table: str | None = None
    step: int = 2
    threads: int = 2
    as_json: bool = False
    quiet: bool = False
    out: str | None = None
    save: bool = False
    lang: Literal["fi", "en"] = "en"


def _app(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The main job: the app; with no display at all, the same demo in the terminal."""
    from scorer.app.start import has_display

    if not has_display():
        err.write("No display: playing the demo recording in the terminal instead of the app.\n\n")
        from importlib.resources import as_file, files

        with as_file(files("scorer") / "data" / "demo.mp4") as video:
            demo = ReplayOptions(str(video), "horse-race", "Ann,Ben", starter="Ben", step=1, threads=2, quiet=True, save=True,
                                 lang="fi" if args.lang == "fi" else "en")
            return replay_video(demo, out, err)
    from scorer.app.start import run_app

    return run_app(lang=args.lang, demo=getattr(args, "demo", False))


def _cribbage_app(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``cribbage app``: the desktop board (started here, at the top, so scorer.cribbage stays below the app)."""
    from scorer.app.cribbage import run_cribbage_app

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    return run_cribbage_app(players, args.target, args.muggins, args.lang)


def _header_for(args: argparse.Namespace | ReplayOptions, source: MatchSource) -> MatchHeader:
    """The match the arguments name, checked (the table, the starter) before anything is made."""
    from scorer.rules.log import MatchHeader

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    # (Seven Rocks is only ever played in two partnerships: said or not, it is.)
    partnership = bool(args.partnership) or args.game == "seven-rocks"
    header = MatchHeader(args.game, tuple(players), partnership, table=getattr(args, "table", None),
                         source=source, calibration=args.calibration)
    if args.starter and args.starter not in players:
        from scorer.errors import TableError

        raise TableError(f"--starter {args.starter!r} is not one of the players ({', '.join(players)})")
    header.new_match()
    return header


def _new_session(args: argparse.Namespace | ReplayOptions, source: MatchSource, folder: Path | None | Literal[False]) -> MatchHistory:
    """The match the arguments name, in a new session file in ``folder`` (the user's sessions folder
    by default); with ``folder`` False, kept in memory only."""
    from scorer.rules.history import MatchHistory
    from scorer.sessions import Session

    header = _header_for(args, source)
    return MatchHistory.new(header) if folder is False else Session.create(header, folder)


def _pipeline_for(args: argparse.Namespace | ReplayOptions, history: MatchHistory, source: FrameSource) -> TablePipeline:
    """The pipeline scoring ``history``'s match from ``source``, seen through the calibration its header names."""
    from scorer.pipeline.session import open_table

    return open_table(history, source, starter=args.starter, threads=args.threads)


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if not (args.game and args.players):
        _as_recorded(args)
    options = ReplayOptions(args.video, args.game, args.players, args.partnership, args.starter, args.calibration,
                            args.table, args.step, args.threads, args.json, args.quiet, args.out, args.save, args.lang)
    return replay_video(options, out, err)


def _as_recorded(args: argparse.Namespace) -> None:
    """The game, players and pairs (and table and calibration, where not given) of the saved match that
    ``args.video`` (a ``record`` folder) is the recording of."""
    from scorer.errors import TableError
    from scorer.pipeline.replay import recorded_match

    summary = recorded_match(Path(args.video)) if Path(args.video).is_dir() else None
    if summary is None or summary.header is None:
        missing = [option for option, given in (("--game", args.game), ("--players", args.players)) if not given]
        raise TableError(f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} needed for {args.video}: only a folder "
                         "`record` wrote brings its match's game and players (--players: the names clockwise from the seat "
                         "nearest the camera, e.g. --players Ann,Ben,Cid)")
    header = summary.header
    args.game, args.players = args.game or header.game, args.players or ",".join(header.players)
    args.partnership = args.partnership or header.partnership
    args.table = args.table or header.table
    args.calibration = args.calibration or header.calibration


def replay_video(args: ReplayOptions, out: TextIO, err: TextIO) -> int:
    """``replay VIDEO``: a recorded game scored as fast as it goes; the exit status (1: the video ended early)."""
    from scorer.pipeline.events import MoveEvent, NeedsConfirmation, Notice
    from scorer.pipeline.replay import progress_bar, run
    from scorer.pipeline.sources import open_video
    from scorer.rules.log import MatchSource
    from scorer.rules.transcript import narrate, scores_text
    from scorer.sessions import Session, sessions_dir

    source = open_video(args.video, step=args.step)
    folder: Path | Literal[False] = Path(args.out) if args.out else sessions_dir() if args.save else False
    where = MatchSource("video", str(Path(args.video).resolve()), args.step)
    history = _new_session(args, where, folder)
    words = CLI_WORDS[args.lang]
    if isinstance(history, Session):  # (a file: folder is not False)
        err.write(words["saving"].format(path=history.path) + "\n")
    pipeline = _pipeline_for(args, history, source)
    if pipeline.config.profile is not None:
        err.write(calibration_told(pipeline.config.profile, args.lang) + "\n")
    # (Places told as the part of the picture too, "(top left, 602, 399)" -- not where a profile may put them in millimetres.)
    say = str if args.as_json else sentences_in(args.lang, None if args.calibration else source.size)
    asked = _Unanswered()

    def on_event(event: PipelineEvent) -> None:
        if args.as_json:
            if isinstance(event, (MoveEvent, NeedsConfirmation, Notice)):
                out.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")
        elif isinstance(event, MoveEvent):
            for line in narrate(event.step, args.lang):
                out.write(f"{event.t:7.1f}s {line}\n")
        elif isinstance(event, NeedsConfirmation):
            asked.note(event.question)
            out.write(f"{event.t:7.1f}s  ? {words['asked']}: {say(event.reason)}\n")
        elif isinstance(event, Notice):
            out.write(f"{event.t:7.1f}s  ! {say(event.message)}\n")
        out.flush()

    show = progress_bar(source.duration, err) if not args.quiet else None
    try:
        stats = run(source, pipeline, on_event, show)
    finally:
        if isinstance(history, Session):
            history.close()
    if show is not None:
        err.write("\n")
    if source.ended_early:
        err.write(words["early"].format(video=args.video, seconds=decimal(stats.video_seconds, lang=args.lang)) + "\n")
    if not args.as_json:
        out.write(f"{words['scores']}: {scores_text(pipeline.match)}\n")
        out.write(asked.said(words))  # (no one to ask here: the replay went on with its own guess at each)
    err.write(words["replayed"].format(seconds=decimal(stats.video_seconds, lang=args.lang), wall=decimal(stats.wall_seconds, lang=args.lang),
                                       speed=decimal(stats.speed, lang=args.lang)) + "\n")
    return 1 if source.ended_early else 0


def _record(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.pipeline.events import MoveEvent, NeedsConfirmation, Notice
    from scorer.pipeline.replay import note_session, record
    from scorer.pipeline.session import open_table
    from scorer.pipeline.sources import Camera
    from scorer.rules.log import MatchSource
    from scorer.rules.transcript import scores_text
    from scorer.sessions import Session, SessionError
    from scorer.vision import TileDetector
    from scorer.vision.calibration import load_profile

    folder = Path(args.out).resolve()
    if any((folder / "video").glob("*.avi")):
        raise SessionError(f"{folder} already holds a recording: give a new folder for a new match")
    # Everything that can be refused is checked before the folder and the match's file are made.
    header = _header_for(args, MatchSource("camera" if args.camera.isdigit() else "url", args.camera, 1, str(folder)))
    profile = load_profile(args.calibration) if args.calibration else None
    voice = _voice(args.lang) if args.voice else None
    detector = TileDetector.live(threads=args.threads)  # (the models found and loaded)
    camera = Camera(int(args.camera) if args.camera.isdigit() else args.camera, args.width, args.height, args.fps)
    camera.connect()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        session = Session.create(header, Path(args.sessions) if args.sessions else None)
        note_session(folder, session.path)  # (replay FOLDER finds the match from the folder)
    except BaseException:  # (whatever stops it here, the camera opened is let go before it is told)
        camera.release()
        raise
    pipeline = open_table(session, camera, profile, starter=args.starter, detector=detector)
    live = _club_table(args, session, err)
    say, words, asked = sentences_in(args.lang), CLI_WORDS[args.lang], _Unanswered()

    def on_event(event: PipelineEvent) -> None:
        if isinstance(event, MoveEvent) and event.announcement is not None:
            out.write(f"{event.t:7.1f}s {event.announcement.text(args.lang)}\n")
            if voice is not None:
                voice(event.announcement.spoken(args.lang))  # (the words for the ear: "neljä–viisi", not "[4|5]")
        elif isinstance(event, NeedsConfirmation):
            asked.note(event.question)
            out.write(f"{event.t:7.1f}s ? {say(event.reason)}\n")
        elif isinstance(event, Notice):  # (a picture too dark, a camera knocked: as the replay prints them)
            out.write(f"{event.t:7.1f}s ! {say(event.message)}\n")
        out.flush()

    if profile is not None:
        out.write(calibration_told(profile, args.lang) + "\n")
    out.write(words["recording"].format(folder=folder, path=session.path) + "\n")
    out.flush()
    try:
        record(camera, pipeline, folder, on_event, args.segment_seconds)
    except KeyboardInterrupt:
        out.write(words["stopped"] + "\n")
    finally:  # (the scores so far are told even where the camera gave up)
        session.close()
        if live is not None:
            live.close(timeout=5)
        out.write(f"{words['scores']}: {scores_text(pipeline.match)}\n")
        out.write(asked.said(words))  # (no one to ask here: each was taken on the camera's best guess)
    return 0


# From this many tiles laid by an arm from another seat than the player on turn's, the players given (or their order,
# or the game) may not be the table's: said after the questions left unanswered.
OTHER_SEAT_HINT = 2


@dataclass
class _Unanswered:
    """The questions put with no one to answer them, and how many of them were about a tile laid by an arm from another
    seat than the player on turn's (:class:`~scorer.pipeline.questions.WhoseArm`)."""

    asked: int = 0
    other_seat: int = 0

    def note(self, question: object) -> None:
        from scorer.pipeline.questions import WhoseArm

        self.asked += 1
        self.other_seat += isinstance(question, WhoseArm)

    def said(self, words: dict[str, str]) -> str:
        """What is said of them after the scores (nothing where none was asked)."""
        lines = [words["unanswered"].format(count=self.asked)] if self.asked else []
        if self.other_seat >= OTHER_SEAT_HINT:
            lines.append(words["other-seat"].format(count=self.other_seat))
        return "".join(line + "\n" for line in lines)


def _club_table(args: argparse.Namespace, session: Session, err: TextIO) -> LiveTable | None:
    """The club's database sent the match move by move (the club's board sees it): the one named, else, for a table of
    a club evening (``--table``), this computer's club file -- the one ``club serve`` shows, as the app does."""
    club_db = args.club_db or os.environ.get("SCORER_CLUB_DB")
    if not club_db and not args.table:
        return None
    from scorer.club import LiveTable

    def behind(status: LiveStatus) -> None:
        if status.behind:
            err.write(f"club database not reached ({status.error}); the match is kept and sent when it is back\n")

    live = LiveTable(club_db or None, args.table, on_status=behind)  # (None: this computer's file, opened by its worker)
    session.listeners.append(live)
    live(session)
    return live


def _voice(lang: str) -> Callable[[str], None]:
    """The announcements said aloud by espeak-ng, one after another, as the app's voice says them."""
    import shutil

    from scorer.app.espeak import EspeakQueue
    from scorer.errors import SourceError

    program = shutil.which("espeak-ng")
    if program is None:
        raise SourceError("--voice needs espeak-ng, which is not installed (Debian/Ubuntu: sudo apt-get install espeak-ng)")

    def failed(problem: str) -> None:
        sys.stderr.write(f"voice: {problem}\n")

    queue = EspeakQueue(program, failed)
    return lambda text: queue.say(text, lang)


# -- the commands' arguments (scorer/cli/__init__.py adds them in the order --help lists them)


def add_app_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    app = sub.add_parser("app", help="the desktop app (the default command)")
    app.add_argument("--lang", choices=("fi", "en"), help="the app's language (default: as last chosen in the settings)")
    app.add_argument("--demo", action="store_true", help="play the bundled demo recording even with a camera")
    app.set_defaults(run=_app)


def add_replay_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = sub.add_parser("replay", help="score a recorded game video")
    replay.add_argument("video", metavar="VIDEO", help="a video file, or a folder `record` wrote")
    add_match_arguments(replay, recorded=True)
    replay.add_argument("--json", action="store_true", help="one JSON object per move, question and notice")
    replay.add_argument("--step", type=int, default=2, help="read every Nth frame (default 2: 15 fps from 30)")
    add_threads_argument(replay)
    replay.add_argument("--quiet", action="store_true", help="no progress bar")
    replay.add_argument("--save", action="store_true", help="keep the match in the user's sessions folder")
    replay.add_argument("--out", metavar="DIR", help="keep the match in a new session file in DIR")
    replay.add_argument("--table", help="which table of a club evening")
    replay.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the account (with --json, the events stay in English)")
    replay.set_defaults(run=_replay)


def add_record_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rec = sub.add_parser("record", help="record a live game: video and session log side by side")
    rec.add_argument("--camera", default="0", help="a camera's index, or a network camera's URL")
    rec.add_argument("--width", type=int, default=1280, help="the picture asked of the camera (default 1280x720, 30 fps)")
    rec.add_argument("--height", type=int, default=720)
    rec.add_argument("--fps", type=float, default=30.0)
    add_match_arguments(rec)
    rec.add_argument("--out", required=True, help="a new folder for the video segments")
    rec.add_argument("--sessions", metavar="DIR", help="where the match's session file goes (default: the user's sessions folder)")
    rec.add_argument("--table", help="which table of a club evening")
    rec.add_argument("--club-db", metavar="URL", help="write the match into this club database move by move "
                     "(default: $SCORER_CLUB_DB where set; else, with --table, this computer's club file, which `club "
                     "serve` shows; else none)")
    rec.add_argument("--segment-seconds", type=float, default=10.0, help="the video is written in pieces this long (default 10)")
    rec.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the announcements, questions and notices")
    rec.add_argument("--voice", action="store_true", help="say each announcement aloud with espeak-ng (else only printed); "
                     "questions are printed and taken on the camera's best guess: the app asks them")
    add_threads_argument(rec)
    rec.set_defaults(run=_record)
