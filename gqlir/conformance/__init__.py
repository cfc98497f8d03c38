"""Conformance material: the openCypher TCK and the JSONL query corpora, read as data.

Kept free of the parser and the IR so that tests and benchmarks can load their inputs without
importing the rest of gqlir (and so that a broken parser cannot hide a broken corpus).
"""

from __future__ import annotations

from .tck import *  # noqa: F403  (the reader's public names are the package's)
from .tck import __all__ as __all__
