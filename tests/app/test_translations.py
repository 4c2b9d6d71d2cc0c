"""Every text of the desktop app in Finnish through Qt's translation system: each string passed to tr() or
translate() in scorer/app has a finished Finnish translation in the .ts, the .qm is the .ts compiled, and a
window switched to Finnish shows Finnish (and English again after switching back)."""

from __future__ import annotations

import ast
import shutil
import string
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QApplication, QGroupBox, QLabel, QMenu

from scorer.app import i18n
from scorer.pipeline.announce import Announcement, genitive_fi
from scorer.rules.simulate import simulate_match
from scorer.rules.transcript import narrate
from scorer.words import Words

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "scorer" / "app"
TS = APP / "translations" / "scorer_fi.ts"
QM = APP / "translations" / "scorer_fi.qm"
BIN = Path(sys.executable).parent
# Fields only the Finnish uses: a name in the genitive, names joined by "ja" (see scorer/app/i18n.py).
FINNISH_ONLY = {"name_gen": "name", "names_fi": "names"}


# -- the strings in the code ----------------------------------------------------------------------


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def source_messages(folder: Path = APP) -> set[tuple[str, str, str]]:
    """(context, text, disambiguation) of every self.tr("..."), translate("Context", "...") and
    QT_TRANSLATE_NOOP("Context", "...") with literal texts in ``folder``'s Python files."""
    found: set[tuple[str, str, str]] = set()
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))

        def visit(node: ast.AST, cls: str) -> None:
            if isinstance(node, ast.ClassDef):
                cls = node.name
            if isinstance(node, ast.Call):
                name, args = _call_name(node), node.args
                if name == "tr" and args and _literal(args[0]) is not None:
                    found.add((cls, _literal(args[0]), _literal(args[1]) or "" if len(args) > 1 else ""))
                elif name in ("translate", "QT_TRANSLATE_NOOP") and len(args) >= 2 \
                        and _literal(args[0]) is not None and _literal(args[1]) is not None:
                    found.add((_literal(args[0]), _literal(args[1]), _literal(args[2]) or "" if len(args) > 2 else ""))
            for child in ast.iter_child_nodes(node):
                visit(child, cls)

        visit(tree, "")
    return found


def ts_messages(path: Path = TS) -> dict[tuple[str, str, str], tuple[str | None, str]]:
    """(context, source, comment) -> (the translation's type attribute, its text)."""
    out = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for m in context.iter("message"):
            translation = m.find("translation")
            key = (name, m.findtext("source") or "", m.findtext("comment") or "")
            out[key] = (translation.get("type"), translation.text or "")
    return out


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_the_code_has_its_texts_in_tr_calls() -> None:
    found = source_messages()
    contexts = {c for c, _, _ in found}
    assert {"MainWindow", "StartDialog", "TableMode", "LiveView", "TilePicker", "Events", "SettingsDialog"} <= contexts
    assert ("MainWindow", "&Match", "") in found and ("LiveView", "waiting for a still table", "") in found
    assert len(found) > 150


def test_every_text_in_the_code_has_a_finished_finnish_translation() -> None:
    messages, in_code = ts_messages(), source_messages()
    missing = sorted(m for m in in_code if m not in messages)
    assert not missing, f"not in {TS.name} (run scripts/update_translations.sh): {missing}"
    unfinished = sorted(k for k, (kind, text) in messages.items() if kind is not None or not text.strip())
    assert not unfinished, f"unfinished or obsolete in {TS.name}: {unfinished}"
    stale = sorted(k for k in messages if k not in in_code)
    assert not stale, f"in {TS.name} but no longer in the code: {stale}"


def test_the_finnish_keeps_the_placeholders_and_shortcut_keys() -> None:
    for (context, source, _), (_, text) in ts_messages().items():
        en, fi = _fields(source), _fields(text)
        # (A sentence said again, scorer.app.wording, may use any of its names in the genitive.)
        finnish_only = {f"{field}_gen": field for field in en} if context == "Sentences" else FINNISH_ONLY
        assert fi <= en | set(finnish_only), (context, source, text)
        for field in en:
            assert field in fi or any(fi_only in fi for fi_only, of in finnish_only.items() if of == field), \
                (context, source, text, field)
        assert source.count("&") == text.count("&"), (context, source, text)


