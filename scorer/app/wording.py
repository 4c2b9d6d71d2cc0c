"""The camera's questions and notices worded in the app's language, from the typed values the pipeline
hands over (:mod:`scorer.pipeline.questions`, :mod:`scorer.pipeline.notices`).

The pipeline's own sentence (English) stays the fallback: for a question or notice this module does not
know, and for the words the rules and the layout give (a refusal's reason, a table that does not fit
the game, the layout's notes)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from scorer.app.i18n import decimal, names, translate
from scorer.words import Listed, Words, at, words_of
from scorer.pipeline import NeedsConfirmation, Notice
from scorer.pipeline.notices import (
    BlankDoubleTaken, CameraMoved, Change, Corrected, DrawsPutIn, DrewBefore, DrewMore, GuessRevised, HandsLikely,
    HandsTaken, NewView, NoArmSeen, NotFollowed, OrderTaken, PlayedInstead, ReadingChanged, ReadingTaken,
    SettledAtTheEnd, TilesTooSmall, WhoLaidTaken, hands_told,
)
from scorer.pipeline.questions import (
    HandsLeft,
    LaidAtOnce,
    NotPlayable,
    OpeningUnfit,
    PlayedTileAgain,
    SeenInTwoPlaces,
    SeenTwoWays,
    TableUnfit,
    WhichOrder,
    WhichReading,
    WhoLaid,
    WhoOpened,
    WhoseArm,
)
from scorer.rules import Event, Pass, Play, Tile

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
    PlayedTileAgain: QT_TRANSLATE_NOOP("Questions", "the table does not match the game: {problems}"),
}
_OR = QT_TRANSLATE_NOOP("Questions", " or ")


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return ", ".join(map(str, tiles))


def _genitive(name: str) -> str:
    """The name as the template wants it: "Ben's" in English, "Benin" in Finnish."""
    return translate("Questions", "{name}'s").format(**names(name))


def question_text(asked: NeedsConfirmation) -> str:
    """What the players are asked, in the app's language."""
    return _question_words(asked.question, asked.reason)


def _question_words(q: object, reason: str) -> str:
    template = _TEXTS.get(type(q))
    if template is None:
        return said_again(reason)  # (a refusal: the rules' Words)
    either = translate("Questions", str(_OR))
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
    if isinstance(q, (OpeningUnfit, TableUnfit, PlayedTileAgain)):
        fields["problems"] = "; ".join(map(said_again, q.problems[:3]))
    return translate("Questions", str(template)).format(**fields)


_OPEN = QT_TRANSLATE_NOOP("Notices", " -- correct it if it is not")
_NOTICES = {
    ReadingChanged: QT_TRANSLATE_NOOP("Notices", "the tile at {place} now reads {after}, not {before}"),
    CameraMoved: QT_TRANSLATE_NOOP("Notices", "the camera moved by {pixels} px (its stand knocked?): the whole table shifted "
                                              "alike, and the places kept follow it"),
    NewView: QT_TRANSLATE_NOOP("Notices", "the camera was moved to a new view: the table is read afresh from its tiles"),
    TilesTooSmall: QT_TRANSLATE_NOOP("Notices", "the tiles are about {length} px long in the image, too small for their pips "
                                                "to be read reliably (at least {minimum} px is needed): bring the camera "
                                                "closer or raise its resolution"),
    BlankDoubleTaken: QT_TRANSLATE_NOOP("Notices", "the tile at {place}, seen as a back, is taken as [0|0]: it lies where "
                                                   "a double is laid on a 0"),
    NoArmSeen: QT_TRANSLATE_NOOP("Notices", "no arm was seen laying {tile}: taken as {taken}, the likeliest under the rules "
                                            "({odds})"),
    OrderTaken: QT_TRANSLATE_NOOP("Notices", "no answer about the order the new tiles were played in: taken as {taken}"),
    ReadingTaken: QT_TRANSLATE_NOOP("Notices", "no answer about the tile at {place}: taken as read, {tiles}"),
    HandsTaken: QT_TRANSLATE_NOOP("Notices", "no answer about the hands left at the round's end: taken as read -- {hands}"),
    HandsLikely: QT_TRANSLATE_NOOP("Notices", "hands read unsurely, taken as the one likely reading the rules allow: {hands}"),
    SettledAtTheEnd: QT_TRANSLATE_NOOP("Notices", "no answer to '{question}' before the recording ended: taken as {taken}"),
    DrawsPutIn: QT_TRANSLATE_NOOP("Notices", "the hands laid out hold more tiles than the camera saw drawn: taken as "
                                             "{changes}"),
    GuessRevised: QT_TRANSLATE_NOOP("Notices", "the tile at {place} taken as {taken} is {tile}: {taken} is read surely at "
                                               "{seen_at} -- {changes}, the moves since scored again"),
    Corrected: QT_TRANSLATE_NOOP("Notices", "the tile at {place} is {tile}, as corrected"),
    NotFollowed: QT_TRANSLATE_NOOP("Notices", "no tile is being followed there"),
}
_WHO_LAID = {
    "hands": QT_TRANSLATE_NOOP("Notices", "no answer about who laid {tile}: the hands laid out tell -- taken as {taken}"),
    "rules": QT_TRANSLATE_NOOP("Notices", "no answer about who laid {tile}: taken as {taken}, the likeliest under the rules"),
    None: QT_TRANSLATE_NOOP("Notices", "no answer about who laid {tile}: taken as {taken}"),
}
# Taken without an answer: open to correction.
_TAKEN = (NoArmSeen, OrderTaken, ReadingTaken, HandsTaken, SettledAtTheEnd, DrawsPutIn, GuessRevised, WhoLaidTaken)


