"""The club's memory: players, matches, standings; built from session logs, written live by the tables.

connection.py opens the database (and migrates it); logs.py reads a session log for it; importing.py
stores matches (an import, a merge); roster.py knows who a name typed at a table is, roster_changes.py renames
and merges players; queries.py reads standings and exports; live.py writes a table's match move by move; serve.py
and board.py show the evening in a browser.
"""

from scorer.club.connection import file_missing, open_database, open_existing, open_readonly
from scorer.club.importing import ImportReport, Imported, Merged, import_files, import_log, import_report, merge
from scorer.club.live import LiveTable
from scorer.club.names import MAX_NAME, check_name
from scorer.club.roster import matches_of, never_with, other_names, player_of
from scorer.club.roster_changes import PlayersMerged, merge_players, rename_player, separable, separate_name
from scorer.club.queries import Standing, Unfinished, export_csv, parse_since, player_names, standings, unfinished
from scorer.errors import ClubError, ClubUnavailable

__all__ = [
    "MAX_NAME", "ClubError", "ClubUnavailable", "ImportReport", "Imported", "LiveTable", "Merged", "Standing", "check_name",
    "export_csv", "file_missing", "import_files", "import_log", "import_report", "merge", "open_database", "open_existing", "open_readonly", "parse_since",
    "player_names", "PlayersMerged", "matches_of", "merge_players", "never_with", "other_names", "player_of", "rename_player", "separable", "separate_name", "standings", "Unfinished", "unfinished",
]
