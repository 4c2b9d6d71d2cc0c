"""What to say after each move and each round, in Finnish and English (the app and headless runs say the same).

Each announcement has two forms: the text shown (``[3|4]``, ``17 → 15``) and the text spoken, written
for the ear: tiles as people say them ("three–four", "double five"; "kolme–neljä", "tupla viisi"),
numbers in words, no arrows, brackets or pipes.  :func:`speakable` turns any shown text into the
spoken kind, for callers that only have the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scorer.rules.game import Match, Phase, PlayOutcome, RoundOutcome, counted_as, credited_hands
from scorer.rules.transcript import Step

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
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _NUMBERS_EN[hundreds] + " hundred" + (" and " + number_en(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    return number_en(thousands) + " thousand" + ((" and " if rest < 100 else " ") + number_en(rest) if rest else "")


def number_fi(n: int) -> str:
    if n < 0:
        return "miinus " + number_fi(-n)
    if n < 20:
        return _NUMBERS_FI[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS_FI[tens] + (_NUMBERS_FI[ones] if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = "sata" if hundreds == 1 else _NUMBERS_FI[hundreds] + "sataa"
        return head + (number_fi(rest) if rest else "")
    thousands, rest = divmod(n, 1000)
    head = "tuhat" if thousands == 1 else number_fi(thousands) + "tuhatta"
    return head + (" " + number_fi(rest) if rest else "")


# -- Finnish grammar -----------------------------------------------------------------------

_FI_VOWELS = "aeiouyäöå"


def genitive_fi(name: str) -> str:
    """A name in the Finnish genitive, as in "Benin käsi": -n after a vowel, -in after a consonant.

    A few common forms besides: -nen names take -sen (Virtanen: Virtasen), a double k, p or t before
    the last vowel weakens (Pekka: Pekan, Matti: Matin), -us/-as names take -ksen (Markus: Markuksen,
    Elias: Eliaksen), and a name that ends in a digit or other sign, or an abbreviation, takes ":n"
    (Pelaaja 2: Pelaaja 2:n).  A pair ("Ann & Cid") puts each name in the genitive.
    """
    name = name.strip()
    for joiner in (" & ", " ja "):
        if joiner in name:
            return joiner.join(genitive_fi(part) for part in name.split(joiner))
    if not name:
        return name
    last = name[-1]
    low = name.lower()
    if not last.isalpha() or (len(name) > 1 and name.isupper()):
        return name + ":n"
    if last.lower() in _FI_VOWELS:
        if (len(low) >= 4 and last.lower() in "aeiouäö" and low[-2] == low[-3] and low[-2] in "kpt"
                and low[-4] in _FI_VOWELS):
            return name[:-2] + name[-1] + "n"  # Pekka: Pekan, Matti: Matin, Jaakko: Jaakon
        return name + "n"
    if len(low) > 4 and low.endswith("nen"):
        return name[:-3] + "sen"
    if (len(low) >= 5 and low.endswith(("us", "as")) and low[-3] not in "aeouy"
            and low[-3:-1] not in ("au", "ou", "eu")):
        return name[:-1] + "ksen"  # Markus: Markuksen, Tuomas: Tuomaksen, Elias: Eliaksen
    return name + "in"


# -- for the ear --------------------------------------------------------------------------

_PIPS_EN = ["blank", "one", "two", "three", "four", "five", "six"]
_PIPS_FI = ["nolla", "yksi", "kaksi", "kolme", "neljä", "viisi", "kuusi"]


def tile_words(a: int, b: int, lang: str) -> str:
    """A tile as people say it: "three–four", "double five"; "kolme–neljä", "tupla viisi"."""
    words = _PIPS_FI if lang == "fi" else _PIPS_EN
    a, b = sorted((a, b))
    if a == b:
        return ("tupla " if lang == "fi" else "double ") + words[a]
    return f"{words[a]}–{words[b]}"


_TILE_RE = re.compile(r"\[\s*(\d)\s*\|\s*(\d)\s*\]")
_ARROW_RE = re.compile(r"\s*(?:->|=>|[\u2190-\u21ff\u27f0-\u27ff\u2900-\u297f])\s*")
_SIGNED_RE = re.compile(r"(?<![\w])([+\-\u2212])(\d+)")
_NUMBER_RE = re.compile(r"(?<![^\W\d_])\d+(?![^\W\d_])")  # digits not glued to letters (Player2 stays)
_DECIMAL_RE = {"en": re.compile(r"(?<![^\W\d_])(\d+)\.(\d+)(?![^\W\d_])"),  # 45.8
               "fi": re.compile(r"(?<![^\W\d_])(\d+),(\d+)(?![^\W\d_])")}  # 45,8 (a list has a space after its comma)
_MARKS_RE = re.compile(r"[\[\]{}()<>|_*#~^`\\]")


def speakable(text: str, lang: str) -> str:
    """Shown text made fit to be read aloud: tiles in words, numbers in words, no arrows, brackets or pipes."""
    fi = lang == "fi"
    number = number_fi if fi else number_en
    s = _TILE_RE.sub(lambda m: tile_words(int(m[1]), int(m[2]), lang), text)
    s = _ARROW_RE.sub(", pyöristettynä " if fi else ", rounded to ", s)
    s = s.replace("&", " ja " if fi else " and ").replace("×", " kertaa " if fi else " by ")  # (a picture's 640 × 480)
    s = _SIGNED_RE.sub(lambda m: ("plus " if m[1] == "+" else "miinus " if fi else "minus ") + m[2], s)
    s = _DECIMAL_RE["fi" if fi else "en"].sub(
        lambda m: f"{m[1]} {'pilkku' if fi else 'point'} " + " ".join(m[2]), s)  # (its decimals digit by digit)
    s = _NUMBER_RE.sub(lambda m: number(int(m[0])), s)
    s = _MARKS_RE.sub(" ", s)
    s = re.sub(r"\s+", " ", s)
    s = re.sub(r"\s+([,.;:!?])", r"\1", s)
    s = re.sub(r",\s*,", ",", s)
    return s.strip(" ,;")


@dataclass(frozen=True, slots=True)
class Announcement:
    """What is shown (``fi``, ``en``) and, where written apart, what is said (``spoken_fi``, ``spoken_en``)."""

    fi: str
    en: str
    spoken_fi: str = ""
    spoken_en: str = ""

    def text(self, lang: str) -> str:
        return self.fi if lang == "fi" else self.en

    def spoken(self, lang: str) -> str:
        """The text for the ear; one written apart, else the shown text made speakable."""
        said = self.spoken_fi if lang == "fi" else self.spoken_en
        return said or speakable(self.text(lang), lang)


def _points_en(n: int) -> str:
    return f"{number_en(n)} point" + ("" if abs(n) == 1 else "s")


def _points_fi(n: int) -> str:
    # The partitive after every number but one: "yksi piste", "viisi pistettä", "nolla pistettä".
    return f"{number_fi(n)} piste" + ("" if abs(n) == 1 else "ttä")


def _points_got_fi(n: int) -> str:
    """Points as what a verb gets or loses: one in the accusative ("saa yhden pisteen"), others as
    :func:`_points_fi` ("saa kaksi pistettä")."""
    return "yhden pisteen" if abs(n) == 1 else _points_fi(n)


def _said_name(name: str, lang: str) -> str:
    return name.replace(" & ", " ja " if lang == "fi" else " and ")


def _won_en(winners: list[str]) -> str:
    return f"{' and '.join(winners)} win" + ("s" if len(winners) == 1 else "") + " the match"


def _won_fi(winners: list[str]) -> str:
    return f"{' ja '.join(winners)} " + ("voitti" if len(winners) == 1 else "voittivat") + " ottelun"


def _ending(after: Match, fi: str, en: str, say_fi: str, say_en: str) -> Announcement:
    """The announcement, with who won where the move ended the match."""
    if after.is_over:
        winners = list(after.winners())
        en += ". " + _won_en(winners)
        fi += ". " + _won_fi(winners)
        say_en += " " + _won_en([_said_name(w, "en") for w in winners]) + "."
        say_fi += " " + _won_fi([_said_name(w, "fi") for w in winners]) + "."
    return Announcement(fi, en, say_fi, say_en)


def voice_sample(match: Match) -> dict[str, str]:
    """The voice test's sentence for ``match``'s table: its first player laying [3|4] to an end sum of fifteen, scored
    as its game scores it (Horse Race three points, Seven Rocks fifteen)."""
    player, points = match.table.players[0], match.rules.game_points(15)
    return {"en": f"This is the scorer's voice. {player}, {tile_words(3, 4, 'en')}. Fifteen, {_points_en(points)}.",
            "fi": f"Tämä on pistelaskijan ääni. {player}, {tile_words(3, 4, 'fi')}. Viisitoista, {_points_fi(points)}."}


def announce_play(after: Match, outcome: PlayOutcome) -> Announcement:
    """"Ann, [3|4]: fifteen, three points" -- the sum, and the points in the game's own units."""
    rules = after.rules
    tile = outcome.tile
    points = rules.game_points(outcome.raw_points)
    who_en, who_fi = _said_name(outcome.player, "en"), _said_name(outcome.player, "fi")
    say_en = f"{who_en}, {tile_words(tile.a, tile.b, 'en')}. {number_en(outcome.sum).capitalize()}"
    say_fi = f"{who_fi}, {tile_words(tile.a, tile.b, 'fi')}. {number_fi(outcome.sum).capitalize()}"
    if outcome.raw_points:
        en = f"{outcome.player}, {tile}: {number_en(outcome.sum)}, {_points_en(points)}"
        fi = f"{outcome.player}, {tile}: {number_fi(outcome.sum)}, {_points_fi(points)}"
        say_en += f", {_points_en(points)}"
        say_fi += f", {_points_fi(points)}"
    else:
        en = f"{outcome.player}, {tile}: {number_en(outcome.sum)}"
        fi = f"{outcome.player}, {tile}: {number_fi(outcome.sum)}"
    say_en, say_fi = say_en + ".", say_fi + "."
    if outcome.continues and not after.is_over:  # (the turn stays: said, as players forget it after a double)
        say_en += f" {who_en} continues."
        say_fi += f" {who_fi} jatkaa vuoroaan."
    if after.phase is Phase.ROUND_OVER:  # (the last tile: the table hears the hands are to be counted now)
        say_en += f" {who_en} is out: round {number_en(after.round_no)} is over."
        say_fi += f" {who_fi} pelasi viimeisen laattansa: kierros {number_fi(after.round_no)} päättyi."
    return _ending(after, fi, en, say_fi, say_en)


