"""The voice: the backend chosen by trying it, text for the ear, names never taken for options, Finnish grammar."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import wave
from array import array
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal

from scorer.app.settings import Settings, SettingsDialog
from scorer.errors import ScorerError
from scorer.app.espeak import espeak_argv
from scorer.app.speech import ESPEAK, SAMPLES, TEXT_ONLY, Speaker
from scorer.pipeline.announce import (
    announce_play,
    announce_round,
    genitive_fi,
    speakable,
    tile_words,
)
from scorer.rules.game import Match, PlayOutcome, RoundOutcome
from scorer.rules.simulate import GAMES, simulate_match
from scorer.rules.tiles import round_to_five

ESPEAK_STANDIN = """#!/bin/sh
# A stand-in for espeak-ng: writes its arguments and its stdin to the log, says nothing.
{{ printf 'ARGV:'; for a in "$@"; do printf ' <%s>' "$a"; done; printf '\\n'; printf 'STDIN:'; cat; printf '\\n'; }} >> {log}
"""


class FakeEngine(QObject):
    """A Qt TextToSpeech engine as the Speaker sees one: a state, stateChanged, errorString, say."""

    stateChanged = Signal(object)  # noqa: N815 (Qt's name)

    def __init__(self, state: str, then: str | None = None, after_ms: int = 30, error_on_say: bool = False) -> None:
        super().__init__()
        self._state = state
        self.said: list[str] = []
        self.error_on_say = error_on_say
        if then is not None:
            QTimer.singleShot(after_ms, lambda: self._set(then))

    def _set(self, state: str) -> None:
        self._state = state
        self.stateChanged.emit(state)

    def state(self) -> str:
        return self._state

    def errorString(self) -> str:  # noqa: N802
        return "fake engine broke" if self._state == "Error" else ""

    def availableLocales(self) -> list:  # noqa: N802
        return []

    def say(self, text: str) -> None:
        self.said.append(text)
        if self.error_on_say:
            QTimer.singleShot(10, lambda: self._set("Error"))

    def stop(self) -> None:
        pass


def factory(engines: dict[str, FakeEngine | Exception]):
    made: dict[str, FakeEngine] = {}

    def make(name: str) -> FakeEngine:
        e = engines[name]
        if isinstance(e, Exception):
            raise e
        made[name] = e
        return e

    make.made = made  # type: ignore[attr-defined]
    return make


@pytest.fixture
def espeak_standin(tmp_path: Path) -> tuple[str, Path]:
    log = tmp_path / "espeak.log"
    script = tmp_path / "bin" / "espeak-ng"
    script.parent.mkdir()
    script.write_text(ESPEAK_STANDIN.format(log=log))
    script.chmod(0o755)
    return str(script), log


def calls(log: Path) -> list[tuple[list[str], str]]:
    """Each espeak-ng call: its arguments and what it read on stdin."""
    text = log.read_text() if log.exists() else ""
    out = []
    for argv, stdin in re.findall(r"ARGV:(.*)\nSTDIN:(.*)\n", text):
        out.append((re.findall(r"<([^>]*)>", argv), stdin))
    return out


# -- choosing the backend -----------------------------------------------------------------------


def test_the_first_qt_engine_that_becomes_ready_is_used_and_mock_never(qtbot) -> None:
    engines = {
        "broken": FakeEngine("Error"),
        "throws": RuntimeError("plug-in missing"),
        "slow": FakeEngine("Synthesizing"),  # never Ready: dropped after probe_ms
        "late": FakeEngine("Synthesizing", then="Ready", after_ms=30),
        "good": FakeEngine("Ready"),
    }
    make = factory(engines)
    speaker = Speaker("en", engines=["mock", "broken", "throws", "slow", "late", "good"], tts_factory=make,
                      espeak=None, probe_ms=150)
    assert speaker.choosing
    assert speaker.wait_chosen(3000) == "Qt TextToSpeech (late)"
    assert speaker.backend == "qt:late"
    tried = [name for name, _ in speaker.rejected]
    assert tried == ["Qt mock", "Qt broken", "Qt throws", "Qt slow"]
    assert "mock" not in make.made  # Qt's silent test engine is never even built
    speaker.say("Ann, [3|4]: fifteen")
    assert engines["late"].said == ["Ann, three–four: fifteen"]


def test_qt_engines_that_error_fall_back_to_espeak_ng(qtbot, espeak_standin) -> None:
    script, log = espeak_standin
    engines = {"speechd": FakeEngine("Error"), "flaky": FakeEngine("Synthesizing", then="Error", after_ms=20)}
    speaker = Speaker("fi", engines=["speechd", "flaky"], tts_factory=factory(engines), espeak=script, probe_ms=500)
    speaker.say("Kierros: Benin käsi 17 → 15")  # said while still choosing: kept, then said
    assert speaker.wait_chosen(3000) == ESPEAK
    assert [n for n, _ in speaker.rejected] == ["Qt speechd", "Qt flaky"]
    assert speaker.wait_idle(10)
    assert calls(log) == [(["-v", "fi", "--stdin"], "Kierros: Benin käsi seitsemäntoista, pyöristettynä viisitoista")]


def test_an_engine_that_breaks_while_speaking_hands_the_text_to_the_next(qtbot, espeak_standin) -> None:
    script, log = espeak_standin
    engine = FakeEngine("Ready", error_on_say=True)
    speaker = Speaker("en", engines=["good-then-bad"], tts_factory=factory({"good-then-bad": engine}), espeak=script)
    assert speaker.backend == "qt:good-then-bad"
    with qtbot.waitSignal(speaker.failed, timeout=2000):
        speaker.say("Ann, [5|5]: ten, two points")
    assert speaker.backend == ESPEAK
    assert speaker.wait_idle(10)
    assert [stdin for _, stdin in calls(log)] == ["Ann, double five: ten, two points"]


def test_no_engine_and_no_espeak_is_text_only(qtbot, tmp_path) -> None:
    speaker = Speaker("en", engines=["speechd"], tts_factory=factory({"speechd": FakeEngine("Error")}), espeak=None)
    assert speaker.engine == TEXT_ONLY and speaker.backend == TEXT_ONLY
    speaker.say("Ann, [1|2]: three")
    assert speaker.said_texts == ["Ann, one–two: three"]  # shown, nothing spoken
    not_executable = tmp_path / "espeak-ng"
    not_executable.write_text("")
    assert Speaker("en", engines=[], espeak=str(not_executable)).engine == TEXT_ONLY


def test_on_this_machine_the_silent_mock_engine_is_never_chosen(qtbot) -> None:
    speaker = Speaker("en")
    speaker.wait_chosen(5000)
    assert speaker.backend != "qt:mock"
    if shutil.which("espeak-ng") and not speaker.backend.startswith("qt:"):
        assert speaker.backend == ESPEAK


def test_espeak_ng_without_a_sound_device_is_reported(qtbot, tmp_path) -> None:
    # espeak-ng exits 0 when ALSA finds no sound card; it only says so on stderr.
    script = tmp_path / "espeak-ng"
    script.write_text("#!/bin/sh\ncat >/dev/null\necho \"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\" >&2\n"
                      "echo 'error: No such file or directory' >&2\nexit 0\n")
    script.chmod(0o755)
    speaker = Speaker("en", engines=[], espeak=str(script))
    with qtbot.waitSignal(speaker.failed, timeout=5000) as blocker:
        speaker.say("Ann, [3|4]")
    assert blocker.args == ["espeak-ng could not speak: no sound device could be opened"]
    assert speaker.last_error == blocker.args[0]


def test_scorer_speech_narrows_the_choice(qtbot, monkeypatch) -> None:
    monkeypatch.setenv("SCORER_SPEECH", "off")
    assert Speaker("en").engine == TEXT_ONLY
    monkeypatch.setenv("SCORER_SPEECH", "espeak-ng")
    speaker = Speaker("en")
    assert not speaker.backend.startswith("qt:")
    assert speaker.engine == (ESPEAK if shutil.which("espeak-ng") else TEXT_ONLY)


def test_muted_says_nothing_but_the_test_button_speaks(qtbot, espeak_standin) -> None:
    script, log = espeak_standin
    speaker = Speaker("fi", engines=[], espeak=script)
    speaker.muted = True
    speaker.say("Ann, [3|4]")
    assert speaker.test() == ESPEAK
    assert speaker.wait_idle(10)
    assert [stdin for _, stdin in calls(log)] == [SAMPLES["fi"]]
    assert speaker.muted


# -- names are text, never options -----------------------------------------------------------------


def test_a_name_like_an_option_reaches_espeak_ng_as_text(qtbot, espeak_standin) -> None:
    script, log = espeak_standin
    speaker = Speaker("en", engines=[], espeak=script)
    speaker.say("-w/tmp/x, [3|4]: fifteen, three points")
    assert speaker.wait_idle(10)
    [(argv, stdin)] = calls(log)
    assert argv == ["-v", "en", "--stdin"]  # the text is never an argument
    assert stdin == "-w/tmp/x, three–four: fifteen, three points"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_real_espeak_ng_reads_the_name_and_writes_no_file(tmp_path) -> None:
    target = tmp_path / "x"
    argv = espeak_argv(shutil.which("espeak-ng"), "en") + ["-q"]  # -q: quiet, no sound
    subprocess.run(argv, input=f"-w{target} hello".encode(), check=True, timeout=30)
    assert not target.exists()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_real_espeak_ng_speaks_the_sample_aloud(tmp_path, lang) -> None:
    """The same command line, written to a file instead of the speakers: seconds of real sound."""
    out = tmp_path / "said.wav"
    argv = espeak_argv(shutil.which("espeak-ng"), lang) + ["-w", str(out)]
    subprocess.run(argv, input=SAMPLES[lang].encode(), check=True, timeout=60)
    with wave.open(str(out)) as w:
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
        assert w.getsampwidth() == 2
    samples = array("h", frames)
    rms = (sum(s * s for s in samples) / len(samples)) ** 0.5
    assert seconds > 2.0
    assert rms > 500  # of 32767: speech, not silence


# -- text for the ear -------------------------------------------------------------------------


def test_tiles_as_people_say_them() -> None:
    assert tile_words(3, 4, "en") == "three–four"
    assert tile_words(4, 3, "fi") == "kolme–neljä"
    assert tile_words(5, 5, "en") == "double five"
    assert tile_words(5, 5, "fi") == "tupla viisi"
    assert tile_words(0, 0, "en") == "double blank"
    assert speakable("Ann, [0|6]: 6", "fi") == "Ann, nolla–kuusi: kuusi"
    assert speakable("Ben & Dee -10, Ann +3", "en") == "Ben and Dee minus ten, Ann plus three"
    assert speakable("Player2 (x) | y", "en") == "Player2 x y"
    # (a decimal said as one, its decimals digit by digit; a Finnish list's comma has a space after it)
    assert speakable("too small: 24.6 px", "en") == "too small: twenty-four point six px"
    assert speakable("liian pieni: 24,6 px; Ann 5, Ben 6", "fi") == "liian pieni: kaksikymmentäneljä pilkku kuusi px; Ann viisi, Ben kuusi"


def _announcements(game: str, players: int, partnership: bool, seed: int):
    sim = simulate_match(game, players, partnership, seed=seed)
    match = Match.start(GAMES[game], sim.header.players, partnership)
    for step in sim.events:
        match, outcome = match.apply(step.event)
        if isinstance(outcome, PlayOutcome):
            yield announce_play(match, outcome)
        elif isinstance(outcome, RoundOutcome):
            yield announce_round(match, outcome)


@pytest.mark.parametrize("game,players,partnership", [("horse-race", 2, False), ("horse-race", 4, True),
                                                      ("seven-rocks", 4, True)])
def test_every_spoken_announcement_is_free_of_arrows_brackets_pipes_and_digits(game, players, partnership) -> None:
    said = list(_announcements(game, players, partnership, seed=5))
    assert len(said) > 20
    rounds = 0
    for a in said:
        for lang in ("en", "fi"):
            spoken = a.spoken(lang)
            assert not re.search(r"[→\[\]|(){}<>&]|\d", spoken), spoken
            assert spoken == speakable(spoken, lang)  # already for the ear
            # The shown text made speakable says the same numbers (nothing lost on the way).
            assert not re.search(r"[→\[\]|]", speakable(a.text(lang), lang))
        if a.en.startswith("Round"):
            rounds += 1
            assert "hand" in a.spoken("en") or "empty" in a.spoken("en")
            assert "Kierros päättyi" in a.spoken("fi")
    assert rounds >= 1


# -- Finnish grammar -----------------------------------------------------------------------------


@pytest.mark.parametrize("name,genitive", [
    ("Ben", "Benin"), ("Ann", "Annin"), ("Cid", "Cidin"), ("Dee", "Deen"), ("Anna", "Annan"),
    ("Liisa", "Liisan"), ("Mike", "Miken"), ("Virtanen", "Virtasen"), ("Pekka", "Pekan"), ("Matti", "Matin"),
    ("Jaakko", "Jaakon"), ("Markus", "Markuksen"), ("Elias", "Eliaksen"), ("Klaus", "Klausin"),
    ("Pelaaja 2", "Pelaaja 2:n"), ("AB", "AB:n"), ("Ann & Cid", "Annin & Cidin"), ("Betty", "Bettyn"),
])
def test_finnish_genitive(name, genitive) -> None:
    assert genitive_fi(name) == genitive


def test_the_round_in_finnish_uses_the_genitive_and_the_partitive() -> None:
    said = [a for a in _announcements("horse-race", 2, False, seed=3) if a.en.startswith("Round")]
    assert said
    for a in said:
        assert "Benn käsi" not in a.fi and "Annn käsi" not in a.fi
        assert re.search(r"(Annin|Benin) käsi \d+( → \d+)?", a.fi), a.fi  # (the arrow where rounding changed it)
        assert re.search(r"(Ann|Ben)'s hand \d+( → \d+)?", a.en), a.en  # the English as it was
        for m in re.finditer(r"(\w+) (pistettä|piste)\b", a.spoken("fi")):
            assert (m[1] == "yksi") == (m[2] == "piste"), a.spoken("fi")


def test_one_winner_wins_in_english() -> None:
    final = [a for a in _announcements("horse-race", 2, False, seed=3)][-1]
    assert re.search(r"\b(Ann|Ben) wins the match$", final.en), final.en
    assert re.search(r"\b(Ann|Ben) voitti ottelun$", final.fi), final.fi


# -- the settings ---------------------------------------------------------------------------------


def test_settings_show_the_voice_and_test_it_in_the_chosen_language(qtbot, espeak_standin) -> None:
    script, log = espeak_standin
    speaker = Speaker("en", engines=["speechd"], tts_factory=factory({"speechd": FakeEngine("Error")}), espeak=script)
    dialog = SettingsDialog(Settings(lang="en"), speaker)
    qtbot.addWidget(dialog)
    assert "espeak-ng" in dialog.backend.text()
    assert "speechd" in dialog.backend.toolTip()
    dialog.lang.setCurrentIndex(dialog.lang.findData("fi"))
    dialog.test_button.click()
    assert speaker.wait_idle(10)
    assert calls(log) == [(["-v", "fi", "--stdin"], SAMPLES["fi"])]
    assert "espeak-ng" in dialog.tested.text()
    assert speaker.lang == "en"  # the app's own language is left as it was
    dialog._save()
    assert Settings.load().lang == "fi"  # remembered


def test_settings_without_a_voice_say_so(qtbot) -> None:
    speaker = Speaker("en", engines=[], espeak=None)
    dialog = SettingsDialog(Settings(), speaker)
    qtbot.addWidget(dialog)
    assert "text only" in dialog.backend.text()
    dialog.test_voice()
    assert "No voice" in dialog.tested.text()


def test_the_language_is_remembered() -> None:
    Settings.remember(lang="fi")
    assert Settings.load().lang == "fi"
    assert Settings.load().camera == Settings().camera
    Settings.remember(lang="en")
    assert Settings.load().lang == "en"
    assert os.path.exists(Settings.path())


@pytest.mark.parametrize("players,partnership", [(3, False), (4, False), (4, True)])
def test_horse_race_credits_the_other_hands_together_rounded_once(players, partnership) -> None:
    """The hands are told as they are and their sum rounded once, so that what is heard adds up: "Ben's hand
    31; Cid's hand 22. Ann +11 (31 + 22 = 53 → 55)", not each hand rounded on its own (30 + 20 = 50)."""
    rounds = [a for seed in range(6) for a in _announcements("horse-race", players, partnership, seed=seed)
              if a.en.startswith("Round")]
    together = 0
    for a in rounds:
        for name, points, count in re.findall(r"([\w &]+) \+?(-?\d+) \(([^)]*)\)", a.en.split(". ", 1)[-1]):
            hands, _, rest = count.partition(" = ")
            if not rest:
                continue  # one hand: "17 → 15"
            together += 1
            pips = [int(p) for p in hands.split(" + ")]
            total, _, rounded = rest.partition(" → ")
            assert sum(pips) == int(total), a.en
            assert round_to_five(int(total)) == int(rounded or total) == 5 * int(points), a.en
            assert " → " not in a.en.split(". ", 1)[0], a.en  # (no hand rounded on its own)
            assert "together" in a.spoken("en").lower() and "yhteensä" in a.spoken("fi").lower(), a.spoken("en")
    assert together >= 3


