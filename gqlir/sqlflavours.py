"""What the SQL reader and writer know of each SQL flavour's semantics (sqlglot dialect names).

One place for the facts both directions rely on, so that reading SQLite and writing SQLite
cannot disagree about, say, how it stores a date.
"""

from __future__ import annotations

#: Flavours without date/time storage: temporal values are ISO 8601 text, compared as text
#: (SQLite: "Date And Time Functions", https://www.sqlite.org/lang_datefunc.html), so a
#: temporal literal is its ISO text, in the form gqlir's loaders store.
TEXT_TEMPORALS = frozenset({"sqlite"})

#: Flavours whose LIKE ignores ASCII case by default (https://www.sqlite.org/lang_expr.html#like).
LIKE_FOLDS_ASCII = frozenset({"sqlite"})

#: Flavours whose string comparisons follow a collation that ignores case by default (MySQL's
#: utf8mb4_0900_ai_ci, SQL Server's *_CI_AS): no graph comparison means the same.
COLLATED_STRINGS = frozenset({"mysql", "tsql"})

#: Of those, the flavours with a collation that compares as the graph languages do (code point
#: order, case and trailing spaces significant), written after a string operand: MySQL 8's
#: ``utf8mb4_0900_bin``, binary and NO PAD (dev.mysql.com/doc/refman/8.4/en/
#: charset-binary-collations.html; worklog WL#13054). SQL Server has none: every collation pads
#: the shorter string with spaces before comparing, so ``'abc' = 'abc '`` holds whatever the
#: collation (support.microsoft.com/kb/316626, "How SQL Server Compares Strings with Trailing
#: Spaces"), and string comparisons are refused there.
EXACT_COLLATION = {"mysql": "utf8mb4_0900_bin"}

#: Flavours whose named parameters are ``@name``: SQL Server's (sp_executesql, learn.microsoft.com
#: /sql/relational-databases/system-stored-procedures/sp-executesql-transact-sql) and MySQL's
#: user-defined variables, set with ``SET @name = value`` before the statement (MySQL has no
#: other named parameter: prepared statements take ``?``; refman/8.4/en/user-variables.html).
AT_PARAMETERS = frozenset({"tsql", "mysql"})

#: Flavours where ``x % 0`` is null rather than an error (https://www.sqlite.org/lang_expr.html:
#: "If the right operand is zero, the result is NULL").
MOD_BY_ZERO_IS_NULL = frozenset({"sqlite"})

#: Flavours whose columns hold values of any type (SQLite's type affinity: "any column ... can
#: store any type of data", https://www.sqlite.org/datatype3.html), so a UNION of a text column
#: and an integer column keeps both kinds of value; in the others (DuckDB, PostgreSQL, standard
#: SQL) a result column has one type and the integers would become text, or the query fails.
DYNAMIC_COLUMNS = frozenset({"sqlite"})

#: Flavours that read a quoted name with a dot as a path of names: BigQuery's `a.b` is a
#: table path (https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical,
#: "Quoted identifiers ... path expressions"), so a name holding a dot cannot be written.
DOTTED_QUOTED_NAMES = frozenset({"bigquery"})

#: Flavours with list values, the aggregate that builds one and ``unnest`` that reads one back
#: into rows: ISO SQL's ``ARRAY_AGG(x ORDER BY …)``, ``CARDINALITY`` and ``UNNEST`` (ISO/IEC
#: 9075-2 10.9 <array aggregate function>, 6.33 <cardinality expression>, 7.6 <collection
#: derived table>), which PostgreSQL (docs functions-aggregate.html, functions-array.html) and
#: DuckDB (docs sql/functions/list.html, sql/query_syntax/unnest.html) follow. SQLite has no
#: list type (its JSON arrays are text), MySQL and SQL Server neither.
LIST_VALUES = frozenset({"", "duckdb", "postgres"})

#: Flavours that type an untyped value (a parameter, an empty ``ARRAY[]``) from its context
#: alone, so that one given to a polymorphic function has no type: PostgreSQL's "cannot
#: determine type of empty array" and "function unnest(unknown) is not unique" (docs
#: sql-expressions.html#SQL-SYNTAX-ARRAY-CONSTRUCTORS, typeconv-func.html).
CONTEXT_TYPED = frozenset({"postgres"})
