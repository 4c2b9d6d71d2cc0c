"""The club's memory: players, matches, standings; built from session logs, written live by the tables."""

from scorer.club.db import (
    MAX_NAME, ClubError, ClubUnavailable, ImportReport, Imported, Merged, Standing, check_name, export_csv, import_files,
    import_log, import_report, merge, open_database, open_readonly, parse_since, player_names, standings, unfinished_count,
)
from scorer.club.live import LiveTable

__all__ = [
    "MAX_NAME", "ClubError", "ClubUnavailable", "ImportReport", "Imported", "LiveTable", "Merged", "Standing", "check_name",
    "export_csv", "import_files", "import_log", "import_report", "merge", "open_database", "open_readonly", "parse_since",
    "player_names", "standings", "unfinished_count",
]
