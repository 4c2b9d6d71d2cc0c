"""Saying the announcements aloud, with the first voice that truly works.

The backend is chosen by trying each in turn:

1. Qt TextToSpeech's engines, one by one (Qt's ``mock`` engine, which reports Ready and makes no
   sound, is skipped).  An engine counts only once it reaches the Ready state; one that reports
   Error, or is not Ready within ``probe_ms``, is dropped and the next is tried.  An engine that
   goes to Error later, while speaking, is dropped the same way and the text is said by the next.
2. ``espeak-ng`` found on PATH.  The text goes to it on stdin, never on the command line, so a
   player named like an option (``-w/tmp/x``) is read out, not obeyed.
3. Text only: nothing is said (the banner still shows the announcement).

``SCORER_SPEECH`` narrows the choice: ``off`` (text only), ``espeak-ng`` or ``qt``.

Nothing here blocks the GUI thread: Qt's engines speak asynchronously, and espeak-ng runs in a
worker thread (:mod:`scorer.app.espeak`) that takes the texts in order (when they come faster than they
can be said, only the newest few wait).  Texts are made fit for the ear first
(:func:`scorer.pipeline.announce.speakable`).
"""

from __future__ import annotations

import os
import shutil
from typing import Any, Callable, Sequence

from PySide6.QtCore import QObject, QTimer, Signal

from scorer.app.espeak import EspeakQueue
from scorer.app.i18n import translate
from scorer.pipeline.announce import Announcement, speakable

TEXT_ONLY = "text only"
ESPEAK = "espeak-ng"
CHOOSING = "choosing a voice…"
SKIPPED_QT_ENGINES = {"mock"}  # Qt's test engine: Ready at once, silent
SAMPLES = {
    "en": "This is the scorer's voice. Ann, three–four. Fifteen, three points.",
    "fi": "Tämä on pistelaskijan ääni. Ann, kolme–neljä. Viisitoista, kolme pistettä.",
}
_AUTO: Any = object()


def engine_name(engine: str) -> str:
    """:attr:`Speaker.engine` for people, in the current language (the engines' own names are kept)."""
    if engine == TEXT_ONLY:
        return translate("Speaker", "text only")
    if engine == CHOOSING:
        return translate("Speaker", "choosing a voice…")
    return engine


def qt_engines() -> list[str]:
    """Qt TextToSpeech's engines on this machine, in Qt's order (empty when the module is missing)."""
    try:
        from PySide6.QtTextToSpeech import QTextToSpeech

        return [str(e) for e in QTextToSpeech.availableEngines()]
    except Exception:  # QtTextToSpeech absent from this build, or it fails to initialise
        return []


def _qt_factory(name: str) -> Any:
    """Qt's engine ``name``; what Qt says while making it (a plug-in whose library is missing: "Error loading
    text-to-speech plug-in") is kept as the reason it failed instead of printed at every start."""
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtTextToSpeech import QTextToSpeech

    said: list[str] = []
    previous = qInstallMessageHandler(lambda _kind, _context, message: said.append(message))
    try:
        tts = QTextToSpeech(name)
    finally:
        qInstallMessageHandler(previous)
    if said and _state_name(tts.state()) == "Error":
        tts.qt_said = "; ".join(said)
    return tts


def _state_name(state: Any) -> str:
    """``Ready``/``Error``/... for Qt's enum or a fake engine's plain string."""
    name = getattr(state, "name", state)
    return str(name).rsplit(".", 1)[-1]


