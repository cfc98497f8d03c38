"""What long-running commands (eval, synth) print on stderr: a progress line that rewrites
itself, and, when the run fails, the error after it."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from .errors import GqlirError
from .optional import MissingDependencyError


def failure_code(exc: GqlirError) -> int:
    """The exit code of a run that failed with ``exc``: 2 when a package is missing (the run
    could not start, whatever its input: the same code as a usage error), else 1."""
    return 2 if isinstance(exc, MissingDependencyError) else 1


class ProgressLine:
    """A line that rewrites itself on a terminal. Elsewhere (a CI log, a redirected stderr)
    nothing is written while the work runs and the last state once when it ends: one line in
    the log, not thousands of ``\r`` updates."""

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.live = not quiet and self.stream.isatty()
        self.last = ""

    def show(self, text: str) -> None:
        self.last = text
        if self.live:
            print(f"\r{text} ", end="", file=self.stream, flush=True)

    def end(self) -> None:
        """Close the line (on a terminal) or write the summary (elsewhere)."""
        if self.live:
            print(file=self.stream)
        elif not self.quiet and self.last:
            print(self.last, file=self.stream)
        self.last = ""
        self.live = False


def report_failure(command: str, exc: GqlirError, *, as_json: bool) -> int:
    """Print ``exc`` (as ``{"error": …}`` on stdout with --json), after the progress line has
    ended, and return the exit code of a failed run."""
    if as_json:
        print(json.dumps({"error": exc.to_dict()}, ensure_ascii=False))
    else:
        print(f"gqlir {command}: {exc}", file=sys.stderr)
    return failure_code(exc)