def test_the_finnish_is_grammatical_where_names_and_numbers_meet() -> None:
    messages = {(c, s, d): t for (c, s, d), (_, t) in ts_messages().items()}
    turn = messages[("TableMode", "{name}'s turn", "")]
    assert turn.format(name="Ben", name_gen=genitive_fi("Ben")) == "Benin vuoro"
    assert turn.format(name="Ann", name_gen=genitive_fi("Ann")) == "Annin vuoro"
    assert turn.format(name="Cid", name_gen=genitive_fi("Cid")) == "Cidin vuoro"
    assert messages[("TilePicker", "1 point", "")] == "1 piste"
    assert messages[("TilePicker", "{count} points", "")].format(count=5) == "5 pistettä"
    assert messages[("HandsDialog", "{count} tiles, e.g. 1 2, 3 4", "")].startswith("{count} laattaa")


def test_the_qm_is_the_ts_compiled(qapp) -> None:
    translator = QTranslator()
    assert translator.load(str(QM))
    for (context, source, comment), (_, text) in ts_messages().items():
        assert translator.translate(context, source, comment or None) == text, (context, source)
    if (BIN / "pyside6-lrelease").exists():
        made = QM.parent / "check.qm.tmp"
        try:
            subprocess.run([str(BIN / "pyside6-lrelease"), str(TS), "-qm", str(made)], check=True, capture_output=True)
            assert made.read_bytes() == QM.read_bytes(), "the .qm is older than the .ts: run scripts/update_translations.sh"
        finally:
            made.unlink(missing_ok=True)


