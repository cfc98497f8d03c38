"""How each form of SQL/PGQ writes and reads ``GRAPH_TABLE``: the facts beyond capabilities.

The data is ``dialects/sqlpgq.toml``'s ``[form]`` table (the standard's form, ISO/IEC
9075-16) with a flavour's ``[flavours.<name>.form]`` over it, each fact with its source in the
matching ``form_sources`` table (``Dialect.sources["form.<field>"]``). The SQL/PGQ printer
(:mod:`gqlir.emitter.sqlpgq`) and reader (:mod:`gqlir.parser.sqlpgq`,
:mod:`gqlir.parser.property_graph`) read a :class:`Form`; neither tests a flavour's name.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache

from .dialect import Dialect
from .errors import DialectError

__all__ = ["Form", "form_of"]


@dataclass(frozen=True)
class Form:
    """How one flavour writes and reads GRAPH_TABLE (defaults: the standard's form)."""

    #: ``IS`` (standard, Oracle, PostgreSQL) or ``:`` (DuckPGQ) before an element's label
    label_keyword: str = "IS"
    #: quantified edges ``-[e]->{m,n}``
    quantifiers: bool = True
    #: GRAPH_TABLE (g <GQL linear query ending in RETURN>) (GoogleSQL)
    returns: bool = False
    #: the case an unquoted name is folded to ("upper", "lower"), or "" where no folding
    #: changes a name's meaning (names are case insensitive, or kept as written)
    folds: str = "upper"
    #: names are case insensitive, quoted or not: ``(B:Person)`` binds the ``b`` of ``b.name``
    case_insensitive: bool = False
    #: ((a)-[e]->(b) WHERE …){m,n}: the standard's quantified path (feature G035)
    quantified_paths: bool = True
    #: <-[e]-> means either direction
    both_directions: bool = True
    #: the escape character LIKE has when none is written ("": none)
    like_escape: str = ""
    #: an unnamed COLUMNS item that is no property reference is named by its text
    columns_named_by_text: bool = False
    #: two COLUMNS of one name are renamed ``x``, ``x_1`` (else an error)
    duplicate_columns_renamed: bool = False
    #: COLUMNS may end with a comma
    columns_trailing_comma: bool = False
    #: COLUMNS may hold an aggregate
    columns_aggregates: bool = True
    #: CREATE PROPERTY GRAPH g with no element tables
    empty_graphs: bool = False
    #: ``/`` of two integers keeps the fraction (7 / 2 is 3.5), read as the IR's float quotient;
    #: else it truncates, as the IR's ``/``
    float_quotients: bool = True
    #: strings compare by the database's collation, not by code point (so min/max of a
    #: property of unknown type may not be Cypher's)
    collated_strings: bool = False

    @property
    def like_escape_char(self) -> str | None:
        return self.like_escape or None


_FIELDS = {f.name for f in fields(Form)}


@cache
def form_of(dialect: Dialect) -> Form:
    """The form of a SQL/PGQ dialect (the standard's for a dialect without form data)."""
    unknown = set(dialect.form) - _FIELDS
    if unknown:
        raise DialectError(f"dialect {dialect.name!r}: unknown form facts {sorted(unknown)}")
    return Form(**dialect.form)
