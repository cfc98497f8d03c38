"""Emitters: Graph-IR to the text of a target dialect.

``emit`` picks the emitter of the dialect's family; each family's emitter reads the dialect's
capabilities and renames, and raises :class:`~gqlir.errors.UnsupportedError` for what the
dialect cannot express with the same meaning. Family emitters are imported on first use, so
importing :mod:`gqlir` stays fast.
"""

from __future__ import annotations

import functools
from importlib import import_module
from typing import Any

from ..dialect import Dialect, get_dialect
from ..errors import UnsupportedError
from ..ir.node import Node
from .base import Generator

__all__ = ["emit", "generator_for"]

#: family -> (module, generator class)
_FAMILIES: dict[str, tuple[str, str]] = {
    "cypher": ("gqlir.emitter.cypher", "CypherGenerator"),
    "gql": ("gqlir.emitter.gql", "GqlGenerator"),
    "sql": ("gqlir.emitter.sql", "SqlGenerator"),
}
#: grammar variants whose emitter is not their family's
_VARIANTS: dict[str, tuple[str, str]] = {
    "sqlpgq": ("gqlir.emitter.sqlpgq", "SqlPgqGenerator"),
}


@functools.cache
def _generator_class(module: str, name: str) -> type[Generator]:
    return getattr(import_module(module), name)  # type: ignore[no-any-return]


def generator_for(dialect: str | Dialect, *, pretty: bool = False, schema: Any = None) -> Generator:
    """A fresh generator for ``dialect`` (one per rendering: it holds layout state).

    ``schema`` is the table mapping a SQL generator lowers patterns through (see
    :mod:`gqlir.sqlmapping`); a GQL generator reads property types from it (so that Cypher's
    ``+`` is written as the one operation the types allow); Cypher families do not read it
    (:func:`emit` gives it to the lowering passes that read it).
    """
    target = get_dialect(dialect)
    entry = _VARIANTS.get(target.grammar) or _FAMILIES.get(target.family)
    if entry is None:
        raise UnsupportedError(f"dialect family {target.family}", target.name)
    cls = _generator_class(*entry)
    if target.family in ("sql", "gql"):
        return cls(target, pretty=pretty, schema=schema)  # type: ignore[call-arg]
    return cls(target, pretty=pretty)


def emit(node: Node, dialect: str | Dialect, *, pretty: bool = False, schema: Any = None) -> str:
    """The text of ``node`` (a query, a step, an expression or a pattern) in ``dialect``:
    lowered by the target's passes (:mod:`gqlir.passes.pipeline`), then printed.

    ``pretty`` puts each clause on its own line and indents subquery bodies.
    """
    generator = generator_for(dialect, pretty=pretty, schema=schema)
    try:
        from ..passes.pipeline import lower

        preflight = getattr(generator, "preflight", None)
        if preflight is not None:
            preflight(node)
        properties = getattr(generator, "property_kinds", None)
        # (the GQL printer's schema, read once: the SchemaGraph its passes read)
        schema = getattr(generator, "graph_schema", schema)
        lowered = lower(node, generator.dialect, properties=properties, schema=schema)
        return generator.generate(lowered)
    except RecursionError:
        raise UnsupportedError(
            "nesting depth",
            generator.dialect.name,
            "the query is nested too deeply to be written out",
            offset=getattr(node, "pos", None),
        ) from None
