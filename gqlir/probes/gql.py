"""ISO GQL's probes: the value facts of the Cypher suite written in GQL, the family rules the
GQL reader and writer rely on, and every pattern form, operator and function the dialect
declares, each checked for the answer the standard gives on one small graph.

The graph (:data:`SETUP`): ``a`` and ``b`` labelled ``GqlirP``, ``c`` labelled ``GqlirQ``, and
three ``GQLIR_R`` edges a->b, b->a, b->c; every node has a ``gqlir_k`` property, by which the
teardown deletes exactly these nodes. Each form's expected count is derived by hand below and
agrees with gqlir's reference evaluator (tests/test_probes_gql.py). Counts under ``DIFFERENT
EDGES`` and ``REPEATABLE ELEMENTS`` are written with the mode, so that an engine's implicit
match mode (implementation-defined, ISO/IEC 39075 16.4) does not decide them; the implicit
mode is its own fact (``default_match_mode``).
"""

from __future__ import annotations

from ..dialect import Dialect
from . import Answer, Failed, Probe, Suite, equals, null_or

__all__ = ["FUNCTIONS", "NON_RESERVED", "SETUP", "SUITE", "TEARDOWN"]

SETUP = (
    "INSERT (a:GqlirP {gqlir_k: 1})-[:GQLIR_R]->(b:GqlirP {gqlir_k: 2}), "
    "(b)-[:GQLIR_R]->(a), (b)-[:GQLIR_R]->(c:GqlirQ {gqlir_k: 3})",
)
TEARDOWN = ("MATCH (n WHERE n.gqlir_k IS NOT NULL) DETACH DELETE n",)

E = "-[e:GQLIR_R]->"
E1 = "-[e1:GQLIR_R]->"
E2 = "-[e2:GQLIR_R]->"
COUNT = " RETURN COUNT(*) AS v"

#: Non-reserved words of GQL (opengql/grammar GQL.g4 21.3, "Nonreserved words"): regular
#: identifiers, so the dialect writes them bare as variables; an engine that refuses one bare
#: departs from the standard.
NON_RESERVED = (
    "ACYCLIC", "BINDING", "BINDINGS", "CONNECTING", "DESTINATION", "DIFFERENT", "DIRECTED",
    "EDGE", "EDGES", "ELEMENT", "ELEMENTS", "FIRST", "GRAPH", "GROUPS", "KEEP", "LABEL",
    "LABELED", "LABELS", "LAST", "NFC", "NFD", "NFKC", "NFKD", "NO", "NODE", "NORMALIZED",
    "ONLY", "ORDINALITY", "PROPERTY", "READ", "RELATIONSHIP", "RELATIONSHIPS", "REPEATABLE",
    "SHORTEST", "SIMPLE", "SOURCE", "TABLE", "TEMP", "TO", "TRAIL", "TRANSACTION", "TYPE",
    "UNDIRECTED", "VERTEX", "WALK", "WITHOUT", "WRITE", "ZONE",
)  # fmt: skip

# Walks of 1 to 3 GQLIR_R edges, 9 in all: 3 of length 1 (ab, ba, bc), 3 of length 2 (aba,
# bab, abc), 3 of length 3 (abab, baba, babc). TRAIL drops abab and baba (an edge twice): 7.
# SIMPLE also drops babc (b twice, not as both ends): 6. ACYCLIC keeps no repeated node: ab,
# ba, bc, abc: 4. Under DIFFERENT EDGES every walk is a trail: 7.
PATH_MODES = {"WALK": 9, "TRAIL": 7, "SIMPLE": 6, "ACYCLIC": 4}

# Search prefixes over the 7 trails of 1 to 3 edges (DIFFERENT EDGES), grouped by endpoints:
# a->b {ab}, a->a {aba}, a->c {abc}, b->a {ba}, b->b {bab}, b->c {bc, babc}: 6 partitions.
# One path per partition: 6; all of the shortest length: 6 (babc is longer than bc); two per
# partition, or the two shortest lengths: 7; ALL keeps the 7.
SEARCH_PREFIXES = {
    "ALL": ("ALL", 7),
    "ANY": ("ANY", 6),
    "ANY k": ("ANY 2", 7),
    "ANY SHORTEST": ("ANY SHORTEST", 6),
    "ALL SHORTEST": ("ALL SHORTEST", 6),
    "SHORTEST k": ("SHORTEST 2", 7),
    "SHORTEST k GROUPS": ("SHORTEST 2 GROUPS", 7),
}

