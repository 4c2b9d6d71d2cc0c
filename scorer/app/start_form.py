"""The start screen's new-match form, its parts kept apart: the list of sources, the players' names read
from what was typed, and what keeps the table they make from being played (the screen tells it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QComboBox, QWidget

from scorer.app.i18n import translate
from scorer.app.settings import Settings
from scorer.app.wording import refusal_text
from scorer.errors import ScorerError
from scorer.cribbage.match import CribbageGame
from scorer.rules.log import MatchHeader


@dataclass(frozen=True)
class NewMatch:
    header: MatchHeader
    starter: str | None


@dataclass(frozen=True)
class Resume:
    path: Path


class DemoMatch:
    """The bundled demo recording, scored as a new match."""


@dataclass(frozen=True)
class CribbageChoice:
    """A cribbage game on its own board (scorer.app.cribbage): a new one, or the one saved at ``saved``."""

    players: tuple[str, ...]
    target: int = 121
    muggins: bool = False
    saved: Path | None = None

    @classmethod
    def of(cls, players: tuple[str, ...], target: int = 121, muggins: bool = False) -> "CribbageChoice":
        """A new game's choice, where ``players`` can play it; else the rules' TableError."""
        CribbageGame.start(players, target, muggins)
        return cls(players, target, muggins)


class FormError(Exception):
    """What keeps the form from starting a match: the field it is about and the sentence said."""

    def __init__(self, field: QWidget, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def players_typed(text: str) -> tuple[str, ...]:
    """The names typed, comma-separated, each without its surrounding spaces; empty ones dropped."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


def same_names(players: tuple[str, ...]) -> tuple[str, str] | None:
    """The first two names that are one name but for their case ("Ann", "ann"), as typed; None if all differ."""
    for i, name in enumerate(players):
        for other in players[i + 1:]:
            if name.casefold() == other.casefold():
                return name, other
    return None


def table_problem(game: str, players: tuple[str, ...], partnership: bool) -> str | None:
    """What keeps ``players`` from playing ``game`` (in pairs or not), said in a sentence; None where nothing does."""
    # Names that differ only in case would be announced alike and name one player twice in a correction.
    twice = same_names(players)
    if twice is not None:
        #: {first}, {second}: two of the names typed, the same but for their case ("Ann", "ann").
        return translate("StartDialog", "Each player needs a name of their own: {first} and {second} are the same name.").format(
            first=twice[0], second=twice[1])
    try:
        MatchHeader(game, players, partnership).new_match()
    except ScorerError as exc:
        return refusal_text(exc)
    return None


def as_player(name: str, players: tuple[str, ...]) -> str:
    """``name`` as the players list spells it, if it is one of them whatever its case ("ann": Ann)."""
    return next((p for p in players if p.casefold() == name.casefold()), name)


class ListedBox(QComboBox):
    """A list that tells whether its item was picked from the open list (not stepped to by key or wheel)."""

    picked = False

    def showPopup(self) -> None:  # noqa: N802
        self.picked = True
        super().showPopup()

    def hidePopup(self) -> None:  # noqa: N802
        super().hidePopup()
        QTimer.singleShot(0, lambda: setattr(self, "picked", False))  # (after the pick's own signal)


def source_box(cameras: list[int], settings: Settings) -> ListedBox:
    """A camera found, a file, a network camera or none (their texts are the screen's); the settings' choice."""
    source = ListedBox()
    for i in cameras:
        source.addItem("", i)
    source.addItem("", "file")
    source.addItem("", "url")
    source.addItem("", "hand")
    if settings.source in ("file", "url"):  # (the last new match's recording or URL)
        source.setCurrentIndex(source.findData(settings.source))
    elif settings.camera in cameras:
        source.setCurrentIndex(cameras.index(settings.camera))
    elif not cameras:  # (no camera here: a match scored by hand, until a video or a URL is chosen)
        source.setCurrentIndex(source.findData("hand"))
    return source
