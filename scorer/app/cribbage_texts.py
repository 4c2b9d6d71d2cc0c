"""What the cribbage window says, in English and Finnish.

The words are kept in a table per language, not in Qt's translations: the window's language is its
own, switched in its tool bar.  The prompt for what comes next and the log's lines are worded here
too, so the window only shows them.
"""

from __future__ import annotations

from scorer.cribbage.match import CribbageGame, CribEvent, Cut, Deal, Go, PegCard, Scored, Show
from scorer.cribbage.speak import kind_words
from scorer.pipeline.announce import genitive_fi

TEXTS = {
    "en": {
        "title": "Cribbage to {target}: {players}", "board": "Cribbage: first to {target}",
        "deal_box": "Deal", "dealer": "Dealer", "deal": "Deal",
        "cut_box": "Cut", "starter": "Starter", "starter_hint": "e.g. JD", "cut": "Cut",
        "peg_box": "Pegging: the card played", "suit": "suit (optional)", "go": "Go",
        "peg_hint": "or type a card, e.g. 5H", "peg": "Peg",
        "show_box": "Show", "show_hint": "four cards, e.g. 5H 5C 5S JD", "crib": "crib", "count_button": "Count",
        "claimed": "Points claimed (muggins)", "full_count": "the full count",
        "undo": "Undo", "new": "New match", "start_screen": "Start screen", "mute": "Mute", "test_voice": "Test the voice", "language": " Language ",
        "count": "Count", "to_play": "{name} to play", "choose_dealer": "Who deals? (the lowest cut deals)",
        "cuts": "{name} cuts the starter", "shows": "Count {whose} hand", "shows_crib": "Count {whose} crib",
        "deal_next": "Deal the next hand", "wins": "{name} wins", "log": "What happened",
        "deal_new_game": "Who deals the next game? Cut for it: the lowest cut deals",
        "refused": "Not taken: {reason}",
        "voice_sample": "This is the scorer's voice. Ann, five of hearts. Count fifteen. Fifteen: two points.",
        "voice": "Voice: {engine}", "text_only": "text only", "choosing": "choosing a voice…",
        "saved": "saved to {path}", "not_saved": "NOT SAVED: {error}",
        "not_saved_move": "Not saved, so not done: {error}. Do it again once it can be saved",
        "undone": "Undone.", "nothing_to_undo": "Nothing to undo.", "resumed": "Resumed: {scores}. {prompt}.",
        "resume_title": "An unfinished game",
        "new_confirm": "Put this match aside and start a new one from nothing (scores and games won)? It is no longer "
                       "offered to resume. The next game of this match is dealt in the Deal box.",
        "resume": "An unfinished cribbage game of {players} (to {target}), last saved {when}:\n{scores}\n\nResume it? "
                  "(No starts a new game; this one stays saved, listed under Cribbage… on the start screen.)",
        "win_kind": {1: "{name} wins.", 2: "{name} wins with a skunk (2 games).",
                     3: "{name} wins with a double skunk (3 games)."},
    },
    "fi": {
        "title": "Cribbage {target} pisteeseen: {players}", "board": "Cribbage: ensin {target} pisteeseen",
        "deal_box": "Jako", "dealer": "Jakaja", "deal": "Jaa",
        "cut_box": "Nosto", "starter": "Nostokortti", "starter_hint": "esim. JD", "cut": "Nosta",
        "peg_box": "Pelaus: pelattu kortti", "suit": "maa (valinnainen)", "go": "Go",
        "peg_hint": "tai kirjoita kortti, esim. 5H", "peg": "Pelaa",
        "show_box": "Käsien laskenta", "show_hint": "neljä korttia, esim. 5H 5C 5S JD", "crib": "seimi",
        "count_button": "Laske",
        "claimed": "Ilmoitetut pisteet (muggins)", "full_count": "koko summa",
        "undo": "Kumoa", "new": "Uusi ottelu", "start_screen": "Aloitusnäyttö", "mute": "Äänetön", "test_voice": "Kokeile ääntä", "language": " Kieli ",
        "count": "Summa", "to_play": "{gen} vuoro", "choose_dealer": "Kuka jakaa? (pienimmän nostanut jakaa)",
        "cuts": "{name} nostaa nostokortin", "shows": "Laske {gen} käsi", "shows_crib": "Laske {gen} seimi",
        "deal_next": "Jaa seuraava käsi", "wins": "{name} voitti", "log": "Mitä tapahtui",
        "deal_new_game": "Kuka jakaa seuraavan pelin? Nostakaa: pienimmän nostanut jakaa",
        "refused": "Ei hyväksytty: {reason}",
        "voice_sample": "Tämä on pistelaskijan ääni. Ann, herttavitonen. Summa viisitoista. Viisitoista: kaksi pistettä.",
        "voice": "Ääni: {engine}", "text_only": "vain teksti", "choosing": "valitaan ääntä…",
        "saved": "tallennettu: {path}", "not_saved": "EI TALLENNETTU: {error}",
        "not_saved_move": "Ei tallennettu, joten ei tehty: {error}. Tee se uudelleen, kun sen voi tallentaa",
        "undone": "Kumottu.", "nothing_to_undo": "Ei mitään kumottavaa.", "resumed": "Jatketaan: {scores}. {prompt}.",
        "resume_title": "Kesken jäänyt peli",
        "new_confirm": "Jätetäänkö tämä ottelu kesken ja aloitetaan uusi alusta (pisteet ja voitetut pelit)? Sitä ei "
                       "enää tarjota jatkettavaksi. Tämän ottelun seuraava peli jaetaan Jako-laatikosta.",
        "resume": "Kesken jäänyt cribbage-peli ({players}, {target} pisteeseen), tallennettu viimeksi {when}:\n{scores}\n\n"
                  "Jatketaanko sitä? (Ei aloittaa uuden pelin; tämä pysyy tallessa aloitusnäytön Cribbage…-luettelossa.)",
        "win_kind": {1: "{name} voitti.", 2: "{name} voitti skunkilla (2 peliä).",
                     3: "{name} voitti tupla-skunkilla (3 peliä)."},
    },
}


