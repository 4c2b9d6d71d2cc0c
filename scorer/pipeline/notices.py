"""What the pipeline tells the players that changes nothing, as typed values.

A :class:`~scorer.pipeline.events.Notice` carries one of these beside its sentence (``text()``), which is
:class:`~scorer.words.Words`, as the layout's notes are: a front end says it again in its own language (``scorer.app.wording``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Hashable, Literal, Protocol, Sequence

from scorer.pipeline.sequences import played_as
from scorer.rules import Event, Reveal, Tile
from scorer.rules.irregular import ActedWhileAble
from scorer.vision.darkness import too_dark_to_trust_words
from scorer.vision.grain import too_grainy_words
from scorer.vision.tile_detection import too_small_words
from scorer.words import Listed, Words, at, said_alike

Place = tuple[float, float]  # image pixels


class Said(Protocol):
    def text(self) -> Words: ...


# A note whose places are read this few pixels from those of one told before is that note again (a box
# read a few pixels off from one look to the next; live play reads tiles 40 px long or more).
SAME_PLACE_PX = 10.0


def told_before(key: Hashable, told: Collection[Hashable]) -> bool:
    """Whether a note keyed ``key`` was told already: its key among ``told``, or one alike but for its places (:data:`SAME_PLACE_PX`)."""
    return key in told or any(said_alike(key, other, SAME_PLACE_PX) for other in told)


def hands_told(reveal: Reveal) -> str:
    """The hands in words: "Ann -; Ben [0|3] [2|5]"."""
    return "; ".join(f"{player} {' '.join(map(str, hand)) or '-'}" for player, hand in reveal.hands)


def _open(words: Words) -> Words:
    """Something taken without an answer, open to correction."""
    return Words("{taken} -- correct it if it is not", taken=words)


# -- what the camera saw ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ReadingChanged:
    """A tile read surely one way now reads another, over the frames read since."""

    place: Place
    before: Tile
    after: Tile

    def text(self) -> Words:
        return Words("the tile at {place} now reads {after}, not {before}", place=at(self.place), after=self.after,
                     before=self.before)


@dataclass(frozen=True)
class CameraMoved:
    """The whole view shifted alike (the stand knocked): the places kept follow it."""

    pixels: float

    def text(self) -> Words:
        return Words("the camera moved by {pixels} px (its stand knocked?): the whole table shifted alike, and the places "
                     "kept follow it", pixels=f"{self.pixels:.0f}")


@dataclass(frozen=True)
class CalibrationNotUsed:
    """The calibration chosen was made on pictures of another shape than the camera's: the table is read without it."""

    name: str
    made: tuple[int, int]
    size: tuple[int, int]

    def text(self) -> Words:
        return Words("the calibration {name} was made on {made} pictures, and the camera's are {size}, another shape: it is "
                     "not used -- calibrate again with the camera set as it plays", name=self.name,
                     made=f"{self.made[0]} × {self.made[1]}", size=f"{self.size[0]} × {self.size[1]}")


@dataclass(frozen=True)
class NewView:
    """The camera was moved to another view: the table is read afresh."""

    def text(self) -> Words:
        return Words("the camera was moved to a new view: the table is read afresh from its tiles")


@dataclass(frozen=True)
class TilesTooSmall:
    """The face-up tiles are shorter in the image than reading their pips needs."""

    length: float
    minimum: float

    def text(self) -> Words:
        return too_small_words(self.length, self.minimum)


@dataclass(frozen=True)
class PictureTooGrainy:
    """The picture is too grainy to read: the room too dark for the camera."""

    def text(self) -> Words:
        return too_grainy_words()


@dataclass(frozen=True)
class PictureTooDark:
    """Tiles lie on the table in a picture so dark that they may be misread: a camera that does not brighten a dimmed room back."""

    def text(self) -> Words:
        return too_dark_to_trust_words()


# What keeps the camera from reading the table well: a front end says these aloud and lets them stay.
CAMERA_UNFIT = (TilesTooSmall, PictureTooGrainy, PictureTooDark, CalibrationNotUsed)
CameraUnfit = TilesTooSmall | PictureTooGrainy | PictureTooDark


@dataclass(frozen=True)
class BlankDoubleTaken:
    """A box seen as a back lies where a double is laid on a 0: the double blank face up."""

    place: Place

    def text(self) -> Words:
        return Words("the tile at {place}, seen as a back, is taken as [0|0]: it lies where a double is laid on a 0",
                     place=at(self.place))


# -- taken without an answer, so that the game goes on (open to correction) ------------------------

