"""The club's memory: players, matches, standings; built from session logs."""

from scorer.club.db import ClubError, Imported, Standing, export_csv, import_files, import_log, merge, open_database, player_names, standings

__all__ = ["ClubError", "Imported", "Standing", "export_csv", "import_files", "import_log", "merge", "open_database", "player_names", "standings"]
