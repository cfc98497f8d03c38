"""SQL/PGQ → Graph-IR: a hook around sqlglot hands ``GRAPH_TABLE ( … )`` to the GQL grammar.

sqlglot cannot parse ``GRAPH_TABLE (g MATCH … COLUMNS (…))``, so the text is read in two parts:

1. sqlglot's tokenizer finds every ``GRAPH_TABLE (`` and its closing parenthesis (strings and
   comments are single tokens there, so their parentheses do not count); the body goes to
   ``grammars/sqlpgq.lark`` (gql.lark's graph pattern and expression rules) and becomes a MATCH
   step and the COLUMNS items;
2. the SQL around it, with each GRAPH_TABLE replaced by the name of a table that cannot clash
   with a real one, is read by the SQL front end (:mod:`.sql`), which takes that table as a
   derived table: the MATCH, then a projection of the COLUMNS items.

The COLUMNS projection only names values, so it is folded into what follows (every reference
to a column becomes the column's expression): ``SELECT name, count(*) AS n FROM GRAPH_TABLE
(g MATCH (p IS Person) COLUMNS (p.name AS name)) GROUP BY name`` is the IR of ``MATCH
(p:Person) RETURN p.name AS name, count(*) AS n``, which is what
:mod:`gqlir.emitter.sqlpgq` writes that way: SQL/PGQ output reads back to the same IR.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from .. import ir
from ..dialect import Dialect
from ..errors import GqlirError, ParseError
from .gql import GqlBuilder

__all__ = ["GraphTable", "split_graph_tables"]

#: Prefix of the table names standing for GRAPH_TABLE operators in the SQL handed to sqlglot.
PLACEHOLDER = "gqlir graph table "


@dataclass(frozen=True)
class GraphTable:
    """One GRAPH_TABLE operator: its graph, MATCH step and COLUMNS items."""

    graph: str
    match: ir.Match
    columns: tuple[ir.ReturnItem, ...]
    offset: int


class SqlPgqBuilder(GqlBuilder):
    """Reductions of ``grammars/sqlpgq.lark``: GQL's, plus the GRAPH_TABLE body."""

    # SQL's tokens (see grammars/sqlpgq.lark): quotes are escaped by doubling, and a backslash
    # is an ordinary character.

    def variable(self, c: list, pos: int) -> str:
        kind, text, _ = c[0]
        return text[1:-1].replace('""', '"') if kind == "ESCAPED_NAME" else text

    def _string(self, token: tuple) -> str:
        return token[1][1:-1].replace("''", "'")

    def quoted_variable(self, c: list, pos: int) -> str:
        raise ParseError(
            'a name cannot be a string; SQL delimits names with "…"',
            offset=c[0][2],
            code="PARSE_INVALID",
        )

    def parameter(self, c: list, pos: int) -> ir.Parameter:
        text = c[0][1]
        name = text[2:-2] if text.startswith("%") else text[1:]
        return ir.Parameter(name, pos=pos)

    def start(self, c: list, pos: int) -> Any:
        self._check_pending()
        return c[0]

    def graph_table(self, c: list, pos: int) -> tuple:
        graph, pattern, columns = c
        mode, patterns, where = pattern.value
        return (graph, ir.Match(patterns, where, False, mode, pos=pos), columns)

    def columns_clause(self, c: list, pos: int) -> tuple[ir.ReturnItem, ...]:
        items = []
        for expr, alias, _text, ipos in c:
            if alias is None:
                if isinstance(expr, ir.Property):
                    alias = expr.key  # "the alias defaults to the property name" (Oracle)
                else:
                    raise ParseError(
                        "a COLUMNS item that is not a property reference needs AS name",
                        offset=ipos,
                        code="PARSE_COLUMNS",
                    )
            items.append(ir.ReturnItem(expr, alias, pos=ipos))
        return tuple(items)


@cache
def _parser(dialect: Dialect) -> Any:
    from .driver import Parser
    from .tables import load_tables

    return Parser(load_tables("sqlpgq"), SqlPgqBuilder(dialect))


def split_graph_tables(text: str, dialect: Dialect) -> tuple[str, dict[str, GraphTable]]:
    """The SQL with every ``GRAPH_TABLE ( … )`` replaced by a placeholder table name, and what
    each placeholder stands for."""
    from sqlglot.tokens import TokenType

    from .sqlglot_io import tokenize

    tokens = tokenize(text, dialect.sql_dialect or None)
    pieces: list[str] = []
    tables: dict[str, GraphTable] = {}
    cursor = 0
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if (
            tok.text.upper() == "GRAPH_TABLE"
            and i + 1 < len(tokens)
            and tokens[i + 1].token_type == TokenType.L_PAREN
        ):
            depth = 0
            j = i + 1
            while j < len(tokens):
                if tokens[j].token_type == TokenType.L_PAREN:
                    depth += 1
                elif tokens[j].token_type == TokenType.R_PAREN:
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(tokens):
                raise ParseError(
                    "GRAPH_TABLE ( is not closed", text=text, offset=tok.start, code="PARSE_SQL"
                )
            body_start, body_end = tokens[i + 1].end + 1, tokens[j].start
            name = f"{PLACEHOLDER}{len(tables) + 1}"
            tables[name] = _graph_table(text, body_start, body_end, dialect)
            pieces.append(text[cursor : tok.start])
            pieces.append(_quoted(name, dialect))
            cursor = tokens[j].end + 1
            i = j + 1
            continue
        i += 1
    pieces.append(text[cursor:])
    return "".join(pieces), tables


def _quoted(name: str, dialect: Dialect) -> str:
    """The placeholder as an identifier of the flavour (sqlglot quotes it)."""
    from sqlglot import exp

    return exp.to_identifier(name, quoted=True).sql(dialect=dialect.sql_dialect or None)


def _graph_table(text: str, start: int, end: int, dialect: Dialect) -> GraphTable:
    body = text[start:end]
    parser = _parser(dialect)
    parser.builder.begin(body)
    try:
        graph, match, columns = parser.parse(body)
    except GqlirError as exc:
        if exc.offset is not None:
            exc.offset += start
        exc.text = text
        raise
    return GraphTable(graph, match, columns, start)


def fold_columns(query: ir.Query, names: dict[str, ir.Expr]) -> ir.Query:
    """Replace the variables that name GRAPH_TABLE columns by the columns' expressions and drop
    the projection that bound them (it only named values)."""
    if isinstance(query, ir.SetOperation):
        return replace(
            query, left=fold_columns(query.left, names), right=fold_columns(query.right, names)
        )
    if not isinstance(query, ir.LinearQuery):
        return query
    steps: list[ir.Step] = []
    for step in query.steps:
        if (
            isinstance(step, ir.Projection)
            and step.items
            and all(i.alias in names and names[i.alias] == i.expr for i in step.items)
            and not (step.distinct or step.order_by or step.skip or step.limit or step.star)
        ):
            continue

        own = {i.alias for i in step.items} if isinstance(step, ir.Projection) else set()

        def swap(n: ir.Node) -> ir.Node:
            if isinstance(n, ir.Variable) and n.name in names:
                return names[n.name]
            return n

        if isinstance(step, ir.Projection):
            order = tuple(
                s if isinstance(s.expr, ir.Variable) and s.expr.name in own else s.transform(swap)  # type: ignore[misc]
                for s in step.order_by
            )
            step = replace(
                step,
                items=tuple(i.transform(swap) for i in step.items),  # type: ignore[misc]
                order_by=order,
            )
            steps.append(step)
            continue
        steps.append(step.transform(swap))  # type: ignore[arg-type]
    return replace(query, steps=tuple(steps))
