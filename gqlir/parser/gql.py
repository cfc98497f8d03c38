"""The GQL builders: reductions of ``grammars/gql.lark`` (and its variants) straight into Graph-IR.

The architecture is the Cypher front end's (see :mod:`.cypher`): each method is named after a
grammar rule or alias, receives the rule's kept children and its start offset, and returns IR or
a short-lived marker. :class:`GqlBuilder` inherits the reductions whose shape and meaning are the
same in both languages (element patterns, label expressions, literals, CASE, types, procedure
calls) and defines the rest.

What GQL leaves implicit and the IR makes explicit:

* ``RETURN … NEXT`` is a non-final :class:`ir.Projection`; standalone ``ORDER BY``/``OFFSET``/
  ``LIMIT`` is a ``Projection(star=True, …)``; ``FOR x IN l WITH ORDINALITY i`` is an
  :class:`ir.Unwind` counted from 1 (``WITH OFFSET``: from 0).
* The default match mode (edge uniqueness) and where nulls sort come from the dialect's
  capabilities (``default_match_mode``, ``nulls_sort_high``).
* ``GROUP BY`` that names exactly the implicit grouping keys is ``group_by=None``. Where a
  grouping key must be a variable (capability ``group_by = "variables"``, ISO GQL), ``LET city =
  n.city RETURN city, count(*) AS c GROUP BY city`` is ``RETURN n.city AS city, count(*) AS
  c``: the form the GQL printer writes for a key that is not a variable reads back to the
  projection it came from.
* ``RETURN *`` is the variables in scope, by name, then the items written after it (the
  columns the GQL printer writes for a star), completed by the scoped pass below.
* ``LET a = …, b = a + 1``: a definition that reads one made in the same ``LET`` starts a new
  :class:`ir.Let` (the IR's LET evaluates its bindings in order, so this is the same meaning,
  and it is the form the GQL printer writes).
* ``WALK`` and ``TRAIL`` where the dialect has no path modes but keeps a MATCH's edges distinct
  (TuGraph GQL) add nothing and are not kept: the rule of :mod:`gqlir.passes.path_modes`.
* Function names become canonical through the dialect's ``[functions]`` table; GQL built-ins
  whose meaning differs from the canonical function of the same name are rewritten to one that
  means the same (``TRIM(s)`` trims spaces only: ``btrim(s, ' ')``; ``LOG(b, x)`` is
  ``ln(x) / ln(b)``; ``SUM(x)`` of no values is null: ``CASE WHEN count(x) < 1 THEN NULL ELSE
  sum(x) END``), and a name the dialect lists in ``unsupported_functions`` is refused.
* Edge patterns that begin, end or follow each other without a node pattern get the implicit
  empty node pattern the standard inserts, so ``-[e]->`` is ``()-[e]->()``.
* ``OPTIONAL { MATCH … MATCH … }`` is an optional :class:`ir.CallSubquery` over the whole
  incoming scope that returns the block's new variables, and ``MATCH … YIELD a, b`` hides the
  pattern's other variables with a projection. Both need the variables in scope, which a
  bottom-up parser does not know yet, so they are completed by one scoped pass over the finished
  IR (:meth:`GqlBuilder._resolve`), run only when a query has one of them.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from typing import Any

from .. import ir
from ..analysis.aggregates import aggregates
from ..dialect import Dialect
from ..errors import SemanticError, UnsupportedError
from ..ir import functions
from ..ir.analysis import free_variables
from ..ir.functions import BOUNDARY_PARTS, DATE_PARTS, INTERVAL_PARTS, TIMESTAMP_PARTS
from .aggregates import null_below
from .cypher import (
    _BINARY,
    _TYPE_SYNONYMS,
    CypherBuilder,
    _check_chain,
    _dotted_name,
    _err,
    _Limit,
    _Marker,
    _NotNull,
    _Op,
    _PathAssign,
    _Pratt,
    _Scope,
    _Skip,
    _Where,
    canonical_function,
    resolve_call,
)
from .literals import decode_accent_quoted, decode_float, decode_integer, decode_string

# -- markers --------------------------------------------------------------------------------------


class _NullHandling(_Marker):
    """GoogleSQL ``IGNORE NULLS`` (True) / ``RESPECT NULLS`` (False) in an aggregate call."""


class _Result(_Marker):
    """RETURN: the projection that ends a linear statement; an ORDER BY/OFFSET/LIMIT that follows
    belongs to it."""


class _OrderPage(_Marker):
    """ORDER BY / OFFSET / LIMIT as a statement; value is (order, skip, limit)."""


class _GraphPattern(_Marker):
    """A graph pattern: value is (mode, patterns, keep, where)."""


class _Prefix(_Marker):
    """A path pattern prefix: value is (search or None, path mode or None)."""


class _Group(_Marker):
    """GROUP BY: value is a list of keys, or None for GROUP BY ALL (GoogleSQL)."""


class _NullOrder(_Marker):
    pass


class _Next(_Marker):
    """NEXT [YIELD …] statement: value is (yield items or None, statement)."""


class _Index(_Marker):
    """FOR's WITH ORDINALITY / WITH OFFSET: value is (variable, base)."""


class _Typed(_Marker):
    pass


class _Predefined(_Marker):
    """A predefined catalog reference (HOME_GRAPH, CURRENT_GRAPH …)."""


class _Flag(_Marker):
    """A keyword that only switches an option on (IF NOT EXISTS, OR REPLACE ...)."""


class _Cost(_Marker):
    pass


class _Tuple(_Marker):
    """A parenthesised list ``(a, b)``: only the right operand of IN (GoogleSQL)."""


class _Alias(_Marker):
    pass


class _Delimited(str):
    """A name written as a delimited identifier (`…` or "…"): ISO GQL's binding variables are
    regular identifiers only (capability ``quoted_variables``)."""

    pos: int = 0


class _KeyLabels(_Marker):
    pass


class _Labels(_Marker):
    pass


class _Props(_Marker):
    pass


class _Arc(_Marker):
    """An edge type's arc: value is (direction, filler)."""


class _Pair(_Marker):
    """CONNECTING (a -> b): value is (source alias, destination alias, directed)."""


class _Copy(_Marker):
    pass


class _SelectBody(_Marker):
    pass


# Option flags of catalog statements (markers, so that no name can be mistaken for one).
_IF_NOT_EXISTS = _Flag("IF NOT EXISTS", -1)
_IF_EXISTS = _Flag("IF EXISTS", -1)
_OR_REPLACE = _Flag("OR REPLACE", -1)

# -- operators ------------------------------------------------------------------------------------

# Binding powers, loosest first. ISO GQL puts OR and XOR on one level (<boolean value expression>),
# and a truth test (IS [NOT] TRUE) binds looser than a comparison but tighter than NOT.
# NOT, comparison, predicate and prefix powers are Cypher's (the shared climb uses them).
_OR, _AND, _TRUTH, _CMP, _PRED, _ADD, _MUL = 10, 30, 45, 50, 60, 70, 80

GQL_BINARY: dict[str, tuple[int, Any]] = {
    "OR": (_OR, ir.Or),
    "XOR": (_OR, ir.Xor),
    "AND": (_AND, ir.And),
    # comparison, additive and multiplicative operators: as in Cypher, powers included
    **{op: _BINARY[op] for op in ("=", "<>", "<", ">", "<=", ">=", "-", "||", "*", "/")},
    # + adds numbers and || concatenates: GQL's <numeric value expression> and GoogleSQL's
    # operators ("+ All numeric types Addition"; "|| STRING, BYTES, or ARRAY<T> Concatenation",
    # https://cloud.google.com/spanner/docs/operators)
    "+": (_BINARY["+"][0], ir.ArithOp.ADD_NUMBERS),
}

# ISO GQL value expressions call only built-in functions (GQL.g4 20.9-20.29); these are their
# names. Anything else is a syntax error in ISO GQL (toUpper(), substring() ...).
# fmt: off
ISO_BUILTINS = frozenset(
    [
        "abs", "acos", "asin", "atan", "cos", "cot", "sin", "tan", "sinh", "cosh", "tanh",
        "degrees", "radians", "ceil", "ceiling", "floor", "exp", "ln", "log", "log10", "sqrt",
        "power", "mod", "char_length", "character_length", "byte_length", "octet_length", "upper",
        "lower", "left", "right", "trim", "btrim", "ltrim", "rtrim", "normalize", "cardinality",
        "size", "path_length", "element_id", "elements", "coalesce", "nullif", "date", "zoned_time",
        "local_time", "zoned_datetime", "local_datetime", "duration", "duration_between", "count",
        "sum", "avg", "min", "max", "collect_list", "stddev_samp", "stddev_pop", "percentile_cont",
        "percentile_disc", "property_exists", "same", "all_different"
    ]
)
# fmt: on

# Bare words that are functions without arguments (GQL.g4 20.27), as canonical calls.
_NILADIC = {
    "CURRENT_DATE": "date",
    "CURRENT_TIME": "time",
    "CURRENT_TIMESTAMP": "datetime",
    "LOCAL_TIMESTAMP": "localdatetime",
    "LOCAL_TIME": "localtime",
}

# Value types: GQL spellings with exactly the meaning of a canonical IR type name.
_GQL_TYPES = {
    **_TYPE_SYNONYMS,
    "INTEGER64": "INTEGER",
    "SIGNED INTEGER64": "INTEGER",
    "BIGINT": "INTEGER",
    "DOUBLE": "FLOAT",
    "DOUBLE PRECISION": "FLOAT",
    "TIMESTAMP": "LOCAL DATETIME",
    "RECORD": "MAP",
    "ANY RECORD": "MAP",
    "ANY EDGE": "RELATIONSHIP",
}

_ZONE = re.compile(r"(?:[zZ]|[+-]\d{1,2}(?::?\d{2})?|\[[^\]]+\])\s*$")

_DATA_MODIFYING = (ir.Create, ir.SetClause, ir.Remove, ir.Delete, ir.CallSubquery, ir.ProcedureCall)