# Quantifiers under DIFFERENT EDGES: {2} 3 (aba, bab, abc); {,2} counts from 0 (GQL.g4
# generalQuantifier: lowerBound? , upperBound?; an omitted lower bound is 0): 3 empty paths + 3
# + 3 = 9; {1,} and + are the 7 trails (no trail is longer than 3 here); * adds the 3 empty
# paths: 10; a parenthesised path quantified {1,2}: 3 + 3 = 6.
QUANTIFIERS = {
    "{n}": (f"(a){E}{{2}}(b)", 3),
    "{m,n}": (f"(a){E}{{1,3}}(b)", 7),
    "{,n}": (f"(a){E}{{,2}}(b)", 9),
    "{m,}": (f"(a){E}{{1,}}(b)", 7),
    "*": (f"(a){E}*(b)", 10),
    "+": (f"(a){E}+(b)", 7),
}

#: canonical function -> (a GQL expression calling it, where ``{f}`` is the dialect's name for
#: it, and the standard's answer; a type: any non-null value of that type); a query ending in
#: an expression is a RETURN of it, one starting with FOR or MATCH is run as written.
FUNCTIONS: dict[str, tuple[str, object]] = {
    "upper": ("{f}('a')", "A"),
    "lower": ("{f}('A')", "a"),
    "char_length": ("{f}('abc')", 3),
    "size": ("{f}([1, 2])", 2),
    "length": (f"MATCH p = (a WHERE a.gqlir_k = 1){E}(b) RETURN {{f}}(p) AS v", 1),
    "elementid": ("MATCH (a WHERE a.gqlir_k = 1) RETURN {f}(a) IS NOT NULL AS v", True),
    "coalesce": ("{f}(NULL, 1)", 1),
    "nullif": ("{f}(1, 2)", 1),
    "left": ("{f}('abc', 2)", "ab"),
    "right": ("{f}('abc', 2)", "bc"),
    "normalize": ("{f}('abc')", "abc"),
    "btrim": ("{f}('xabcx', 'x')", "abc"),
    "ltrim": ("{f}('xabc', 'x')", "abc"),
    "rtrim": ("{f}('abcx', 'x')", "abc"),
    "abs": ("{f}(-1)", 1),
    "acos": ("{f}(1)", 0.0),
    "asin": ("{f}(0)", 0.0),
    "atan": ("{f}(0)", 0.0),
    "cos": ("{f}(0)", 1.0),
    "cot": ("{f}(1)", 0.6420926159343306),
    "sin": ("{f}(0)", 0.0),
    "tan": ("{f}(0)", 0.0),
    "sinh": ("{f}(0)", 0.0),
    "cosh": ("{f}(0)", 1.0),
    "tanh": ("{f}(0)", 0.0),
    "byte_length": ("{f}('abc')", 3),
    "elements": (f"MATCH p = (a WHERE a.gqlir_k = 1){E}(b) RETURN CARDINALITY({{f}}(p)) AS v", 3),
    "degrees": ("{f}(0)", 0.0),
    "radians": ("{f}(0)", 0.0),
    "ceil": ("{f}(1.5E0)", 2.0),
    "floor": ("{f}(1.5E0)", 1.0),
    "exp": ("{f}(0)", 1.0),
    "sqrt": ("{f}(4)", 2.0),
    "log": ("{f}(1)", 0.0),
    "log10": ("{f}(100)", 2.0),
    "date": ("{f}('2024-01-02')", object),
    "datetime": ("{f}('2024-01-02T10:00:00+01:00')", object),
    "localdatetime": ("{f}('2024-01-02T10:00:00')", object),
    "time": ("{f}('10:00:00+01:00')", object),
    "localtime": ("{f}('10:00:00')", object),
    "duration": ("{f}('P1D')", object),
    "duration.between": ("{f}(DATE '2024-01-01', DATE '2024-01-03')", object),
    "count": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 3),
    "sum": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 6),
    "avg": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 2.0),
    "min": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 1),
    "max": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 3),
    "collect": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", [1, 2, 3]),
    "stdev": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 1.0),
    "stdevp": ("FOR x IN [1, 2, 3] RETURN {f}(x) AS v", 0.816496580927726),
    "percentilecont": ("FOR x IN [1, 2, 3] RETURN {f}(x, 0.5) AS v", 2.0),
    "percentiledisc": ("FOR x IN [1, 2, 3] RETURN {f}(x, 0.5) AS v", object),
}


def _query(text: str) -> str:
    return text if text.startswith(("FOR ", "MATCH ")) else f"RETURN {text} AS v"


def _form(fact: str, query: str, expected: object, source: str) -> Probe:
    return Probe(fact, query, equals(expected), declared=True, source=source)


def _nulls(answer: Answer) -> object:
    if any(isinstance(a, Failed) for a in answer):
        return False
    return answer == (None, 2)


