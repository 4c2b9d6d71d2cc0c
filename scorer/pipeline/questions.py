"""The questions put to the players, each a value with its own key.

A question is put once: the same question (the same key) is not put again until something else happened (a move
scored, a reading corrected, another question put).  A key holds what the players are told -- the kind of question
and the tiles, places (to the pixel) and players it names -- not what is offered as the answers.  (The order question
names no tiles: any question about the order of new tiles is the same question.)

Some questions stay open while play goes on, and the camera settles them where no answer comes (:class:`Asked`):
who opened the round, which tile a box is, who laid a tile, the order of new tiles, the boxes they were asked to name.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Hashable

from scorer.layout.moves import Placement
from scorer.pipeline.events import NeedsConfirmation
from scorer.rules import Event, Reveal, RoundStart, Tile
from scorer.words import At, Listed, Words, at

Place = tuple[float, float]  # a box's centre, frame pixels
Alternatives = tuple[tuple[Event, ...], ...]  # the answers offered: each a sequence of rules events


def _at(place: Place) -> tuple[int, int]:
    """A place as the players are told it (to the pixel)."""
    return round(place[0]), round(place[1])


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return ", ".join(map(str, tiles))


def _unfit(problems: tuple[str, ...]) -> Words:
    return Words("the table does not match the game: {problems}", problems=Listed(problems[:3], "; "))


def _either(readings: tuple[tuple[Tile, ...], ...]) -> Listed:
    return Listed([_tiles(reading) for reading in readings], " or ")


# -- the round ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WhoOpened:
    """The camera missed the arm that laid the round's opening tile."""

    players: tuple[str, ...]
    key = ("who-opened",)
    reason = Words("who started the round? (drawn by lot; the camera did not see the arm)")
    problems = ()

    @property
    def alternatives(self) -> Alternatives:
        return tuple((RoundStart(p),) for p in self.players)


@dataclass(frozen=True)
class StarterContradicted:
    """The first round's starter named at the start, its first tile laid from another's side (the arm's player first)."""

    named: str
    arm: str
    key = ("starter",)  # (asked once a match: of its first round)
    problems = ()

    @property
    def reason(self) -> str:
        return Words("the first tile was laid from {arm}'s side, but {named} was named to start the round: who started it?",
                     arm=self.arm, named=self.named)

    @property
    def alternatives(self) -> Alternatives:
        return ((RoundStart(self.arm),), (RoundStart(self.named),))


@dataclass(frozen=True)
class HandsLeft:
    """The round is over and the hands laid out were not read surely, or hold more tiles than the camera
    saw drawn (``guess``: as best read)."""

    guess: Reveal | None = None
    key = ("hands-left",)
    reason = Words("the hands left at the round's end could not be counted surely: which were they?")
    problems = ()

    @property
    def alternatives(self) -> Alternatives:
        return ((self.guess,),) if self.guess is not None else ()


@dataclass(frozen=True)
class OpeningUnfit:
    """The round's first tiles do not fit the rules."""

    problems: tuple[str, ...]
    alternatives: Alternatives = ()

    @property
    def key(self) -> Hashable:
        return ("opening-unfit", self.problems[:3])

    @property
    def reason(self) -> str:
        return Words("the first tiles of the round do not fit: {problems}", problems=Listed(self.problems[:3], "; "))


# -- the reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableUnfit:
    """The table as read does not fit the game (``boxes``: those read as a played tile where it does not lie)."""

    problems: tuple[str, ...]
    boxes: tuple[Place, ...] = ()
    alternatives: Alternatives = ()
    hidden: tuple[Tile, ...] = ()  # tiles of the board not seen now (covered by a hand hovering, a shadow...)

    @property
    def key(self) -> Hashable:
        return ("unfit", self.problems[:3])

    @property
    def reason(self) -> str:
        return _unfit(self.problems)


@dataclass(frozen=True)
class PlayedTileAgain:
    """Nothing new fits, but boxes against the layout read as tiles already played: most likely the
    new tile misread.  Which tiles are they?"""

    boxes: tuple[tuple[Place, Tile], ...]
    alternatives: Alternatives = ()

    @property
    def key(self) -> Hashable:
        return ("played-again", tuple((_at(place), tile) for place, tile in self.boxes[:3]))

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(Words("the tile at {place} against the layout reads {tile}, which is already played: which tile is it?",
                           place=at(place), tile=tile) for place, tile in self.boxes)

    @property
    def reason(self) -> str:
        return _unfit(self.problems)


