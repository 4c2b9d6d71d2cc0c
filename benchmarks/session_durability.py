"""Figures for the session store: matches are never lost.  Prints, for each check, what it found.

    .venv/bin/python benchmarks/session_durability.py                 # everything (about 40 minutes)
    .venv/bin/python benchmarks/session_durability.py --only torn,fuzz,twice --kills 10

- kills: ``replay --out --json``, ``record`` (a video file's ``file://`` URL as its camera) and the app (``app --demo``,
  offscreen) killed with SIGKILL at random moments; every event they announced before the kill must be
  in the session file, and every session must open again (``Session.open``).
- torn: every byte offset of the last 3 lines of 20 logs cut off; each must recover with all its
  complete events.
- fuzz: mutated golden logs and simulated matches scored by ``score`` and opened by the store: no
  traceback; simulated matches with arbitrary Unicode names score the same after writing and reading back.
- twice: ``app --demo`` started twice in a row: both matches listed by ``sessions``, the first byte for
  byte unchanged.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.cli import main as cli_main  # noqa: E402
from scorer.rules.game import PlayOutcome, RoundOutcome  # noqa: E402
from scorer.rules.log import dumps, event_to_json, header_to_json  # noqa: E402
from scorer.rules.simulate import simulate_match  # noqa: E402
from scorer.sessions import Session, SessionError, list_sessions, read_session, repair  # noqa: E402

DEMO = ROOT / "scorer" / "data" / "demo.mp4"
PY = sys.executable
NEWLINE = b"\n"
MARK = "@@ said @@"
ANNOUNCED = re.compile(r"^\s*\d+\.\ds (?!\?)", re.MULTILINE)  # record's lines for an announcement


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               QT_QPA_PLATFORM="offscreen", **extra)
    env.pop("SCORER_CLUB_DB", None)
    return env


def _session_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


# What the app says of a play ("Ben, double five. Ten, two points.") or a round's end; it also says what is no
# announcement of an event (a new match, a draw, a pass), which is not counted.
SAID_OF_A_MOVE = re.compile(r"^(End of the round\.|[^,:]+, (double \w+|[\w-]+–[\w-]+)\. )")


def _announcements_said(said: str) -> int:
    """The announcements of plays and round ends among the texts the espeak-ng stand-in was given."""
    return sum(1 for text in said.split(MARK) if SAID_OF_A_MOVE.match(text.strip()))


def _announced_events(path: Path) -> int:
    """Plays and round ends in force in a session: the events that are announced."""
    return sum(1 for s in read_session(path).log.steps if isinstance(s.outcome, (PlayOutcome, RoundOutcome)))


def _kill_after(argv: list[str], env: dict[str, str], seconds: float, stdout_path: Path) -> None:
    with open(stdout_path, "wb") as out:
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


def kills(kind: str, runs: int, rng: random.Random) -> None:
    lost = unopened = events = nothing = said_total = 0
    last_words = ""
    for run in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp)
            sessions = home / "data" / "domino-scorer" / "sessions"
            said = home / "said.txt"
            env = _env(home)
            if kind == "replay":
                argv = [PY, "-m", "scorer", "replay", str(DEMO), "--game", "horse-race", "--players", "Ann,Ben",
                        "--starter", "Ben", "--quiet", "--json", "--out", str(sessions)]
                wait = rng.uniform(0.5, 8.0)
            elif kind == "record":
                # (a network camera's URL, as a file:// one: `record` refuses a file named as its camera)
                argv = [PY, "-m", "scorer", "record", "--camera", DEMO.as_uri(), "--game", "horse-race", "--players",
                        "Ann,Ben", "--starter", "Ben", "--out", str(home / "rec"), "--sessions", str(sessions)]
                wait = rng.uniform(0.5, 10.0)
            else:
                stand_in = home / "bin"
                stand_in.mkdir()
                (stand_in / "espeak-ng").write_text(
                    f"#!/bin/sh\ncat >> {said}\necho '{MARK}' >> {said}\n")
                (stand_in / "espeak-ng").chmod(0o755)
                env = _env(home, PATH=f"{stand_in}:{os.environ['PATH']}")
                argv = [PY, "-m", "scorer", "app", "--demo"]
                wait = rng.uniform(2.0, 20.0)
            _kill_after(argv, env, wait, home / "out.txt")
            files = _session_files(sessions)
            if not files:
                nothing += 1  # killed before the match was made: nothing announced either
                last_words = (home / "out.txt").read_text(encoding="utf-8", errors="replace")
                continue
            (path,) = files
            try:
                session, _ = Session.open(path)
                session.close()
            except SessionError:
                unopened += 1
                continue
            in_force = {s.line: s.event for s in read_session(path).log.steps}
            events += len(in_force)
            text = (home / "out.txt").read_text(encoding="utf-8", errors="replace")
            if kind == "replay":
                printed = [json.loads(line) for line in text.split("\n") if line.startswith("{") and line.endswith("}")]
                moves = [m for m in printed if "line" in m and m.get("type") not in ("needs-confirmation", "notice", "status")]
                lost += sum(1 for m in moves if m["line"] not in in_force)
            else:
                announced = (len(ANNOUNCED.findall(text)) if kind == "record" else
                             _announcements_said(said.read_text(encoding="utf-8")) if said.exists() else 0)
                said_total += announced
                lost += max(0, announced - _announced_events(path))
        print(f"\r  {kind}: {run + 1}/{runs}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    announced = "" if kind == "replay" else f" ({said_total} announcements heard)"
    print(f"kill -9 of {kind}: {runs} runs, {events} events in force saved, {lost} announced events lost{announced}, "
          f"{unopened} sessions that would not open, {nothing} killed before the match was made")
    if runs and nothing == runs:  # (a command that never makes a match measures nothing: say why, not "0 lost")
        print(f"  {kind} never made a match: it said {last_words.strip()[-300:]!r}")


def torn(logs: int, rng: random.Random) -> None:
    cuts = recovered = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(logs):
            sim = simulate_match(rng.choice(["horse-race", "seven-rocks"]), 4, True, seed=rng.randrange(10**6))
            session = Session.create(sim.header, Path(tmp))
            for i, step in enumerate(sim.events):
                session.apply(step.event, float(i))
                if i == len(sim.events) // 2:
                    session.undo(float(i))
                    session.redo(float(i))
            session.close()
            whole = session.path.read_bytes()
            expected = read_session(session.path).log.steps
            ends = [i for i, b in enumerate(whole) if b == ord("\n")]
            for cut in range(ends[-4] + 1, len(whole)):
                cuts += 1
                session.path.write_bytes(whole[:cut])
                for leftover in Path(tmp).glob("*.damaged*"):
                    leftover.unlink()
                complete = sum(1 for e in ends if e <= cut)
                again, _ = Session.open(session.path)
                again.close()
                lines_kept = {s.line for s in expected if s.line <= complete}
                if {s.line for s in again.steps} == lines_kept:
                    recovered += 1
            session.path.unlink()
    print(f"torn tails: {cuts} cuts at every byte of the last 3 lines of {logs} logs, {recovered} recovered "
          f"with all their complete events")


def _mutate(text: str, rng: random.Random) -> bytes:
    lines = text.split("\n")
    kind = rng.randrange(9)
    i = rng.randrange(len(lines))
    if kind == 0:  # a byte flipped
        raw = bytearray(text.encode())
        raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return bytes(raw)
    if kind == 1:
        del lines[i]
    elif kind == 2:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 3:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif kind == 4:  # a value replaced by one of another type
        try:
            data = json.loads(lines[i])
        except ValueError:
            data = None
        if isinstance(data, dict) and data:
            key = rng.choice(list(data))
            data[key] = rng.choice([[], {}, None, True, -1, 10**30, 1.5, "x" * 3, [[1, 2], [3]], {"a": []},
                                    "\u2028", float("1e308")])
            lines[i] = json.dumps(data)
    elif kind == 5:
        lines[i] = "[" * rng.choice([10, 1000, 100_000]) + lines[i]
    elif kind == 6:
        lines[i] = lines[i].replace("1", "9" * rng.choice([50, 5000]), 1)
    elif kind == 7:
        return b"\xef\xbb\xbf" + text.encode()
    else:
        return text.encode()[: rng.randrange(len(text.encode()))] + bytes([rng.randrange(256)]) * rng.randrange(1, 4)
    return "\n".join(lines).encode("utf-8", errors="surrogatepass")


def fuzz(count: int, rng: random.Random) -> None:
    golden = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "golden").glob("*.jsonl"))
              if not p.name.endswith(".expected.jsonl")]
    tracebacks = exit_codes = 0
    seen: dict[int, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.jsonl"
        for k in range(count):
            if k % 2 == 0:
                base = rng.choice(golden)
            else:
                sim = simulate_match("horse-race", rng.choice([2, 3, 4]), False, seed=rng.randrange(10**6))
                base = "".join(dumps(d) + "\n" for d in [header_to_json(sim.header)] + [event_to_json(s.event) for s in sim.events])
            path.write_bytes(_mutate(base, rng))
            try:
                code = cli_main(["score", str(path), "--json"], io.StringIO(), io.StringIO())
                seen[code] = seen.get(code, 0) + 1
                try:
                    repair(path)
                except SessionError:
                    pass
            except Exception as exc:  # noqa: BLE001 - the figure counts them
                tracebacks += 1
                if tracebacks <= 5:
                    print(f"  traceback: {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
            for leftover in Path(tmp).glob("*.damaged*"):
                leftover.unlink()
        exit_codes = sum(v for c, v in seen.items() if c not in (0, 2))
        same = 0
        names_runs = count // 10
        letters = [chr(c) for c in range(0x20, 0x3000) if not 0xD800 <= c <= 0xDFFF] + ["\u2028", "\u2029", "\x85", "\r"]
        for k in range(names_runs):
            names = []
            while len(names) < 3:
                name = "".join(rng.choice(letters) for _ in range(rng.randrange(1, 10))).strip()
                if name and name not in names:
                    names.append(name)
            sim = simulate_match("horse-race", 3, False, seed=k, names=names)
            session = Session.create(sim.header, Path(tmp))
            for step in sim.events:
                session.apply(step.event, 0.0)
            session.close()
            if read_session(session.path).log.match.scores() == sim.events[-1].after.scores():
                same += 1
            session.path.unlink()
    print(f"fuzz: {count} mutated logs scored and repaired, {tracebacks} tracebacks, exit codes {dict(sorted(seen.items()))} "
          f"({exit_codes} other than 0 or 2); {same}/{names_runs} matches with arbitrary Unicode names score the same "
          f"after writing and reading back")


def twice(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        sessions = home / "data" / "domino-scorer" / "sessions"
        env = _env(home)
        _kill_after([PY, "-m", "scorer", "app", "--demo"], env, seconds, home / "1.txt")
        (first,) = _session_files(sessions)
        before = first.read_bytes()
        _kill_after([PY, "-m", "scorer", "app", "--demo"], env, seconds, home / "2.txt")
        listed = [s.path for s in list_sessions(sessions)]
        out = io.StringIO()
        os.environ["XDG_DATA_HOME"] = str(home / "data")
        cli_main(["sessions"], out, io.StringIO())
        rows = sum(1 for line in out.getvalue().split("\n") if line[:3].strip().isdigit())
        unchanged = first.read_bytes() == before
    print(f"two app starts in a row: {len(listed)} matches listed ({rows} rows by `sessions`), the first "
          f"{'byte for byte unchanged' if unchanged else 'CHANGED'} ({len(before)} bytes, "
          f"{before.count(NEWLINE) - 1} events)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="kills,torn,fuzz,twice")
    parser.add_argument("--kills", type=int, default=100, help="runs of each kind killed")
    parser.add_argument("--kinds", default="replay,record,app")
    parser.add_argument("--logs", type=int, default=20)
    parser.add_argument("--fuzz", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    only = set(args.only.split(","))
    print(f"# benchmarks/session_durability.py {' '.join(sys.argv[1:])}  ({time.strftime('%Y-%m-%d')})")
    if "torn" in only:
        torn(args.logs, rng)
    if "fuzz" in only:
        fuzz(args.fuzz, rng)
    if "twice" in only:
        twice(12.0)
    if "kills" in only:
        for kind in args.kinds.split(","):
            kills(kind, args.kills, rng)


if __name__ == "__main__":
    main()