@dataclass(frozen=True)
class NoArmSeen:
    """A tile laid with no arm seen: the likeliest player under the rules taken."""

    tile: Tile
    taken: tuple[Event, ...]
    odds: float

    def text(self) -> Words:
        return _open(Words("no arm was seen laying {tile}: taken as {taken}, the likeliest under the rules ({odds})",
                           tile=self.tile, taken=played_as(self.taken), odds=Words("{percent}%", percent=f"{self.odds * 100:.0f}")))


@dataclass(frozen=True)
class OrderTaken:
    """The order of several new tiles, asked about, taken from when each was put down."""

    taken: tuple[Event, ...]

    def text(self) -> Words:
        return _open(Words("no answer about the order the new tiles were played in: taken as {taken}", taken=played_as(self.taken)))


@dataclass(frozen=True)
class OrderRevised:
    """The order taken for new tiles (unanswered) leaves a tile laid since unplayable as seen: another the rules allowed is taken."""

    tile: Tile
    played: tuple[Event, ...]
    scores: str = ""  # the scores then

    def text(self) -> Words:
        return _open(Words("the order taken for the new tiles does not let {tile} be played as seen: another order the rules "
                           "allowed is taken, the moves since scored again -- scores: {scores}", tile=self.tile, scores=self.scores))


@dataclass(frozen=True)
class WhoLaidTaken:
    """Who laid a tile, asked about: taken as ``told_by`` tells -- the rules' likeliest way, the hands
    laid out at the round's end, or (None) the order the tiles were put down in."""

    tile: Tile
    taken: tuple[Event, ...]
    told_by: Literal["rules", "hands"] | None = None

    def text(self) -> Words:
        tile, taken = self.tile, played_as(self.taken)
        if self.told_by == "hands":
            return _open(Words("no answer about who laid {tile}: the hands laid out tell -- taken as {taken}", tile=tile, taken=taken))
        if self.told_by == "rules":
            return _open(Words("no answer about who laid {tile}: taken as {taken}, the likeliest under the rules", tile=tile,
                               taken=taken))
        return _open(Words("no answer about who laid {tile}: taken as {taken}", tile=tile, taken=taken))


@dataclass(frozen=True)
class StarterTaken:
    """Who started the first round, asked about (the starter named, the arm another's): play went on
    unanswered, and the arm's player is taken."""

    starter: str
    named: str

    def text(self) -> Words:
        return _open(Words("no answer about who started the round: taken as {starter}, from whose side its first tile "
                           "was laid (not {named}, as named at the start)", starter=self.starter, named=self.named))


@dataclass(frozen=True)
class ReadingTaken:
    """A new tile read unsurely, asked about: its likeliest reading taken."""

    place: Place
    tiles: tuple[Tile, ...]

    def text(self) -> Words:
        return _open(Words("no answer about the tile at {place}: taken as read, {tiles}", place=at(self.place),
                           tiles=", ".join(map(str, self.tiles))))


@dataclass(frozen=True)
class HandsTaken:
    """The hands left at a round's end, asked about: taken as read."""

    reveal: Reveal

    def text(self) -> Words:
        return _open(Words("no answer about the hands left at the round's end: taken as read -- {hands}",
                           hands=hands_told(self.reveal)))


@dataclass(frozen=True)
class HandsLikely:
    """The hands left at a round's end read unsurely, of which the rules allow one likely reading."""

    reveal: Reveal

    def text(self) -> Words:
        return Words("hands read unsurely, taken as the one likely reading the rules allow: {hands}", hands=hands_told(self.reveal))


@dataclass(frozen=True)
class SettledAtTheEnd:
    """A question still open when the recording ended: its likeliest answer taken.  ``question`` is the
    question as asked (a :mod:`scorer.pipeline.questions` value, for a front end to word again)."""

    question: object
    reason: str
    taken: tuple[Event, ...]

    def text(self) -> Words:
        return _open(Words("no answer to '{question}' before the recording ended: taken as {taken}", question=self.reason,
                           taken=played_as(self.taken)))


# -- a round written again ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DrewMore:
    """A draw the camera saw, counted otherwise (made larger; made smaller, where hands typed in hold fewer tiles)."""

    player: str
    count: int
    seen: int
    at_s: float | None

    def text(self) -> Words:
        return _when(Words("{player} drew {count}, not {seen}", player=self.player, count=self.count, seen=self.seen), self.at_s)


@dataclass(frozen=True)
class DrewBefore:
    """A draw the camera never saw, put before a play of ``tile`` (or, None, a pass)."""

    player: str
    count: int
    tile: Tile | None
    at_s: float | None

    def text(self) -> Words:
        if self.tile is None:
            return _when(Words("{player} drew {count} before passing", player=self.player, count=self.count), self.at_s)
        return _when(Words("{player} drew {count} before laying {tile}", player=self.player, count=self.count, tile=self.tile),
                     self.at_s)


