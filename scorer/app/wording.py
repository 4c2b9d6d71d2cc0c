"""The camera's questions worded in the app's language, from the typed question the pipeline hands over.

The pipeline's own sentence (English) stays the fallback: for a question this module does not know, and
for the words the rules and the layout give (a refusal's reason, a table that does not fit the game)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from scorer.app.i18n import names, translate
from scorer.pipeline import NeedsConfirmation
from scorer.pipeline.questions import (
    HandsLeft,
    LaidAtOnce,
    NotPlayable,
    OpeningUnfit,
    SeenInTwoPlaces,
    SeenTwoWays,
    TableUnfit,
    WhichOrder,
    WhichReading,
    WhoLaid,
    WhoOpened,
    WhoseArm,
)
from scorer.rules import Tile

_TEXTS = {
    WhoOpened: QT_TRANSLATE_NOOP("Questions", "who started the round? (drawn by lot; the camera did not see the arm)"),
    HandsLeft: QT_TRANSLATE_NOOP("Questions", "the hands left at the round's end could not be counted surely: which were they?"),
    WhichOrder: QT_TRANSLATE_NOOP("Questions", "the new tiles can have been played in orders that score differently"),
    SeenTwoWays: QT_TRANSLATE_NOOP("Questions", "one new tile is seen two ways: {readings}"),
    SeenInTwoPlaces: QT_TRANSLATE_NOOP("Questions", "a tile is seen in two places, and either fits the game: {places}"),
    WhichReading: QT_TRANSLATE_NOOP("Questions", "the new tile at {place} is read unsurely: {readings}"),
    WhoLaid: QT_TRANSLATE_NOOP("Questions", "who laid {tile}? the camera saw no arm, and it is {on_turn_gen} turn"),
    WhoseArm: QT_TRANSLATE_NOOP("Questions", "{tiles} was laid by an arm from {arm_gen} side, but it is {on_turn_gen} turn: "
                                             "was it {on_turn_gen}?"),
    NotPlayable: QT_TRANSLATE_NOOP("Questions", "{tiles} cannot be played here by {on_turn} under the rules"),
    LaidAtOnce: QT_TRANSLATE_NOOP("Questions", "{tiles} appeared at once, as if laid by one hand: were they played so?"),
    OpeningUnfit: QT_TRANSLATE_NOOP("Questions", "the first tiles of the round do not fit: {problems}"),
    TableUnfit: QT_TRANSLATE_NOOP("Questions", "the table does not match the game: {problems}"),
}
_OR = QT_TRANSLATE_NOOP("Questions", " or ")


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return ", ".join(map(str, tiles))


def _genitive(name: str) -> str:
    """The name as the template wants it: "Ben's" in English, "Benin" in Finnish."""
    return translate("Questions", "{name}'s").format(**names(name))


def question_text(asked: NeedsConfirmation) -> str:
    """What the players are asked, in the app's language."""
    q = asked.question
    template = _TEXTS.get(type(q))
    if template is None:
        return asked.reason
    either = translate("Questions", _OR)
    fields: dict[str, str] = {}
    if isinstance(q, (SeenTwoWays, WhichReading)):
        fields["readings"] = either.join(map(_tiles, q.readings))
    if isinstance(q, WhichReading):
        fields["place"] = f"({q.place[0]:.0f}, {q.place[1]:.0f})"
    if isinstance(q, SeenInTwoPlaces):
        fields["places"] = either.join(
            ", ".join(str(p.tile) if p.at is None else f"{p.tile} → {p.at.tile}" for p in move) for move in q.moves)
    if isinstance(q, WhoLaid):
        fields.update(tile=str(q.tile), on_turn_gen=_genitive(q.on_turn))
    if isinstance(q, (WhoseArm, NotPlayable, LaidAtOnce)):
        fields["tiles"] = _tiles(q.tiles)
    if isinstance(q, WhoseArm):
        fields.update(arm_gen=_genitive(q.arm or "?"), on_turn_gen=_genitive(q.on_turn))
    if isinstance(q, NotPlayable):
        fields["on_turn"] = q.on_turn
    if isinstance(q, (OpeningUnfit, TableUnfit)):
        fields["problems"] = "; ".join(q.problems[:3])
    return translate("Questions", template).format(**fields)