def test_record_voice_says_the_announcements_with_espeak_ng(espeak_standin, monkeypatch) -> None:
    """`record --voice`: what the command line prints is said too, in its language (the app's espeak-ng queue)."""
    from scorer.cli.play import _voice

    program, log = espeak_standin
    monkeypatch.setenv("PATH", str(Path(program).parent) + os.pathsep + os.environ["PATH"])
    say = _voice("fi")
    say("Ann, kolme–neljä. Seitsemän.")
    deadline = time.monotonic() + 10
    while not calls(log) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert calls(log) == [(["-v", "fi", "--stdin"], "Ann, kolme–neljä. Seitsemän.")]
    monkeypatch.setenv("PATH", str(Path(program).parent.parent))  # no espeak-ng anywhere
    with pytest.raises(ScorerError, match="--voice needs espeak-ng"):
        _voice("en")


def test_espeak_ng_failing_after_its_window_closed_tells_nobody_and_does_not_raise(qtbot) -> None:
    from PySide6.QtWidgets import QWidget

    owner = QWidget()
    speaker = Speaker("en", owner, engines=[], espeak=None)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(speaker), timeout=2000)
    speaker._espeak_failed("no sound device could be opened")  # (from espeak-ng's thread, after the window went)


def test_texts_coming_faster_than_they_are_said_are_all_said_together_and_faster(tmp_path) -> None:
    """A long round's end, then quick plays (a recording moves every 1.6 s): nothing is dropped -- the texts
    waiting are said in one go, faster the more there are."""
    import time

    from scorer.app.espeak import RATE, EspeakQueue

    log = tmp_path / "espeak.log"
    script = tmp_path / "espeak-ng"
    script.write_text(ESPEAK_STANDIN.format(log=log).replace("\n\"\"\"", "") + "sleep 0.6\n")
    script.chmod(0o755)
    problems: list[str] = []
    queue = EspeakQueue(str(script), problems.append)
    queue.say("Round one is over: Ann scores ten points", "en")
    time.sleep(0.2)  # (being said)
    plays = [f"Ben, [{k}|6]: {k + 6}, no points" for k in range(6)]
    for text in plays:
        queue.say(text, "en")
    deadline = time.monotonic() + 10
    while not queue.idle() and time.monotonic() < deadline:
        time.sleep(0.05)
    said = calls(log)
    # (The round's end is said alone where the voice took it up before the plays came; on a busy machine it may not
    # have: then with them.)
    assert problems == [] and 1 <= len(said) <= 2
    heard, at = " ".join(text for _, text in said), 0
    for text in ["Round one is over: Ann scores ten points", *plays]:  # every one, in order
        at = heard.index(text, at) + len(text)
    for argv, text in said:
        several = text.count(".") > 1
        assert ("-s" in argv) == several and (not several or int(argv[argv.index("-s") + 1]) > RATE)


