"""The main window and the club: the match written to the club's board move by move, or into its history
when it is over; the club's window opened from the menu.

A part of :class:`scorer.app.window.MainWindow`.  The club database is optional: a failure is shown, never
fatal, and the session file keeps the match.
"""

from __future__ import annotations



class ClubLink:
    """The club's live table, its import at the match's end and the club window."""

    live_table = None  # the club's LiveTable, where the match is written move by move
    club_target: tuple[str, str | None] | None = None  # (the club database, the table's name) it writes to
    club_db = ""  # the club database the settings name ("": this computer's own club file)

    def use_club(self, settings) -> None:
        """Write the match to the club database the settings name (empty: this computer's own club file,
        the one ``club serve`` shows by default) move by move, from now on -- the demo never, a recording
        only to a database named.  Called again when the settings change: a new database or table name
        takes over at once."""
        self.club_db = settings.club_db  # (the club window and the match's import read it too, the demo's as well)
        header = self.session.header
        if header.is_demo or header.source is not None and header.source.kind == "video" and not settings.club_db:
            return  # (a recording replayed goes into the club's history when it is over, not onto tonight's board)
        target = (settings.club_db, settings.table or self.session.header.table or None)
        if target == self.club_target:
            return
        from scorer.club import ClubError, LiveTable

        try:
            live = LiveTable(target[0] or None, target[1], on_status=self.club_status.emit)
        except ClubError as exc:  # (a table name the club refuses): the session file keeps the match
            self.statusBar().showMessage(self.tr("Club database: {error}").format(error=exc), 15000)
            return
        self.club_target = target
        self.attach_club(live)

    def attach_club(self, live) -> None:
        """Write the match into the club's database move by move (``live``: a scorer.club LiveTable), in place
        of the one written to before."""
        old, self.live_table = self.live_table, live
        if old is None:
            self.club_status.connect(self._on_club_status)
        self.import_to_club = False  # the live table holds the match already

        def switch() -> None:
            if old is not None:
                self.session.listeners.remove(old)
                old.close(timeout=2)
            self.session.listeners.append(live)
            live(self.session)  # the match as it stands, at once (a resumed one too)

        # The session is written on the worker's thread once it runs: the listeners change there too.
        if self.thread.isRunning():
            self.worker.call(switch)
        else:
            switch()

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
        if path is None or not hasattr(self.session, "text"):
            return
        from scorer.club import ClubError, import_log, open_database

        try:
            import_log(open_database(self.club_db or None), self.session.text(), source=str(path))
            self.statusBar().showMessage(self.tr("The match is saved in the club's history."), 8000)
        except (ClubError, OSError) as exc:  # the club database is optional; the session file stays
            self.statusBar().showMessage(self.tr("Club database: {error}").format(error=exc), 15000)

    def open_club(self) -> None:
        from scorer.app.club import open_club_window

        self.club_window = open_club_window(self, self.club_db)
