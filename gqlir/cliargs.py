"""Command-line options every ``gqlir`` command takes, for the main CLI and the subsystem
packages that add their own commands (``add_commands``) without importing :mod:`gqlir.cli`."""

from __future__ import annotations

import argparse

__all__ = ["add_common_arguments"]


def add_common_arguments(p: argparse.ArgumentParser) -> None:
    """``--json`` and ``--debug``."""
    p.add_argument("--json", action="store_true", help="print results and errors as JSON")
    p.add_argument(
        "--debug",
        action="store_true",
        help="let internal errors raise with a traceback (for gqlir developers)",
    )
