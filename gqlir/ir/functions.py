"""The catalogue of functions the IR knows by meaning.

Canonical names are lower-case. A dialect spells them its own way (``upper`` is Neo4j's
``toUpper`` and GQL's ``UPPER``): the renames live in the dialect files, not here. A function
not listed here keeps the name it was written with (``apoc.text.join``) and is passed through.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FunctionSpec:
    name: str
    min_args: int
    max_args: int | None  # None: variadic
    aggregate: bool = False


def _spec(table: str, aggregate: bool = False) -> dict[str, FunctionSpec]:
    out = {}
    for line in table.strip().splitlines():
        name, lo, hi = line.split()
        out[name] = FunctionSpec(name, int(lo), None if hi == "*" else int(hi), aggregate)
    return out


AGGREGATES = _spec(
    """
    avg 1 1
    collect 1 1
    count 1 1
    max 1 1
    min 1 1
    percentilecont 2 2
    percentiledisc 2 2
    stdev 1 1
    stdevp 1 1
    sum 1 1
    """,
    aggregate=True,
)

SCALARS = _spec(
    """
    abs 1 1
    acos 1 1
    asin 1 1
    atan 1 1
    atan2 2 2
    btrim 1 2
    byte_length 1 1
    ceil 1 1
    ceil_typed 1 1
    char_length 1 1
    coalesce 1 *
    cos 1 1
    cosh 1 1
    cot 1 1
    date 0 1
    date.realtime 0 1
    date.statement 0 1
    date.transaction 0 1
    date.truncate 2 3
    datetime 0 1
    datetime.fromepoch 2 2
    datetime.fromepochmillis 1 1
    datetime.realtime 0 1
    datetime.statement 0 1
    datetime.transaction 0 1
    datetime.truncate 2 3
    degrees 1 1
    duration 1 1
    duration.between 2 2
    duration.indays 2 2
    duration.inmonths 2 2
    duration.inseconds 2 2
    e 0 0
    elementid 1 1
    elements 1 1
    endnode 1 1
    exp 1 1
    floor 1 1
    floor_typed 1 1
    haversin 1 1
    head 1 1
    id 1 1
    isempty 1 1
    isnan 1 1
    keys 1 1
    labels 1 1
    last 1 1
    left 2 2
    length 1 1
    localdatetime 0 1
    localdatetime.realtime 0 1
    localdatetime.statement 0 1
    localdatetime.transaction 0 1
    localdatetime.truncate 2 3
    localtime 0 1
    localtime.realtime 0 1
    localtime.statement 0 1
    localtime.transaction 0 1
    localtime.truncate 2 3
    log 1 1
    log10 1 1
    lower 1 1
    ltrim 1 2
    nodes 1 1
    normalize 1 2
    nullif 2 2
    pi 0 0
    point 1 1
    point.distance 2 2
    properties 1 1
    radians 1 1
    rand 0 0
    randomuuid 0 0
    range 2 3
    relationships 1 1
    replace 3 3
    reverse 1 1
    right 2 2
    round 1 3
    rtrim 1 2
    sign 1 1
    sin 1 1
    sinh 1 1
    size 1 1
    split 2 2
    sqrt 1 1
    startnode 1 1
    substring 2 3
    tail 1 1
    tan 1 1
    tanh 1 1
    time 0 1
    time.realtime 0 1
    time.statement 0 1
    time.transaction 0 1
    time.truncate 2 3
    timestamp 0 0
    toboolean 1 1
    tobooleanlist 1 1
    tobooleanornull 1 1
    tofloat 1 1
    tofloatlist 1 1
    tofloatornull 1 1
    tointeger 1 1
    tointegerlist 1 1
    tointegerornull 1 1
    tostring 1 1
    tostringlist 1 1
    tostringornull 1 1
    trim 1 1
    type 1 1
    upper 1 1
    valuetype 1 1
    """
)

# GoogleSQL functions the IR knows only as themselves: the meaning of ``googlesql.strpos`` is
# GoogleSQL's STRPOS. The Spanner dialect file spells them; no other dialect has them, so a
# translation elsewhere refuses them by name (gqlir.passes.gql_family, the GQL emitter).
GOOGLESQL = _spec(
    """
    googlesql.array_concat 1 *
    googlesql.array_first 1 1
    googlesql.array_includes 2 2
    googlesql.array_includes_all 2 2
    googlesql.array_includes_any 2 2
    googlesql.array_last 1 1
    googlesql.array_max 1 1
    googlesql.array_min 1 1
    googlesql.array_reverse 1 1
    googlesql.array_slice 3 3
    googlesql.array_to_string 2 3
    googlesql.code_points_to_string 1 1
    googlesql.concat 1 *
    googlesql.current_date 0 1
    googlesql.current_timestamp 0 0
    googlesql.date_add 2 2
    googlesql.date_diff 3 3
    googlesql.date_trunc 2 2
    googlesql.destination_node_id 1 1
    googlesql.div 2 2
    googlesql.extract 2 2
    googlesql.format 1 *
    googlesql.from_hex 1 1
    googlesql.greatest 1 *
    googlesql.ieee_divide 2 2
    googlesql.initcap 1 2
    googlesql.instr 2 4
    googlesql.interval 2 2
    googlesql.is_acyclic 1 1
    googlesql.is_trail 1 1
    googlesql.json_extract 1 2
    googlesql.json_extract_scalar 1 2
    googlesql.json_query 1 2
    googlesql.json_type 1 1
    googlesql.json_value 1 2
    googlesql.least 1 *
    googlesql.log 2 2
    googlesql.ltrim 1 2
    googlesql.lpad 2 3
    googlesql.parse_json 1 2
    googlesql.path 1 *
    googlesql.path_first 1 1
    googlesql.path_last 1 1
    googlesql.property_names 1 1
    googlesql.regexp_contains 2 2
    googlesql.regexp_extract 2 4
    googlesql.regexp_replace 3 3
    googlesql.repeat 2 2
    googlesql.round 1 2
    googlesql.rpad 2 3
    googlesql.rtrim 1 2
    googlesql.safe_add 2 2
    googlesql.safe_divide 2 2
    googlesql.safe_multiply 2 2
    googlesql.safe_negate 1 1
    googlesql.safe_subtract 2 2
    googlesql.safe_to_json 1 1
    googlesql.source_node_id 1 1
    googlesql.strpos 2 2
    googlesql.struct 1 *
    googlesql.substr 2 3
    googlesql.timestamp_add 2 2
    googlesql.timestamp_sub 2 2
    googlesql.to_code_points 1 1
    googlesql.to_hex 1 1
    googlesql.to_json 1 2
    googlesql.to_json_string 1 2
    googlesql.trim 1 2
    googlesql.trunc 1 2
    """
)

#: The parts ``EXTRACT(part FROM d)`` reads from a DATE, and those ``DATE_ADD(d, INTERVAL n part)``
#: adds (https://cloud.google.com/spanner/docs/reference/standard-sql/date_functions, EXTRACT
#: and DATE_ADD): ``googlesql.extract(part, d)`` and ``googlesql.interval(n, part)``.
DATE_PARTS = frozenset(
    {"YEAR", "ISOYEAR", "QUARTER", "MONTH", "WEEK", "ISOWEEK", "DAY", "DAYOFYEAR", "DAYOFWEEK"}
)
INTERVAL_PARTS = frozenset({"YEAR", "QUARTER", "MONTH", "WEEK", "DAY"})
#: The parts ``TIMESTAMP_ADD(t, INTERVAL n part)`` adds (timestamp_functions, TIMESTAMP_ADD).
TIMESTAMP_PARTS = frozenset(
    {"NANOSECOND", "MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY"}
)
#: The parts ``DATE_TRUNC(d, part)`` and ``DATE_DIFF(a, b, part)`` take (date_functions).
BOUNDARY_PARTS = DATE_PARTS - {"DAYOFYEAR", "DAYOFWEEK"}

# TuGraph GQL functions the IR knows only as themselves: the meaning of ``tugraph.date_format``
# is TuGraph's DATE_FORMAT (GEAX tests isogql/0001_expression.test; label() in the manual's
# MATCH and RETURN pages). The tugraph-gql dialect file spells them; a translation elsewhere
# refuses them by name. ``tugraph.@id`` and its kin are the system properties x.@id, x.@src_id …
TUGRAPH = _spec(
    """
    tugraph.@center_id 1 1
    tugraph.@dst_id 1 1
    tugraph.@id 1 1
    tugraph.@node_type 1 1
    tugraph.@other_id 1 1
    tugraph.@src_id 1 1
    tugraph.@timestamp 1 1
    tugraph.bit_and 2 2
    tugraph.bit_not 1 1
    tugraph.bit_or 2 2
    tugraph.bit_xor 2 2
    tugraph.shift_left 2 2
    tugraph.shift_right 2 2
    tugraph.concat 1 *
    tugraph.concat_ws 2 *
    tugraph.date_format 2 2
    tugraph.findstr 2 3
    tugraph.from_unixtime 1 2
    tugraph.instr 2 3
    tugraph.isblank 1 1
    tugraph.isnotblank 1 1
    tugraph.label 1 1
    tugraph.round 1 1
    tugraph.substr 2 3
    tugraph.substring 2 3
    tugraph.to_date 1 1
    tugraph.tobool 1 1
    tugraph.todate 1 1
    tugraph.todatetime 1 1
    tugraph.todouble 1 1
    tugraph.tointeger 1 1
    tugraph.tostring 1 1
    """
)

# FalkorDB functions whose meaning differs from Cypher's of the same name: ``falkordb.round`` is
# FalkorDB's round(), which keeps an integer an integer and rounds a float half away from zero
# (dialects/falkordb.toml). The falkordb dialect file spells it; elsewhere it is written with
# Cypher's functions or refused (gqlir.passes.typed_rounding).
FALKORDB = _spec(
    """
    falkordb.round 1 1
    """
)

FUNCTIONS: dict[str, FunctionSpec] = {
    **SCALARS,
    **AGGREGATES,
    **GOOGLESQL,
    **TUGRAPH,
    **FALKORDB,
}

#: The characters Cypher's ``trim()`` family and ``toBoolean()`` strip by default: Java's
#: ``Character.isWhitespace`` (Neo4j trims with it), i.e. the Unicode space, line and paragraph
#: separators except the no-break spaces, plus the ASCII controls TAB to CR and FS to US.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)


def lookup(canonical: str) -> FunctionSpec | None:
    return FUNCTIONS.get(canonical)


def is_aggregate(canonical: str) -> bool:
    spec = FUNCTIONS.get(canonical)
    return spec is not None and spec.aggregate
