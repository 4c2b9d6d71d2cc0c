"""What every family of commands shares."""

from __future__ import annotations

import argparse
from typing import Callable, TextIO

EXIT_BAD_INPUT = 2

# A command's handler: the parsed arguments, standard output and error; the exit status.
Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]
