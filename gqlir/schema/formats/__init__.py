"""Schema formats: one module per format, each with a reader and a writer.

A format is named as on the command line: ``gqlir`` (gqlir's own JSON), ``cypherbench``,
``tugraph`` (schema JSON with the ``lgraph_import`` file list) and ``tugraph:procedures``
(``db.createVertexLabel`` / ``db.createEdgeLabel`` calls), ``spanner``, ``gql``,
``sql:<sqlglot dialect>``, ``sqlpgq[:oracle|duckdb|postgres]``, ``neo4j``, ``kuzu``, and the
LLM-facing ``prompt`` (Text2GQL-Bench ``schema.txt``) and ``prompt:cypherbench``.

:func:`write` renders a schema, reads the text back with the same format and reports every
difference (:mod:`gqlir.schema.report`): with ``lossy=False`` (the default) any loss is a
:class:`~gqlir.errors.SchemaError` naming what would be lost; with ``lossy=True`` the text is
returned together with the :class:`~gqlir.schema.report.LossReport`. Differences that lose
nothing (additions, defaults of the same meaning, and what a format module lists in its
``OMITS`` as left out by design) are the report's ``notes`` and never stop a write.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol

from ...errors import SchemaError
from ..model import SchemaGraph
from ..report import LossReport, report


class FormatModule(Protocol):
    def read(self, text: str, variant: str | None, *, name: str = "") -> SchemaGraph: ...

    def write(self, schema: SchemaGraph, variant: str | None) -> str: ...


# format name -> (module, allowed variants; None means any variant, e.g. a sqlglot dialect)
_FORMATS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "gqlir": ("gqlir_json", ()),
    "cypherbench": ("cypherbench", ()),
    "tugraph": ("tugraph", ("procedures",)),
    "spanner": ("spanner", ()),
    "gql": ("gql", ()),
    "sql": ("sql", None),
    "sqlpgq": ("sqlpgq", ("oracle", "duckdb", "postgres")),
    "neo4j": ("neo4j", ()),
    "kuzu": ("kuzu", ()),
    "prompt": ("prompt", ("cypherbench",)),
}


@dataclass(frozen=True)
class FormatName:
    name: str
    variant: str | None

    def __str__(self) -> str:
        return f"{self.name}:{self.variant}" if self.variant else self.name


def format_names() -> list[str]:
    """Every format name as the CLI accepts it."""
    out = []
    for name, (_, variants) in _FORMATS.items():
        out.append(name if name != "sql" else "sql:<dialect>")
        for v in variants or ():
            out.append(f"{name}:{v}")
    return out


def parse_format(spec: str) -> FormatName:
    name, _, variant = spec.strip().partition(":")
    name = name.lower()
    if name not in _FORMATS:
        raise SchemaError(
            f"unknown schema format {spec!r}; known: {', '.join(format_names())}",
            code="SCHEMA_FORMAT",
        )
    allowed = _FORMATS[name][1]
    if name == "sql" and not variant:
        raise SchemaError(
            "the sql format needs a sqlglot dialect: sql:sqlite, sql:postgres, ...",
            code="SCHEMA_FORMAT",
        )
    if variant and allowed is not None and variant.lower() not in allowed:
        raise SchemaError(
            f"format {name!r} has no variant {variant!r}"
            + (f" (variants: {', '.join(allowed)})" if allowed else ""),
            code="SCHEMA_FORMAT",
        )
    return FormatName(name, (variant.lower() if allowed is not None else variant) or None)


def _module(fmt: FormatName) -> FormatModule:
    return importlib.import_module(f"{__name__}.{_FORMATS[fmt.name][0]}")


def read(text: str, fmt: str, *, name: str = "") -> SchemaGraph:
    """Read a schema written in format ``fmt``. ``name`` names the graph when the format has
    no place for a name (SQL, Neo4j, Kuzu, TuGraph, prompt text); formats that carry one
    ignore it."""
    f = parse_format(fmt)
    return _module(f).read(text, f.variant, name=name)


@dataclass(frozen=True)
class WriteResult:
    text: str
    report: LossReport


def write(schema: SchemaGraph, fmt: str, *, lossy: bool = False) -> WriteResult:
    """Render ``schema`` in format ``fmt`` and report what the format could not express.

    Raises :class:`SchemaError` (code ``SCHEMA_LOSSY``, with the report as ``.report``) when
    something would be lost and ``lossy`` is False; notes alone never raise.
    """
    f = parse_format(fmt)
    mod = _module(f)
    text = mod.write(schema, f.variant)
    try:
        back = mod.read(text, f.variant, name=schema.name)
    except SchemaError as exc:
        raise SchemaError(
            f"internal error: {f} could not read back what it wrote: {exc.message}",
            code="SCHEMA_INTERNAL",
        ) from exc
    omits: dict[str | None, frozenset[str]] = getattr(mod, "OMITS", {})
    result = report(str(f), schema, back, omits.get(f.variant, frozenset()))
    if result and not lossy:
        raise result.error()
    return WriteResult(text, result)


def detect_format(text: str) -> str | None:
    """The format a schema text is evidently in, or None when it cannot be told."""
    import json
    import re

    head = text.lstrip()
    if head.startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return None
        if isinstance(data, dict) and data.get("format") == "gqlir-schema":
            return "gqlir"
        if isinstance(data, dict) and "entities" in data:
            return "cypherbench"
        if isinstance(data, (list, dict)) and (isinstance(data, list) or "schema" in data):
            return "tugraph"
        return None
    upper = re.sub(r"\s+", " ", re.sub(r"(--|//)[^\n]*", "", text)).upper()
    if head.startswith(("Node properties:", "Graph description:")):
        return "prompt"
    if "CREATE GRAPH TYPE" in upper or "CREATE PROPERTY GRAPH TYPE" in upper:
        return "gql"
    if "CREATE NODE TABLE" in upper or "CREATE REL TABLE" in upper:
        return "kuzu"
    if "CREATE CONSTRAINT" in upper or (upper.startswith("CREATE INDEX") and " FOR (" in upper):
        return "neo4j"
    if "CALL DB.CREATEVERTEXLABEL" in upper:
        return "tugraph:procedures"
    if "CREATE PROPERTY GRAPH" in upper:
        return "spanner" if ") PRIMARY KEY" in upper else "sqlpgq"
    return None
