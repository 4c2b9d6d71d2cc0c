"""The main window's tool bar, menus and keyboard shortcuts, and what only they open: the table mode, the
settings, the help and the start screen again.

A part of :class:`scorer.app.window.MainWindow`: the menus' texts are set in ``MainWindow.retranslate``.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import metadata

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDialog, QLabel, QMessageBox, QToolBar

from scorer.app import i18n
from scorer.app.screens import show_long_text
from scorer.app.settings import Settings
from scorer.pipeline.announce import voice_sample


class WindowMenus:
    """The match bar (undo, redo, club, language), the Match, Play, View and Help menus, their keys."""

    was_maximized = False  # (before table mode's full screen, which forgets it)

    def _build_match_bar(self) -> None:
        self.match_bar = QToolBar()
        self.addToolBar(self.match_bar)
        self.undo_action = QAction(self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        self.redo_action = QAction(self)
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.redo_action.triggered.connect(self.redo)
        self.match_bar.addAction(self.undo_action)
        self.match_bar.addAction(self.redo_action)
        self.club_action = QAction(self)
        self.club_action.triggered.connect(self.open_club)
        self.match_bar.addAction(self.club_action)
        self.lang_box = i18n.language_box(self.lang, self._set_lang)
        self.lang_label = QLabel()
        self.match_bar.addWidget(self.lang_label)
        self.match_bar.addWidget(self.lang_box)

    def _action(self, menu, slot, shortcut=None) -> QAction:
        action = menu.addAction("")
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            self.addAction(action)  # its key works while the menu bar is hidden (table mode)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.match_menu = bar.addMenu("")
        self.new_action = self._action(self.match_menu, lambda: self._to_start_screen(), QKeySequence.StandardKey.New)
        self.open_action = self._action(self.match_menu, lambda: self._to_start_screen(), QKeySequence.StandardKey.Open)
        self.resume_action = self._action(self.match_menu, lambda: self._to_start_screen(), "Ctrl+R")
        self.match_menu.addAction(self.club_action)
        self.match_menu.addSeparator()
        self.quit_action = self._action(self.match_menu, self.close, QKeySequence.StandardKey.Quit)
        self.play_menu = bar.addMenu("")
        self.pause_action = self._action(self.play_menu, self._toggle_pause_action, "Space")
        self.pause_action.setCheckable(True)
        self.pause_action.setVisible(not self.by_hand)  # (no recording nor camera to pause)
        self.round_action = self._action(self.play_menu, self._start_round, "N")
        self.pass_action = self._action(self.play_menu, self._add_pass, "P")
        self.draw_action = self._action(self.play_menu, self._add_draw, "D")
        self.tile_action = self._action(self.play_menu, self._enter_move, "T")
        self.hands_action = self._action(self.play_menu, self._enter_hands, "E")
        self.question_action = self._action(self.play_menu, self.reopen_question, "Q")
        self.order_action = self._action(self.play_menu, self.pick_order, "O")
        self.camera_action = self._action(self.play_menu, self.try_camera_again)
        self.camera_action.setEnabled(False)  # (while the camera gives pictures)
        self.play_menu.addSeparator()
        self.play_menu.addAction(self.undo_action)
        self.play_menu.addAction(self.redo_action)
        self.view_menu = bar.addMenu("")
        self.table_action = self._action(self.view_menu, self.toggle_table_mode, "F11")
        self.table_action.setCheckable(True)
        leave = QAction(self)
        leave.setShortcut(QKeySequence("Esc"))
        leave.triggered.connect(lambda: self.table_action.isChecked() and self.toggle_table_mode())
        self.addAction(leave)
        self.settings_action = self._action(self.view_menu, self._edit_settings)
        self.language_menu = self.view_menu.addMenu("")
        group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code, name in i18n.LANGS.items():
            action = self.language_menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(code == self.lang)
            action.triggered.connect(lambda _=False, c=code: self.lang_box.setCurrentIndex(self.lang_box.findData(c)))
            group.addAction(action)
            self.language_actions[code] = action
        self.help_menu = bar.addMenu("")
        self.help_action = self._action(self.help_menu, self._show_help, QKeySequence.StandardKey.HelpContents)
        self.about_action = self._action(self.help_menu, self._show_about)

    def _set_lang(self, lang: str) -> None:
        """Switch the language: Qt's translators, the window's texts, the voice; remembered for next time."""
        lang = i18n.known(lang)
        if self.lang_box.currentData() != lang:
            self.lang_box.setCurrentIndex(self.lang_box.findData(lang))  # comes back here
            return
        self.lang = i18n.set_language(lang)
        self.speaker.lang = self.lang
        self.language_actions[self.lang].setChecked(True)
        try:
            Settings.remember(lang=self.lang)
        except OSError as exc:  # not remembered, but switched
            self.statusBar().showMessage(str(exc), 8000)
        self.retranslate()

    def _to_start_screen(self) -> None:
        self.next_action = "start"
        self.close()

    def toggle_table_mode(self) -> None:
        on = self.pages.currentWidget() is not self.table_mode
        self.pages.setCurrentWidget(self.table_mode if on else self.pages.widget(0))
        self.table_action.setChecked(on)
        for toolbar in self.findChildren(QToolBar):
            toolbar.setVisible(not on)
        self.menuBar().setVisible(not on)
        self.statusBar().setVisible(not on)
        if on:
            self._refresh_table_mode()
            self.was_maximized = self.isMaximized()  # (full screen forgets it: a laptop's window would come back too tall)
            self.showFullScreen()
        else:
            self.showMaximized() if self.was_maximized else self.showNormal()
            self.follow_latest_move()

    def _refresh_table_mode(self) -> None:
        # (the banner's words: after an undo the last announcement is of a move withdrawn)
        self.table_mode.show_state(self.match, self.last_announcement if self.announcement is not None else self.banner.text())

    def _show_help(self) -> None:
        show_long_text(self, self.tr("How to use"), i18n.translate("MainWindow", HELP_TEXT))

    def _show_about(self) -> None:
        path = getattr(self.session, "path", None)
        QMessageBox.about(self, self.tr("About"), self.tr(
            "Domino table scorer {version}\n\nScores Horse Race and Seven Rocks from a camera over the table, on a "
            "cribbage board. Every match is kept in its session file ({path}).").format(
                version=_version(), path=path if path is not None else self.tr("in memory")))

    def _edit_settings(self) -> None:
        from scorer.app.settings import SettingsDialog

        # (The language shown is the one in use: --lang may differ from the one saved.)
        dialog = SettingsDialog(replace(Settings.load(), lang=self.lang), speaker=self.speaker, samples=voice_sample(self.match))
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.speaker.muted = not dialog.settings.voice
            self.mute.setChecked(not dialog.settings.voice)
            self.use_club(dialog.settings)
            if dialog.settings.lang != self.lang:
                self.lang_box.setCurrentIndex(self.lang_box.findData(dialog.settings.lang))


# Translated where shown (WindowMenus._show_help); its context stays the main window's.
HELP_TEXT = QT_TRANSLATE_NOOP("MainWindow", """The camera over the table reads every tile; each move is scored and said aloud.

