"""Where grafeo departs from the dialects it runs, as its probes show them (gqlir.probes).

The dialect files describe the languages (ISO GQL as the standard defines it, Cypher as Neo4j
runs it); grafeo is one implementation of each, so what it does otherwise is recorded here,
against grafeo, and not in the dialect files. ``gqlir dialects NAME --probe --engine grafeo``
reports each as "engine differs"; one that disappears in a new grafeo is reported as a
contradiction, so that this table is brought up to date. Each entry holds grafeo's value of
the fact and what shows it (the probe's answer on grafeo 0.6, tests/test_probes.py).
"""

from __future__ import annotations

from ..probes import Difference

__all__ = ["DIFFERENCES"]

_CYPHER = {
    "list_equality_null_unknown": Difference(
        False, "RETURN [1, null] = [1, null] is true on grafeo (Cypher: null)"
    ),
    "sum_empty_null": Difference(
        True,
        "sum() of no values is null on grafeo (Cypher: 0; docs/engines.md "
        "[grafeo-sum-of-no-values])",
    ),
}


def _refused(word: str) -> Difference:
    return Difference(
        True,
        f"LET {word} = 1 fails on grafeo ('Expected variable name in LET clause'); "
        f"{word} is not a reserved word of GQL (opengql/grammar GQL.g4 21.3), so gqlir "
        "writes it bare",
    )


def _missing(function: str, detail: str = "Unknown function") -> Difference:
    return Difference(False, f"{function}: GRAFEO-Q002 {detail} on grafeo (a GQL.g4 built-in)")


_GQL = {
    "list_equality_null_unknown": Difference(
        False, "RETURN [1, NULL] = [1, NULL] is true on grafeo (the reference evaluator: null)"
    ),
    "default_match_mode": Difference(
        "REPEATABLE_ELEMENTS",
        "a MATCH without a mode lets one edge bind two edge patterns (9 rows where DIFFERENT "
        "EDGES gives 6); gqlir's GQL writes the mode (iso-gql.toml match_mode_implicit)",
    ),
    "quantifier {,n}": Difference(
        False,
        "-[e]->{,2} counts from 1 on grafeo (6 rows; {0,2} gives the 9 of a lower bound 0)",
    ),
    "edge ~[e]~ (undirected)": Difference(
        False, "~[e]~ matches directed edges in either direction on grafeo (6 rows, not 0)"
    ),
    "edge <-[e]-> (left or right)": Difference(
        False, "<-[e]-> is a syntax error on grafeo (GRAFEO-Q001 Expected LParen)"
    ),
    "element predicate PROPERTY_EXISTS": Difference(
        False, "PROPERTY_EXISTS(a, k) reads k as a variable on grafeo (Undefined variable)"
    ),
    "|| on lists": Difference(False, "[1] || [2] is null on grafeo (GQL: [1, 2])"),
    "function btrim = BTRIM": _missing("BTRIM"),
    "function cosh = COSH": _missing("COSH"),
    "function cot = COT": _missing("COT"),
    "function sinh = SINH": _missing("SINH"),
    "function tanh = TANH": _missing("TANH"),
    "function elements = ELEMENTS": _missing("ELEMENTS"),
    "function ltrim = LTRIM": _missing("LTRIM", "'takes 1 argument, got 2'"),
    "function rtrim = RTRIM": _missing("RTRIM", "'takes 1 argument, got 2'"),
    **{
        f"reserved word {word}": _refused(word)
        for word in ("ACYCLIC", "GROUPS", "ORDINALITY", "SHORTEST", "SIMPLE", "TRAIL", "WALK")
    },
    # Cypher keywords grafeo's GQL parser shares with its Cypher one
    **{
        f"reserved word {word}": _refused(word)
        for word in ("CONTAINS", "ENDS", "MERGE", "STARTS", "UNWIND")
    },
    "reserved word TYPE": Difference(
        True,
        "LET type = 1 RETURN type fails on grafeo (GRAFEO-Q002 Undefined variable 'type'); "
        "TYPE is a non-reserved word of GQL (GQL.g4 21.3)",
    ),
}

#: dialect name -> fact -> grafeo's value
DIFFERENCES: dict[str, dict[str, Difference]] = {
    "iso-gql": _GQL,
    "neo4j": _CYPHER,
    "opencypher9": _CYPHER,
}
