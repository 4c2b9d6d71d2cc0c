"""What the rules, the layout and the camera tell the players, said again in the app's language.

Those sentences are :class:`~scorer.words.Words`: the English sentence, keeping the template it was made
from and the values put in.  The app looks the template up in its translations (context "Sentences")
and fills it again, each value said again the same way; a template's translation may also use
``{field_gen}``, the Finnish genitive of a name put in as ``{field}`` ("on Benin vuoro").  Other text
is shown as it is.  The templates are listed once more for ``pyside6-lupdate``, which reads only the app's
sources, in :mod:`scorer.app.sentences`; tests/app/test_wording.py holds the list to the sentences the code makes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QSize, QTranslator

from scorer.app.i18n import decimal, language, load_ours, translate
from scorer.app.sentences import AT_SECONDS
from scorer.pipeline import NeedsConfirmation, Notice
from scorer.pipeline.announce import genitive_fi
from scorer.words import At, Figure, Listed, Words, words_of


def question_text(asked: NeedsConfirmation, picture: QSize | None = None) -> str:
    """What the players are asked, in the app's language; with ``picture`` (the camera's frame) the places it
    names told by where in the picture they lie."""
    return said_again(asked.reason, picture)


def notice_text(notice: Notice, picture: QSize | None = None) -> str:
    """What the players are told, in the app's language (``picture``: as :func:`question_text`)."""
    return said_again(notice.message, picture)


def notice_spoken(notice: Notice, picture: QSize | None = None) -> str:
    """What the players are told, for the ear: as :func:`notice_text`, without the moments of the video a
    change was made at (nobody at the table counts the seconds)."""
    return _said(notice.message, _Tongue(translate, language(), _where(picture), ear=True))


def refusal_text(exc: BaseException, lang: str | None = None) -> str:
    """An error's message in the app's language (or ``lang``), where it is made of Words (the rules'
    refusals), as a sentence of its own: "Round 2 is not over: the boneyard is not empty (13 left)."."""
    text = said_again(words_of(exc)) if lang is None else said_in(lang)(words_of(exc))
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def said_again(text: str, picture: QSize | None = None) -> str:
    """A sentence made of :class:`~scorer.words.Words` in the app's language; other text as it is.  With
    ``picture``, the size of the camera's frame, a place in it (:class:`~scorer.words.At`) is told as the
    part of the picture it lies in, "(top left)", not in pixels."""
    return _said(text, _Tongue(translate, language(), _where(picture)))


# The thirds of the camera's picture, as a place in it is told (the live view rings the place too).
_REGIONS = (
    (QT_TRANSLATE_NOOP("Places", "top left"), QT_TRANSLATE_NOOP("Places", "top"), QT_TRANSLATE_NOOP("Places", "top right")),
    (QT_TRANSLATE_NOOP("Places", "left"), QT_TRANSLATE_NOOP("Places", "middle"), QT_TRANSLATE_NOOP("Places", "right")),
    (QT_TRANSLATE_NOOP("Places", "bottom left"), QT_TRANSLATE_NOOP("Places", "bottom"),
     QT_TRANSLATE_NOOP("Places", "bottom right")),
)


def region(place: tuple[float, float], width: int, height: int) -> str:
    """The third of a ``width`` x ``height`` picture across and down that ``place`` lies in, in English
    ("top left", "middle"; a place outside it: the nearest)."""
    def third(value: float, side: int) -> int:
        return min(2, max(0, int(3 * value / max(side, 1))))

    return _REGIONS[third(place[1], height)][third(place[0], width)]


def _where(picture: QSize | None) -> Callable[[At], str] | None:
    if picture is None or picture.isEmpty():
        return None
    width, height = picture.width(), picture.height()
    return lambda at: translate("Places", region(at.place, width, height))


@functools.lru_cache(maxsize=None)
def said_in(lang: str, picture: tuple[int, int] | None = None) -> Callable[[str], str]:
    """For a front end with no window (the command line): sentences made of Words said in ``lang`` from the
    app's translations, without touching the app's language; other text, and a language with no
    translations, as it is.  With ``picture`` (the width and height of the picture the sentences are about), a
    place in it is told as the part of the picture it lies in and its pixels: "(top left, 212, 132)"."""
    translator = QTranslator()
    if lang != "en" and load_ours(translator, lang):
        def translate(context: str, text: str) -> str:
            return translator.translate(context, text) or text
    elif picture is None:
        return str
    else:
        def translate(context: str, text: str) -> str:
            return text

    def where(at: At) -> str:
        assert picture is not None
        return f"{translate('Places', region(at.place, *picture))}, {at.place[0]:.0f}, {at.place[1]:.0f}"

    tongue = _Tongue(translate, lang, None if picture is None else where)
    return lambda text: _said(text, tongue)


@dataclass(frozen=True)
class _Tongue:
    """A language to say sentences in: its translations (context, English -> its text) and its code."""

    translate: Callable[[str, str], str]
    lang: str
    where: Callable[[At], str] | None = None  # a place in the picture told in words (else in pixels)
    ear: bool = False  # said aloud: without the moments of the video


def _said(text: str, tongue: _Tongue) -> str:
    if isinstance(text, Listed):
        return tongue.translate("Sentences", text.separator).join(_said(item, tongue) for item in text.items)
    if isinstance(text, Words) and tongue.ear and text.template == AT_SECONDS:
        return _said(text.values["change"], tongue)  # type: ignore[arg-type]
    if isinstance(text, Words):
        return tongue.translate("Sentences", text.template).format_map(_Values(text.values, tongue))
    return text


class _Values(dict[str, str]):
    """A sentence's values said again, and ``{name_gen}`` for any ``{name}`` (the Finnish genitive)."""

    def __init__(self, values: Mapping[str, object], tongue: _Tongue) -> None:
        super().__init__({name: _value(value, tongue) for name, value in values.items()})

    def __missing__(self, key: str) -> str:
        if key.endswith("_gen") and key[: -len("_gen")] in self:
            return genitive_fi(self[key[: -len("_gen")]])
        raise KeyError(key)


def _value(value: object, tongue: _Tongue) -> str:
    if isinstance(value, At) and tongue.where is not None:
        return f"({tongue.where(value)})"
    if isinstance(value, Figure):
        return decimal(value.value, value.digits, lang=tongue.lang)
    if isinstance(value, str):
        return _said(value, tongue)
    if isinstance(value, float):  # (the language's decimal sign: 4,5 s in Finnish)
        return decimal(value, None, lang=tongue.lang)
    return str(value)


# Qt's own file dialog (opening a video, a recorded session): texts Qt's Finnish (qtbase_fi) lacks; ours is looked
# up first, so these fill the gaps.
_QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Folder"),
)
