"""Memory budgets: sizes as users write them, and the default budget of an engine worker.

Light on purpose (no engine imports): the command line reads ``--max-memory`` with it; the
engine workers (:mod:`gqlir.engines.isolated`) are held to the budget.
"""

from __future__ import annotations

import argparse
import os

__all__ = ["default_memory_budget", "memory_size", "parse_memory"]

_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_memory(text: str) -> int:
    """``512M``, ``2G``, ``1.5g`` or a number of bytes, as bytes (ValueError otherwise)."""
    t = text.strip().lower().removesuffix("ib").removesuffix("b")
    unit = t[-1:] if t[-1:] in _UNITS and not t[-1:].isdigit() else ""
    value = float(t[: len(t) - len(unit)])
    if not 0 < value < float("inf"):
        raise ValueError(f"not a positive size: {text!r}")
    return int(value * _UNITS[unit])


def memory_size(text: str) -> int:
    """:func:`parse_memory` as an argparse type."""
    try:
        return parse_memory(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 2G, 512M)") from None


def default_memory_budget(workers: int = 1) -> int | None:
    """A quarter of the machine's physical memory, shared by ``workers`` engine workers (at
    least 256 MiB each); None where the machine does not tell its memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
    return max(total // 4 // max(workers, 1), 256 * 2**20)
