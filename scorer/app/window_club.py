"""The main window and the club: the match written to the club's board move by move, or into its history
when it is over; the club's window opened from the menu.

A part of :class:`scorer.app.window.MainWindow`.  The club database is optional: a failure is shown, never
fatal, and the session file keeps the match.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox


class ClubLink:
    """The club's live table, its import at the match's end and the club window."""

    live_table = None  # the club's LiveTable, where the match is written move by move

    def attach_club(self, live) -> None:
        """Write the match into the club's database move by move (``live``: a scorer.club LiveTable)."""
        self.live_table = live
        self.import_to_club = False  # the live table holds the match already
        self.session.listeners.append(live)
        self.club_status.connect(self._on_club_status)
        live(self.session)  # the match as it stands, at once (a resumed one too)

    def _on_club_status(self, status) -> None:
        if status.behind:
            self.statusBar().showMessage(
                self.tr("Club board: not reached ({error}); the match is kept here and sent when it is back")
                .format(error=status.error or "…"), 15000)
        else:
            self.statusBar().showMessage(self.tr("Club board: up to date"), 5000)

    def _import_into_club(self) -> None:
        """A finished match goes into the club's history at once (a failure is shown, never fatal)."""
        path = getattr(self.session, "path", None)
        if path is None:
            return
        from scorer.club import ClubError, import_log, open_database

        try:
            import_log(open_database(), path.read_text(encoding="utf-8"), source=str(path))
            self.statusBar().showMessage(self.tr("The match is saved in the club's history."), 8000)
        except (ClubError, OSError) as exc:  # the club database is optional; the session file stays
            self.statusBar().showMessage(self.tr("Club database: {error}").format(error=exc), 15000)

    def open_club(self) -> None:
        from scorer.app.club import ClubWindow
        from scorer.club import ClubError, open_database

        try:
            self.club_window = ClubWindow(open_database())
        except ClubError as exc:
            QMessageBox.warning(self, self.tr("Club"), str(exc))
            return
        self.club_window.show()
