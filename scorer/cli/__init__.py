"""The command line: ``python -m scorer SUBCOMMAND`` (also installed as ``domino-scorer``).

One module per family of commands -- :mod:`~scorer.cli.play` (app, replay, record),
:mod:`~scorer.cli.logs` (score, sessions, demo, simulate), :mod:`~scorer.cli.images` (detect, board,
calibrate), :mod:`~scorer.cli.club` -- and here the parser that names them all, and :func:`main`."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence, TextIO

from scorer.cli.club import add_club_parser
from scorer.cli.common import CLI_WORDS, EXIT_BAD_INPUT, sentences_in
from scorer.cli.images import _write_problems, add_board_parser, add_calibrate_parser, add_detect_parser  # noqa: F401 (_write_problems: tests read it here)
from scorer.cli.logs import add_demo_parser, add_score_parser, add_sessions_parser, add_simulate_parser
from scorer.cli.play import _app, _cribbage_app, add_app_parser, add_record_parser, add_replay_parser
from scorer.errors import ScorerError
from scorer.words import words_of

__all__ = ["EXIT_BAD_INPUT", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorer", description="Domino table scorer")
    parser.set_defaults(run=_app, lang=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # In the order `scorer --help` lists the commands.
    for add in (add_app_parser, add_demo_parser, add_score_parser, add_detect_parser, add_board_parser, add_replay_parser,
                add_record_parser, add_calibrate_parser, add_club_parser, add_sessions_parser, add_simulate_parser):
        add(sub)

    from scorer.cribbage.cli import add_cribbage_parser

    add_cribbage_parser(sub, _cribbage_app)
    _own_usage(sub)
    return parser


def _own_usage(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Each command (and each of a command's own commands) named as the parser whose usage an argument it does not take
    is told with (:func:`main`)."""
    for command in sub.choices.values():
        command.set_defaults(command_parser=command)
        for action in command._actions:  # (argparse lists a command's own commands only among its actions)
            if isinstance(action, argparse._SubParsersAction):
                _own_usage(action)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv.insert(0, "app")  # (the app is the default command: `scorer --lang fi` is `scorer app --lang fi`)
    args, extra = parser.parse_known_args(argv)
    if extra:
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.run(args, out, err))
    except ScorerError as exc:
        # (Said in the command's language where the error is made of Words: the rules' refusals, a table's problems.)
        lang = getattr(args, "lang", None) or "en"
        err.write(f"{CLI_WORDS[lang]['error']}: {sentences_in(lang)(words_of(exc))}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
