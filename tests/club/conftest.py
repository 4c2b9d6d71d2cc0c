"""Fixtures of the club tests: a real PostgreSQL server where its binaries exist (skipped cleanly elsewhere)."""

from __future__ import annotations

import pytest
from club_helpers import PostgresServer


@pytest.fixture(scope="session")
def postgres_server():
    try:
        server = PostgresServer()
    except (RuntimeError, OSError) as exc:
        pytest.skip(f"no PostgreSQL server for the tests: {exc}")
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def postgres(postgres_server) -> str:
    """The URL of a fresh, empty database on the shared test server."""
    return postgres_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def club_url(request, tmp_path) -> str:
    """The same test on a SQLite file and on a PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "club.db")
    return request.getfixturevalue("postgres")
