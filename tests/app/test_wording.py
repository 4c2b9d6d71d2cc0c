"""The camera's questions and notices worded in the app's language from the typed values: in English as
the pipeline says them, in Finnish with the names in the genitive; the layout's sentences too."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

from scorer.app import i18n
from PySide6.QtCore import QSize

from scorer.app.sentences import sentence_templates
from scorer.app.wording import notice_spoken, notice_text, question_text, refusal_text, region, said_again
from scorer.pipeline.announce import speakable
from scorer.words import Listed, Words, words_of
from scorer.pipeline import Notice, notices
from scorer.pipeline.events import told
from scorer.pipeline.questions import PlayedTileAgain, TableUnfit, StarterContradicted, WhichReading, WhoLaid, WhoseArm, needs_confirmation
from scorer.rules import Pass, Play, Reveal, Tile

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def finnish(qapp):
    i18n.set_language("fi")
    yield
    i18n.set_language("en")


QUESTIONS = [
    WhoLaid(Tile(5, 5), "Ben"),
    WhoseArm((Tile(2, 3),), "Cid", "Ann"),
    WhichReading((412.4, 200.6), ((Tile(1, 6),), (Tile(0, 1),))),
    StarterContradicted("Ben", "Ann"),
]


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: type(q).__name__)
def test_in_english_the_app_says_what_the_pipeline_says(qapp, question) -> None:
    i18n.set_language("en")
    asked = needs_confirmation(1.0, question)
    assert question_text(asked) == asked.reason


def test_in_finnish_the_questions_are_finnish(finnish) -> None:
    assert question_text(needs_confirmation(1.0, QUESTIONS[0])) == \
        "kuka pelasi laatan [5|5]? kamera ei nähnyt kättä, ja on Benin vuoro"
    assert question_text(needs_confirmation(1.0, QUESTIONS[1])) == \
        "[2|3]: käsi tuli Cidin puolelta, mutta on Annin vuoro: oliko se Annin?"
    assert question_text(needs_confirmation(1.0, QUESTIONS[2])) == \
        "uusi laatta (412, 201) luetaan epävarmasti: [1|6] tai [0|1]"


# -- notices: each kind the pipeline tells, and the layout's sentences ---------------------------------

PLAY = (Pass("Ann"), Play("Ben", Tile(3, 6), Tile(1, 3), None))
NOTICES = [
    notices.ReadingChanged((212.3, 132.0), Tile(3, 6), Tile(3, 5)), notices.CameraMoved(4.2), notices.NewView(),
    notices.TilesTooSmall(24.6, 30), notices.BlankDoubleTaken((10.0, 20.0)), notices.NoArmSeen(Tile(3, 6), PLAY[1:], 0.99),
    notices.OrderTaken(PLAY), notices.WhoLaidTaken(Tile(3, 6), PLAY, "rules"), notices.WhoLaidTaken(Tile(3, 6), PLAY, "hands"),
    notices.WhoLaidTaken(Tile(3, 6), PLAY), notices.ReadingTaken((5.0, 6.0), (Tile(1, 2), Tile(2, 2))),
    notices.HandsTaken(Reveal((("Ann", (Tile(1, 2),)), ("Ben", ())))), notices.HandsLikely(Reveal((("Ann", ()),))),
    notices.SettledAtTheEnd(WhoLaid(Tile(5, 5), "Ben"), WhoLaid(Tile(5, 5), "Ben").reason, PLAY),
    notices.DrawsPutIn((notices.DrewMore("Ben", 3, 2, 12.0), notices.DrewBefore("Cid", 1, None, None),
                        notices.DrewBefore("Cid", 1, Tile(2, 3), 4.5))),
    notices.PlayWentOn("Cid", (notices.DrewBefore("Cid", 1, Tile(0, 3), 80.6),)),
    notices.DrawsPutIn((notices.DrewMore("Ann", 0, 1, 70.8),), fewer=True),
    notices.GuessRevised((1.0, 2.0), Tile(1, 4), Tile(1, 6), (3.0, 4.0), (notices.PlayedInstead("Ann", Tile(1, 6), Tile(1, 4)),)),
    notices.OrderRevised(Tile(1, 5), PLAY), notices.OrderPicked(PLAY), notices.OrderPicked(PLAY, kept=True),
    notices.OrderPicked(PLAY, gone=True),
    notices.Corrected((1.0, 2.0), Tile(0, 0)), notices.StarterTaken("Ann", "Ben"), notices.NotFollowed(), notices.PictureTooGrainy(),
    notices.PictureTooDark(), notices.CalibrationNotUsed("kitchen", (640, 480), (1280, 720)),
]


def test_places_are_told_by_the_part_of_the_camera_picture_they_lie_in(qapp) -> None:
    # (Pixel places mean nothing at the table: the app tells the third of the picture, and rings the place.)
    picture = QSize(1280, 720)
    i18n.set_language("en")
    revised = told(3.0, notices.GuessRevised((100.0, 650.0), Tile(1, 4), Tile(1, 6), (640.0, 300.0), ()))
    assert notice_text(revised, picture).startswith("the tile at (bottom left) taken as [1|4] is [1|6]: [1|4] is read "
                                                    "surely at (middle)")
    assert notice_text(revised).startswith("the tile at (100, 650) taken")  # (no picture: as the pipeline says it)
    asked = needs_confirmation(1.0, QUESTIONS[2])
    assert question_text(asked, picture) == "the new tile at (top left) is read unsurely: [1|6] or [0|1]"
    i18n.set_language("fi")
    try:
        assert notice_text(told(1.0, NOTICES[0]), picture) == "laatta (ylhäällä vasemmalla) luetaan nyt [3|5], ei [3|6]"
    finally:
        i18n.set_language("en")
    assert [region((x, y), 90, 60) for x, y in ((0, 0), (45, 30), (89.9, 59.9), (-5, 70), (60, 10))] == \
        ["top left", "middle", "bottom right", "bottom left", "top right"]


def test_said_aloud_a_notice_has_no_pixel_places_nor_moments_of_the_video(qapp) -> None:
    i18n.set_language("en")
    went_on = told(81.0, notices.PlayWentOn("Cid", (notices.DrewBefore("Cid", 1, Tile(0, 3), 80.6),)))
    assert "(at 80.6 s)" in notice_text(went_on)  # (shown: a recording can be looked at there)
    assert notice_spoken(went_on, QSize(640, 480)) == ("Cid was counted out, yet play goes on: the camera missed a draw -- "
                                                       "taken as Cid drew 1 before laying [0|3] -- correct it if it is not")
    revised = told(3.0, notices.GuessRevised((600.0, 20.0), Tile(1, 4), Tile(1, 6), (10.0, 470.0), ()))
    spoken = speakable(notice_spoken(revised, QSize(640, 480)), "en")
    assert spoken.startswith("the tile at top right taken as one–four is one–six: one–four is read surely at bottom left")


def test_every_kind_of_notice_is_worded() -> None:
    kinds = {c for _, c in inspect.getmembers(notices, inspect.isclass)
             if dataclasses.is_dataclass(c) and c.__module__ == notices.__name__ and hasattr(c, "text")}
    assert kinds - {type(n) for n in NOTICES} == {notices.DrewMore, notices.DrewBefore, notices.PlayedInstead, notices.PlayedInOrder}  # (parts of one)


@pytest.mark.parametrize("said", NOTICES, ids=lambda n: type(n).__name__)
def test_in_english_the_app_tells_what_the_pipeline_tells(qapp, said) -> None:
    i18n.set_language("en")
    notice = told(3.0, said)
    assert notice_text(notice) == notice.message


def test_in_finnish_the_notices_are_finnish(finnish) -> None:
    assert notice_text(told(1.0, NOTICES[0])) == "laatta (212, 132) luetaan nyt [3|5], ei [3|6]"
    assert notice_text(told(1.0, NOTICES[6])) == ("uusien laattojen pelijärjestykseen ei vastattu: tulkittu Ann ohitti vuoronsa, "
                                                 "sitten Ben [3|6] -- korjaa, jos se ei pidä paikkaansa")
    assert notice_text(told(1.0, NOTICES[13])).startswith("kysymykseen ”kuka pelasi laatan [5|5]? kamera ei nähnyt kättä")
    assert "Ben nosti 3, ei 2 (kohdassa 12,0 s)" in notice_text(told(1.0, NOTICES[14]))  # (a Finnish decimal comma)
    assert notice_text(told(1.0, NOTICES[-2])).endswith("lisää valoa pöydälle, kiitos")
    for said in NOTICES:
        text = notice_text(told(1.0, said))
        assert text != said.text() and "{" not in text


def test_the_command_line_says_the_notices_in_finnish_as_the_app_does_and_leaves_the_apps_language(finnish) -> None:
    from scorer.app.wording import said_in

    in_app = [notice_text(told(1.0, said)) for said in NOTICES]
    i18n.set_language("en")
    say = said_in("fi")
    assert [say(told(1.0, said).message) for said in NOTICES] == in_app  # (the decimal comma too)
    assert i18n.language() == "en" and notice_text(told(1.0, NOTICES[-1])) == NOTICES[-1].text()
    assert said_in("en") is str and say("a text not made of Words") == "a text not made of Words"


def test_the_command_line_tells_a_place_as_the_part_of_the_picture_and_its_pixels() -> None:
    from scorer.app.wording import said_in
    from scorer.words import Words, at

    problem = Words("the tile at {place} is read uncertainly as {read} ({confidence}): please check it",
                    place=at((610.4, 30.0)), read="[2|4]", confidence="0.62")
    assert said_in("en", (640, 480))(problem) == \
        "the tile at (top right, 610, 30) is read uncertainly as [2|4] (0.62): please check it"
    assert said_in("fi", (640, 480))(problem).startswith("laatta (ylhäällä oikealla, 610, 30) ")
    assert said_in("en")(problem) == "the tile at (610, 30) is read uncertainly as [2|4] (0.62): please check it"


def _sentence_templates() -> set[str]:
    """Every sentence template the rules, the layout and the pipeline make Words of, read from their source."""
    found = set()
    for path in [f for part in ("rules", "layout", "pipeline", "vision") for f in (ROOT / "scorer" / part).glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Words":
                assert node.args and isinstance(node.args[0], ast.Constant), f"{path.name}:{node.lineno}: Words wants a template"
                found.add(node.args[0].value)
    return found


def test_every_sentence_of_the_layout_and_the_rules_has_its_template_in_the_app() -> None:
    made = _sentence_templates()
    assert len(made) >= 40
    assert made <= sentence_templates()


def test_the_layouts_notes_and_problems_are_finnish(finnish) -> None:
    where = Words("{tile} at {place}", tile=Tile(2, 6), place="(212, 132)")
    problem = Words("pips do not match at a join: {tile} shows {value} where {other} shows {other_value}",
                    tile=where, value=2, other=Words("{tile} at {place}", tile=Tile(1, 3), place="(164, 132)"), other_value=3)
    assert problem == "pips do not match at a join: [2|6] at (212, 132) shows 2 where [1|3] at (164, 132) shows 3"
    assert said_again(problem) == ("silmäluvut eivät täsmää liitoksessa: [2|6] (212, 132) näyttää 2, mutta "
                                   "[1|3] (164, 132) näyttää 3")
    edge = Words("only the round's first double spins, but {tiles} both have branches", tiles=Listed([where, where], " and "))
    assert said_again(edge).endswith("[2|6] (212, 132) ja [2|6] (212, 132) on molemmilla haaroja")
    asked = needs_confirmation(1.0, TableUnfit((problem,)))
    assert question_text(asked).startswith("pöytä ei vastaa peliä: silmäluvut eivät täsmää")
    assert notice_text(Notice(1.0, Words("{tile} lies lengthwise in the line: read as a double laid crosswise", tile=where))) == \
        "[2|6] (212, 132) on rivissä pitkittäin: luettu poikittain pelatuksi tuplaksi"


def test_a_played_tile_seen_again_is_asked_about_in_finnish(finnish) -> None:
    asked = needs_confirmation(1.0, PlayedTileAgain((((212.0, 132.0), Tile(3, 6)),)))
    assert question_text(asked) == ("pöytä ei vastaa peliä: laatta (212, 132) pelikuvion vieressä luetaan [3|6], joka on jo "
                                    "pelattu: mikä laatta se on?")


def test_the_rules_refusals_are_said_in_finnish(finnish) -> None:
    from scorer.errors import IllegalMove
    from scorer.rules.simulate import simulate_match

    sim = simulate_match("horse-race", 2, seed=5)
    match = sim.events[3].after  # (in the round: someone is on turn)
    other = next(p for p in match.players if p != match.next_player)
    with pytest.raises(IllegalMove) as refused:
        match.apply(Pass(other))
    assert str(refused.value) == f"it is {match.next_player}'s turn, not {other}'s (pass)"  # (the rules' English, as before)
    assert refusal_text(refused.value) == f"Vuorossa on {match.next_player}, ei {other} (ohitus)."


def test_the_boards_refusals_met_through_the_camera_are_finnish(finnish) -> None:
    from scorer.errors import IllegalMove
    from scorer.rules.board import Board
    from scorer.rules.tiles import Side

    board = Board(every_double_spins=False).place(Tile(3, 6))
    with pytest.raises(IllegalMove) as refused:
        board.place(Tile(1, 2), board.point(Tile(3, 6), Side.HIGH))
    assert str(refused.value) == "[1|2] does not match the larger end of [3|6] (shows 6)"
    assert refusal_text(refused.value) == "[1|2] ei sovi: laatan [3|6] suurempi pää on 6."
    where = Words("{tile} cannot be where it lies: {why}", tile=Tile(1, 2), why=words_of(refused.value))
    assert said_again(where) == "[1|2] ei voi olla siinä, missä se on: [1|2] ei sovi: laatan [3|6] suurempi pää on 6"
    spinner = Board(every_double_spins=False).place(Tile(4, 4))
    with pytest.raises(IllegalMove) as refused:
        spinner.place(Tile(1, 4), spinner.point(Tile(4, 4), Side.BRANCH_A))
    assert str(refused.value).endswith("line A and line B still free")
    assert refusal_text(refused.value).endswith("linja A ja linja B vielä vapaana.")


def test_a_banner_never_breaks_a_score_from_its_sign_nor_an_arrow_from_its_numbers() -> None:
    assert i18n.unbroken("Round: Ben's hand 13 → 15. Ann +3") == "Round: Ben's hand 13\u00a0→\u00a015. Ann\u00a0+3"
    assert i18n.unbroken("Undone: Ann plays [3|6] on [6|6]") == "Undone: Ann plays [3|\u20606] on [6|\u20606]"
    assert i18n.unbroken("Ann & Cid -35, Ben & Dee -50 -- over") == "Ann\u00a0&\u00a0Cid\u00a0-35, Ben\u00a0&\u00a0Dee\u00a0-50 -- over"