def _probes(dialect: Dialect) -> tuple[Probe, ...]:
    caps = dialect.capabilities
    out = [
        Probe(
            "integer_division", "RETURN -7 / 2 AS v", null_or(None, {-3: "truncate", -3.5: "float"})
        ),
        Probe(
            "simple_case_null_matches",
            "RETURN CASE 1 WHEN NULL THEN 1 ELSE 2 END AS v",
            null_or(None, {1: True, 2: False}),
        ),
        Probe(
            "list_equality_null_unknown",
            "RETURN [1, NULL] = [1, NULL] AS v",
            null_or(True, {True: False}),
        ),
        Probe(
            "collect_keeps_nulls",
            "FOR x IN [1, NULL] RETURN COLLECT_LIST(x) AS v",
            null_or(None, {(1, None): True, (1,): False}),
        ),
        Probe(
            "collect_empty_null",
            "FOR x IN [NULL] RETURN COLLECT_LIST(x) AS v",
            null_or(True, {(): False}),
        ),
        Probe(
            "string_plus_null_empty",
            "RETURN 'a' || NULL AS v",
            null_or(False, {"a": True}),
        ),
        Probe("null_length_is_null", "RETURN LEFT('abc', NULL) AS v", null_or(True, {})),
        Probe(
            "sum of no values is null",
            "FOR x IN [NULL] RETURN SUM(x) AS v",
            null_or(True, {0: False}),
            declared=True,
            source="GQL's aggregates follow SQL's: SUM of no values is null (gqlir/parser/gql.py "
            "_aggregate; the GQL emitter writes Cypher's sum() as COALESCE(SUM(x), 0))",
        ),
        Probe(
            "default_match_mode",
            f"MATCH (a){E1}(b), (c){E2}(d){COUNT}",
            null_or(None, {6: "DIFFERENT_EDGES", 9: "REPEATABLE_ELEMENTS"}),
        ),
    ]
    grammar = "opengql/grammar GQL.g4"
    pair = f"(a){E1}(b), (c){E2}(d)"
    if caps.match_modes:
        # 3 x 3 pairs of edges; 6 with two different edges
        for mode, count in (("REPEATABLE ELEMENTS", 9), ("DIFFERENT EDGES", 6)):
            out.append(_form(f"match mode {mode}", f"MATCH {mode} {pair}{COUNT}", count, grammar))
    repeatable = "REPEATABLE ELEMENTS " if caps.match_modes else ""
    different = "DIFFERENT EDGES " if caps.match_modes else ""
    for mode in caps.path_modes:
        if mode in PATH_MODES:
            query = f"MATCH {repeatable}{mode} (a){E}{{1,3}}(b){COUNT}"
            out.append(_form(f"path mode {mode}", query, PATH_MODES[mode], grammar))
    prefixes = list(caps.search_prefixes)
    if "ANY" in prefixes:
        prefixes.append("ANY k")  # the ANY entry carries the optional k (ir.SearchKind.ANY)
    for prefix in prefixes:
        if prefix in SEARCH_PREFIXES:
            text, count = SEARCH_PREFIXES[prefix]
            query = f"MATCH {different}{text} (a){E}{{1,3}}(b){COUNT}"
            out.append(_form(f"search prefix {prefix}", query, count, grammar))
    if caps.search_with_mode and caps.shortest_prefix and caps.path_modes:
        query = f"MATCH {different}ANY SHORTEST TRAIL (a){E}{{1,3}}(b){COUNT}"
        out.append(_form("search prefix with a path mode", query, 6, grammar))
    if caps.quantified_edge_syntax == "braces":
        for form, (pattern, count) in QUANTIFIERS.items():
            if form in ("{m,}", "*", "+") and not caps.unbounded_quantifiers:
                continue
            query = f"MATCH {different}{pattern}{COUNT}"
            out.append(_form(f"quantifier {form}", query, count, grammar))
    if caps.quantified_paths:
        query = f"MATCH {different}((a){E}(b)){{1,2}}{COUNT}"
        out.append(_form("quantified path pattern", query, 6, grammar))
    if caps.label_expressions == "full":
        ours = " WHERE a.gqlir_k IS NOT NULL"
        for form, expr, count in (
            ("&", "GqlirP&!GqlirQ", 2),
            ("|", "GqlirP|GqlirQ", 3),
            ("!", "!GqlirP", 1),
            ("%", "%", 3),
        ):
            query = f"MATCH (a IS {expr}{ours}){COUNT}"
            out.append(_form(f"label expression {form}", query, count, grammar))
    out.append(_form("edge -[e]- (any direction)", f"MATCH (a)-[e:GQLIR_R]-(b){COUNT}", 6, grammar))
    if caps.undirected_edges:
        # ~[e]~ matches undirected edges only (GQL.g4 fullEdgeUndirected); these are directed
        out += [
            _form("edge ~[e]~ (undirected)", f"MATCH (a)~[e:GQLIR_R]~(b){COUNT}", 0, grammar),
            _form(
                "edge <-[e]-> (left or right)", f"MATCH (a)<-[e:GQLIR_R]->(b){COUNT}", 6, grammar
            ),
        ]
    if caps.path_union:
        for op in ("|", "|+|"):
            query = f"MATCH (a){E}(b) {op} (a)<-[e:GQLIR_R]-(b){COUNT}"
            out.append(_form(f"path pattern union {op}", query, 6, grammar))
    predicates = {
        "IS DIRECTED": "e IS DIRECTED",
        "IS SOURCE OF": "a IS SOURCE OF e AND b IS DESTINATION OF e",
        "SAME": "SAME(a, a)",
        "ALL_DIFFERENT": "ALL_DIFFERENT(a, b)",
        "PROPERTY_EXISTS": "PROPERTY_EXISTS(a, gqlir_k)",
    }
    for name in caps.element_predicates:
        if name in predicates:
            query = f"MATCH (a){E}(b) WHERE {predicates[name]}{COUNT}"
            out.append(_form(f"element predicate {name}", query, 3, grammar))
    if caps.concat_operator:
        out += [
            _form("|| on strings", "RETURN 'a' || 'b' AS v", "ab", grammar),
            _form("|| on lists", "RETURN [1] || [2] AS v", [1, 2], grammar),
        ]
    if caps.null_ordering_syntax:
        rows = "FOR x IN [2, NULL, 1] RETURN x AS v ORDER BY v"
        queries = (f"{rows} NULLS FIRST LIMIT 1", f"{rows} DESC NULLS LAST LIMIT 1")
        out.append(Probe("NULLS FIRST / NULLS LAST", queries, _nulls, True, grammar))
    if caps.cast:
        out.append(_form("CAST", "RETURN CAST(1 AS STRING) AS v", "1", grammar))
    if caps.temporal_literals == "typed":
        out.append(
            _form("typed temporal literal", "RETURN DATE '2024-01-02' AS v", object, grammar)
        )
    for form, first in (("ORDINALITY", 1), ("OFFSET", 0)):
        if form in caps.for_index:
            query = f"FOR x IN [5, 6] WITH {form} i RETURN i AS v ORDER BY v LIMIT 1"
            out.append(_form(f"FOR ... WITH {form}", query, first, grammar))
    if caps.except_intersect:
        out += [
            _form(
                "EXCEPT",
                "FOR x IN [1, 2] RETURN x AS v EXCEPT FOR x IN [1] RETURN x AS v",
                2,
                grammar,
            ),
            _form(
                "INTERSECT",
                "FOR x IN [1, 2] RETURN x AS v INTERSECT FOR x IN [2, 3] RETURN x AS v",
                2,
                grammar,
            ),
        ]
    if caps.otherwise:
        query = "MATCH (a:GqlirNone) RETURN 1 AS v OTHERWISE RETURN 2 AS v"
        out.append(_form("OTHERWISE", query, 2, grammar))
    if caps.value_subquery:
        query = "RETURN VALUE { MATCH (a:GqlirP) RETURN COUNT(*) AS c } AS v"
        out.append(_form("VALUE { }", query, 2, grammar))
    if caps.is_labeled:
        query = f"MATCH (a) WHERE a IS LABELED GqlirP{COUNT}"
        out.append(_form("IS LABELED", query, 2, grammar))
    if caps.xor_operator:
        out.append(_form("XOR", "RETURN TRUE XOR FALSE AS v", True, grammar))
    if caps.group_by == "variables":
        query = "FOR x IN [1, 1, 2] RETURN COUNT(*) AS v, x GROUP BY x ORDER BY x"
        out.append(_form("GROUP BY", query, 2, grammar))
    for canonical, surface in sorted(dialect.functions.items()):
        sample = FUNCTIONS.get(canonical)
        if sample is None or canonical in caps.unsupported_functions:
            continue  # never written (tests/test_probes_gql.py: every other one has a sample)
        text, expected = sample
        query = _query(text.format(f=surface))
        out.append(_form(f"function {canonical} = {surface}", query, expected, "[functions]"))
    return tuple(out)


def _escaped(word: str, dialect: Dialect) -> str | None:
    if not dialect.capabilities.quoted_variables:
        return None  # a GQL variable is a regular identifier: no escaped form to try
    quote = dialect.capabilities.identifier_quote
    return f"LET {quote}{word}{quote} = 1 RETURN {quote}{word}{quote} AS v"


def _keywords() -> tuple[str, ...]:
    from .cypher import KEYWORDS

    return tuple(sorted(set(KEYWORDS) | set(NON_RESERVED)))


SUITE = Suite(
    probes=_probes,
    bare=lambda word: f"LET {word} = 1 RETURN {word} AS v",
    escaped=_escaped,
    keywords=_keywords(),
    setup=SETUP,
    teardown=TEARDOWN,
)
