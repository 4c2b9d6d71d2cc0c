"""espeak-ng as the scorer's voice: the texts said one after another in a worker thread, never blocking
the GUI.  When they come faster than they can be said (a long round's end, then quick plays), the ones
waiting are said together, faster: every score is heard, a little late, rather than some dropped."""

from __future__ import annotations

import subprocess
import threading
from typing import Callable

from scorer.app.i18n import translate

# Texts waiting behind the one being said, at most: a recording scored far faster than any table is played
# would fall ever further behind; beyond this the oldest are dropped.
MAX_WAITING = 24
RATE = 175  # espeak-ng's own words a minute
CATCHING_UP = 30  # ... and this many more for each further text said at once, up to
FASTEST = 260


def espeak_argv(program: str, lang: str, rate: int = RATE) -> list[str]:
    """espeak-ng's command line: the voice, its speed (where not its own), and the text read from stdin (never an
    argument)."""
    return [program, "-v", "fi" if lang == "fi" else "en", *(["-s", str(rate)] if rate != RATE else []), "--stdin"]


def together(waiting: list[tuple[str, str]]) -> tuple[str, str, int, int]:
    """The oldest texts waiting that share a language (the language switched meanwhile: the later ones are said
    next, in theirs) as one utterance, its language, its speed -- the more there are, the faster, so the voice
    catches up with the table -- and how many texts it takes."""
    lang = waiting[0][1]
    count = next((k for k, (_, text_lang) in enumerate(waiting) if text_lang != lang), len(waiting))
    texts = [text for text, _ in waiting[:count]]
    if count == 1:
        return texts[0], lang, RATE, 1
    text = " ".join(t.strip() if t.strip().endswith((".", "!", "?")) else t.strip() + "." for t in texts)
    return text, lang, min(FASTEST, RATE + CATCHING_UP * (count - 1)), count


def speaking_seconds(text: str, rate: int) -> float:
    """Time enough for espeak-ng to say ``text`` at ``rate`` words a minute, twice over (a word: about six letters)."""
    return 30.0 + 2 * 60.0 * len(text) / 6 / rate


class EspeakQueue:
    """Says texts with the espeak-ng at ``program``; a problem is told to ``failed`` in words."""

    def __init__(self, program: str, failed: Callable[[str], None]) -> None:
        self.program = program
        self._failed = failed
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._waiting: list[tuple[str, str]] = []  # (text, lang), oldest first
        self._speaking = False
        self._worker: threading.Thread | None = None
        self._process: subprocess.Popen | None = None

    def say(self, text: str, lang: str) -> None:
        with self._lock:
            while len(self._waiting) >= MAX_WAITING:
                self._waiting.pop(0)  # too far behind: the oldest waiting text is dropped
            self._waiting.append((text, lang))
            self._wake.notify()
            if self._worker is None:
                self._worker = threading.Thread(target=self._loop, name="espeak-ng", daemon=True)
                self._worker.start()

    def _loop(self) -> None:
        while True:
            with self._lock:
                while not self._waiting:
                    self._wake.wait()
                text, lang, rate, count = together(self._waiting)
                del self._waiting[:count]
                self._speaking = True
            try:
                process = subprocess.Popen(espeak_argv(self.program, lang, rate), stdin=subprocess.PIPE,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                self._process = process
                try:
                    _out, err = process.communicate(text.encode("utf-8"), timeout=speaking_seconds(text, rate))
                except subprocess.TimeoutExpired:
                    process.kill()  # (hung: not left speaking over the next text)
                    _out, err = process.communicate()
                    raise
                said = err.decode("utf-8", "replace")
                # espeak-ng exits 0 even when it found no sound device; it says so on stderr.
                problem = [line for line in said.splitlines() if line.lower().startswith("error")]
                if process.returncode not in (0, -15) or problem:  # -15: stopped on purpose
                    if "snd_pcm" in said or "ALSA" in said or "audio" in said.lower():
                        why = translate("Speaker", "no sound device could be opened")
                    else:
                        why = ("; ".join(problem) or said.strip()
                               or translate("Speaker", "exit status {code}").format(code=process.returncode))[:200]
                    self._failed(translate("Speaker", "espeak-ng could not speak: {why}").format(why=why))
            except (OSError, subprocess.SubprocessError) as exc:
                self._failed(translate("Speaker", "espeak-ng could not speak: {why}").format(why=exc))
            finally:
                with self._lock:
                    self._process = None
                    self._speaking = False

    def stop(self) -> None:
        """Stop what is being said and forget what waits."""
        with self._lock:
            self._waiting.clear()
            process = self._process
        if process is not None and process.poll() is None:
            process.terminate()

    def idle(self) -> bool:
        """Nothing waits and nothing is being said."""
        with self._lock:
            return not self._waiting and not self._speaking