def notice_text(notice: Notice) -> str:
    """What the players are told, in the app's language."""
    said = notice.said
    template = _WHO_LAID.get(said.told_by) if isinstance(said, WhoLaidTaken) else _NOTICES.get(type(said))
    if template is None or said is None:
        return said_again(notice.message)
    fields = {name: _field(name, value) for name, value in vars(said).items()}
    if isinstance(said, (CameraMoved, TilesTooSmall)):
        fields.update({k: f"{v:.0f}" for k, v in vars(said).items()})
    if isinstance(said, NoArmSeen):
        fields["odds"] = translate("Notices", "{percent}%").format(percent=f"{said.odds * 100:.0f}")
    if isinstance(said, (HandsTaken, HandsLikely)):
        fields["hands"] = hands_told(said.reveal)
    if isinstance(said, SettledAtTheEnd):
        fields["question"] = _question_words(said.question, said.reason)
    text = translate("Notices", str(template)).format(**fields)
    return text + translate("Notices", str(_OPEN)) if isinstance(said, _TAKEN) else text


def _field(name: str, value: object) -> str:
    """A notice's value as its templates take it, by its name: a place, tiles, plays, the changes of a
    round written again."""
    if name in ("place", "seen_at"):
        return at(value)  # type: ignore[arg-type]
    if name == "tiles":
        return ", ".join(map(str, value))  # type: ignore[call-overload]
    if name == "changes":
        return "; ".join(_change(c) for c in value)  # type: ignore[attr-defined]
    if name == "taken" and isinstance(value, tuple):
        return _plays(value)
    return str(value)


def _plays(events: tuple[Event, ...]) -> str:
    """The plays and passes of a sequence: "Ben [3|6], then Cid passed"."""
    said = [translate("Notices", "{player} {tile}").format(player=e.player, tile=e.tile) if isinstance(e, Play)
            else translate("Notices", "{player} passed").format(player=e.player)
            for e in events if isinstance(e, (Play, Pass))]
    return translate("Notices", ", then ").join(said)


def _change(change: Change) -> str:
    if isinstance(change, DrewMore):
        text = translate("Notices", "{player} drew {count}, not {seen}").format(player=change.player, count=change.count, seen=change.seen)
    elif isinstance(change, DrewBefore) and change.tile is not None:
        text = translate("Notices", "{player} drew {count} before laying {tile}").format(
            player=change.player, count=change.count, tile=change.tile)
    elif isinstance(change, DrewBefore):
        text = translate("Notices", "{player} drew {count} before passing").format(player=change.player, count=change.count)
    else:
        return translate("Notices", "{player} played {tile}, not {instead_of}").format(
            player=change.player, tile=change.tile, instead_of=change.instead_of)
    at_s = change.at_s
    return text if at_s is None else text + translate("Notices", " (at {seconds} s)").format(seconds=decimal(at_s))


