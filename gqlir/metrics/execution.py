"""Execution accuracy (EX): does the predicted query return the gold query's answer?

The benchmarks disagree on what "the same answer" means (docs/metrics.md lists them), so every
rule is a field of :class:`ExecutionPolicy`:

* ``rows``: ``set`` (duplicates and order ignored), ``bag`` (order ignored, duplicates count),
  ``ordered-if-gold`` / ``ordered-if-either`` / ``ordered-if-pred`` (compare as lists when that
  query orders its result, else as bags);
* ``permute_columns``: Spider's test-suite comparison: the answer may list the gold columns in
  any order (column names never matter: they are the writer's choice);
* ``values``: :class:`~.values.ValueRules` (floats, temporal values, lists, nodes and paths);
* ``gold_failure``: an item whose gold query fails is ``excluded`` from the mean, counted
  ``wrong`` (and kept in the denominator), or, as in CypherBench, a ``crash`` of the
  benchmark's run (scored 0 and reported);
* ``peer``: compare as a benchmark's own script does (:mod:`.peers`) instead of by typed
  values: ``text2gql-driver``, ``text2gql-contrib-spanner``, ``text2gql-contrib-tugraph`` or
  ``cypherbench``.

:data:`POLICIES` names the presets, including each benchmark's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, TypeIs

from .errors import MetricsError
from .peers import (
    PeerCrash,
    contrib_spanner_equal,
    contrib_tugraph_equal,
    cypherbench_equal,
    text2gql_equal,
)
from .values import ValueRules, row_key

__all__ = [
    "POLICIES",
    "ExecutionPolicy",
    "Result",
    "execution_accuracy",
    "execution_match",
    "execution_score",
    "get_policy",
]

RowRule = Literal["set", "bag", "ordered-if-gold", "ordered-if-either", "ordered-if-pred"]

# Column permutations tried at most per comparison (many identical columns would otherwise
# make the search exponential; a comparison that reaches the cap counts as a mismatch).
MAX_PERMUTATIONS = 20_000


@dataclass(frozen=True, slots=True)
class ExecutionPolicy:
    """What counts as the same answer (see the module docstring)."""

    rows: RowRule = "ordered-if-gold"
    permute_columns: bool = False
    values: ValueRules = field(default_factory=ValueRules)
    gold_failure: Literal["exclude", "wrong", "crash"] = "exclude"
    order_from: Literal["ir", "text"] = "ir"
    peer: (
        Literal[
            "text2gql-driver",
            "text2gql-driver-spanner",
            "text2gql-contrib-spanner",
            "text2gql-contrib-tugraph",
            "cypherbench",
        ]
        | None
    ) = None


POLICIES: dict[str, ExecutionPolicy] = {
    # gqlir's default: the order matters when the gold query orders; values as engines differ
    "default": ExecutionPolicy(),
    "set": ExecutionPolicy(rows="set"),
    "bag": ExecutionPolicy(rows="bag"),
    "ordered-if-gold": ExecutionPolicy(rows="ordered-if-gold"),
    "ordered-if-either": ExecutionPolicy(rows="ordered-if-either"),
    "test-suite": ExecutionPolicy(rows="ordered-if-gold", permute_columns=True),
    # Text2GQL-Bench Driver, impl/evaluation/metrics.py: "order by" in the prediction's text,
    # the Driver's value normalisation, gold failures counted wrong
    "text2gql": ExecutionPolicy(
        rows="ordered-if-pred",
        gold_failure="wrong",
        order_from="text",
        peer="text2gql-driver",
    ),
    # the same Driver code when it runs ISO GQL on Spanner: Spanner's values, not .data()'s
    "text2gql@spanner": ExecutionPolicy(
        rows="ordered-if-pred",
        gold_failure="wrong",
        order_from="text",
        peer="text2gql-driver-spanner",
    ),
    # the contrib ea_gql.py (Spanner, the paper's runs): "order by" in the prediction's text,
    # Spanner's values as it normalises them, gold failures excluded
    "text2gql-spanner": ExecutionPolicy(
        rows="ordered-if-pred",
        gold_failure="exclude",
        order_from="text",
        peer="text2gql-contrib-spanner",
    ),
    # the contrib ea_cypher.py (TuGraph through Bolt): sets of rows, gold failures excluded
    "text2gql-tugraph": ExecutionPolicy(
        rows="set", gold_failure="exclude", peer="text2gql-contrib-tugraph"
    ),
    # the Driver before its multiset rule (TuGraph-family impl/evaluation/metrics.py at
    # e5fc112a): ea_cypher.py's sets of rows, gold failures counted wrong
    "text2gql@e5fc112a": ExecutionPolicy(
        rows="set", gold_failure="wrong", peer="text2gql-contrib-tugraph"
    ),
    # CypherBench execution_accuracy.py: test-suite permutations, "order by" in the gold text,
    # its to_hashable values; a failing gold query stops its run
    "cypherbench": ExecutionPolicy(
        rows="ordered-if-gold",
        permute_columns=True,
        gold_failure="crash",
        order_from="text",
        peer="cypherbench",
    ),
}


def get_policy(name: str | ExecutionPolicy) -> ExecutionPolicy:
    if isinstance(name, ExecutionPolicy):
        return name
    try:
        return POLICIES[name]
    except KeyError:
        raise MetricsError(
            f"unknown execution policy {name!r}; known: {', '.join(POLICIES)}",
            code="METRICS_POLICY",
        ) from None


class Table(Protocol):
    """What an engine returns (:class:`gqlir.engines.ResultTable` is one)."""

    @property
    def columns(self) -> Sequence[str]: ...

    @property
    def rows(self) -> Sequence[Sequence[object]]: ...

    @property
    def ordered(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Result:
    """A query's answer as EX needs it: rows (tuples of canonical values), the column count
    and whether the query orders its result."""

    rows: Sequence[Sequence[Any]]
    columns: int
    ordered: bool = False

    @staticmethod
    def of(value: Answer, ordered: bool | None = None) -> Result:
        """From a :class:`~gqlir.engines.ResultTable`, a ``Result``, or a list of rows."""
        if isinstance(value, Result):
            return value if ordered is None else replace(value, ordered=ordered)
        if _is_table(value):
            flag = value.ordered if ordered is None else ordered
            return Result([tuple(r) for r in value.rows], len(value.columns), flag)
        rows = [tuple(r) for r in value]
        return Result(rows, len(rows[0]) if rows else 0, bool(ordered))


#: An answer as the metrics take it: a :class:`Result`, an engine's table, or rows.
Answer = Result | Table | Iterable[Sequence[object]]


def _is_table(value: object) -> TypeIs[Table]:
    """An engine's table, told apart from a list of rows by its rows and columns."""
    return hasattr(value, "rows") and hasattr(value, "columns")


