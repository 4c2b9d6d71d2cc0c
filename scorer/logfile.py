"""A log file held open to append to -- a domino match's, a cribbage game's: locked (one writer per file), each
line written whole and fsynced, and still the file at its path, as this window wrote it, when a line is written.

Another program may replace the file (a sync tool, an editor saving a copy over it), change or remove it while it
is held; a line then written would go to a file no longer there, or after bytes not the game's.  So the bytes
written are kept in memory too, and before each line the file at the path is checked: lines another program
appended are kept beside it (``NAME.damaged``); a file replaced or changed is kept beside it (``NAME.replaced``)
and the game written there again (a new file, locked and synced, then renamed over it: something whole is at the
path at every moment); a file removed is written again.  Where another window or process holds the new file,
nothing is overwritten: this window's copy is kept as ``NAME.conflict`` and it writes no more.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path
from typing import BinaryIO

from scorer.errors import SessionError
from scorer.words import Words, os_reason

try:  # one writer per file: a second window or process on the same match is refused
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]


def fsync_folder(folder: Path) -> None:
    """A file made, renamed or removed in ``folder`` made safe on disk (where the system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # a folder cannot be opened for fsync on some systems; the file itself is synced
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def beside(path: Path, kind: str) -> Path:
    """A free name beside ``path`` for bytes kept aside: ``NAME.damaged``, then ``NAME.damaged.2``, ..."""
    candidate = path.with_name(f"{path.name}.{kind}")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.{kind}.{n}")
        n += 1
    return candidate


def keep_aside(path: Path, kind: str, data: bytes) -> Path:
    """``data`` written whole and synced to a new file beside ``path`` (:func:`beside`); its path."""
    kept = beside(path, kind)
    with open(kept, "xb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return kept


def append_whole(fd: int, line: bytes, whole: int) -> None:
    """Append ``line`` to the file open at ``fd`` (to append) and fsync it; where the disk refuses part-way, the
    file is cut back to its ``whole`` bytes and the OSError raised -- no later line follows half a line (where
    the cut fails too, the writer cuts before its next line)."""
    try:
        left = memoryview(line)
        while left:
            left = left[_write_out(fd, left):]
        os.fsync(fd)
    except OSError:
        try:
            os.ftruncate(fd, whole)
        except OSError:
            pass  # (the OSError that matters is the write's)
        raise


def _write_out(fd: int, data: memoryview) -> int:
    """How many bytes of ``data`` the disk took (a test stands a full disk in here, for this module alone)."""
    return os.write(fd, data)


def cannot_open(path: Path, exc: OSError) -> SessionError:
    """The error a saved game's file that cannot be opened to go on with is told by (a match's, a cribbage game's)."""
    return SessionError(Words("{path}: cannot open the match to go on with it: {reason}", path=path,
                              reason=os_reason(exc)))


def _lock(fd: int, shared: bool = False) -> bool:
    """Whether the lock on ``fd`` -- exclusive, or ``shared`` (to look: it needs only reading) -- was taken (False:
    another window or process holds the file)."""
    if fcntl is None:  # pragma: no cover - not on Windows
        return True
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def hold(path: Path, busy: str) -> BinaryIO:
    """``path`` opened to append to (and read back), unbuffered -- a line the disk refused is not kept to be
    written later, after the next -- and locked; where another window or process holds it, a SessionError of the
    Words ``busy`` (its ``{path}`` filled in)."""
    try:  # (not made where it is gone: no empty match is left behind)
        held = open(os.open(path, os.O_RDWR | os.O_APPEND), "ab", buffering=0)
    except OSError as exc:  # (gone, a read-only disk, another user's file)
        raise cannot_open(path, exc) from None
    try:
        taken = _lock(held.fileno())
    except OSError as exc:  # (a file system that locks nothing is refused: one writer per match is not sure there)
        held.close()
        raise cannot_open(path, exc) from None
    if not taken:
        held.close()
        raise SessionError(Words(busy, path=path))
    return held


def held_elsewhere(path: Path) -> bool:
    """Whether another window or process holds ``path`` to write to it now."""
    try:
        fd = os.open(path, os.O_RDONLY)  # (a read-only file is looked at too)
    except OSError:
        return False
    try:
        return not _lock(fd, shared=True)  # (shared: two windows looking at once do not clash)
    except OSError:
        return False
    finally:
        os.close(fd)  # (the lock, if taken, goes with it)


class HeldLog:
    """One log file held to append to (:func:`hold`), and the bytes of it written whole so far, kept in memory."""

    def __init__(self, path: Path, busy: str, held: BinaryIO | None = None) -> None:
        """``held``: the file, already opened and locked by :func:`hold`."""
        self.path = path
        self.busy = busy
        self._file = held or hold(path, busy)
        try:
            self._bytes = bytearray(_read_all(self._file.fileno()))
        except OSError:
            self._file.close()
            raise
        self._own_tail = False  # a line of ours the disk refused part-way, not cut off then
        self._lost: Words | None = None  # another writer has the file now: this window writes no more
        self._notes: list[str] = []  # what was done about the file that the players should know
        self._notes_lock = threading.Lock()  # (written on the worker's thread, taken on the window's)
        self._kept: tuple[bytes, Path] | None = None  # another program's file kept last (kept once, tried again)
        self._stamp = self._stamp_now()  # the file's size and time of change as this window last left it

    @property
    def size(self) -> int:
        return len(self._bytes)

    @property
    def data(self) -> bytes:
        """The file's bytes as this window wrote them."""
        return bytes(self._bytes)

    @property
    def closed(self) -> bool:
        return self._file.closed

    @property
    def lost(self) -> bool:
        """Whether another window or process has taken the file over (this one writes no more, and says why)."""
        return self._lost is not None

    def append(self, line: bytes) -> None:
        """``line`` appended whole and fsynced (an OSError where the disk refuses it: the file is as before; a
        SessionError where another window has taken the file)."""
        if self._lost is not None:
            raise SessionError(self._lost)
        if self._file.closed:
            raise OSError(errno.EBADF, "the file is closed")
        self._at_its_path()
        fd = self._file.fileno()
        try:
            append_whole(fd, line, self.size)
        except OSError:
            self._own_tail = True  # (where the cut back failed: the next line cuts it, as ours)
            raise
        self._bytes += line
        self._own_tail = False
        self._stamp = self._stamp_now()

    def _stamp_now(self) -> tuple[int, int]:
        status = os.fstat(self._file.fileno())
        return status.st_size, status.st_mtime_ns

    def cut(self, size: int) -> None:
        """The file cut back to its first ``size`` bytes (a torn tail, kept aside by the caller), and synced."""
        os.ftruncate(self._file.fileno(), size)
        os.fsync(self._file.fileno())
        del self._bytes[size:]

    def take_notes(self) -> list[str]:
        """The notes not yet taken, each once."""
        with self._notes_lock:
            notes, self._notes = self._notes, []
        return notes

    def _note(self, words: Words) -> None:
        with self._notes_lock:
            self._notes.append(words)

    def _at_its_path(self) -> None:
        """The file at the path is the one held, as written here; else it is made so (or this window stops)."""
        fd = self._file.fileno()
        mine = os.fstat(fd)
        try:
            there = os.stat(self.path)
        except FileNotFoundError:
            there = None
        if there is not None and (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
            if (mine.st_size, mine.st_mtime_ns) != self._stamp:  # (changed since: grown, or rewritten in place)
                self._as_written(_read_all(fd))
                self._stamp = self._stamp_now()
            return
        other = b"" if there is None else self._other_file()
        if other and other == self._bytes:  # (a copy of it, moved over it: taken as it is)
            self._take(hold(self.path, self.busy))
            return
        self._told_written_again(self._write_again(other))

    def _as_written(self, on_disk: bytes) -> None:
        """The file held, grown or changed by another program, made the bytes written here again."""
        fd = self._file.fileno()
        if on_disk == self._bytes:  # (touched, or written back as it was)
            return
        if on_disk[:self.size] == self._bytes:  # (ours, then more: lines appended, or half a line of ours)
            if not self._own_tail:
                kept = keep_aside(self.path, "damaged", on_disk[self.size:])
                self._note(Words("lines another program added to the file were moved to {kept}", kept=kept.name))
            os.ftruncate(fd, self.size)
            os.fsync(fd)
            return
        self._told_written_again(self._write_again(on_disk))  # (shortened or rewritten in place: not padded)

    def _told_written_again(self, kept: Path | None) -> None:
        self._note(Words("another program replaced the file; written again as this window has it, the other kept "
                         "as {kept}", kept=kept.name) if kept is not None else
                   Words("another program removed the file; written again as this window has it"))

    def _other_file(self) -> bytes:
        """The bytes of another file now at the path (none: gone meanwhile); a SessionError, and this window writes
        no more, where another window or process holds it -- this window's copy kept beside it, nothing overwritten."""
        try:
            fd = os.open(self.path, os.O_RDONLY)  # (a read-only copy too: it is kept aside, not written to)
        except FileNotFoundError:
            return b""
        try:
            if not _lock(fd, shared=True):  # (let go as the file is closed below)
                kept = keep_aside(self.path, "conflict", bytes(self._bytes))
                self._lost = Words("{path}: another window or process writes this file now; this window's copy is "
                                   "kept as {kept}: close this window and go on there", path=self.path.name, kept=kept.name)
                self._file.close()
                raise SessionError(self._lost)
            return _read_all(fd)
        finally:
            os.close(fd)  # (the probe's lock goes with it)

    def _write_again(self, other: bytes | None) -> Path | None:
        """The bytes written here made the file at the path anew -- a new file, locked and synced first, then
        renamed over it -- with ``other`` (what was there, if anything) kept beside it; that copy's path."""
        kept = None
        if other:
            if self._kept is None or self._kept[0] != other or not self._kept[1].exists():
                self._kept = (other, keep_aside(self.path, "replaced", other))
            kept = self._kept[1]
        writing = beside(self.path, "writing")
        new = open(os.open(writing, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644), "ab", buffering=0)
        try:
            _lock(new.fileno())  # (a new file: nobody else has it)
            append_whole(new.fileno(), bytes(self._bytes), 0)
            os.replace(writing, self.path)
        except BaseException:  # (the new file let go and removed; the error as it is)
            new.close()
            writing.unlink(missing_ok=True)
            raise
        fsync_folder(self.path.parent)
        self._take(new)
        self._own_tail = False
        self._stamp = self._stamp_now()
        return kept

    def _take(self, new: BinaryIO) -> None:
        """Hold ``new`` in place of the file held so far (let go last: no moment without a lock of ours)."""
        old, self._file = self._file, new
        old.close()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def _read_all(fd: int) -> bytes:
    """The whole file open at ``fd``, read from its start."""
    chunks = []
    start = 0
    while chunk := os.pread(fd, 1 << 20, start):
        chunks.append(chunk)
        start += len(chunk)
    return b"".join(chunks)