def phrase(lang: str, key: str, **kw) -> str:
    """The text ``key`` in ``lang``, its fields filled from ``kw``."""
    words = TEXTS[lang][key]
    return words.format(**kw) if kw else words


def prompt(game: CribbageGame, lang: str) -> str:
    """What is to be done now (who deals, cuts, plays or counts), or who won."""
    g = game
    phase = g.phase
    if phase == "over":
        return TEXTS[lang]["win_kind"][g.skunk].format(name=g.players[g.winner])
    if phase == "deal":
        return phrase(lang, "choose_dealer") if g.dealer is None else phrase(lang, "deal_next")
    if phase == "cut":
        cutter = g.players[(g.dealer + 1) % len(g.players)]
        return phrase(lang, "cuts", name=cutter, gen=genitive_fi(cutter))
    if phase == "peg":
        name = g.players[g.turn] if g.turn is not None else ""
        return phrase(lang, "to_play", name=name, gen=genitive_fi(name))
    who = g.next_to_show()
    if who == "crib":
        dealer = g.players[g.dealer]
        return phrase(lang, "shows_crib", whose=f"{dealer}'s", gen=genitive_fi(dealer))
    if who:
        return phrase(lang, "shows", whose=f"{who}'s", gen=genitive_fi(who))
    return phrase(lang, "deal_next")


def log_lines(event: CribEvent, scored: list[Scored], lang: str) -> list[str]:
    """The log's lines for ``event``: what was done, then each score it made and why."""
    fi = lang == "fi"
    lines = []
    if isinstance(event, Deal):
        lines.append(f"{event.dealer} jakaa" if fi else f"{event.dealer} deals")
    elif isinstance(event, Cut):
        lines.append(f"  nostokortti {event.starter}" if fi else f"  starter {event.starter}")
    elif isinstance(event, PegCard):
        lines.append(f"  {event.player} pelaa {event.card}" if fi else f"  {event.player} pegs {event.card}")
    elif isinstance(event, Go):
        lines.append(f"  {event.player or ('pöytä' if fi else 'table')}: go")
    elif isinstance(event, Show):
        cards = " ".join(map(str, event.cards))
        what = ("seimi " if fi else "crib ") if event.crib else ""
        lines.append(f"  {event.player} näyttää {what}{cards}" if fi else f"  {event.player} shows {what}{cards}")
    for s in scored:
        if s.note.startswith("count "):  # pegging: what the card made, at the count it made (no cards told apart)
            what = ", ".join(f"{kind_words(i.kind, len(i.cards), lang)} {i.points}" for i in s.items)
            what += f" ({'summa' if fi else 'count'} {s.note.split()[-1]})"
        elif s.note.startswith("muggins"):  # (what the counting player missed, taken by the next)
            missed = s.note[len("muggins: "):s.note.rindex(" missed ")]
            what = f"muggins: {missed} jätti laskematta {s.points}" if fi else f"muggins: {missed} missed {s.points}"
        else:  # (a go and the last card are the card pegged last: not told apart)
            what = ", ".join(f"{kind_words(i.kind, len(i.cards), lang)}"
                             + ("" if i.kind in ("go", "last card") else f" {' '.join(map(str, i.cards))}") + f": {i.points}"
                             for i in s.items) or s.note
        lines.append(f"    {s.player} +{s.points}: {what}")
    return lines


def scores_text(game: CribbageGame) -> str:
    return ", ".join(f"{p} {s}" for p, s in zip(game.players, game.scores))
