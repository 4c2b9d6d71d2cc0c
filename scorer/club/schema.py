"""The club database: players, matches, their seats, rounds and every move -- all rebuilt from session logs
(but for the players' other names, which the club decides)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(100), nullable=False, unique=True),
)

# 0004: a player's other names (one merged into the player, the name before a rename): a table typing one
# scores for the player; and names separated again.  The club's own decisions, not a match's: the logs cannot
# rebuild them (scorer/club/roster.py).
aliases = Table(
    "aliases",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True),  # None: separated, its own player's again
    Column("kind", String(10), nullable=False),  # merged, renamed; separated (a merge undone), released (a rename's, since)
    Column("since", DateTime, nullable=False),  # when it became the player's (a released name is theirs in matches before)
    Column("decided", DateTime, nullable=False),  # when this was last decided (a database merge takes the newer decision)
)

matches = Table(
    "matches",
    metadata,
    # A match is identified by its log's "id" (or, for a log without one, by its content's hash):
    # importing the same log twice changes nothing; a longer state of it replaces the shorter.
    Column("id", String(64), primary_key=True),
    Column("game", String(20), nullable=False),
    Column("partnership", Boolean, nullable=False),
    Column("played_at", DateTime, nullable=True),
    Column("imported_at", DateTime, nullable=False),
    Column("table_name", String(100), nullable=True),
    Column("finished", Boolean, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("log", Text, nullable=False),  # the source of truth, kept whole
    # 0002: a match written live grows; these say how far it has come.
    Column("lines", Integer, nullable=False, server_default="0"),  # lines of the log stored
    Column("updated_at", DateTime, nullable=True),  # when it last changed
    Column("started", String(40), nullable=True),  # the log's own start time (ISO 8601, with its offset)
    Column("board", Text, nullable=True),  # the match as the club's board shows it (JSON, scorer.club.view)
    Column("opened_at", DateTime, nullable=True),  # 0003: when a table last opened it (made, resumed, renamed)
    Index("ix_matches_played_at", "played_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("match_id", String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("side", Integer, nullable=False),
    Column("score", Integer, nullable=False),  # the player's (or pair's) final score in game points
    Column("against", Integer, nullable=False),  # the best opposing score
    Column("won", Boolean, nullable=False),
    Column("shared", Boolean, nullable=False),  # a win shared with another side
    Column("moves", Integer, nullable=False),  # placements made
    Column("move_points", Integer, nullable=False),  # game points scored by those placements
)

round_results = Table(
    "rounds",
    metadata,
    Column("match_id", String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("blocked", Boolean, nullable=False),
    Column("finisher", String(100), nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column("match_id", String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("line", Integer, primary_key=True),
    Column("round", Integer, nullable=False),
    Column("type", String(20), nullable=False),
    Column("player", String(100), nullable=True),
    Column("event", Text, nullable=False),  # the log line's JSON
    Column("points", Integer, nullable=False),  # raw points of a play
    Column("t", Float, nullable=True),
    UniqueConstraint("match_id", "line"),
)
