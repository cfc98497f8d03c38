"""Benchmark synthesis: template-based, schema-guided, data-backed generation of verified
(question, query) pairs in every dialect gqlir writes (docs/synth.md).

Templates are IR queries with typed holes (:mod:`.holes`), written as Cypher skeletons in
TOML libraries (``templates/``) and compiled once (:mod:`.compiler`). A run binds each
template on a schema and its graph (:mod:`.binder`), instantiates it (:mod:`.instantiate`),
emits it in every dialect (:mod:`.emitting`), executes it (:mod:`.execute`), labels it
(:mod:`.labels`), asks it in English (:mod:`.questions`, :mod:`.rewriters`) and writes the
dataset (:mod:`.dataset`).
"""

from __future__ import annotations

from .config import SynthConfig
from .errors import SynthError
from .library import Template, load_libraries, load_library
from .run import synthesize

__all__ = [
    "SynthConfig",
    "SynthError",
    "Template",
    "load_libraries",
    "load_library",
    "synthesize",
]
