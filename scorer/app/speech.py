"""Saying the announcements: Qt TextToSpeech where it works, else espeak-ng, else nothing (text only)."""

from __future__ import annotations

import shutil
import subprocess


class Speaker:
    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.muted = False
        self.engine = "text only"
        self._tts = None
        try:  # needs the platform's audio libraries; absent on many machines
            from PySide6.QtCore import QLocale
            from PySide6.QtTextToSpeech import QTextToSpeech

            if QTextToSpeech.availableEngines():
                self._tts = QTextToSpeech()
                self._tts.setLocale(QLocale("fi_FI" if lang == "fi" else "en_GB"))
                self.engine = "Qt TextToSpeech"
        except Exception:
            self._tts = None
        self._espeak = None if self._tts is not None else shutil.which("espeak-ng")
        if self._espeak:
            self.engine = "espeak-ng"
        self._process: subprocess.Popen | None = None

    def say(self, text: str) -> None:
        if self.muted or not text:
            return
        if self._tts is not None:
            self._tts.say(text)
        elif self._espeak:
            if self._process is not None and self._process.poll() is None:
                self._process.terminate()  # the newest announcement wins
            self._process = subprocess.Popen(
                [self._espeak, "-v", "fi" if self.lang == "fi" else "en", text],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