def test_a_running_app_keeps_its_finnish_when_the_qm_file_is_rewritten(qapp, tmp_path: Path, monkeypatch,
                                                                        english_after) -> None:
    # Qt maps a .qm file it loads: rebuilt in place under a running app (the translations updated), its lookups read
    # garbage -- empty texts, English -- or crash with a bus error.  The app's texts are loaded from a copy in memory.
    shutil.copy(QM, tmp_path / QM.name)
    monkeypatch.setattr(i18n, "translations_dir", lambda: tmp_path)
    monkeypatch.setattr(i18n, "_qm", {})
    assert i18n.set_language("fi") == "fi"
    assert i18n.translate("MainWindow", "&Quit") == "&Lopeta"
    data = QM.read_bytes()
    with open(tmp_path / QM.name, "r+b") as f:  # (as lrelease writes it: the same file, other bytes, then cut short)
        f.write(data[len(data) // 3:] + data[:len(data) // 3])
        f.truncate(100)
    from scorer.app.wording import said_in

    said_in.cache_clear()
    for (context, source, comment), (_, text) in list(ts_messages().items())[:200]:
        assert i18n.translate(context, source) == text or comment, (context, source)
    assert i18n.set_language("en") == "en" and i18n.set_language("fi") == "fi"  # (switched back: the same copy)
    assert i18n.translate("MainWindow", "&Quit") == "&Lopeta"
    assert said_in("fi")(Words("camera {camera}: not found or cannot be opened", camera=0)) == \
        "kameraa 0 ei löydy tai sitä ei voi avata"
    said_in.cache_clear()


@pytest.mark.skipif(not (BIN / "pyside6-lupdate").exists(), reason="PySide6's lupdate is not installed")
def test_lupdate_finds_nothing_new_or_unfinished(tmp_path: Path) -> None:
    copy = tmp_path / "scorer_fi.ts"
    shutil.copy(TS, copy)
    sources = sorted(str(p) for p in APP.glob("*.py"))
    subprocess.run([str(BIN / "pyside6-lupdate"), "-no-obsolete", "-locations", "none", *sources, "-ts", str(copy)],
                   check=True, capture_output=True)
    after = ts_messages(copy)
    assert set(after) == set(ts_messages()), "lupdate finds texts the .ts lacks: run scripts/update_translations.sh"
    assert not [k for k, (kind, _) in after.items() if kind is not None]


def test_the_move_list_in_finnish() -> None:
    sim = simulate_match("horse-race", 2, seed=5)
    lines: list[str] = []
    match = sim.header.new_match()
    from scorer.rules.transcript import Step

    for i, item in enumerate(sim.events[:60]):
        after, outcome = match.apply(item.event)
        lines += narrate(Step(i + 2, item.event, match, after, outcome), "fi")
        match = after
    text = "\n".join(lines)
    assert text.startswith("Kierros 1: ") and " pelaa [" in text and "päät" in text
    assert not any(word in text for word in (" plays ", " draws ", "Scores", "Round ", " ends "))


# -- the app, switched ------------------------------------------------------------------------------


@pytest.fixture
def english_after():
    yield
    i18n.set_language("en")


def _english_texts() -> set[str]:
    """The English texts the .ts translates to something else (what must not show in Finnish)."""
    return {s.replace("&", "") for (_, s, _), (_, t) in ts_messages().items() if t != s}


def _shown_texts(widget) -> list[str]:
    """The texts of the labels, buttons, group boxes, actions and menus in ``widget``."""
    texts = [w.text() for w in widget.findChildren(QLabel) + widget.findChildren(QAbstractButton)]
    texts += [w.title() for w in widget.findChildren(QGroupBox) + widget.findChildren(QMenu)]
    texts += [a.text() for a in widget.findChildren(QAction)]
    return [t.replace("&", "") for t in texts if t]


def _window(qtbot, tmp_path: Path):
    from scorer.sessions import Session

    from tests.app.test_app import NoDetector, StillCamera, make_window

    sim = simulate_match("horse-race", 2, seed=5)
    session = Session.create(sim.header, tmp_path)
    for step in sim.events[:12]:
        session.apply(step.event)
    window = make_window(tmp_path, sim.header, StillCamera(), NoDetector(), session=session)
    qtbot.addWidget(window)
    return window, session


def test_a_window_switched_to_finnish_shows_finnish_and_back(qtbot, tmp_path: Path, english_after) -> None:
    from scorer.app.corrections import ConfirmDialog, HandsDialog, TilePicker, player_menu
    from scorer.app.settings import Settings

    window, session = _window(qtbot, tmp_path)
    window._announce(Announcement(fi="Ben, [5|5]: kymmenen, kaksi pistettä", en="Ben, [5|5]: ten, two points"))
    assert [a.text() for a in window.menuBar().actions()] == ["&Match", "&Play", "&View", "&Help"]
    window.lang_box.setCurrentIndex(window.lang_box.findData("fi"))
    QApplication.processEvents()  # Qt's LanguageChange reaches every widget
    assert window.lang == "fi" and i18n.language() == "fi" and Settings.load().lang == "fi"
    assert [a.text() for a in window.menuBar().actions()] == ["&Ottelu", "&Siirrot", "&Näytä", "O&hje"]
    assert [b.text() for b in window.correction_buttons] == ["Ohita / koputa…", "Nosta…", "Pelaa…", "Kierroksen loppu…"]
    assert window.undo_action.text() == "Kumoa" and window.mute.text() == "Äänetön"
    assert window.moves_label.text().startswith("Siirrot")
    assert window.windowTitle().startswith("Dominopöydän pistelaskija — Horse Race")
    assert window.voice_label.text().startswith("Puhe: ")
    assert window.banner.text() == "Ben, [5|\u20605]: kymmenen, kaksi pistettä"  # (the tile never split at its bar)
    assert window.pegboard.title == "Horse Race: ensin 61 pisteeseen"
    assert window.log.item(0).text().startswith("Kierros 1: ")
    assert window.live.status_text() == "odotetaan liikkumatonta pöytää"
    window.live.end_sum = 15
    assert window.live.end_sum_text() == "päiden summa 15"
    assert window.language_actions["fi"].isChecked()
    left = set(_shown_texts(window)) & _english_texts()
    assert not left, f"still English: {left}"
    # Table mode.
    window.toggle_table_mode()
    on_turn = session.match.next_player
    assert window.table_mode.turn.text() == f"{genitive_fi(on_turn)} vuoro"
    assert window.table_mode.hint.text().startswith("F11 tai Esc")
    assert " — kierros " in window.table_mode.title.text()
    window.toggle_table_mode()
    # Dialogs opened now are Finnish.
    assert ConfirmDialog(window, "?", []).windowTitle() == "Vahvista siirto"
    picker = TilePicker(window, session.match)
    assert picker.windowTitle() == "Syötä siirto" and picker.ends_label.text() == "Valitse laatta."
    assert HandsDialog(window, session.match).windowTitle().startswith("Kierroksen loppu")
    menu = player_menu(window, session.match, "draws")
    assert menu.actions()[0].text() == f"{on_turn} nostaa (vuorossa)"
    # And back.
    window.lang_box.setCurrentIndex(window.lang_box.findData("en"))
    QApplication.processEvents()
    assert [a.text() for a in window.menuBar().actions()] == ["&Match", "&Play", "&View", "&Help"]
    assert window.log.item(0).text().startswith("Round 1: ") and window.banner.text().startswith("Ben, [5|\u20605]: ten")
    assert window.pegboard.title == "Horse Race: first to 61" and Settings.load().lang == "en"
    assert [a for a in window.findChildren(QAction) if a.text() == "&Ottelu"] == []
    window.stop()


def test_the_start_screen_and_settings_in_finnish(qtbot, english_after) -> None:
    from scorer.app.settings import Settings, SettingsDialog
    from scorer.app.speech import Speaker
    from scorer.app.start import StartDialog

    assert i18n.set_language("fi") == "fi"
    dialog = StartDialog(Settings(), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Dominopöydän pistelaskija"
    assert dialog.demo_button.text() == "Toista esittely" and dialog.start_button.text() == "Aloita ottelu"
    assert dialog.form.labelForField(dialog.players).text().startswith("Pelaajat")
    left = set(_shown_texts(dialog)) & _english_texts()
    assert not left, f"still English: {left}"
    dialog.players.setText("Ann, Ben")
    dialog.starter.setText("Cid")
    dialog.location.setText("/nonexistent")
    dialog._start_new()
    assert dialog.problem.text() == "Pelaajissa (Ann, Ben) ei ole nimeä Cid."
    # The rules' own refusal of the table, in Finnish too.
    dialog.players.setText("Ann")
    dialog._start_new()
    assert dialog.problem.text() == "Horse Racea pelaa 2, 3 tai 4 pelaajaa, pelaajia nyt 1."
    settings = SettingsDialog(Settings(), Speaker("fi", engines=[], espeak=None))
    qtbot.addWidget(settings)
    assert settings.windowTitle() == "Asetukset" and "vain teksti" in settings.backend.text()
    # Switched back, the same screen speaks English again.
    i18n.set_language("en")
    QApplication.processEvents()
    assert dialog.demo_button.text() == "Play the demo" and dialog.start_button.text() == "Start the match"
    assert dialog.form.labelForField(dialog.players).text().startswith("Players")


def test_the_tile_picker_says_where_a_tile_goes_in_finnish(qtbot, english_after) -> None:
    from scorer.app.corrections import TilePicker
    from scorer.rules import Tile

    i18n.set_language("fi")
    sim = simulate_match("horse-race", 2, seed=3)
    picker = TilePicker(None, sim.events[0].after)
    qtbot.addWidget(picker)
    picker.tile_buttons[Tile(5, 5)].click()
    assert [b.text() for b in picker.end_buttons] == ["avaa kierroksen: päät 10 = 10, 2 pistettä"]


def test_the_cribbage_window_has_every_text_in_both_languages() -> None:
    # The cribbage window keeps its texts in a table per language (its language is the window's own).
    from scorer.app.cribbage import TEXTS

    assert set(TEXTS["fi"]) == set(TEXTS["en"])
    for key, en in TEXTS["en"].items():
        fi = TEXTS["fi"][key]
        assert fi and (set(fi) == set(en) if isinstance(en, dict) else _fields(fi) <= _fields(en) | {"gen"}), key


def test_the_settings_show_the_language_in_use_not_only_the_one_saved(qtbot, tmp_path: Path, english_after, monkeypatch) -> None:
    from PySide6.QtWidgets import QDialog

    from scorer.app import settings as settings_module
    from scorer.app.settings import Settings

    Settings.remember(lang="en")
    window, _ = _window(qtbot, tmp_path)
    window.lang_box.setCurrentIndex(window.lang_box.findData("fi"))
    QApplication.processEvents()
    Settings.remember(lang="en")  # (as if started with --lang fi over a saved English)
    shown = []

    def opened(dialog) -> QDialog.DialogCode:
        shown.append(dialog.chosen_lang())
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(settings_module.SettingsDialog, "exec", opened)
    window._edit_settings()
    assert shown == ["fi"]


def test_a_voice_that_fails_at_every_word_leaves_the_cameras_notices_in_sight(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline import Notice

    window, _ = _window(qtbot, tmp_path)
    window.speaker.failed.emit("espeak-ng could not speak: no sound device could be opened")
    window._on_events([Notice(3.0, "the camera was moved to a new view: the table is read afresh from its tiles")])
    window.speaker.failed.emit("espeak-ng could not speak: no sound device could be opened")
    assert window.statusBar().currentMessage().startswith("the camera was moved to a new view")
    assert window.voice_label.text() == "espeak-ng could not speak: no sound device could be opened"


def test_a_pass_a_draw_or_the_hands_with_no_round_in_play_are_refused_in_the_players_language(
        qtbot, tmp_path: Path, english_after, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from scorer.app import window_corrections
    from scorer.sessions import Session
    from tests.app.test_app import NoDetector, StillCamera, make_window

    sim = simulate_match("horse-race", 2, seed=5)
    window = make_window(tmp_path, sim.header, StillCamera(), NoDetector(), session=Session.create(sim.header, tmp_path))
    qtbot.addWidget(window)
    window.lang_box.setCurrentIndex(window.lang_box.findData("fi"))
    QApplication.processEvents()
    told = []
    monkeypatch.setattr(window_corrections.QMessageBox, "information",
                        lambda _parent, title, text: told.append((title, text)) or QMessageBox.StandardButton.Ok)
    window._add_pass()
    window._add_draw()
    window._enter_hands()
    assert told == [("Ei mahdollista", "Kierrosta ei ole käynnissä.")] * 3


def test_the_start_screen_chooses_the_language_itself(qtbot, english_after) -> None:
    from scorer.app.settings import Settings
    from scorer.app.start import StartDialog

    assert i18n.set_language("en") == "en"
    dialog = StartDialog(Settings(), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    assert dialog.demo_button.text() == "Play the demo"
    dialog.lang_box.setCurrentIndex(dialog.lang_box.findData("fi"))
    QApplication.processEvents()
    assert i18n.language() == "fi" and Settings.load().lang == "fi" and dialog.settings.lang == "fi"
    assert dialog.demo_button.text() == "Toista esittely" and dialog.windowTitle() == "Dominopöydän pistelaskija"


def test_a_moves_picture_shows_the_end_sum_after_the_move(qtbot, tmp_path: Path, monkeypatch) -> None:
    import numpy as np
    from PySide6.QtGui import QPixmap

    from scorer.app.worker import Snapshot

    window, session = _window(qtbot, tmp_path)
    window.live.image = np.zeros((8, 8, 3), np.uint8)
    sums_when_taken = []
    monkeypatch.setattr(window.live, "grab", lambda: sums_when_taken.append(window.live.end_sum) or QPixmap(8, 8))
    sim = simulate_match("horse-race", 2, seed=5)
    session.apply(sim.events[12].event)
    window._on_changed(Snapshot.of(session))
    board = session.match.board
    assert sums_when_taken == [board.end_sum() if board is not None and board.tiles else None]


def test_the_mute_box_is_remembered_for_the_next_match(qtbot, tmp_path: Path) -> None:
    from scorer.app.settings import Settings

    window, _ = _window(qtbot, tmp_path)
    window.mute.setChecked(True)
    assert window.speaker.muted and Settings.load().voice is False
    window.mute.setChecked(False)
    assert not window.speaker.muted and Settings.load().voice is True


def test_a_request_the_rules_refuse_is_told_in_the_status_bar_in_the_players_language(qtbot, tmp_path: Path, english_after) -> None:
    from scorer.errors import IllegalMove
    from scorer.words import Words

    window, _ = _window(qtbot, tmp_path)
    refused = IllegalMove(Words("round {round} is not over: the boneyard is not empty ({boneyard} left)", round=2, boneyard=1))
    window.worker.failed.emit(refused)
    assert window.statusBar().currentMessage() == "Round 2 is not over: the boneyard is not empty (1 left)."
    assert i18n.set_language("fi") == "fi"
    window.worker.failed.emit(refused)
    assert window.statusBar().currentMessage() == "Kierros 2 ei ole ohi: nostokasa ei ole tyhjä (1 jäljellä)."


def test_qts_own_file_dialog_is_finnish_where_qts_translation_lacks_texts(qtbot, english_after) -> None:
    """Opening a video: the dialog is Qt's; its Finnish (qtbase_fi) lacks "&Look in:", "Files of &type:" and
    the "Folder" of the file list -- the app's translation fills them."""
    from PySide6.QtWidgets import QFileDialog

    i18n.set_language("fi")
    dialog = QFileDialog(None, "x")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    labels = {label.text() for label in dialog.findChildren(QLabel)}
    assert {"&Kansio:", "Tiedosto&nimi:", "Tiedosto&tyyppi:"} <= labels
    assert QApplication.translate("QAbstractFileIconProvider", "Folder") == "Kansio"


def test_no_stray_key_nor_wheel_switches_the_language(qtbot, english_after) -> None:
    """Clicked once, the language box kept the keyboard: an arrow key pressed later (to scroll, to step a recording)
    switched the whole app to the other language mid-match.  A click no longer leaves the keyboard with it (Tab
    does), and the wheel passes over it."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent

    from scorer.app.settings import Settings
    from scorer.app.start import StartDialog

    i18n.set_language("fi")
    dialog = StartDialog(Settings(), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    dialog.show()
    box = dialog.lang_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    box.hidePopup()
    assert not box.hasFocus() and QApplication.focusWidget() is not box  # (a stray key goes elsewhere)
    assert box.focusPolicy() == Qt.FocusPolicy.TabFocus  # (a keyboard user still reaches it)
    wheel = QWheelEvent(QPointF(5, 5), QPointF(box.mapToGlobal(QPoint(5, 5))), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(box, wheel)
    assert i18n.language() == "fi" and box.currentData() == "fi"