@dataclass(frozen=True)
class PlayedInstead:
    """A play taken as one tile was of another."""

    player: str
    tile: Tile
    instead_of: Tile

    def text(self) -> Words:
        return Words("{player} played {tile}, not {instead_of}", player=self.player, tile=self.tile, instead_of=self.instead_of)


@dataclass(frozen=True)
class PlayedInOrder:
    """Tiles laid unseen, taken in one order, played in another."""

    played: tuple[Event, ...]

    def text(self) -> Words:
        return Words("played as {played}", played=played_as(self.played))


Change = DrewMore | DrewBefore | PlayedInstead | PlayedInOrder


def changes_told(changes: Sequence[Change]) -> Listed:
    return Listed([c.text() for c in changes], "; ")


@dataclass(frozen=True)
class DrawsPutIn:
    """The hands laid out at a round's end hold more tiles than the camera saw drawn (or ``fewer``): the round written again
    with the draws so counted."""

    changes: tuple[Change, ...]
    fewer: bool = False

    def text(self) -> Words:
        if self.fewer:
            return _open(Words("the hands laid out hold fewer tiles than the camera saw drawn: taken as {changes}",
                               changes=changes_told(self.changes)))
        return _open(Words("the hands laid out hold more tiles than the camera saw drawn: taken as {changes}",
                           changes=changes_told(self.changes)))


@dataclass(frozen=True)
class PlayWentOn:
    """A player the log had out with their last tile, and play went on on the layout: they held more."""

    player: str
    changes: tuple[Change, ...]

    def text(self) -> Words:
        return _open(Words("{player} was counted out, yet play goes on: the camera missed a draw -- taken as {changes}",
                           player=self.player, changes=changes_told(self.changes)))


@dataclass(frozen=True)
class GuessRevised:
    """A tile taken as read unanswered was another of its readings: the one taken is read surely elsewhere."""

    place: Place
    taken: Tile
    tile: Tile
    seen_at: Place
    changes: tuple[Change, ...]

    def text(self) -> Words:
        return _open(Words("the tile at {place} taken as {taken} is {tile}: {taken} is read surely at {seen_at} -- {changes}, "
                           "the moves since scored again", place=at(self.place), taken=self.taken, tile=self.tile,
                           seen_at=at(self.seen_at), changes=changes_told(self.changes)))


# -- a person's correction ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Corrected:
    """A person's reading of a tile; where the tile was played this round, its move written again so."""

    place: Place
    tile: Tile
    changes: tuple[Change, ...] = ()
    kept: Tile | None = None  # the tile as played this round, where the rules refuse its move so corrected

    def text(self) -> Words:
        if self.kept is not None:
            return Words("the tile at {place} is not taken as {tile}: the rules do not allow {tile} where {kept} was laid -- it "
                         "stays {kept} (undo the move to enter another)", place=at(self.place), tile=self.tile, kept=self.kept)
        if self.changes:
            return Words("the tile at {place} is {tile}, as corrected: {changes}, the moves since scored again",
                         place=at(self.place), tile=self.tile, changes=changes_told(self.changes))
        return Words("the tile at {place} is {tile}, as corrected", place=at(self.place), tile=self.tile)


@dataclass(frozen=True)
class OrderPicked:
    """Another order picked for tiles taken in one unanswered: written so, or not (``kept``: the moves since do not fit it)."""

    played: tuple[Event, ...]
    kept: bool = False
    gone: bool = False  # (the moves taken so were withdrawn, or the next round has begun)
    scores: str = ""  # the scores then

    def text(self) -> Words:
        if self.gone:
            return Words("no other order can be picked for those tiles now: their moves were withdrawn, or the next round has begun")
        if self.kept:
            return Words("the moves played since do not fit {played}: the order taken stays (undo the moves to enter them by hand)", played=played_as(self.played))
        return Words("the new tiles are taken in the order picked, the moves since scored again -- scores: {scores}", scores=self.scores)


@dataclass(frozen=True)
class NotFollowed:
    """A correction where no tile is followed."""

    def text(self) -> Words:
        return Words("no tile is being followed there")


def _when(words: Words, t: float | None) -> Words:
    """A change with the time it was made at, where known."""
    return words if t is None else Words("{change} (at {seconds} s)", change=words, seconds=round(float(t), 1))


# Said aloud as well as shown (nobody at the table watches the bar): what keeps the camera from reading, a pass the hands prove wrong, a round written again.
SAID_ALOUD = CAMERA_UNFIT + (ActedWhileAble, PlayWentOn, GuessRevised, OrderRevised, OrderPicked)
