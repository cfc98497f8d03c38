"""The Cypher builder: grammar reductions of ``grammars/cypher.lark`` straight into Graph-IR.

Each method is named after a rule (or rule alias) and receives the rule's kept children and the
offset where the rule starts. Tokens arrive as ``(terminal, text, offset)`` tuples. Nothing here
builds a parse tree: the IR is the only output.

The source dialect's defaults that change meaning are made explicit here: the default match
mode (edge uniqueness) and where nulls sort.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import ir
from ..analysis.aggregates import aggregates
from ..dialect import Dialect
from ..errors import ParseError, SemanticError, UnsupportedError
from ..ir import functions
from ..ir.analysis import reads_only
from ..ir.query import UPDATING_STEPS
from .aggregates import coalesced, null_below
from .literals import (
    INT64_MAX,
    decode_float,
    decode_integer,
    decode_leading_zero_octal,
    decode_string,
    unquote_identifier,
)

# -- markers: values that exist only between reductions -------------------------------------------


class _Marker:
    __slots__ = ("pos", "value")

    def __init__(self, value: Any, pos: int) -> None:
        self.value = value
        self.pos = pos


class _Where(_Marker):
    """``WHERE expr`` inside a rule."""


class _Projected(_Marker):
    """``| expr`` of a list comprehension."""


class _PathAssign(_Marker):
    """``p =`` before a path pattern."""


class _Worded(_Marker):
    """A quantifier or relationship with Kuzu's word after the ``*`` (a path mode or a
    shortest search), which belongs to the whole path pattern: ``(thing, word)``."""


class _Scope(_Marker):
    """The ``(a, b)`` / ``(*)`` / ``()`` of CALL."""


class _Else(_Marker):
    pass


class _Return(_Marker):
    """A RETURN projection, which must be the last clause."""


class _NotNull(_Marker):
    pass


class _Skip(_Marker):
    pass


class _Limit(_Marker):
    pass


class _Op(_Marker):
    """An operator inside a flat expression: prefix, binary or postfix."""

    __slots__ = ("kind",)

    def __init__(self, kind: str, value: Any, pos: int) -> None:
        super().__init__(value, pos)
        self.kind = kind


class _CoverNode(_Marker):
    """``(n:L {k: v})`` read as an expression, awaiting an arrow to become a node pattern."""


class _PatternExpr:
    """A pattern written as an expression (``(a)-->(b)``). It is only valid as a predicate
    (WHERE, NOT/AND/OR operands, ``exists()``) or in a pattern comprehension; the builder turns
    it into :class:`ir.Exists` there and reports it anywhere else."""

    __slots__ = ("path", "pos", "variable")

    def __init__(self, path: ir.PathChain, variable: str | None, pos: int) -> None:
        self.pos = pos
        self.path = path
        self.variable = variable


# -- operator table ----------------------------------------------------------------------------

# Binding powers, loosest first. Binary operators are left-associative.
_OR, _XOR, _AND, _NOT, _CMP, _PRED, _ADD, _MUL, _POW, _UNARY = (
    10,
    20,
    30,
    40,
    50,
    60,
    70,
    80,
    90,
    100,
)

_BINARY: dict[str, tuple[int, Any]] = {
    "OR": (_OR, ir.Or),
    "XOR": (_XOR, ir.Xor),
    "AND": (_AND, ir.And),
    "=": (_CMP, ir.CompOp.EQ),
    "<>": (_CMP, ir.CompOp.NE),
    "!=": (_CMP, ir.CompOp.NE),
    "<": (_CMP, ir.CompOp.LT),
    ">": (_CMP, ir.CompOp.GT),
    "<=": (_CMP, ir.CompOp.LE),
    ">=": (_CMP, ir.CompOp.GE),
    "=~": (_PRED, ir.RegexMatch),
    "IN": (_PRED, ir.In),
    "CONTAINS": (_PRED, ir.StringOp.CONTAINS),
    "STARTS WITH": (_PRED, ir.StringOp.STARTS_WITH),
    "ENDS WITH": (_PRED, ir.StringOp.ENDS_WITH),
    "+": (_ADD, ir.ArithOp.ADD),
    "-": (_ADD, ir.ArithOp.SUB),
    "||": (_ADD, ir.Concat),
    "*": (_MUL, ir.ArithOp.MUL),
    "/": (_MUL, ir.ArithOp.DIV),
    "%": (_MUL, ir.ArithOp.MOD),
    "^": (_POW, ir.ArithOp.POW),
}
# "!" is TuGraph GQL's NOT at unary precedence (MySQL's, which GEAX follows: !a > b is
# (!a) > b; deps/geax-front-end/test/case/isogql/0014_precedence.test); "~" its bit inversion.
_PREFIX = {"NOT": _NOT, "-": _UNARY, "+": _UNARY, "!": _UNARY, "~": _UNARY}
# Longest runs the builder folds into left-deep IR (operator chains, postfix chains, unions):
# the depth they create is not bounded by the parser's stack, so it is bounded here.
_MAX_PREFIX_RUN = 200
MAX_CHAIN = 1000


def _check_chain(length: int, pos: int) -> None:
    if length > MAX_CHAIN:
        raise _err(f"more than {MAX_CHAIN} operators in a row", pos, "PARSE_TOO_DEEP")


_TEMPORAL = {
    "date": ir.TemporalKind.DATE,
    "localtime": ir.TemporalKind.LOCAL_TIME,
    "time": ir.TemporalKind.TIME,
    "localdatetime": ir.TemporalKind.LOCAL_DATETIME,
    "datetime": ir.TemporalKind.DATETIME,
    "duration": ir.TemporalKind.DURATION,
}

_TYPE_SYNONYMS = {
    "BOOL": "BOOLEAN",
    "INT": "INTEGER",
    "INT64": "INTEGER",
    "SIGNED INTEGER": "INTEGER",
    "FLOAT64": "FLOAT",
    "VARCHAR": "STRING",
    "TIME WITHOUT TIME ZONE": "LOCAL TIME",
    "TIME WITH TIME ZONE": "ZONED TIME",
    "TIMESTAMP WITHOUT TIME ZONE": "LOCAL DATETIME",
    "TIMESTAMP WITH TIME ZONE": "ZONED DATETIME",
    "ANY NODE": "NODE",
    "VERTEX": "NODE",
    "ANY VERTEX": "NODE",
    "ANY RELATIONSHIP": "RELATIONSHIP",
    "EDGE": "RELATIONSHIP",
    "ANY EDGE": "RELATIONSHIP",
    "ANY MAP": "MAP",
    "ANY PATH": "PATH",
    "ANY VALUE": "ANY",
    "ANY PROPERTY VALUE": "PROPERTY VALUE",
    "NOTHING": "NOTHING",
}


def _err(message: str, pos: int, code: str = "PARSE_INVALID") -> ParseError:
    return ParseError(message, offset=pos, code=code)


class CypherBuilder:
    """Reduction callbacks for the Cypher grammar family."""

    WANTS_END = frozenset({"projection_item"})
    #: binary operators: text -> (binding power, meaning); and who climbs them (set below)
    BINARY: dict[str, tuple[int, Any]] = _BINARY
    PRATT: type[_Pratt]

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        caps = dialect.capabilities
        self.default_mode = ir.MatchMode[caps.default_match_mode]
        self.nulls_high = caps.nulls_sort_high
        self.colon_means_or = caps.colon_labels == "or"
        self.index_base = caps.list_index_base
        self.keyword_only = dialect.keyword_only
        #: For the driver: rules whose value is the token's text except for these token kinds:
        #: ``variable``, where no word of the dialect is a keyword only and the class that
        #: defines ``variable`` says its method returns the text (VARIABLE_IS_TEXT, declared
        #: beside the method, so that a subclass overriding it does not inherit the promise).
        owner = next(k for k in type(self).__mro__ if "variable" in k.__dict__)
        is_text = owner.__dict__.get("VARIABLE_IS_TEXT", False)
        self.text_rules = (
            {"variable": frozenset({"ESCAPED_NAME"})} if is_text and not self.keyword_only else {}
        )
        self.octal_zero = caps.leading_zero_octal
        self.text = ""
        self.last_end = 0
        self.pending: list[int] = []  # offsets of pattern expressions not yet accepted
        self.pending_overflow: list[int] = []  # offsets of 2**63 literals not yet negated

    def begin(self, text: str) -> None:
        self.text = text
        self.pending = []
        self.pending_overflow = []

    # -- helpers -----------------------------------------------------------------------------

    def _predicate(self, value: Any) -> ir.Expr:
        """A value in predicate position: a bare pattern becomes an existence test."""
        if isinstance(value, _PatternExpr):
            self.pending.remove(value.pos)
            if value.variable is not None:
                raise _err("a path variable cannot be bound in a pattern predicate", value.pos)
            return self._exists_pattern(value.path, value.pos)
        return value

    def _exists_pattern(self, path: ir.PathChain, pos: int) -> ir.Exists:
        match = ir.Match((ir.PathPattern(path, pos=pos),), mode=self.default_mode, pos=pos)
        return ir.Exists(ir.LinearQuery((match,), pos=pos), pattern_predicate=True, pos=pos)

    # -- names -------------------------------------------------------------------------------

    #: ``variable`` returns the token's text for every kind but ESCAPED_NAME (where no word is
    #: a keyword only): see ``text_rules``.
    VARIABLE_IS_TEXT = True

    def variable(self, c: list, pos: int) -> str:
        token = c[0]
        if token[0] == "ESCAPED_NAME":
            return unquote_identifier(token[1])
        if self.keyword_only:
            return self._name(token)
        return token[1]

    def keyword(self, c: list, pos: int) -> str:
        return self._name(c[0])

    def _name(self, token: tuple) -> str:
        """An unescaped name, unless the dialect's grammar has that word as a keyword only."""
        if token[1].upper() in self.keyword_only:
            raise _err(
                f"{token[1]} is a keyword of {self.dialect.name}, not a name: escape it "
                f"(`{token[1]}`) to use it as one",
                token[2],
                "PARSE_KEYWORD",
            )
        return token[1]

    def symbolic_name(self, c: list, pos: int) -> str:
        return c[0]

    # -- top level ---------------------------------------------------------------------------

    def start(self, c: list, pos: int) -> ir.Statement:
        statement = c[-1]
        self._check_pending()
        return statement

    def _check_pending(self) -> None:
        """What the whole statement had to settle: patterns used as values, 2**63 unnegated."""
        if self.pending:
            raise _pattern_value(self.pending[0])
        if self.pending_overflow:
            raise _err(
                "integer literal is too large", self.pending_overflow[0], "PARSE_INTEGER_OVERFLOW"
            )

    def prefix_options(self, c: list, pos: int) -> None:
        return None

    def query(self, c: list, pos: int) -> ir.Query:
        if len(c) == 1 and isinstance(c[0], ir.Query):
            return c[0]  # one part, no NEXT: the usual query
        parts = [x for x in c if isinstance(x, ir.Query)]
        if len(parts) == 1:
            return parts[0]
        steps: list[ir.Step] = []
        for i, part in enumerate(parts):
            if not isinstance(part, ir.LinearQuery):
                raise UnsupportedError(
                    "NEXT after a composite query",
                    self.dialect.name,
                    "a UNION or conditional query followed by NEXT has no linear form yet",
                    offset=part.pos,
                )
            if i < len(parts) - 1 and not isinstance(part.steps[-1], ir.Projection):
                raise _err("the query before NEXT must end with RETURN", part.pos or pos)
            steps.extend(part.steps)
        return ir.LinearQuery(tuple(steps), pos=pos)

    def query_part(self, c: list, pos: int) -> ir.Query:
        if len(c) == 1:
            return c[0]  # no UNION
        _check_chain(len(c) // 2, pos)
        result = c[0]
        union_all: bool | None = None
        for i in range(1, len(c), 2):
            op_all, op_pos = c[i]
            if union_all is not None and union_all != op_all:
                raise SemanticError(
                    "UNION and UNION ALL cannot be mixed in one query",
                    offset=op_pos,
                    code="SEMANTIC_UNION_MIX",
                )
            union_all = op_all
            result = ir.SetOperation(ir.SetOp.UNION, result, c[i + 1], all=op_all, pos=op_pos)
        return result

    def union_op(self, c: list, pos: int) -> tuple[bool, int]:
        return (len(c) > 1 and c[1][1].upper() == "ALL", pos)

    def single_query(self, c: list, pos: int) -> ir.LinearQuery:
        steps: list[ir.Step] = []
        last = len(c) - 1
        for i, clause in enumerate(c):
            if isinstance(clause, ir.ProcedureCall) and clause.yield_star and last > 0:
                raise _err("YIELD * is only allowed in a standalone procedure call", clause.pos)
            if isinstance(clause, tuple):
                if i > 0 and _is_plain_star(clause[0]):
                    # `WITH *` passes every variable on unchanged: it is no step at all. (As the
                    # first clause of a subquery it imports the outer scope, so it stays there.)
                    clause = clause[1:]
                steps.extend(clause)
            elif isinstance(clause, _Return):
                if i != last:
                    raise _err("RETURN can only be used at the end of a query", clause.pos)
                steps.append(clause.value)
            else:
                if isinstance(clause, ir.Finish) and i != last:
                    raise _err("FINISH can only be used at the end of a query", clause.pos or pos)
                steps.append(clause)
        return ir.LinearQuery(tuple(steps), pos=pos)

    def conditional_query(self, c: list, pos: int) -> ir.ConditionalQuery:
        branches = tuple(x for x in c if isinstance(x, ir.ConditionalBranch))
        otherwise = next((x.value for x in c if isinstance(x, _Else)), None)
        return ir.ConditionalQuery(branches, otherwise, pos=pos)

    def when_branch(self, c: list, pos: int) -> ir.ConditionalBranch:
        return ir.ConditionalBranch(self._predicate(c[0]), c[1], pos=pos)

    def else_branch(self, c: list, pos: int) -> _Else:
        return _Else(c[0], pos)

    # -- reading clauses ---------------------------------------------------------------------

    def match_clause(self, c: list, pos: int) -> ir.Match:
        optional = False
        mode = self.default_mode
        where = None
        patterns: tuple = ()
        for x in c:
            if isinstance(x, tuple) and x and isinstance(x[0], str):
                optional = True
            elif isinstance(x, ir.MatchMode):
                mode = x
            elif isinstance(x, _Where):
                where = x.value
            else:
                patterns = x
        return ir.Match(patterns, where, optional, mode, pos=pos)

    def match_mode(self, c: list, pos: int) -> ir.MatchMode:
        if c[0][1].upper() == "REPEATABLE":
            return ir.MatchMode.REPEATABLE_ELEMENTS
        return ir.MatchMode.DIFFERENT_EDGES

    def where(self, c: list, pos: int) -> _Where:
        return _Where(self._predicate(c[0]), pos)

    element_where = where

    def unwind_clause(self, c: list, pos: int) -> ir.Unwind:
        return ir.Unwind(c[0], c[1], pos=pos)

    def with_clause(self, c: list, pos: int) -> tuple:
        projection = self._projection(c[0], pos, final=False)
        if _is_let(projection):
            # `WITH *, e AS y` keeps every variable and adds y: that is LET y = e.
            bindings = tuple(ir.Binding(i.alias, i.expr, pos=i.pos) for i in projection.items)
            projection = ir.Let(bindings, pos=pos)
        if len(c) > 1:
            where = c[1].value
            narrow = isinstance(projection, ir.Projection)
            if narrow and not _sees_only_projected(where, projection):
                # The WHERE reads a variable the WITH drops: it filters inside the projection.
                return (replace(projection, where=where),)
            return (projection, ir.Filter(where, pos=c[1].pos))
        return (projection,)

    def return_clause(self, c: list, pos: int) -> _Return:
        return _Return(self._projection(c[0], pos, final=True), pos)

    def _projection(self, body: dict, pos: int, final: bool) -> ir.Projection:
        items = []
        for expr, alias, text, ipos in body["items"]:
            if alias is None:
                if isinstance(expr, ir.Variable):
                    alias = expr.name
                elif final:
                    alias = text
                else:
                    raise SemanticError(
                        "expression in WITH must be aliased (use AS)",
                        offset=ipos,
                        code="SEMANTIC_NO_ALIAS",
                    )
            items.append(ir.ReturnItem(expr, alias, pos=ipos))
        return ir.Projection(
            tuple(items),
            star=body["star"],
            distinct=body["distinct"],
            order_by=body["order"],
            skip=body["skip"],
            limit=body["limit"],
            pos=pos,
        )

    def projection_body(self, c: list, pos: int) -> dict:
        if len(c) == 1 and isinstance(c[0], dict):  # items only: the usual RETURN / WITH
            items = c[0]
            return {
                "distinct": False,
                "star": items["star"],
                "items": items["items"],
                "order": (),
                "skip": None,
                "limit": None,
            }
        body = {
            "distinct": False,
            "star": False,
            "items": (),
            "order": (),
            "skip": None,
            "limit": None,
        }
        for x in c:
            if isinstance(x, tuple) and len(x) == 3 and x[0] == "DISTINCT":
                body["distinct"] = True
            elif isinstance(x, dict):
                body["star"] = x["star"]
                body["items"] = x["items"]
            elif isinstance(x, _Skip):
                body["skip"] = x.value
            elif isinstance(x, _Limit):
                body["limit"] = x.value
            else:
                body["order"] = x
        return body

    def projection_items(self, c: list, pos: int) -> dict:
        star = bool(c) and isinstance(c[0], tuple) and len(c[0]) == 3 and c[0][0] == "STAR"
        items = tuple(c[1:] if star else c)
        return {"star": star, "items": items}

    def projection_item(self, c: list, pos: int) -> tuple:
        expr = c[0]
        if isinstance(expr, _PatternExpr):  # _value, inline: a projection item is a value
            raise _pattern_value(expr.pos)
        if len(c) > 1:
            return (expr, c[1], None, pos)
        return (expr, None, self.text[pos : self.last_end], pos)

    def order_by(self, c: list, pos: int) -> tuple:
        return tuple(c)

    def sort_item(self, c: list, pos: int) -> ir.SortItem:
        descending = len(c) > 1 and c[1]
        return ir.SortItem(c[0], descending, descending == self.nulls_high, pos=pos)

    def sort_direction(self, c: list, pos: int) -> bool:
        return c[0][1].upper().startswith("DESC")

    def skip(self, c: list, pos: int) -> _Skip:
        return _Skip(c[0], pos)

    def limit(self, c: list, pos: int) -> _Limit:
        return _Limit(c[0], pos)

    def order_clause(self, c: list, pos: int) -> ir.Projection:
        order: tuple = ()
        skip = limit = None
        for x in c:
            if isinstance(x, _Skip):
                skip = x.value
            elif isinstance(x, _Limit):
                limit = x.value
            else:
                order = x
        return ir.Projection(star=True, order_by=order, skip=skip, limit=limit, pos=pos)

    def filter_clause(self, c: list, pos: int) -> ir.Filter:
        return ir.Filter(self._predicate(c[-1]), pos=pos)

    def let_clause(self, c: list, pos: int) -> ir.Let:
        return ir.Let(tuple(c), pos=pos)

    def let_binding(self, c: list, pos: int) -> ir.Binding:
        return ir.Binding(c[0], c[1], pos=pos)

    def use_clause(self, c: list, pos: int) -> ir.UseGraph:
        return ir.UseGraph(c[0], pos=pos)

    def graph_name(self, c: list, pos: int) -> str:
        return ".".join(c)

    def finish_clause(self, c: list, pos: int) -> ir.Finish:
        return ir.Finish(pos=pos)

    def load_csv_clause(self, c: list, pos: int) -> ir.LoadCsv:
        headers = any(x is True for x in c)
        rest = [x for x in c if x is not True]
        terminator = rest[2] if len(rest) > 2 else None
        return ir.LoadCsv(rest[0], rest[1], headers, terminator, pos=pos)

    def with_headers(self, c: list, pos: int) -> bool:
        return True

    def field_terminator(self, c: list, pos: int) -> str:
        return decode_string(c[0][1], c[0][2])

    def call_subquery(self, c: list, pos: int) -> ir.CallSubquery:
        optional = False
        scope: _Scope | None = None
        query = None
        in_tx = None
        for x in c:
            if isinstance(x, tuple):
                optional = True
            elif isinstance(x, _Scope):
                scope = x
            elif isinstance(x, ir.Query):
                query = x
            elif isinstance(x, ir.InTransactions):
                in_tx = x
        if scope is not None:
            imports = scope.value
        else:
            query, imports = _lift_importing_with(query)
        return ir.CallSubquery(query, imports, optional, in_tx, pos=pos)

    def scope_none(self, c: list, pos: int) -> _Scope:
        return _Scope((), pos)

    def scope_all(self, c: list, pos: int) -> _Scope:
        return _Scope(None, pos)

    def scope_vars(self, c: list, pos: int) -> _Scope:
        return _Scope(tuple(c), pos)

    def in_transactions(self, c: list, pos: int) -> ir.InTransactions:
        rows = on_error = report = None
        for kind, value in c:
            if kind == "rows":
                rows = value
            elif kind == "error":
                on_error = value
            else:
                report = value
        return ir.InTransactions(rows, on_error, report, pos=pos)

    def tx_rows(self, c: list, pos: int) -> tuple:
        return ("rows", c[0])

    def tx_on_error(self, c: list, pos: int) -> tuple:
        return ("error", c[-1][1].upper())

    def tx_report(self, c: list, pos: int) -> tuple:
        return ("report", c[0])

    def call_procedure(self, c: list, pos: int) -> ir.ProcedureCall:
        optional = False
        name = ""
        args = None
        yields = None
        star = False
        where = None
        for x in c:
            if isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], str):
                optional = True
            elif isinstance(x, str):
                name = x
            elif isinstance(x, list):
                args = tuple(x)
            elif isinstance(x, dict):
                yields, star, where = x["items"], x["star"], x["where"]
        return ir.ProcedureCall(name, args, yields, star, where, optional, pos=pos)

    def procedure_name(self, c: list, pos: int) -> str:
        return ".".join(c)

    def procedure_args(self, c: list, pos: int) -> list:
        return list(c)

    def yield_clause(self, c: list, pos: int) -> dict:
        star = bool(c) and isinstance(c[0], tuple) and c[0][0] == "STAR"
        where = c[-1].value if c and isinstance(c[-1], _Where) else None
        items = tuple(x for x in c if isinstance(x, ir.YieldItem))
        return {"items": None if star else items, "star": star, "where": where}

    def yield_item(self, c: list, pos: int) -> ir.YieldItem:
        return ir.YieldItem(c[0], c[1] if len(c) > 1 else None, pos=pos)

    # -- writing clauses ---------------------------------------------------------------------

    def create_clause(self, c: list, pos: int) -> ir.Create:
        return ir.Create(c[0], pos=pos)

    insert_clause = create_clause

    def merge_clause(self, c: list, pos: int) -> ir.Merge:
        return ir.Merge(c[0], tuple(c[1:]), pos=pos)

    def merge_action(self, c: list, pos: int) -> ir.MergeAction:
        return ir.MergeAction(c[0], tuple(c[1:]), pos=pos)

    def merge_when(self, c: list, pos: int) -> bool:
        return c[0][1].upper() == "CREATE"

    def set_clause(self, c: list, pos: int) -> ir.SetClause:
        return ir.SetClause(tuple(c), pos=pos)

    def set_labels(self, c: list, pos: int) -> ir.SetLabels:
        target = c[0]
        if isinstance(target, ir.HasLabels) and isinstance(target.subject, ir.Variable):
            return ir.SetLabels(target.subject.name, _plain_labels(target.labels, pos), pos=pos)
        raise _err("SET needs `x.key = value`, `x = map`, `x += map` or `x:Label`", pos)

    def set_assign(self, c: list, pos: int) -> Any:
        target, value = c
        if isinstance(target, ir.Property):
            return ir.SetProperty(target.subject, target.key, value, pos=pos)
        if isinstance(target, ir.Index):
            return ir.SetDynamicProperty(target.subject, target.index, value, pos=pos)
        if isinstance(target, ir.Variable):
            return ir.SetProperties(target.name, value, merge=False, pos=pos)
        raise _err("cannot assign to this expression", pos)

    def set_merge(self, c: list, pos: int) -> ir.SetProperties:
        target, value = c
        if isinstance(target, ir.Variable):
            return ir.SetProperties(target.name, value, merge=True, pos=pos)
        raise _err("`+=` needs a variable on its left", pos)

    def remove_clause(self, c: list, pos: int) -> ir.Remove:
        if not self.dialect.capabilities.remove_clause:
            # The family's grammar reads REMOVE; the dialect does not have it (Kuzu).
            raise UnsupportedError(
                "REMOVE",
                self.dialect.name,
                f"{self.dialect.name} has no REMOVE clause; a property is removed by "
                "SET x.p = NULL",
                offset=pos,
            )
        items: list = []
        for target in c:
            if isinstance(target, ir.Property):
                items.append(ir.RemoveProperty(target.subject, target.key, pos=target.pos))
            elif isinstance(target, ir.HasLabels) and isinstance(target.subject, ir.Variable):
                labels = _plain_labels(target.labels, target.pos or pos)
                items.append(ir.RemoveLabels(target.subject.name, labels, pos=target.pos))
            else:
                raise _err("REMOVE needs `x.key` or `x:Label`", target.pos or pos)
        return ir.Remove(tuple(items), pos=pos)

    def delete_clause(self, c: list, pos: int) -> ir.Delete:
        detach = False
        if isinstance(c[0], bool):
            detach = c[0]
            c = c[1:]
        return ir.Delete(tuple(c), detach, pos=pos)

    def delete_mode(self, c: list, pos: int) -> bool:
        return c[0][1].upper() == "DETACH"

    def foreach_clause(self, c: list, pos: int) -> ir.Foreach:
        body: list = []
        for clause in c[2:]:
            body.extend(clause if isinstance(clause, tuple) else (clause,))
        for step in body:
            if not isinstance(step, UPDATING_STEPS):
                raise _err("FOREACH can only contain updating clauses", step.pos or pos)
        return ir.Foreach(c[0], c[1], tuple(body), pos=pos)

    # -- schema commands ---------------------------------------------------------------------

    def _legacy(self, what: str, pos: int) -> None:
        """A Neo4j 4 form: read only where the dialect keeps 4.x syntax, else named."""
        if not self.dialect.capabilities.legacy_schema_syntax:
            raise _err(
                f"{what} is Neo4j 4 syntax, removed in Neo4j 5 (read it with dialect neo4j4)",
                pos,
                "PARSE_OTHER_DIALECT",
            )

    def create_index(self, c: list, pos: int) -> ir.CreateIndex:
        kind = next((x.value for x in c if isinstance(x, _IndexKind)), "RANGE")
        if kind == "BTREE":
            self._legacy("a BTREE index", pos)
        element = next(x for x in c if isinstance(x, _SchemaElement))
        on = next(x for x in c if isinstance(x, _IndexOn))
        target = element.value
        if kind == "LOOKUP":
            props: tuple[str, ...] = ()
            _check_lookup(element, on)
        else:
            if not target.labels:
                raise _err("the index needs a label or relationship type", element.pos)
            if kind == "FULLTEXT":
                if on.kind != "each" or not isinstance(on.exprs[0], ir.ListLiteral):
                    raise _err("a full-text index is defined ON EACH [n.a, n.b, …]", on.pos)
                exprs = on.exprs[0].items
            else:
                if on.kind == "each":
                    raise _err(f"ON EACH is for full-text and lookup indexes, not {kind}", on.pos)
                if len(target.labels) > 1:
                    raise _err("only a full-text index may name several labels", element.pos)
                exprs = on.exprs
                if kind in ("TEXT", "POINT", "VECTOR") and len(exprs) > 1:
                    raise _err(f"a {kind} index is on one property", on.pos)
            props = tuple(_property_of(element.variable, p, on.pos) for p in exprs)
        return ir.CreateIndex(
            target,
            props,
            next((x for x in c if isinstance(x, str)), None),
            kind,
            any(x is _IF_NOT_EXISTS for x in c),
            _options(c),
            pos=pos,
        )

    def legacy_create_index(self, c: list, pos: int) -> ir.CreateIndex:
        self._legacy("CREATE INDEX ON :Label(property)", pos)
        target = ir.SchemaTarget(ir.ElementKind.NODE, (c[0],), pos=pos)
        return ir.CreateIndex(target, tuple(c[1]), pos=pos)

    def create_constraint(self, c: list, pos: int) -> ir.CreateConstraint:
        words = [x for x in c if isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], str)]
        (_, for_word, for_pos), (_, verb, verb_pos) = words[0], words[1]
        legacy_on, legacy_assert = for_word.upper() == "ON", verb.upper() == "ASSERT"
        if legacy_on != legacy_assert:
            raise _err(
                "ON goes with ASSERT (Neo4j 4) and FOR with REQUIRE (Neo4j 5); they do not mix",
                verb_pos,
            )
        if legacy_on:
            self._legacy("CREATE CONSTRAINT ON … ASSERT", for_pos)
        element = next(x for x in c if isinstance(x, _SchemaElement))
        exprs = next(x for x in c if isinstance(x, list))
        marker = next((x for x in c if isinstance(x, _Kind)), None)
        kind, type_ref = marker.value if marker is not None else (None, None)
        element_word = marker.element if marker is not None else None
        if element_word is not None and element_word.value is not element.value.kind:
            named = "NODE" if element_word.value is ir.ElementKind.NODE else "RELATIONSHIP"
            raise _err(
                f"IS {named} {kind.value} does not fit a {element.value.kind.value} pattern",
                element_word.pos,
            )
        if kind is None:
            exprs, kind = _legacy_exists(exprs, legacy_assert, verb_pos)
        return ir.CreateConstraint(
            element.value,
            _constraint_properties(element, exprs, kind, verb_pos),
            kind,
            next((x for x in c if isinstance(x, str)), None),
            type_ref,
            any(x is _IF_NOT_EXISTS for x in c),
            _options(c),
            pos=pos,
        )

    def drop_index(self, c: list, pos: int) -> ir.DropIndex:
        return ir.DropIndex(c[0], len(c) > 1, pos=pos)

    def legacy_drop_index(self, c: list, pos: int) -> ir.DropIndex:
        self._legacy("DROP INDEX ON :Label(property)", pos)
        target = ir.SchemaTarget(ir.ElementKind.NODE, (c[0],), pos=pos)
        return ir.DropIndex(None, target=target, properties=tuple(c[1]), pos=pos)

    def drop_constraint(self, c: list, pos: int) -> ir.DropConstraint:
        return ir.DropConstraint(c[0], len(c) > 1, pos=pos)

    def legacy_drop_constraint(self, c: list, pos: int) -> ir.DropConstraint:
        self._legacy("DROP CONSTRAINT ON … ASSERT", pos)
        element = next(x for x in c if isinstance(x, _SchemaElement))
        exprs = next(x for x in c if isinstance(x, list))
        kind = next((x.value[0] for x in c if isinstance(x, _Kind)), None)
        if kind is None:
            exprs, kind = _legacy_exists(exprs, True, pos)
        props = _constraint_properties(element, exprs, kind, pos)
        return ir.DropConstraint(None, target=element.value, properties=props, kind=kind, pos=pos)

    def show(self, c: list, pos: int) -> ir.Show:
        kind = next(x for x in c if isinstance(x, _ShowKind)).value
        words = next((x for x in c if isinstance(x, _ShowFilter)), None)
        flt = self._show_filter(kind, words) if words is not None else None
        tail = next((x for x in c if isinstance(x, dict)), {})
        if tail.get("legacy"):
            self._legacy(f"{tail['legacy']} output for SHOW", tail["pos"])
        return ir.Show(kind, flt, tail.get("yield"), tail.get("where"), tail.get("return"), pos=pos)

    def _show_filter(self, kind: str, words: _ShowFilter) -> str | None:
        """The canonical spelling of a SHOW filter (Cypher5Parser.g4 showIndexCommand,
        showConstraintCommand, showFunctions); an unknown combination is an error here."""
        spelled = " ".join(words.value)
        if spelled == "ALL" and kind in ("INDEX", "CONSTRAINT", "FUNCTION"):
            return None
        if kind == "FUNCTION" and spelled in ("BUILT IN", "USER DEFINED"):
            return spelled
        if kind == "INDEX" and len(words.value) == 1 and spelled in _INDEX_FILTERS:
            if spelled == "BTREE":
                self._legacy("SHOW BTREE INDEXES", words.pos)
            return spelled
        if kind == "CONSTRAINT":
            rest = list(words.value)
            element = ""
            if rest[0] in ("NODE", "RELATIONSHIP", "REL") and len(rest) > 1:
                element = "NODE " if rest.pop(0) == "NODE" else "RELATIONSHIP "
            what = _CONSTRAINT_FILTERS.get(" ".join(rest))
            if what is not None:
                if rest == ["EXISTS"]:
                    self._legacy(f"SHOW {spelled} CONSTRAINTS", words.pos)
                return element + what
        raise _err(f"SHOW {spelled} is not a filter of SHOW {kind}", words.pos)

    def show_filter(self, c: list, pos: int) -> _ShowFilter:
        return _ShowFilter(tuple(w for w in c), pos)

    def show_word(self, c: list, pos: int) -> str:
        return c[0][1].upper()

    def show_kind(self, c: list, pos: int) -> _ShowKind:
        word = c[0][1].upper()
        return _ShowKind(_SHOW_SINGULAR.get(word, word), pos)

    def show_tail(self, c: list, pos: int) -> dict:
        tail: dict = {}
        for x in c:
            if isinstance(x, _Where):
                tail["where"] = x.value
            elif isinstance(x, _Return):
                tail["return"] = x.value
            elif isinstance(x, dict):
                tail.update(x)
        return tail

    def show_yield(self, c: list, pos: int) -> dict:
        columns = c[0]
        body = {"order": (), "skip": None, "limit": None}
        where = None
        for x in c[1:]:
            if isinstance(x, _Skip):
                body["skip"] = x.value
            elif isinstance(x, _Limit):
                body["limit"] = x.value
            elif isinstance(x, _Where):
                where = x.value
            else:
                body["order"] = x
        items = tuple(
            ir.ReturnItem(ir.Variable(y.field, pos=y.pos), y.alias or y.field, pos=y.pos)
            for y in columns
        )
        projection = ir.Projection(
            items,
            star=not items,
            order_by=body["order"],
            skip=body["skip"],
            limit=body["limit"],
            pos=pos,
        )
        return {"yield": projection, "where": where}

    def show_columns(self, c: list, pos: int) -> tuple:
        return tuple(c)

    def show_all_columns(self, c: list, pos: int) -> tuple:
        return ()

    def show_output(self, c: list, pos: int) -> dict:
        word = c[0][1].upper()
        tail: dict = {"legacy": word, "pos": pos}
        if word == "VERBOSE":  # VERBOSE [OUTPUT] is every column: YIELD * (Neo4j 4.3 manual)
            tail["yield"] = ir.Projection(star=True, pos=pos)
        return tail

    def index_kind(self, c: list, pos: int) -> _IndexKind:
        return _IndexKind(c[0][1].upper(), pos)

    def schema_name(self, c: list, pos: int) -> str:
        return c[0]

    def if_not_exists(self, c: list, pos: int) -> object:
        return _IF_NOT_EXISTS

    def if_exists(self, c: list, pos: int) -> bool:
        return True

    def schema_node(self, c: list, pos: int) -> _SchemaElement:
        labels = c[1].value if len(c) > 1 else ()
        target = ir.SchemaTarget(ir.ElementKind.NODE, labels, pos=pos)
        return _SchemaElement(target, c[0], pos)

    def schema_rel(self, c: list, pos: int) -> _SchemaElement:
        names = [x for x in c if isinstance(x, str)]
        labels = next((x for x in c if isinstance(x, _Labels)), _Labels((), pos)).value
        target = ir.SchemaTarget(ir.ElementKind.RELATIONSHIP, labels, pos=pos)
        return _SchemaElement(target, names[0], pos)

    def schema_labels(self, c: list, pos: int) -> _Labels:
        return _Labels(tuple(c), pos)

    def rel_open(self, c: list, pos: int) -> None:
        return None

    rel_close = rel_open

    def index_on_one(self, c: list, pos: int) -> _IndexOn:
        return _IndexOn(("one", (c[0],)), pos)

    def index_on_many(self, c: list, pos: int) -> _IndexOn:
        return _IndexOn(("many", tuple(c)), pos)

    def index_on_each(self, c: list, pos: int) -> _IndexOn:
        return _IndexOn(("each", (c[0],)), pos)

    def options(self, c: list, pos: int) -> _Options:
        return _Options(c[0], pos)

    def name_list(self, c: list, pos: int) -> list:
        return list(c)

    def constraint_for(self, c: list, pos: int) -> tuple:
        return c[0]

    constraint_verb = constraint_for

    def constraint_target(self, c: list, pos: int) -> list:
        return list(c)

    def constraint_kind(self, c: list, pos: int) -> _Kind:
        words = [t[1].upper() for t in c if isinstance(t, tuple)]
        element = next((x for x in c if isinstance(x, _Element)), None)
        type_ref = next((x for x in c if isinstance(x, ir.TypeRef)), None)
        if type_ref is not None:
            kind = ir.ConstraintKind.TYPE
        elif "UNIQUE" in words:
            kind = ir.ConstraintKind.UNIQUE
        elif "NULL" in words:
            kind = ir.ConstraintKind.NOT_NULL
        else:
            kind = ir.ConstraintKind.KEY
        return _Kind((kind, type_ref), pos, element)

    def constraint_element(self, c: list, pos: int) -> _Element:
        word = c[0][1].upper()
        is_node = word == "NODE"
        return _Element(ir.ElementKind.NODE if is_node else ir.ElementKind.RELATIONSHIP, pos)

    # -- patterns ----------------------------------------------------------------------------

    def pattern_list(self, c: list, pos: int) -> tuple:
        return tuple(c)

    def pattern_part(self, c: list, pos: int) -> ir.PathPattern:
        variable = None
        search = None
        mode = None
        elements = []
        for x in c:
            if type(x) is ir.NodePattern or type(x) is ir.RelPattern:
                elements.append(x)  # the usual element, none of the markers below
            elif isinstance(x, _Worded):
                rel, word = x.value
                elements.append(rel)
                if isinstance(word, ir.Search):
                    search = word
                else:
                    mode = word
            elif isinstance(x, _PathAssign):
                variable = x.value
            elif isinstance(x, ir.Search):
                search = x
            elif isinstance(x, _Shortest):
                search = x.value
                elements = list(x.elements)
            else:
                elements.append(x)
        if search is not None and search.kind is ir.SearchKind.ALL:
            search = None
        if (
            (search is not None or mode is not None)
            and len(elements) != 3
            and any(isinstance(x, _Worded) for x in c)
        ):
            raise _err("a word after * applies to a path of one relationship", pos)
        path = _chain(elements, pos)
        return ir.PathPattern(path, variable, search, mode, pos=pos)

    def star_trail(self, c: list, pos: int) -> ir.PathMode:
        return ir.PathMode.TRAIL

    def path_assign(self, c: list, pos: int) -> _PathAssign:
        return _PathAssign(c[0], pos)

    def shortest_call(self, c: list, pos: int) -> _Shortest:
        kind = c[0]
        return _Shortest(ir.Search(kind, pos=pos), c[1:], pos)

    def shortest_function(self, c: list, pos: int) -> ir.SearchKind:
        if c[0][1].lower() == "shortestpath":
            return ir.SearchKind.ANY_SHORTEST
        return ir.SearchKind.ALL_SHORTEST

    def any_shortest(self, c: list, pos: int) -> ir.Search:
        return ir.Search(ir.SearchKind.ANY_SHORTEST, pos=pos)

    def all_shortest(self, c: list, pos: int) -> ir.Search:
        return ir.Search(ir.SearchKind.ALL_SHORTEST, pos=pos)

    def any_k(self, c: list, pos: int) -> ir.Search:
        k = _count(c, pos, default=1)
        return ir.Search(ir.SearchKind.ANY, k, pos=pos)

    def all_paths(self, c: list, pos: int) -> ir.Search:
        return ir.Search(ir.SearchKind.ALL, pos=pos)

    def shortest_k(self, c: list, pos: int) -> ir.Search:
        k = _count(c, pos, default=1)
        if k == 1:
            return ir.Search(ir.SearchKind.ANY_SHORTEST, pos=pos)
        return ir.Search(ir.SearchKind.SHORTEST_K, k, pos=pos)

    def shortest_groups(self, c: list, pos: int) -> ir.Search:
        k = _count(c, pos, default=1)
        if k == 1:
            return ir.Search(ir.SearchKind.ALL_SHORTEST, pos=pos)
        return ir.Search(ir.SearchKind.SHORTEST_K_GROUPS, k, pos=pos)

    def path_word(self, c: list, pos: int) -> None:
        return None

    def node_pattern(self, c: list, pos: int) -> ir.NodePattern:
        variable = labels = properties = where = None
        for x in c:
            if isinstance(x, str):
                variable = x
            elif isinstance(x, ir.LabelExpr):
                labels = x
            elif isinstance(x, _Where):
                where = x.value
            else:
                properties = x
        return ir.NodePattern(variable, labels, properties, where, pos=pos)

    def paren_path(self, c: list, pos: int) -> ir.ParenPath:
        variable = where = quantifier = None
        elements = []
        for x in c:
            if isinstance(x, _PathAssign):
                variable = x.value
            elif isinstance(x, _Where):
                where = x.value
            elif isinstance(x, ir.Quantifier):
                quantifier = x
            else:
                elements.append(x)
        return ir.ParenPath(_chain(elements, pos), quantifier, where, variable, pos=pos)

    def label_spec(self, c: list, pos: int) -> ir.LabelExpr:
        return c[0]

    def properties(self, c: list, pos: int) -> ir.Expr:
        return c[0]

    def rel_pattern(self, c: list, pos: int) -> ir.RelPattern:
        rel: ir.RelPattern = c[0]
        if isinstance(rel, _Worded) and len(c) > 1:
            raise _err("a relationship cannot have both `*` and a quantifier", pos)
        if len(c) > 1:
            if rel.quantifier is not None:
                raise _err("a relationship cannot have both `*` and a quantifier", c[1].pos or pos)
            rel = ir.RelPattern(
                rel.direction, rel.variable, rel.types, rel.properties, rel.where, c[1], pos=pos
            )
        return rel

    def _rel(self, direction: ir.Direction, c: list, pos: int) -> ir.RelPattern:
        detail = None
        for x in c:
            if isinstance(x, dict):
                detail = x
                break
        if detail is None:
            return ir.RelPattern(direction, pos=pos)
        rel = ir.RelPattern(
            direction,
            detail.get("variable"),
            detail.get("types"),
            detail.get("properties"),
            detail.get("where"),
            detail.get("quantifier"),
            pos=pos,
        )
        word = detail.get("word")
        return rel if word is None else _Worded((rel, word), pos)  # type: ignore[return-value]

    def rel_out(self, c: list, pos: int) -> ir.RelPattern:
        return self._rel(ir.Direction.OUT, c, pos)

    def rel_in(self, c: list, pos: int) -> ir.RelPattern:
        return self._rel(ir.Direction.IN, c, pos)

    def rel_either(self, c: list, pos: int) -> ir.RelPattern:
        return self._rel(ir.Direction.EITHER, c, pos)

    def rel_both(self, c: list, pos: int) -> ir.RelPattern:
        return self._rel(ir.Direction.EITHER, c, pos)

    def rel_detail(self, c: list, pos: int) -> dict:
        detail: dict = {}
        for x in c:
            if isinstance(x, str):
                detail["variable"] = x
            elif isinstance(x, ir.LabelExpr):
                detail["types"] = x
            elif isinstance(x, ir.Quantifier):
                detail["quantifier"] = x
            elif isinstance(x, _Worded):
                detail["quantifier"], detail["word"] = x.value
            elif isinstance(x, _Where):
                detail["where"] = x.value
            else:
                detail["properties"] = x
        return detail

    def var_length_range(self, c: list, pos: int) -> ir.Quantifier:
        lower, upper = 1, None
        seen_dots = False
        word = c[1] if isinstance(c[1], (ir.Search, ir.PathMode)) else None
        for kind, text, tpos in (x for x in c if x is not word):
            if kind == "RANGE_DOTS":
                seen_dots = True
            elif kind == "INTEGER":
                if seen_dots:
                    upper = decode_integer(text, tpos)
                else:
                    lower = decode_integer(text, tpos)
        return _with_word(self._quantifier(lower, upper, pos), word, pos)

    def var_length_fixed(self, c: list, pos: int) -> ir.Quantifier:
        word = c[1] if len(c) > 1 and isinstance(c[1], (ir.Search, ir.PathMode)) else None
        count = [x for x in c[1:] if x is not word]
        if count:
            n = decode_integer(count[0][1], count[0][2])
            return _with_word(self._quantifier(n, n, pos), word, pos)
        return _with_word(self._quantifier(1, None, pos), word, pos)

    def quant_exact(self, c: list, pos: int) -> ir.Quantifier:
        n = decode_integer(c[0][1], c[0][2])
        return self._quantifier(n, n, pos)

    def quant_range(self, c: list, pos: int) -> ir.Quantifier:
        lower, upper = 0, None
        # The comma was dropped; tell the bounds apart by their position relative to it.
        comma = self.text.index(",", pos)
        for _, text, tpos in c:
            if tpos < comma:
                lower = decode_integer(text, tpos)
            else:
                upper = decode_integer(text, tpos)
        return self._quantifier(lower, upper, pos)

    def quant_plus(self, c: list, pos: int) -> ir.Quantifier:
        return self._quantifier(1, None, pos)

    def quant_star(self, c: list, pos: int) -> ir.Quantifier:
        return self._quantifier(0, None, pos)

    def _quantifier(self, lower: int, upper: int | None, pos: int) -> ir.Quantifier:
        """Bounds in the dialect's meaning: an engine that caps every variable-length pattern
        (``max_quantifier_upper``: TuGraph's 128 hops) matches a missing or larger upper bound
        as the cap, so the text reads as that bound (and writes back as it)."""
        cap = self.dialect.capabilities.max_quantifier_upper
        if cap and (upper is None or upper > cap):
            upper = cap
        return _quantifier(lower, upper, pos)

    # -- label expressions -------------------------------------------------------------------

    def label_expr(self, c: list, pos: int) -> ir.LabelExpr:
        return c[0]

    def label_or(self, c: list, pos: int) -> ir.LabelExpr:
        _check_chain(len(c), pos)
        result = c[0]
        for right in c[1:]:
            result = ir.LabelOr(result, right, pos=pos)
        return result

    def label_and(self, c: list, pos: int) -> ir.LabelExpr:
        """``A&B``, and ``A:B``, whose meaning is the dialect's (``colon_labels``: in Kuzu
        ``(n:A:B)`` is A or B)."""
        _check_chain(len(c), pos)
        result = c[0]
        for i in range(1, len(c), 2):
            if c[i] == ":" and self.colon_means_or:
                result = ir.LabelOr(result, c[i + 1], pos=pos)
            else:
                result = ir.LabelAnd(result, c[i + 1], pos=pos)
        return result

    def label_joiner(self, c: list, pos: int) -> str:
        return c[0][1]

    def node_labels(self, c: list, pos: int) -> ir.LabelExpr:
        """``:A:B`` (openCypher 9 and its descendants): every label, or any of them where the
        dialect says so (``colon_labels``)."""
        joiner = ir.LabelOr if self.colon_means_or else ir.LabelAnd
        result: ir.LabelExpr = ir.Label(c[0], pos=pos)
        for name in c[1:]:
            result = joiner(result, ir.Label(name, pos=pos), pos=pos)
        return result

    def rel_types(self, c: list, pos: int) -> ir.LabelExpr:
        """``:R1|R2`` (openCypher 9): any of the types."""
        result: ir.LabelExpr = ir.Label(c[0], pos=pos)
        for name in c[1:]:
            result = ir.LabelOr(result, ir.Label(name, pos=pos), pos=pos)
        return result

    def label_negation(self, c: list, pos: int) -> ir.LabelExpr:
        return ir.LabelNot(c[0], pos=pos)

    def label_name(self, c: list, pos: int) -> ir.Label:
        return ir.Label(c[0], pos=pos)

    def label_any(self, c: list, pos: int) -> ir.LabelAny:
        return ir.LabelAny(pos=pos)

    # -- expressions -------------------------------------------------------------------------

    def prefix_op(self, c: list, pos: int) -> _Op:
        return _Op("prefix", c[0][1].upper(), pos)

    def binary_op(self, c: list, pos: int) -> _Op:
        if len(c) == 1:
            return _Op("binary", c[0][1].upper(), pos)
        return _Op("binary", " ".join(t[1].upper() for t in c), pos)

    def is_null(self, c: list, pos: int) -> _Op:
        return _Op("postfix", ("null", len(c) > 0), pos)

    def is_type(self, c: list, pos: int) -> _Op:
        negated = any(isinstance(x, tuple) and x[0] == "NOT" for x in c)
        return _Op("postfix", ("type", negated, c[-1]), pos)

    def is_labeled(self, c: list, pos: int) -> _Op:
        return _Op("postfix", ("labeled", len(c) > 1, c[-1]), pos)

    def is_normalized(self, c: list, pos: int) -> _Op:
        negated = any(isinstance(x, tuple) and x[0] == "NOT" for x in c)
        form = next((x for x in c if isinstance(x, str)), "NFC")
        return _Op("postfix", ("normalized", negated, form), pos)

    def normal_form(self, c: list, pos: int) -> str:
        return c[0][1].upper()

    def flat_expr(self, c: list, pos: int) -> ir.Expr:
        _check_chain(len(c) // 2, pos)
        return self.PRATT(self, c).parse()

    def postfix(self, c: list, pos: int) -> Any:
        if len(c) > MAX_CHAIN:
            _check_chain(len(c), pos)
        base = c[0]
        for op in c[1:]:
            base = op(self, base)
        return base

    def op_property(self, c: list, pos: int):
        key = c[0]
        return lambda b, base: ir.Property(_value(b, base), key, pos=base.pos)

    def op_index(self, c: list, pos: int):
        index = c[0]
        if self.index_base and not isinstance(index, ir.String):
            index = self._zero_based(index)
        return lambda b, base: ir.Index(_value(b, base), index, pos=base.pos)

    def _zero_based(self, index: ir.Expr) -> ir.Expr:
        """A 1-based dialect's list position as the IR's 0-based one: positive positions move
        down by one; negative ones count from the end in both. (Where ``[]`` is 1-based it
        indexes lists only: Kuzu has no dynamic map access.)"""
        base = ir.Integer(self.index_base)
        if isinstance(index, ir.Integer):
            if index.value == 0:
                raise _err("list positions start at 1 in this dialect", index.pos or 0)
            if index.value > 0:
                return ir.Integer(index.value - self.index_base, pos=index.pos)
            return index
        shifted = ir.Arithmetic(ir.ArithOp.SUB, index, base, pos=index.pos)
        positive = ir.Comparison(ir.CompOp.GT, index, ir.Integer(0), pos=index.pos)
        return ir.Case(None, (ir.CaseWhen(positive, shifted),), index, pos=index.pos)

    def op_slice(self, c: list, pos: int):
        start = end = None
        seen_dots = False
        for x in c:
            if isinstance(x, tuple):
                seen_dots = True
            elif seen_dots:
                end = x
            else:
                start = x
        return lambda b, base: ir.Slice(_value(b, base), start, end, pos=base.pos)

    def op_call(self, c: list, pos: int):
        args = c[0] if c else ("args", False, ())
        return lambda b, base: b._call(base, args, pos)

    def op_map_projection(self, c: list, pos: int):
        items = tuple(c)
        return lambda b, base: b._map_projection(base, items, pos)

    def op_has_labels(self, c: list, pos: int):
        labels = c[0]

        def apply(b: CypherBuilder, base: Any) -> ir.HasLabels:
            return ir.HasLabels(_value(b, base), labels, pos=base.pos)

        return apply

    def call_args(self, c: list, pos: int) -> tuple:
        distinct = bool(c) and isinstance(c[0], tuple)
        args = tuple(c[1:] if distinct else c)
        return ("args", distinct, args)

    def call_star(self, c: list, pos: int) -> tuple:
        return ("star", False, ())

    def _call(self, base: Any, args: tuple, pos: int) -> ir.Expr:
        name = _dotted_name(base)
        if name is None:
            raise _err("only a function name can be called", base.pos or pos)
        kind, distinct, values = args
        start = base.pos if base.pos is not None else pos
        low = name.lower()
        if kind == "star":
            if low != "count":
                raise _err(f"{name}(*) is not a function call; only count(*) takes *", start)
            return ir.CountStar(pos=start)
        caps = self.dialect.capabilities
        if low == "exists" and len(values) == 1:
            arg = values[0]
            if isinstance(arg, _PatternExpr):
                return self._predicate(arg)
            if isinstance(arg, (ir.Property, ir.Index)):
                if not caps.exists_property_function:
                    raise _err(
                        "exists(n.p) was removed in Neo4j 5: write n.p IS NOT NULL "
                        "(or read Neo4j 4 text with dialect neo4j4)",
                        start,
                        "PARSE_OTHER_DIALECT",
                    )
                return ir.IsNull(arg, negated=True, pos=start)
            raise _err("exists() takes a property or a pattern", start)
        if low == "size" and len(values) == 1 and isinstance(values[0], _PatternExpr):
            return self._pattern_count(values[0], start)
        for value in values:
            _value(self, value)
        canonical = canonical_function(self.dialect, name, start)
        call = resolve_call(name, canonical, values, distinct, start)
        if isinstance(call, ir.Aggregate) and (
            (canonical == "sum" and caps.sum_empty_null)
            or (canonical == "collect" and caps.collect_empty_null)
        ):
            return null_below(call)  # the engine's aggregate is null on no values (Kuzu)
        return call

    def _pattern_count(self, pattern: _PatternExpr, pos: int) -> ir.CountSubquery:
        """Neo4j 4's ``size((a)-->())``: the number of the pattern's matches, which is what
        Neo4j 5's ``COUNT { (a)-->() }`` replaces it with."""
        if not self.dialect.capabilities.pattern_count_size:
            raise _err(
                "size() of a pattern was removed in Neo4j 5: write COUNT { … } "
                "(or read Neo4j 4 text with dialect neo4j4)",
                pattern.pos,
                "PARSE_OTHER_DIALECT",
            )
        self.pending.remove(pattern.pos)
        if pattern.variable is not None:
            raise _err("a path variable cannot be bound in a counted pattern", pattern.pos)
        return ir.CountSubquery(self._exists_pattern(pattern.path, pos).query, pos=pos)

    def _map_projection(self, base: Any, items: tuple, pos: int) -> Any:
        if isinstance(base, ir.Variable):
            return ir.MapProjection(base.name, items, pos=base.pos)
        if isinstance(base, ir.HasLabels) and isinstance(base.subject, ir.Variable):
            # `n:L {k: v}` can only be a node pattern inside a cover: keep it for cover_node.
            entries = _literal_entries(items)
            if entries is not None:
                return _CoverNode((base.subject.name, base.labels, ir.MapLiteral(entries)), pos)
        raise _err("a map projection needs a variable before `{`", base.pos or pos)

    def mp_property(self, c: list, pos: int) -> ir.MapProjectionItem:
        return ir.MapProjectionItem(ir.MapItemKind.PROPERTY, c[0], pos=pos)

    def mp_all(self, c: list, pos: int) -> ir.MapProjectionItem:
        return ir.MapProjectionItem(ir.MapItemKind.ALL, pos=pos)

    def mp_literal(self, c: list, pos: int) -> ir.MapProjectionItem:
        return ir.MapProjectionItem(ir.MapItemKind.LITERAL, c[0], c[1], pos=pos)

    def mp_variable(self, c: list, pos: int) -> ir.MapProjectionItem:
        return ir.MapProjectionItem(ir.MapItemKind.VARIABLE, c[0], pos=pos)

    def var_ref(self, c: list, pos: int) -> ir.Variable:
        return ir.Variable(c[0], pos=pos)

    def list_literal(self, c: list, pos: int) -> ir.ListLiteral:
        return ir.ListLiteral(tuple(c), pos=pos)

    def map_literal(self, c: list, pos: int) -> ir.MapLiteral:
        return ir.MapLiteral(tuple(c), pos=pos)

    def map_entry(self, c: list, pos: int) -> tuple:
        return (c[0], c[1])

    def case_expr(self, c: list, pos: int) -> ir.Case:
        subject = None
        whens = []
        default = None
        for x in c:
            if isinstance(x, ir.CaseWhen):
                whens.append(x)
            elif isinstance(x, _Else):
                default = x.value
            else:
                subject = x
        return ir.Case(subject, tuple(whens), default, pos=pos)

    def case_when(self, c: list, pos: int) -> ir.CaseWhen:
        return ir.CaseWhen(self._predicate(c[0]), c[1], pos=pos)

    def case_else(self, c: list, pos: int) -> _Else:
        return _Else(c[0], pos)

    def list_comprehension(self, c: list, pos: int) -> ir.ListComprehension:
        where = next((x.value for x in c[2:] if isinstance(x, _Where)), None)
        projection = next((x.value for x in c[2:] if isinstance(x, _Projected)), None)
        return ir.ListComprehension(c[0], c[1], where, projection, pos=pos)

    def comprehension_projection(self, c: list, pos: int) -> _Projected:
        return _Projected(c[0], pos)

    def pattern_comprehension(self, c: list, pos: int) -> ir.PatternComprehension:
        head = c[0]
        where = c[1].value if len(c) > 2 else None
        projection = c[-1]
        variable = None
        if (
            isinstance(head, ir.Comparison)
            and head.op is ir.CompOp.EQ
            and isinstance(head.left, ir.Variable)
            and isinstance(head.right, _PatternExpr)
        ):
            variable = head.left.name
            head = head.right
        if not isinstance(head, _PatternExpr):
            raise _err("expected a pattern before WHERE or | in a pattern comprehension", pos)
        self.pending.remove(head.pos)
        path = ir.PathPattern(head.path, variable, pos=head.pos)
        return ir.PatternComprehension(path, where, projection, pos=pos)

    def list_predicate(self, c: list, pos: int) -> ir.ListPredicate:
        quantifier = ir.ListQuantifier[c[0][1].upper()]
        where = c[3].value if len(c) > 3 else None
        return ir.ListPredicate(quantifier, c[1], c[2], where, pos=pos)

    def reduce_expr(self, c: list, pos: int) -> ir.Reduce:
        return ir.Reduce(c[0], c[1], c[2], c[3], c[4], pos=pos)

    def exists_subquery(self, c: list, pos: int) -> ir.Exists:
        return ir.Exists(c[0], pos=pos)

    def count_subquery(self, c: list, pos: int) -> ir.CountSubquery:
        return ir.CountSubquery(c[0], pos=pos)

    def collect_subquery(self, c: list, pos: int) -> ir.CollectSubquery:
        return ir.CollectSubquery(c[0], pos=pos)

    def pattern_subquery(self, c: list, pos: int) -> ir.LinearQuery:
        where = c[1].value if len(c) > 1 else None
        match = ir.Match(c[0], where, mode=self.default_mode, pos=pos)
        return ir.LinearQuery((match,), pos=pos)

    def pattern_atom(self, c: list, pos: int) -> _PatternExpr:
        self.pending.append(pos)
        return _PatternExpr(_chain(c, pos), None, pos)

    def cover_node(self, c: list, pos: int) -> ir.NodePattern:
        inner = c[0]
        if isinstance(inner, _CoverNode):
            variable, labels, props = inner.value
            return ir.NodePattern(variable, labels, props, pos=pos)
        if isinstance(inner, ir.Variable):
            return ir.NodePattern(inner.name, pos=pos)
        if isinstance(inner, ir.HasLabels) and isinstance(inner.subject, ir.Variable):
            return ir.NodePattern(inner.subject.name, inner.labels, pos=pos)
        if isinstance(inner, ir.MapProjection):
            entries = _literal_entries(inner.items)
            if entries is not None:
                return ir.NodePattern(inner.subject, properties=ir.MapLiteral(entries), pos=pos)
        if isinstance(inner, (ir.MapLiteral, ir.Parameter)):
            return ir.NodePattern(properties=inner, pos=pos)
        raise _err("expected a node pattern before the relationship", pos)

    def cover_empty(self, c: list, pos: int) -> ir.NodePattern:
        return ir.NodePattern(pos=pos)

    def cover_labels(self, c: list, pos: int) -> ir.NodePattern:
        return ir.NodePattern(None, c[0], c[1] if len(c) > 1 else None, pos=pos)

    # -- literals ----------------------------------------------------------------------------

    def lit_int(self, c: list, pos: int) -> ir.Integer:
        _, text, tpos = c[0]
        if text.isdigit() and len(text) < 19 and (text[0] != "0" or text == "0"):
            # Decimal digits without a leading zero, below 10**18: no check can fail.
            return ir.Integer(int(text), pos=tpos)
        if self.octal_zero and text[:1] == "0" and text.isdigit():
            return self._integer(decode_leading_zero_octal(text, tpos), tpos)
        return self._integer(decode_integer(text, tpos), tpos)

    def _integer(self, value: int, tpos: int) -> ir.Integer:
        if value > INT64_MAX:
            if value > INT64_MAX + 1:
                raise _err("integer literal is too large", tpos, "PARSE_INTEGER_OVERFLOW")
            # 2**63 is valid only as the operand of a minus sign, which removes it from here.
            self.pending_overflow.append(tpos)
        return ir.Integer(value, pos=tpos)

    def lit_float(self, c: list, pos: int) -> ir.Float:
        _, text, tpos = c[0]
        return ir.Float(decode_float(text, tpos), pos=tpos)

    def lit_string(self, c: list, pos: int) -> ir.String:
        _, text, tpos = c[0]
        return ir.String(decode_string(text, tpos), pos=tpos)

    def lit_true(self, c: list, pos: int) -> ir.Boolean:
        return ir.Boolean(True, pos=pos)

    def lit_false(self, c: list, pos: int) -> ir.Boolean:
        return ir.Boolean(False, pos=pos)

    def lit_null(self, c: list, pos: int) -> ir.Null:
        return ir.Null(pos=pos)

    def parameter(self, c: list, pos: int) -> ir.Parameter:
        text = c[0][1][1:]
        return ir.Parameter(unquote_identifier(text), pos=pos)

    # -- types -------------------------------------------------------------------------------

    def type_expr(self, c: list, pos: int) -> ir.TypeRef:
        if len(c) == 1:
            return c[0]
        return ir.TypeRef("ANY", alternatives=tuple(c), pos=pos)

    def type_term(self, c: list, pos: int) -> ir.TypeRef:
        name = _TYPE_SYNONYMS.get(c[0], c[0])
        return ir.TypeRef(name, not_null=len(c) > 1, pos=pos)

    def list_type(self, c: list, pos: int) -> ir.TypeRef:
        return ir.TypeRef("LIST", not_null=len(c) > 1, element=c[0], pos=pos)

    def any_union_type(self, c: list, pos: int) -> ir.TypeRef:
        inner = c[0]
        alternatives = inner.alternatives or (inner,)
        return ir.TypeRef("ANY", not_null=len(c) > 1, alternatives=alternatives, pos=pos)

    def not_null(self, c: list, pos: int) -> _NotNull:
        return _NotNull(True, pos)

    def type_name(self, c: list, pos: int) -> str:
        return " ".join(w.upper() for w in c)

    def type_word(self, c: list, pos: int) -> str:
        return c[0][1]


class _IndexKind(_Marker):
    pass


class _SchemaElement(_Marker):
    """The pattern of a schema command: its target, and the variable its properties use."""

    __slots__ = ("variable",)

    def __init__(self, value: ir.SchemaTarget, variable: str, pos: int) -> None:
        super().__init__(value, pos)
        self.variable = variable


class _Labels(_Marker):
    """Labels a DDL target names."""


class _IndexOn(_Marker):
    """What follows ON: ``(kind, expressions)``, kind one of one, many, each."""

    @property
    def kind(self) -> str:
        return self.value[0]

    @property
    def exprs(self) -> tuple:
        return self.value[1]


class _Options(_Marker):
    """An OPTIONS map of index or constraint DDL."""


class _Element(_Marker):
    """The element word (NODE, RELATIONSHIP) a constraint kind names."""


class _Kind(_Marker):
    """A constraint kind ``(ConstraintKind, TypeRef | None)`` and the element word it names."""

    __slots__ = ("element",)

    def __init__(self, value: tuple, pos: int, element: _Element | None = None) -> None:
        super().__init__(value, pos)
        self.element = element


class _ShowFilter(_Marker):
    """What a SHOW statement lists (a kind of index or constraint)."""


class _ShowKind(_Marker):
    """INDEXES or CONSTRAINTS, in the singular."""


_SHOW_SINGULAR = {
    "INDEXES": "INDEX",
    "CONSTRAINTS": "CONSTRAINT",
    "PROCEDURES": "PROCEDURE",
    "FUNCTIONS": "FUNCTION",
    "DATABASES": "DATABASE",
    "TRANSACTIONS": "TRANSACTION",
    "SETTINGS": "SETTING",
}
_INDEX_FILTERS = frozenset({"RANGE", "TEXT", "POINT", "LOOKUP", "FULLTEXT", "VECTOR", "BTREE"})
# The constraint filter words after an optional NODE / REL[ATIONSHIP], canonically spelled.
_CONSTRAINT_FILTERS = {
    "UNIQUE": "UNIQUE",
    "UNIQUENESS": "UNIQUE",
    "EXISTENCE": "EXISTENCE",
    "EXIST": "EXISTENCE",
    "PROPERTY EXISTENCE": "EXISTENCE",
    "PROPERTY EXIST": "EXISTENCE",
    "EXISTS": "EXISTENCE",
    "PROPERTY TYPE": "PROPERTY TYPE",
    "KEY": "KEY",
}


def _options(c: list) -> ir.Expr | None:
    return next((x.value for x in c if isinstance(x, _Options)), None)


def _check_lookup(element: _SchemaElement, on: _IndexOn) -> None:
    """``FOR (n) ON EACH labels(n)`` / ``FOR ()-[r]-() ON [EACH] type(r)``: no label, and the
    token function of the element's own variable."""
    target = element.value
    if target.labels:
        raise _err("a lookup index is on every label or type: name none", element.pos)
    node = target.kind is ir.ElementKind.NODE
    want = "labels" if node else "type"
    call = on.exprs[0] if len(on.exprs) == 1 else None
    if (
        (on.kind != "each" and node)
        or not isinstance(call, ir.FunctionCall)
        or call.name != want
        or call.args != (ir.Variable(element.variable),)
    ):
        each = "EACH " if node else "[EACH] "
        raise _err(f"a lookup index is defined ON {each}{want}({element.variable})", on.pos)


def _legacy_exists(exprs: list, legacy: bool, pos: int) -> tuple[list, ir.ConstraintKind]:
    """Neo4j 4's ``ASSERT exists(n.p)``: the reader made it ``n.p IS NOT NULL``."""
    if legacy and len(exprs) == 1 and isinstance(exprs[0], ir.IsNull) and exprs[0].negated:
        return [exprs[0].operand], ir.ConstraintKind.NOT_NULL
    raise _err("expected IS UNIQUE, IS [NODE|RELATIONSHIP] KEY, IS NOT NULL or IS :: <type>", pos)


def _constraint_properties(
    element: _SchemaElement, exprs: list, kind: ir.ConstraintKind, pos: int
) -> tuple[str, ...]:
    if len(element.value.labels) != 1:
        raise _err("a constraint is on exactly one label or relationship type", element.pos)
    if kind in (ir.ConstraintKind.NOT_NULL, ir.ConstraintKind.TYPE) and len(exprs) > 1:
        raise _err(f"a {kind.value} constraint is on one property", pos)
    return tuple(_property_of(element.variable, p, pos) for p in exprs)


class _Shortest:
    __slots__ = ("elements", "pos", "value")

    def __init__(self, value: ir.Search, elements: list, pos: int) -> None:
        self.value = value
        self.elements = elements
        self.pos = pos


_IF_NOT_EXISTS = object()


def _is_let(step: ir.Projection) -> bool:
    return (
        step.star
        and bool(step.items)
        and not step.distinct
        and not step.order_by
        and step.skip is None
        and step.limit is None
        and not any(aggregates(item.expr) for item in step.items)
    )


def _sees_only_projected(condition: ir.Expr, step: ir.Projection) -> bool:
    """Whether a WITH's WHERE needs nothing but the WITH's own columns (then it is a Filter
    step after the projection)."""
    return step.star or reads_only(condition, {item.alias for item in step.items})


def _is_plain_star(step: ir.Step) -> bool:
    return (
        isinstance(step, ir.Projection)
        and step.star
        and not step.items
        and not step.distinct
        and not step.order_by
        and step.skip is None
        and step.limit is None
    )


def _value(builder: CypherBuilder, base: Any) -> ir.Expr:
    """An operand used as a value: a pattern is refused."""
    if isinstance(base, _PatternExpr):
        raise _pattern_value(base.pos)
    return base


def _pattern_value(pos: int) -> ParseError:
    return _err(
        "a pattern can only be used as a predicate here "
        "(use COUNT { … } or a pattern comprehension for its value)",
        pos,
        "PARSE_PATTERN_VALUE",
    )


def _dotted_name(expr: Any) -> str | None:
    parts = []
    while isinstance(expr, ir.Property):
        parts.append(expr.key)
        expr = expr.subject
    if not isinstance(expr, ir.Variable):
        return None
    parts.append(expr.name)
    return ".".join(reversed(parts))


def _literal_entries(items: tuple) -> tuple | None:
    if all(i.kind is ir.MapItemKind.LITERAL for i in items):
        return tuple((i.key, i.value) for i in items)
    return None


def _plain_labels(labels: ir.LabelExpr, pos: int) -> tuple[str, ...]:
    if isinstance(labels, ir.Label):
        return (labels.name,)
    if isinstance(labels, ir.LabelAnd):
        return _plain_labels(labels.left, pos) + _plain_labels(labels.right, pos)
    raise _err("only plain labels (`:A:B`) can be set or removed", pos)


def _property_of(variable: str, expr: Any, pos: int) -> str:
    if (
        isinstance(expr, ir.Property)
        and isinstance(expr.subject, ir.Variable)
        and expr.subject.name == variable
    ):
        return expr.key
    raise _err(f"expected a property of {variable}", getattr(expr, "pos", None) or pos)


def _count(c: list, pos: int, default: int) -> int:
    for x in c:
        if isinstance(x, tuple) and x[0] == "INTEGER":
            return decode_integer(x[1], x[2])
    return default


def canonical_function(dialect: Dialect, name: str, start: int) -> str:
    """The canonical name of the function ``name`` calls in ``dialect``; refused when the
    dialect's function of that name does not mean the canonical one (or does not exist)."""
    canonical = dialect.canonical_function(name)
    if canonical in dialect.capabilities.unsupported_functions:
        raise UnsupportedError(
            f"{name}()",
            dialect.name,
            f"{name}() in {dialect.name} does not mean what gqlir's {canonical}() means",
            offset=start,
        )
    return canonical


def resolve_call(name: str, canonical: str, values: tuple, distinct: bool, start: int) -> ir.Expr:
    """A call by its canonical name: arity checked against the function table, aggregates
    told apart, and a temporal constructor of one string made a typed literal. A name the
    table lacks (a user function) stays a call under the name it was written with."""
    spec = functions.lookup(canonical)
    if spec is None:
        if distinct:
            raise _err(f"DISTINCT is only allowed in aggregate functions, not {name}()", start)
        return ir.FunctionCall(name, values, pos=start)
    n = len(values)
    if n < spec.min_args or (spec.max_args is not None and n > spec.max_args):
        raise SemanticError(
            f"{name}() takes {_arity(spec)} argument(s), {n} given",
            offset=start,
            code="SEMANTIC_ARITY",
        )
    if spec.aggregate:
        return ir.Aggregate(canonical, values, distinct, pos=start)
    if distinct:
        raise _err(f"DISTINCT is only allowed in aggregate functions, not {name}()", start)
    kind_t = _TEMPORAL.get(canonical)
    if kind_t is not None and n == 1 and isinstance(values[0], ir.String):
        return ir.TemporalLiteral(kind_t, values[0].value, pos=start)
    return coalesced(ir.FunctionCall(canonical, values, pos=start))


def _arity(spec: functions.FunctionSpec) -> str:
    if spec.max_args is None:
        return f"at least {spec.min_args}"
    if spec.min_args == spec.max_args:
        return str(spec.min_args)
    return f"{spec.min_args} to {spec.max_args}"


def _quantifier(lower: int, upper: int | None, pos: int) -> ir.Quantifier:
    """Bounds as written; an upper bound below the lower one matches nothing (not an error)."""
    return ir.Quantifier(lower, upper, pos=pos)


def _with_word(quantifier: ir.Quantifier, word: Any, pos: int) -> ir.Quantifier:
    """The quantifier, carried with the word written after its ``*`` if there is one."""
    return quantifier if word is None else _Worded((quantifier, word), pos)  # type: ignore[return-value]


def _chain(elements: list, pos: int) -> ir.PathChain:
    """Check that element patterns alternate properly: relationships sit between nodes."""
    for i, element in enumerate(elements):
        if isinstance(element, _Worded):
            raise _err("a word after * belongs in a MATCH path pattern", pos)
        if isinstance(element, ir.RelPattern):
            before = elements[i - 1] if i > 0 else None
            after = elements[i + 1] if i + 1 < len(elements) else None
            if not isinstance(before, ir.NodePattern) or not isinstance(after, ir.NodePattern):
                raise _err(
                    "a relationship pattern must stand between two node patterns",
                    element.pos if element.pos is not None else pos,
                    "PARSE_RELATIONSHIP_PATTERN",
                )
        elif (
            isinstance(element, ir.NodePattern)
            and i > 0
            and isinstance(elements[i - 1], ir.NodePattern)
        ):
            raise _err(
                "two node patterns must be joined by a relationship",
                element.pos if element.pos is not None else pos,
                "PARSE_RELATIONSHIP_PATTERN",
            )
    return ir.PathChain(tuple(elements), pos=pos)


def _lift_importing_with(query: ir.Query) -> tuple[ir.Query, tuple[str, ...] | None]:
    """``CALL { WITH a, b … }`` means ``CALL (a, b) { … }``: lift a leading importing WITH
    (plain variables, nothing else) into the scope clause."""
    if isinstance(query, ir.SetOperation):
        left, li = _lift_importing_with(query.left)
        right, ri = _lift_importing_with(query.right)
        if li is None or ri is None:
            imports = None
        else:
            imports = tuple(dict.fromkeys(li + ri))
        return ir.SetOperation(query.op, left, right, query.all, pos=query.pos), imports
    if not isinstance(query, ir.LinearQuery) or not query.steps:
        return query, ()
    first = query.steps[0]
    if not isinstance(first, ir.Projection) or len(query.steps) < 2:
        return query, ()
    if first.distinct or first.order_by or first.skip or first.limit or first.group_by:
        return query, ()
    names = []
    for item in first.items:
        if not (isinstance(item.expr, ir.Variable) and item.alias == item.expr.name):
            return query, ()
        names.append(item.expr.name)
    if isinstance(query.steps[1], ir.Filter):
        return query, ()
    rest = ir.LinearQuery(query.steps[1:], pos=query.pos)
    if first.star:
        return rest, None
    return rest, tuple(names)


class _Pratt:
    """Precedence climbing over a flat expression (operands and operators in order).

    The family's builder gives the operator table (``BINARY``); subclasses adapt how operands
    are checked and which postfix tests exist. Cypher reads ``a < b < c`` as a chain.
    """

    __slots__ = ("b", "i", "items", "n", "table")
    #: ``a < b < c`` means ``a < b AND b < c`` (Cypher); otherwise it is an error (GQL).
    CHAINED_COMPARISONS = True

    def __init__(self, builder: CypherBuilder, items: list) -> None:
        self.b = builder
        self.items = items
        self.i = 0
        self.n = len(items)
        self.table = builder.BINARY

    # -- hooks -------------------------------------------------------------------------------
    def value(self, operand: Any) -> ir.Expr:
        """An operand used as a value."""
        return _value(self.b, operand)

    def predicate(self, operand: Any) -> ir.Expr:
        """An operand used as a truth value (a bare pattern is an existence test)."""
        return self.b._predicate(operand)

    def postfix_power(self, op: _Op) -> int:
        return _PRED

    def between(self, op: _Op, lhs: Any) -> ir.Expr:
        raise _err("BETWEEN is not an operator of this dialect", op.pos)

    # -- the climb ---------------------------------------------------------------------------
    def parse(self) -> ir.Expr:
        items = self.items
        if self.n == 3:
            # `a op b`, the usual flat expression: what the climb below does with it, directly
            lhs, op, rhs = items
            if (
                type(op) is _Op
                and op.kind != "postfix"
                and not isinstance(lhs, _Op)
                and not isinstance(rhs, _Op)
            ):
                meaning = self.table[op.value][1]
                if meaning != "BETWEEN":
                    return self.binary(op, meaning, lhs, rhs)
        return self.expression(0)

    def operand(self) -> Any:
        items = self.items
        start = self.i
        while self.i < self.n and isinstance(items[self.i], _Op) and items[self.i].kind == "prefix":
            self.i += 1
        run = self.i - start
        if run > _MAX_PREFIX_RUN:
            raise _err("too many prefix operators in a row", items[start].pos, "PARSE_TOO_DEEP")
        if run == 0:
            value = items[self.i]
            self.i += 1
            return value
        op = items[start]
        self.i = start + 1
        operand = self.expression(_PREFIX[op.value])
        return self.prefix(op, operand)

    def prefix(self, op: _Op, operand: Any) -> ir.Expr:
        if op.value in ("NOT", "!"):
            return ir.Not(self.predicate(operand), pos=op.pos)
        if op.value == "-":
            if isinstance(operand, ir.Integer):
                if operand.value > INT64_MAX:
                    self.b.pending_overflow.remove(operand.pos)
                return ir.Integer(-operand.value, pos=op.pos)
            if isinstance(operand, ir.Float):
                return ir.Float(-operand.value, pos=op.pos)
            return ir.Negate(self.value(operand), pos=op.pos)
        return ir.UnaryPlus(self.value(operand), pos=op.pos)

    def expression(self, min_bp: int) -> Any:
        items = self.items
        lhs = self.operand()
        chain_prev: Any = None
        while self.i < self.n:
            op = items[self.i]
            if op.kind == "postfix":
                if self.postfix_power(op) < min_bp:
                    break
                self.i += 1
                lhs = self.postfix(op, lhs)
                chain_prev = None
                continue
            bp, meaning = self.table[op.value]
            if bp < min_bp:
                break
            self.i += 1
            if meaning == "BETWEEN":
                lhs = self.between(op, lhs)
                chain_prev = None
                continue
            rhs = self.expression(bp + 1)
            if bp == _CMP and chain_prev is not None:
                if not self.CHAINED_COMPARISONS:
                    raise _err(
                        "comparisons cannot be chained; join them with AND",
                        op.pos,
                        "PARSE_CHAINED_COMPARISON",
                    )
                link = ir.Comparison(meaning, chain_prev, self.value(rhs), pos=op.pos)
                lhs = ir.And(lhs, link, pos=op.pos)
            else:
                lhs = self.binary(op, meaning, lhs, rhs)
            chain_prev = rhs if bp == _CMP else None
        return lhs

    def binary(self, op: _Op, meaning: Any, lhs: Any, rhs: Any) -> ir.Expr:
        pos = op.pos
        if meaning in (ir.And, ir.Or, ir.Xor):
            return meaning(self.predicate(lhs), self.predicate(rhs), pos=pos)
        if isinstance(meaning, ir.CompOp):
            if (
                meaning is ir.CompOp.EQ
                and isinstance(lhs, ir.Variable)
                and isinstance(rhs, _PatternExpr)
            ):
                # `p = (a)-->(b)`: only meaningful in a pattern comprehension, which takes it.
                return ir.Comparison(meaning, lhs, rhs, pos=pos)
            return ir.Comparison(meaning, self.value(lhs), self.value(rhs), pos=pos)
        lhs = self.value(lhs)
        rhs = self.value(rhs)
        if isinstance(meaning, ir.ArithOp):
            return ir.Arithmetic(meaning, lhs, rhs, pos=pos)
        if isinstance(meaning, ir.StringOp):
            return ir.StringMatch(meaning, lhs, rhs, pos=pos)
        if meaning is ir.In:
            return ir.In(lhs, rhs, pos=pos)
        return meaning(lhs, rhs, pos=pos)  # RegexMatch, Concat

    def postfix(self, op: _Op, lhs: Any) -> ir.Expr:
        lhs = self.value(lhs)
        kind = op.value[0]
        if kind == "null":
            return ir.IsNull(lhs, op.value[1], pos=op.pos)
        if kind == "type":
            return ir.TypeTest(lhs, op.value[2], op.value[1], pos=op.pos)
        if kind == "labeled":
            test = ir.HasLabels(lhs, op.value[2], pos=op.pos)
            return ir.Not(test, pos=op.pos) if op.value[1] else test
        _, negated, form = op.value
        normalized = ir.FunctionCall("normalize", (lhs, ir.String(form)), pos=op.pos)
        test = ir.Comparison(ir.CompOp.EQ, normalized, lhs, pos=op.pos)
        return ir.Not(test, pos=op.pos) if negated else test


CypherBuilder.PRATT = _Pratt