class GqlBuilder(CypherBuilder):
    """Reduction callbacks for ISO GQL (``grammars/gql.lark``)."""

    WANTS_END = frozenset({"projection_item"})
    #: the dialect's binary operators: text -> (binding power, meaning)
    BINARY: dict[str, tuple[int, Any]] = GQL_BINARY
    PRATT = None  # set below, once _GqlPratt exists
    #: lower-case names callable in an expression; None: any name (a generic call syntax)
    BUILTINS: frozenset[str] | None = ISO_BUILTINS
    #: a standalone ORDER BY without OFFSET/LIMIT right after it has no effect (GoogleSQL)
    ORDER_NEEDS_PAGE = False
    #: the character that makes the next one of a LIKE pattern literal (GoogleSQL: backslash)
    LIKE_ESCAPE: str | None = "\\"

    #: ``variable`` returns the token's text for every kind but ESCAPED_NAME (``text_rules``).
    VARIABLE_IS_TEXT = True

    def variable(self, c: list, pos: int) -> str:
        token = c[0]
        if token[0] != "ESCAPED_NAME":
            return token[1]
        start = token[2] if len(token) > 2 else pos
        return _delimited(decode_accent_quoted(token[1], start), start)

    def _binding(self, name: Any, pos: int) -> Any:
        """``name`` as a binding variable: a delimited identifier only where the dialect allows
        one (``bindingVariable : REGULAR_IDENTIFIER``, GQL.g4 21.1)."""
        if isinstance(name, _Delimited) and not self.dialect.capabilities.quoted_variables:
            raise _err(
                f"a variable of {self.dialect.name} is a regular identifier, not a delimited "
                "one (bindingVariable : REGULAR_IDENTIFIER)",
                name.pos,
            )
        return name

    def node_pattern(self, c: list, pos: int) -> ir.NodePattern:
        return super().node_pattern([self._binding(x, pos) for x in c], pos)

    def var_ref(self, c: list, pos: int) -> ir.Variable:
        return super().var_ref([self._binding(c[0], pos)], pos)

    def parameter(self, c: list, pos: int) -> ir.Parameter:
        text = c[0][1][1:]
        name = decode_accent_quoted(text, pos) if text.startswith("`") else text
        return ir.Parameter(name, pos=pos)

    def __init__(self, dialect: Dialect) -> None:
        super().__init__(dialect)
        self.fixups: dict[int, tuple] = {}  # id(IR node) -> what the scoped pass must complete
        caps = dialect.capabilities
        self._groups_by_variables = caps.group_by == "variables"
        # WALK and TRAIL add nothing to a MATCH whose edges the dialect keeps distinct unasked
        # and it has no path modes to write them with (TuGraph GQL; the rule of
        # gqlir.passes.path_modes, which a translation to such a dialect runs)
        self._modes_add_nothing = (
            not {"WALK", "TRAIL"} <= set(caps.path_modes)
            and caps.default_match_mode == "DIFFERENT_EDGES"
            and not caps.match_modes
        )
        self.graph: str | None = None

    def begin(self, text: str, graph: str | None = None) -> None:
        super().begin(text)
        self.fixups = {}
        self.graph = graph  # the graph a query without a GRAPH clause reads (Spanner)

    # -- top level ---------------------------------------------------------------------------

    def start(self, c: list, pos: int) -> ir.Statement:
        statement = c[0]
        self._check_pending()
        if self.fixups:
            statement = _Resolver(self).statement(statement)
        return statement

    def request(self, c: list, pos: int) -> ir.Statement:
        """A GQL program (GQL.g4 gqlProgram): session commands or a transaction (its start, one
        procedure, its end), then possibly SESSION CLOSE. Several statements are a Program."""
        statements: list[ir.Statement] = []
        for x in c:
            statements.extend(x if isinstance(x, list) else [x])
        if not statements:
            raise _err("empty request: expected a statement", pos, "PARSE_EMPTY")
        session = [s for s in statements if isinstance(s, _SESSION_COMMANDS)]
        other = [s for s in statements if not isinstance(s, _SESSION_COMMANDS + (ir.SessionClose,))]
        if session and other:
            raise _err(
                "a GQL request holds session commands or a transaction, not both",
                _pos_of(other[0], pos),
            )
        resets = [i for i, s in enumerate(statements) if isinstance(s, ir.SessionReset)]
        if resets:
            late = [s for s in statements[resets[0] :] if isinstance(s, _SESSION_SETS)]
            if late:
                raise _err("SESSION SET commands come before SESSION RESET", _pos_of(late[0], pos))
        for s in other:
            if isinstance(s, ir.Query):
                self._check_complete(s)
        if len(statements) == 1:
            return statements[0]
        return ir.Program(tuple(statements), pos=pos)

    def transaction_activity(self, c: list, pos: int) -> list:
        return list(c)

    def _check_complete(self, query: ir.Query) -> None:
        """A statement must produce a result (RETURN, FINISH) or change data (GQL 14.1)."""
        if isinstance(query, ir.LinearQuery):
            steps = query.steps
            if steps and isinstance(steps[-1], (ir.Projection, ir.Finish)):
                return
            if any(isinstance(s, _DATA_MODIFYING) for s in steps):
                return
            raise _err(
                "a query must end with RETURN or FINISH",
                query.pos if query.pos is not None else 0,
                "PARSE_NO_RESULT",
            )

    # -- session and transaction commands ------------------------------------------------------

    def session_set_schema(self, c: list, pos: int) -> ir.SessionSetSchema:
        return ir.SessionSetSchema(_ref_name(c[-1]), pos=pos)

    def session_set_graph(self, c: list, pos: int) -> ir.SessionSetGraph:
        return ir.SessionSetGraph(_ref_name(c[-1]), pos=pos)

    def session_set_time_zone(self, c: list, pos: int) -> ir.SessionSetTimeZone:
        return ir.SessionSetTimeZone(self._string(c[0]), pos=pos)

    def session_set_value(self, c: list, pos: int) -> ir.SessionSetParameter:
        if_not_exists = _IF_NOT_EXISTS in c
        name = next(x for x in c if isinstance(x, tuple))[1][1:]
        typed = next((x.value for x in c if isinstance(x, _Typed)), None)
        return ir.SessionSetParameter(name, c[-1], typed, if_not_exists, pos=pos)

    def session_reset(self, c: list, pos: int) -> ir.SessionReset:
        if not c:
            return ir.SessionReset(pos=pos)
        target, parameter = c[0]
        return ir.SessionReset(target, parameter, pos=pos)

    def reset_target(self, c: list, pos: int) -> tuple:
        words = [t[1].upper() for t in c if t[0] != "PARAM"]
        param = next((t[1][1:] for t in c if t[0] == "PARAM"), None)
        if param is not None:
            return (ir.SessionResetTarget.PARAMETER, param)
        if "TIME" in words:
            return (ir.SessionResetTarget.TIME_ZONE, None)
        if "GRAPH" in words:
            return (ir.SessionResetTarget.GRAPH, None)
        return (ir.SessionResetTarget[words[-1]], None)

    def session_close(self, c: list, pos: int) -> ir.SessionClose:
        return ir.SessionClose(pos=pos)

    def start_transaction(self, c: list, pos: int) -> ir.StartTransaction:
        modes = [x for x in c if isinstance(x, _Marker)]
        if len(modes) > 1:
            raise _err("a transaction has one access mode", modes[1].pos)
        return ir.StartTransaction(bool(modes) and modes[0].value == "READ ONLY", pos=pos)

    def access_mode(self, c: list, pos: int) -> _Marker:
        return _Marker(" ".join(t[1].upper() for t in c), pos)

    def commit(self, c: list, pos: int) -> ir.Commit:
        return ir.Commit(pos=pos)

    def rollback(self, c: list, pos: int) -> ir.Rollback:
        return ir.Rollback(pos=pos)

    # -- procedures and statements -------------------------------------------------------------

    def procedure(self, c: list, pos: int) -> ir.Statement:
        statement = c[-1]
        bindings = tuple(c[:-1])
        if not bindings:
            return statement
        if not isinstance(statement, ir.LinearQuery):
            raise UnsupportedError(
                "VALUE definitions before a composite statement",
                self.dialect.name,
                "variables defined ahead of a UNION or a catalog statement have no IR form",
                offset=bindings[0].pos,
            )
        let = ir.Let(bindings, pos=bindings[0].pos)
        return ir.LinearQuery((let,) + statement.steps, pos=pos)

    def value_definition(self, c: list, pos: int) -> ir.Binding:
        return self.let_binding(c, pos)

    def let_clause(self, c: list, pos: int) -> ir.Let | tuple[ir.Let, ...]:
        """A definition that reads one made earlier in the same LET starts a new LET."""
        groups: list[list[ir.Binding]] = [[]]
        bound: set[str] = set()
        for binding in c:
            reads = {v.name for v in binding.value.find_all(ir.Variable)}
            if groups[-1] and not bound.isdisjoint(reads):
                groups.append([])
                bound = set()
            groups[-1].append(binding)
            bound.add(binding.variable)
        if len(groups) == 1:
            return ir.Let(tuple(c), pos=pos)
        return tuple(
            ir.Let(tuple(g), pos=g[0].pos if g[0].pos is not None else pos) for g in groups
        )

    def let_binding(self, c: list, pos: int) -> ir.Binding:
        typed = next((x for x in c if isinstance(x, _Typed)), None)
        if typed is not None:
            raise UnsupportedError(
                "typed value variable",
                self.dialect.name,
                "a declared value type is a runtime check the IR does not carry",
                rewrite="drop the type, or CAST the value",
                offset=typed.pos,
            )
        return ir.Binding(self._binding(c[0], pos), c[-1], pos=pos)

    def typed_type(self, c: list, pos: int) -> _Typed:
        return _Typed(c[0], pos)

    def statement_block(self, c: list, pos: int) -> ir.Statement:
        if len(c) == 1:
            return c[0]
        parts: list[tuple[Any, Any, int]] = [(None, c[0], c[0].pos or pos)]
        parts += [(n.value[0], n.value[1], n.pos) for n in c[1:]]
        steps: list[ir.Step] = []
        last = len(parts) - 1
        for i, (yields, part, ppos) in enumerate(parts):
            if not isinstance(part, ir.Query):
                raise _err("NEXT chains queries; a catalog statement cannot take part", ppos)
            if yields is not None and not _passes_through(steps, yields):
                steps.append(ir.Projection(yields, pos=ppos))
            if isinstance(part, ir.LinearQuery):
                if i < last and not (part.steps and isinstance(part.steps[-1], ir.Projection)):
                    raise _err("the statement before NEXT must end with RETURN", ppos)
                steps.extend(part.steps)
            elif i == 0:
                # The first statement reads the empty unit table, so calling it as a subquery
                # with no imports yields exactly its result table.
                steps.append(ir.CallSubquery(part, (), pos=part.pos))
            else:
                raise UnsupportedError(
                    "composite query after NEXT",
                    self.dialect.name,
                    "each branch of a UNION after NEXT reads the whole incoming table; the IR "
                    "has no step for that",
                    offset=ppos,
                )
        return ir.LinearQuery(tuple(steps), pos=pos)

    def next_statement(self, c: list, pos: int) -> _Next:
        yields = None
        if len(c) > 2:
            items = c[1]["items"]
            yields = tuple(
                ir.ReturnItem(ir.Variable(y.field, pos=y.pos), y.alias or y.field, pos=y.pos)
                for y in items
            )
        return _Next((yields, c[-1]), pos)

    def catalog_statements(self, c: list, pos: int) -> ir.Statement:
        if len(c) == 1:
            return c[0]
        return ir.Program(tuple(c), pos=pos)

    def composite_query(self, c: list, pos: int) -> ir.Query:
        if len(c) == 1:
            return c[0]
        _check_chain(len(c) // 2, pos)
        first_op = c[1]
        for i in range(0, len(c), 2):
            part = c[i]
            if not _has_result(part):
                raise _err(
                    "each query of a UNION/EXCEPT/INTERSECT/OTHERWISE must end with RETURN",
                    part.pos if part.pos is not None else pos,
                )
        result = c[0]
        for i in range(1, len(c), 2):
            op, all_, opos = c[i].value
            if (op, all_) != first_op.value[:2]:
                raise SemanticError(
                    "a composite query uses one query conjunction throughout",
                    offset=opos,
                    code="SEMANTIC_UNION_MIX",
                )
            result = ir.SetOperation(op, result, c[i + 1], all=all_, pos=opos)
        return result

    def query_conjunction(self, c: list, pos: int) -> _Marker:
        word = c[0][1].upper()
        quantifier = c[1] if len(c) > 1 else "DISTINCT"
        return _Marker((ir.SetOp[word], quantifier == "ALL", pos), pos)

    def set_quantifier(self, c: list, pos: int) -> str:
        return c[0][1].upper()

    def linear_query(self, c: list, pos: int) -> ir.Query:
        if len(c) == 1 and isinstance(c[0], ir.Query):
            return c[0]
        steps: list[ir.Step] = []
        result: int | None = None
        finished = False
        paged = False
        for x in c:
            if x is None:
                continue
            if result is not None or finished:
                if isinstance(x, _OrderPage) and result is not None and not paged:
                    order, skip, limit = x.value
                    order = self._sort_keys(steps[result], order)
                    steps[result] = replace(steps[result], order_by=order, skip=skip, limit=limit)
                    paged = True
                    continue
                if isinstance(x, _OrderPage) and paged:
                    message = "after RETURN come ORDER BY, then OFFSET/SKIP, then LIMIT, each once"
                else:
                    where = "RETURN" if result is not None else "FINISH"
                    message = f"{where} ends a linear statement; continue with NEXT"
                raise _err(message, _pos_of(x, pos), "PARSE_CLAUSE_ORDER")
            if isinstance(x, _Result):
                projection = x.value
                if steps and isinstance(steps[-1], ir.Let) and self._groups_by_variables:
                    let, projection = _fold_grouping_lets(steps.pop(), projection)
                    if let is not None:
                        steps.append(let)
                steps.append(projection)
                result = len(steps) - 1
            elif isinstance(x, _OrderPage):
                step = self._order_step(x)
                if step is not None:
                    steps.append(step)
            elif isinstance(x, tuple):
                steps.extend(x)
            else:
                if isinstance(x, ir.Finish):
                    finished = True
                steps.append(x)
        return ir.LinearQuery(tuple(steps), pos=pos)

    def _sort_keys(self, result: ir.Step, order: tuple) -> tuple:
        """The sort keys of the ORDER BY that follows a RETURN (a dialect may read them)."""
        return order

    def _order_step(self, page: _OrderPage) -> ir.Projection | None:
        order, skip, limit = page.value
        if self.ORDER_NEEDS_PAGE and skip is None and limit is None:
            return None
        return ir.Projection(star=True, order_by=order, skip=skip, limit=limit, pos=page.pos)

    def nested_procedure(self, c: list, pos: int) -> ir.Statement:
        return c[0]

    def focused_nested(self, c: list, pos: int) -> ir.Query:
        use, query = c
        if not isinstance(query, ir.Query):
            raise _err("USE … { } needs a query inside the braces", pos)
        if use is None:
            return query
        if isinstance(query, ir.LinearQuery):
            return ir.LinearQuery((use,) + query.steps, pos=pos)
        call = ir.CallSubquery(query, (), pos=query.pos)
        return ir.LinearQuery((use, call, ir.Projection(star=True, pos=pos)), pos=pos)

    # -- reading statements --------------------------------------------------------------------

    def graph_pattern(self, c: list, pos: int) -> _GraphPattern:
        mode = self.default_mode
        patterns: tuple = ()
        keep = where = None
        for x in c:
            if isinstance(x, ir.MatchMode):
                mode = x
            elif isinstance(x, _Prefix):
                keep = x
            elif isinstance(x, _Where):
                where = x.value
            else:
                patterns = x
        if keep is not None:
            patterns = self._keep(patterns, keep)
        return _GraphPattern((mode, patterns, where), pos)

    def _keep(self, patterns: tuple, keep: _Prefix) -> tuple:
        """KEEP applies a path mode to every path of the graph pattern after matching; a path
        mode only filters paths, so that is the same as each path pattern having it. A KEEP
        selector (ANY SHORTEST …) selects across the joined match and has no such form."""
        search, mode = keep.value
        if search is not None:
            raise UnsupportedError(
                "KEEP with a path search prefix",
                self.dialect.name,
                "KEEP selects paths after the whole graph pattern is matched; the IR has "
                "search prefixes per path pattern only",
                offset=keep.pos,
            )
        if mode is None:
            return patterns
        out = []
        for p in patterns:
            if p.mode is not None and p.mode is not mode:
                raise UnsupportedError(
                    "KEEP with a different path mode",
                    self.dialect.name,
                    f"a path pattern has {p.mode.value} and KEEP asks for {mode.value}",
                    offset=keep.pos,
                )
            out.append(replace(p, mode=mode))
        return tuple(out)

    def match_mode(self, c: list, pos: int) -> ir.MatchMode:
        if c[0][1].upper() == "REPEATABLE":
            return ir.MatchMode.REPEATABLE_ELEMENTS
        return ir.MatchMode.DIFFERENT_EDGES

    def keep_clause(self, c: list, pos: int) -> _Prefix:
        return _Prefix(c[0].value, pos)

    def pattern_yield(self, c: list, pos: int) -> _Marker:
        return _Marker(tuple(c), pos)

    def match_clause(self, c: list, pos: int, optional: bool = False) -> ir.Step | tuple:
        mode, patterns, where = c[0].value
        match = ir.Match(patterns, where, optional, mode, pos=pos)
        if self._modes_add_nothing and mode is ir.MatchMode.DIFFERENT_EDGES:
            match = replace(match, patterns=tuple(_without_trail(p) for p in patterns))
        if len(c) == 1:
            return match
        yielded = c[1]
        bound = _pattern_variables(patterns)
        for name in yielded.value:
            if name not in bound:
                raise _err(f"YIELD {name}: the graph pattern binds no such variable", yielded.pos)
        projection = ir.Projection(pos=yielded.pos)
        self.fixups[id(projection)] = ("yield", yielded.value, yielded.pos)
        return (match, projection)

    def optional_match(self, c: list, pos: int) -> ir.Step | tuple:
        return self.match_clause(c, pos, optional=True)

    def optional_block(self, c: list, pos: int) -> ir.Step:
        steps: list = c[0]
        if len(steps) == 1:
            only = steps[0]
            if isinstance(only, ir.Match):
                return replace(only, optional=True, pos=pos)
            if isinstance(only, ir.CallSubquery) and only.optional:
                return only
        call = ir.CallSubquery(ir.LinearQuery(tuple(steps), pos=pos), None, True, pos=pos)
        self.fixups[id(call)] = ("optional", pos)
        return call

    def match_block(self, c: list, pos: int) -> list:
        steps: list = []
        for x in c:
            steps.extend(x if isinstance(x, tuple) else (x,))
        return steps

    def for_clause(self, c: list, pos: int) -> ir.Unwind:
        index = next((x.value for x in c if isinstance(x, _Index)), None)
        if index is None:
            return ir.Unwind(c[1], c[0], pos=pos)
        return ir.Unwind(c[1], c[0], index[0], index[1], pos=pos)

    def for_index(self, c: list, pos: int) -> _Index:
        word = c[0][1].upper()
        return _Index((c[1], 1 if word == "ORDINALITY" else 0), pos)

    def order_clause(self, c: list, pos: int) -> _OrderPage:
        order: tuple = ()
        skip = limit = None
        for x in c:
            if isinstance(x, _Skip):
                skip = x.value
            elif isinstance(x, _Limit):
                limit = x.value
            else:
                order = x
        return _OrderPage((order, skip, limit), pos)

    def sort_item(self, c: list, pos: int) -> ir.SortItem:
        descending = any(x is True for x in c[1:])
        nulls = next((x.value for x in c if isinstance(x, _NullOrder)), None)
        if nulls is None:
            nulls = descending == self.nulls_high
        return ir.SortItem(c[0], descending, nulls, pos=pos)

    def null_order(self, c: list, pos: int) -> _NullOrder:
        return _NullOrder(c[1][1].upper() == "FIRST", pos)

    def call_subquery(self, c: list, pos: int) -> ir.CallSubquery:
        optional = any(isinstance(x, tuple) for x in c)
        scope = next((x for x in c if isinstance(x, _Scope)), None)
        query = c[-1]
        if not isinstance(query, ir.Query):
            raise _err("CALL { } needs a query or data-modifying statement inside", pos)
        # Without a variable scope clause an inline procedure sees the whole incoming record
        # (ISO GQL 15.2; https://www.ultipa.com/docs/gql/call: "If omitted, all current
        # variables are implicitly imported").
        imports = scope.value if scope is not None else None
        return ir.CallSubquery(query, imports, optional, pos=pos)

    def use_clause(self, c: list, pos: int) -> ir.UseGraph | None:
        ref = c[0]
        if isinstance(ref, _Predefined):
            if ref.value == "CURRENT_GRAPH":
                # The current working graph is already the graph in use: no step.
                return None
            raise UnsupportedError(
                f"USE {ref.value}",
                self.dialect.name,
                "the IR names graphs; the session's home graph has no name here",
                rewrite="USE the graph by its name",
                offset=ref.pos,
            )
        return ir.UseGraph(ref, pos=pos)

    # -- RETURN and SELECT ---------------------------------------------------------------------

    def return_clause(self, c: list, pos: int) -> _Result:
        projection = self._projection_of(c, pos)
        if projection.star:
            self.fixups[id(projection)] = ("star", pos)
        return _Result(projection, pos)

    def _projection_of(self, c: list, pos: int) -> ir.Projection:
        distinct = False
        body: dict = {"star": False, "items": ()}
        group: _Group | None = None
        for x in c:
            if isinstance(x, str):
                distinct = x == "DISTINCT"
            elif isinstance(x, dict):
                body = x
            elif isinstance(x, _Group):
                group = x
        items = []
        for expr, alias, text, ipos in body["items"]:
            if alias is None:
                alias = (
                    expr.name if isinstance(expr, ir.Variable) else self._implicit_alias(expr, text)
                )
            items.append(ir.ReturnItem(expr, alias, pos=ipos))
        group_by = self._group_by(items, group) if group is not None else None
        return ir.Projection(
            tuple(items), star=body["star"], distinct=distinct, group_by=group_by, pos=pos
        )

    def _implicit_alias(self, expr: ir.Expr, text: str) -> str:
        """The column name of an unaliased RETURN item: its text, as the Cypher builder does
        (ISO GQL leaves it implementation-defined)."""
        return text

    def _group_by(self, items: list[ir.ReturnItem], group: _Group) -> tuple[ir.Expr, ...] | None:
        """Explicit grouping keys, or None when they are exactly the implicit ones (the items
        that do not aggregate, when some item does)."""
        implicit = [i.expr for i in items if not aggregates(i.expr)]
        aggregating = len(implicit) < len(items)
        if group.value is None:  # GROUP BY ALL: the groupable items
            keys = implicit
        else:
            keys = [self._group_key(items, key) for key in group.value]
        for key in keys:
            if aggregates(key):
                raise _err("a grouping key cannot be an aggregate", group.pos)
        if aggregating and _same_set(keys, implicit):
            return None
        return tuple(keys)

    def _group_key(self, items: list[ir.ReturnItem], key: ir.Expr) -> ir.Expr:
        """A grouping key: a RETURN item's name stands for the item's expression."""
        if isinstance(key, ir.Variable):
            for item in items:
                if item.alias == key.name:
                    return item.expr
        return key

    def projection_items(self, c: list, pos: int) -> dict:
        star = bool(c) and isinstance(c[0], tuple) and len(c[0]) == 3 and c[0][0] == "STAR"
        return {"star": star, "items": tuple(c[1:] if star else c)}

    def group_by(self, c: list, pos: int) -> _Group:
        return _Group(list(c), pos)

    def group_by_empty(self, c: list, pos: int) -> _Group:
        return _Group([], pos)

    def group_key(self, c: list, pos: int) -> ir.Expr:
        if isinstance(c[0], str):
            return ir.Variable(c[0], pos=pos)
        return c[0]

    def select_statement(self, c: list, pos: int) -> ir.LinearQuery:
        body = next((x for x in c if isinstance(x, _SelectBody)), None)
        head = [x for x in c if x is not body]
        steps: list[ir.Step] = []
        order: tuple = ()
        skip = limit = None
        group = None
        if body is not None:
            for x in body.value:
                if isinstance(x, list):
                    steps.extend(x)
                elif isinstance(x, _Where):
                    steps.append(ir.Filter(x.value, pos=x.pos))
                elif isinstance(x, _Group):
                    group = x
                elif isinstance(x, _Skip):
                    skip = x.value
                elif isinstance(x, _Limit):
                    limit = x.value
                elif isinstance(x, tuple):
                    order = x
        if group is not None:
            head.append(group)
        projection = self._projection_of(head, pos)
        projection = replace(projection, order_by=order, skip=skip, limit=limit)
        return ir.LinearQuery(tuple(steps) + (projection,), pos=pos)

    def select_body(self, c: list, pos: int) -> _SelectBody:
        return _SelectBody(list(c), pos)

    def select_source(self, c: list, pos: int) -> list:
        use = self.use_clause([c[0]], pos)
        match = list(c[1]) if isinstance(c[1], tuple) else [c[1]]
        return ([use] if use is not None else []) + match

    def select_nested(self, c: list, pos: int) -> list:
        query = c[-1]
        if not isinstance(query, ir.Query):
            raise _err("SELECT … FROM { } needs a query inside the braces", pos)
        steps: list = []
        if len(c) > 1:
            use = self.use_clause([c[0]], pos)
            if use is not None:
                steps.append(use)
        steps.append(ir.CallSubquery(query, (), pos=query.pos))
        return steps

    def having(self, c: list, pos: int) -> None:
        raise UnsupportedError(
            "SELECT … HAVING",
            self.dialect.name,
            "HAVING may use aggregates that are not selected; the IR filters projected columns",
            rewrite="RETURN the aggregate with an alias, then NEXT FILTER on it",
            offset=pos,
        )

    # -- data-modifying statements -------------------------------------------------------------

    def insert_clause(self, c: list, pos: int) -> ir.Create:
        for pattern in c[0]:
            _check_insert(pattern)
        return ir.Create(c[0], pos=pos)

    def set_property(self, c: list, pos: int) -> ir.SetProperty:
        return ir.SetProperty(ir.Variable(c[0], pos=pos), c[1], c[2], pos=pos)

    def set_all(self, c: list, pos: int) -> ir.SetProperties:
        if not isinstance(c[1], ir.MapLiteral):
            raise _err("SET x = needs a record of properties { … }", c[1].pos or pos)
        return ir.SetProperties(c[0], c[1], merge=False, pos=pos)

    def set_label(self, c: list, pos: int) -> ir.SetLabels:
        return ir.SetLabels(c[0], c[1], pos=pos)

    def remove_clause(self, c: list, pos: int) -> ir.Remove:
        return ir.Remove(tuple(c), pos=pos)

    def remove_property(self, c: list, pos: int) -> ir.RemoveProperty:
        return ir.RemoveProperty(ir.Variable(c[0], pos=pos), c[1], pos=pos)

    def remove_label(self, c: list, pos: int) -> ir.RemoveLabels:
        return ir.RemoveLabels(c[0], c[1], pos=pos)

    def label_set(self, c: list, pos: int) -> tuple[str, ...]:
        return tuple(c)

    # -- catalog statements --------------------------------------------------------------------

    def if_not_exists(self, c: list, pos: int) -> _Flag:
        return _IF_NOT_EXISTS

    def if_exists(self, c: list, pos: int) -> _Flag:
        return _IF_EXISTS

    def or_replace(self, c: list, pos: int) -> _Flag:
        return _OR_REPLACE

    def create_schema(self, c: list, pos: int) -> ir.CreateSchema:
        return ir.CreateSchema(c[-1], _IF_NOT_EXISTS in c, pos=pos)

    def drop_schema(self, c: list, pos: int) -> ir.DropSchema:
        return ir.DropSchema(c[-1], _IF_EXISTS in c, pos=pos)

    def create_graph(self, c: list, pos: int) -> ir.CreateGraph:
        flags = [x for x in c if isinstance(x, _Flag)]
        self._check_or_replace(flags, pos)
        names = [x for x in c if isinstance(x, str)]
        source = next(x for x in c if isinstance(x, ir.Node))
        copy = next((x.value for x in c if isinstance(x, _Copy)), None)
        return ir.CreateGraph(
            names[0], source, copy, _IF_NOT_EXISTS in flags, _OR_REPLACE in flags, pos=pos
        )

    def _check_or_replace(self, flags: list, pos: int) -> None:
        if _IF_NOT_EXISTS in flags and _OR_REPLACE in flags:
            raise _err("OR REPLACE and IF NOT EXISTS cannot be combined", pos)

    def open_graph_type(self, c: list, pos: int) -> ir.OpenGraphType:
        return ir.OpenGraphType(pos=pos)

    def graph_like(self, c: list, pos: int) -> ir.GraphTypeLike:
        return ir.GraphTypeLike(_ref_name(c[-1]), pos=pos)

    def graph_type_name(self, c: list, pos: int) -> ir.GraphTypeName:
        return ir.GraphTypeName(c[-1], pos=pos)

    def graph_type_source(self, c: list, pos: int) -> ir.GraphTypeSpec:
        return c[-1]

    def graph_copy(self, c: list, pos: int) -> _Copy:
        return _Copy(_ref_name(c[0]), pos)

    def drop_graph(self, c: list, pos: int) -> ir.DropGraph:
        return ir.DropGraph(c[-1], _IF_EXISTS in c, pos=pos)

    def create_graph_type(self, c: list, pos: int) -> ir.CreateGraphType:
        flags = [x for x in c if isinstance(x, _Flag)]
        self._check_or_replace(flags, pos)
        names = [x for x in c if isinstance(x, str)]
        source = c[-1]
        return ir.CreateGraphType(
            names[0], source, _IF_NOT_EXISTS in flags, _OR_REPLACE in flags, pos=pos
        )

    def graph_type_copy(self, c: list, pos: int) -> ir.GraphTypeName:
        return ir.GraphTypeName(c[-1], pos=pos)

    def graph_type_def(self, c: list, pos: int) -> ir.GraphTypeSpec:
        return c[-1]

    def drop_graph_type(self, c: list, pos: int) -> ir.DropGraphType:
        return ir.DropGraphType(c[-1], _IF_EXISTS in c, pos=pos)

    def graph_type_spec(self, c: list, pos: int) -> ir.GraphTypeSpec:
        return ir.GraphTypeSpec(tuple(c), pos=pos)

    def node_type_pattern(self, c: list, pos: int) -> ir.NodeType:
        return self._node_type(c, pos)

    def node_type_phrase(self, c: list, pos: int) -> ir.NodeType:
        return self._node_type(c, pos)

    def _node_type(self, c: list, pos: int) -> ir.NodeType:
        name = next((x for x in c if isinstance(x, str)), None)
        alias = next((x.value for x in c if isinstance(x, _Alias)), None)
        filler = next((x for x in c if isinstance(x, dict)), {})
        return ir.NodeType(name, alias, **filler, pos=pos)

    def endpoint_type(self, c: list, pos: int) -> ir.NodeType:
        return self._node_type(c, pos)

    def edge_type_pattern(self, c: list, pos: int) -> ir.EdgeType:
        kind = next((x for x in c if isinstance(x, bool)), None)
        name = next((x for x in c if isinstance(x, str)), None)
        ends = [x for x in c if isinstance(x, ir.NodeType)]
        arc = next(x for x in c if isinstance(x, _Arc))
        direction, filler = arc.value
        directed = direction != "~"
        self._check_edge_kind(kind, directed, pos)
        source, destination = (ends[1], ends[0]) if direction == "<-" else (ends[0], ends[1])
        return ir.EdgeType(source, destination, directed, name, **filler, pos=pos)

    def edge_type_phrase(self, c: list, pos: int) -> ir.EdgeType:
        kind = next((x for x in c if isinstance(x, bool)), None)
        name = next((x for x in c if isinstance(x, str)), None)
        filler = next((x for x in c if isinstance(x, dict)), {})
        pair = next(x for x in c if isinstance(x, _Pair))
        source, destination, directed = pair.value
        self._check_edge_kind(kind, directed, pos)
        return ir.EdgeType(
            ir.NodeType(alias=source, pos=pair.pos),
            ir.NodeType(alias=destination, pos=pair.pos),
            directed,
            name,
            **filler,
            pos=pos,
        )

    def _check_edge_kind(self, kind: bool | None, directed: bool, pos: int) -> None:
        if kind is not None and kind != directed:
            word = "DIRECTED" if kind else "UNDIRECTED"
            raise _err(
                f"a {word} edge type needs a {'directed' if kind else 'undirected'} arc", pos
            )

    def node_type_filler(self, c: list, pos: int) -> dict:
        out: dict = {}
        for x in c:
            if isinstance(x, _KeyLabels):
                out["key_labels"] = x.value
            elif isinstance(x, _Labels):
                out["labels"] = x.value
            elif isinstance(x, _Props):
                out["properties"] = x.value
        return out

    def key_label_set(self, c: list, pos: int) -> _KeyLabels:
        labels = next((x.value for x in c if isinstance(x, _Labels)), ())
        return _KeyLabels(labels, pos)

    def type_label_set(self, c: list, pos: int) -> _Labels:
        value = c[0]
        return _Labels(value if isinstance(value, tuple) else (value,), pos)

    def property_types(self, c: list, pos: int) -> _Props:
        return _Props(tuple(c), pos)

    def property_type(self, c: list, pos: int) -> ir.PropertyType:
        return ir.PropertyType(c[0], c[-1], pos=pos)

    def arc_right(self, c: list, pos: int) -> _Arc:
        return _Arc(("->", c[0] if c else {}), pos)

    def arc_left(self, c: list, pos: int) -> _Arc:
        return _Arc(("<-", c[0] if c else {}), pos)

    def arc_undirected(self, c: list, pos: int) -> _Arc:
        return _Arc(("~", c[0] if c else {}), pos)

    def pair_right(self, c: list, pos: int) -> _Pair:
        return _Pair((c[0].value, c[-1].value, True), pos)

    def pair_left(self, c: list, pos: int) -> _Pair:
        return _Pair((c[-1].value, c[0].value, True), pos)

    def pair_undirected(self, c: list, pos: int) -> _Pair:
        return _Pair((c[0].value, c[-1].value, False), pos)

    def type_alias(self, c: list, pos: int) -> _Alias:
        return _Alias(c[0], pos)

    def node_word(self, c: list, pos: int) -> None:
        return None

    def edge_word(self, c: list, pos: int) -> None:
        return None

    def edge_kind(self, c: list, pos: int) -> bool:
        return c[0][1].upper() == "DIRECTED"

    def catalog_path(self, c: list, pos: int) -> str:
        return "/" + "/".join(c)

    def catalog_name(self, c: list, pos: int) -> str:
        """A graph, graph type or schema name. An undelimited part is a regular identifier, so
        not a reserved word (CREATE GRAPH g TYPED is missing its type, not naming one)."""
        for part in c:
            bare = isinstance(part, str) and not isinstance(part, _Delimited)
            if bare and part.upper() in self.dialect.reserved_words and not part.startswith("/"):
                raise _err(f"{part} is a reserved word, not a name; delimit it: `{part}`", pos)
        return ".".join(c)

    def home_schema(self, c: list, pos: int) -> str:
        return "HOME_SCHEMA"

    def current_schema(self, c: list, pos: int) -> str:
        return "CURRENT_SCHEMA"

    def home_graph(self, c: list, pos: int) -> _Predefined:
        return _Predefined("HOME_GRAPH", pos)

    def current_graph(self, c: list, pos: int) -> _Predefined:
        return _Predefined("CURRENT_GRAPH", pos)

    # -- path patterns -------------------------------------------------------------------------

    def path_pattern(self, c: list, pos: int) -> ir.PathPattern:
        variable = search = mode = None
        for x in c[:-1]:
            if isinstance(x, _PathAssign):
                variable = x.value
            elif isinstance(x, _Prefix):
                search, mode = x.value
        return ir.PathPattern(_as_path(c[-1], pos), variable, search, mode, pos=pos)

    def path_assign(self, c: list, pos: int) -> _PathAssign:
        return _PathAssign(self._binding(c[0], pos), pos)

    def mode_prefix(self, c: list, pos: int) -> _Prefix:
        return _Prefix((None, c[0]), pos)

    def path_mode(self, c: list, pos: int) -> ir.PathMode:
        return ir.PathMode[c[0][1].upper()]

    def path_word(self, c: list, pos: int) -> None:
        return None

    def _search(
        self, kind: ir.SearchKind | None, c: list, pos: int, k: int | ir.Expr | None = None
    ) -> _Prefix:
        mode = next((x for x in c if isinstance(x, ir.PathMode)), None)
        search = ir.Search(kind, k, pos=pos) if kind is not None else None
        return _Prefix((search, mode), pos)

    def all_paths(self, c: list, pos: int) -> _Prefix:
        return self._search(None, c, pos)

    def any_k(self, c: list, pos: int) -> _Prefix:
        return self._search(ir.SearchKind.ANY, c, pos, _count_of(c, 1))

    def any_shortest(self, c: list, pos: int) -> _Prefix:
        return self._search(ir.SearchKind.ANY_SHORTEST, c, pos)

    def all_shortest(self, c: list, pos: int) -> _Prefix:
        return self._search(ir.SearchKind.ALL_SHORTEST, c, pos)

    def shortest_k(self, c: list, pos: int) -> _Prefix:
        k = _count_of(c, 1)
        if k == 1:
            return self._search(ir.SearchKind.ANY_SHORTEST, c, pos)
        return self._search(ir.SearchKind.SHORTEST_K, c, pos, k)

    def shortest_groups(self, c: list, pos: int) -> _Prefix:
        k = _count_of(c, 1)
        if k == 1:
            return self._search(ir.SearchKind.ALL_SHORTEST, c, pos)
        return self._search(ir.SearchKind.SHORTEST_K_GROUPS, c, pos, k)

    def path_union(self, c: list, pos: int) -> ir.PathUnion:
        return ir.PathUnion(tuple(c), pos=pos)

    def path_multiset(self, c: list, pos: int) -> ir.PathUnion:
        return ir.PathUnion(tuple(c), multiset=True, pos=pos)

    def path_term(self, c: list, pos: int) -> ir.PathChain:
        return _gql_chain(c, pos)

    def paren_path(self, c: list, pos: int) -> ir.ParenPath:
        variable = where = quantifier = mode = None
        path = None
        for x in c:
            if isinstance(x, _PathAssign):
                variable = x.value
            elif isinstance(x, _Prefix):
                mode = x.value[1]
            elif isinstance(x, _Where):
                where = x.value
            elif isinstance(x, ir.Quantifier):
                quantifier = x
            else:
                path = x
        return ir.ParenPath(_as_path(path, pos), quantifier, where, variable, mode, pos=pos)

    def questioned(self, c: list, pos: int) -> None:
        raise UnsupportedError(
            "? path quantifier",
            self.dialect.name,
            "`(…)?` keeps its variables singletons (null when absent); the IR's {0,1} makes "
            "them lists",
            rewrite="use {0,1}, or OPTIONAL MATCH",
            offset=pos,
        )

    def label_or(self, c: list, pos: int) -> ir.LabelExpr:
        _check_chain(len(c), pos)
        result = c[0]
        for right in c[1:]:
            result = ir.LabelOr(result, right, pos=pos)
        return result

    def label_and(self, c: list, pos: int) -> ir.LabelExpr:
        """``A & B``: GQL has no colon conjunction (``:A:B``), so the joiner is always AND."""
        _check_chain(len(c), pos)
        result = c[0]
        for right in c[1:]:
            result = ir.LabelAnd(result, right, pos=pos)
        return result

    def properties(self, c: list, pos: int) -> ir.MapLiteral:
        return ir.MapLiteral(tuple(c), pos=pos)

    def quoted_variable(self, c: list, pos: int) -> str:
        _, text, tpos = c[0]
        if not text.startswith('"'):
            raise _err('a name cannot be a single-quoted string; use "…" or `…`', tpos)
        return _delimited(self._string(c[0]), tpos)

    def edge_pattern(self, c: list, pos: int) -> ir.RelPattern:
        rel = c[0]
        if len(c) > 1:
            rel = replace(rel, quantifier=c[1], pos=pos)
        return rel

    def edge_filler(self, c: list, pos: int) -> dict:
        detail: dict = {}
        for x in c:
            if isinstance(x, str):
                detail["variable"] = self._binding(x, pos)
            elif isinstance(x, ir.LabelExpr):
                detail["types"] = x
            elif isinstance(x, _Where):
                detail["where"] = x.value
            elif isinstance(x, _Cost):
                detail["cost"] = x.value
            else:
                detail["properties"] = x
        return detail

    def _edge(self, direction: ir.Direction, c: list, pos: int) -> ir.RelPattern:
        detail = c[0] if c else {}
        return ir.RelPattern(direction, **detail, pos=pos)

    def edge_out(self, c: list, pos: int) -> ir.RelPattern:
        return self._edge(ir.Direction.OUT, c, pos)

    def edge_in(self, c: list, pos: int) -> ir.RelPattern:
        return self._edge(ir.Direction.IN, c, pos)

    def edge_any(self, c: list, pos: int) -> ir.RelPattern:
        return self._edge(ir.Direction.EITHER, c, pos)

    def edge_undirected(self, c: list, pos: int) -> ir.RelPattern:
        return self._edge(ir.Direction.UNDIRECTED, c, pos)

    def edge_left_right(self, c: list, pos: int) -> ir.RelPattern:
        return self._edge(ir.Direction.BOTH, c, pos)

    def edge_left_undirected(self, c: list, pos: int) -> None:
        raise self._direction_unsupported("<~ (pointing left or undirected)", pos)

    def edge_undirected_right(self, c: list, pos: int) -> None:
        raise self._direction_unsupported("~> (undirected or pointing right)", pos)

    def _direction_unsupported(self, what: str, pos: int) -> UnsupportedError:
        return UnsupportedError(
            f"edge direction {what}",
            self.dialect.name,
            "the IR has out, in, either-directed, undirected and any-direction edges only",
            rewrite="a path pattern union of the two directions",
            offset=pos,
        )

    # -- expressions ---------------------------------------------------------------------------

    def is_truth(self, c: list, pos: int) -> _Op:
        negated = any(isinstance(x, tuple) and x[0] == "NOT" for x in c)
        return _Op("postfix", ("truth", negated, ir.TruthValue[c[-1]]), pos)

    def truth_value(self, c: list, pos: int) -> str:
        return c[0][1].upper()

    def is_directed(self, c: list, pos: int) -> _Op:
        return _Op("postfix", ("directed", bool(c)), pos)

    def is_source(self, c: list, pos: int) -> _Op:
        negated = any(isinstance(x, tuple) for x in c)
        return _Op("postfix", ("endpoint", negated, ir.Endpoint.SOURCE, c[-1]), pos)

    def is_destination(self, c: list, pos: int) -> _Op:
        negated = any(isinstance(x, tuple) for x in c)
        return _Op("postfix", ("endpoint", negated, ir.Endpoint.DESTINATION, c[-1]), pos)

    def call_args(self, c: list, pos: int) -> tuple:
        distinct = False
        if c and isinstance(c[0], str):
            distinct = c[0] == "DISTINCT"
            c = c[1:]
        return ("args", distinct, tuple(c))

    def _membership(self, container: Any, pos: int) -> ir.Expr:
        """The list that ``x IN …`` tests; ISO GQL has no IN predicate (the grammar never
        asks for one)."""
        raise _err("IN is not a GQL predicate", pos)

    def niladic(self, c: list, pos: int) -> ir.Expr:
        word = c[0][1].upper()
        return ir.FunctionCall(_NILADIC[word], (), pos=pos)

    def keyword_call(self, c: list, pos: int) -> ir.Expr:
        return self._function(c[0][1], c[1], pos)

    def trim_plain(self, c: list, pos: int) -> ir.Expr:
        return self._function("TRIM", c[0] if c else ("args", False, ()), pos)

    def trim_spec(self, c: list, pos: int) -> str:
        return c[0][1].upper()

    def trim_from(self, c: list, pos: int) -> ir.Expr:
        """``TRIM(LEADING 'x' FROM s)``: ltrim(s, 'x'); BOTH (the default) is btrim, TRAILING
        rtrim; without a character, a space. GQL trims one character (GQL.g4 20.23
        trimCharacterOrByteString; its length must be 1)."""
        spec = next((x for x in c if isinstance(x, str)), "BOTH")
        values = [_val(x) for x in c if not isinstance(x, str)]
        source = values[-1]
        char = values[0] if len(values) == 2 else ir.String(" ", pos=pos)
        if isinstance(char, ir.String) and len(char.value) != 1:
            raise _err("TRIM … FROM removes one character; use BTRIM/LTRIM/RTRIM for more", pos)
        name = {"BOTH": "btrim", "LEADING": "ltrim", "TRAILING": "rtrim"}[spec]
        return ir.FunctionCall(name, (source, char), pos=pos)

    def _call(self, base: Any, args: tuple, pos: int) -> ir.Expr:
        name = _dotted_name(base)
        start = base.pos if base.pos is not None else pos
        if name is None:
            raise _err("only a function name can be called", start)
        return self._function(name, args, start)

    def _function(self, name: str, args: tuple, start: int) -> ir.Expr:
        """A call of function ``name`` as written, made canonical (see the module docstring)."""
        kind, distinct, values = args
        low = name.lower()
        if kind == "star":
            if low != "count":
                raise _err(f"{name}(*) is not a function call; only count(*) takes *", start)
            return ir.CountStar(pos=start)
        if self.BUILTINS is not None and low not in self.BUILTINS:
            raise _err(
                f"{name}() is not a built-in function of {self.dialect.name}",
                start,
                "PARSE_UNKNOWN_FUNCTION",
            )
        for value in values:
            _val(value)
        special = self._special_function(low, name, values, start)
        if special is not None:
            if distinct:
                raise _err(f"DISTINCT is only allowed in aggregate functions, not {name}()", start)
            return special
        canonical = canonical_function(self.dialect, name, start)
        call = resolve_call(name, canonical, values, distinct, start)
        if isinstance(call, ir.Aggregate) and call.name == canonical:
            return self._aggregate(call)  # (not a coalesce(...) resolve_call made plain)
        return call

    def _aggregate(self, agg: ir.Aggregate) -> ir.Expr:
        """GQL's aggregates follow SQL where the canonical (Cypher) ones differ: SUM and
        STDDEV_POP of no values are null (Cypher: 0), STDDEV_SAMP of fewer than two values is
        null (Cypher: 0.0). The list aggregate may keep nulls or give null for no rows
        (capabilities ``collect_keeps_nulls``, ``collect_empty_null``: Spanner's ARRAY_AGG)."""
        if agg.name in ("sum", "stdevp"):
            return null_below(agg, 1)
        if agg.name == "stdev":
            return null_below(agg, 2)
        if agg.name == "collect":
            caps = self.dialect.capabilities
            result: ir.Expr = agg
            if caps.collect_keeps_nulls and not getattr(self, "_ignoring_nulls", False):
                # collect([x]) keeps a [null] where collect(x) drops the null; unwrap each item.
                pos = agg.pos
                wrapped = replace(agg, args=(ir.ListLiteral(agg.args, pos=pos),))
                item = ir.Index(ir.Variable("item", pos=pos), ir.Integer(0, pos=pos), pos=pos)
                result = ir.ListComprehension("item", wrapped, None, item, pos=pos)
            if getattr(caps, "collect_empty_null", False):
                empty = ir.Comparison(ir.CompOp.EQ, ir.CountStar(pos=agg.pos), ir.Integer(0))
                when = ir.CaseWhen(empty, ir.Null(pos=agg.pos), pos=agg.pos)
                result = ir.Case(None, (when,), result, pos=agg.pos)
            return result
        return agg

    def _special_function(self, low: str, name: str, args: tuple, start: int) -> ir.Expr | None:
        """GQL built-ins that are operators, predicates or a different canonical function."""
        n = len(args)
        if low == "mod" and n == 2:
            return ir.Arithmetic(ir.ArithOp.MOD, args[0], args[1], pos=start)
        if low == "power" and n == 2:
            return ir.Arithmetic(ir.ArithOp.POW, args[0], args[1], pos=start)
        if low == "log" and n == 2:
            # LOG(base, x) is the logarithm of x to the given base: ln(x) / ln(base). gqlir's
            # canonical log() is the natural logarithm (Cypher's log, GQL's LN).
            return ir.Arithmetic(
                ir.ArithOp.DIV,
                ir.FunctionCall("log", (args[1],), pos=start),
                ir.FunctionCall("log", (args[0],), pos=start),
                pos=start,
            )
        if low in ("trim", "btrim", "ltrim", "rtrim") and n == 1:
            # GQL's one-argument trims remove spaces only (neo4j gql-conformance
            # supported-optional.adoc); gqlir's btrim/ltrim/rtrim with a character set say that.
            canonical = "btrim" if low in ("trim", "btrim") else low
            return ir.FunctionCall(canonical, (args[0], ir.String(" ")), pos=start)
        if low == "trim" and n == 2:
            raise UnsupportedError(
                "TRIM(list, n)",
                self.dialect.name,
                "dropping the last n list elements has no IR function",
                offset=start,
            )
        if low in ("property_exists", "same", "all_different"):
            return self._element_predicate(low, name, args, start)
        if low == "normalize" and n == 2 and isinstance(args[1], ir.Variable):
            form = args[1].name.upper()
            if form not in ("NFC", "NFD", "NFKC", "NFKD"):
                raise _err(f"{args[1].name} is not a normal form (NFC, NFD, NFKC, NFKD)", start)
            return ir.FunctionCall("normalize", (args[0], ir.String(form)), pos=start)
        return None

    def _element_predicate(self, low: str, name: str, args: tuple, start: int) -> ir.Expr:
        for arg in args:
            if not isinstance(arg, ir.Variable):
                raise _err(f"{name}() takes element variables", arg.pos or start)
        if low == "property_exists":
            if len(args) != 2:
                raise _err("PROPERTY_EXISTS(element, property) takes two arguments", start)
            return ir.PropertyExists(args[0], args[1].name, pos=start)
        if len(args) < 2:
            raise _err(f"{name}() takes at least two element variables", start)
        if low == "same":
            return ir.Same(tuple(args), pos=start)
        return ir.AllDifferent(tuple(args), pos=start)

    def cast_expr(self, c: list, pos: int) -> ir.Cast:
        return ir.Cast(_val(c[0]), c[1], pos=pos)

    def typed_literal(self, c: list, pos: int) -> ir.TemporalLiteral:
        word = c[0][1].upper()
        text = self._string(c[1])
        return ir.TemporalLiteral(self._temporal_kind(word, text), text, pos=pos)

    def _temporal_kind(self, word: str, text: str) -> ir.TemporalKind:
        """GQL follows SQL: a TIME or DATETIME/TIMESTAMP literal without a time zone is a local
        one; with a zone (Z, +01:00, [Europe/Paris]) a zoned one."""
        if word == "DATE":
            return ir.TemporalKind.DATE
        if word == "DURATION":
            return ir.TemporalKind.DURATION
        if word == "TIME":
            zoned = bool(_ZONE.search(text))
            return ir.TemporalKind.TIME if zoned else ir.TemporalKind.LOCAL_TIME
        time_part = re.split(r"[Tt ]", text.strip(), maxsplit=1)
        zoned = len(time_part) > 1 and bool(_ZONE.search(time_part[1]))
        return ir.TemporalKind.DATETIME if zoned else ir.TemporalKind.LOCAL_DATETIME

    def exists_pattern(self, c: list, pos: int) -> ir.Exists:
        mode, patterns, where = c[0].value
        match = ir.Match(patterns, where, mode=mode, pos=c[0].pos)
        return ir.Exists(ir.LinearQuery((match,), pos=c[0].pos), pos=pos)

    def exists_block(self, c: list, pos: int) -> ir.Exists:
        return ir.Exists(ir.LinearQuery(tuple(c[0]), pos=pos), pos=pos)

    def exists_query(self, c: list, pos: int) -> ir.Exists:
        query = c[0]
        if not isinstance(query, ir.Query):
            raise _err("EXISTS { } needs a query inside the braces", pos)
        return ir.Exists(query, pos=pos)

    def value_subquery(self, c: list, pos: int) -> ir.ValueSubquery:
        query = c[0]
        if not isinstance(query, ir.Query) or not _has_result(query):
            raise _err("VALUE { } needs a query that ends with RETURN", pos)
        return ir.ValueSubquery(query, pos=pos)

    # -- literals and names --------------------------------------------------------------------

    def _string(self, token: tuple) -> str:
        _, text, tpos = token
        quote = text[0]
        doubled = quote * 2
        if doubled in text[1:-1]:
            # A doubled quote stands for one quote character (ISO GQL <double single quote>).
            body = re.sub(
                r"\\.|" + re.escape(doubled),
                lambda m: quote if m.group() == doubled else m.group(),
                text[1:-1],
                flags=re.DOTALL,
            )
            if "\\" not in body:
                return body
            return decode_string(quote + body.replace(quote, "\\" + quote) + quote, tpos)
        return decode_string(text, tpos)

    def lit_string(self, c: list, pos: int) -> ir.String:
        return ir.String(self._string(c[0]), pos=c[0][2])

    def lit_int(self, c: list, pos: int) -> ir.Integer:
        _, text, tpos = c[0]
        if text[:2] in ("0b", "0B"):
            digits = text[2:].replace("_", "")
            if not digits or text.endswith("_") or "__" in text:
                raise _err(f"invalid number literal {text!r}", tpos, "PARSE_NUMBER")
            value = int(digits, 2)
        else:
            value = decode_integer(text, tpos)
        return self._integer(value, tpos)

    def lit_float(self, c: list, pos: int) -> ir.Float:
        _, text, tpos = c[0]
        return ir.Float(decode_float(text, tpos), pos=tpos)

    def type_term(self, c: list, pos: int) -> ir.TypeRef:
        name = _GQL_TYPES.get(c[0], c[0])
        not_null = any(isinstance(x, _NotNull) for x in c)
        return ir.TypeRef(name, not_null=not_null, pos=pos)

    def postfix_list_type(self, c: list, pos: int) -> ir.TypeRef:
        not_null = any(isinstance(x, _NotNull) for x in c)
        return ir.TypeRef("LIST", not_null=not_null, element=c[0], pos=pos)

    def bare_list_type(self, c: list, pos: int) -> ir.TypeRef:
        """``LIST`` alone: a list of values of any type."""
        not_null = any(isinstance(x, _NotNull) for x in c)
        return ir.TypeRef("LIST", not_null=not_null, pos=pos)

    def type_length(self, c: list, pos: int) -> None:
        raise UnsupportedError(
            "value type with a length or precision",
            self.dialect.name,
            "the IR's value types have no length, precision or scale",
            offset=pos,
        )


class _Resolver:
    """Completes the IR that needs the variables in scope (see the module docstring): one pass
    from the root down, tracking the variables each step leaves in scope (None: not known, e.g.
    after a procedure call without YIELD)."""

    def __init__(self, builder: GqlBuilder) -> None:
        self.b = builder
        self.fixups = builder.fixups

    def statement(self, node: ir.Statement) -> ir.Statement:
        return self.rewrite(node, {})

    def rewrite(self, node: Any, scope: dict | None) -> Any:
        if isinstance(node, ir.Query):
            return self.query(node, scope)[0]
        if isinstance(node, ir.Node):
            changes = {}
            for name, value in node.field_values():
                new = self.rewrite(value, scope)
                if new is not value:
                    changes[name] = new
            return replace(node, **changes) if changes else node
        if isinstance(node, tuple):
            new = tuple(self.rewrite(v, scope) for v in node)
            return node if all(a is b for a, b in zip(new, node)) else new
        return node

    def query(self, q: ir.Query, scope: dict | None) -> tuple[ir.Query, dict | None]:
        if isinstance(q, ir.SetOperation):
            left, out = self.query(q.left, scope)
            right, _ = self.query(q.right, scope)
            return replace(q, left=left, right=right), out
        if not isinstance(q, ir.LinearQuery):
            return self.rewrite_fields(q, scope), None
        cur = dict(scope) if scope is not None else None
        prev = cur
        steps: list[ir.Step] = []
        for step in q.steps:
            fix = self.fixups.get(id(step))
            if fix is not None and fix[0] == "yield":
                step = self.yield_projection(step, fix, prev)
            elif fix is not None and fix[0] == "star":
                step = self.rewrite_fields(_expand_star(step, cur, fix[1]), cur)
            elif isinstance(step, ir.CallSubquery):
                step, out = self.call(step, cur, fix)
                steps.append(step)
                prev, cur = cur, _union(cur, out)
                continue
            else:
                inner = _after(step, cur) if isinstance(step, ir.Match) else cur
                step = self.rewrite_fields(step, inner)
            steps.append(step)
            prev, cur = cur, _after(step, cur)
        return replace(q, steps=tuple(steps)), cur

    def rewrite_fields(self, node: ir.Node, scope: dict | None) -> ir.Node:
        changes = {}
        for name, value in node.field_values():
            new = self.rewrite(value, scope)
            if new is not value:
                changes[name] = new
        return replace(node, **changes) if changes else node

    def call(self, step: ir.CallSubquery, cur: dict | None, fix: tuple | None) -> tuple:
        inner_scope = cur if step.imports is None else dict.fromkeys(step.imports)
        inner, inner_out = self.query(step.query, inner_scope)
        if fix is None:
            return replace(step, query=inner), _columns(inner)
        if cur is None or inner_out is None:
            raise self.unknown_scope("OPTIONAL { … } with several statements", fix[1])
        new = [v for v in inner_out if v not in cur]
        if not new:
            raise UnsupportedError(
                "OPTIONAL { … } that binds no new variable",
                self.b.dialect.name,
                "the block would have to return nothing, and the IR's optional subquery "
                "returns columns",
                offset=fix[1],
            )
        items = tuple(ir.ReturnItem(ir.Variable(v, pos=fix[1]), v, pos=fix[1]) for v in new)
        assert isinstance(inner, ir.LinearQuery)
        query = replace(inner, steps=inner.steps + (ir.Projection(items, pos=fix[1]),))
        return replace(step, query=query), dict.fromkeys(new)

    def yield_projection(
        self, step: ir.Projection, fix: tuple, before: dict | None
    ) -> ir.Projection:
        _, names, pos = fix
        if before is None:
            raise self.unknown_scope("MATCH … YIELD", pos)
        keep = list(before) + [n for n in names if n not in before]
        items = tuple(ir.ReturnItem(ir.Variable(v, pos=pos), v, pos=pos) for v in keep)
        return replace(step, items=items)

    def unknown_scope(self, what: str, pos: int) -> UnsupportedError:
        return UnsupportedError(
            what,
            self.b.dialect.name,
            "the variables in scope are not known here (a procedure call without YIELD "
            "comes before it)",
            rewrite="YIELD the procedure's columns",
            offset=pos,
        )


class _GqlPratt(_Pratt):
    """GQL's precedence climb: a truth test binds looser than comparisons, comparisons do not
    chain, a parenthesised list or UNNEST() may only follow IN, and GoogleSQL has BETWEEN."""

    __slots__ = ()
    CHAINED_COMPARISONS = False

    def value(self, operand: Any) -> ir.Expr:
        return _val(operand)

    predicate = value

    def postfix_power(self, op: _Op) -> int:
        return _TRUTH if op.value[0] == "truth" else _PRED

    def between(self, op: _Op, lhs: Any) -> ir.Expr:
        """GoogleSQL ``x [NOT] BETWEEN a AND b``: ``x >= a AND x <= b``."""
        low = self.expression(_AND + 1)
        if self.i >= self.n or not (
            isinstance(self.items[self.i], _Op) and self.items[self.i].value == "AND"
        ):
            raise _err("BETWEEN needs AND and an upper bound", op.pos)
        self.i += 1
        high = self.expression(_CMP + 1)
        x = _val(lhs)
        test = ir.And(
            ir.Comparison(ir.CompOp.GE, x, _val(low), pos=op.pos),
            ir.Comparison(ir.CompOp.LE, x, _val(high), pos=op.pos),
            pos=op.pos,
        )
        return ir.Not(test, pos=op.pos) if op.value.startswith("NOT") else test

    def binary(self, op: _Op, meaning: Any, lhs: Any, rhs: Any) -> ir.Expr:
        pos = op.pos
        if isinstance(meaning, str) and meaning.startswith("tugraph."):
            return ir.FunctionCall(meaning, (_val(lhs), _val(rhs)), pos=pos)
        if meaning in ("IN", "NOT IN"):
            test = ir.In(_val(lhs), self.b._membership(rhs, pos), pos=pos)
            return ir.Not(test, pos=pos) if meaning == "NOT IN" else test
        if meaning in ("LIKE ANY", "LIKE ALL"):
            return self.b._quantified_like(meaning, _val(lhs), rhs, pos)
        if meaning in ("LIKE", "NOT LIKE"):
            # GoogleSQL's LIKE reads a backslash as an escape (operators.md, LIKE operator)
            negated = meaning == "NOT LIKE"
            escape: str | None = getattr(self.b, "LIKE_ESCAPE", "\\")
            return ir.Like(_val(lhs), _val(rhs), negated=negated, escape=escape, pos=pos)
        return super().binary(op, meaning, lhs, rhs)

    def prefix(self, op: _Op, operand: Any) -> ir.Expr:
        if op.value == "~":  # TuGraph's bit inversion
            return ir.FunctionCall("tugraph.bit_not", (_val(operand),), pos=op.pos)
        if op.value == "!" and isinstance(operand, (ir.Integer, ir.Float, ir.String)):
            # MySQL's ! makes 0 true and other numbers false; the IR's NOT takes booleans only
            raise UnsupportedError(
                "! of a number or string",
                self.b.dialect.name,
                "TuGraph's ! reads a number as a truth value; the IR's NOT takes booleans",
                rewrite="compare it: x = 0",
                offset=op.pos,
            )
        return super().prefix(op, operand)

    def postfix(self, op: _Op, lhs: Any) -> ir.Expr:
        kind = op.value[0]
        pos = op.pos
        if kind == "truth":
            return ir.IsTruth(_val(lhs), op.value[2], op.value[1], pos=pos)
        if kind == "directed":
            return ir.IsDirected(_val(lhs), op.value[1], pos=pos)
        if kind == "endpoint":
            _, negated, endpoint, edge = op.value
            return ir.IsEndpoint(_val(lhs), ir.Variable(edge, pos=pos), endpoint, negated, pos=pos)
        return super().postfix(op, lhs)


# -- helpers --------------------------------------------------------------------------------------

_SESSION_SETS = (
    ir.SessionSetSchema,
    ir.SessionSetGraph,
    ir.SessionSetTimeZone,
    ir.SessionSetParameter,
)
_SESSION_COMMANDS = _SESSION_SETS + (ir.SessionReset,)


def _val(value: Any) -> ir.Expr:
    """An operand used as a value: a parenthesised list and UNNEST() are only the right side of
    IN."""
    if isinstance(value, _Marker):
        what = {
            "_Unnest": "UNNEST( ) is only allowed after IN",
            "_Subquery": "a { subquery } is only allowed after IN, EXISTS, VALUE or ARRAY",
            "_Position": "OFFSET( ), ORDINAL( ) and their SAFE_ forms are only allowed in [ ]",
        }.get(value.__class__.__name__, "a parenthesised list is only allowed after IN")
        raise _err(what, value.pos)
    return value


def _delimited(name: str, pos: int) -> _Delimited:
    out = _Delimited(name)
    out.pos = pos
    return out


def _pos_of(x: Any, default: int) -> int:
    pos = getattr(x, "pos", None)
    if pos is None and isinstance(x, tuple) and x:
        pos = getattr(x[0], "pos", None)
    return default if pos is None else pos


def _ref_name(ref: Any) -> str:
    return ref.value if isinstance(ref, _Predefined) else ref


def _count_of(c: list, default: int) -> int:
    for x in c:
        if isinstance(x, tuple) and x[0] == "INTEGER":
            return decode_integer(x[1], x[2])
    return default


def _has_result(query: Any) -> bool:
    if isinstance(query, ir.SetOperation):
        return _has_result(query.left) and _has_result(query.right)
    return (
        isinstance(query, ir.LinearQuery)
        and bool(query.steps)
        and isinstance(query.steps[-1], ir.Projection)
    )


def _passes_through(steps: list, yields: tuple) -> bool:
    """Would YIELD keep exactly the columns the previous RETURN produced, in order?"""
    if not steps or not isinstance(steps[-1], ir.Projection) or steps[-1].star:
        return False
    returned = [i.alias for i in steps[-1].items]
    return returned == [y.alias for y in yields] and all(
        isinstance(y.expr, ir.Variable) and y.expr.name == y.alias for y in yields
    )


def _same_set(a: list, b: list) -> bool:
    return all(x in b for x in a) and all(x in a for x in b)


def _as_path(path: Any, pos: int) -> ir.PathChain | ir.PathUnion:
    if isinstance(path, (ir.PathChain, ir.PathUnion)):
        return path
    return _gql_chain([path], pos)


def _gql_chain(elements: list, pos: int) -> ir.PathChain:
    """Element patterns in sequence, with the empty node patterns the standard implies wherever
    an edge pattern is not between two node patterns (``-[e]->`` is ``()-[e]->()``)."""
    out: list = []
    for element in elements:
        if (
            isinstance(element, ir.RelPattern)
            and (not out or not isinstance(out[-1], ir.NodePattern))
        ) or (
            out and isinstance(out[-1], ir.RelPattern) and not isinstance(element, ir.NodePattern)
        ):
            out.append(ir.NodePattern(pos=element.pos))
        out.append(element)
    if out and isinstance(out[-1], ir.RelPattern):
        out.append(ir.NodePattern(pos=out[-1].pos))
    return ir.PathChain(tuple(out), pos=pos)


def _pattern_variables(patterns: Any) -> dict:
    """Variables a graph pattern binds, in order of appearance."""
    names: dict = {}
    for pattern in patterns:
        for node in pattern.walk():
            name = None
            if isinstance(node, (ir.NodePattern, ir.RelPattern, ir.PathPattern, ir.ParenPath)):
                name = node.variable
            if name is not None:
                names[name] = None
    return names


def _after(step: ir.Step, cur: dict | None) -> dict | None:
    """The variables in scope after ``step``, given those before it."""
    if isinstance(step, ir.Projection):
        aliases = dict.fromkeys(i.alias for i in step.items)
        if step.star:
            return _union(cur, aliases)
        return aliases
    if isinstance(step, (ir.Match, ir.Create)):
        return _union(cur, _pattern_variables(step.patterns))
    if isinstance(step, ir.Merge):
        return _union(cur, _pattern_variables((step.pattern,)))
    if isinstance(step, ir.Unwind):
        names = [step.variable] + ([step.index] if step.index else [])
        return _union(cur, dict.fromkeys(names))
    if isinstance(step, ir.Let):
        return _union(cur, dict.fromkeys(b.variable for b in step.bindings))
    if isinstance(step, ir.LoadCsv):
        return _union(cur, {step.variable: None})
    if isinstance(step, ir.ProcedureCall):
        if step.yields is None:
            return None
        return _union(cur, dict.fromkeys(y.alias or y.field for y in step.yields))
    return cur


def _without_trail(pattern: ir.PathPattern) -> ir.PathPattern:
    """``pattern`` without WALK or TRAIL on it or on its parenthesised sub-paths."""

    def strip(node: Any) -> Any:
        if isinstance(node, (ir.PathPattern, ir.ParenPath)) and node.mode in _TRAIL_OR_LESS:
            return replace(node, mode=None)
        return node

    return pattern.transform(strip)


_TRAIL_OR_LESS = frozenset({ir.PathMode.WALK, ir.PathMode.TRAIL})


def _expand_star(step: ir.Projection, cur: dict | None, pos: int) -> ir.Projection:
    """``RETURN *, …`` as the variables in scope by name, then the other items; left a star
    where the scope is not known (after a procedure call without YIELD)."""
    if cur is None:
        return step
    named = {i.alias for i in step.items}
    star = tuple(
        ir.ReturnItem(ir.Variable(v, pos=pos), v, pos=pos) for v in sorted(cur) if v not in named
    )
    if not star and not step.items:
        return step
    return replace(step, items=star + step.items, star=False)


def _fold_grouping_lets(
    let: ir.Let, projection: ir.Projection
) -> tuple[ir.Let | None, ir.Projection]:
    """``LET city = n.city RETURN city, count(*) AS c GROUP BY city`` as ``RETURN n.city AS
    city, count(*) AS c``: a LET variable that the grouping RETURN right after it only returns
    under its own name, as a grouping key, is that expression (the form the GQL printer writes
    for a grouping key that is not a variable, read back to the projection it came from)."""
    if projection.distinct or projection.star or projection.group_by is not None:
        return let, projection
    if not any(aggregates(i.expr) for i in projection.items):
        return let, projection
    folded: dict[str, ir.Expr] = {}
    for binding in let.bindings:
        name = binding.variable
        uses = [
            i for i in projection.items if any(v.name == name for v in i.expr.find_all(ir.Variable))
        ]
        if (
            len(uses) == 1
            and uses[0].alias == name
            and isinstance(uses[0].expr, ir.Variable)
            and not aggregates(binding.value)
        ):
            folded[name] = binding.value
    if not folded:
        return let, projection
    items = tuple(
        replace(i, expr=folded[i.alias])
        if i.alias in folded and isinstance(i.expr, ir.Variable)
        else i
        for i in projection.items
    )
    rest = tuple(b for b in let.bindings if b.variable not in folded)
    kept = replace(let, bindings=rest) if rest else None
    return kept, replace(projection, items=items)


def _union(a: dict | None, b: dict | None) -> dict | None:
    if a is None or b is None:
        return None
    return {**a, **b}


def _columns(query: ir.Query) -> dict | None:
    """The columns a subquery returns (none for a unit subquery without RETURN)."""
    if isinstance(query, ir.SetOperation):
        return _columns(query.left)
    if isinstance(query, ir.LinearQuery):
        if not query.steps or not isinstance(query.steps[-1], ir.Projection):
            return {}
        last = query.steps[-1]
        if last.star:
            return None
        return dict.fromkeys(i.alias for i in last.items)
    return None


def _check_insert(pattern: ir.PathPattern) -> None:
    """INSERT takes node and edge patterns with labels (``&`` only) and property values; an
    edge points left, right, or is undirected (GQL.g4 16.5 insert graph pattern)."""
    if pattern.variable is not None or pattern.search is not None or pattern.mode is not None:
        raise _err("INSERT takes no path variable, search prefix or path mode", pattern.pos or 0)
    if not isinstance(pattern.path, ir.PathChain):
        raise _err("INSERT takes no path pattern union", pattern.path.pos or 0)
    for element in pattern.path.elements:
        epos = element.pos if element.pos is not None else 0
        if isinstance(element, ir.ParenPath):
            raise _err("INSERT takes node and edge patterns only", epos)
        if element.where is not None:
            raise _err("INSERT takes property values, not WHERE", epos)
        labels = element.types if isinstance(element, ir.RelPattern) else element.labels
        if labels is not None and not _label_set(labels):
            raise _err("INSERT labels are a set of names joined by &", epos)
        if element.properties is not None and not isinstance(element.properties, ir.MapLiteral):
            raise _err("INSERT property values are written { key: value }", epos)
        if isinstance(element, ir.RelPattern):
            if element.quantifier is not None:
                raise _err("INSERT cannot quantify an edge", epos)
            if element.direction not in (
                ir.Direction.OUT,
                ir.Direction.IN,
                ir.Direction.UNDIRECTED,
            ):
                raise _err("an inserted edge points left, right, or is undirected (~[ ]~)", epos)


def _label_set(labels: ir.LabelExpr) -> bool:
    if isinstance(labels, ir.Label):
        return True
    if isinstance(labels, ir.LabelAnd):
        return _label_set(labels.left) and _label_set(labels.right)
    return False


# -- dialect variants -----------------------------------------------------------------------------

# GoogleSQL operator precedence (google/zetasql docs/operators.md, "Operator precedence"):
# * / || bind tighter than + -, comparisons (incl. LIKE, IN, BETWEEN) sit above NOT, AND, OR.
SPANNER_BINARY: dict[str, tuple[int, Any]] = {
    **{k: v for k, v in GQL_BINARY.items() if k != "XOR"},
    "!=": (_CMP, ir.CompOp.NE),
    "||": (_MUL, ir.Concat),
    "LIKE": (_CMP, "LIKE"),
    "NOT LIKE": (_CMP, "NOT LIKE"),
    "IN": (_CMP, "IN"),
    "NOT IN": (_CMP, "NOT IN"),
    "BETWEEN": (_CMP, "BETWEEN"),
    "NOT BETWEEN": (_CMP, "BETWEEN"),
    # GoogleSQL's / of two integers is a float (operators.md, arithmetic operators)
    "/": (_BINARY["/"][0], ir.ArithOp.DIV_FLOAT),
    "LIKE ANY": (_CMP, "LIKE ANY"),
    "LIKE SOME": (_CMP, "LIKE ANY"),
    "LIKE ALL": (_CMP, "LIKE ALL"),
}

# GoogleSQL aggregate functions with no IR aggregate of the same meaning
# (google/zetasql docs/aggregate_functions.md): read as scalar calls they would change grouping.
# fmt: off
_GOOGLESQL_AGGREGATES = frozenset(
    [
        "any_value", "array_concat_agg", "bit_and", "bit_or", "bit_xor", "countif", "logical_and",
        "logical_or", "string_agg", "approx_count_distinct", "approx_quantiles", "approx_top_count",
        "approx_top_sum", "corr", "covar_pop", "covar_samp", "var_pop", "var_samp", "variance"
    ]
)
# fmt: on


class _Unnest(_Marker):
    """UNNEST(array): only the right operand of IN (GoogleSQL)."""


class _Subquery(_Marker):
    """``{ query }`` (a COLLECT subquery): only the right operand of IN (GoogleSQL)."""


class _Position(_Marker):
    """``OFFSET(i)`` and its kin (ordinal, safe, index): only inside an array subscript."""


#: The time zone Spanner reads a date or time in when none is given (date_functions,
#: CURRENT_DATE; timestamp_functions)
SPANNER_DEFAULT_ZONE = "America/Los_Angeles"


#: TIMESTAMP_ADD's part -> the duration field of the same elapsed time, and its multiple (a
#: DAY is 24 hours: timestamp_functions, TIMESTAMP_ADD)
_ELAPSED = {
    "DAY": ("hours", 24),
    "HOUR": ("hours", 1),
    "MINUTE": ("minutes", 1),
    "SECOND": ("seconds", 1),
    "MILLISECOND": ("milliseconds", 1),
    "MICROSECOND": ("microseconds", 1),
    "NANOSECOND": ("nanoseconds", 1),
}


def _timestamp_plus(
    instant: ir.Expr, interval: ir.Expr, subtract: bool, name: str, pos: int
) -> ir.Expr:
    """``TIMESTAMP_ADD(t, INTERVAL n part)`` (``_SUB``): ``t ± duration({field: n})`` with a
    field of elapsed time, so that Cypher's meaning does not depend on ``t``'s zone."""
    part = interval.args[1] if isinstance(interval, ir.FunctionCall) else None
    if (
        not isinstance(interval, ir.FunctionCall)
        or interval.name != "googlesql.interval"
        or not isinstance(part, ir.String)
        or part.value not in _ELAPSED
    ):
        raise _err(f"{name} takes a TIMESTAMP and an INTERVAL n part of {sorted(_ELAPSED)}", pos)
    field, factor = _ELAPSED[part.value]
    count = interval.args[0]
    if factor != 1:
        count = (
            ir.Integer(count.value * factor)
            if isinstance(count, ir.Integer)
            else ir.Arithmetic(ir.ArithOp.MUL, count, ir.Integer(factor))
        )
    duration = ir.FunctionCall("duration", (ir.MapLiteral(((field, count),)),), pos=pos)
    op = ir.ArithOp.SUB if subtract else ir.ArithOp.ADD
    return ir.Arithmetic(op, instant, duration, pos=pos)


def _current_date(zone: ir.Expr, pos: int | None) -> ir.FunctionCall:
    return ir.FunctionCall("date", (ir.MapLiteral((("timezone", zone),)),), pos=pos)


class SpannerBuilder(GqlBuilder):
    """Spanner Graph (GoogleSQL GQL, ``grammars/spanner.lark``)."""

    BINARY = SPANNER_BINARY
    BUILTINS = None
    # "The ORDER BY statement is ignored unless it's immediately followed by the LIMIT or OFFSET
    # statement" (graph-query-statements.md, ORDER BY statement).
    ORDER_NEEDS_PAGE = True

    def graph_query(self, c: list, pos: int) -> ir.Query:
        """``GRAPH g`` selects the graph of the whole query: a :class:`ir.UseGraph` first step
        (in each branch of a composite query)."""
        _reject_markers(c[1])
        body = _sort_by_columns(_drop_graph(c[1], c[0]))
        return _use_first(ir.UseGraph(c[0], pos=pos), body)

    def graph_query_unnamed(self, c: list, pos: int) -> ir.Query:
        """A query without its GRAPH clause reads the graph the caller names (``graph=``)."""
        if self.graph is None:
            raise _err(
                "a Spanner graph query starts with GRAPH name: add it to the text, or name the "
                "graph with --graph-name NAME (graph= in the API)",
                pos,
                "PARSE_NO_GRAPH",
            )
        _reject_markers(c[0])
        body = _sort_by_columns(_drop_graph(c[0], self.graph))
        return _use_first(ir.UseGraph(self.graph, pos=pos), body)

    def statement_block(self, c: list, pos: int) -> ir.Statement:
        parts = [c[0]] + [_Next((None, x), x.pos or pos) for x in c[1:] if isinstance(x, ir.Node)]
        return super().statement_block(parts, pos)

    def with_clause(self, c: list, pos: int) -> ir.Projection:
        return self._projection_of(c, pos)

    def group_by_all(self, c: list, pos: int) -> _Group:
        return _Group(None, pos)

    def _projection_of(self, c: list, pos: int) -> ir.Projection:
        """Two columns of one name are an error ("Ambiguous name", Spanner's analyser):
        ``RETURN a.id, b.id`` names both ``id``."""
        projection = super()._projection_of(c, pos)
        seen: set[str] = set()
        for item in projection.items:
            if item.alias is None:
                continue
            if item.alias in seen:
                raise _err(
                    f"two columns are named {item.alias}: give each its own name with AS",
                    item.pos if item.pos is not None else pos,
                )
            seen.add(item.alias)
        return projection

    def let_clause(self, c: list, pos: int) -> ir.Let:
        """A LET statement cannot read a variable it defines itself ("Unrecognized name",
        Spanner's analyser): write a second LET."""
        let = ir.Let(tuple(c), pos=pos)
        _reject_markers(let)
        defined: set[str] = set()
        for binding in let.bindings:
            for x in binding.value.walk():
                if isinstance(x, ir.Variable) and x.name in defined:
                    raise _err(
                        f"{x.name} is defined by this LET statement and cannot be read in it: "
                        "define it in an earlier LET",
                        x.pos if x.pos is not None else pos,
                    )
            defined.add(binding.variable)
        return let

    def _group_by(self, items: list[ir.ReturnItem], group: _Group) -> tuple[ir.Expr, ...] | None:
        """ "Ordinals are not supported" in a RETURN's GROUP BY (graph-query-statements.md,
        RETURN statement): ``GROUP BY 1`` is an error, not a constant key."""
        for key in group.value or ():
            if isinstance(key, ir.Integer):
                raise _err("GROUP BY takes expressions; ordinals are not supported", key.pos or 0)
        return super()._group_by(items, group)

    def for_index(self, c: list, pos: int) -> _Index:
        # "If not specified, the default is `offset`" (graph-query-statements.md, FOR statement).
        name = c[1] if len(c) > 1 else "offset"
        return _Index((name, 0), pos)

    def _implicit_alias(self, expr: ir.Expr, text: str) -> str:
        """GoogleSQL names an unaliased property access after the property (``RETURN p.name``
        has a column ``name``; graph-query-statements.md RETURN examples)."""
        if isinstance(expr, ir.Property):
            return expr.key
        return text

    def any_cheapest(self, c: list, pos: int) -> _Prefix:
        return self._search(ir.SearchKind.ANY_CHEAPEST, c, pos)

    def cost(self, c: list, pos: int) -> _Cost:
        return _Cost(c[0], pos)

    def tuple_expr(self, c: list, pos: int) -> _Tuple:
        return _Tuple(tuple(_val(x) for x in c), pos)

    def _membership(self, container: Any, pos: int) -> ir.Expr:
        """``x IN (a, b)`` and ``x IN UNNEST(array)``: membership in a list."""
        if isinstance(container, _Tuple):
            return ir.ListLiteral(container.value, pos=container.pos)
        if isinstance(container, _Unnest):
            # UNNEST(NULL) is empty: x IN UNNEST(NULL) is FALSE, where x IN null is null
            # (operators.md, IN operator, semantic rules)
            array = container.value
            if isinstance(array, (ir.ListLiteral, ir.CollectSubquery)):
                return array
            return ir.FunctionCall("coalesce", (array, ir.ListLiteral(())), pos=array.pos)
        if isinstance(container, _Subquery):
            return container.value
        if isinstance(container, ir.Expr) and self._parenthesised(container):
            return ir.ListLiteral((container,), pos=container.pos)  # x IN (a)
        raise _err("IN needs a parenthesised list, UNNEST(array) or a { subquery }", pos)

    def _quantified_like(self, meaning: str, value: ir.Expr, patterns: Any, pos: int) -> ir.Expr:
        """``x LIKE ANY (p, q)`` is ``x LIKE p OR x LIKE q``, ``LIKE ALL`` the same with AND,
        three-valued logic included (operators.md, quantified LIKE operator)."""
        if isinstance(patterns, _Tuple):
            items = patterns.value
        elif isinstance(patterns, ir.Expr) and self._parenthesised(patterns):
            items = (patterns,)
        else:
            raise _err(f"{meaning} needs a parenthesised list of patterns", pos)
        join = ir.Or if meaning == "LIKE ANY" else ir.And
        out: ir.Expr | None = None
        for item in items:
            like = ir.Like(value, item, escape="\\", pos=pos)
            out = like if out is None else join(out, like, pos=pos)
        assert out is not None
        return out

    def begin(self, text: str, graph: str | None = None) -> None:
        super().begin(text, graph)
        #: expressions written in parentheses of their own, by id (kept alive here)
        self._parens: dict[int, Any] = {}

    def paren_expr(self, c: list, pos: int) -> Any:
        self._parens[id(c[0])] = c[0]
        return c[0]

    def _parenthesised(self, x: ir.Expr) -> bool:
        """Whether ``x`` was written in parentheses of its own (``IN (a)``)."""
        return self._parens.get(id(x)) is x

    def null_handling(self, c: list, pos: int) -> _NullHandling:
        return _NullHandling(c[0][1].upper() == "IGNORE", pos)

    def call_args(self, c: list, pos: int) -> tuple:
        if c and isinstance(c[-1], _NullHandling):
            kind, distinct, values = super().call_args(c[:-1], pos)
            return ("ignore_nulls" if c[-1].value else kind, distinct, values)
        return super().call_args(c, pos)

    def _function(self, name: str, args: tuple, start: int) -> ir.Expr:
        if args[0] != "ignore_nulls":
            return super()._function(name, args, start)
        self._ignoring_nulls = True
        try:
            return super()._function(name, ("args", *args[1:]), start)
        finally:
            self._ignoring_nulls = False

    def _call(self, base: Any, args: tuple, pos: int) -> ir.Expr:
        if isinstance(base, ir.FunctionCall) and base.name == "date" and args[0] == "args":
            # only CURRENT_DATE reads as a call's base (niladic below)
            if args[1:] == (False, ()):
                return base  # CURRENT_DATE() is CURRENT_DATE
            if not args[1] and len(args[2]) == 1:
                return _current_date(args[2][0], base.pos)
        if isinstance(base, ir.FunctionCall) and not base.args and args == ("args", False, ()):
            return base  # CURRENT_TIMESTAMP() is CURRENT_TIMESTAMP
        return super()._call(base, args, pos)

    def niladic(self, c: list, pos: int) -> ir.Expr:
        """``CURRENT_DATE`` is the date in Spanner's default time zone, America/Los_Angeles
        unless the database sets another (date_functions, CURRENT_DATE;
        https://cloud.google.com/spanner/docs/set-default-time-zone), not the UTC date of
        Cypher's ``date()``; ``CURRENT_DATE(zone)`` is ``date({timezone: zone})``."""
        if c[0][1].upper() == "CURRENT_DATE":
            return _current_date(ir.String(SPANNER_DEFAULT_ZONE), pos)
        return super().niladic(c, pos)

    def _special_function(self, low: str, name: str, args: tuple, start: int) -> Any:
        n = len(args)
        if low in ("date_trunc", "date_diff") and n == (2 if low == "date_trunc" else 3):
            return self._date_part_function(low, name, args, start)
        if low in ("timestamp_add", "timestamp_sub") and n == 2:
            return _timestamp_plus(args[0], args[1], low == "timestamp_sub", name, start)
        if low in ("starts_with", "ends_with") and n == 2:
            op = ir.StringOp.STARTS_WITH if low == "starts_with" else ir.StringOp.ENDS_WITH
            return ir.StringMatch(op, args[0], args[1], pos=start)
        if low == "unnest" and n == 1:
            return _Unnest(args[0], start)
        if low in ("offset", "safe_offset", "ordinal", "safe_ordinal") and n == 1:
            return _Position((low.endswith("ordinal"), low.startswith("safe"), args[0]), start)
        if low in _GOOGLESQL_AGGREGATES:
            raise UnsupportedError(
                f"{name}()",
                self.dialect.name,
                f"the GoogleSQL aggregate {name}() has no IR aggregate of the same meaning",
                offset=start,
            )
        if low in ("trim", "ltrim", "rtrim", "round") or (low == "log" and n == 2):
            # GoogleSQL's own meanings: TRIM and its kin remove the characters a second argument
            # names; ROUND rounds half away from zero (Cypher's round() half up); LOG(x, b) is
            # the logarithm to base b (string_functions, mathematical_functions)
            return ir.FunctionCall(f"googlesql.{low}", args, pos=start)
        if low in ("btrim", "log", "normalize"):
            return None  # GoogleSQL's own functions of these names: resolved by the dialect file
        if low == "pow":
            low = "power"  # POW is a synonym of POWER (mathematical_functions, POW)
        if low in ("concat", "array_concat") and n >= 1:
            # CONCAT of strings and ARRAY_CONCAT of arrays: null if an argument is null, as
            # || is (string_functions CONCAT, array_functions ARRAY_CONCAT, operators.md ||)
            out = args[0]
            for arg in args[1:]:
                out = ir.Concat(out, arg, pos=start)
            return out
        if low == "length" and n == 1:
            # LENGTH counts a string's characters (string_functions, LENGTH): the length of a
            # path is PATH_LENGTH
            return ir.FunctionCall("char_length", args, pos=start)
        if low == "ifnull" and n == 2:
            # IFNULL(x, y) is COALESCE(x, y) (https://cloud.google.com/spanner/docs/reference/
            # standard-sql/conditional_expressions, IFNULL)
            return ir.FunctionCall("coalesce", args, pos=start)
        if low == "if" and n == 3:
            # IF(cond, a, b): a where cond is TRUE, else b (conditional_expressions, IF)
            return ir.Case(None, (ir.CaseWhen(args[0], args[1]),), args[2], pos=start)

        # MOD and POWER are GQL's, as in ISO GQL: the remainder with the dividend's sign, and a
        # float power (GoogleSQL mathematical functions)
        return super()._special_function(low, name, args, start)

    # -- GoogleSQL expressions -----------------------------------------------------------------
    def _string(self, token: tuple) -> str:
        """A raw string (``r'…'``) holds its backslashes as characters."""
        text = token[1]
        if text[:1] in ("r", "R"):
            return text[2:-1]
        return super()._string(token)

    def _search_count(self, c: list) -> int | ir.Parameter:
        return next((x for x in c if isinstance(x, ir.Parameter)), None) or _count_of(c, 1)

    def any_k(self, c: list, pos: int) -> _Prefix:
        return self._search(ir.SearchKind.ANY, c, pos, self._search_count(c))

    def shortest_k(self, c: list, pos: int) -> _Prefix:
        k = self._search_count(c)
        if k == 1:
            return self._search(ir.SearchKind.ANY_SHORTEST, c, pos)
        return self._search(ir.SearchKind.SHORTEST_K, c, pos, k)

    def cheapest_k(self, c: list, pos: int) -> _Prefix:
        return self._search(ir.SearchKind.CHEAPEST_K, c, pos, self._search_count(c))

    def op_subscript(self, c: list, pos: int):
        """``a[OFFSET(i)]``, ``a[SAFE_OFFSET(i)]``, ``a[ORDINAL(i)]``, ``a[SAFE_ORDINAL(i)]``, and
        ``a[i]``, which is ``a[OFFSET(i)]``; ``j['key']`` reads a JSON field (null when absent),
        as the IR's key access does (operators.md, array subscript and JSON subscript
        operators)."""
        index = c[0]

        def apply(b: SpannerBuilder, base: Any) -> ir.Expr:
            subject = _val(base)
            at = subject.pos if subject.pos is not None else pos
            if isinstance(index, _Position):
                ordinal, safe, value = index.value
                return ir.ArrayElement(subject, value, ordinal, safe, pos=at)
            value = _val(index)
            if isinstance(value, ir.String):
                return ir.Property(subject, value.value, pos=at)
            return ir.ArrayElement(subject, value, pos=at)

        return apply

    def list_literal(self, c: list, pos: int) -> ir.ListLiteral:
        """A GoogleSQL array: its elements have one type (checked by Spanner's analyser)."""
        return ir.ListLiteral(tuple(c), one_type=True, pos=pos)

    def typed_array(self, c: list, pos: int) -> ir.ListLiteral:
        """``ARRAY<T>[a, b]``: each element coerced to ``T`` (a CAST unless it is a literal of
        that type already; data-types.md, constructing an array)."""
        element, items = c[0], c[1]
        if not isinstance(items, ir.ListLiteral):
            raise _err("ARRAY<T> needs a list of elements [ … ]", pos)
        typed = {
            "INTEGER": ir.Integer,
            "FLOAT": ir.Float,
            "STRING": ir.String,
            "BOOLEAN": ir.Boolean,
        }
        kind = typed.get(element.name) if len(c) == 2 and not element.element else None
        out = tuple(
            x
            if (kind is not None and type(x) is kind) or isinstance(x, ir.Null)
            else ir.Cast(x, element, pos=x.pos)
            for x in items.items
        )
        return replace(items, items=out, pos=pos)

    def array_subquery(self, c: list, pos: int) -> ir.CollectSubquery:
        """``ARRAY { … RETURN x }``: the values of the one column, in row order, nulls kept,
        ``[]`` for no rows (graph-subqueries.md, ARRAY subquery): the IR's COLLECT subquery."""
        query = c[0]
        if not isinstance(query, ir.Query) or not _has_result(query):
            raise _err("ARRAY { } needs a query that ends with RETURN", pos)
        return ir.CollectSubquery(query, pos=pos)

    def subquery_operand(self, c: list, pos: int) -> _Subquery:
        query = c[0]
        if not isinstance(query, ir.Query) or not _has_result(query):
            raise _err("IN { } needs a query that ends with RETURN", pos)
        return _Subquery(ir.CollectSubquery(query, pos=pos), pos)

    def expr_block(self, c: list, pos: int) -> ir.Statement:
        """``{ GRAPH g … }``: the subquery reads graph ``g`` (a first UseGraph step, dropped
        where it names the query's own graph)."""
        if len(c) == 1:
            return c[0]
        return _use_first(ir.UseGraph(c[0], pos=pos), c[1])

    def safe_cast_expr(self, c: list, pos: int) -> ir.SafeCast:
        return ir.SafeCast(_val(c[0]), c[1], pos=pos)

    def struct_field(self, c: list, pos: int) -> ir.StructField:
        return ir.StructField(_val(c[0]), c[1] if len(c) > 1 else None, pos=pos)

    def struct_expr(self, c: list, pos: int) -> ir.Struct:
        return ir.Struct(tuple(c), pos=pos)

    def _date_part_function(self, low: str, name: str, args: tuple, start: int) -> Any:
        """``DATE_TRUNC(d, part)`` and ``DATE_DIFF(a, b, part)``: the part is a keyword, read
        by the expression grammar as a name (a variable in the IR until here)."""
        part = args[-1]
        word = part.name.upper() if isinstance(part, ir.Variable) else None
        if word not in BOUNDARY_PARTS:
            parts = sorted(BOUNDARY_PARTS)
            raise _err(f"{name}: the last argument is a DATE part, one of {parts}", start)
        return ir.FunctionCall(f"googlesql.{low}", (*args[:-1], ir.String(word)), pos=start)

    def extract_expr(self, c: list, pos: int) -> ir.FunctionCall:
        """``EXTRACT(part FROM d)``: the part as a string argument of ``googlesql.extract``."""
        part = c[0].upper()
        if part not in DATE_PARTS:
            raise _err(f"EXTRACT of {c[0]!r}: a DATE part is one of {sorted(DATE_PARTS)}", pos)
        return ir.FunctionCall("googlesql.extract", (ir.String(part), _val(c[1])), pos=pos)

    def interval_expr(self, c: list, pos: int) -> ir.FunctionCall:
        """``INTERVAL n part`` (DATE_ADD's argument): ``googlesql.interval(n, part)``."""
        part = c[1].upper()
        if part not in INTERVAL_PARTS | TIMESTAMP_PARTS:
            parts = sorted(INTERVAL_PARTS | TIMESTAMP_PARTS)
            raise _err(f"INTERVAL … {c[1]}: a part is one of {parts}", pos)
        return ir.FunctionCall("googlesql.interval", (_val(c[0]), ir.String(part)), pos=pos)

    def spanner_typed_literal(self, c: list, pos: int) -> ir.TemporalLiteral:
        """``DATE '…'`` and ``TIMESTAMP '…'``. A TIMESTAMP is an absolute point in time; text
        without a zone is read in the database's default time zone, America/Los_Angeles unless
        the database sets another ("If no time zone parameter is provided …, Spanner databases
        default to the America/Los_Angeles time zone",
        https://cloud.google.com/spanner/docs/set-default-time-zone). The IR's datetime names
        that zone, so the literal is the same instant in every dialect (a zone-less Cypher
        datetime would be read in the Cypher server's zone instead)."""
        text = self._string(c[0])
        word = self.text[pos : pos + 4].upper()
        if word == "DATE":
            return ir.TemporalLiteral(ir.TemporalKind.DATE, text, pos=pos)
        found = _GOOGLESQL_TIMESTAMP.fullmatch(text.strip())
        if found is None:
            raise _err(
                f"{text!r} is not a TIMESTAMP literal (YYYY-MM-DD [HH:MM:SS[.F]] [zone])", pos
            )
        day, clock, zone = found.group("day", "clock", "zone")
        iso = day + "T" + (clock or "00:00:00")
        if zone is None:
            zone = "[" + SPANNER_DEFAULT_ZONE + "]"
        elif zone[0].isalpha() and zone not in ("Z", "z"):
            zone = "[" + zone + "]"
        return ir.TemporalLiteral(ir.TemporalKind.DATETIME, iso + zone, timestamp=True, pos=pos)


#: Spanner's default time zone (https://cloud.google.com/spanner/docs/set-default-time-zone)
SPANNER_DEFAULT_ZONE = "America/Los_Angeles"
# GoogleSQL's canonical timestamp format: YYYY-[M]M-[D]D[( |T)[H]H:[M]M:[S]S[.F]][time zone],
# the zone an offset, Z, or a tz database name after a space (lexical.md, Timestamp literals)
_GOOGLESQL_TIMESTAMP = re.compile(
    r"(?P<day>[0-9]{4}-[0-9]{1,2}-[0-9]{1,2})"
    r"(?:[ tT](?P<clock>[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]{1,9})?))?"
    r"\s*(?P<zone>[zZ]|[+-][0-9]{1,2}(?::[0-9]{2})?|[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*)?"
)


# TuGraph GQL: !=, LIKE, IN, % and the bitwise operators besides ISO GQL's (GEAX GqlLexer.g4,
# GqlParser.g4), at MySQL's precedence, which GEAX follows (isogql/0014_precedence.test):
# ^ above * / %, then + -, << >>, &, |, then the comparisons. The bitwise operators are
# TuGraph's own (tugraph.bit_and ...), refused by name elsewhere.
_BOR, _BAND, _SHIFT, _BXOR = 61, 63, 65, 85
TUGRAPH_BINARY: dict[str, tuple[int, Any]] = {
    **GQL_BINARY,
    "%": (_MUL, ir.ArithOp.MOD),
    "|": (_BOR, "tugraph.bit_or"),
    "&": (_BAND, "tugraph.bit_and"),
    "<<": (_SHIFT, "tugraph.shift_left"),
    ">>": (_SHIFT, "tugraph.shift_right"),
    "^": (_BXOR, "tugraph.bit_xor"),
    "!=": (_CMP, ir.CompOp.NE),
    "LIKE": (_CMP, "LIKE"),
    "NOT LIKE": (_CMP, "NOT LIKE"),
    "IN": (_CMP, "IN"),
    "NOT IN": (_CMP, "NOT IN"),
}

# Functions of TuGraph's GQL front end besides ISO GQL's built-ins (GEAX function library, as
# its tests isogql/0001_expression.test call them and the manual's label(e)); each is read
# through the dialect file's [function_aliases] to the IR function of the same meaning, or to
# the TuGraph function the IR knows only as itself (``tugraph.…``).
# fmt: off
TUGRAPH_FUNCTIONS = frozenset(
    [
        "label", "labels", "keys", "range", "head", "last", "tail", "reverse", "round",
        "substring", "substr", "concat", "concat_ws", "instr", "findstr", "isblank", "isnotblank",
        "tointeger", "todouble", "tostring", "tobool", "todate", "todatetime", "to_date",
        "date_format", "from_unixtime",
    ]
)
# fmt: on


#: The element a bare system property (``WHERE @id = 1``) belongs to, until it is known.
_SELF = "@self"


class _SysEntry(_Marker):
    """``@name: value`` in a property specification: value is (system property, value)."""


class TuGraphGqlBuilder(GqlBuilder):
    """TuGraph-DB GQL (``grammars/tugraph-gql.lark``)."""

    BINARY = TUGRAPH_BINARY
    BUILTINS = ISO_BUILTINS | TUGRAPH_FUNCTIONS
    # No escape character is documented for TuGraph's LIKE: a backslash is itself.
    LIKE_ESCAPE = None

    def tuple_expr(self, c: list, pos: int) -> _Tuple:
        return _Tuple(tuple(_val(x) for x in c), pos)

    def _sort_keys(self, result: ir.Step, order: tuple) -> tuple:
        """A sort key that names a RETURN item's column, where the column is named after its
        expression (`n.name`, which TuGraph can write as a delimited variable), is that
        expression: ``RETURN n.name ORDER BY `n.name``` sorts as ``ORDER BY n.name``."""
        if not isinstance(result, ir.Projection):
            return order
        # only a column named by its expression's text (no plain name can be one), and whose
        # expression reads no name a column of this RETURN shadows in ORDER BY
        names = {item.alias for item in result.items}
        columns = {
            item.alias: item.expr
            for item in result.items
            if not isinstance(item.expr, ir.Variable)
            and item.alias is not None
            and not item.alias.isidentifier()
            and not free_variables(item.expr) & names
        }
        out = []
        for key in order:
            if isinstance(key.expr, ir.Variable) and key.expr.name in columns:
                key = replace(key, expr=columns[key.expr.name])
            out.append(key)
        return tuple(out)

    def select_match(self, c: list, pos: int) -> list:
        """GEAX's ``SELECT … MATCH …``: the MATCH of the session's graph."""
        return list(c[0]) if isinstance(c[0], tuple) else [c[0]]

    # -- system properties: x.@id, {@id: 1}, (n WHERE @id = 1) ----------------------------------
    def start(self, c: list, pos: int) -> ir.Statement:
        statement = super().start(c, pos)
        for node in statement.walk():
            if isinstance(node, ir.Variable) and node.name == _SELF:
                raise _err(
                    "a system property without an element is only allowed in an element "
                    "pattern's WHERE; write x.@id",
                    node.pos or pos,
                )
        return statement

    def _system(self, token: tuple, subject: ir.Expr, pos: int) -> ir.FunctionCall:
        """``subject.@name``: TuGraph's system property, which the IR knows only as TuGraph's
        (``tugraph.@name``)."""
        canonical = "tugraph." + token[1].lower()
        if functions.lookup(canonical) is None:
            raise _err(f"{token[1]} is not a TuGraph system property", pos)
        return ir.FunctionCall(canonical, (subject,), pos=pos)

    def op_sysprop(self, c: list, pos: int):
        token = c[0]
        return lambda b, base: b._system(token, _val(base), base.pos or pos)

    def sys_ref(self, c: list, pos: int) -> ir.FunctionCall:
        return self._system(c[0], ir.Variable(_SELF, pos=pos), pos)

    def sys_entry(self, c: list, pos: int) -> _SysEntry:
        return _SysEntry((self._system(c[0], ir.Variable(_SELF, pos=pos), pos), c[1]), pos)

    def properties(self, c: list, pos: int) -> Any:
        """An element's property specification; with a system property in it, the whole
        specification is the equivalent WHERE (GQL has no element with both)."""
        if not any(isinstance(x, _SysEntry) for x in c):
            return super().properties(c, pos)
        tests: list[ir.Expr] = []
        for entry in c:
            if isinstance(entry, _SysEntry):
                left, value = entry.value
            else:
                left, value = ir.Property(ir.Variable(_SELF, pos=pos), entry[0], pos=pos), entry[1]
            tests.append(ir.Comparison(ir.CompOp.EQ, left, value, pos=pos))
        where = tests[0]
        for test in tests[1:]:
            where = ir.And(where, test, pos=pos)
        return _Where(where, pos)

    def node_pattern(self, c: list, pos: int) -> ir.NodePattern:
        node = super().node_pattern(c, pos)
        if node.where is None:
            return node
        return replace(node, where=self._own(node.where, node.variable, pos))

    def edge_filler(self, c: list, pos: int) -> dict:
        detail = super().edge_filler(c, pos)
        if detail.get("where") is not None:
            detail["where"] = self._own(detail["where"], detail.get("variable"), pos)
        return detail

    def _own(self, where: ir.Expr, variable: str | None, pos: int) -> ir.Expr:
        """An element's WHERE with its bare system properties made the element's own."""
        if not any(isinstance(n, ir.Variable) and n.name == _SELF for n in where.walk()):
            return where
        if variable is None:
            raise UnsupportedError(
                "system property of an unnamed element",
                self.dialect.name,
                "the IR refers to an element by its variable",
                rewrite="name the element: (n WHERE @id = 1)",
                offset=pos,
            )

        def own(node: ir.Node) -> ir.Node:
            if isinstance(node, ir.Variable) and node.name == _SELF:
                return ir.Variable(variable, pos=node.pos)
            return node

        owned = where.transform(own)
        assert isinstance(owned, ir.Expr)
        return owned

    def _membership(self, container: Any, pos: int) -> ir.Expr:
        """``x IN (a, b)`` and ``x IN list``: membership in a list, with Cypher's three-valued
        rules (TuGraph runs its GQL on the runtime of its Cypher)."""
        if isinstance(container, _Tuple):
            return ir.ListLiteral(container.value, pos=container.pos)
        if isinstance(container, (ir.Integer, ir.Float, ir.String, ir.Boolean)):
            # x IN (1): a parenthesised list of one value (a scalar is never a list)
            return ir.ListLiteral((container,), pos=container.pos)
        return container

    def set_merge_all(self, c: list, pos: int) -> ir.SetProperties:
        if not isinstance(c[1], ir.MapLiteral):
            raise _err("SET x += needs a record of properties { … }", c[1].pos or pos)
        return ir.SetProperties(c[0], c[1], merge=True, pos=pos)

    def _group_key(self, items: list[ir.ReturnItem], key: ir.Expr) -> ir.Expr:
        """GEAX's GROUP BY takes an integer as the position of a RETURN item (1-based): the
        item's expression, read in the incoming scope (not again as a column name)."""
        if not isinstance(key, ir.Integer):
            return super()._group_key(items, key)
        if not 1 <= key.value <= len(items):
            raise _err(f"GROUP BY {key.value}: there is no such RETURN item", key.pos or 0)
        return items[key.value - 1].expr


_BUILDERS: dict[str, type[GqlBuilder]] = {
    "spanner": SpannerBuilder,
    "tugraph-gql": TuGraphGqlBuilder,
}


def builder_for(dialect: Dialect) -> GqlBuilder:
    """The builder of a GQL dialect's grammar variant (the base builder for ``gql``)."""
    return _BUILDERS.get(dialect.grammar, GqlBuilder)(dialect)


def _reject_markers(node: ir.Node) -> None:
    """A parenthesised list, UNNEST( ), a { subquery } or OFFSET( ) that reached a place other
    than the operand that takes it (``RETURN UNNEST(a)``) is an error with its position."""
    stack: list[Any] = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, _Marker):
            _val(x)
        elif isinstance(x, ir.Node):
            stack.extend(getattr(x, f.name) for f in fields(x))
        elif isinstance(x, tuple):
            stack.extend(x)


