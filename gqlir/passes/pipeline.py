"""A target's lowering: the declared list of IR → IR passes run before its printer.

read → resolve → **lower for the target** → print. Each :class:`Lowering` is one rule family
(its module's docstring states the rule and cites the dialect fact); whether it runs is decided
by the target's capabilities (and, for a few rules, the source's), never by its name, as
sqlglot's per-dialect ``preprocess([...])`` transforms are chosen per dialect. A pass that finds
nothing to change returns its input unchanged (the same object), which is how
:func:`lower` tells which passes changed the query (``gqlir translate --explain``).

The printers (:mod:`gqlir.emitter`) run :func:`lower` first and then only write the lowered IR
(what is still decided in the GQL printer is listed in docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import CHILD_GETTERS, Node, node_getter, not_a_node
from . import (
    aggregate_defaults,
    case_forms,
    case_results,
    composites,
    conversions,
    correlated_elements,
    cypher_uniqueness,
    date_parts,
    decimal_aggregates,
    edge_uniqueness,
    element_predicates,
    element_references,
    fixed_paths,
    function_support,
    googlesql_functions,
    googlesql_temporal,
    gql_expressions,
    gql_functions,
    implicit_grouping,
    implied_uniqueness,
    let_bindings,
    like_patterns,
    list_positions,
    list_predicates,
    merge,
    path_deletes,
    path_lists,
    path_modes,
    pattern_predicates,
    property_maps,
    relationship_types,
    removed_properties,
    search_filters,
    self_loops,
    set_items,
    shortest_ends,
    temporal_calls,
    unwind_join,
)
from .comparable_types import UNTYPED as _UNTYPED
from .comparable_types import may_differ
from .cypher_lowering import lower as lower_cypher
from .cypher_lowering import needed as cypher_meanings_needed
from .cypher_lowering import needs_lowering
from .division import float_quotients, refuse_integer_quotients, summarized_quotients
from .googlesql import lower_googlesql
from .googlesql_division import lower_integer_division
from .googlesql_functions import lower_functions
from .googlesql_strings import lower_string_predicates
from .googlesql_temporal import NOW, TODAY, lower_dates, lower_timestamps
from .googlesql_temporal import applies as _googlesql_dates
from .gql_expressions import lower_gql_expressions
from .gql_family import lower_gql_meanings, needs_gql_meanings
from .gql_forms import lower_gql_forms
from .gql_forms import needed as _needs_gql_forms
from .gql_projections import lower_gql_projections
from .gql_projections import summarized as gql_projections_summary
from .gql_steps import KINDS as _STEP_KINDS
from .gql_steps import lower_gql_steps, lower_let_steps
from .setops import lower_set_operations
from .sql_aggregates import applies as _sql_aggregates
from .sql_aggregates import lower_sql_aggregates

__all__ = ["LOWERINGS", "Lowering", "lower", "lowerings"]


@dataclass(frozen=True, slots=True)
class Summary:
    """What a query holds, gathered in one walk, so that a pass with nothing to rewrite is
    skipped without walking the query itself. ``kinds`` leaves out the leaves (literals,
    variables, parameters), which no pass is chosen by."""

    kinds: frozenset[type]
    functions: frozenset[str]
    adds_numbers: bool
    #: Cypher's polymorphic + (ArithOp.ADD) occurs.
    adds: bool = False
    #: An arithmetic operator other than +, - and * occurs (/, %, ^, GQL's numeric +).
    other_arithmetic: bool = False
    #: The names of the aggregates that occur.
    aggregates: frozenset[str] = frozenset()
    #: A comparison (or a simple CASE) occurs whose operands may have known types GQL cannot
    #: compare without a schema (:func:`.comparable_types.may_differ`).
    typed_comparisons: bool = False
    #: A property of a map literal occurs (``{a: 1}.a``).
    map_properties: bool = False
    #: The path modes written on path patterns and parenthesised paths.
    path_modes: frozenset[p.PathMode] = frozenset()
    #: A DISTINCT projection occurs.
    distinct_projections: bool = False
    #: The match modes of the query's MATCH steps.
    match_modes: frozenset[p.MatchMode] = frozenset()
    #: A simple CASE (one with an operand) or a CASE without WHEN occurs.
    simple_cases: bool = False
    #: A temporal constructor (or ``….statement``) is called with other than one string or
    #: map literal (what :mod:`.temporal_calls` may rewrite or refuse).
    temporal_calls: bool = False


#: The fields of :class:`Summary`, in order.
_SUMMARY_FIELDS = tuple(f.name for f in fields(Summary))


def _adding_kinds(summary: Summary, *kinds: type) -> Summary:
    """``summary`` with ``kinds`` among its node kinds, for a pass whose output holds what its
    input held and those kinds (``dataclasses.replace`` without its per-call field analysis:
    a summary is declared this way on most translations)."""
    new = object.__new__(Summary)
    for name in _SUMMARY_FIELDS:
        object.__setattr__(new, name, getattr(summary, name))
    object.__setattr__(new, "kinds", summary.kinds.union(kinds))
    return new


def summarize(node: Node) -> Summary:
    """One walk over ``node`` (written out: it runs on every translation)."""
    kinds: set[type] = set()
    functions: set[str] = set()
    aggregate_names: set[str] = set()
    adds_numbers = adds = other = typed = map_properties = distinct = False
    simple_cases = temporal = False
    temporal_names, literal_args = temporal_calls.NAMES, _LITERAL_ARGUMENTS
    modes: set[p.PathMode] = set()
    match_modes: set[p.MatchMode] = set()
    comparison, untyped = e.Comparison, _UNTYPED
    prop, map_literal = e.Property, e.MapLiteral
    paths = (p.PathPattern, p.ParenPath)
    projection, match = q.Projection, q.Match
    stack: list[Any] = [node]
    pop, extend, add = stack.pop, stack.extend, kinds.add
    getters = CHILD_GETTERS
    function_call, arithmetic, aggregate = e.FunctionCall, e.Arithmetic, e.Aggregate
    add_numbers, plus = e.ArithOp.ADD_NUMBERS, e.ArithOp.ADD
    plain = (plus, e.ArithOp.SUB, e.ArithOp.MUL)
    leaves, special = _LEAVES, _SPECIAL
    while stack:
        inner = pop()
        cls = type(inner)
        if cls in leaves:
            continue
        if cls is prop:  # (the commonest node: a property of a variable)
            add(cls)
            subject = inner.subject
            kind = type(subject)
            if kind not in leaves:
                if kind is map_literal:
                    map_properties = True
                stack.append(subject)
            continue
        if cls is tuple:
            extend(inner)
            continue
        getter = getters.get(cls) or node_getter(cls)
        if getter is not_a_node:
            continue  # an operator's enum, or a scalar inside a tuple (a map entry's key)
        add(cls)
        if cls in special:
            if cls is function_call:
                name = inner.name
                functions.add(name)
                if name in temporal_names and not temporal:
                    args = inner.args
                    temporal = len(args) != 1 or type(args[0]) not in literal_args
            elif cls is arithmetic:
                op = inner.op
                if op is plus:
                    adds = True
                elif op not in plain:
                    other = True
                    if op is add_numbers:
                        adds_numbers = True
            elif cls is aggregate:
                aggregate_names.add(inner.name)
            elif cls is comparison:
                if not typed:
                    typed = may_differ(type(inner.left), type(inner.right))
            elif cls in paths:
                if inner.mode is not None:
                    modes.add(inner.mode)
            elif cls is projection:
                if inner.distinct:
                    distinct = True
            elif cls is match:
                match_modes.add(inner.mode)
            elif inner.subject is not None:  # a CASE
                simple_cases = True
                if not typed:
                    typed = type(inner.subject) not in untyped
            elif not inner.whens:  # (a CASE without WHEN, which no reader builds)
                simple_cases = True
        extend(getter(inner))
    return Summary(
        frozenset(kinds),
        frozenset(functions),
        adds_numbers,
        adds,
        other,
        frozenset(aggregate_names),
        typed,
        map_properties,
        frozenset(modes),
        distinct,
        frozenset(match_modes),
        simple_cases,
        temporal,
    )


def summary_of(node: Node) -> Summary:
    """:func:`summarize` of ``node``, computed once for consecutive asks about the same query
    (a translation lowers it twice: by its source, then for its target, most often unchanged
    in between)."""
    global _LAST
    last = _LAST
    if last[0] is node and last[1] is not None:
        return last[1]
    found = summarize(node)
    _LAST = (node, found)
    return found


def _remember(node: Node, summary: Summary) -> None:
    """``summary`` as the summary of ``node`` for :func:`summary_of`."""
    global _LAST
    _LAST = (node, summary)


#: The last query summarized and its summary (held, so that its identity is not reused).
_LAST: tuple[Node | None, Summary | None] = (None, None)


#: What the summary does not look into: scalars (a map entry's key, an absent child) and the
#: IR's leaves.
_LEAVES = frozenset(
    {str, int, float, bool, type(None), e.Null, e.Boolean, e.Integer, e.Float, e.String}
    | {e.Variable, e.Parameter}
)
#: The arguments of a temporal constructor call that temporal-calls leaves as it is.
_LITERAL_ARGUMENTS = frozenset({e.String, e.MapLiteral})
#: The nodes the summary looks into beyond their class.
_SPECIAL = frozenset(
    {e.FunctionCall, e.Arithmetic, e.Aggregate, e.Comparison, e.Case, p.PathPattern}
    | {p.ParenPath, q.Projection, q.Match}
)


def _always(summary: Summary) -> bool:
    return True


@dataclass(frozen=True)
class Lowering:
    """One pass: ``run(node, target)`` where ``when(target, source)`` holds. ``by_source``:
    the pass depends on the source dialect, so only :func:`gqlir.api.translate` (which knows
    it) runs it; the emitters run the others. ``reads_schema``: the pass also takes the
    graph's schema, when the caller gives one (``run(node, target, schema)``)."""

    name: str
    families: frozenset[str]
    when: Callable[[Dialect, Dialect | None], bool]
    run: Callable[..., Node]
    #: The rule, in a line (the pass module's docstring states it fully, with its source).
    rule: str
    by_source: bool = False
    #: Whether the query holds anything the pass rewrites (False: skip it).
    needed: Callable[..., bool] = _always
    reads_schema: bool = False
    #: ``run`` takes the schema's property kinds instead (``(node|edge, key) -> kind``,
    #: :func:`gqlir.analysis.types.property_kinds`), which the types of properties are read from.
    reads_properties: bool = False
    #: (With both ``reads_schema`` and ``reads_properties``: ``run(node, target, properties,
    #: schema)``.)
    #: ``needed(summary, target, typed)`` instead, ``typed``: a schema is given.
    needed_by_target: bool = False
    #: ``run`` also takes the printer's options (``run(node, target, properties, options)``:
    #: what the user asked the printer for, such as ``spanner_elements``).
    reads_options: bool = False
    #: The summary of the pass's output from its input's, for a pass that only moves and
    #: copies what the query holds and adds the node kinds it names (None: the query is
    #: summarised again when a later pass asks).
    summarizes: Callable[[Summary], Summary] | None = None


