"""The camera's questions worded in the app's language from the typed question: in English as the
pipeline says them, in Finnish with the names in the genitive."""

from __future__ import annotations

import pytest

from scorer.app import i18n
from scorer.app.wording import question_text
from scorer.pipeline.questions import WhichReading, WhoLaid, WhoseArm, needs_confirmation
from scorer.rules import Tile


@pytest.fixture
def finnish(qapp):
    i18n.set_language("fi")
    yield
    i18n.set_language("en")


QUESTIONS = [
    WhoLaid(Tile(5, 5), "Ben"),
    WhoseArm((Tile(2, 3),), "Cid", "Ann"),
    WhichReading((412.4, 200.6), ((Tile(1, 6),), (Tile(0, 1),))),
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
        "uusi laatta kohdassa (412, 201) luetaan epävarmasti: [1|6] tai [0|1]"
