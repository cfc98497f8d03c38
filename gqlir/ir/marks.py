"""Names of the calls the GQL lowerings build for forms the IR has no node of its own for.

A lowering writes such a form as a call of a marker name (never a canonical function name,
which is a lower-case word), and the GQL printer writes each with its fixed GQL spelling:
``%mod(a, b)`` is ``MOD(a, b)``, ``%power`` ``POWER``, ``%add`` a ``+`` of numbers or temporal
values, ``%eq`` an ``=`` of operands of one type, ``STARTS_WITH``/``ENDS_WITH`` GoogleSQL's
functions, ``%current_date`` / ``%current_timestamp`` GQL's niladic ``CURRENT_DATE`` /
``CURRENT_TIMESTAMP``; an aggregate named ``%sum``, ``%stdev:<name>``, ``%collect`` or
``%collect_all`` is that aggregate as SQL writes it (null on no rows; ``%collect`` drops nulls,
``%collect_all`` keeps them)."""

from __future__ import annotations

from . import expr as e

MOD = "%mod"
POWER = "%power"
#: ``+`` whose operands a type dispatch has left to be numbers or temporal values.
ADD = "%add"
#: ``=`` whose operands a type test has left to be of one type.
EQ = "%eq"
TO_JSON = "%to_json"
SUM = "%sum"
STDEV = "%stdev:"
COLLECT = "%collect"
#: The list aggregate keeping nulls (ARRAY_AGG without IGNORE NULLS).
COLLECT_ALL = "%collect_all"
#: GQL's niladic CURRENT_DATE and CURRENT_TIMESTAMP (Cypher's date() and datetime()).
CURRENT_DATE = "%current_date"
CURRENT_TIMESTAMP = "%current_timestamp"
STRING_FUNCTIONS = {e.StringOp.STARTS_WITH: "STARTS_WITH", e.StringOp.ENDS_WITH: "ENDS_WITH"}
STRING_FUNCTION_NAMES = frozenset(STRING_FUNCTIONS.values())
#: Calls written with a fixed spelling.
CALLS = frozenset({MOD, POWER, ADD, EQ, TO_JSON, CURRENT_DATE, CURRENT_TIMESTAMP})
CALLS |= STRING_FUNCTION_NAMES
