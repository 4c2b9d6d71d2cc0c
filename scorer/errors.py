"""The one exception hierarchy of the scorer.

Every error the scorer raises on purpose derives from :class:`ScorerError`, so a
front end (CLI, app) can catch that one type and show its message, which always
says what was expected and what was found.
"""

from __future__ import annotations


class ScorerError(Exception):
    """Base of every deliberate error of the scorer."""


class RulesError(ScorerError):
    """Something the rules of a game forbid or cannot decide."""


class IllegalMove(RulesError):
    """A move rejected whole: the game state it was applied to is unchanged."""


class TableError(RulesError):
    """A table (players, partnership) that the game cannot be played at."""


class LogFormatError(ScorerError):
    """A session-log line that is not a well-formed event."""


class CardError(ScorerError):
    """A card, hand or pegging sequence that cannot exist in cribbage."""


class VisionError(ScorerError):
    """The camera side: images, models, detections."""


class ImageError(VisionError):
    """A file or frame that is not a usable image (missing, empty, truncated, huge)."""


class ModelError(VisionError):
    """A model file that is missing or does not have the expected inputs and outputs."""


class LineError(ScorerError):
    """An error tied to a line of a log file (re-exported by scorer.rules.log)."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number
        self.message = message

    def __str__(self) -> str:
        return f"line {self.number}: {self.message}"


class SessionError(ScorerError):
    """A session file that cannot be made, read, recovered or written (re-exported by scorer.sessions)."""


class ClubError(ScorerError):
    """The club database cannot be opened, or an import cannot be made (re-exported by scorer.club)."""


class ClubUnavailable(ClubError):
    """The database cannot be reached or stays locked: worth trying again later (a live table does)."""


class SourceError(VisionError):
    """A camera, video or folder that cannot give frames (missing, unreadable, stopped, resized);
    re-exported by scorer.pipeline.sources."""


class CalibrationError(VisionError):
    """The target was not found, or a profile is missing or damaged (re-exported by scorer.vision.calibration)."""


class TargetNotFound(CalibrationError):
    """Fewer than two of the printed target's markers were seen in a picture."""

    def __init__(self, message: str, seen: int) -> None:
        super().__init__(message)
        self.seen = seen
