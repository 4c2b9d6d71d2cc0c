"""What every family of commands shares."""

from __future__ import annotations

# The exit status of input the scorer cannot take (a bad log, a board before that breaks the rules).
EXIT_BAD_INPUT = 2