@dataclass(frozen=True)
class SeenTwoWays:
    """Two boxes over one place read differently, and either fits the game."""

    readings: tuple[tuple[Tile, ...], ...]
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("two-ways", self.readings)

    @property
    def reason(self) -> str:
        return Words("one new tile is seen two ways: {readings}", readings=_either(self.readings))


@dataclass(frozen=True)
class SeenInTwoPlaces:
    """Two boxes read as one tile, and the table fits the game with either one left out."""

    moves: tuple[tuple[Placement, ...], ...]
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("two-places", tuple(tuple((p.tile,) if p.at is None else (p.tile, p.at.tile, p.at.side) for p in move)
                                    for move in self.moves))

    @property
    def reason(self) -> str:
        def placed(p: Placement) -> str:
            return str(p.tile) if p.at is None else Words("{tile} at {side} of {other}", tile=p.tile, other=p.at.tile, side=p.at.side.words)

        places = Listed([Listed([placed(p) for p in move]) for move in self.moves], " or ")
        return Words("a tile is seen in two places, and either fits the game: {places}", places=places)


@dataclass(frozen=True)
class WhichReading:
    """A new tile still read unsurely, and more than one of its likely readings fits the game
    (``drawn_first``: tiles seen drawn before it was laid)."""

    place: Place
    readings: tuple[tuple[Tile, ...], ...]
    drawn_first: int = 0
    alternatives: Alternatives = ()
    problems = ()

    @property
    def tiles(self) -> frozenset[Tile]:
        """The tiles of the move asked about, in any of its readings."""
        return frozenset(t for reading in self.readings for t in reading)

    @property
    def box_may_be(self) -> frozenset[Tile]:
        """The tiles the box read unsurely may be: not those every reading has (laid with it, read surely)."""
        every = frozenset.intersection(*map(frozenset, self.readings)) if len(self.readings) > 1 else frozenset()
        return self.tiles - every

    @property
    def key(self) -> Hashable:
        return ("reading", _at(self.place), self.readings)

    @property
    def reason(self) -> str:
        return Words("the new tile at {place} is read unsurely: {readings}", place=at(self.place), readings=_either(self.readings))


# -- the turn -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WhoLaid:
    """A tile laid with no arm seen, where a later player may have laid it, those between passing
    (the alternatives: each way it can have been laid, the player on turn's first)."""

    tile: Tile
    on_turn: str
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("who-laid", self.tile, self.on_turn)

    @property
    def reason(self) -> str:
        return Words("who laid {tile}? the camera saw no arm, and it is {on_turn}'s turn", tile=self.tile, on_turn=self.on_turn)


@dataclass(frozen=True)
class WhoseArm:
    """The arm came from a player who cannot have played now (the players between may not pass)."""

    tiles: tuple[Tile, ...]
    arm: str | None  # the player at the edge the arm came from (None: several tiles, and draws)
    on_turn: str
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("whose-arm", self.tiles, self.arm, self.on_turn)

    @property
    def reason(self) -> str:
        return Words("{tiles} was laid by an arm from {arm}'s side, but it is {on_turn}'s turn: was it {on_turn}'s?",
                     tiles=_tiles(self.tiles), arm=self.arm or "?", on_turn=self.on_turn)


@dataclass(frozen=True)
class NotPlayable:
    """The new tiles cannot be played by the player on turn (nor by those after, passing)."""

    tiles: tuple[Tile, ...]
    on_turn: str
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("not-playable", self.tiles, self.on_turn)

    @property
    def reason(self) -> str:
        return Words("{tiles} cannot be played here by {on_turn} under the rules", tiles=_tiles(self.tiles), on_turn=self.on_turn)


@dataclass(frozen=True)
class WhichOrder:
    """New tiles that can have been played in orders that score differently (laid unseen: or leave other turns, hands)."""

    tiles: frozenset[Tile]
    alternatives: Alternatives = ()
    scores_differ: bool = True
    key, problems = ("order",), ()

    @property
    def reason(self) -> str:
        return (Words("the new tiles can have been played in orders that score differently") if self.scores_differ else
                Words("the new tiles can have been played in orders that leave another player on turn, or other tiles in hand"))


