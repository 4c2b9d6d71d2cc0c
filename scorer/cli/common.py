"""What every family of commands shares."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from scorer.vision.calibration import Profile

# The exit status of input the scorer cannot take (a bad log, a board before that breaks the rules).
EXIT_BAD_INPUT = 2


# The command line's own words in each language it speaks; the sentences it prints are the app's, said in
# its translations (:func:`sentences_in`).
CLI_WORDS = {
    "en": {"error": "error", "sum": "End sum: {terms} = {sum}; scores {points}",
           "loose": "Seen, not joined to the layout: {tiles}",
           "detected": "{name}: {width}x{height}, {up} face up, {down} face down ({ms} ms)", "face-up": "{tile} at {place}",
           "face-down": "face down at {place}", "uncertain": "uncertain ({confidence}): check it",
           "maybe-face": "  or a face whose pips do not show (no face here is read surely)", "problem": "problem", "note": "note",
           "no-move": "No new tile is seen joined to the board before.", "new": "New tile:",
           "new-at": "New tile at {tile} ({side}, {value}):", "asked": "needs confirmation", "scores": "Scores",
           "demo": "Domino table scorer: the bundled demo match, scored move by move.",
           "saving": "saving the match to {path}", "recording": "recording to {folder}, the match to {path} (Ctrl+C to stop)",
           "stopped": "stopped", "replayed": "replayed {seconds} s of video in {wall} s ({speed}x real time)",
           "unanswered": "Questions asked with no one to answer them: {count}. Where the camera did not settle them the "
                         "scoring went on with its own best guess, so the scores may be wrong: open the recording in the app "
                         "(Source: A video file or recorded session) to answer them.",
           "early": "{video}: the video ends early (truncated?) at {seconds} s; events so far are kept",
           "annotated": "annotated picture written to {target}",
           "calibration": "calibration {name} ({created}): made on {size} pictures, a tile about {tile} px, the plane fit error {error} mm",
           "other-seat": "{count} of them asked about a tile laid by an arm from another seat than the player on turn's: if "
                         "that is not what happened at the table, check the players given, their order (clockwise from the "
                         "seat nearest the camera) and the game.",
           "not-annotated": "{target}: could not write the annotated picture (a folder that exists, and a name ending .png or "
                            ".jpg?)"},
    "fi": {"error": "virhe", "sum": "Päiden summa: {terms} = {sum}; {points}",
           "loose": "Pöydällä, ei kiinni pelikuviossa: {tiles}",
           "detected": "{name}: {width}x{height}, silmäpuoli ylöspäin {up}, selkäpuoli ylöspäin {down} ({ms} ms)",
           "face-up": "{tile} kohdassa {place}", "face-down": "selkäpuoli ylöspäin kohdassa {place}",
           "uncertain": "epävarma ({confidence}): tarkista", "maybe-face": "  tai silmäpuoli ylöspäin oleva laatta, "
                                                                          "jonka silmät eivät näy (yhtään silmäpuolta ei "
                                                                          "lueta tässä varmasti)", "problem": "ongelma", "note": "huomio",
           "no-move": "Edelliseen tilanteeseen liitettyä uutta laattaa ei näy.", "new": "Uusi laatta:",
           "new-at": "Uusi laatta kiinni laatassa {tile} ({side}, {value}):", "asked": "vahvistettava", "scores": "Pisteet",
           "demo": "Dominopöydän pistelaskija: mukana tuleva esittelyottelu pisteytettynä siirto siirrolta.",
           "saving": "ottelu tallennetaan tiedostoon {path}",
           "recording": "video tallennetaan kansioon {folder}, ottelu tiedostoon {path} (Ctrl+C lopettaa)",
           "stopped": "lopetettu",
           "replayed": "{seconds} s videota toistettu {wall} sekunnissa ({speed} × reaaliaika)",
           "unanswered": "Kysymyksiä, joihin kukaan ei voinut vastata: {count}. Missä kamera ei ratkaissut niitä, pisteytys jatkui "
                         "parhaan arvauksen mukaan, joten pisteissä voi olla virheitä: avaa tallenne sovelluksessa "
                         "(Kuvalähde: Videotiedosto tai tallennettu istunto) vastataksesi niihin.",
           "early": "{video}: video päättyy ennenaikaisesti (katkennut?) kohdassa {seconds} s; siihen asti tapahtunut säilyy",
           "annotated": "merkitty kuva kirjoitettu tiedostoon {target}",
           "calibration": "kalibrointi {name} ({created}): tehty kuvista, joiden koko on {size}, laatta noin {tile} px, tason sovitusvirhe {error} mm",
           "other-seat": "Niistä {count} koski laattaa, jonka laski käsi toiselta paikalta kuin vuorossa olevan pelaajan: "
                         "jos pöydässä ei käynyt niin, tarkista annetut pelaajat, heidän järjestyksensä (myötäpäivään "
                         "kameraa lähimmältä paikalta) ja peli.",
           "not-annotated": "{target}: merkittyä kuvaa ei voitu kirjoittaa (onko kansio olemassa ja päättyykö nimi .png tai "
                            ".jpg?)"},
}


def counted(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` things in English: "1 tile", "3 tiles", "0 tiles" (``nouns``: a plural not made with "s")."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def sentences_in(lang: str, picture: tuple[int, int] | None = None) -> Callable[[str], str]:
    """The camera's questions and notices, the layout's problems and the rules' refusals (made of
    :class:`~scorer.words.Words`) said in ``lang`` as the app says them, from its translations; in English
    as they are.  With ``picture`` (its width and height), a place in it is told as the part of the picture
    it lies in and its pixels, "(top left, 212, 132)", not in pixels alone."""
    if lang == "en" and picture is None:
        return str
    from scorer.app.wording import said_in  # (Qt's translations: loaded only where they are needed)

    return said_in(lang, picture)


def add_match_arguments(parser: argparse.ArgumentParser, recorded: bool = False) -> None:
    """The match a camera's frames are scored into (``replay``, ``record``): its game, players, pairs, starter
    and the table's calibration (``recorded``: the game and players may come from the match recorded)."""
    also = " (a folder `record` wrote: as recorded, where not given)" if recorded else ""
    parser.add_argument("--game", choices=("horse-race", "seven-rocks"), required=not recorded, help="the game played" + also)
    parser.add_argument("--players", required=not recorded,
                        help="names in clockwise order, from the seat nearest the camera: A,B,C" + also)
    parser.add_argument("--partnership", action="store_true", help="four players in two pairs, partners opposite")
    parser.add_argument("--starter", help="who starts the first round, as the players drew it (where the camera sees another "
                                          "player open it, it asks; unanswered, as in a replay, the camera's view is taken)")
    parser.add_argument("--calibration", metavar="NAME", help="the table's calibration profile (name or .json path)")


def add_threads_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for the models (default 2)")


def calibration_told(profile: Profile, lang: str) -> str:
    """The calibration a recording is read through, told before it is: which, made when and on what pictures."""
    from scorer.words import decimal

    w, h = profile.image_size
    return CLI_WORDS[lang]["calibration"].format(
        name=profile.name, created=profile.created.replace("T", " ")[:16], size=f"{w}x{h}",
        tile=f"{profile.tile_px[0]:.0f} x {profile.tile_px[1]:.0f}", error=decimal(profile.error_mm, 1, lang=lang))
