"""Dialects are data: ``dialects/*.toml`` specs, loaded into :class:`Dialect` objects.

A spec names its family (cypher, gql, sql), what it inherits, its grammar variant, its
capabilities, its function renames and reserved words, and cites the documentation each fact
comes from. Emitters and passes read capabilities; they never test a dialect's name.

``sql`` takes sqlglot's dialect after a colon (``sql:sqlite``, ``sql:postgres``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Literal

from .errors import DialectError
from .resources import data_dir


@dataclass(frozen=True)
class Capabilities:
    """What a dialect can express. Defaults describe Neo4j 5 / Cypher 25."""

    # composition and clauses
    call_subquery: bool = True
    call_scope: bool = True  # CALL (x) { }
    # CALL { } without a scope list sees the whole incoming scope (ISO GQL); in Cypher it
    # imports nothing
    call_whole_scope: bool = False
    optional_call: bool = True
    call_in_transactions: bool = True
    exists_subquery: bool = True
    # EXISTS { pattern } with no MATCH keyword (Neo4j 5's short form of a one-MATCH subquery)
    exists_pattern_form: bool = True
    pattern_predicate: bool = True  # WHERE (a)-[:R]->(): openCypher 9's bare pattern as a test
    # a pattern predicate anywhere a boolean goes (False: only under AND/OR/NOT of a WHERE)
    pattern_predicate_anywhere: bool = True
    count_subquery: bool = True
    collect_subquery: bool = True
    value_subquery: bool = False  # GQL VALUE { }
    # a subquery's pattern may name an element variable of the enclosing query
    subquery_rebinds_elements: bool = True
    # an operator may take a literal NULL operand (GoogleSQL's analyser refuses one)
    literal_null_operands: bool = True
    # an element pattern's property map or WHERE may read other variables (GoogleSQL: only
    # the MATCH's WHERE may)
    element_filters_read_others: bool = True
    filter_step: bool = True
    let_step: bool = True
    conditional_queries: bool = True  # Cypher 25 WHEN … THEN … ELSE
    schema_commands: bool = True  # Neo4j CREATE/DROP INDEX|CONSTRAINT, SHOW …
    # index types CREATE … INDEX can make, and "<NODE|RELATIONSHIP> <kind>" constraints
    index_types: tuple[str, ...] = ("RANGE", "TEXT", "POINT", "LOOKUP", "FULLTEXT", "VECTOR")
    constraint_kinds: tuple[str, ...] = (
        "NODE UNIQUE",
        "NODE NOT NULL",
        "NODE KEY",
        "NODE TYPE",
        "RELATIONSHIP UNIQUE",
        "RELATIONSHIP NOT NULL",
        "RELATIONSHIP KEY",
        "RELATIONSHIP TYPE",
    )
    # Neo4j 4 schema syntax: ON … ASSERT, INDEX ON :L(p), DROP … ON, BTREE, BRIEF/VERBOSE
    legacy_schema_syntax: bool = False
    leading_zero_octal: bool = False  # 0777 is octal (older Cypher grammars); else an error
    finish: bool = True
    use_graph: bool = True
    merge: bool = True
    foreach: bool = True
    load_csv: bool = True
    union_distinct: bool = True
    union_all: bool = True
    except_intersect: bool = False
    otherwise: bool = False
    create_keyword: str = "CREATE"  # CREATE | INSERT
    standalone_order_by: bool = True
    procedure_calls: bool = True
    graph_prefix_required: bool = False  # the query must start with GRAPH g (Spanner)
    graph_writes: bool = True  # graph DML in the query language (CREATE/INSERT, SET, DELETE ...)
    remove_clause: bool = True  # REMOVE n.p / REMOVE n:L
    set_map: bool = True  # SET n = {…} and SET n += {…}
    set_merge_map: bool = False  # a GQL dialect writes SET n += {…} (TuGraph), not SET n.k = v
    set_labels: bool = True  # SET n:L
    implicit_grouping: bool = True  # aggregates group by the other projected items
    group_by: str = ""  # "" (no GROUP BY), "variables" (ISO GQL), "expressions" (GoogleSQL, SQL)
    # patterns
    quantified_paths: bool = True  # ((a)-->(b)){1,3}
    quantified_edge_syntax: str = "star"  # star: -[*1..3]->, braces: -[]->{1,3}
    unbounded_quantifiers: bool = True
    max_quantifier_upper: int = 0  # a larger upper bound is capped by the engine; 0: none
    shortest_prefix: bool = True  # ANY SHORTEST, SHORTEST k ...
    shortest_function: bool = True  # shortestPath(), allShortestPaths()
    label_expressions: str = "full"  # full (& | ! %), colon (:A:B, [:R1|R2]), or (|), single
    max_node_labels: int = 0  # 0: unlimited
    max_property_map_keys: int = 0  # keys of an element's property map in MATCH; 0: unlimited
    inline_where: bool = True  # (n WHERE …)
    match_modes: bool = True  # REPEATABLE ELEMENTS / DIFFERENT RELATIONSHIPS
    path_modes: tuple[str, ...] = ()  # WALK, TRAIL, SIMPLE, ACYCLIC as a path prefix
    default_match_mode: str = "DIFFERENT_EDGES"
    # A MATCH without mode keywords surely has default_match_mode (else: the mode is written
    # wherever edge uniqueness can change the result)
    match_mode_implicit: bool = True
    undirected_edges: bool = False  # GQL ~[]~
    path_union: bool = False
    anonymous_edge_shorthand: bool = True  # (a)-->(b) without brackets
    colon_labels: str = "and"  # meaning of (n:A:B): "and" (Cypher) or "or" (Kuzu)
    shortest_in_quantifier: bool = False  # Kuzu -[* SHORTEST 1..n]-> / -[* ALL SHORTEST 1..n]->
    quantifier_path_modes: tuple[str, ...] = ()  # modes inside a var-length edge: -[* TRAIL 1..3]->
    # expressions
    type_predicates: bool = True  # IS :: T
    is_labeled: bool = False  # n IS LABELED A
    string_predicates: bool = True  # STARTS WITH / ENDS WITH / CONTAINS
    regex_match: bool = True  # =~
    list_membership: bool = True  # IN
    list_comprehension: bool = True
    exists_property_function: bool = False  # exists(n.p) for n.p IS NOT NULL (Neo4j 4)
    pattern_count_size: bool = False  # size((a)-->()) counts the pattern's matches (Neo4j 4)
    pattern_comprehension: bool = True
    map_projection: bool = True
    reduce: bool = True
    list_predicates: bool = True  # all/any/none/single(x IN l WHERE p)
    subscript: bool = True
    slicing: bool = True
    concat_operator: bool = True  # ||
    like_operator: bool = False  # SQL's x [NOT] LIKE pattern, % and _ wildcards
    # + on strings and lists; where false (every GQL dialect), the GQL printer writes Cypher's
    # polymorphic + as numeric +, || or an append, by the operand types, or refuses it
    plus_concatenates: bool = True
    cast: bool = False
    temporal_literals: str = "function"  # function: date('…'); typed: DATE '…'
    null_ordering_syntax: bool = False  # NULLS FIRST | NULLS LAST
    nulls_sort_high: bool = True  # nulls are larger than any value (ASC puts them last)
    return_graph_elements: bool = True
    label_predicate: bool = True  # n:A as a boolean expression
    dynamic_property: bool = True  # n[key] with a computed key
    membership_unnest: bool = False  # membership is written x IN UNNEST(list) (GoogleSQL)
    string_predicate_functions: bool = False  # STARTS_WITH(s, p) / ENDS_WITH(s, p) (GoogleSQL)
    # "..": [a..b] 0-based, end exclusive (Cypher); ":": [a:b] counted from list_index_base, end
    # inclusive (Kuzu)
    slice_syntax: str = ".."
    integer_division: str = "truncate"  # int / int: "truncate" (Cypher) or "float" (GoogleSQL)
    # False: the default null placement is not what nulls_sort_high says (implementation-defined,
    # or always last): emitters must spell NULLS FIRST / NULLS LAST on every sort key
    null_order_fixed: bool = True
    # canonical functions with no same-meaning spelling here; a call written with that name in
    # this dialect's text does not have the canonical meaning
    unsupported_functions: tuple[str, ...] = ()
    # forms the GQL emitter chooses between (the defaults describe Neo4j)
    xor_operator: bool = True  # a XOR b (GoogleSQL has none)
    unknown_test: bool = True  # x IS [NOT] UNKNOWN (else written x IS [NOT] NULL)
    map_literals: bool = True  # {k: v} as a value (GoogleSQL has no map type)
    # a list holds values of one type, coerced to a common supertype, and no lists (GoogleSQL)
    typed_lists: bool = False
    # FOR x IN l WITH <form> i, forms as written: "ORDINALITY", "OFFSET", "OFFSET AS"
    for_index: tuple[str, ...] = ()
    # path search prefixes, as ir.SearchKind values
    search_prefixes: tuple[str, ...] = (
        "ALL",
        "ANY",
        "ANY SHORTEST",
        "ALL SHORTEST",
        "SHORTEST k",
        "SHORTEST k GROUPS",
    )
    search_with_mode: bool = True  # a prefix and a path mode together: ANY SHORTEST TRAIL (…)
    braced_query_branches: bool = False  # { … NEXT … } as an operand of UNION
    set_op_distinct_keyword: bool = False  # UNION DISTINCT must be spelled out
    collect_keeps_nulls: bool = False  # the list aggregate keeps nulls unless told (ARRAY_AGG)
    collect_empty_null: bool = False  # the list aggregate of no rows is null, not []
    sum_empty_null: bool = False  # sum() of no values is null, not 0
    null_length_is_null: bool = False  # left/right/substring of a null length: null, not an error
    # Null semantics and evaluation rules that differ from Cypher's (defaults: Cypher's); the
    # Cypher emitter's lowering (gqlir.passes.cypher_lowering) rewrites or refuses what differs
    membership_null_unknown: bool = True  # x IN l is null if nothing matches and l holds null
    list_equality_null_unknown: bool = True  # [1, null] = [1, null] is null, not true
    simple_case_null_matches: bool = False  # CASE x WHEN null THEN … matches every x
    string_plus_null_empty: bool = False  # 'a' + null is 'a' (null read as ''), not null
    contains_empty_true: bool = True  # 'abc' CONTAINS '' is true
    index_out_of_range_null: bool = True  # [1, 2][5] is null, not an error
    order_by_reads_shadowed: bool = False  # RETURN -x AS x ORDER BY x sorts by the old x
    with_distinct_constants_kept: bool = False  # WITH DISTINCT 1 AS c keeps every row
    undirected_self_loop_once: bool = True  # (a)-[r]-(b) matches a self-loop once, not twice
    trail_function: str = ""  # a function true of a path whose edges differ (Kuzu is_trail)
    case_unifies_result_types: bool = False  # CASE casts its results to one type (0 to '0')
    shortest_same_endpoints: bool = True  # a shortest search keeps paths from a node to itself
    # a MATCH relationship that nothing else in the query names is matched once per edge, not
    # only tested to exist once per pair of end nodes (FalkorDB)
    unreferenced_edges_counted: bool = True
    # a lone variable-length relationship of a MATCH is matched as trails with no keyword
    # (FalkorDB), so DIFFERENT RELATIONSHIPS needs no mode there
    quantified_edge_trail: bool = False
    undirected_quantified: bool = True  # -[*1..2]- matches as Cypher's undirected paths
    quantified_edge_list: bool = True  # a -[r*1..2]-> variable is a list (FalkorDB: a path)
    match_rebinds_edges: bool = True  # a later MATCH honours a relationship bound before it
    pattern_reads_comprehension: bool = True  # a pattern inside [x IN l | …] may read x
    # a WITH … WHERE after an OPTIONAL MATCH drops the row of nulls where its test is not true
    # (FalkorDB pushes the test into the OPTIONAL MATCH, which keeps the row)
    filter_after_optional: bool = True
    # LIMIT 0 after a write keeps the write (FalkorDB: the query then writes nothing)
    limit_zero_writes: bool = True
    read_after_write: bool = True  # MATCH or UNWIND may follow CREATE/SET … without a WITH
    sub_second_temporals: bool = True  # temporal values keep fractions of a second
    pattern_comprehension_keeps_nulls: bool = True  # [(a)-->(b) | b.x] keeps null values
    integer_rounding_float: bool = True  # ceil/floor/round of an integer are floats
    round_half_up: bool = True  # round(-2.5) is -2.0 (Java's Math.round), not -3.0
    to_integer_truncates: bool = True  # toInteger(-1.5) is -1 (toward zero), not -2
    sum_keeps_integers: bool = True  # sum() of integers is an integer (FalkorDB: a float)
    decimal_aggregates: bool = True  # sum/min/max/avg/count take DECIMAL values (Kuzu: no)
    # the grammar ranks operators otherwise than Cypher (FalkorDB: ^ is right-associative, +
    # binds less tightly than IN): every operand that is an operator is parenthesised
    operator_parentheses: bool = False
    element_json_function: str = ""  # makes a graph element returnable (SAFE_TO_JSON)
    type_names: tuple[str, ...] = ()  # "CANONICAL=SURFACE" value type names; "-": none
    # GQL element predicates: "IS DIRECTED", "IS SOURCE OF" (and DESTINATION), "SAME",
    # "ALL_DIFFERENT", "PROPERTY_EXISTS"
    element_predicates: tuple[str, ...] = ()
    edge_cost: bool = False  # COST expr on an edge pattern (for CHEAPEST searches)
    # rows of a quantified edge without a search prefix: "path" (one per path, the standard's),
    # "endpoint" (one per reachable endpoint: DuckPGQ's bounded path expansion)
    quantifier_rows: str = "path"
    path_pattern_lists: bool = True  # MATCH (a)->(b), (b)->(c): several comma-separated paths
    # the query's graph pattern comes before any other step (SQL/PGQ: GRAPH_TABLE's MATCH reads
    # no row of the SQL around it), so an UNWIND before it is written as a join after it
    graph_pattern_first: bool = False
    path_variables: bool = True  # MATCH p = (…): a pattern may name its path
    search_count_parameter: bool = False  # a search prefix's count may be a parameter (ANY @k)
    array_subquery: bool = False  # ARRAY { ... } and x IN { ... } (GoogleSQL graph subqueries)
    # GoogleSQL's own expressions: a[OFFSET(i)] / SAFE_OFFSET / ORDINAL, SAFE_CAST, STRUCT(...),
    # TIMESTAMP '...' literals
    googlesql_expressions: bool = False
    power_of_integers_is_float: bool = False  # POWER(INT64, INT64) is a FLOAT64 (GoogleSQL)
    power_is_float: bool = False  # POWER(x, y) is always a float, as Cypher's x ^ y
    catalog_statements: bool = False  # GQL SESSION, transaction and CREATE/DROP GRAPH statements
    group_by_ordinals: bool = False  # GROUP BY 1 names the first RETURN item (TuGraph GQL)
    # lexical
    param_sigil: str = "$"
    list_index_base: int = 0
    string_quote: str = "'"
    identifier_quote: str = "`"
    # "double": `a``b`; "backslash": the string escapes; "none": a name holding the quote
    # character cannot be written
    identifier_escape: str = "double"
    quoted_variables: bool = True  # a variable may be a delimited identifier
    float_literal_exponent: bool = False  # 1.5 is exact in ISO GQL: floats need 1.5E0


@dataclass(frozen=True, eq=False)
class Dialect:
    name: str
    family: str  # cypher | gql | sql
    grammar: str  # grammar variant file stem, e.g. "cypher"
    description: str
    capabilities: Capabilities
    functions: dict[str, str] = field(default_factory=dict)  # canonical -> surface name
    function_aliases: dict[str, str] = field(default_factory=dict)  # surface (lower) -> canonical
    reserved_words: frozenset[str] = frozenset()
    #: keywords that are no name at all, not even a label or a property key, unless escaped
    #: (TuGraph's Lcypher.g4 tokens outside oC_SymbolicName and oC_ReservedWord)
    keyword_only: frozenset[str] = frozenset()
    aliases: tuple[str, ...] = ()
    sources: dict[str, str] = field(default_factory=dict)
    sql_dialect: str | None = None  # for family "sql": the sqlglot dialect
    #: how a SQL/PGQ form writes and reads GRAPH_TABLE: the ``[form]`` table, with a flavour's
    #: ``[flavours.<name>.form]`` over it (read as :class:`gqlir.sqlpgqforms.Form`)
    form: dict[str, Any] = field(default_factory=dict)

    def function_name(self, canonical: str) -> str:
        """The surface spelling of a canonical function name in this dialect."""
        return self.functions.get(canonical, canonical)

    def canonical_function(self, written: str) -> str:
        """The canonical name of a function as written in this dialect's text."""
        low = written.lower()
        return self.function_aliases.get(low, low)

    @property
    def caps(self) -> Capabilities:
        return self.capabilities