def _float_quotients(node: Node, target: Dialect) -> Node:
    """``a / b`` of a float-division source as ``toFloat(a) / b`` (see :mod:`.division`)."""
    return float_quotients(node)


def _float_source(target: Dialect, source: Dialect | None) -> bool:
    return (
        source is not None
        and source.capabilities.integer_division == "float"
        and target.capabilities.integer_division != "float"
    )


def _googlesql_rules(target: Dialect, _: Dialect | None) -> bool:
    caps = target.capabilities
    return not (caps.literal_null_operands and caps.element_filters_read_others)


def _googlesql_strings(target: Dialect, _: Dialect | None) -> bool:
    caps, spelled = target.capabilities, target.functions
    return (not caps.string_predicates and "googlesql.strpos" in spelled) or (
        not caps.regex_match and "googlesql.regexp_contains" in spelled
    )


def _googlesql_division(target: Dialect, _: Dialect | None) -> bool:
    return target.capabilities.integer_division == "float" and "googlesql.div" in target.functions


def _googlesql_functions(target: Dialect, _: Dialect | None) -> bool:
    return bool(target.capabilities.unsupported_functions) and (
        "googlesql.substr" in target.functions
    )


def _adding(summary: Summary, *kinds: type) -> Summary:
    """The summary of a query a refusal pass changed: what it held (the refused parts are
    kept inside the refusal) and the refusals' kinds."""
    return _adding_kinds(summary, *kinds)


