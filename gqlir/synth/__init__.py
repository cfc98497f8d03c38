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

from .._lazy import lazy_exports

_EXPORTS = {
    "SynthConfig": "config",
    "SynthError": "errors",
    "Template": "library",
    "load_libraries": "library",
    "load_library": "library",
    "synthesize": "run",
}
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
