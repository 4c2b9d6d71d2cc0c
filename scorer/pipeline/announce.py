"""What to say after each move and each round, in Finnish and English (the app and headless runs say the same)."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.rules.game import Match, PlayOutcome, RoundOutcome

_NUMBERS_FI = [
    "nolla", "yksi", "kaksi", "kolme", "neljä", "viisi", "kuusi", "seitsemän", "kahdeksan", "yhdeksän", "kymmenen",
    "yksitoista", "kaksitoista", "kolmetoista", "neljätoista", "viisitoista", "kuusitoista", "seitsemäntoista",
    "kahdeksantoista", "yhdeksäntoista",
]
_NUMBERS_EN = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]
_TENS_EN = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}
_TENS_FI = {2: "kaksikymmentä", 3: "kolmekymmentä", 4: "neljäkymmentä", 5: "viisikymmentä", 6: "kuusikymmentä",
            7: "seitsemänkymmentä", 8: "kahdeksankymmentä", 9: "yhdeksänkymmentä"}


def number_en(n: int) -> str:
    if n < 0:
        return "minus " + number_en(-n)
    if n < 20:
        return _NUMBERS_EN[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS_EN[tens * 10] + ("-" + _NUMBERS_EN[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _NUMBERS_EN[hundreds] + " hundred" + (" and " + number_en(rest) if rest else "")


def number_fi(n: int) -> str:
    if n < 0:
        return "miinus " + number_fi(-n)
    if n < 20:
        return _NUMBERS_FI[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS_FI[tens] + (_NUMBERS_FI[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    head = "sata" if hundreds == 1 else _NUMBERS_FI[hundreds] + "sataa"
    return head + (number_fi(rest) if rest else "")


@dataclass(frozen=True, slots=True)
class Announcement:
    fi: str
    en: str

    def text(self, lang: str) -> str:
        return self.fi if lang == "fi" else self.en


def _points_en(n: int) -> str:
    return f"{number_en(n)} point" + ("" if n == 1 else "s")


def _points_fi(n: int) -> str:
    return f"{number_fi(n)} piste" + ("" if n == 1 else "ttä")


def announce_play(after: Match, outcome: PlayOutcome) -> Announcement:
    """"Ann, [3|4]: fifteen, three points" -- the sum, and the points in the game's own units."""
    rules = after.rules
    tile = outcome.tile
    points = rules.game_points(outcome.raw_points)
    if outcome.raw_points:
        en = f"{outcome.player}, {tile}: {number_en(outcome.sum)}, {_points_en(points)}"
        fi = f"{outcome.player}, {tile}: {number_fi(outcome.sum)}, {_points_fi(points)}"
    else:
        en = f"{outcome.player}, {tile}: {number_en(outcome.sum)}"
        fi = f"{outcome.player}, {tile}: {number_fi(outcome.sum)}"
    if after.is_over:
        winners = " and ".join(after.winners())
        en += f". {winners} win" + ("s" if len(after.winners()) == 1 else "") + " the match"
        fi += f". {' ja '.join(after.winners())} voitti ottelun" if len(after.winners()) == 1 else f". {' ja '.join(after.winners())} voittivat ottelun"
    return Announcement(fi, en)


def announce_round(after: Match, outcome: RoundOutcome) -> Announcement:
    """"Round: Ben's hand 17 → 15" for each hand, then what the round gave."""
    table = after.table
    parts_en, parts_fi = [], []
    for player, pips, total in zip(table.players, outcome.hand_pips, outcome.hand_totals):
        if pips:
            parts_en.append(f"{player}'s hand {pips} → {total}")
            parts_fi.append(f"{player}n käsi {pips} → {total}")
    gains_en, gains_fi = [], []
    for side, change in enumerate(outcome.raw_changes):
        if change:
            name = table.side_name(side)
            pts = after.rules.game_points(change)
            gains_en.append(f"{name} {'+' if pts > 0 else ''}{pts}")
            gains_fi.append(f"{name} {'+' if pts > 0 else ''}{pts}")
    en = "Round: " + ("; ".join(parts_en) or "all hands empty") + (". " + ", ".join(gains_en) if gains_en else "")
    fi = "Kierros: " + ("; ".join(parts_fi) or "kaikki kädet tyhjiä") + (". " + ", ".join(gains_fi) if gains_fi else "")
    if after.is_over:
        winners = after.winners()
        en += f". {' and '.join(winners)} win the match"
        fi += f". {' ja '.join(winners)} voitti ottelun" if len(winners) == 1 else f". {' ja '.join(winners)} voittivat ottelun"
    return Announcement(fi, en)
