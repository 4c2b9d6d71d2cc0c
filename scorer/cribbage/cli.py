"""``scorer cribbage show`` and ``scorer cribbage peg``."""

from __future__ import annotations

import argparse
from typing import Callable, TextIO

from scorer.cribbage.cards import Card, check_distinct, parse_card
from scorer.cribbage.pegging import PegPlay, PegSequence, check_rank_counts
from scorer.cribbage.show import count_show, his_heels


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    hand = [parse_card(c) for c in args.cards]
    starter = parse_card(args.starter)
    count = count_show(hand, starter, crib=args.crib)
    what = "crib" if args.crib else "hand"
    out.write(f"{what} {' '.join(map(str, hand))}, starter {starter}\n")
    out.write(count.explain() + "\n")
    if his_heels(starter):
        out.write(f"(the starter {starter} also gives the dealer 2 for his heels, scored at the cut)\n")
    return 0


def _peg(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    tokens = list(args.cards)
    cards: list[Card | None] = [None if t.lower() == "go" else parse_card(t, suit_required=False) for t in tokens]
    real = [c for c in cards if c is not None]
    check_rank_counts(real)
    check_distinct(real)
    seq = PegSequence()
    total = 0
    for token, card in zip(tokens, cards):
        result = seq.add(card)
        if isinstance(result, PegPlay):
            reasons = ", ".join(f"{i.kind} {i.points}" for i in result.items) or "-"
            total += result.points
            out.write(f"{str(card):>4}  count {result.count:>2}  {result.points:>2} points  ({reasons})\n")
        elif result is not None:
            total += result.points
            out.write(f"{'go':>4}  count resets  {result.points:>2} point  (last card {result.cards[0]})\n")
        else:
            out.write(f"{'go':>4}  count resets\n")
    if args.last:
        last = seq.finish()
        if last is not None:
            total += last.points
            out.write(f"last  card {last.cards[0]}  {last.points} point\n")
    # (The cards do not say who played them: the sum is the table's, not a player's.)
    out.write(f"total {total} (each line's points go to whoever played that card)\n")
    return 0


Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def add_cribbage_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", run_app: Handler) -> None:
    """The ``cribbage`` commands; ``run_app`` starts the desktop board (given by the top-level CLI,
    the only place below the app that may reach it: this package stays below the app)."""
    crib = sub.add_parser("cribbage", help="cribbage counting: the show and pegging")
    csub = crib.add_subparsers(dest="cribbage_command", required=True, metavar="COMMAND")
    show = csub.add_parser("show", help="count a hand or crib with the starter, explained")
    show.add_argument("cards", nargs="+", metavar="CARD", help="the 4 cards, like 5H 5C 5S JD")
    show.add_argument("--starter", required=True, metavar="CARD", help="the starter (cut) card")
    show.add_argument("--crib", action="store_true", help="count as the crib (a flush needs all five)")
    show.set_defaults(run=_show)
    peg = csub.add_parser("peg", help="score a pegging sequence card by card")
    peg.add_argument("cards", nargs="+", metavar="CARD", help="ranks or cards in play order (4 7 J ...), 'go' where nobody can play")
    peg.add_argument("--last", action="store_true", help="the sequence is complete: the last card scores 1")
    peg.set_defaults(run=_peg)
    app = csub.add_parser("app", help="keep a cribbage game on the board in the desktop app")
    app.add_argument("--players", required=True, help="2-4 names, clockwise")
    app.add_argument("--target", type=int, choices=(61, 121), default=121)
    app.add_argument("--muggins", action="store_true", help="missed points go to the next player")
    app.add_argument("--lang", choices=("en", "fi"), default=None, help="the language (default: the saved setting)")
    app.set_defaults(run=run_app)