class Speaker(QObject):
    """Says texts with the chosen backend; ``engine`` names it for people, ``backend`` for code."""

    backend_chosen = Signal(str)  # the engine's name for people, once chosen (and again if it changes)
    said = Signal(str)  # each text as handed to the backend (after speakable())
    failed = Signal(str)  # a backend that stopped working, in words

    def __init__(self, lang: str = "en", parent: QObject | None = None, *, engines: Sequence[str] | None = None,
                 tts_factory: Callable[[str], Any] | None = None, espeak: str | None = _AUTO,
                 probe_ms: int = 1500) -> None:
        super().__init__(parent)
        self._lang = lang
        self.muted = False
        self.probe_ms = probe_ms
        self._factory = tts_factory or _qt_factory
        # SCORER_SPEECH=off (or text) speaks nothing, =espeak-ng skips Qt, =qt skips espeak-ng; unset: all.
        forced = os.environ.get("SCORER_SPEECH", "").strip().lower() if engines is None and espeak is _AUTO else ""
        if forced in ("off", "text", "none", "espeak-ng", "espeak"):
            engines = []
        if forced in ("off", "text", "none", "qt"):
            espeak = None
        names = qt_engines() if engines is None else list(engines)
        self.rejected: list[tuple[str, str]] = []  # (engine, why) for each backend tried and dropped
        self._candidates: list[str] = [n for n in names if n not in SKIPPED_QT_ENGINES]
        for n in names:
            if n in SKIPPED_QT_ENGINES:
                self.rejected.append((f"Qt {n}", translate("Speaker", "Qt's test engine makes no sound")))
        self._espeak = shutil.which(ESPEAK) if espeak is _AUTO else espeak
        self._tts: Any = None
        self._qt_name = ""
        self._backend = CHOOSING
        self._pending: list[tuple[str, str]] = []  # (text, lang) said while choosing
        self._probe: Any = None
        self._timer: QTimer | None = None
        self._last: tuple[str, str] | None = None
        self._voice: EspeakQueue | None = None  # made when espeak-ng first speaks
        self.last_error = ""  # the last problem a backend reported while speaking
        self.said_texts: list[str] = []  # everything handed to a backend (or shown only), newest last
        self._try_next()

    # -- what is in use ------------------------------------------------------------------

    @property
    def backend(self) -> str:
        """``qt:<engine>``, ``espeak-ng``, ``text only``, or ``choosing a voice…`` while trying."""
        return f"qt:{self._qt_name}" if self._backend == "qt" else self._backend

    @property
    def engine(self) -> str:
        if self._backend == "qt":
            return f"Qt TextToSpeech ({self._qt_name})"
        return self._backend

    @property
    def choosing(self) -> bool:
        return self._backend == CHOOSING

    @property
    def lang(self) -> str:
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self._lang = lang
        if self._tts is not None:
            self._set_locale(self._tts)

    # -- choosing the backend ----------------------------------------------------------------

    def _try_next(self) -> None:
        while self._candidates:
            name = self._candidates.pop(0)
            try:
                tts = self._factory(name)
            except Exception as exc:  # a plug-in that cannot even be built
                self.rejected.append((f"Qt {name}", str(exc) or type(exc).__name__))
                continue
            state = _state_name(tts.state())
            if state == "Ready":
                self._accept_qt(name, tts)
                return
            if state == "Error":
                self.rejected.append((f"Qt {name}", self._error_of(tts)))
                self._discard(tts)
                continue
            # Not decided yet (an engine that starts asynchronously): wait for Ready, a while.
            self._probe = (name, tts)
            tts.stateChanged.connect(self._probe_state)
            self._timer = QTimer(self)
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(self._probe_timeout)
            self._timer.start(self.probe_ms)
            return
        if self._espeak and os.access(self._espeak, os.X_OK):
            self._choose(ESPEAK)
        else:
            if self._espeak:
                self.rejected.append((ESPEAK, translate("Speaker", "{path} is not executable").format(path=self._espeak)))
            self._choose(TEXT_ONLY)

    def _probe_state(self, state: Any) -> None:
        if self._probe is None:
            return
        name, tts = self._probe
        state = _state_name(state)
        if state == "Ready":
            self._end_probe()
            self._accept_qt(name, tts)
        elif state == "Error":
            self._end_probe()
            self.rejected.append((f"Qt {name}", self._error_of(tts)))
            self._discard(tts)
            self._try_next()

    def _probe_timeout(self) -> None:
        if self._probe is None:
            return
        name, tts = self._probe
        self._end_probe()
        self.rejected.append((f"Qt {name}", translate("Speaker", "not ready within {ms} ms").format(ms=self.probe_ms)))
        self._discard(tts)
        self._try_next()

    def _end_probe(self) -> None:
        name, tts = self._probe
        self._probe = None
        try:
            tts.stateChanged.disconnect(self._probe_state)
        except (RuntimeError, TypeError):
            pass
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    @staticmethod
    def _error_of(tts: Any) -> str:
        try:
            return getattr(tts, "qt_said", "") or str(tts.errorString()) or "Error"
        except Exception:  # a text-to-speech plug-in in trouble: its own error types
            return "Error"

    @staticmethod
    def _discard(tts: Any) -> None:
        if hasattr(tts, "deleteLater"):
            tts.deleteLater()

    def _accept_qt(self, name: str, tts: Any) -> None:
        self._tts, self._qt_name = tts, name
        self._set_locale(tts)
        tts.stateChanged.connect(self._qt_state)
        self._choose("qt")

    def _choose(self, backend: str) -> None:
        self._backend = backend
        self.backend_chosen.emit(self.engine)
        pending, self._pending = self._pending, []
        for text, lang in pending:
            self._dispatch(text, lang)

    def _set_locale(self, tts: Any) -> None:
        try:
            from PySide6.QtCore import QLocale

            want = QLocale.Language.Finnish if self._lang == "fi" else QLocale.Language.English
            for locale in tts.availableLocales():
                if locale.language() == want:
                    tts.setLocale(locale)
                    return
        except Exception:  # a fake engine, or one without locales
            pass

    def _qt_has_lang(self) -> bool:
        try:
            from PySide6.QtCore import QLocale

            want = QLocale.Language.Finnish if self._lang == "fi" else QLocale.Language.English
            locales = list(self._tts.availableLocales())
            return not locales or any(loc.language() == want for loc in locales)
        except Exception:  # a text-to-speech plug-in without locales, or in trouble
            return True

    def _qt_state(self, state: Any) -> None:
        if _state_name(state) != "Error" or self._backend != "qt":
            return
        # The engine broke while in use: drop it and say the last text with the next backend.
        why = self._error_of(self._tts)
        self.rejected.append((f"Qt {self._qt_name}", why))
        self.failed.emit(translate("Speaker", "{engine} stopped working: {why}").format(engine=self.engine, why=why))
        tts, self._tts = self._tts, None
        try:
            tts.stateChanged.disconnect(self._qt_state)
        except (RuntimeError, TypeError):
            pass
        self._discard(tts)
        self._backend = CHOOSING
        if self._last is not None:
            self._pending.append(self._last)
        self._try_next()

    # -- saying -------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Say ``text`` (shown text is fine: it is made speakable first); returns at once."""
        if self.muted or not text:
            return
        spoken = speakable(text, self._lang)
        if not spoken:
            return
        if self.choosing:
            self._pending.append((spoken, self._lang))
            return
        self._dispatch(spoken, self._lang)

    def say_announcement(self, announcement: Announcement) -> None:
        """An announcement's text for the ear, in the speaker's language."""
        self.say(announcement.spoken(self._lang))

    def test(self, samples: dict[str, str] | None = None) -> str:
        """Say a sample sentence in the current language (``samples``, else a domino move's), even when muted;
        returns the backend's name."""
        samples = samples or SAMPLES
        muted, self.muted = self.muted, False
        try:
            self.say(samples.get(self._lang, samples["en"]))
        finally:
            self.muted = muted
        return self.engine

    def _dispatch(self, text: str, lang: str) -> None:
        self._last = (text, lang)
        self.said_texts.append(text)
        self.said.emit(text)
        if self._backend == "qt" and self._tts is not None:
            if self._qt_has_lang() or not self._espeak:
                enqueue = getattr(self._tts, "enqueue", None)
                (enqueue or self._tts.say)(text)
                return
            self._espeak_say(text, lang)  # this engine has no voice for the language: espeak-ng does
        elif self._backend == ESPEAK:
            self._espeak_say(text, lang)

    def _espeak_say(self, text: str, lang: str) -> None:
        if self._voice is None:
            self._voice = EspeakQueue(self._espeak, self._espeak_failed)
        self._voice.say(text, lang)

    def _espeak_failed(self, why: str) -> None:
        """From espeak-ng's worker thread: the signal crosses to the GUI thread."""
        self.last_error = why
        try:
            self.failed.emit(why)
        except RuntimeError:  # the window that owned this voice was closed while it spoke: nobody to tell
            pass

    # -- control ---------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop what is being said and forget what waits."""
        self._pending.clear()
        if self._voice is not None:
            self._voice.stop()
        if self._tts is not None:
            try:
                self._tts.stop()
            except Exception:  # a text-to-speech plug-in that fails even to stop
                pass

    def wait_chosen(self, timeout_ms: int = 5000) -> str:
        """Spin Qt's event loop until a backend is chosen (for tests and scripts); returns its name."""
        if self.choosing:
            from PySide6.QtCore import QDeadlineTimer, QEventLoop

            loop = QEventLoop()
            self.backend_chosen.connect(loop.quit)
            QTimer.singleShot(timeout_ms, loop.quit)
            deadline = QDeadlineTimer(timeout_ms)
            while self.choosing and not deadline.hasExpired():
                loop.exec()
        return self.engine

    def wait_idle(self, timeout_s: float = 30.0) -> bool:
        """Wait until espeak-ng has said everything handed to it (for tests and scripts)."""
        import time

        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if self._voice is None or self._voice.idle():
                return True
            time.sleep(0.02)
        return False
