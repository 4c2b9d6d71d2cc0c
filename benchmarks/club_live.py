"""A club evening, live: N tables at once, each writing a full simulated match move by move through its
own session (`scorer.sessions.Session`) and a `LiveTable` listener, in its own process, into one
club database -- a PostgreSQL server, then one SQLite file. `scorer club serve` shows the board; a
server-sent-events client and (where installed) headless Chromium watch it. Prints figures only.

    .venv/bin/python benchmarks/club_live.py [--tables 8] [--move-seconds 0.25] [--backends postgresql,sqlite]
        [--pg-url postgresql+psycopg://USER@HOST/EMPTY_DB] [--no-browser]

Without --pg-url it starts a throwaway PostgreSQL server (Debian's postgresql package). Figures:
errors (a table process failing, a write the table could not make, a table not caught up at its end),
matches lost (a table's match missing from the database, or stored with another log than its file)
and doubled (rows beyond one per table), the standings from the database against the standings
scored from the session files, and the time from a move written at a table (the line fsynced, the
listener called) to the board showing it: to the SSE client, and to the page in Chromium (the first
animation frame after the page drew a state holding that move).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAMES = ["Aino", "Eero", "Helmi", "Onni", "Siiri", "Väinö", "Kerttu", "Lauri", "Ilona", "Toivo", "Saimi", "Urho",
         "Elli", "Veikko", "Hilma", "Arvo", "Martta", "Kalle", "Lyyli", "Paavo", "Tyyne", "Eino", "Impi", "Reino"]


# -- one table (its own process) ---------------------------------------------------------------------


def table_worker(url: str, table: str, game: str, n: int, partnership: bool, seed: int, folder: str, start_at: float,
                 move_seconds: float, out: str) -> None:
    from scorer.club import LiveTable
    from scorer.rules.simulate import simulate_match
    from scorer.sessions import Session

    names = [NAMES[(seed * 3 + k) % len(NAMES)] for k in range(n)]
    sim = simulate_match(game, n, partnership, seed=seed, names=names)
    time.sleep(max(0.0, start_at - time.time()))
    live = LiveTable(url, table, retry_seconds=1.0)
    session = Session.create(sim.header, Path(folder))
    session.listeners.append(live)
    written, slowest = [], 0.0
    for i, step in enumerate(sim.events):
        time.sleep(max(0.0, start_at + (i + 1) * move_seconds - time.time()))
        t0 = time.perf_counter()
        line = session.apply(step.event).line
        slowest = max(slowest, time.perf_counter() - t0)
        written.append((line, time.time()))
    caught_up = live.close(timeout=120)
    status = live.status
    session.close()
    Path(out).write_text(json.dumps({"table": table, "id": session.header.id, "path": str(session.path), "written": written,
                                     "caught_up": caught_up, "error": status.error, "writes": status.written,
                                     "slowest_move_s": slowest}))


# -- the evening -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TempPostgres:
    """A throwaway PostgreSQL server (initdb + pg_ctl), run as the postgres user where we are root."""

    def __init__(self) -> None:
        initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
        if not (initdb and pg_ctl):
            found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
            if not found:
                raise SystemExit("no PostgreSQL server binaries (apt-get install postgresql), or give --pg-url")
            initdb, pg_ctl = str(found[0]), str(found[0].with_name("pg_ctl"))
        self.pg_ctl = pg_ctl
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.base = Path(tempfile.mkdtemp(prefix="club-live-pg-"))
        self.data = self.base / "pg"
        self.data.mkdir()
        if self.as_user:
            shutil.chown(self.base, "postgres")
            shutil.chown(self.data, "postgres")
        self.port = free_port()
        subprocess.run(self.as_user + [initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres"], check=True,
                       capture_output=True)
        subprocess.run(self.as_user + [pg_ctl, "-D", str(self.data), "-l", str(self.base / "log"), "-w", "-o",
                                       f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1", "start"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def close(self) -> None:
        subprocess.run(self.as_user + [self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.base, ignore_errors=True)


class SSEWatcher(threading.Thread):
    """Reads the board's event stream; notes when each state (match id, lines) first arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.seen: dict[str, list[tuple[int, float]]] = {}
        self.errors: list[str] = []
        self.stop = False

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", "/events")
            response = conn.getresponse()
            event, data = None, []
            while not self.stop:
                line = response.fp.readline()
                if not line:
                    break
                now = time.time()
                line = line.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "":
                    if event == "tables":
                        for table in json.loads("\n".join(data))["tables"]:
                            m = table["match"]
                            states = self.seen.setdefault(m["id"], [])
                            if not states or states[-1][0] != m["lines"]:
                                states.append((m["lines"], now))
                    event, data = None, []
        except Exception as exc:  # noqa: BLE001 - a figure, not a crash
            if not self.stop:
                self.errors.append(f"{type(exc).__name__}: {exc}")