# The layout's sentences and the rules' refusals (scorer.words.Words): their templates, for the translations.
_SENTENCES = (
    QT_TRANSLATE_NOOP("Sentences", "{tile} at {place}"),
    QT_TRANSLATE_NOOP("Sentences", "pips do not match at a join: {tile} shows {value} where {other} shows {other_value}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} was on the table and is not seen in the layout now (moved, covered or taken away)"),
    QT_TRANSLATE_NOOP("Sentences", "{count} tiles appeared on an empty table ({tiles}): the opening tile cannot be told"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} cannot be where it lies: {why}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is new but not joined to the layout where a tile may go"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} read as {read} is taken as {taken}: so the table fits the board before"),
    QT_TRANSLATE_NOOP("Sentences", "the box at {place} read as {read} is left out: it overlaps another, and only without it does "
                                "the layout fit together"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} read as {read} is taken as {taken}: so the layout fits together"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} looks face down, yet lies in the layout as the double blank would: taken "
                                "as [0|0] -- please check it"),
    QT_TRANSLATE_NOOP("Sentences", "the layout reaches the edge of the picture ({tiles}): it may go on beyond it, unseen -- frame "
                                "the whole layout"),
    QT_TRANSLATE_NOOP("Sentences", "the open end of {tile} at {place} is not bare table (something covers it): a tile may lie "
                                "there unseen -- please check it"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} is read uncertainly as {read} ({confidence}): please check it"),
    QT_TRANSLATE_NOOP("Sentences", "tiles joined to one another lie beside the layout but are not joined to it ({tiles}): a tile "
                                "between them may be unseen or misread"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} lies lengthwise in the line: read as a double laid crosswise"),
    QT_TRANSLATE_NOOP("Sentences", "two tiles at one side: {tile} and {other} both meet the same side"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is seen {count} times: {places}"),
    QT_TRANSLATE_NOOP("Sentences", "spinner {tile}: a branch is used before both line sides are filled"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is taken as {taken}: its half meets a {pips} at a join, a likely other reading"),
    QT_TRANSLATE_NOOP("Sentences", "only the round's first double spins, but {tiles} both have branches"),
    QT_TRANSLATE_NOOP("Sentences", "no order of play gives this layout (a double seems attached by its short end)"),
    QT_TRANSLATE_NOOP("Sentences", "{tile}: {why}"),
    QT_TRANSLATE_NOOP("Sentences", "the box at {place} read as {read} is left out: that tile is seen elsewhere, where it fits the game"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} read as {read} is taken as {taken}: {why}"),
    QT_TRANSLATE_NOOP("Sentences", "a played tile seen nowhere else"),
    QT_TRANSLATE_NOOP("Sentences", "the only likely reading that fits the game"),
    QT_TRANSLATE_NOOP("Sentences", " and "),
    QT_TRANSLATE_NOOP("Sentences", "the layout is not seen (covered, or the camera moved; if the round is over, blocked, give "
                                "the hands left)"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} against the layout reads {tile}, which is already played: which tile is it?"),
    # the rules' refusals
    QT_TRANSLATE_NOOP("Sentences", "the match is over ({winners} won); no more events"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is still being played; a new round cannot start"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is over but its hands were not revealed; expected a reveal"),
    QT_TRANSLATE_NOOP("Sentences", "{player} played the last tile of round {round} and starts round {next}, not {starter}"),
    QT_TRANSLATE_NOOP("Sentences", "the first round"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} (after a blocked round)"),
    QT_TRANSLATE_NOOP("Sentences", "the starter of {which} is drawn by lot; the round event must name the starter"),
    QT_TRANSLATE_NOOP("Sentences", "no round is being played: expected a round event before {player}'s {action}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} played the last tile"),
    QT_TRANSLATE_NOOP("Sentences", "it is blocked"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is over ({why}): expected the reveal of the hands, not a {action}"),
    QT_TRANSLATE_NOOP("Sentences", "it is {on_turn}'s turn, not {player}'s ({action})"),
    QT_TRANSLATE_NOOP("Sentences", "play"),
    QT_TRANSLATE_NOOP("Sentences", "draw"),
    QT_TRANSLATE_NOOP("Sentences", "pass"),
    QT_TRANSLATE_NOOP("Sentences", "{game} has no boneyard: nobody draws (a player who cannot place knocks)"),
    QT_TRANSLATE_NOOP("Sentences", "{player} starts the round and opens with any tile: there is nothing to draw for"),
    QT_TRANSLATE_NOOP("Sentences", "{player} draws {count} but the boneyard holds {boneyard}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} starts the round and opens with any tile: no pass is possible"),
    QT_TRANSLATE_NOOP("Sentences", "{player} may not pass while the boneyard holds {boneyard} tile(s): a player who cannot play "
                                   "draws"),
    QT_TRANSLATE_NOOP("Sentences", "no round is being played: there are no hands to reveal"),
    QT_TRANSLATE_NOOP("Sentences", "the reveal lists a player's hand twice"),
    QT_TRANSLATE_NOOP("Sentences", "the reveal lists no hand for {players} (give [] for an empty hand)"),
    QT_TRANSLATE_NOOP("Sentences", "{player} holds {count} tile(s) by the log, the reveal shows {shown}"),
    QT_TRANSLATE_NOOP("Sentences", "{player}'s revealed {tile} is on the board"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is revealed twice"),
)


def sentence_templates() -> frozenset[str]:
    """The layout's sentences and the rules' refusals the app has translations for."""
    return frozenset(map(str, _SENTENCES))


def refusal_text(exc: BaseException) -> str:
    """An error's message in the app's language, where it is made of Words (the rules' refusals)."""
    return said_again(words_of(exc))


def said_again(text: str) -> str:
    """A sentence of the layout's or the rules' (:class:`~scorer.words.Words`) in the app's language; other text as it is."""
    if isinstance(text, Listed):
        return translate("Sentences", text.separator).join(map(said_again, text.items))
    if isinstance(text, Words):
        values = {name: said_again(v) if isinstance(v, str) else str(v) for name, v in text.values.items()}
        return translate("Sentences", text.template).format(**values)
    return text
