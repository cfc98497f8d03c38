"""The benchmarks' own answer comparisons, reproduced value for value (the compat presets).

gqlir's typed comparison (:mod:`.values`) says what an answer means; a compat preset must
instead give the number the benchmark's script prints. Both scripts read results through the
Neo4j Python driver's ``Result.data()`` and then compare Python objects, so this module turns
gqlir's values into what ``.data()`` hands them (:func:`driver_data`) and applies each
script's rules to those objects with Python's own ``==`` and ``hash``:

* ``text2gql-driver``: Text2GraphQuery-Driver ``impl/evaluation/metrics.py``
  (``ExecutionAccuracy._normalize`` and ``_compare_results``);
* ``text2gql-driver-spanner``: the same Driver code on Spanner's rows (the Spanner client's
  values, a graph element only as its JSON), not ``.data()``'s;
* ``text2gql-contrib-spanner``: the Driver's ``contrib/standalone_text2graph_scripts/
  reference/ea_gql.py`` (Spanner's own Python values: a graph element only as its JSON);
* ``text2gql-contrib-tugraph``: ``reference/ea_cypher.py`` (TuGraph through Bolt and
  ``.data()``), also the comparison of the Driver before its multiset rule
  (TuGraph-family ``impl/evaluation/metrics.py`` at e5fc112a);
* ``cypherbench``: CypherBench ``cypherbench/metrics/execution_accuracy.py``
  (``to_hashable``, ``result_eq``), including where it fails: a value it cannot make hashable
  scores a prediction 0 and stops the benchmark's run when it is the gold's
  (:class:`PeerCrash`).
"""

from __future__ import annotations

import decimal
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..engines.base import EdgeValue, NodeValue, PathValue
from ..eval import temporal as tm

__all__ = [
    "PEERS",
    "PeerCrash",
    "contrib_spanner_equal",
    "contrib_tugraph_equal",
    "cypherbench_equal",
    "driver_data",
    "text2gql_equal",
]

PEERS = (
    "text2gql-driver",
    "text2gql-driver-spanner",
    "text2gql-contrib-spanner",
    "text2gql-contrib-tugraph",
    "cypherbench",
)


class PeerCrash(Exception):
    """The benchmark's own run would stop with an exception on this item."""


# -- the Neo4j driver's Result.data() ---------------------------------------------------------------


def _nodes(value: Any) -> Iterator[NodeValue]:
    if isinstance(value, NodeValue):
        yield value
    elif isinstance(value, PathValue):
        yield from value.nodes
    elif isinstance(value, Mapping):
        for x in value.values():
            yield from _nodes(x)
    elif isinstance(value, (list, tuple)):
        for x in value:
            yield from _nodes(x)


def node_properties(rows: Sequence[Sequence[Any]]) -> dict[str, Mapping[str, Any]]:
    """Properties of every node anywhere in a result, by element id: the driver hydrates all
    records into one graph before ``.data()`` runs, so a relationship's end node carries
    properties exactly when the same result returns that node somewhere."""
    return {n.id: n.properties for row in rows for v in row for n in _nodes(v)}


