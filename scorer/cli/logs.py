"""The commands that read and write session logs: ``score``, ``sessions``, ``demo``, ``simulate``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

from scorer.cli.common import CLI_WORDS, EXIT_BAD_INPUT, counted, sentences_in

if TYPE_CHECKING:
    from scorer.rules import Match
    from scorer.sessions import SessionSummary


def _score(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return score_log(args.log, out, err, as_json=args.json, describe=args.describe, lang=args.lang)


def score_log(log_name: str, out: TextIO, err: TextIO, *, as_json: bool = False, describe: bool = False,
              lang: Literal["fi", "en"] = "en") -> int:
    """``score LOG``: a session log (``-``: the standard input) scored move by move; the exit status."""
    from scorer.rules.describe import describe_board, describe_placement
    from scorer.rules.game import PlayOutcome
    from scorer.rules.transcript import narrate, record
    from scorer.sessions import SessionError, read_bytes, read_session

    path = Path(log_name)
    try:
        log = (read_bytes(sys.stdin.buffer.read(), Path("<stdin>")) if log_name == "-" else read_session(path)).log
    except SessionError as exc:
        err.write(f"{exc}\n")
        return EXIT_BAD_INPUT
    header = log.header
    if not as_json:
        if lang == "fi":
            kind = "pareittain" if header.partnership else "yksin"
        else:
            kind = "in partnership" if header.partnership else "alone"
        out.write(f"{header.rules.title}: {', '.join(header.players)} ({kind})\n")
    for step in log.steps:
        played = step.outcome if describe and isinstance(step.outcome, PlayOutcome) else None
        board = None if played is None else step.after.board
        if as_json:
            out.write(json.dumps(record(step), ensure_ascii=False) + "\n")
            if played is not None and board is not None:  # (alone on the error stream: the originals' whole notation)
                text = describe_placement(played.tile, board, step.after.rules, lang)
                err.write("\n".join("    " + t for t in text.split("\n")) + "\n")
        else:
            # The board after a play, told once: its tile, sum and points are the play's own line already.
            described = [] if board is None else ["    " + describe_board(board, lang)]
            for line in narrate(step, lang, described):
                out.write(line + "\n")
    if log.error is not None:
        out.flush()
        err.write(f"{path}:{log.error.number}: {sentences_in(lang)(log.error.message)}\n")
        return EXIT_BAD_INPUT
    if not as_json and log.steps and not log.match.is_over:
        out.write(_what_comes_next(log.match, lang) + "\n")
    return 0


def _what_comes_next(match: Match, lang: str) -> str:
    """Where an unfinished match stands, for the account's last line: whose turn, or who starts the next round."""
    from scorer.rules.game import Phase

    fi = lang == "fi"
    head = "Ottelu on kesken" if fi else "Match not finished"
    nxt = match.next_to_act
    if match.phase is Phase.IN_ROUND and nxt is not None:
        return f"{head}; vuorossa: {nxt}" if fi else f"{head}; next to act: {nxt}"
    if match.phase is Phase.ROUND_OVER:
        return (f"{head}; kierros {match.round_no} on päättynyt: kädet laskematta" if fi
                else f"{head}; round {match.round_no} is over: the hands are still to be counted")
    if nxt is not None:  # (the player who went out starts the next round)
        return (f"{head}; kierroksen {match.round_no + 1} aloittaa {nxt}" if fi
                else f"{head}; {nxt} starts round {match.round_no + 1}")
    return (f"{head}; kierroksen {match.round_no + 1} aloittaja arvotaan" if fi
            else f"{head}; the starter of round {match.round_no + 1} is drawn by lot")