def announce_round(after: Match, outcome: RoundOutcome) -> Announcement:
    """"Round: Ben's hand 17 → 15. Ann +3", then what the round gave.  Where the other hands are credited
    together (Horse Race), each hand is told as it is and the sum rounded once: "Round: Ben's hand 31; Cid's
    hand 22. Ann +11 (31 + 22 = 53 → 55)"."""
    table = after.table
    credited = credited_hands(after, outcome)
    # One hand credited to one side: its rounding is told with the hand, as where each hand is rounded.
    one_hand = len(credited) == 1 and all(len(pips) == 1 for pips in credited.values())
    rounded_seats = set(range(len(table.players))) if after.rules.rounds_each_hand else {
        seat for side in credited for seat in range(len(table.players))
        if one_hand and table.side_of(seat) != side and outcome.hand_pips[seat]}
    parts_en, parts_fi, said_en, said_fi = [], [], [], []
    for seat, (player, pips, total) in enumerate(zip(table.players, outcome.hand_pips, outcome.hand_totals)):
        if pips:
            rounds_each = seat in rounded_seats
            shown = f" {pips} → {total}" if rounds_each and total != pips else f" {pips}"
            parts_en.append(f"{player}'s hand{shown}")
            parts_fi.append(f"{genitive_fi(player)} käsi{shown}")
            rounded_en = "" if total == pips or not rounds_each else f", rounded to {number_en(total)}"
            rounded_fi = "" if total == pips or not rounds_each else f", pyöristettynä {number_fi(total)}"
            said_en.append(f"{player}'s hand {number_en(pips)}{rounded_en}")
            said_fi.append(f"{genitive_fi(player)} käsi {number_fi(pips)}{rounded_fi}")
    gains_en, gains_fi, said_gains_en, said_gains_fi = [], [], [], []
    for side, change in enumerate(outcome.raw_changes):
        count = counted_as(credited[side], change) if side in credited and not one_hand else ""
        if change or count:  # (a credit rounded to nothing told with its count)
            name = table.side_name(side)
            pts = after.rules.game_points(change)
            gains_en.append(f"{name} {'+' if pts > 0 else ''}{pts}" + (f" ({count})" if count else ""))
            gains_fi.append(f"{name} {'+' if pts > 0 else ''}{pts}" + (f" ({count})" if count else ""))
            pair = " & " in name
            if pts >= 0:
                verb_en, verb_fi = ("score" if pair else "scores"), ("saavat" if pair else "saa")
            else:
                verb_en, verb_fi = ("lose" if pair else "loses"), ("menettävät" if pair else "menettää")
            how_en, how_fi = _credit_said(credited.get(side, ()), change) if count else ("", "")
            said_gains_en.append(how_en + f"{_said_name(name, 'en')} {verb_en} {_points_en(abs(pts))}")
            said_gains_fi.append(how_fi + f"{_said_name(name, 'fi')} {verb_fi} {_points_got_fi(abs(pts))}")
    en = "Round: " + ("; ".join(parts_en) or "all hands empty") + (". " + ", ".join(gains_en) if gains_en else "")
    fi = "Kierros: " + ("; ".join(parts_fi) or "kaikki kädet tyhjiä") + (". " + ", ".join(gains_fi) if gains_fi else "")
    say_en = "End of the round. " + (". ".join(said_en) or "All hands are empty") + "."
    say_fi = "Kierros päättyi. " + (". ".join(said_fi) or "Kaikki kädet ovat tyhjiä") + "."
    if said_gains_en:
        say_en += " " + _sentence(", ".join(said_gains_en)) + "."
        say_fi += " " + _sentence(", ".join(said_gains_fi)) + "."
    if not after.is_over:  # (the match's scores too: a player who listens hears where each side stands)
        sides = range(table.n_sides)
        points = [after.rules.game_points(after.raw_scores[side]) for side in sides]
        say_en += " Scores: " + ", ".join(f"{_said_name(table.side_name(s), 'en')} {number_en(p)}" for s, p in zip(sides, points)) + "."
        say_fi += " Pisteet: " + ", ".join(f"{_said_name(table.side_name(s), 'fi')} {number_fi(p)}" for s, p in zip(sides, points)) + "."
    return _ending(after, fi, en, say_fi, say_en)


def announced(step: Step) -> Announcement | None:
    """What is said of a step: a play's sum and points, a round's end; nothing of a draw or a pass."""
    if isinstance(step.outcome, PlayOutcome):
        return announce_play(step.after, step.outcome)
    if isinstance(step.outcome, RoundOutcome):
        return announce_round(step.after, step.outcome)
    return None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _credit_said(pips: tuple[int, ...], rounded: int) -> tuple[str, str]:
    """The other hands' sum as said before the credit: "together fifty-three, rounded to fifty-five: "."""
    total = sum(pips)
    en = f"together {number_en(total)}" if len(pips) > 1 else number_en(total)
    fi = f"yhteensä {number_fi(total)}" if len(pips) > 1 else number_fi(total)
    if rounded != total:
        en += f", rounded to {number_en(rounded)}"
        fi += f", pyöristettynä {number_fi(rounded)}"
    return en + ": ", fi + ": "
