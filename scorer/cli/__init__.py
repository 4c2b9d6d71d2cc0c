"""The command line: ``python -m scorer SUBCOMMAND`` (also installed as ``domino-scorer``).

One module per family of commands -- :mod:`~scorer.cli.play` (app, replay, record),
:mod:`~scorer.cli.logs` (score, sessions, demo, simulate), :mod:`~scorer.cli.images` (detect, board,
calibrate), :mod:`~scorer.cli.club` -- and here the parser that names them all, and :func:`main`."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence, TextIO

from scorer.cli.club import _club
from scorer.cli.common import EXIT_BAD_INPUT
from scorer.cli.images import _board, _calibrate, _detect, _write_problems  # noqa: F401 (_write_problems: tests read it here)
from scorer.cli.logs import _demo, _score, _sessions, _simulate
from scorer.cli.play import _app, _cribbage_app, _record, _replay
from scorer.errors import ScorerError

__all__ = ["EXIT_BAD_INPUT", "build_parser", "main"]


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
    score.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the account and of --describe")
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
