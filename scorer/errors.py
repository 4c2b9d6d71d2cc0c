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
