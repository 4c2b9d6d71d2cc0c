"""Sentences told to the players that a front end can say again in its own language.

:class:`Words` is the English sentence itself (a ``str``: joined, compared, written to JSON as any
text), which also keeps the template it was made from and the values put in, so that the app can look
the template up in its translations and fill it again (``scorer.app.wording``).  A value may itself be
:class:`Words`, or :class:`Listed` words."""

from __future__ import annotations

import errno
import math
from typing import Mapping, Sequence


class Words(str):
    """``template.format(**values)``, remembering both."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, **values: object) -> Words:
        words = super().__new__(cls, template.format(**{name: str(value) for name, value in values.items()}))
        words.template = template
        words.values = values
        return words

    def __reduce__(self) -> tuple[object, ...]:
        return (str, (str(self),))  # (a copy or a pickle is the sentence)


class Listed(str):
    """Several sentences joined by ``separator`` (", ", " and ")."""

    items: tuple[str, ...]
    separator: str

    def __new__(cls, items: Sequence[str], separator: str = ", ") -> Listed:
        listed = super().__new__(cls, separator.join(items))
        listed.items = tuple(items)
        listed.separator = separator
        return listed

    def __reduce__(self) -> tuple[object, ...]:
        return (str, (str(self),))


def words_of(error: BaseException) -> str:
    """An error's message: the Words it was made of, where it was (a front end says them again), else its text."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Words) else str(error)


class At(str):
    """A place in the picture as the players are told it, "(212, 132)", keeping the place (frame pixels) itself."""

    place: tuple[float, float]

    def __new__(cls, place: Sequence[float]) -> At:
        told = super().__new__(cls, f"({place[0]:.0f}, {place[1]:.0f})")
        told.place = (float(place[0]), float(place[1]))
        return told

    def __reduce__(self) -> tuple[object, ...]:
        return (str, (str(self),))


def places(text: object) -> list[tuple[float, float]]:
    """The places in the picture ``text`` names (:class:`At` values of its Words, nested ones too), in order."""
    if isinstance(text, At):
        return [text.place]
    if isinstance(text, Listed):
        parts: Sequence[object] = text.items
    elif isinstance(text, Words):
        parts = tuple(text.values.values())
    else:
        return []
    return [place for part in parts for place in places(part)]


def at(place: Sequence[float]) -> At:
    """A place in the picture as the players are told it: "(212, 132)"."""
    return At(place)


def decimal(value: float, digits: int | None = 1, signed: bool = False, lang: str = "en") -> str:
    """A decimal number as ``lang`` writes it: 12.5 in English, 12,5 in Finnish (``signed``: +0.25; ``digits``
    None: as many as the number has)."""
    if digits is None:
        text = f"{value:+}" if signed else str(value)
    else:
        text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "fi" else text


class Figure(str):
    """A number with decimals as the players are told it, "0.88", keeping the number and its digits: a front
    end writes it again with its language's decimal sign."""

    value: float
    digits: int

    def __new__(cls, value: float, digits: int) -> Figure:
        told = super().__new__(cls, f"{value:.{digits}f}")
        told.value, told.digits = float(value), digits
        return told

    def __reduce__(self) -> tuple[object, ...]:
        return (str, (str(self),))

def said_alike(one: object, other: object, within: float) -> bool:
    """Whether two sentences (or keys made of them: tuples) say the same but for places in the picture at
    most ``within`` px apart -- a tile read a few pixels off from one look to the next is the same tile."""
    if isinstance(one, At) and isinstance(other, At):
        return math.dist(one.place, other.place) <= within
    if isinstance(one, Words) and isinstance(other, Words):
        return (one.template == other.template and one.values.keys() == other.values.keys()
                and all(said_alike(value, other.values[name], within) for name, value in one.values.items()))
    if isinstance(one, Listed) and isinstance(other, Listed):
        return one.separator == other.separator and _alike_all(one.items, other.items, within)
    if isinstance(one, tuple) and isinstance(other, tuple):
        return _alike_all(one, other, within)
    return one == other


def _alike_all(ones: Sequence[object], others: Sequence[object], within: float) -> bool:
    return len(ones) == len(others) and all(said_alike(a, b, within) for a, b in zip(ones, others))


_OS_REASONS = {  # (the common ones, said in the players' language: scorer.app.wording lists them)
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "there is no permission to write it",
    errno.EPERM: "there is no permission to write it",
    errno.ENOENT: "it is gone",
    errno.EIO: "the disk failed to write it (an input/output error)",
    errno.EFBIG: "the file is too large for the disk",
}


def os_reason(exc: OSError) -> str:
    """Why the disk refused, as the players are told it (in their language where the reason is a common one)."""
    reason = _OS_REASONS.get(exc.errno or 0)
    return Words(reason) if reason else str(exc.strerror or exc)
