"""What the cribbage app shows and says after each thing done at the table, in Finnish and English.

Pegging is announced as players do it: the card, the running count, what it scored; a go, the
count starting again and who leads; the show's totals; the win (and a skunk).  Each announcement
has a shown form and a spoken one (numbers and cards in words), as the domino announcements do.
"""

from __future__ import annotations

import re
from collections import Counter

from scorer.cribbage.cards import Card
from scorer.cribbage.match import CribbageGame, CribEvent, Cut, Deal, Go, PegCard, Scored, Show
from scorer.cribbage.show import Score
from scorer.pipeline.announce import Announcement, genitive_fi, number_en, number_fi, speakable

_RANKS_EN = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_RANKS_FI = {1: "ässä", 2: "kakkonen", 3: "kolmonen", 4: "nelonen", 5: "vitonen", 6: "kutonen", 7: "seiska",
             8: "kasi", 9: "ysi", 10: "kymppi", 11: "jätkä", 12: "rouva", 13: "kuningas"}
_CARDS_GENITIVE_FI = {3: "kolmen", 4: "neljän", 5: "viiden", 6: "kuuden", 7: "seitsemän"}
_SUITS_EN = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUITS_FI = {"S": "pata", "H": "hertta", "D": "ruutu", "C": "risti"}
_KINDS_EN = {"pair royal": "three of a kind", "double pair royal": "four of a kind"}
_KINDS_FI = {"fifteen": "viisitoista", "thirty-one": "kolmekymmentäyksi", "pair": "pari", "pair royal": "kolmoset",
             "double pair royal": "neloset", "run": "suora", "go": "go", "last card": "viimeinen kortti",
             "his heels": "jätkä nostona", "flush": "väri", "nobs": "nostokortin maan jätkä"}


def card_words(card: Card, lang: str) -> str:
    """"five of hearts", "jack"; "herttavitonen", "jätkä"."""
    if lang == "fi":
        rank = _RANKS_FI[card.rank]
        return _SUITS_FI[card.suit] + rank if card.suit else rank
    rank = _RANKS_EN.get(card.rank) or number_en(card.rank)
    return f"{rank} of {_SUITS_EN[card.suit]}" if card.suit else rank


_CARD_RE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
_RANK_LETTERS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def speakable_cards(text: str, lang: str) -> str:
    """Shown text made fit to be read aloud: cards with their suits in words ("JS": "jack of spades"), then
    numbers in words."""
    said = _CARD_RE.sub(lambda m: card_words(Card(_RANK_LETTERS.get(m[1]) or int(m[1]), m[2]), lang), text)
    return speakable(said, lang)


def _points(n: int, lang: str) -> str:
    if lang == "fi":
        return f"{number_fi(n)} piste" + ("" if n == 1 else "ttä")
    return f"{number_en(n)} point" + ("" if n == 1 else "s")


def kind_words(kind: str, cards: int, lang: str) -> str:
    """A scoring item's name: "run of three", "pair"; "kolmen kortin suora", "pari"."""
    if kind == "run":
        if lang == "fi":
            return f"{_CARDS_GENITIVE_FI.get(cards, number_fi(cards))} kortin suora"
        return f"run of {number_en(cards)}"
    if lang == "fi":
        return _KINDS_FI.get(kind, kind)
    return _KINDS_EN.get(kind, kind)


def _scored_words(s: Scored, lang: str) -> str:
    """"fifteen and run of three: five points" for one player's scoring."""
    kinds = [kind_words(i.kind, len(i.cards), lang) for i in s.items] or [s.note]
    joined = (" ja " if lang == "fi" else " and ").join(kinds)
    return f"{joined}: {_points(s.points, lang)}"


def _grouped(items: tuple[Score, ...], lang: str) -> list[tuple[str, int]]:
    """The items as counted aloud: a show's pairs of one rank as the kind they make (three pairs "three of a
    kind"), then items alike told once with how many ("fifteen ×4", 8)."""
    pairs = Counter(i.cards[0].rank for i in items if i.kind == "pair")
    grouping = len(items) > 1  # (a pegging's single pair is said as it is)
    of_a_kind = {1: "pair", 3: "pair royal", 6: "double pair royal"}
    counted: dict[str, list[int]] = {}
    for item in items:
        if item.kind == "pair" and grouping:
            n = pairs.pop(item.cards[0].rank, 0)  # (the rank's pairs told at its first, as one)
            if n:
                counted.setdefault(kind_words(of_a_kind.get(n, "pair"), 0, lang), []).append(2 * n)
        else:
            counted.setdefault(kind_words(item.kind, len(item.cards), lang), []).append(item.points)
    return [(words if len(p) == 1 else f"{words} ×{len(p)}", sum(p)) for words, p in counted.items()]


def _scored_shown(s: Scored, lang: str) -> str:
    """"fifteen +2"; "fifteen ×2 4, run of three 3: +7"; counted 13 where 10 was claimed (muggins): "...: 13,
    claimed +10"."""
    items = _grouped(s.items, lang)
    if not items:
        return f"{s.note} +{s.points}"
    total = sum(p for _, p in items)
    if len(items) == 1 and total == s.points:
        return f"{items[0][0]} +{s.points}"
    told = ", ".join(f"{k} {p}" for k, p in items)
    if total == s.points:
        return f"{told}: +{s.points}"
    return f"{told}: {total}, " + (f"ilmoitettu +{s.points}" if lang == "fi" else f"claimed +{s.points}")


