"""Playing cards for cribbage: ``5H``, ``10C`` (or ``TC``), ``JD``, ``QS``, ``KC``, ``AH``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from scorer.errors import CardError
from scorer.words import Words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_NAMES = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
_SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUITS.items()} | {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_RANK_PARSE = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, **{str(n): n for n in range(2, 11)}}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: int  # 1 (ace) .. 13 (king)
    suit: str | None = None  # S, H, D, C; None where only the rank matters (pegging)

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise CardError(f"a card's rank is 1 (ace) to 13 (king), found {self.rank!r}")
        if self.suit is not None and self.suit not in SUITS:
            raise CardError(f"a card's suit is one of {', '.join(SUITS)}, found {self.suit!r}")

    @property
    def value(self) -> int:
        """Its count: aces 1, faces 10, others their rank."""
        return min(self.rank, 10)

    def __str__(self) -> str:
        return _RANK_NAMES.get(self.rank, str(self.rank)) + (self.suit or "")


def parse_card(text: str, *, suit_required: bool = True) -> Card:
    token = text.replace("\ufe0f", "").strip().upper()  # (an emoji's variation selector: 5♥️ as 5♥)
    token = token[:-1] + _SUIT_OF_SYMBOL.get(token[-1:], token[-1:]) if token else token  # (5♥ as 5H)
    if not token:
        raise CardError(Words("an empty card"))
    suit: str | None = None
    if token[-1] in SUITS:
        suit, token = token[-1], token[:-1]
    elif suit_required:
        raise CardError(Words("{text}: expected a rank and a suit, like 5H, 10C or JD (suits S, H, D, C)", text=repr(text)))
    if token not in _RANK_PARSE:
        raise CardError(Words("{text}: unknown rank {rank}; expected A, 2-10 (or T), J, Q or K", text=repr(text), rank=repr(token)))
    return Card(_RANK_PARSE[token], suit)


def check_distinct(cards: Iterable[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card.suit is not None and card in seen:
            raise CardError(Words("{card} appears twice; a deck has one of each card", card=card))
        seen.add(card)
