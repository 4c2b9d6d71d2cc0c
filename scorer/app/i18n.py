"""The app's languages, through Qt's translation system.

Every text the app shows is written in English in the code, passed through ``self.tr()`` (in a
widget class: the class's name is the context) or ``translate("Context", ...)`` (elsewhere), and
translated in ``translations/scorer_fi.ts``; ``scorer_fi.qm`` is what Qt loads.  After changing a
text, run ``scripts/update_translations.sh``: it extracts the texts with ``pyside6-lupdate``
(new and changed ones come out unfinished), and, once they are translated (Qt Linguist, or the
.ts by hand), compiles the .qm with ``pyside6-lrelease``.  ``tests/app/test_translations.py``
fails while a text has no finished Finnish or the .qm is older than the .ts.

Texts with a number or a name are ``str.format`` templates: ``{name}``, ``{count}`` ...  The
Finnish needs some names in the genitive ("Benin vuoro"), so such templates are also given
``{name_gen}`` (:func:`scorer.pipeline.announce.genitive_fi`), which only the Finnish uses.  A
count picks one of two texts in the code (``1 point`` / ``{count} points``): English and
Finnish both have one form for one and another for every other number ("1 piste", "5 pistettä",
"0 pistettä").

The language is chosen at start (``--lang``, else the saved setting) and switched in the window:
:func:`set_language` swaps the translators on the running application, and Qt sends every widget
a LanguageChange event, on which the app's widgets set their texts again.
"""

from __future__ import annotations

import re
from pathlib import Path

from typing import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, Qt, QTranslator
from PySide6.QtWidgets import QComboBox

from scorer import words
from scorer.pipeline.announce import genitive_fi

LANGS = {"en": "English", "fi": "suomi"}
DOMAIN = "scorer"  # translations/scorer_<lang>.qm

translate = QCoreApplication.translate

_installed: list[QTranslator] = []
_lang = "en"


def translations_dir() -> Path:
    return Path(__file__).resolve().parent / "translations"


_qm: dict[str, bytes] = {}  # each language's texts as first read, kept for the process's life (Qt reads them there)


def load_ours(translator: QTranslator, lang: str) -> bool:
    """The app's texts in ``lang`` loaded into ``translator`` from a copy in memory: Qt maps a .qm file it loads, and
    the file rewritten meanwhile (an update of the app, the translations rebuilt) crashed a running app inside Qt's
    lookup.  Qt does not copy the data it is given: the copy is kept here."""
    if lang not in _qm:
        try:
            _qm[lang] = (translations_dir() / f"{DOMAIN}_{lang}.qm").read_bytes()
        except OSError:
            return False
    return translator.load(_qm[lang])


def language() -> str:
    """The language whose translators are installed now ("en": none)."""
    return _lang


def known(lang: str | None) -> str:
    """``lang`` if the app speaks it, else English."""
    return lang if lang in LANGS else "en"


def set_language(lang: str | None) -> str:
    """Install the translators for ``lang`` on the running application, removing those of the
    language before; returns the language now in use (English where no translation loads).

    Besides the app's own texts, Qt's (the OK and Cancel of dialogs, Yes and No) are translated
    from Qt's own ``qtbase_<lang>.qm`` where PySide6 ships it, and widgets made from now on write
    numbers as the language does (0,4 s in Finnish).
    """
    global _lang
    app = QCoreApplication.instance()
    lang = known(lang)
    if app is None:
        _lang = lang
        return lang
    for old in _installed:
        app.removeTranslator(old)
        old.deleteLater()  # (two a switch, else kept till the app quits)
    _installed.clear()
    if lang != "en":
        ours = QTranslator(app)
        if not load_ours(ours, lang):
            _lang = "en"
            return "en"
        qt = QTranslator(app)
        if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            _installed.append(qt)
        app.installTranslator(ours)  # installed last: looked up first
        _installed.append(ours)
    QLocale.setDefault(QLocale(QLocale.Language.Finnish, QLocale.Country.Finland) if lang == "fi"
                       else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    _lang = lang
    return lang


class _LanguageBox(QComboBox):
    """The language chooser: a click does not leave the keyboard with it, and the wheel passes over it.  Focused
    after a click, a stray arrow key switched the whole app to the other language mid-match (a trial found it);
    Tab still reaches it for a keyboard user."""

    def wheelEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        event.ignore()


def language_box(current: str, chosen: Callable[[str], None]) -> QComboBox:
    """A combo box of the languages, each named in itself, showing ``current``; ``chosen`` is called with the code
    of the one picked."""
    box = _LanguageBox()
    box.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    for code, name in LANGS.items():
        box.addItem(name, code)
    box.setCurrentIndex(max(0, box.findData(current)))
    box.currentIndexChanged.connect(lambda _i: chosen(box.currentData()))
    return box


def names(name: str) -> dict[str, str]:
    """The fields a template with a player's name may use: ``{name}`` and ``{name_gen}`` (genitive, for Finnish)."""
    return {"name": name, "name_gen": genitive_fi(name)}


def decimal(value: float, digits: int | None = 1, signed: bool = False, lang: str | None = None) -> str:
    """A decimal number as the language writes it (the app's, or ``lang``): :func:`scorer.words.decimal`."""
    return words.decimal(value, digits, signed, lang or _lang)


def unbroken(text: str) -> str:
    """``text`` with a score's sign and an arrow kept with what they belong to where its lines wrap: "Ann +3",
    "Ben & Dee -50", "13 → 15" never split; nor a tile, "[3|6]" (a line may break after a bar: a word joiner holds it)."""
    text = text.replace(" +", "\u00a0+").replace(" →", "\u00a0→").replace("→ ", "→\u00a0").replace("|", "|\u2060")
    return re.sub(r" (?=-\d)", "\u00a0", text.replace(" & ", "\u00a0&\u00a0"))


class Retranslated:
    """A widget (mixed in before its Qt class) whose texts follow the language: ``retranslate`` on Qt's
    LanguageChange, once ``built`` (Qt sends one while the widget is being made)."""

    built = False

    def retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange and self.built:
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]