_CAP_FIELDS = {f.name: f for f in fields(Capabilities)}


def _merge_spec(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


@cache
def _raw_specs() -> dict[str, dict[str, Any]]:
    specs: dict[str, dict[str, Any]] = {}
    for path in sorted((data_dir() / "dialects").glob("*.toml")):
        with path.open("rb") as fh:
            try:
                spec = tomllib.load(fh)
            except tomllib.TOMLDecodeError as exc:
                raise DialectError(f"malformed dialect file {path.name}: {exc}") from None
        specs[spec.get("name", path.stem)] = spec
    return specs


def _resolved(name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    specs = _raw_specs()
    spec = specs[name]
    parent = spec.get("inherits")
    if parent:
        if parent in seen:
            raise DialectError(f"dialect inheritance cycle: {' -> '.join(seen + (parent,))}")
        if parent not in specs:
            raise DialectError(f"dialect {name!r} inherits unknown dialect {parent!r}")
        base = _resolved(parent, seen + (name,))
        base = {k: v for k, v in base.items() if k not in ("aliases", "description", "name")}
        return _merge_spec(base, spec)
    return spec


def extensions(name: str) -> tuple[str, ...]:
    """The dialects written as extensions of dialect ``name`` (their file inherits it)."""
    return tuple(n for n, spec in _raw_specs().items() if spec.get("inherits") == name)


def _build(name: str) -> Dialect:
    spec = _resolved(name)
    caps_in = dict(spec.get("capabilities", {}))
    unknown = set(caps_in) - set(_CAP_FIELDS)
    if unknown:
        raise DialectError(f"dialect {name!r}: unknown capabilities {sorted(unknown)}")
    for key, value in caps_in.items():
        if isinstance(value, list):
            caps_in[key] = tuple(value)
    functions = {k.lower(): v for k, v in spec.get("functions", {}).items()}
    aliases = {v.lower(): k for k, v in functions.items()}
    aliases.update({k.lower(): v.lower() for k, v in spec.get("function_aliases", {}).items()})
    return Dialect(
        name=spec.get("name", name),
        family=spec["family"],
        grammar=spec.get("grammar", spec["family"]),
        description=spec.get("description", ""),
        capabilities=Capabilities(**caps_in),
        functions=functions,
        function_aliases=aliases,
        reserved_words=frozenset(w.upper() for w in spec.get("reserved_words", [])),
        keyword_only=frozenset(w.upper() for w in spec.get("keyword_only", [])),
        aliases=tuple(spec.get("aliases", [])),
        sources=dict(spec.get("sources", {}))
        | {f"form.{k}": v for k, v in spec.get("form_sources", {}).items()},
        form=dict(spec.get("form", {})),
    )


#: The dialect names gqlir knows, for editors to complete. The public functions take
#: ``DialectName | str``: a SQL dialect takes any sqlglot flavour (``sql:<flavour>``), and
#: aliases are accepted too.
DialectName = Literal[
    "neo4j",
    "neo4j4",
    "opencypher9",
    "kuzu",
    "falkordb",
    "tugraph-cypher",
    "iso-gql",
    "spanner",
    "tugraph-gql",
    "sql",
    "sql:sqlite",
    "sql:duckdb",
    "sql:postgres",
    "sqlpgq",
    "sqlpgq:oracle",
    "sqlpgq:duckdb",
    "sqlpgq:postgres",
    "sqlpgq:bigquery",
]


@cache
def _registry() -> dict[str, str]:
    """Every accepted name (and alias) -> the dialect's own name."""
    names: dict[str, str] = {}
    for name, spec in _raw_specs().items():
        names[name] = name
        for alias in spec.get("aliases", []):
            names[alias] = name
    return names


@cache
def _get(name: str) -> Dialect:
    return _build(name)


#: Dialects by the exact name they were asked by (each is built once and never changes; every
#: translation looks its dialects up by name, several times).
_FOUND: dict[str, Dialect] = {}


def get_dialect(name: str | Dialect) -> Dialect:
    """Look up a dialect by name or alias; ``sql:<sqlglot dialect>`` selects a SQL flavour."""
    if isinstance(name, Dialect):
        return name
    found = _FOUND.get(name)
    if found is None:
        found = _FOUND[name] = _lookup(name)
    return found


def _lookup(name: str) -> Dialect:
    base, _, flavour = name.partition(":")
    registry = _registry()
    key = registry.get(base.lower())
    if key is None:
        known = ", ".join(sorted(registry))
        raise DialectError(f"unknown dialect {name!r}; known dialects: {known}")
    dialect = _get(key)
    if flavour:
        if dialect.family != "sql":
            raise DialectError(f"dialect {base!r} takes no ':{flavour}' variant")
        dialect = _with_sql_flavour(dialect, flavour)
    _FOUND[name] = dialect
    return dialect


@cache
def _with_sql_flavour(dialect: Dialect, flavour: str) -> Dialect:
    """The SQL dialect bound to one sqlglot dialect.

    The default null placement differs between SQL engines (SQLite: nulls smallest, PostgreSQL:
    largest, DuckDB: always last), so the flavour's own rule, as sqlglot records it, replaces
    the family's. Without sqlglot installed the flavour name is taken as given.
    """
    from dataclasses import replace

    flavour = flavour.lower()
    caps = dialect.capabilities
    sources = dict(dialect.sources)
    functions = dict(dialect.functions)
    aliases = dict(dialect.function_aliases)
    form = dict(dialect.form)
    own = _raw_specs().get(dialect.name, {}).get("flavours", {}).get(flavour)
    if own is not None:
        # the flavour's own facts, recorded in the dialect file ([flavours.<name>])
        changed = dict(own.get("capabilities", {}))
        unknown = set(changed) - set(_CAP_FIELDS)
        if unknown:
            raise DialectError(
                f"dialect {dialect.name!r} flavour {flavour!r}: unknown capabilities "
                f"{sorted(unknown)}"
            )
        for key, value in changed.items():
            if isinstance(value, list):
                changed[key] = tuple(value)
        caps = replace(caps, **changed)
        sources.update(own.get("sources", {}))
        form.update(own.get("form", {}))
        sources.update({f"form.{k}": v for k, v in own.get("form_sources", {}).items()})
        for canonical, surface in own.get("functions", {}).items():
            functions[canonical.lower()] = surface
            aliases[surface.lower()] = canonical.lower()
    ordering = _sqlglot_null_ordering(flavour)
    if ordering is not None:
        fixed = ordering in ("nulls_are_small", "nulls_are_large")
        caps = replace(
            caps,
            nulls_sort_high=ordering == "nulls_are_large" if fixed else caps.nulls_sort_high,
            null_order_fixed=fixed,
        )
        note = f"sqlglot's NULL_ORDERING for {flavour!r} is {ordering!r}"
        sources["nulls_sort_high"] = sources["null_order_fixed"] = note
    return replace(
        dialect,
        name=f"{dialect.name}:{flavour}",
        sql_dialect=flavour,
        capabilities=caps,
        sources=sources,
        functions=functions,
        function_aliases=aliases,
        form=form,
    )


def _sqlglot_null_ordering(flavour: str) -> str | None:
    """sqlglot's default null ordering for a dialect name; DialectError if sqlglot has no such
    dialect, None if sqlglot is not installed."""
    try:
        from sqlglot.dialects.dialect import Dialect as SqlglotDialect
    except ImportError:
        return None
    try:
        return str(SqlglotDialect.get_or_raise(flavour).NULL_ORDERING)
    except ValueError as exc:
        raise DialectError(f"unknown SQL dialect {flavour!r}: {exc}") from None


def all_dialects() -> list[Dialect]:
    return [_get(name) for name in sorted(_raw_specs())]