_ALL = frozenset({"cypher", "gql", "sql"})
_COMPOSITE_KINDS = frozenset({e.In, e.Comparison, e.Case, e.Index})

#: Every lowering, in the order they run; each names the families it is written for.
LOWERINGS: tuple[Lowering, ...] = (
    Lowering(
        "float-quotients",
        _ALL,
        _float_source,
        _float_quotients,
        "a / b read as float division is toFloat(a) / b for a truncating target",
        by_source=True,
        needed=lambda x: e.Arithmetic in x.kinds,
    ),
    Lowering(
        "gql-meanings",
        frozenset({"cypher", "sql"}),
        lambda t, s: True,
        lower_gql_meanings,
        "GQL's numeric + is the target's + on numbers, GQL's FLOOR/CEIL and FalkorDB's round "
        "keep integers; GoogleSQL-only functions are refused",
        needed=lambda x: needs_gql_meanings(x.kinds, x.functions, x.adds_numbers),
    ),
    Lowering(
        "composite-values",
        frozenset({"cypher"}),
        lambda t, s: composites.applies(t),
        composites.check_composites,
        "comparisons, IN and subscripts of lists or maps that may hold a null (or a position "
        "out of range) refused where the target gives them another meaning",
        needed=lambda x: not x.kinds.isdisjoint(_COMPOSITE_KINDS),
        reads_schema=True,
    ),
    Lowering(
        "decimal-aggregates",
        frozenset({"cypher"}),
        lambda t, s: decimal_aggregates.applies(t),
        decimal_aggregates.check_decimal_aggregates,
        "sum/min/max/avg/count of a property the schema types DECIMAL refused where the "
        "target's aggregates take no DECIMAL",
        needed=lambda x: e.Aggregate in x.kinds,
        reads_schema=True,
    ),
    Lowering(
        "conversions",
        frozenset({"cypher", "sql"}),
        lambda t, s: conversions.applies(t),
        conversions.lower_conversions,
        "toBoolean/toInteger/toFloat/toString of a value of their type as the value itself",
        needed=lambda x: not x.functions.isdisjoint(conversions.NAMES),
    ),
    Lowering(
        "conversions",
        frozenset({"gql"}),
        lambda t, s: conversions.applies(t),
        conversions.lower_conversions_by_cast,
        "as above, and toString()/toFloat() of a known integer as CAST(x AS STRING/FLOAT)",
        needed=lambda x: not x.functions.isdisjoint(conversions.NAMES),
    ),
    Lowering(
        "list-predicates",
        frozenset({"cypher"}),
        lambda t, s: list_predicates.applies(t),
        list_predicates.lower_list_predicates,
        "all/any/none/single(x IN l WHERE p) as CASE over sizes of filtered comprehensions",
        needed=lambda x: e.ListPredicate in x.kinds,
    ),
    Lowering(
        "pattern-predicates",
        frozenset({"cypher"}),
        lambda t, s: pattern_predicates.applies(t),
        pattern_predicates.lower_pattern_predicates,
        "EXISTS { (a)-->() } of bound variables as the pattern predicate (a)-->()",
        needed=lambda x: e.Exists in x.kinds,
    ),
    Lowering(
        "cypher-meanings",
        frozenset({"cypher"}),
        lambda t, s: needs_lowering(t),
        lower_cypher,
        "Cypher's null, CASE, IN, + and subscript meanings kept where the target differs",
        needed=cypher_meanings_needed,
        needed_by_target=True,
    ),
    Lowering(
        "googlesql-strings",
        frozenset({"gql"}),
        _googlesql_strings,
        lower_string_predicates,
        "CONTAINS as STRPOS(s, t) > 0, =~ with a literal pattern as an anchored REGEXP_CONTAINS",
        needed=lambda x: e.StringMatch in x.kinds or e.RegexMatch in x.kinds,
    ),
    Lowering(
        "googlesql-division",
        frozenset({"gql"}),
        _googlesql_division,
        lower_integer_division,
        "a / of two known integers as DIV (truncating) where / gives a float",
        needed=lambda x: x.other_arithmetic,  # (/ is among them)
    ),
    Lowering(
        "googlesql-functions",
        frozenset({"gql"}),
        _googlesql_functions,
        lower_functions,
        "left/right/substring as SUBSTR, toFloat of a number as CAST, round(x) half up",
        needed=lambda x: not x.functions.isdisjoint(googlesql_functions.NAMES),
    ),
    Lowering(
        "googlesql-temporal",
        frozenset({"gql"}),
        lambda t, s: t.capabilities.googlesql_expressions,
        lower_timestamps,
        "a datetime at offset zero or compared by order as a TIMESTAMP; date() in UTC",
        needed=lambda x: e.TemporalLiteral in x.kinds or not x.functions.isdisjoint(TODAY | NOW),
    ),
    Lowering(
        "set-operations",
        frozenset({"cypher"}),
        lambda t, s: not t.capabilities.except_intersect,
        lower_set_operations,
        "INTERSECT / EXCEPT written as UNION ALL of tagged branches, grouped and counted",
        needed=lambda x: q.SetOperation in x.kinds,
    ),
    Lowering(
        "googlesql",
        frozenset({"gql"}),
        _googlesql_rules,
        lower_googlesql,
        "literal-null operands folded; element filters that read others moved to WHERE",
    ),
    Lowering(
        "redundant-path-modes",
        frozenset({"gql"}),
        lambda t, s: path_modes.applies(t),
        path_modes.drop_redundant_path_modes,
        "WALK and TRAIL dropped where the target's MATCH keeps edges distinct by itself",
        needed=lambda x: not x.path_modes.isdisjoint(path_modes.DROPPED),
    ),
    Lowering(
        "gql-functions",
        frozenset({"gql"}),
        lambda t, s: True,
        gql_functions.lower_gql_functions,
        "e(), pi(), coalesce(x), nodes(null) as values; one-argument trims with Cypher's set",
        needed=lambda x: not x.functions.isdisjoint(gql_functions.NAMES),
    ),
    Lowering(
        "sql-aggregates",
        frozenset({"gql"}),
        lambda t, s: _sql_aggregates(t),
        lower_sql_aggregates,
        "SQL's null-on-no-rows aggregates, as read, marked to be written as those aggregates",
        needed=lambda x: e.Case in x.kinds,
    ),
    Lowering(
        "let-steps",
        frozenset({"gql"}),
        lambda t, s: True,
        lower_let_steps,
        "a LET whose binding reads another as two LETs; one binding a variable in scope refused",
        needed=lambda x: q.Let in x.kinds,
        summarizes=lambda x: _adding(x, q.RefusedStep),
    ),
    Lowering(
        "gql-projections",
        frozenset({"gql"}),
        lambda t, s: True,
        lower_gql_projections,
        "WITH/RETURN as GQL RETURN … NEXT with explicit columns: implicit grouping as GROUP BY "
        "(with LET keys), WITH … WHERE as FILTER, sort keys as columns or two stages, "
        "top-level elements as JSON or refused",
        needed=lambda x: q.Projection in x.kinds,
        reads_properties=True,
        reads_options=True,
        summarizes=gql_projections_summary,
    ),
    Lowering(
        "relationship-types",
        frozenset({"gql"}),
        lambda t, s: relationship_types.applies(t),
        relationship_types.lower_relationship_types,
        "type(r) of -[r:T1|T2]-> as CASE WHEN r IS LABELED T1 THEN 'T1' … END",
        needed=lambda x: "type" in x.functions,
    ),
    Lowering(
        "path-lists",
        frozenset({"gql"}),
        lambda t, s: path_lists.applies(t),
        path_lists.lower_path_lists,
        "nodes(p) / relationships(p) of a named chain written as the list of its variables",
        needed=lambda x: not x.functions.isdisjoint(("nodes", "relationships")),
    ),
    Lowering(
        "edge-uniqueness",
        frozenset({"gql"}),
        lambda t, s: edge_uniqueness.applies(t),
        edge_uniqueness.lower_edge_uniqueness,
        "relationship uniqueness written as TRAIL or ALL_DIFFERENT (no match mode keywords)",
        needed=edge_uniqueness.needed,
        needed_by_target=True,
    ),
    Lowering(
        "unwind-joins",
        frozenset({"sql"}),
        lambda t, s: unwind_join.applies(t),
        unwind_join.lower_unwind_joins,
        "an UNWIND before the graph pattern as a join after it on the comparisons it feeds",
        needed=lambda x: q.Unwind in x.kinds,
    ),
    Lowering(
        "fixed-path-lengths",
        frozenset({"sql"}),
        lambda t, s: fixed_paths.applies(t),
        fixed_paths.lower_fixed_paths,
        "length(p) of a fixed-length path as its number of edges where paths cannot be named",
        needed=lambda x: "length" in x.functions,
    ),
    Lowering(
        "implied-edge-uniqueness",
        frozenset({"sql"}),
        lambda t, s: implied_uniqueness.applies(t),
        implied_uniqueness.lower_implied_uniqueness,
        "DIFFERENT EDGES dropped where the WHERE's inequalities keep the edges apart",
        needed=lambda x: p.RelPattern in x.kinds,
    ),
    Lowering(
        "property-maps",
        frozenset({"gql"}),
        lambda t, s: property_maps.applies(t),
        property_maps.lower_property_maps,
        "property map keys beyond the target's limit moved to the MATCH's WHERE",
        needed=lambda x: e.MapLiteral in x.kinds,
    ),
    Lowering(
        "gql-expressions",
        frozenset({"gql"}),
        lambda t, s: True,
        lower_gql_expressions,
        "constant list walks item by item; functions by argument type; polymorphic + by "
        "operand types; XOR as <>, IS UNKNOWN as IS NULL",
        needed=gql_expressions.needed,
        needed_by_target=True,
        reads_properties=True,
    ),
    Lowering(
        "googlesql-dates",
        frozenset({"gql"}),
        lambda t, s: _googlesql_dates(t),
        lower_dates,
        "d.year as EXTRACT, date ± duration as DATE_ADD, instant ± duration as TIMESTAMP_ADD, "
        "date.truncate as DATE_TRUNC, date({timezone}) / datetime() as CURRENT_DATE / "
        "CURRENT_TIMESTAMP, by operand types",
        needed=googlesql_temporal.dates_needed,
        needed_by_target=True,
        reads_properties=True,
    ),
    Lowering(
        "search-filters",
        frozenset({"gql"}),
        lambda t, s: True,
        search_filters.lower_search_filters,
        "a shortest-path MATCH with a WHERE refused: GQL selects the paths before the WHERE",
        needed=lambda x: p.Search in x.kinds,
    ),
    Lowering(
        "correlated-elements",
        frozenset({"gql"}),
        lambda t, s: correlated_elements.applies(t),
        correlated_elements.lower_correlated_elements,
        "an enclosing query's element named in a subquery pattern as a fresh variable equal to it",
        needed=lambda x: not x.kinds.isdisjoint(correlated_elements.KINDS),
    ),
    Lowering(
        "path-deletes",
        frozenset({"gql"}),
        lambda t, s: path_deletes.applies(t),
        path_deletes.lower_path_deletes,
        "a final DELETE of paths as FOR e IN ELEMENTS(p) DELETE e; an earlier one refused",
        needed=lambda x: q.Delete in x.kinds,
        reads_properties=True,
    ),
    Lowering(
        "merge",
        frozenset({"gql"}),
        lambda t, s: merge.applies(t),
        merge.lower_merges,
        "MERGE as OPTIONAL MATCH, an OPTIONAL CALL that inserts where nothing matched and one "
        "that runs ON MATCH, and FOR over the two; refused where rows could see each other's "
        "inserts",
        needed=lambda x: q.Merge in x.kinds,
    ),
    Lowering(
        "set-items",
        frozenset({"gql"}),
        lambda t, s: set_items.applies(t),
        set_items.lower_set_items,
        "a SET item that reads what an earlier one wrote starts a new SET; n += {k: v} as "
        "n.k = v where the target has no +=",
        needed=lambda x: q.SetClause in x.kinds,
    ),
    Lowering(
        "element-predicates",
        frozenset({"cypher"}),
        lambda t, s: True,
        element_predicates.lower_element_predicates,
        "SAME / ALL_DIFFERENT as comparisons, IS SOURCE OF as startNode(e) = n, PROPERTY_EXISTS "
        "as IS NOT NULL, ELEMENTS(p) as nodes and relationships interleaved",
        needed=lambda x: (
            not x.kinds.isdisjoint(element_predicates.KINDS) or "elements" in x.functions
        ),
    ),
    Lowering(
        "cypher-uniqueness",
        frozenset({"cypher"}),
        lambda t, s: cypher_uniqueness.applies(t),
        cypher_uniqueness.lower_cypher_uniqueness,
        "relationship uniqueness as the match's mode for one TRAIL path, as is_trail(p) or "
        "elementId(r1) <> elementId(r2) in the WHERE, or as TRAIL in the quantifier",
        needed=cypher_uniqueness.needed,
        needed_by_target=True,
    ),
    Lowering(
        "undirected-self-loops",
        frozenset({"cypher"}),
        lambda t, s: self_loops.applies(t),
        self_loops.lower_self_loops,
        "a MATCH with an undirected relationship that may be a self-loop refused where the "
        "target matches a loop once per direction",
        needed=lambda x: p.RelPattern in x.kinds,
        summarizes=self_loops.summarized,
    ),
    Lowering(
        "case-result-types",
        frozenset({"cypher"}),
        lambda t, s: case_results.applies(t),
        case_results.lower_case_results,
        "a CASE whose results may be of different types refused where the target casts them "
        "to one type",
        needed=lambda x: e.Case in x.kinds,
        summarizes=case_results.summarized,
    ),
    Lowering(
        "aggregate-defaults",
        frozenset({"cypher"}),
        lambda t, s: aggregate_defaults.applies(t),
        aggregate_defaults.lower_aggregate_defaults,
        "sum() / collect() as coalesce(sum(x), 0) / coalesce(collect(x), []) where the target "
        "gives null for no values",
        needed=lambda x: not x.aggregates.isdisjoint(("sum", "collect")),
        summarizes=aggregate_defaults.summarized,
    ),
    Lowering(
        "list-positions",
        frozenset({"cypher"}),
        lambda t, s: list_positions.applies(t),
        list_positions.lower_list_positions,
        "a literal list position counted from the target's base (Kuzu's 1); any other "
        "subscript, and a slice with bounds, refused there",
        needed=lambda x: e.Index in x.kinds or e.Slice in x.kinds,
        summarizes=list_positions.summarized,
    ),
    Lowering(
        "removed-properties",
        frozenset({"cypher"}),
        lambda t, s: removed_properties.applies(t),
        removed_properties.lower_removed_properties,
        "REMOVE n.p as SET n.p = null where the target has no REMOVE",
        needed=lambda x: q.Remove in x.kinds,
        summarizes=removed_properties.summarized,
    ),
    Lowering(
        "integer-quotients",
        frozenset({"cypher"}),
        lambda t, s: t.capabilities.integer_division != "truncate",
        refuse_integer_quotients,
        "a / without a float literal operand refused where / of two integers does not truncate",
        needed=lambda x: x.other_arithmetic,
        summarizes=summarized_quotients,
    ),
    Lowering(
        "implicit-grouping",
        frozenset({"cypher"}),
        lambda t, s: implicit_grouping.applies(t),
        implicit_grouping.lower_implicit_grouping,
        "a WITH / RETURN that aggregates next to other items refused where projections do "
        "not group implicitly",
        needed=lambda x: q.Projection in x.kinds and (bool(x.aggregates) or e.CountStar in x.kinds),
        summarizes=implicit_grouping.summarized,
    ),
    Lowering(
        "shortest-ends",
        frozenset({"cypher"}),
        lambda t, s: shortest_ends.applies(t),
        shortest_ends.lower_shortest_ends,
        "a shortest search between nodes that may be one marked refused where the target "
        "drops the paths from a node to itself",
        needed=lambda x: p.Search in x.kinds,
        summarizes=shortest_ends.summarized,
    ),
    Lowering(
        "let-bindings",
        frozenset({"cypher"}),
        lambda t, s: let_bindings.applies(t),
        let_bindings.lower_let_bindings,
        "a LET binding that reads one bound before it in the step starts a new LET, where LET "
        "is written as a WITH (whose items cannot see each other)",
        needed=lambda x: q.Let in x.kinds,
        summarizes=let_bindings.summarized,
    ),
    Lowering(
        "element-references",
        frozenset({"gql"}),
        lambda t, s: True,
        element_references.lower_element_references,
        "an element predicate or elementId() of an expression (not a variable) refused",
        needed=lambda x: (
            not x.kinds.isdisjoint(element_references.KINDS) or "elementid" in x.functions
        ),
    ),
    Lowering(
        "temporal-calls",
        frozenset({"gql"}),
        lambda t, s: True,
        temporal_calls.lower_temporal_calls,
        "date.statement() as date(); date() / datetime() as CURRENT_DATE / CURRENT_TIMESTAMP "
        "where no constructor has the name; a constructor of a computed value refused",
        needed=lambda x: x.temporal_calls,
    ),
    Lowering(
        "case-forms",
        frozenset({"gql"}),
        lambda t, s: True,
        case_forms.lower_case_forms,
        "a simple CASE whose operand or WHEN values are not primaries as a searched CASE",
        needed=lambda x: x.simple_cases,
    ),
    Lowering(
        "like-patterns",
        frozenset({"gql"}),
        lambda t, s: like_patterns.applies(t),
        like_patterns.lower_like_patterns,
        "a LIKE whose escape is not a backslash refused unless its pattern is a literal "
        "holding no escape",
        needed=lambda x: e.Like in x.kinds,
    ),
    Lowering(
        "date-parts",
        frozenset({"gql"}),
        lambda t, s: date_parts.applies(t),
        date_parts.lower_date_parts,
        "EXTRACT / INTERVAL / DATE_TRUNC / DATE_DIFF of a part the function does not take refused",
        needed=lambda x: not x.functions.isdisjoint(date_parts.NAMES),
    ),
    Lowering(
        "gql-steps",
        frozenset({"gql"}),
        lambda t, s: True,
        lower_gql_steps,
        "UNWIND of a known non-list, a quantified relationship bound earlier and a lone CALL "
        "without YIELD refused",
        needed=lambda x: not x.kinds.isdisjoint(_STEP_KINDS),
        reads_properties=True,
        summarizes=lambda x: _adding(x, q.RefusedStep),
    ),
    Lowering(
        "function-support",
        frozenset({"gql"}),
        lambda t, s: True,
        function_support.lower_function_support,
        "a function, aggregate or temporal constructor the target has no built-in for refused "
        "(here without a schema: gql-forms then rewrites no call)",
        needed=function_support.needed_without_schema,
        needed_by_target=True,
        summarizes=lambda x: _adding(x, e.Untranslatable, q.RefusedStep),
    ),
    Lowering(
        "gql-forms",
        frozenset({"gql"}),
        lambda t, s: True,
        lower_gql_forms,
        "STARTS WITH as LEFT/RIGHT; IN, list predicates and subscripts over run-time lists as "
        "FOR walks; % ^ / in MOD/POWER; sum/stDev/collect of no rows; type/labels under a "
        "schema; COUNT/COLLECT subqueries as VALUE; comparisons of known different types",
        needed=_needs_gql_forms,
        reads_schema=True,
        reads_properties=True,
        needed_by_target=True,
    ),
    Lowering(
        "function-support",
        frozenset({"gql"}),
        lambda t, s: True,
        function_support.lower_under_schema,
        "as above, under a schema: after gql-forms, which writes type() and labels() by it",
        reads_schema=True,
        reads_properties=True,
    ),
)