def _compare_as_lists(policy: ExecutionPolicy, gold: Result, pred: Result) -> bool:
    if policy.rows == "ordered-if-gold":
        return gold.ordered
    if policy.rows == "ordered-if-either":
        return gold.ordered or pred.ordered
    if policy.rows == "ordered-if-pred":
        return pred.ordered
    return False


def _rows_equal(rule: str, as_lists: bool, gold: list[tuple], pred: list[tuple]) -> bool:
    if rule == "set":
        return set(gold) == set(pred)
    if as_lists:
        return gold == pred
    return Counter(gold) == Counter(pred)


def _column_candidates(gold: list[tuple], pred: list[tuple], width: int) -> list[list[int]]:
    """For each gold column, the predicted columns holding the same values (as bags)."""
    gold_cols = [Counter(row[j] for row in gold) for j in range(width)]
    pred_cols = [Counter(row[k] for row in pred) for k in range(width)]
    return [[k for k in range(width) if pred_cols[k] == gold_cols[j]] for j in range(width)]


def _permutations(candidates: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Bijections gold column -> predicted column within the candidates, depth first."""
    chosen: list[int] = []
    used: set[int] = set()

    def extend(j: int) -> Iterator[tuple[int, ...]]:
        if j == len(candidates):
            yield tuple(chosen)
            return
        for k in candidates[j]:
            if k not in used:
                used.add(k)
                chosen.append(k)
                yield from extend(j + 1)
                chosen.pop()
                used.discard(k)

    return extend(0)


def execution_match(gold: Answer, pred: Answer, policy: str | ExecutionPolicy = "default") -> bool:
    """Whether ``pred``'s answer is ``gold``'s under ``policy`` (results as :meth:`Result.of`
    takes them). Column names are ignored; column counts must agree. With
    ``permute_columns``, some bijection of the columns must make the rows agree (for ``set``
    rows: as sets; otherwise as sets **and** bags, or as lists when ordered)."""
    policy = get_policy(policy)
    g, p = Result.of(gold), Result.of(pred)
    if policy.peer == "cypherbench":
        return cypherbench_equal(g.rows, p.rows, g.ordered)
    if policy.peer == "text2gql-driver":
        return text2gql_equal(g.rows, p.rows, _compare_as_lists(policy, g, p))
    if policy.peer == "text2gql-driver-spanner":
        return text2gql_equal(g.rows, p.rows, _compare_as_lists(policy, g, p), spanner=True)
    if policy.peer == "text2gql-contrib-spanner":
        return contrib_spanner_equal(g.rows, p.rows, _compare_as_lists(policy, g, p))
    if policy.peer == "text2gql-contrib-tugraph":
        return contrib_tugraph_equal(g.rows, p.rows)
    gold_rows = [row_key(r, policy.values) for r in g.rows]
    pred_rows = [row_key(r, policy.values) for r in p.rows]
    if not gold_rows and not pred_rows:
        return True
    if g.columns != p.columns or not gold_rows or not pred_rows:
        return False
    as_lists = _compare_as_lists(policy, g, p)
    if policy.rows != "set" and len(gold_rows) != len(pred_rows):
        return False
    if not policy.permute_columns:
        return _rows_equal(policy.rows, as_lists, gold_rows, pred_rows)
    width = g.columns
    if policy.rows == "set":
        gold_rows, pred_rows = sorted(set(gold_rows), key=repr), sorted(set(pred_rows), key=repr)
        if len(gold_rows) != len(pred_rows):
            return False
    for tried, perm in enumerate(_permutations(_column_candidates(gold_rows, pred_rows, width))):
        if tried >= MAX_PERMUTATIONS:
            return False
        moved = [tuple(row[k] for k in perm) for row in pred_rows]
        if _rows_equal(policy.rows, as_lists, gold_rows, moved):
            return True
    return False


def execution_score(
    gold: Answer | None, pred: Answer | None, policy: str | ExecutionPolicy = "default"
) -> float | None:
    """One item's EX: 1.0 or 0.0; ``None`` (the item is left out of the mean) when the gold
    query failed (``gold`` is None) and the policy excludes such items. A failed prediction
    (``pred`` None: error, timeout, refused write, empty text) scores 0. Raises
    :class:`~.peers.PeerCrash` where the benchmark's own run would stop."""
    policy = get_policy(policy)
    if gold is None:
        if policy.gold_failure == "crash":
            raise PeerCrash("the gold query fails")
        return None if policy.gold_failure == "exclude" else 0.0
    if pred is None:
        return 0.0
    return 1.0 if execution_match(gold, pred, policy) else 0.0


def execution_accuracy(scores: Sequence[float | None]) -> float:
    """The mean of per-item EX scores, ``None`` (an excluded item) left out; 0 when no item
    counts."""
    counted = [s for s in scores if s is not None]
    return sum(counted) / len(counted) if counted else 0.0