def _drop_graph(query: ir.Statement, graph: str) -> ir.Statement:
    """``query`` without the ``GRAPH g`` of its subqueries that name its own graph ``g``."""

    def drop(node: ir.Node) -> ir.Node:
        if (
            isinstance(node, ir.LinearQuery)
            and node.steps
            and isinstance(node.steps[0], ir.UseGraph)
            and node.steps[0].graph == graph
        ):
            return replace(node, steps=node.steps[1:])
        return node

    return query.transform(drop)  # type: ignore[return-value]


def _sort_by_columns(query: ir.Statement) -> ir.Statement:
    """A sort key of ``RETURN … ORDER BY`` that repeats a column's expression (``RETURN p.name
    ORDER BY p.name``) is that column (``name``): the same values, in the form the writers use."""

    def canonical(node: ir.Node) -> ir.Node:
        if not isinstance(node, ir.Projection) or not node.order_by or node.star:
            return node
        columns = {item.expr: item.alias for item in node.items}
        keys = []
        for key in node.order_by:
            alias = columns.get(key.expr)
            if alias is not None and not isinstance(key.expr, ir.Variable):
                key = replace(key, expr=ir.Variable(alias, pos=key.expr.pos))
            keys.append(key)
        return replace(node, order_by=tuple(keys))

    return query.transform(canonical)  # type: ignore[return-value]


def _use_first(use: ir.UseGraph, query: ir.Statement) -> ir.Query:
    if isinstance(query, ir.SetOperation):
        return replace(query, left=_use_first(use, query.left), right=_use_first(use, query.right))
    if isinstance(query, ir.LinearQuery):
        return replace(query, steps=(use,) + query.steps)
    raise _err("GRAPH must be followed by a query", use.pos or 0)


GqlBuilder.PRATT = _GqlPratt