@dataclass(frozen=True)
class LaidAtOnce:
    """New tiles whose places stopped moving at one moment: one motion, most likely one tile seen as two boxes."""

    tiles: tuple[Tile, ...]
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("at-once", self.tiles)

    @property
    def reason(self) -> str:
        return Words("{tiles} appeared at once, as if laid by one hand: were they played so?", tiles=_tiles(self.tiles))


@dataclass(frozen=True)
class Refused:
    """The rules refused an event of a sequence the pipeline took (``message``: the rules' words)."""

    message: str
    alternatives: Alternatives = ()
    problems = ()

    @property
    def key(self) -> Hashable:
        return ("refused", self.message)

    @property
    def reason(self) -> str:
        return self.message


Question = (WhoOpened | StarterContradicted | HandsLeft | OpeningUnfit | TableUnfit | PlayedTileAgain | SeenTwoWays | SeenInTwoPlaces
            | WhichReading | WhoLaid | WhoseArm | NotPlayable | WhichOrder | LaidAtOnce | Refused)


def _named(words: object) -> tuple[list[Place], list[Tile]]:
    """The places and the tiles a sentence names (in its values, and in those of the sentences it lists)."""
    places: list[Place] = []
    tiles: list[Tile] = []
    for part in [*getattr(words, "values", {}).values(), *getattr(words, "items", ())]:
        if isinstance(part, At):
            places.append(part.place)
        elif isinstance(part, Tile):
            tiles.append(part)
        elif isinstance(part, (Words, Listed)):
            more_places, more_tiles = _named(part)
            places += more_places
            tiles += more_tiles
    return places, tiles


def pointed_at(question: object) -> tuple[tuple[Place, ...], frozenset[Tile]]:
    """What a question is about, to be shown in the picture: the places it names, and the tiles (found
    on the table by their reading); none for a question about the players or the whole table."""
    if isinstance(question, WhichReading):
        return (question.place,), frozenset()
    if isinstance(question, PlayedTileAgain):
        return tuple(place for place, _ in question.boxes), frozenset()
    if isinstance(question, (TableUnfit, OpeningUnfit)):  # the boxes, and what the problems told name
        places, tiles = _named(Listed(question.problems[:3]))
        return (*getattr(question, "boxes", ()), *places), frozenset(tiles)
    if isinstance(question, WhoLaid):
        return (), frozenset((question.tile,))
    if isinstance(question, (WhoseArm, NotPlayable, LaidAtOnce, WhichOrder)):
        return (), frozenset(question.tiles)
    if isinstance(question, SeenTwoWays):  # the tiles the readings differ on (those of every reading are sure)
        readings = [frozenset(reading) for reading in question.readings]
        return (), frozenset.union(*readings) - frozenset.intersection(*readings) if readings else frozenset()
    if isinstance(question, SeenInTwoPlaces):
        return (), frozenset(p.tile for move in question.moves for p in move)
    return (), frozenset()


def needs_confirmation(t: float, question: Question) -> NeedsConfirmation:
    """The question as the pipeline emits it."""
    return NeedsConfirmation(t, question.reason, tuple(question.alternatives), tuple(question.problems), question)


@dataclass
class Asked:
    """The questions put and not answered that play depends on, and the last one put."""

    last: Hashable | None = None  # the key of the question put last
    opener: WhoOpened | None = None
    reading: WhichReading | None = None
    who_laid: WhoLaid | None = None
    order: WhichOrder | None = None
    boxes: tuple[Place, ...] = ()  # boxes the players were asked to name
    open: Question | None = None  # the question put last, until a move is made

    def put(self, question: Question) -> bool:
        """Keep the question, where play depends on its answer; whether it is to be put to the
        players (False: it was the last one put)."""
        if isinstance(question, WhoOpened):
            self.opener = question
        elif isinstance(question, WhichReading):
            self.reading = question
        elif isinstance(question, WhoLaid):
            self.who_laid = question
        elif isinstance(question, WhichOrder):
            self.order = question
        elif isinstance(question, TableUnfit):
            self.boxes = question.boxes
        elif isinstance(question, PlayedTileAgain):
            self.boxes = tuple(place for place, _ in question.boxes)
        self.open = question
        if question.key == self.last:
            return False
        self.last = question.key
        return True

    def moved_on(self) -> None:
        """Something happened since the last question: it may be put again."""
        self.last = self.open = None

    def forget(self) -> None:
        """The moves the questions were about were withdrawn: none is held, any may be put again."""
        for held in fields(self):
            setattr(self, held.name, held.default)
