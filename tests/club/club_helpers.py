"""Helpers for the club tests: simulated evenings, the standings straight from the logs, PostgreSQL."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from scorer.rules.log import dumps, event_to_json, header_to_json
from scorer.rules.simulate import simulate_match
from scorer.rules.transcript import read_log


def log_text(sim, *, upto: int | None = None, t: bool = True, header=None) -> str:
    events = sim.events if upto is None else sim.events[:upto]
    lines = [dumps(header_to_json(header or sim.header))]
    lines += [dumps({**event_to_json(s.event), **({"t": i * 1.5} if t else {})}) for i, s in enumerate(events)]
    return "\n".join(lines) + "\n"


def played_live(db: str, sim, table: str, upto: int, sessions: Path):
    """``sim``'s first ``upto`` events played into a new session that a LiveTable writes to the club database ``db``
    as table ``table``, caught up: the session and its live table."""
    from scorer.club import LiveTable
    from scorer.sessions import Session

    session = Session.create(sim.header, sessions)
    live = LiveTable(db, table)
    session.listeners.append(live)
    for step in sim.events[:upto]:
        session.apply(step.event)
    assert live.flush(30)
    return session, live


def write_evening(folder: Path, seeds, game: str = "horse-race", names=("Ann", "Ben", "Cid", "Dee")) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        n = 4 if game == "seven-rocks" else 2 + seed % 3
        sim = simulate_match(game, n, game == "seven-rocks", seed=seed, names=names)
        path = folder / f"{game}-{seed}.jsonl"
        path.write_text(log_text(sim), encoding="utf-8")
        paths.append(path)
    return paths


def expected_standings(texts) -> dict[str, tuple[int, int, int]]:
    """Straight from the logs, with the rules engine: matches, wins (shared ones too), points for --
    finished matches only."""
    out: dict[str, list[int]] = {}
    for text in texts:
        if isinstance(text, Path):
            text = text.read_text(encoding="utf-8")
        final = read_log(text.split("\n")).match
        if not final.is_over:
            continue
        for p in final.players:
            row = out.setdefault(p, [0, 0, 0])
            row[0] += 1
            row[1] += p in final.winners()
            row[2] += final.scores()[p]
    return {p: tuple(v) for p, v in out.items()}


def standings_rows(engine, game: str | None = "horse-race", since=None) -> dict[str, tuple[int, int, int]]:
    from scorer.club import standings

    return {s.player: (s.matches, s.wins + s.shared_wins, s.points_for) for s in standings(engine, since, game)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_binaries() -> tuple[str, str] | None:
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return initdb, pg_ctl
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):  # Debian keeps them off PATH
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return str(folder / "initdb"), str(folder / "pg_ctl")
    return None


class PostgresServer:
    """A real PostgreSQL server in a temporary folder (stopped and started again at will)."""

    def __init__(self) -> None:
        found = _pg_binaries()
        if found is None:
            raise RuntimeError("PostgreSQL server binaries are not installed (Debian: apt-get install postgresql)")
        self.initdb, self.pg_ctl = found
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            import pwd

            if not shutil.which("runuser"):
                raise RuntimeError("running as root without runuser: cannot start PostgreSQL")
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("no postgres user to run the server as") from None
            self.as_user = ["runuser", "-u", "postgres", "--"]
        # Outside pytest's private temp folder, which the postgres user cannot enter.
        self.base = Path(tempfile.mkdtemp(prefix="scorer-pg-"))
        self.data = self.base / "pg"
        self.data.mkdir()
        if self.as_user:
            shutil.chown(self.base, "postgres")
            shutil.chown(self.data, "postgres")
        self.port = free_port()
        subprocess.run(self.as_user + [self.initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres"], check=True,
                       capture_output=True)
        self._databases = 0
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        # The server's output goes to a file: a pipe held open by the server would never close.
        subprocess.run(self.as_user + [self.pg_ctl, "-D", str(self.data), "-l", str(self.base / "server.log"), "-w", "-t", "30",
                                       "-o", f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c max_connections=200",
                                       "start"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(self.as_user + [self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)

    def new_database(self) -> str:
        """A fresh, empty database on the server; its URL."""
        import psycopg

        self._databases += 1
        name = f"club_{self._databases}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.base, ignore_errors=True)