def _sessions(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.sessions import find_session, list_sessions, repair_alone

    folder = Path(args.dir) if args.dir else None
    if args.sessions_command == "show":
        return score_log(str(find_session(args.id, folder)), out, err, as_json=args.json, lang=args.lang)
    if args.sessions_command == "repair":
        path = Path(args.file)
        damage = repair_alone(path)
        out.write(damage.describe() + "\n" if damage else f"{path}: nothing to repair; every line reads\n")
        return 0
    sessions = list_sessions(folder)
    if args.json:
        for s in sessions:
            out.write(json.dumps({"file": str(s.path), "started": s.started, "game": s.header and s.header.game,
                                  "players": s.header and list(s.header.players), "demo": s.is_demo, "events": s.events,
                                  "scores": s.scores, "state": s.state, "problem": s.problem}, ensure_ascii=False) + "\n")
        return 0
    words = SESSIONS_WORDS[args.lang]
    if not sessions:
        out.write(words["none"] + "\n")
    else:
        _session_table(sessions, words, SESSIONS_HEADS[args.lang], out)
    from scorer.cribbage.store import data_dir as cribbage_dir

    cribbage = sorted(cribbage_dir().glob("*.jsonl")) if cribbage_dir().is_dir() else []
    if cribbage:  # (kept apart: a domino match's session log is not a cribbage game's file)
        games = counted(len(cribbage), "game") if args.lang == "en" else f"{len(cribbage)} peli" + "ä" * (len(cribbage) != 1)
        out.write(words["cribbage"].format(games=games, folder=cribbage_dir()) + "\n")
    return 0


# The saved matches' list in each language: its columns' heads, a match's state, what is said beside it.
SESSIONS_HEADS = {"en": ("started", "game", "state", "events", "scores"),
                  "fi": ("aloitettu", "peli", "tila", "tapahtumia", "pisteet")}
SESSIONS_WORDS: dict[str, dict[str, str]] = {
    "en": {"none": "No saved matches yet.", "playing": "playing", "finished": "finished", "recovered": "recovered",
           "damaged": "damaged", "demo": "(the demo)", "unreadable": "(no readable match line)",
           "cribbage": "Cribbage games are kept apart, {games} in {folder}: `cribbage app --players A,B` offers those "
                       "players' unfinished one."},
    "fi": {"none": "Tallennettuja otteluita ei vielä ole.", "playing": "kesken", "finished": "päättynyt", "recovered": "korjattu",
           "damaged": "vaurioitunut", "demo": "(esittely)", "unreadable": "(ottelurivi ei ole luettavissa)",
           "cribbage": "Cribbage-pelit pidetään erikseen, {games} kansiossa {folder}: `cribbage app --players A,B` "
                       "tarjoaa niiden pelaajien keskeneräistä peliä."},
}


def _session_table(sessions: list[SessionSummary], words: dict[str, str], heads: tuple[str, ...], out: TextIO) -> None:
    """The saved matches, newest first, under their columns' heads: a row each, its file on the line below."""
    games = [_game_label(s, words["demo"]) for s in sessions]
    states = [words.get(s.state, s.state) for s in sessions]
    started, game, state, events, scores = heads
    # Columns as wide as their longest entry or head, two spaces apart (seven-rocks, a demo's mark, "recovered").
    game_width = max(len(game), *map(len, games))
    state_width = max(len(state), *map(len, states))
    events_width = max(len(events), 4)
    out.write(f"{'#':>3}  {started:<16}  {game:<{game_width}}  {state:<{state_width}}  {events:>{events_width}}  {scores}\n")
    for n, (s, game_label, state_word) in enumerate(zip(sessions, games, states), start=1):
        who = s.side_scores if s.header else words["unreadable"]
        out.write(f"{n:>3}  {s.started[:16].replace('T', ' '):<16}  {game_label:<{game_width}}  {state_word:<{state_width}}  "
                  f"{s.events:>{events_width}}  {who}\n")
        out.write(f"     {s.path.name}" + (f"  ({s.problem})" if s.problem else "") + "\n")


def _game_label(s: SessionSummary, demo: str) -> str:
    """The game played; ``demo`` ("(the demo)") after a match of the bundled demo, a video's name after a replay of it,
    as the app's start screen marks them."""
    if s.header is None:
        return "?"
    source = s.header.source
    video = f" · {Path(source.location).name}" if source is not None and source.kind == "video" and source.location else ""
    return s.header.game + (f" {demo}" if s.is_demo else "") + video


def _demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """A recorded match's session log, scored move by move in the terminal."""
    from importlib.resources import as_file, files

    resource = files("scorer") / "data" / "demo-horse-race.jsonl"
    with as_file(resource) as path:
        out.write(CLI_WORDS[args.lang]["demo"] + "\n\n")
        return score_log(str(path), out, err, lang=args.lang)


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.errors import TableError
    from scorer.rules.log import dumps, event_to_json, header_to_json
    from scorer.rules.simulate import DEFAULT_NAMES, simulate_match

    # ("Ann, Ben": no name begins with a space)
    names: list[str] | None = [str(name).strip() for name in args.names.split(",")] if args.names else None
    if names and args.players is not None and args.players != len(names):
        raise TableError(f"--players {args.players} but --names gives {len(names)}: {', '.join(names)}")
    n = len(names) if names else args.players or 4
    partnership = args.partnership or args.game == "seven-rocks"  # Seven Rocks is always played in pairs
    sim = simulate_match(args.game, n, partnership, seed=args.seed, names=names or DEFAULT_NAMES)
    out.write(dumps(header_to_json(sim.header)) + "\n")
    for step in sim.events:
        out.write(dumps(event_to_json(step.event)) + "\n")
    return 0


# -- the commands' arguments (scorer/cli/__init__.py adds them in the order --help lists them)


def add_demo_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = sub.add_parser("demo", help="score a bundled demo match log in the terminal")
    demo.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the account")
    demo.set_defaults(run=_demo)


def add_score_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    score = sub.add_parser("score", help="score a session log move by move")
    score.add_argument("log", help="session log (JSON Lines); - for the standard input (simulate | score -)")
    score.add_argument("--json", action="store_true", help="one JSON object per event line")
    score.add_argument("--describe", action="store_true", help="describe the board after each placement")
    score.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the account and of --describe")
    score.set_defaults(run=_score)


def add_sessions_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ses = sub.add_parser("sessions", help="the saved matches, newest first; show one; repair a damaged one")
    ses.add_argument("--dir", help="a sessions folder (default: the user's data folder)")
    ses.add_argument("--json", action="store_true", help="one JSON object per match")
    ses.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the list (and of `show`'s account)")
    ses.set_defaults(run=_sessions, sessions_command="list")
    ssub = ses.add_subparsers(dest="sessions_command", metavar="COMMAND")
    show = ssub.add_parser("show", help="the account of one match, as `score` gives it")
    show.add_argument("id", metavar="ID", help="its number in the list, the start of its file name, or a path")
    show.add_argument("--json", action="store_true", help="one JSON object per event line")
    show.add_argument("--lang", choices=("fi", "en"), default=argparse.SUPPRESS, help="language of the account")
    # (Also after the command, where a user adds it once the first try found nothing: `sessions show 1 --dir D`.)
    show.add_argument("--dir", default=argparse.SUPPRESS, help="a sessions folder (as before the command)")
    rep = ssub.add_parser("repair", help="cut a torn or damaged tail off (kept beside it as FILE.damaged)")
    rep.add_argument("file", metavar="FILE", help="the session file to mend")


def add_simulate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser("simulate", help="write a random legal match as a session log")
    sim.add_argument("--game", choices=("horse-race", "seven-rocks"), default="horse-race",
                     help="the game (default horse-race; seven-rocks is four players in two pairs)")
    sim.add_argument("--players", type=int, default=None, help="number of players (2-4; default 4)")
    sim.add_argument("--names", help="comma-separated player names, clockwise (overrides --players)")
    sim.add_argument("--partnership", action="store_true", help="four players in two pairs, partners opposite")
    sim.add_argument("--seed", type=int, default=None, help="the same seed, the same match (default: a new one each time)")
    sim.set_defaults(run=_simulate)
