"""SQL's probes, for one flavour (``sql:sqlite``, ``sql:duckdb``, ``sql:postgres`` ...).

gqlir reads and writes SQL through sqlglot, so a flavour's facts are of two kinds:

* **what sqlglot records of the flavour** (its ``Dialect`` settings, which decide how sqlglot
  reads ``/``, orders nulls, concatenates): each is checked in the flavour's own text;
* **what the SQL emitter writes**: a small Cypher query per spelling the emitter chooses
  (function renames, integer division, ``+`` on strings, null placement, SKIP/LIMIT, string
  predicates, delimited names) is translated to the flavour and must give Cypher's answer on
  the engine. A query the emitter refuses for the flavour is not a fact (the emitter never
  writes it) and is left out.

Reserved words: every word the engine refuses as a bare column name must reach it delimited;
the SQL emitter delimits every name, which the probe checks by running each such word's
translation.
"""

from __future__ import annotations

from functools import cache

from ..dialect import Dialect
from ..errors import GqlirError
from . import Answer, Failed, Probe, Suite, equals, null_or

__all__ = ["SUITE", "TRANSLATIONS"]

_ROWS = "(SELECT 2 AS x UNION ALL SELECT NULL UNION ALL SELECT 1) AS t"

#: Cypher query -> Cypher's answer (the first value of the first row), for each spelling the
#: SQL emitter writes; ``{}`` marks where sqlglot renders a function or operator for the flavour.
TRANSLATIONS: dict[str, tuple[str, object]] = {
    "function upper": ("UNWIND ['a'] AS s RETURN toUpper(s) AS v", "A"),
    "function lower": ("UNWIND ['A'] AS s RETURN toLower(s) AS v", "a"),
    "function char_length": ("UNWIND ['abc'] AS s RETURN char_length(s) AS v", 3),
    "function size of a string": ("UNWIND ['abc'] AS s RETURN size(s) AS v", 3),
    "function collect": (
        "UNWIND [2, null, 1] AS x WITH x ORDER BY x RETURN collect(x) AS v",
        [1, 2],
    ),
    "function stdev": ("UNWIND [1, 2, 3] AS x RETURN stDev(x) AS v", 1.0),
    "function stdevp": ("UNWIND [1, 2, 3] AS x RETURN stDevP(x) AS v", 0.816496580927726),
    "function percentilecont": (
        "UNWIND [1, 2, 3, 4] AS x RETURN percentileCont(x, 0.5) AS v",
        2.5,
    ),
    "function percentiledisc": (
        "UNWIND [1, 2, 3, 4] AS x RETURN percentileDisc(x, 0.5) AS v",
        2,
    ),
    "function log": ("UNWIND [1.0] AS x RETURN log(x) AS v", 0.0),
    "function log10": ("UNWIND [100.0] AS x RETURN log10(x) AS v", 2.0),
    "function abs": ("UNWIND [-2] AS x RETURN abs(x) AS v", 2),
    "function sqrt": ("UNWIND [4.0] AS x RETURN sqrt(x) AS v", 2.0),
    "function exp": ("UNWIND [0.0] AS x RETURN exp(x) AS v", 1.0),
    "function ceil": ("UNWIND [1.5] AS x RETURN ceil(x) AS v", 2.0),
    "function floor": ("UNWIND [1.5] AS x RETURN floor(x) AS v", 1.0),
    "function nullif": ("UNWIND [1] AS x RETURN nullif(x, 2) AS v", 1),
    "function toFloat": ("UNWIND [2] AS x RETURN toFloat(x) AS v", 2.0),
    "function substring": ("UNWIND ['abcd'] AS s RETURN substring(s, 1, 2) AS v", "bc"),
    "function size of a list": ("WITH [1, 2, 3] AS l RETURN size(l) AS v", 3),
    "function min": ("UNWIND [2, 1, 3] AS x RETURN min(x) AS v", 1),
    "function max": ("UNWIND [2, 1, 3] AS x RETURN max(x) AS v", 3),
    "function min of strings": ("UNWIND ['b', 'B', 'a'] AS s RETURN min(s) AS v", "B"),
    "function count DISTINCT": ("UNWIND [1, 1, 2] AS x RETURN count(DISTINCT x) AS v", 2),
    "function coalesce": (
        "UNWIND [null, 2] AS x RETURN coalesce(x, 1) AS v ORDER BY v LIMIT 1",
        1,
    ),
    "function left": ("UNWIND ['abc'] AS s RETURN left(s, 2) AS v", "ab"),
    "function right": ("UNWIND ['abc'] AS s RETURN right(s, 2) AS v", "bc"),
    "function count": ("UNWIND [1, null, 2] AS x RETURN count(x) AS v", 2),
    "function sum of no values": (
        "UNWIND [1, null] AS x WITH x WHERE x IS NULL RETURN sum(x) AS v",
        0,
    ),
    "function avg": ("UNWIND [1, 2] AS x RETURN avg(x) AS v", 1.5),
    "integer division truncates": ("UNWIND [-7] AS x RETURN x / 2 AS v", -3),
    "float division": ("UNWIND [7.0] AS x RETURN x / 2 AS v", 3.5),
    "remainder takes the dividend's sign": ("UNWIND [-7] AS x RETURN x % 2 AS v", -1),
    "+ on strings": ("UNWIND ['a'] AS s RETURN s + 'b' AS v", "ab"),
    "STARTS WITH is no LIKE": (
        "UNWIND ['abc'] AS s RETURN CASE WHEN s STARTS WITH 'a_' THEN 'y' ELSE 'n' END AS v",
        "n",
    ),
    "ENDS WITH is no LIKE": (
        "UNWIND ['abc'] AS s RETURN CASE WHEN s ENDS WITH '%c' THEN 'y' ELSE 'n' END AS v",
        "n",
    ),
    "CONTAINS is case-sensitive": (
        "UNWIND ['abc'] AS s RETURN CASE WHEN s CONTAINS 'B' THEN 'y' ELSE 'n' END AS v",
        "n",
    ),
    "CONTAINS ''": (
        "UNWIND ['abc'] AS s RETURN CASE WHEN s CONTAINS '' THEN 'y' ELSE 'n' END AS v",
        "y",
    ),
    "nulls last ascending": ("UNWIND [2, null, 1] AS x RETURN x AS v ORDER BY v LIMIT 1", 1),
    "nulls first descending": (
        "UNWIND [2, null, 1] AS x RETURN coalesce(x, 0) AS v ORDER BY x DESC LIMIT 1",
        0,
    ),
    "SKIP and LIMIT": ("UNWIND [3, 1, 2] AS x RETURN x AS v ORDER BY v SKIP 1 LIMIT 1", 2),
    "SKIP alone": ("UNWIND [3, 1, 2] AS x RETURN x AS v ORDER BY v SKIP 2", 3),
    "LIMIT 0": ("UNWIND [1] AS x RETURN x AS v LIMIT 0", None),
    "DISTINCT": ("UNWIND [1, 1, 2] AS x WITH DISTINCT x RETURN count(*) AS v", 2),
    "delimited names": ("UNWIND [1] AS `select` RETURN `select` AS `from`", 1),
}


