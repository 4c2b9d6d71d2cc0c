"""Names the club can keep: a player's or a table's, on every backend."""

from __future__ import annotations

import unicodedata

from scorer.errors import ClubError

MAX_NAME = 100  # characters in a player's or a table's name, on every backend (the columns' size)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's or table's name in the club (on any backend), or None."""
    if not name or not name.strip():
        return "an empty name"
    if len(name) > MAX_NAME:
        return f"{len(name)} characters long (the club keeps names of up to {MAX_NAME})"
    for ch in name:
        category = unicodedata.category(ch)
        if category == "Cc":
            return f"it holds the control character U+{ord(ch):04X}"
        if category == "Cs":
            return f"it holds a lone surrogate U+{ord(ch):04X} (not a character UTF-8 can store)"
    return None


def check_name(name: str, what: str = "name") -> str:
    """``name`` if the club can keep it, else a :class:`ClubError` saying why."""
    problem = name_problem(name)
    if problem:
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ClubError(f"the {what} {shown!r} cannot go into the club database: {problem}")
    return name
