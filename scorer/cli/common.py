"""What every family of commands shares."""

from __future__ import annotations

from typing import Callable

# The exit status of input the scorer cannot take (a bad log, a board before that breaks the rules).
EXIT_BAD_INPUT = 2


def sentences_in(lang: str) -> Callable[[str], str]:
    """The camera's questions and notices, the layout's problems and the rules' refusals (made of
    :class:`~scorer.words.Words`) said in ``lang`` as the app says them, from its translations; in English
    as they are."""
    if lang == "en":
        return str
    from scorer.app.wording import said_in  # (Qt's translations: loaded only where another language is asked for)

    return said_in(lang)