def _sqlglot(flavour: str) -> object:
    from sqlglot.dialects.dialect import Dialect as SqlglotDialect

    return SqlglotDialect.get_or_raise(flavour)


def _source(flavour: str, setting: str) -> str:
    import sqlglot

    return f"sqlglot {sqlglot.__version__}: {flavour} Dialect.{setting}"


def _ordering(answer: Answer) -> object:
    if any(isinstance(a, Failed) for a in answer):
        return None
    return {
        (True, False): "nulls_are_small",
        (False, True): "nulls_are_large",
        (False, False): "nulls_are_last",
        (True, True): "nulls_are_first",
    }[(answer[0] is None, answer[1] is None)]


#: The default LIKE escape character: none in ISO SQL (ISO/IEC 9075-2 8.5 <like predicate>),
#: the backslash in PostgreSQL ("the default escape character is the backslash",
#: https://www.postgresql.org/docs/current/functions-matching.html); the same rule the SQL/PGQ
#: reader applies (gqlir/parser/sqlpgq.py).
LIKE_ESCAPES = {"postgres": "\\"}

#: Flavours without a boolean type: SQLite stores true and false as the integers 1 and 0
#: (https://www.sqlite.org/datatype3.html, 2.1 Boolean Datatype; docs/engines.md, quirks).
NO_BOOLEANS = frozenset({"sqlite"})


def _native(dialect: Dialect) -> list[Probe]:
    flavour = dialect.sql_dialect or ""
    d = _sqlglot(flavour)
    ordered = f"SELECT x FROM {_ROWS} ORDER BY x"
    return [
        Probe(
            "sqlglot NULL_ORDERING",
            (f"{ordered} LIMIT 1", f"{ordered} DESC LIMIT 1"),
            _ordering,
            declared=d.NULL_ORDERING,  # type: ignore[attr-defined]
            source=_source(flavour, "NULL_ORDERING"),
        ),
        Probe(
            "sqlglot TYPED_DIVISION",
            "SELECT 7 / 2 AS v",
            null_or(None, {3: True, 3.5: False}),
            declared=d.TYPED_DIVISION,  # type: ignore[attr-defined]
            source=_source(flavour, "TYPED_DIVISION"),
        ),
        Probe("string_plus_null_empty", "SELECT 'a' || NULL AS v", null_or(False, {"a": True})),
        Probe(
            "LIKE default escape",
            "SELECT CASE WHEN 'a_c' LIKE 'a\\_c' THEN 'backslash' "
            "WHEN 'a\\xc' LIKE 'a\\_c' THEN 'none' END AS v",
            null_or(None, {"backslash": "\\", "none": ""}),
            declared=LIKE_ESCAPES.get(flavour, ""),
            source="ISO/IEC 9075-2 8.5; PostgreSQL docs functions-matching.html",
        ),
        Probe(
            "boolean values",
            "SELECT TRUE AS v",
            lambda a: None if isinstance(a, Failed) else a is True,
            declared=flavour not in NO_BOOLEANS,
            source="https://www.sqlite.org/datatype3.html 2.1",
        ),
    ]


