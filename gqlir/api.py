"""The library entry points behind ``gqlir.parse`` / ``emit`` / ``transpile`` / ``validate``."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack

from . import ir
from .dialect import Dialect, get_dialect
from .errors import DialectError, GqlirError, ParseError, UnsupportedError
from .optional import MissingDependencyError
from .parser import parse as _parse

if TYPE_CHECKING:
    from .schema.checks import SchemaIssue
    from .schema.model import SchemaGraph
    from .schema.relational import RelationalSchema
    from .sqlmapping import SqlMapping


type SchemaSource = SchemaGraph | RelationalSchema | SqlMapping | str | os.PathLike[str]
"""What ``schema=`` accepts everywhere (what :func:`gqlir.sqlmapping.mapping_for` reads): a
SchemaGraph, a RelationalSchema (tables first), a SqlMapping, or the path of a graph folder
(``schemas/movies``), a schema file in any format gqlir reads, a SQL DDL file or a database."""


class EmitOptions(TypedDict, total=False):
    """The options of the emitters, as keyword arguments of :func:`emit` and :func:`transpile`.

    ``pretty``: one clause per line (every target). ``graph``: the graph the query reads,
    written as ``GRAPH g`` (Spanner) or ``USE g`` (other GQL targets) unless the query names one
    (GQL targets). ``spanner_elements``: ``"refuse"`` (default) or ``"to_json"``, what to do with
    a graph element in the result of a target that cannot return one (targets with a JSON
    function for elements: Spanner). ``rename_variables``: rename variables whose names are
    reserved in the target (default on; GQL targets).
    """

    pretty: bool
    graph: str | None
    spanner_elements: Literal["refuse", "to_json"]
    rename_variables: bool


def emit_options(dialect: str | Dialect) -> tuple[str, ...]:
    """The emitter options ``dialect`` takes as a target (see :class:`EmitOptions`)."""
    d = get_dialect(dialect)
    if d.family != "gql":
        return ("pretty",)
    if d.capabilities.element_json_function:
        return ("pretty", "graph", "spanner_elements", "rename_variables")
    return ("pretty", "graph", "rename_variables")


def _check_options(
    options: Mapping[str, object], dialect: str | Dialect, *, also: Sequence[str] = ()
) -> None:
    """Refuse an option the target does not take, naming the ones it takes: an ignored option
    would change nothing silently."""
    if not options:
        return
    taken = emit_options(dialect)
    for name in options:
        if name not in taken and name not in also:
            what = "an option of" if name in EmitOptions.__annotations__ else "an emitter option of"
            raise DialectError(
                f"{name!r} is not {what} target {get_dialect(dialect).name}: it takes "
                + ", ".join(taken),
                code="EMIT_OPTION",
            )


@functools.cache
def _gql_emitter() -> Callable[..., str]:
    """:func:`gqlir.emitter.gql.emit_gql`, imported on first use (``import gqlir`` stays light)
    and then without an import statement per query."""
    from .emitter.gql import emit_gql

    return emit_gql


@functools.cache
def _lowering() -> Callable[..., ir.Node]:
    """:func:`gqlir.passes.pipeline.lower`, imported on first use (as :func:`_gql_emitter`)."""
    from .passes.pipeline import lower

    return lower


def parse(
    text: str,
    dialect: str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    graph: str | None = None,
) -> ir.Statement:
    """A query, or a schema or catalog command (``CREATE INDEX …``). ``schema`` maps tables to node and edge types when ``dialect`` is SQL (ignored
    otherwise): a graph folder, a schema or DDL file, a database, or a schema object.
    ``graph`` names the graph a Spanner query without a GRAPH clause reads."""
    return _parse(text, get_dialect(dialect), schema=schema, graph=graph)


def emit(
    query: ir.Node,
    dialect: str | Dialect = "neo4j",
    *,
    schema: SchemaSource | None = None,
    **options: Unpack[EmitOptions],
) -> str:
    """``schema`` gives the tables a SQL target reads and the property types a GQL target
    writes operators by (Cypher targets do not read it). A SQL target without one reads a
    table per label and relationship type the query names (:mod:`gqlir.schema.inferred`). ``options``: see :class:`EmitOptions`;
    one the target does not take raises :class:`DialectError` (code ``EMIT_OPTION``)."""
    _check_options(options, dialect)
    target = get_dialect(dialect)
    if target.family == "gql":
        return _gql_emitter()(query, target, schema=schema, **options)
    from .emitter import emit as _emit

    if schema is None and target.grammar == "sql":
        from .schema.inferred import schema_of_query

        schema = schema_of_query(query)  # a table per label and relationship type
    return _emit(query, target, schema=schema, pretty=options.get("pretty", False))


def transpile(
    text: str,
    read: str = "neo4j",
    write: str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    **options: Unpack[EmitOptions],
) -> str:
    """Translate ``text``; ``schema`` is the table mapping of a SQL source or target.
    ``graph`` is the graph the query reads: a source that must name its graph (Spanner) and
    does not reads it, and a GQL target writes it (see :class:`EmitOptions`)."""
    reads_graph = get_dialect(read).capabilities.graph_prefix_required
    _check_options(options, write, also=("graph",) if reads_graph else ())
    graph = options.get("graph")
    if "graph" not in emit_options(write):
        options.pop("graph", None)
    try:
        query = parse(text, read, schema=schema, graph=graph)
        return translate(query, read, write, schema=schema, **options)
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        raise


def translate(
    query: ir.Node,
    read: str,
    write: str,
    *,
    schema: SchemaSource | None = None,
    writer: Callable[[ir.Node], str] | None = None,
    **options: Unpack[EmitOptions],
) -> str:
    """``query``, read from dialect ``read``, in dialect ``write``. What the target refuses is
    tried once more with its constant parts folded to values (``range(1, 3)`` is a list the
    target may write). ``writer`` replaces the emitter: a function from a query to its text."""
    _check_options(options, write)
    target = get_dialect(write)
    write_query = writer or (lambda q: emit(q, target, schema=schema, **options))
    query = _lowering()(query, target, source=get_dialect(read), by_source=True)
    try:
        return write_query(query)
    except UnsupportedError as refused:
        from .passes.fold import fold_constants
        from .refusals import all_refusals

        # the query's other refusals, looked for only when asked (exc.all_refusals())
        refused._others = lambda first=refused: all_refusals(query, first, write_query)
        if refused.node is query or not isinstance(query, ir.Statement):
            raise  # (a refusal of the query as a whole, such as a graph it does not name)
        folded = fold_constants(query, get_dialect(read).name)
        if folded is query:
            raise
        try:
            return write_query(folded)
        except UnsupportedError:
            raise refused from None


@dataclass(frozen=True)
class ValidationResult:
    """Whether a query is valid in a dialect: ``error`` is the first problem, ``schema_issues``
    every mismatch with the schema (when one was given)."""

    valid: bool
    dialect: str
    error: GqlirError | None = None
    schema_issues: tuple[SchemaIssue, ...] = ()

    def __bool__(self) -> bool:
        return self.valid

    @property
    def errors(self) -> tuple[GqlirError, ...]:
        """Every problem found: the grammar or dialect error, then each schema issue."""
        if self.error is None or self.error in self.schema_issues:
            return self.schema_issues
        return (self.error, *self.schema_issues)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "dialect": self.dialect}
        if self.error is not None:
            out["error"] = self.error.to_dict()
        if self.schema_issues:
            out["schema_issues"] = [i.to_dict() for i in self.schema_issues]
        return out


def graph_schema(schema: SchemaSource) -> SchemaGraph:
    """``schema`` as a SchemaGraph: one already, or read from a graph folder, a schema file in
    any format gqlir reads, a SQL DDL file or a database (a missing path is a SchemaError)."""
    from .schema.model import SchemaGraph

    if isinstance(schema, SchemaGraph):
        return schema
    from .sqlmapping import mapping_for

    return mapping_for(schema).schema


def validate(
    text: str,
    dialect: str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    graph: str | None = None,
) -> ValidationResult:
    """Valid means: the dialect's grammar accepts the text, the dialect can express every
    construct in it (the grammar of a family is shared more widely than its features are), and
    with a ``schema`` on a graph dialect, the query fits it (:mod:`gqlir.schema.checks`: every
    unknown label, type or property and wrong direction, with positions and suggestions).
    ``graph`` names the graph a Spanner query without a GRAPH clause reads. A schema that
    cannot be read raises :class:`SchemaError`."""
    d = get_dialect(dialect)
    checked = graph_schema(schema) if schema is not None and d.family != "sql" else None
    try:
        query = parse(text, d.name, schema=schema, graph=graph)
    except MissingDependencyError:
        raise  # the text was not checked: saying it is invalid would be wrong
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        return ValidationResult(False, d.name, exc)
    issues: tuple[SchemaIssue, ...] = ()
    if checked is not None:
        from .schema.checks import check

        issues = tuple(check(query, checked, text))
    try:
        emit(query, d.name, schema=schema)
    except MissingDependencyError:
        raise
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        return ValidationResult(False, d.name, exc, issues)
    if issues:
        return ValidationResult(False, d.name, issues[0], issues)
    return ValidationResult(True, d.name)


def check_query(text: str, dialect: str, schema: SchemaGraph) -> list[SchemaIssue]:
    """Parse ``text`` and check it against ``schema`` (:func:`gqlir.schema.checks.check`; parse
    errors are raised). It lives here, not in :mod:`gqlir.schema`, because it reads text: the
    schema package sits below the parsers."""
    from .schema.checks import check

    return check(parse(text, dialect), schema, text)


def with_graph(text: str, dialect: str, graph: str | None) -> str:
    """``text`` with a GRAPH clause naming ``graph`` in front, when ``dialect`` requires one and
    the text has none (Text2GQL-Bench's Spanner corpora leave the clause to the driver, which
    adds it before it runs a query); otherwise ``text`` unchanged. For engines and checkers
    that read the text itself rather than gqlir's IR."""
    d = get_dialect(dialect)
    if graph is None or not d.capabilities.graph_prefix_required:
        return text
    try:
        parse(text, d.name)
    except ParseError as exc:
        if exc.code != "PARSE_NO_GRAPH":
            return text  # another fault: whoever reads the text reports it
        from .emitter import generator_for

        generator = generator_for(d)
        name = ".".join(generator.identifier(part) for part in graph.split("."))
        return "GRAPH " + name + "\n" + text
    except GqlirError:
        return text  # read but not expressible: the text itself is what runs
    return text
