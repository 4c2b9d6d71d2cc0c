"""A cribbage game saved as it is played: one append-only JSON-lines file per game, fsynced after every line.

``$XDG_DATA_HOME/domino-scorer/cribbage/<started>.jsonl`` (``~/.local/share`` without it).  The first
line is the header (players, target, muggins, language); each later line is one thing done at the
table: an event (``{"event": {...}}``), an undo of the last event (``{"undo": true}``), or the game
put aside unfinished (``{"abandoned": true}``).  Replaying the lines gives the game back; a last line
cut short by a crash is skipped, and cut off (kept in ``NAME.damaged``) before the next line is written; a
line the disk refuses part-way is cut off again, so the file is always whole lines.  The games neither won
nor put aside are offered on the next start, the last written first -- those open in a window are not: one
window per game (the file is held locked, as a domino match's is: :mod:`scorer.logfile`).
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from scorer.cribbage.cards import parse_card
from scorer.cribbage.match import CribbageGame, CribEvent, Cut, Deal, Go, PegCard, Scored, Show
from scorer.errors import CardError, ScorerError
from scorer.logfile import HeldLog, append_whole, cannot_open, fsync_folder, held_elsewhere, keep_aside
from scorer.rules.log import dumps, split

FORMAT = "domino-scorer cribbage 1"


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "domino-scorer" / "cribbage"


def event_to_json(event: CribEvent) -> dict[str, Any]:
    if isinstance(event, Deal):
        return {"type": "deal", "dealer": event.dealer}
    if isinstance(event, Cut):
        return {"type": "cut", "starter": str(event.starter)}
    if isinstance(event, PegCard):
        return {"type": "peg", "player": event.player, "card": str(event.card)}
    if isinstance(event, Go):
        return {"type": "go", "player": event.player}
    if isinstance(event, Show):
        return {"type": "show", "player": event.player, "cards": [str(c) for c in event.cards], "crib": event.crib,
                "claimed": event.claimed}
    raise TypeError(f"not a cribbage event: {event!r}")


def event_from_json(data: dict[str, Any]) -> CribEvent:
    kind = data.get("type")
    if kind == "deal":
        return Deal(str(data["dealer"]))
    if kind == "cut":
        return Cut(parse_card(str(data["starter"])))
    if kind == "peg":
        return PegCard(str(data["player"]), parse_card(str(data["card"]), suit_required=False))
    if kind == "go":
        player = data.get("player")
        return Go(None if player is None else str(player))
    if kind == "show":
        claimed = data.get("claimed")
        return Show(str(data["player"]), tuple(parse_card(str(c)) for c in data["cards"]), bool(data.get("crib")),
                    None if claimed is None else int(claimed))
    raise CardError(f"unknown cribbage event {kind!r}")


@dataclass
class SavedGame:
    path: Path
    header: dict[str, Any]
    events: list[CribEvent] = field(default_factory=list)  # after undos
    abandoned: bool = False
    damaged_lines: int = 0

    def last_saved(self) -> str:
        """When the file was last written, as "2026-12-06 21:40" (its start where that cannot be read)."""
        try:
            return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.path.stat().st_mtime))
        except OSError:
            return str(self.header.get("started", ""))[:16].replace("T", " ")

    @property
    def players(self) -> list[str]:
        return [str(p) for p in self.header["players"]]

    def replay(self) -> tuple[CribbageGame, list[CribbageGame], list[tuple[CribEvent, list[Scored]]]]:
        """The game now, the states before each event (for undo), and each event with what it scored."""
        game = CribbageGame.start(self.players, int(self.header.get("target", 121)), bool(self.header.get("muggins")))
        history: list[CribbageGame] = []
        done: list[tuple[CribEvent, list[Scored]]] = []
        for event in self.events:
            after, scored = game.apply(event, as_saved=True)
            history.append(game)
            done.append((event, scored))
            game = after
        return game, history, done


def read_game(path: Path) -> SavedGame:
    lines = split(path.read_bytes())  # (on "\n" alone: a name may hold U+2028)
    if not lines:
        raise CardError(f"{path}: an empty game file")
    header = json.loads(lines[0].decode("utf-8"))
    if header.get("format") != FORMAT:
        raise CardError(f"{path}: not a cribbage game file (format {header.get('format')!r})")
    saved = SavedGame(path, header)
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:  # (a line cut inside a letter does not decode: cut short by a crash as any other)
            entry = json.loads(line.decode("utf-8"))
            if "event" in entry:
                saved.events.append(event_from_json(entry["event"]))
            elif entry.get("undo"):
                if saved.events:
                    saved.events.pop()
            elif entry.get("abandoned"):
                saved.abandoned = True
        except (ValueError, KeyError, TypeError, CardError):
            if number != len(lines):
                raise CardError(f"{path}:{number}: a damaged line in the middle of the game") from None
            saved.damaged_lines += 1  # the last line, cut short by a crash: what it said was not done
    return saved


def _mend_torn_tail(held: HeldLog) -> None:
    """A last line without its line end (cut short by a crash) given one where it reads as a line, else cut off
    (kept in ``NAME.damaged``)."""
    data = held.data
    if not data or data.endswith(b"\n"):
        return
    start = data.rfind(b"\n") + 1
    try:  # (read as read_game reads a line)
        entry = json.loads(data[start:].decode("utf-8"))
        if "event" in entry:
            event_from_json(entry["event"])
    except (ValueError, KeyError, TypeError, CardError):
        keep_aside(held.path, "damaged", data[start:] + b"\n")
        held.cut(start)
        return
    held.append(b"\n")  # (a whole line that lost only its end)


BUSY = "{path}: this game is open in another window or process"


class GameFile:
    """Appends to one game's file, held locked while the game is open (one window per game: :meth:`close` lets it
    go); every line is flushed and fsynced before the call returns."""

    def __init__(self, path: Path) -> None:
        """The saved game at ``path`` held to go on with it (a SessionError where another window has it); a torn
        last line is cut off first (kept beside it)."""
        self.path = path
        self._held = HeldLog(path, BUSY)
        try:
            _mend_torn_tail(self._held)
        except OSError as exc:  # (a full disk; the lock let go, the error one the caller catches)
            self._held.close()
            raise cannot_open(path, exc) from None

    @classmethod
    def create(cls, players: list[str], target: int, muggins: bool, lang: str = "en",
               folder: Path | None = None) -> GameFile:
        folder = folder or data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"{stamp}-{secrets.token_hex(3)}.jsonl"
        header = {"format": FORMAT, "players": list(players), "target": target, "muggins": muggins,
                  "lang": lang, "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:  # (made whole or not at all: no empty game is left behind)
            append_whole(fd, (dumps(header) + "\n").encode("utf-8"), 0)
        except OSError:
            path.unlink(missing_ok=True)
            raise
        finally:
            os.close(fd)
        fsync_folder(folder)  # the new file's name is safe on disk too
        return cls(path)

    def _append(self, entry: dict[str, Any]) -> None:
        """One line, written whole or not at all: a line the disk refuses part-way is cut off again -- the next
        line never follows half a line."""
        self._held.append((dumps(entry) + "\n").encode("utf-8"))

    def add(self, event: CribEvent) -> None:
        self._append({"t": round(time.time(), 3), "event": event_to_json(event)})

    def undo(self) -> None:
        self._append({"t": round(time.time(), 3), "undo": True})

    def abandon(self) -> None:
        self._append({"t": round(time.time(), 3), "abandoned": True})

    def take_notes(self) -> list[str]:
        """What was done about the file that the players should know (another program replaced it, say), once."""
        return self._held.take_notes()

    def saved(self) -> SavedGame:
        """The game as its file, held here, has it."""
        return read_game(self.path)

    def close(self) -> None:
        self._held.close()


def _newest_first(folder: Path | None) -> list[Path]:
    """The game files in ``folder`` (the data folder by default), the last written first."""
    folder = folder or data_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.jsonl"), key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def list_unfinished(folder: Path | None = None) -> list[tuple[SavedGame, CribbageGame]]:
    """The saved games neither won nor put aside that have something in them, each with its game now, the
    last written first."""
    found = []
    for path in _newest_first(folder):
        if held_elsewhere(path):
            continue  # (open in another window: its game goes on there)
        try:
            saved = read_game(path)
            if saved.abandoned or not saved.events:
                continue
            game, _, _ = saved.replay()
        except (OSError, ValueError, KeyError, TypeError, ScorerError):
            continue  # a file that cannot be read is left alone, not offered
        if not game.is_over:
            found.append((saved, game))
    return found


def last_table(folder: Path | None = None) -> tuple[list[str], int, bool]:
    """The players, length and muggins of the game saved last, finished or not (a new game is most often the same
    table's); no players where none is saved."""
    for path in _newest_first(folder):
        try:
            header = read_game(path).header
            return [str(p) for p in header["players"]], int(header.get("target", 121)), bool(header.get("muggins"))
        except (OSError, ValueError, KeyError, TypeError, ScorerError):
            continue  # (a damaged file: the one before)
    return [], 121, False


def find_unfinished(folder: Path | None = None, players: Sequence[str] | None = None) -> SavedGame | None:
    """The newest unfinished game (:func:`list_unfinished`) -- of ``players`` (the same names, in any order and
    case), where given: another table's game waits for its own players."""
    return next((saved for saved, _ in list_unfinished(folder)
                 if players is None or _same_players(saved.players, players)), None)


def _same_players(these: Sequence[str], those: Sequence[str]) -> bool:
    return sorted(p.casefold() for p in these) == sorted(p.casefold() for p in those)
