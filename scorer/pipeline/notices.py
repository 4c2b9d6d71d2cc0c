"""What the pipeline tells the players that changes nothing, as typed values.

A :class:`~scorer.pipeline.events.Notice` carries one of these beside its English sentence
(``text()``), so that a front end can word it in its own language (the app: ``scorer.app.wording``);
a notice without one (the layout's notes) is shown as its sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, Sequence

from scorer.pipeline.sequences import played_as
from scorer.rules import Event, Reveal, Tile
from scorer.vision.tile_detection import too_small_words
from scorer.words import at

Place = tuple[float, float]  # image pixels


class Said(Protocol):
    def text(self) -> str: ...


def hands_told(reveal: Reveal) -> str:
    """The hands in words: "Ann -; Ben [0|3] [2|5]"."""
    return "; ".join(f"{player} {' '.join(map(str, hand)) or '-'}" for player, hand in reveal.hands)


_OPEN = " -- correct it if it is not"


# -- what the camera saw ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ReadingChanged:
    """A tile read surely one way now reads another, over the frames read since."""

    place: Place
    before: Tile
    after: Tile

    def text(self) -> str:
        return f"the tile at {at(self.place)} now reads {self.after}, not {self.before}"


@dataclass(frozen=True)
class CameraMoved:
    """The whole view shifted alike (the stand knocked): the places kept follow it."""

    pixels: float

    def text(self) -> str:
        return (f"the camera moved by {self.pixels:.0f} px (its stand knocked?): the whole table shifted alike, "
                "and the places kept follow it")


@dataclass(frozen=True)
class NewView:
    """The camera was moved to another view: the table is read afresh."""

    def text(self) -> str:
        return "the camera was moved to a new view: the table is read afresh from its tiles"


@dataclass(frozen=True)
class TilesTooSmall:
    """The face-up tiles are shorter in the image than reading their pips needs."""

    length: float
    minimum: float

    def text(self) -> str:
        return too_small_words(self.length, self.minimum)


@dataclass(frozen=True)
class BlankDoubleTaken:
    """A box seen as a back lies where a double is laid on a 0: the double blank face up."""

    place: Place

    def text(self) -> str:
        return f"the tile at {at(self.place)}, seen as a back, is taken as [0|0]: it lies where a double is laid on a 0"


# -- taken without an answer, so that the game goes on (open to correction) ------------------------

@dataclass(frozen=True)
class NoArmSeen:
    """A tile laid with no arm seen: the likeliest player under the rules taken."""

    tile: Tile
    taken: tuple[Event, ...]
    odds: float

    def text(self) -> str:
        return (f"no arm was seen laying {self.tile}: taken as {played_as(self.taken)}, the likeliest under "
                f"the rules ({self.odds:.0%})" + _OPEN)


@dataclass(frozen=True)
class OrderTaken:
    """The order of several new tiles, asked about, taken from when each was put down."""

    taken: tuple[Event, ...]

    def text(self) -> str:
        return f"no answer about the order the new tiles were played in: taken as {played_as(self.taken)}" + _OPEN


@dataclass(frozen=True)
class WhoLaidTaken:
    """Who laid a tile, asked about: taken as ``told_by`` tells -- the rules' likeliest way, the hands
    laid out at the round's end, or (None) the order the tiles were put down in."""

    tile: Tile
    taken: tuple[Event, ...]
    told_by: Literal["rules", "hands"] | None = None

    def text(self) -> str:
        if self.told_by == "hands":
            return f"no answer about who laid {self.tile}: the hands laid out tell -- taken as {played_as(self.taken)}" + _OPEN
        likeliest = ", the likeliest under the rules" if self.told_by == "rules" else ""
        return f"no answer about who laid {self.tile}: taken as {played_as(self.taken)}{likeliest}" + _OPEN


@dataclass(frozen=True)
class ReadingTaken:
    """A new tile read unsurely, asked about: its likeliest reading taken."""

    place: Place
    tiles: tuple[Tile, ...]

    def text(self) -> str:
        return f"no answer about the tile at {at(self.place)}: taken as read, {', '.join(map(str, self.tiles))}" + _OPEN


@dataclass(frozen=True)
class HandsTaken:
    """The hands left at a round's end, asked about: taken as read."""

    reveal: Reveal

    def text(self) -> str:
        return f"no answer about the hands left at the round's end: taken as read -- {hands_told(self.reveal)}" + _OPEN


@dataclass(frozen=True)
class HandsLikely:
    """The hands left at a round's end read unsurely, of which the rules allow one likely reading."""

    reveal: Reveal

    def text(self) -> str:
        return f"hands read unsurely, taken as the one likely reading the rules allow: {hands_told(self.reveal)}"


@dataclass(frozen=True)
class SettledAtTheEnd:
    """A question still open when the recording ended: its likeliest answer taken.  ``question`` is the
    question as asked (a :mod:`scorer.pipeline.questions` value, for a front end to word again)."""

    question: object
    reason: str
    taken: tuple[Event, ...]

    def text(self) -> str:
        return f"no answer to '{self.reason}' before the recording ended: taken as {played_as(self.taken)}" + _OPEN


# -- a round written again ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DrewMore:
    """A draw the camera saw, made larger."""

    player: str
    count: int
    seen: int
    at_s: float | None

    def text(self) -> str:
        return f"{self.player} drew {self.count}, not {self.seen}{_when(self.at_s)}"


@dataclass(frozen=True)
class DrewBefore:
    """A draw the camera never saw, put before a play of ``tile`` (or, None, a pass)."""

    player: str
    count: int
    tile: Tile | None
    at_s: float | None

    def text(self) -> str:
        what = "passing" if self.tile is None else f"laying {self.tile}"
        return f"{self.player} drew {self.count} before {what}{_when(self.at_s)}"


@dataclass(frozen=True)
class PlayedInstead:
    """A play taken as one tile was of another."""

    player: str
    tile: Tile
    instead_of: Tile

    def text(self) -> str:
        return f"{self.player} played {self.tile}, not {self.instead_of}"


Change = DrewMore | DrewBefore | PlayedInstead


def changes_told(changes: Sequence[Change]) -> str:
    return "; ".join(c.text() for c in changes)


@dataclass(frozen=True)
class DrawsPutIn:
    """The hands laid out at a round's end hold more tiles than the camera saw drawn: the round written
    again with the draws missed."""

    changes: tuple[Change, ...]

    def text(self) -> str:
        return f"the hands laid out hold more tiles than the camera saw drawn: taken as {changes_told(self.changes)}" + _OPEN


@dataclass(frozen=True)
class GuessRevised:
    """A tile taken as read unanswered was another of its readings: the one taken is read surely elsewhere."""

    place: Place
    taken: Tile
    tile: Tile
    seen_at: Place
    changes: tuple[Change, ...]

    def text(self) -> str:
        return (f"the tile at {at(self.place)} taken as {self.taken} is {self.tile}: {self.taken} is read surely at "
                f"{at(self.seen_at)} -- {changes_told(self.changes)}, the moves since scored again" + _OPEN)


# -- a person's correction ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Corrected:
    place: Place
    tile: Tile

    def text(self) -> str:
        return f"the tile at {at(self.place)} is {self.tile}, as corrected"


@dataclass(frozen=True)
class NotFollowed:
    """A correction where no tile is followed."""

    def text(self) -> str:
        return "no tile is being followed there"


def _when(t: float | None) -> str:
    return "" if t is None else f" (at {t:.1f} s)"
