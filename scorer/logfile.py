"""A log file held open to append to -- a domino match's, a cribbage game's: locked (one writer per file), each
line written whole and fsynced, and still the file at its path when a line is written.

Another program may replace the file (a sync tool, an editor saving a copy over it) or remove it while it is held;
a line then written would go to a file no longer there.  So before each line the file at the path is checked: where
it is another, or none, the bytes held are written there again (the other file kept beside it, ``NAME.replaced``),
and a note says so.  Bytes another program appended are kept beside it (``NAME.damaged``) before the next line.
"""

from __future__ import annotations

import os
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


def hold(path: Path, busy: str) -> BinaryIO:
    """``path`` opened to append to (and read back), unbuffered -- a line the disk refused is not kept to be
    written later, after the next -- and locked; where another window or process holds it, a SessionError of the
    Words ``busy`` (its ``{path}`` filled in)."""
    try:  # (not made where it is gone: no empty match is left behind)
        held = open(os.open(path, os.O_RDWR | os.O_APPEND), "ab", buffering=0)
    except OSError as exc:  # (gone, a read-only disk, another user's file)
        raise cannot_open(path, exc) from None
    if fcntl is not None:
        try:
            fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held.close()
            raise SessionError(Words(busy, path=path)) from None
    return held


def held_elsewhere(path: Path) -> bool:
    """Whether another window or process holds ``path`` to write to it now."""
    if fcntl is None:  # pragma: no cover - not on Windows
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (the lock, if taken, goes with it)
    return False


class HeldLog:
    """One log file held to append to (:func:`hold`), its bytes written whole so far counted in ``size``."""

    def __init__(self, path: Path, busy: str, held: BinaryIO | None = None, size: int | None = None) -> None:
        """``held``: the file, already opened and locked by :func:`hold`; ``size``: its bytes of whole lines (by
        default all it holds)."""
        self.path = path
        self.busy = busy
        self._file = held or hold(path, busy)
        self.size = os.fstat(self._file.fileno()).st_size if size is None else size
        self.notes: list[str] = []  # (Words) what was done about the file that the players should know (taken by the app)

    @property
    def closed(self) -> bool:
        return self._file.closed

    def append(self, line: bytes) -> None:
        """``line`` appended whole and fsynced (an OSError where the disk refuses it: the file is as before)."""
        self._at_its_path()
        fd = self._file.fileno()
        size = os.fstat(fd).st_size
        if size > self.size:  # (another program appended: kept, not cut away unseen)
            kept = beside(self.path, "damaged")
            kept.write_bytes(_read(fd, self.size, size - self.size))
            self.notes.append(Words("lines another program added to the file were moved to {kept}", kept=kept.name))
        if size != self.size:  # (or half a line refused earlier, and not cut off then)
            os.ftruncate(fd, self.size)
        append_whole(fd, line, self.size)
        self.size += len(line)

    def cut(self, size: int) -> None:
        """The file cut back to its first ``size`` bytes (a torn tail, kept aside by the caller), and synced."""
        os.ftruncate(self._file.fileno(), size)
        os.fsync(self._file.fileno())
        self.size = size

    def _at_its_path(self) -> None:
        """The file held is the one at the path; else (replaced, removed) it is written there again."""
        mine = os.fstat(self._file.fileno())
        try:
            there = os.stat(self.path)
        except FileNotFoundError:
            there = None
        if there is not None and (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
            return
        ours = _read(self._file.fileno(), 0, self.size)
        kept = None
        if there is not None:
            kept = beside(self.path, "replaced")
            os.replace(self.path, kept)
        writing = beside(self.path, "writing")
        with open(writing, "xb") as f:
            f.write(ours)
            f.flush()
            os.fsync(f.fileno())
        os.replace(writing, self.path)
        fsync_folder(self.path.parent)
        self._file.close()
        self._file = hold(self.path, self.busy)
        # (said in the window of the match or game the file is: its name would not leave room in the status bar)
        self.notes.append(Words("another program replaced the file; written again as this window has it, the other kept "
                                "as {kept}", kept=kept.name) if kept is not None else
                          Words("another program removed the file; written again as this window has it"))

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def _read(fd: int, start: int, count: int) -> bytes:
    chunks = []
    while count > 0:
        chunk = os.pread(fd, count, start)
        if not chunk:
            break
        chunks.append(chunk)
        start, count = start + len(chunk), count - len(chunk)
    return b"".join(chunks)