def test_texts_waiting_in_two_languages_are_said_each_in_its_own() -> None:
    from scorer.app.espeak import RATE, together

    waiting = [("Ann, double five: ten", "en"), ("Ben draws 1", "en"), ("Ann, viisi–viisi", "fi")]
    assert together(waiting) == ("Ann, double five: ten. Ben draws 1.", "en", RATE + 30, 2)
    assert together(waiting[2:]) == ("Ann, viisi–viisi", "fi", RATE, 1)


def test_the_voice_test_scores_as_the_open_match_does(qtbot, espeak_standin) -> None:
    """Seven Rocks open: fifteen is fifteen points, said for one of its players (the test said Horse Race's three
    points, for an "Ann" not at the table)."""
    from scorer.pipeline.announce import voice_sample
    from scorer.rules.history import MatchHistory
    from scorer.rules.log import MatchHeader

    match = MatchHistory.new(MatchHeader("seven-rocks", ("Mom", "Dad", "Liz", "Tom"), True)).match
    script, log = espeak_standin
    speaker = Speaker("en", engines=[], espeak=script)
    dialog = SettingsDialog(Settings(lang="en"), speaker, samples=voice_sample(match))
    qtbot.addWidget(dialog)
    dialog.test_button.click()
    assert speaker.wait_idle(10)
    assert calls(log) == [(["-v", "en", "--stdin"], "This is the scorer's voice. Mom, three–four. Fifteen, fifteen points.")]
    horse = MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False)).match
    assert voice_sample(horse)["fi"].endswith("Ann, kolme–neljä. Viisitoista, kolme pistettä.")
