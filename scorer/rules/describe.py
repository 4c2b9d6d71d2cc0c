"""The board after a placement in the originals' notation, in Finnish (as the seed texts) or English."""

from __future__ import annotations

from typing import Literal

from scorer.rules.board import Board
from scorer.rules.game_rules import GameRules
from scorer.rules.tiles import Side, Tile

Lang = Literal["fi", "en"]
LANGS: tuple[Lang, ...] = ("fi", "en")

_SIDE_NAMES = {
    "fi": {
        Side.LOW: "pienempi pää",
        Side.HIGH: "suurempi pää",
        Side.LINE_A: "linja A",
        Side.LINE_B: "linja B",
        Side.BRANCH_A: "haara A",
        Side.BRANCH_B: "haara B",
    },
    "en": {
        Side.LOW: "smaller end",
        Side.HIGH: "larger end",
        Side.LINE_A: "line A",
        Side.LINE_B: "line B",
        Side.BRANCH_A: "branch A",
        Side.BRANCH_B: "branch B",
    },
}

_WORDS = {
    "fi": {
        "tiles": "Laatat",
        "spinners": "Spinnerit",
        "joins": "Liitokset",
        "free": "Vapaat liitospisteet",
        "free-single-spinner": "Lailliset jatkokohdat",
        "values": "Pisteytykseen lasketut arvot",
        "none": "ei yhtään",
        "played": "Pelattu",
        "placed": "Asetettu",
        "move-points": "Siirtopisteet",
        "placement-points": "Asetuspisteet",
    },
    "en": {
        "tiles": "Tiles",
        "spinners": "Spinners",
        "joins": "Joins",
        "free": "Free connection points",
        "free-single-spinner": "Free connection points",
        "values": "Scoring values",
        "none": "none",
        "played": "Played",
        "placed": "Placed",
        "move-points": "Move points",
        "placement-points": "Placement points",
    },
}


def side_name(side: Side, lang: Lang = "en") -> str:
    return _SIDE_NAMES[lang][side]


def _listing(items: list[str], lang: Lang, sep: str = ", ") -> str:
    return sep.join(items) if items else _WORDS[lang]["none"]


def describe_board(board: Board, lang: Lang = "en") -> str:
    """``Tiles: … Spinners: … Joins: … Free connection points: … Scoring values: …``"""
    w = _WORDS[lang]
    names = _SIDE_NAMES[lang]
    tiles = _listing([str(t) for t in board.tiles], lang)
    spinners = _listing([str(t) for t in board.spinners], lang)
    joins = _listing(
        [f"{j.tile} ({names[j.side]}) – {j.new_tile} ({names[j.new_side]})" for j in board.joins], lang, "; "
    )
    free = _listing([f"{p.tile} ({names[p.side]}, {p.value})" for p in board.free_points()], lang, "; ")
    values = _listing([f"{e.tile}: {e.value}" for e in board.scoring_ends()], lang, "; ")
    free_word = w["free"] if board.every_double_spins else w["free-single-spinner"]
    return (
        f"{w['tiles']}: {tiles}. {w['spinners']}: {spinners}. {w['joins']}: {joins}. "
        f"{free_word}: {free}. {w['values']}: {values}."
    )


def points_phrase(raw: int, rules: GameRules, lang: Lang) -> str:
    if lang == "fi":
        text = f"{raw} raakapistettä" if raw != 1 else "1 raakapiste"
        if rules.raw_per_point > 1:
            game = rules.game_points(raw)
            text += f" ({game} näyttöpiste)" if game == 1 else f" ({game} näyttöpistettä)"
        return text
    text = f"{raw} raw point" + ("" if raw == 1 else "s")
    if rules.raw_per_point > 1:
        game = rules.game_points(raw)
        text += f" ({game} display point" + ("" if game == 1 else "s") + ")"
    return text


def describe_placement(tile: Tile, board: Board, rules: GameRules, lang: Lang = "en") -> str:
    """Two lines as in the seed texts: the tile placed, then its sum, points and the whole board."""
    w = _WORDS[lang]
    ends = board.scoring_ends()
    total = sum(e.value for e in ends)
    raw = total if total > 0 and total % 5 == 0 else 0
    terms = " + ".join(str(e.value) for e in ends) or "0"
    single = not rules.every_double_spins
    head = w["placed"] if single else w["played"]
    points_word = w["placement-points"] if single else w["move-points"]
    return (
        f"{head} {tile}\n"
        f"{w['values']}: {terms} = {total}. {points_word}: {points_phrase(raw, rules, lang)}. "
        f"{describe_board(board, lang)}"
    )
