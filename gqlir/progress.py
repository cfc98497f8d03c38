"""What long-running commands (eval, synth) print on stderr: a progress line that rewrites
itself, and, when the run fails, the error after it."""

from __future__ import annotations

import json
import sys

from .errors import GqlirError


def end_progress(quiet: bool) -> None:
    """Finish the progress line, so that what follows starts on a line of its own."""
    if not quiet:
        print(file=sys.stderr)


def report_failure(command: str, exc: GqlirError, *, quiet: bool, as_json: bool) -> int:
    """Print ``exc`` after the progress line (as ``{"error": …}`` on stdout with --json) and
    return the exit code of a failed run."""
    end_progress(quiet)
    if as_json:
        print(json.dumps({"error": exc.to_dict()}, ensure_ascii=False))
    else:
        print(f"gqlir {command}: {exc}", file=sys.stderr)
    return 1