_FOUR = (
    "(SELECT 1 AS x UNION ALL SELECT 2 AS x UNION ALL SELECT 3 AS x UNION ALL SELECT 4 AS x) AS t"
)

#: canonical function -> (a standard-SQL call of its SQL name, ``{f}`` marking the name, and
#: Cypher's answer): what the SQL reader takes each name of ``[functions]`` to mean
READINGS: dict[str, tuple[str, object]] = {
    "upper": ("SELECT {f}('a')", "A"),
    "lower": ("SELECT {f}('A')", "a"),
    "char_length": ("SELECT {f}('abc')", 3),
    "collect": (f"SELECT {{f}}(x ORDER BY x) FROM {_FOUR}", [1, 2, 3, 4]),
    "stdev": (f"SELECT {{f}}(x) FROM {_FOUR}", 1.2909944487358056),
    "stdevp": (f"SELECT {{f}}(x) FROM {_FOUR}", 1.118033988749895),
    "percentilecont": (f"SELECT {{f}}(0.5) WITHIN GROUP (ORDER BY x) FROM {_FOUR}", 2.5),
    "percentiledisc": (f"SELECT {{f}}(0.5) WITHIN GROUP (ORDER BY x) FROM {_FOUR}", 2),
    "log": ("SELECT {f}(1.0)", 0.0),
}


def _readings(dialect: Dialect) -> list[Probe]:
    """Each SQL name of a canonical function (``[functions]``, and the aliases), written in
    standard SQL and rendered by sqlglot for the flavour, gives Cypher's answer there."""
    import sqlglot

    names = {surface: canonical for canonical, surface in dialect.functions.items()}
    names.update({alias.upper(): c for alias, c in dialect.function_aliases.items()})
    out = []
    for surface, canonical in sorted(names.items()):
        if canonical not in READINGS:
            continue  # tests/test_probes.py: every name of [functions] has a reading
        text, expected = READINGS[canonical]
        query = sqlglot.transpile(text.format(f=surface), write=dialect.sql_dialect)[0]
        fact = f"read: function {canonical} = {surface}"
        out.append(Probe(fact, query, equals(expected), True, "dialects/sql.toml [functions]"))
    return out


@cache
def _translation(query: str, target: str) -> str | None:
    """The SQL emitter's text for ``query``, or None when it refuses it for the flavour."""
    from ..api import transpile

    try:
        return transpile(query, "neo4j", target)
    except GqlirError:
        return None


def _translated(dialect: Dialect) -> list[Probe]:
    out = []
    source = "the SQL emitter's translation gives Cypher's answer"
    for fact, (query, expected) in TRANSLATIONS.items():
        text = _translation(query, dialect.name)
        if text is not None:
            out.append(Probe(f"written: {fact}", text, equals(expected), True, source))
    return out


def _probes(dialect: Dialect) -> tuple[Probe, ...]:
    return tuple(_native(dialect) + _readings(dialect) + _translated(dialect))


def _keywords(dialect: Dialect) -> frozenset[str]:
    """The flavour's keywords as sqlglot's tokenizer knows them."""
    tokens = _sqlglot(dialect.sql_dialect or "").tokenizer_class.KEYWORDS  # type: ignore[attr-defined]
    return frozenset(k for k in tokens if k.isidentifier())


def _escaped(word: str, dialect: Dialect) -> str | None:
    name = word.lower()
    return _translation(f"UNWIND [1] AS `{name}` RETURN `{name}` AS `{name}`", dialect.name)


def _bare(word: str) -> str:
    name = word.lower()
    return f'SELECT {name} FROM (SELECT 1 AS "{name}") AS t'


def _delimited(dialect: Dialect) -> frozenset[str]:
    """Every word the probe tries: the SQL emitter delimits every name it writes."""
    from ..dialect import all_dialects

    words = set(_keywords(dialect)).union(*(d.reserved_words for d in all_dialects()))
    return frozenset(words)


SUITE = Suite(probes=_probes, bare=_bare, escaped=_escaped, reserved=_delimited)