def lowerings(target: Dialect, source: Dialect | None = None) -> tuple[Lowering, ...]:
    """The passes that run for ``target`` (a query read from ``source``, when known: else the
    passes that depend on the source are left out)."""
    key = (target, source)  # dialects compare by identity; each is loaded once
    found = _CHOSEN.get(key)
    if found is None:
        if len(_CHOSEN) > 256:  # dialects built by hand, not loaded once
            _CHOSEN.clear()
        found = _CHOSEN[key] = tuple(
            x for x in LOWERINGS if target.family in x.families and x.when(target, source)
        )
    return found


_CHOSEN: dict[tuple[Dialect, Dialect | None], tuple[Lowering, ...]] = {}


def _plan(target: Dialect, source: Dialect | None, by_source: bool) -> tuple[_Step, ...]:
    """:func:`lowerings` that depend on the source (``by_source``) or do not, each with how
    :func:`lower` asks whether it is needed and calls it, found once per choice: most targets
    have none of the first kind, and a translation asks for them first."""
    chosen = lowerings(target, source)
    key = (id(chosen), by_source)
    found = _PLANS.get(key)
    if found is None or found[0] is not chosen:
        if len(_PLANS) > 512:  # (as for _CHOSEN)
            _PLANS.clear()
        steps = tuple(
            (
                x,
                None if x.needed is _always else x.needed,
                x.needed_by_target,
                _CALLS[(x.reads_options, x.reads_schema, x.reads_properties)],
            )
            for x in chosen
            if x.by_source == by_source
        )
        found = _PLANS[key] = (chosen, steps)
    return found[1]


