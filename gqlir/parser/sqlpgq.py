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

What a form means by its text is read with that form's facts (``dialects/sqlpgq.toml``:
capabilities, and the ``[form]`` facts of :mod:`gqlir.sqlpgqforms`): a graph pattern without a
match mode matches homomorphically (one edge may bind two edge patterns), so the MATCH has
REPEATABLE ELEMENTS unless no two edge patterns could bind one edge; an unquoted name is folded
as the form folds it (upper case in Oracle and the standard, lower case in PostgreSQL), inside
GRAPH_TABLE and around it; ``/`` of two integers keeps its fraction (the IR's float quotient)
where the form's does and truncates in PostgreSQL; DuckPGQ's quantified edge gives one row per
reachable endpoint (ANY SHORTEST over that edge), its names are case insensitive and its
unnamed COLUMNS take their text as name; PostgreSQL's LIKE escapes with a backslash and its
COLUMNS hold no aggregate.
``CREATE``/``DROP PROPERTY GRAPH`` are read by :mod:`.property_graph`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from .. import ir
from ..analysis.aggregates import aggregates
from ..dialect import Dialect
from ..errors import GqlirError, ParseError, UnsupportedError
from ..sqlpgqforms import form_of
from .gql import SPANNER_BINARY, GqlBuilder, _delimited, _Tuple, _val

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


#: SQL's operators inside GRAPH_TABLE: GQL's comparisons and arithmetic, SQL's IN, LIKE, BETWEEN
#: and !=, no XOR (ISO/IEC 9075-2 8.4, 8.5, 8.3); / keeps a quotient's fraction (DIV_FLOAT) where
#: the form's does (form fact ``float_quotients``)
SQLPGQ_BINARY = {k: v for k, v in SPANNER_BINARY.items() if k != "XOR"}


class SqlPgqBuilder(GqlBuilder):
    """Reductions of ``grammars/sqlpgq.lark``: GQL's, plus the GRAPH_TABLE body."""

    #: Value expressions inside GRAPH_TABLE are SQL's (Oracle sqlrf value-expressions-graph_table
    #: .html: they "inherit all the functionality supported in value expressions outside of
    #: GRAPH_TABLE"), so any function of the host SQL may be called, not only GQL's built-ins.
    BUILTINS = None

    BINARY = SQLPGQ_BINARY

    def __init__(self, dialect: Dialect) -> None:
        super().__init__(dialect)
        self.form = form_of(dialect)
        if not self.form.float_quotients:
            # / of two integers truncates (form fact float_quotients): the IR's own /
            self.BINARY = {**SQLPGQ_BINARY, "/": (SQLPGQ_BINARY["/"][0], ir.ArithOp.DIV)}
        # LIKE's escape character when ESCAPE names none (form fact like_escape)
        self.LIKE_ESCAPE = self.form.like_escape_char

    def tuple_expr(self, c: list, pos: int) -> Any:
        return _Tuple(tuple(_val(x) for x in c), pos)

    def _membership(self, container: Any, pos: int) -> ir.Expr:
        """``x IN (a, b)``: membership in the listed values."""
        if isinstance(container, _Tuple):
            return ir.ListLiteral(container.value, pos=container.pos)
        if isinstance(container, ir.Expr):
            return ir.ListLiteral((container,), pos=pos)  # x IN (a)
        raise ParseError("IN needs a parenthesised list of values", offset=pos, code="PARSE_IN")

    def quant_range(self, c: list, pos: int) -> ir.Quantifier:
        q = super().quant_range(c, pos)
        if q.upper is not None and q.upper < q.lower:
            # DuckPGQ: "Lower bound greater than upper bound"; Oracle: the upper bound "should
            # also be greater than or equal to the lower bound"
            raise ParseError(
                f"the quantifier's upper bound {q.upper} is below its lower bound {q.lower}",
                offset=pos,
                code="PARSE_QUANTIFIER",
            )
        return q

    # SQL's tokens (see grammars/sqlpgq.lark): quotes are escaped by doubling, and a backslash
    # is an ordinary character.

    def variable(self, c: list, pos: int) -> str:
        kind, text, start = c[0]
        if kind != "ESCAPED_NAME":
            return fold_name(text, self.form.folds)
        # delimited: a reserved word is a name here ("select" names a graph)
        return _delimited(text[1:-1].replace('""', '"'), start)

    def _function(self, name: str, args: tuple, start: int) -> ir.Expr:
        # SQL's function names are case insensitive: a function the IR does not know keeps its
        # name in lower case, as the IR's own names are
        low = name.lower()
        kind, _, values = args
        if low in ("substring", "substr") and kind == "args" and len(values) in (2, 3):
            return self._substring(values, start)
        return super()._function(low, args, start)

    def substring_from(self, c: list, pos: int) -> ir.Expr:
        """SQL's SUBSTRING(s FROM a [FOR n]) (ISO/IEC 9075-2 6.32), as PostgreSQL writes it."""
        return self._substring(tuple(_val(x) for x in c), pos)

    def _substring(self, values: tuple, start: int) -> ir.Expr:
        """SQL's SUBSTRING(s, from [, for]) counts from 1 (ISO/IEC 9075-2 6.32); the IR's
        from 0. A literal start of 1 or more is the same; another starts differently (SQL
        shortens the length by what lies before position 1), so it is refused."""
        at = values[1]
        if not isinstance(at, ir.Integer) or at.value < 1:
            raise UnsupportedError(
                "SUBSTRING from a position that is not a literal of 1 or more",
                self.dialect.name,
                "SQL's SUBSTRING counts from 1 and takes positions before the string",
                offset=start,
            )
        rest = (values[0], ir.Integer(at.value - 1, pos=at.pos), *values[2:])
        return ir.FunctionCall("substring", rest, pos=start)

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
        graph, pattern, *rest = c
        columns = next((x for x in rest if isinstance(x, tuple)), None)
        if columns is None:
            raise UnsupportedError(
                "GRAPH_TABLE without COLUMNS",
                self.dialect.name,
                "GRAPH_TABLE without COLUMNS returns every property of every element "
                "(DuckPGQ), which only the property graph's definition can list",
                rewrite="name the columns: COLUMNS (x.property AS name, …)",
                offset=pos,
            )
        mode, patterns, where = pattern.value
        if not self.form.both_directions:
            both = [
                x
                for pp in patterns
                for x in pp.walk()
                if isinstance(x, ir.RelPattern) and x.direction is ir.Direction.BOTH
            ]
            if both:
                raise UnsupportedError(
                    "edge direction <->",
                    self.dialect.name,
                    f"{self.dialect.name}'s <-[ ]-> does not match an edge of either direction "
                    f"({self.dialect.sources.get('form.both_directions', '')})",
                    rewrite="-[ ]- for an edge of either direction",
                    offset=both[0].pos,
                )
        if self.dialect.capabilities.quantifier_rows == "endpoint":
            patterns = tuple(self._per_endpoint(pp) for pp in patterns)
        patterns = tuple(_flatten(pp) for pp in patterns)
        if self.form.case_insensitive:
            # names are case insensitive, quoted or not: (B:Person) binds the b of b.name,
            # spelt B
            spell = _first_spellings(patterns)
            patterns = tuple(pp.transform(spell) for pp in patterns)  # type: ignore[misc]
            where = where.transform(spell) if where is not None else None
            columns = tuple(c.transform(spell) for c in columns)  # type: ignore[misc]
        if not edges_may_coincide(patterns):
            # edge uniqueness changes nothing: the IR's canonical mode, whatever was written
            mode = ir.MatchMode.DIFFERENT_EDGES
        return (graph, ir.Match(patterns, where, False, mode, pos=pos), columns)

    def _per_endpoint(self, pp: ir.PathPattern) -> ir.PathPattern:
        """DuckPGQ's quantified edge without a search prefix gives one row per reachable
        endpoint (capability ``quantifier_rows``): the meaning of ANY SHORTEST over the same
        bounds, for a path of one quantified edge between two nodes."""
        quantified = [
            x for x in pp.walk() if isinstance(x, ir.RelPattern) and x.quantifier is not None
        ]
        if not quantified or pp.search is not None:
            return pp
        chain = pp.path
        if not (
            isinstance(chain, ir.PathChain)
            and len(chain.elements) == 3
            and isinstance(chain.elements[1], ir.RelPattern)
        ):
            raise UnsupportedError(
                "quantified edge inside a longer path",
                self.dialect.name,
                "DuckPGQ gives one row per reachable endpoint of a quantified edge; inside a "
                "longer path that has no same-meaning graph pattern",
                rewrite="a path of the quantified edge alone, joined to the rest by a shared "
                "node variable: MATCH (a)-[e]->{1,3}(b), (b)-[f]->(c)",
                offset=quantified[0].pos,
            )
        return replace(pp, search=ir.Search(ir.SearchKind.ANY_SHORTEST, pos=pp.pos))

    def rows_clause(self, c: list, pos: int) -> _Rows:
        return c[0]

    def rows_per_match(self, c: list, pos: int) -> _Rows:
        return _Rows(pos)  # ONE ROW PER MATCH: the default

    def rows_per_vertex(self, c: list, pos: int) -> _Rows:
        raise self._rows(pos, "ONE ROW PER VERTEX")

    def rows_per_step(self, c: list, pos: int) -> _Rows:
        raise self._rows(pos, "ONE ROW PER STEP")

    def _rows(self, pos: int, construct: str) -> UnsupportedError:
        return UnsupportedError(
            construct,
            self.dialect.name,
            f"{construct} (Oracle) makes one row per element of a path; the IR has one row "
            "per match",
            offset=pos,
        )

    def trailing_comma(self, c: list, pos: int) -> _Rows:
        if not self.form.columns_trailing_comma:
            raise ParseError(
                "a COLUMNS list does not end with a comma (DuckPGQ, sqlpgq:duckdb, allows it)",
                offset=pos,
                code="PARSE_UNEXPECTED",
            )
        return _Rows(pos)

    def column_item(self, c: list, pos: int) -> Any:
        return c[0]

    def all_properties(self, c: list, pos: int) -> Any:
        raise UnsupportedError(
            "x.*",
            self.dialect.name,
            "an all-properties reference (x.*) returns the properties of the element's labels, "
            "which only the property graph's definition can list",
            rewrite="name the properties: COLUMNS (x.a, x.b, …)",
            offset=pos,
        )

    def columns_clause(self, c: list, pos: int) -> tuple[ir.ReturnItem, ...]:
        items: list[ir.ReturnItem] = []
        for item in c:
            if isinstance(item, _Rows):
                continue
            expr, alias, text, ipos = item
            if alias is None:
                if isinstance(expr, ir.Property):
                    alias = expr.key  # "the alias defaults to the property name" (Oracle)
                elif self.form.columns_named_by_text:
                    # an unnamed column is named by its expression's text (DuckDB)
                    alias = " ".join(text.split())
                else:
                    raise ParseError(
                        "a COLUMNS item that is not a property reference needs AS name",
                        offset=ipos,
                        code="PARSE_COLUMNS",
                    )
            if not self.form.columns_aggregates and aggregates(expr):
                raise ParseError(
                    f"{self.dialect.name} takes no aggregate in COLUMNS; aggregate in the SELECT "
                    "around it",
                    offset=ipos,
                    code="PARSE_COLUMNS",
                )
            taken = {i.alias.lower() for i in items if i.alias}
            if alias.lower() in taken:
                if not self.form.duplicate_columns_renamed:
                    raise ParseError(
                        f"two COLUMNS are named {alias}",
                        offset=ipos,
                        code="PARSE_COLUMNS",
                    )
                # the names of a subquery's columns made unique with a suffix (DuckDB)
                k = 1
                while f"{alias}_{k}".lower() in taken:
                    k += 1
                alias = f"{alias}_{k}"
            items.append(ir.ReturnItem(expr, alias, pos=ipos))
        return tuple(items)


def fold_name(text: str, folds: str) -> str:
    """An unquoted name as the form reads it: folded to upper or lower case (form fact
    ``folds``), or as written where no folding changes a name."""
    if folds == "upper":
        return text.upper()
    if folds == "lower":
        return text.lower()
    return text


@dataclass(frozen=True)
class _Rows:
    """A clause of GRAPH_TABLE that changes nothing (ONE ROW PER MATCH, a trailing comma)."""

    pos: int


def _flatten(pp: ir.PathPattern) -> ir.PathPattern:
    """A parenthesised path with nothing of its own (no quantifier, WHERE, variable or mode)
    only groups: its elements take its place (PostgreSQL's tests write MATCH ((c)->(o)))."""
    if not isinstance(pp.path, ir.PathChain):
        return pp
    elements: list = []
    for x in pp.path.elements:
        if (
            isinstance(x, ir.ParenPath)
            and x.quantifier is None
            and x.where is None
            and x.variable is None
            and x.mode is None
            and isinstance(x.path, ir.PathChain)
        ):
            elements.extend(x.path.elements)
        else:
            elements.append(x)
    if len(elements) == len(pp.path.elements):
        return pp
    return replace(pp, path=replace(pp.path, elements=tuple(elements)))


def _first_spellings(patterns: tuple) -> Any:
    """A transform that writes every element or path variable as the pattern first spells it,
    ignoring case (DuckDB's names are case insensitive): (B:Person) … b.name reads B."""
    first: dict[str, str] = {}
    for pp in patterns:
        for x in pp.walk():
            name = getattr(x, "variable", None)
            if isinstance(x, (ir.NodePattern, ir.RelPattern, ir.PathPattern)) and name:
                first.setdefault(name.lower(), name)

    def spell(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.Variable) and node.name.lower() in first:
            return replace(node, name=first[node.name.lower()])
        if isinstance(node, (ir.NodePattern, ir.RelPattern, ir.PathPattern)) and node.variable:
            return replace(node, variable=first.get(node.variable.lower(), node.variable))
        return node

    return spell


def edges_may_coincide(patterns: Sequence[ir.PathPattern]) -> bool:
    """Whether one edge could bind two edge patterns of a graph pattern, so that its match
    mode changes its rows: two edge patterns that are not of two different single labels, or
    an edge that repeats (a quantifier that is not {1}, unless the path is a shortest one of
    that edge alone, whose walks repeat no edge)."""
    edges = [x for pp in patterns for x in pp.walk() if isinstance(x, ir.RelPattern)]
    if any(isinstance(x, ir.ParenPath) for pp in patterns for x in pp.walk()):
        return True
    if len(patterns) == 1 and len(edges) == 1:
        (only,) = patterns
        if only.search is not None and only.search.kind in (
            ir.SearchKind.ANY_SHORTEST,
            ir.SearchKind.ALL_SHORTEST,
        ):
            return False
    if any(x.quantifier is not None and x.quantifier.upper != 1 for x in edges):
        return True
    labels = [x.types.name if isinstance(x.types, ir.Label) else None for x in edges]
    return len(edges) > 1 and (None in labels or len(set(labels)) < len(labels))


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
        step = step.transform(swap)  # type: ignore[assignment]
        previous = steps[-1] if steps else None
        if isinstance(step, ir.Filter) and isinstance(previous, ir.Match) and not previous.optional:
            # WHERE around a GRAPH_TABLE filters its matches: the MATCH's own WHERE, which is
            # where the SQL/PGQ writer puts it
            where = step.condition
            if previous.where is not None:
                where = ir.And(previous.where, where, pos=step.pos)
            steps[-1] = replace(previous, where=where)
            continue
        steps.append(step)
    return replace(query, steps=tuple(steps))