def start_browser(url: str):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "Selenium not installed"
    chromium, driver = shutil.which("chromium") or shutil.which("google-chrome"), shutil.which("chromedriver")
    if not chromium or not driver:
        return None, "chromium / chromedriver not installed"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    profile = tempfile.mkdtemp(prefix="club-live-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
                 "--window-size=1600,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    browser.get(url)
    return browser, None


def latencies(results: list[dict], seen: dict[str, list[tuple[int, float]]]) -> tuple[list[float], int]:
    """For each move written: the first time a state holding it was shown, less the time it was written."""
    out, missing = [], 0
    for r in results:
        states = seen.get(r["id"], [])
        for line, at in r["written"]:
            shown = next((t for lines, t in states if lines >= line and t >= at - 0.001), None)
            if shown is None:
                missing += 1
            else:
                out.append(shown - at)
    return out, missing


def figures(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return (f"median {statistics.median(ordered):.3f} s, p90 {p(0.9):.3f} s, p99 {p(0.99):.3f} s, max {ordered[-1]:.3f} s "
            f"({len(ordered)} moves)")


def expected_standings(texts: list[str], game: str) -> dict[str, tuple[int, int, int, int]]:
    from scorer.rules.transcript import read_log

    out: dict[str, list[int]] = {}
    for text in texts:
        match = read_log(text.split("\n")).match
        if match.rules.key != game or not match.is_over:
            continue
        scores = match.scores()
        table = match.table
        for p in match.players:
            side = table.side_of(table.seat(p))
            against = max((scores[q] for q in match.players if table.side_of(table.seat(q)) != side), default=0)
            row = out.setdefault(p, [0, 0, 0, 0])
            row[0] += 1
            row[1] += p in match.winners()
            row[2] += scores[p]
            row[3] += against
    return {p: tuple(v) for p, v in out.items()}


def evening(backend: str, url: str, args, folder: Path) -> None:
    from sqlalchemy import select

    from scorer.club import open_database, standings
    from scorer.club.schema import matches
    from scorer.rules.simulate import TABLES

    engine = open_database(url)  # the schema made once, as a club does before its first evening
    engine.dispose()
    port = free_port()
    serve = subprocess.Popen([sys.executable, "-m", "scorer", "club", "serve", "--db", url, "--port", str(port)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables.json", timeout=2).read()
            break
        except OSError:
            if serve.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"club serve did not start: {serve.communicate()[1][-2000:]}")
            time.sleep(0.1)
    watcher = SSEWatcher(port)
    watcher.start()
    browser, no_browser = (None, "--no-browser") if args.no_browser else start_browser(f"http://127.0.0.1:{port}/")
    start_at = time.time() + 4.0
    procs, outs = [], []
    for i in range(args.tables):
        game, n, partnership = TABLES[i % len(TABLES)]
        out = folder / f"{backend}-table-{i + 1}.json"
        outs.append(out)
        procs.append(subprocess.Popen([sys.executable, __file__, "--worker", url, f"Table {i + 1}", game, str(n),
                                       "1" if partnership else "0", str(1000 + i), str(folder / f"{backend}-sessions"),
                                       str(start_at), str(args.move_seconds), str(out)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT))
    errors = []
    for i, p in enumerate(procs):
        _, err = p.communicate()
        if p.returncode != 0:
            errors.append(f"table {i + 1} exited {p.returncode}: {err.strip().splitlines()[-1] if err.strip() else ''}")
    results = [json.loads(o.read_text()) for o in outs if o.exists()]
    for r in results:
        if r["error"] or not r["caught_up"]:
            errors.append(f"{r['table']}: {'not caught up' if not r['caught_up'] else ''} {r['error'] or ''}".strip())
    ended = time.time()
    wanted = {r["id"]: max(line for line, _ in r["written"]) for r in results}
    while time.time() - ended < 15 and any(max((l for l, _ in watcher.seen.get(i, [])), default=0) < n for i, n in wanted.items()):
        time.sleep(0.1)
    page_seen: dict[str, list[tuple[int, float]]] = {}
    if browser is not None:
        while time.time() - ended < 20:
            log = browser.execute_script("return window.boardLog")
            page_seen = {}
            for ident, lines, ms in log:
                page_seen.setdefault(ident, []).append((lines, ms / 1000.0))
            if all(max((l for l, _ in page_seen.get(i, [])), default=0) >= n for i, n in wanted.items()):
                break
            time.sleep(0.2)
        browser.quit()
    watcher.stop = True
    serve.terminate()
    serve.wait(10)
    engine = open_database(url)
    with engine.connect() as c:
        rows = list(c.execute(select(matches.c.id, matches.c.log, matches.c.finished)))
    texts = {r["id"]: Path(r["path"]).read_text(encoding="utf-8") for r in results}
    stored = {ident: (log, finished) for ident, log, finished in rows}
    lost = [i for i, text in texts.items() if i not in stored or stored[i][0] != text]
    doubled = len(rows) - len(set(stored) & set(texts))
    same = True
    for game in ("horse-race", "seven-rocks"):
        db_rows = {s.player: (s.matches, s.wins + s.shared_wins, s.points_for, s.points_against) for s in standings(engine, game=game)}
        same &= db_rows == expected_standings(list(texts.values()), game)
    engine.dispose()
    moves = sum(len(r["written"]) for r in results)
    writes = sum(r["writes"] for r in results)
    sse, sse_missing = latencies(results, watcher.seen)
    page, page_missing = latencies(results, page_seen) if browser is not None else ([], 0)
    print(f"\n{backend}: {len(results)} of {args.tables} tables ran a full match, {moves} moves "
          f"({writes} database writes: moves coalesced while a write was under way)")
    print(f"  errors: {len(errors) + len(watcher.errors)}" + "".join(f"\n    {e}" for e in errors + watcher.errors))
    print(f"  matches in the database: {len(rows)}; lost: {len(lost)}; doubled: {doubled}; all finished: "
          f"{all(stored.get(i, (None, False))[1] for i in texts)}")
    print(f"  standings from the database equal the standings scored from the session files: {'yes' if same else 'NO'}")
    print(f"  load average {os.getloadavg()[0]:.1f} at the end")
    print(f"  slowest move at a table (session write + listener): {max(r['slowest_move_s'] for r in results) * 1000:.1f} ms")
    print(f"  move written -> SSE client has it: {figures(sse)}" + (f"; {sse_missing} never seen" if sse_missing else ""))
    if browser is not None:
        print(f"  move written -> page in Chromium shows it: {figures(page)}" + (f"; {page_missing} never seen" if page_missing else ""))
    else:
        print(f"  page in Chromium: not measured ({no_browser})")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        a = sys.argv[2:]
        table_worker(a[0], a[1], a[2], int(a[3]), a[4] == "1", int(a[5]), a[6], float(a[7]), float(a[8]), a[9])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--move-seconds", type=float, default=0.25, help="time between two moves at a table")
    parser.add_argument("--backends", default="postgresql,sqlite")
    parser.add_argument("--pg-url", help="an empty PostgreSQL database to use (default: a throwaway server)")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    print(f"{dt.datetime.now().astimezone().isoformat(timespec='seconds')}: python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f} before); {args.tables} tables, "
          f"a move every {args.move_seconds} s at each")
    with tempfile.TemporaryDirectory(prefix="club-live-") as tmp:
        folder = Path(tmp)
        for backend in args.backends.split(","):
            if backend == "postgresql":
                server = None if args.pg_url else TempPostgres()
                try:
                    evening(backend, args.pg_url or server.url, args, folder)
                finally:
                    if server is not None:
                        server.close()
            elif backend == "sqlite":
                evening(backend, str(folder / "club.db"), args, folder)
            else:
                raise SystemExit(f"unknown backend {backend!r}: postgresql or sqlite")


if __name__ == "__main__":
    main()