#: A lowering as :func:`lower` runs it: the lowering, its ``needed`` (None: always), whether
#: that takes the target, and which arguments ``run`` takes (:data:`_CALLS`).
_Step = tuple[Lowering, Callable[..., bool] | None, bool, int]
#: (reads_options, reads_schema, reads_properties) -> how ``run`` is called: 0 ``(node,
#: target)``, 1 with the properties, 2 with the schema, 3 with both, 4 with the properties and
#: the printer's options.
_CALLS = {
    (options, schema, props): 4
    if options
    else 3
    if schema and props
    else 2
    if schema
    else int(props)
    for options in (False, True)
    for schema in (False, True)
    for props in (False, True)
}
#: (id(a choice of lowerings), by_source) -> (the choice, held so that its id is not reused,
#: and its plan)
_PLANS: dict[tuple[int, bool], tuple[tuple[Lowering, ...], tuple[_Step, ...]]] = {}


def lower(
    node: Node,
    target: Dialect,
    *,
    source: Dialect | None = None,
    changed: list[str] | None = None,
    by_source: bool = False,
    properties: Mapping[tuple[str, str], str] | None = None,
    schema: Any = None,
    options: Mapping[str, Any] | None = None,
) -> Node:
    """``node`` lowered for ``target``: its own passes, or with ``by_source`` the passes that
    depend on the ``source`` dialect. The names of the passes that changed it are appended to
    ``changed`` when given. ``schema``: the graph's schema, for the passes that read it;
    ``properties``: its property kinds, for the passes that read types (``(node|edge, key) ->
    kind``, :func:`gqlir.analysis.types.property_kinds`); ``options``: the printer's, for the
    passes that read them."""
    summary: Summary | None = None
    typed = bool(properties) or schema is not None
    for lowering, needed, by_target, call in _plan(target, source, by_source):
        if needed is not None:
            if summary is None:
                summary = summary_of(node)
            if not (needed(summary, target, typed) if by_target else needed(summary)):
                continue
        run = lowering.run
        if call == 0:
            out = run(node, target)
        elif call == 1:
            out = run(node, target, properties)
        elif call == 2:
            out = run(node, target, schema)
        elif call == 3:
            out = run(node, target, properties, schema)
        else:
            out = run(node, target, properties, options)
        if out is not node:
            if lowering.summarizes is not None and summary is not None:
                summary = lowering.summarizes(summary)
                _remember(out, summary)
            else:
                summary = None  # the query changed: gather again when a later pass asks
            if changed is not None:
                changed.append(lowering.name)
        node = out
    return node