Seats: players are given clockwise from the seat nearest the camera.
When the camera is unsure it asks: pick the right reading, or fix it by hand. A question put off ("Not now") opens again with Q, or a click on the red "needs your confirmation"; a recording waits meanwhile.
Tiles laid while the camera saw nothing, their order unanswered, are taken in the likeliest order: the orange "Order taken unanswered" button (O) offers the other orders the moves since fit, each with the scores it leaves, until the next round begins.
A tile read wrong: click it in the picture and type its pips (e.g. 3 4); the moves since are scored again with it.
With no camera the picture draws the round's layout as the moves are entered: the tiles at the scoring ends outlined red, each spinner with a dot at its centre.

Play menu (or the buttons): a pass or a draw for any player, a tile played by hand (pick the tile, then the end it goes on), the hands at a round's end, undo and redo.
Space pauses a recording; a click on its timeline shows that moment (the match is not changed); "Score again from here" withdraws the later moves (Redo brings them back). An undo while a recording plays pauses it till you enter the move, correct a tile or press Play.
A camera unplugged, or one not streaming yet as a match starts or is resumed, is opened again by itself for 30 s; after that Play ▸ Try the camera again (meanwhile enter the moves by hand).
F11: table mode, the scores large for the whole table.

Scoring: after each tile the open ends of the layout are added up (a double at an end counts both halves); a multiple of 5 scores -- Horse Race a point for each 5, to 61; Seven Rocks the sum itself, to 250. A player who cannot place a tile draws (Horse Race), else passes (Seven Rocks: knocks). When a hand is emptied, or nobody can play, Round end… takes the hands left: Horse Race credits the winner with the others' pips rounded to 5; Seven Rocks takes each hand, rounded to 5, off its pair.

Every move is saved at once in the match's session file; after a crash the start screen offers to go on.""")


def _version() -> str:
    """The installed package's version ("" where it runs from a tree never installed)."""
    try:
        return metadata.version("domino-table-scorer")
    except metadata.PackageNotFoundError:
        return ""
