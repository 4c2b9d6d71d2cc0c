"""Domino table scorer: reads a domino table from a webcam and keeps the score."""

from scorer.errors import CardError, IllegalMove, LogFormatError, RulesError, ScorerError, TableError

__version__ = "0.1.0"
__all__ = ["ScorerError", "RulesError", "IllegalMove", "TableError", "LogFormatError", "CardError", "__version__"]