def driver_data(value: Any, nodes: Mapping[str, Mapping[str, Any]]) -> Any:
    """``value`` as ``Record.data()`` gives it: a node is its property map; a relationship is
    ``(start node map, TYPE, end node map)`` (its own properties are dropped); a path is
    ``[node map, TYPE, node map, …]``; lists stay lists, maps dicts; every NaN a separate
    float object, as each is decoded separately from the wire."""

    def props(node_id: str) -> dict[str, Any]:
        return {k: driver_data(v, nodes) for k, v in nodes.get(node_id, {}).items()}

    if isinstance(value, NodeValue):
        return {k: driver_data(v, nodes) for k, v in value.properties.items()}
    if isinstance(value, EdgeValue):
        return (props(value.source), value.type, props(value.target))
    if isinstance(value, PathValue):
        out = [driver_data(value.nodes[0], nodes)]
        for edge, node in zip(value.edges, value.nodes[1:]):
            out += [edge.type, driver_data(node, nodes)]
        return out
    if isinstance(value, Mapping):
        return {str(k): driver_data(v, nodes) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [driver_data(v, nodes) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return float("nan")
    return value


def _data_rows(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    nodes = node_properties(rows)
    return [[driver_data(v, nodes) for v in row] for row in rows]


# -- Text2GraphQuery-Driver -------------------------------------------------------------------------


def text2gql_normalize(value: Any) -> Any:
    """The Driver's normalisation of one ``.data()`` value: bytes as hex, a Decimal as a float
    (not rounded), NaN as the text ``"NaN"``, other floats rounded to 9 places, lists as
    tuples, maps as sorted ``(key, value)`` tuples, anything else (temporal values) as
    ``str``."""
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else round(value, 9)
    if isinstance(value, (int, str, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(text2gql_normalize(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, text2gql_normalize(v)) for k, v in value.items()))
    return str(value)


def text2gql_equal(
    gold: Sequence[Sequence[Any]],
    pred: Sequence[Sequence[Any]],
    as_lists: bool,
    spanner: bool = False,
) -> bool:
    """The Driver's verdict: normalised rows compared as lists when the prediction's text has
    ``order by``, else as multisets (``Counter``). The rows are ``.data()``'s (TuGraph through
    Bolt) or, with ``spanner``, the Spanner client's values (:func:`spanner_json`)."""
    if spanner:
        g = [tuple(text2gql_normalize(spanner_json(v)) for v in row) for row in gold]
        p = [tuple(text2gql_normalize(spanner_json(v)) for v in row) for row in pred]
        return g == p if as_lists else Counter(g) == Counter(p)
    g = [tuple(text2gql_normalize(v) for v in row) for row in _data_rows(gold)]
    p = [tuple(text2gql_normalize(v) for v in row) for row in _data_rows(pred)]
    return g == p if as_lists else Counter(g) == Counter(p)


# -- the contrib scripts -----------------------------------------------------------------------------


def _path_shaped(value: Any) -> bool:
    """A list node, edge, node, … (at least one edge): ``SAFE_TO_JSON(p)`` as gqlir's Spanner
    engine decodes it (a JSON array; an ``ARRAY<JSON>`` of elements is never this shape
    unless it mixes nodes and edges in that order)."""
    return (
        isinstance(value, list)
        and len(value) >= 3
        and len(value) % 2 == 1
        and all(isinstance(v, NodeValue if i % 2 == 0 else EdgeValue) for i, v in enumerate(value))
    )


def spanner_json(value: Any) -> Any:
    """A value as the Spanner client hands it to ``ea_gql.py``: a graph element only as its
    ``TO_JSON`` object (``identifier``, ``kind``, ``labels``, ``properties``; an edge also
    ``source_node_identifier`` and ``destination_node_identifier``), which the client decodes
    into a ``JsonObject`` (a ``dict``); a path is a JSON array, which the client keeps outside
    the dict (the dict is empty); an array of values is a list."""
    if isinstance(value, NodeValue):
        return {
            "identifier": value.id,
            "kind": "node",
            "labels": list(value.labels),
            "properties": {k: spanner_json(v) for k, v in value.properties.items()},
        }
    if isinstance(value, EdgeValue):
        return {
            "identifier": value.id,
            "kind": "edge",
            "labels": [value.type],
            "properties": {k: spanner_json(v) for k, v in value.properties.items()},
            "source_node_identifier": value.source,
            "destination_node_identifier": value.target,
        }
    if isinstance(value, PathValue) or _path_shaped(value):
        return {}  # JsonObject([...]): _is_array, no dict items
    if isinstance(value, Mapping):
        return {str(k): spanner_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [spanner_json(v) for v in value]
    return value


def contrib_spanner_normalize(value: Any) -> Any:
    """``ea_gql.py``'s ``normalize``: a Decimal as a float (not rounded), a dict as sorted
    ``(key, value)`` tuples, NaN as ``"NaN"``, other floats rounded to 9 places, lists as
    tuples, ``int``/``str``/``bool``/``None`` as they are, anything else (dates, timestamps,
    bytes) as ``str``."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dict):
        return tuple(sorted((k, contrib_spanner_normalize(v)) for k, v in value.items()))
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else round(value, 9)
    if isinstance(value, (list, tuple)):
        return tuple(contrib_spanner_normalize(v) for v in value)
    if value is None or isinstance(value, (int, str, bool)):
        return value
    return str(value)


def contrib_spanner_equal(
    gold: Sequence[Sequence[Any]], pred: Sequence[Sequence[Any]], as_lists: bool
) -> bool:
    """``ea_gql.py``'s verdict: normalised rows as lists when the prediction's text has
    ``order by``, else as multisets."""
    g = [tuple(contrib_spanner_normalize(spanner_json(v)) for v in row) for row in gold]
    p = [tuple(contrib_spanner_normalize(spanner_json(v)) for v in row) for row in pred]
    return g == p if as_lists else Counter(g) == Counter(p)


def contrib_tugraph_normalize(value: Any) -> Any:
    """``ea_cypher.py``'s ``normalize`` of a ``.data()`` value: floats rounded to 9 places (a
    NaN stays a NaN, a separate object), ``int``/``str``/``bool``/``None`` as they are, a
    temporal value as its ISO text, lists as tuples, maps as sorted ``(key, value)`` tuples,
    anything else (bytes, a Decimal) as ``str``."""
    if isinstance(value, float):
        return round(value, 9)
    if value is None or isinstance(value, (int, str, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(contrib_tugraph_normalize(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, contrib_tugraph_normalize(v)) for k, v in value.items()))
    return str(value)


def contrib_tugraph_equal(gold: Sequence[Sequence[Any]], pred: Sequence[Sequence[Any]]) -> bool:
    """``ea_cypher.py``'s verdict: the **sets** of normalised rows are equal (order and
    duplicates ignored, column order kept; two NaNs never equal: each is its own object and
    Python hashes a NaN by identity)."""
    g = {tuple(contrib_tugraph_normalize(v) for v in row) for row in _data_rows(gold)}
    p = {tuple(contrib_tugraph_normalize(v) for v in row) for row in _data_rows(pred)}
    return g == p


# -- CypherBench ------------------------------------------------------------------------------------


def to_hashable(obj: Any) -> Any:
    """CypherBench's ``to_hashable`` on a ``.data()`` value: scalars and tuples as they are
    (a relationship's tuple keeps its dicts, unhashable), a date as its ISO text, a list as
    the sorted tuple of its items (mixed types cannot be sorted: ``TypeError``), a map as its
    sorted items; any other value (a date-time, a duration) raises ``TypeError``."""
    if obj is None or isinstance(obj, (tuple, int, float, str, bool)):
        return obj
    if isinstance(obj, tm.Date):
        return str(obj)
    if isinstance(obj, list):
        return tuple(sorted(to_hashable(x) for x in obj))
    if isinstance(obj, dict):
        return tuple(sorted((k, to_hashable(v)) for k, v in obj.items()))
    raise TypeError(f"unhashable type: {type(obj).__name__}")


def _unordered(row: tuple) -> list[Any]:
    return sorted(row, key=lambda x: str(x) + str(type(x)))


def _bag_equal(a: list[tuple], b: list[tuple]) -> bool:
    if len(a) != len(b):
        return False
    counts: dict[tuple, int] = {}
    for row in a:
        counts[row] = counts.get(row, 0) + 1
    for row in b:
        counts[row] = counts.get(row, 0) - 1
        if counts[row] < 0:
            return False
    return True


def _bijections(candidates: list[list[int]], chosen: tuple[int, ...] = ()) -> Iterator[tuple]:
    if len(chosen) == len(candidates):
        yield chosen
        return
    for k in candidates[len(chosen)]:
        if k not in chosen:
            yield from _bijections(candidates, (*chosen, k))


def _result_eq(gold: list[tuple], pred: list[tuple], order_matters: bool) -> bool:
    """The test-suite comparison CypherBench runs (row counts, column counts, the per-row
    sorted-values quick reject, then a column bijection under which the rows agree as lists,
    or as sets and bags). Candidate columns are pruned by every predicted row instead of 20
    random ones: pruning never drops a bijection that makes the rows agree, so the verdict
    is the same and does not depend on chance."""
    if len(gold) != len(pred):
        return False
    width = len(gold[0])
    if len(pred[0]) != width:
        return False
    g_rows, p_rows = [_unordered(r) for r in gold], [_unordered(r) for r in pred]
    if order_matters and g_rows != p_rows:
        return False
    if not order_matters and set(map(tuple, g_rows)) != set(map(tuple, p_rows)):
        return False
    columns = [{row[i] for row in gold} for i in range(width)]
    candidates = [
        [k for k in range(width) if all(row[k] in columns[j] for row in pred)] for j in range(width)
    ]
    for perm in _bijections(candidates):
        moved = pred if width == 1 else [tuple(row[k] for k in perm) for row in pred]
        if order_matters:
            if gold == moved:
                return True
        elif set(gold) == set(moved) and _bag_equal(gold, moved):
            return True
    return False


def cypherbench_equal(
    gold: Sequence[Sequence[Any]], pred: Sequence[Sequence[Any]], order_matters: bool
) -> bool:
    """CypherBench's verdict on two results. A predicted value it cannot make hashable makes
    the prediction wrong; a gold value it cannot make hashable, or a comparison that raises
    (a relationship's dicts in a set), raises :class:`PeerCrash`."""
    try:
        p = [tuple(to_hashable(v) for v in row) for row in _data_rows(pred)]
    except TypeError:
        return False
    try:
        g = [tuple(to_hashable(v) for v in row) for row in _data_rows(gold)]
    except TypeError as exc:
        raise PeerCrash(f"gold value: {exc}") from None
    if not g or not p:
        return not g and not p
    try:
        return _result_eq(g, p, order_matters)
    except TypeError as exc:
        raise PeerCrash(f"comparison: {exc}") from None