def _lead_words(game: CribbageGame, lang: str) -> str:
    if game.turn is None:
        return ""
    who = game.players[game.turn]
    return f"{genitive_fi(who)} vuoro." if lang == "fi" else f"{who} to play."


def _both(make) -> Announcement:
    """``make(lang, spoken)`` -> text; the four forms of one announcement."""
    return Announcement(make("fi", False), make("en", False), make("fi", True), make("en", True))


def announce(before: CribbageGame, event: CribEvent, after: CribbageGame, scored: list[Scored]) -> Announcement:
    """The announcement for ``event``, applied to ``before`` giving ``after`` and ``scored``."""

    def make(lang: str, spoken: bool) -> str:
        parts = _event_words(before, event, after, scored, lang, spoken)
        parts += _what_scored(event, scored, lang, spoken)
        parts += _what_follows(before, event, after, lang)
        return " ".join(p for p in parts if p)

    return _both(make)


def _event_words(before: CribbageGame, event: CribEvent, after: CribbageGame, scored: list[Scored], lang: str,
                 spoken: bool) -> list[str]:
    """The event itself: a deal, the starter, a card pegged and the count, a go, a show's total."""
    fi = lang == "fi"
    num = number_fi if fi else number_en
    parts: list[str] = []
    if isinstance(event, Deal):
        if before.is_over:
            parts.append("Uusi peli." if fi else "A new game.")
        parts.append(f"{event.dealer} jakaa." if fi else f"{event.dealer} deals.")
        cutter = after.players[((after.dealer or 0) + 1) % len(after.players)]
        parts.append(f"{cutter} nostaa nostokortin." if fi else f"{cutter} cuts the starter.")
    elif isinstance(event, Cut):
        card = card_words(event.starter, lang) if spoken else str(event.starter)
        parts.append(f"Nostokortti: {card}." if fi else f"Starter: {card}.")
    elif isinstance(event, PegCard):
        card = card_words(event.card, lang) if spoken else str(event.card)
        count = before.count + event.card.value
        count_text = num(count) if spoken else str(count)
        parts.append(f"{event.player}, {card}. " + (f"Summa {count_text}." if fi else f"Count {count_text}."))
    elif isinstance(event, Go):
        if event.player is not None:
            parts.append(f"{event.player}: go.")
    elif isinstance(event, Show):
        whose = genitive_fi(event.player) if fi else f"{event.player}'s"
        what = ("seimi" if event.crib else "käsi") if fi else ("crib" if event.crib else "hand")
        total = sum(s.points for s in scored if s.player == event.player)
        parts.append(f"{whose} {what}: {_points(total, lang) if spoken else total}.")
    return parts


def _what_scored(event: CribEvent, scored: list[Scored], lang: str, spoken: bool) -> list[str]:
    """What the event scored, each player's in turn (a show's own items shown in brackets)."""
    fi = lang == "fi"
    parts: list[str] = []
    for s in scored:
        kinds = [i.kind for i in s.items]
        pts = f", {_points(s.points, lang)}" if spoken else f" +{s.points}"
        if isinstance(event, Show) and s.player == event.player and not s.note.startswith("muggins"):
            if not spoken and s.items:
                parts.append(f"({_scored_shown(s, lang)})")
        elif s.note.startswith("muggins"):
            parts.append(f"Muggins: {s.player}{pts}.")
        elif kinds == ["go"]:
            parts.append(f"Go-piste: {s.player}{pts}." if fi else f"One for the go: {s.player}{pts}.")
        elif kinds == ["last card"]:
            parts.append(f"Viimeinen kortti: {s.player}{pts}." if fi else f"Last card: {s.player}{pts}.")
        elif kinds == ["his heels"]:
            parts.append(f"Jätkä nostona: {s.player}{pts}." if fi else f"His heels: {s.player}{pts}.")
        else:
            words = _scored_words(s, lang) if spoken else _scored_shown(s, lang)
            mine = isinstance(event, PegCard) and s.player == event.player
            parts.append((f"{words[0].upper()}{words[1:]}" if mine else f"{s.player}: {words}") + ".")
    return parts


def _what_follows(before: CribbageGame, event: CribEvent, after: CribbageGame, lang: str) -> list[str]:
    """The win (and a skunk), or the count starting again, who leads, the pegging over."""
    fi = lang == "fi"
    parts: list[str] = []
    if after.is_over:
        winner = after.players[after.winner]
        parts.append(f"{winner} voitti pelin." if fi else f"{winner} wins the game.")
        if after.skunk == 2:
            parts.append("Skunk: kaksi peliä." if fi else "A skunk: two games.")
        elif after.skunk == 3:
            parts.append("Tupla-skunk: kolme peliä." if fi else "A double skunk: three games.")
    elif isinstance(event, (PegCard, Go)):
        restarted = after.count == 0 and after.turn is not None and before.count != 0
        if restarted:
            parts.append("Summa alkaa alusta." if fi else "The count starts again.")
        if after.turn is not None and (restarted or isinstance(event, Go)):
            parts.append(_lead_words(after, lang))
        if after.pegging_over and not before.pegging_over:
            first = after.next_to_show()
            if first:
                parts.append(f"Korttien pelaus on ohi. {genitive_fi(first)} käsi ensin." if fi else
                             f"Pegging is over. {first}'s hand first.")
    elif isinstance(event, Cut):
        parts.append(_lead_words(after, lang))
    return parts
