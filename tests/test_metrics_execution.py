"""Execution accuracy: each policy, and the value normalisation it relies on."""

from __future__ import annotations

import decimal

import pytest

from gqlir.engines.base import EdgeValue, NodeValue, PathValue, ResultTable
from gqlir.eval import temporal as tm
from gqlir.metrics import MetricsError, Result, ValueRules, execution_match, value_key
from gqlir.metrics.execution import POLICIES, ExecutionPolicy, execution_accuracy, execution_score
from gqlir.metrics.values import decode, encode


def ordered(rows, columns=None):
    return Result(rows, columns if columns is not None else len(rows[0]) if rows else 0, True)


ROWS = [("a", 1), ("b", 2), ("c", 3)]


# -- rows: order, duplicates, permutations ---------------------------------------------------------


def test_row_order_is_ignored_unless_the_gold_orders():
    shuffled = [ROWS[2], ROWS[0], ROWS[1]]
    assert execution_match(ROWS, shuffled)
    assert not execution_match(ordered(ROWS), shuffled)
    assert execution_match(ordered(ROWS), list(ROWS))


@pytest.mark.parametrize(
    ("policy", "gold_orders", "pred_orders", "same"),
    [
        ("ordered-if-gold", True, False, False),
        ("ordered-if-gold", False, True, True),
        ("ordered-if-either", False, True, False),
        ("ordered-if-either", False, False, True),
        ("bag", True, True, True),
        ("set", True, True, True),
    ],
)
def test_which_side_decides_the_order(policy, gold_orders, pred_orders, same):
    gold = Result(ROWS, 2, gold_orders)
    pred = Result(list(reversed(ROWS)), 2, pred_orders)
    assert execution_match(gold, pred, policy) is same


def test_text2gql_orders_by_the_prediction():
    gold = Result(ROWS, 2, True)
    assert execution_match(gold, Result(list(reversed(ROWS)), 2, False), "text2gql")
    assert not execution_match(gold, Result(list(reversed(ROWS)), 2, True), "text2gql")


def test_duplicates_count_in_bags_not_in_sets():
    gold = [(1,), (1,), (2,)]
    assert not execution_match(gold, [(1,), (2,)], "bag")
    assert not execution_match(gold, [(1,), (2,), (2,)], "bag")
    assert execution_match(gold, [(2,), (1,)], "set")
    assert execution_match(gold, [(2,), (1,), (1,)], "default")


def test_column_permutations_only_under_test_suite():
    swapped = [(n, s) for s, n in ROWS]
    assert not execution_match(ROWS, swapped)
    assert execution_match(ROWS, swapped, "test-suite")
    assert execution_match(ROWS, list(reversed(swapped)), "cypherbench")
    # a permutation must hold for every row at once
    mixed = [(1, "a"), ("b", 2), (3, "c")]
    assert not execution_match(ROWS, mixed, "test-suite")


def test_test_suite_permutation_with_many_equal_columns():
    gold = [tuple(range(i, i + 6)) for i in range(4)]
    pred = [tuple(reversed(r)) for r in gold]
    assert execution_match(gold, pred, "test-suite")
    same_values = [(1, 1, 2), (1, 2, 1)]
    assert execution_match(same_values, [(2, 1, 1), (1, 1, 2)], "test-suite")
    assert not execution_match(same_values, [(2, 1, 1), (2, 1, 1)], "test-suite")


def test_test_suite_keeps_duplicates_and_column_counts():
    assert not execution_match([(1, 2)], [(2, 1), (2, 1)], "test-suite")
    assert not execution_match([(1, 2)], [(1, 2, 3)], "test-suite")
    set_perm = ExecutionPolicy(rows="set", permute_columns=True)
    assert execution_match([(1, 2), (1, 2)], [(2, 1)], set_perm)
    assert not execution_match([(1, 2), (1, 2)], [(2, 1)], "set")  # columns stay in place


def test_column_names_never_matter_but_counts_do():
    gold = ResultTable(["name", "n"], [("a", 1)])
    pred = ResultTable(["x", "count(*)"], [("a", 1)])
    assert execution_match(gold, pred)
    assert not execution_match(gold, ResultTable(["name"], [("a",)]))


# -- empty results and nulls ----------------------------------------------------------------------


def test_empty_results():
    assert execution_match([], [])
    assert execution_match(Result([], 2), Result([], 3))  # both empty: same answer
    assert not execution_match([], [(1,)])
    assert not execution_match([(1,)], [])
    assert not execution_match([(None,)], [])


def test_nulls_are_values():
    assert execution_match([(None, 1)], [(None, 1)])
    assert not execution_match([(None,)], [(0,)])
    assert not execution_match([(None,)], [("",)])
    assert execution_match([(None,), (1,)], [(1,), (None,)])


# -- value normalisation ----------------------------------------------------------------------------


def test_numbers_and_floats():
    assert execution_match([(1,)], [(1.0,)])
    assert execution_match([(1,)], [(decimal.Decimal("1.00"),)])
    assert execution_match([(0.1 + 0.2,)], [(0.3,)])
    assert not execution_match([(0.3,)], [(0.31,)])
    exact = ExecutionPolicy(values=ValueRules(float_digits=None))
    assert not execution_match([(0.1 + 0.2,)], [(0.3,)], exact)
    assert execution_match([(float("nan"),)], [(float("nan"),)])
    assert not execution_match([(True,)], [(1,)])  # a boolean is not a number
    typed = ExecutionPolicy(values=ValueRules(unify_numbers=False))
    assert not execution_match([(1,)], [(1.0,)], typed)
    # Text2GQL-Bench rounds to 9 decimal places
    assert execution_match([(2.0000000001,)], [(2.0,)], "text2gql")
    assert not execution_match([(2.00001,)], [(2.0,)], "text2gql")


def test_temporal_values():
    paris = tm.parse_temporal("datetime", "2024-01-31T10:00:00+01:00")
    utc = tm.parse_temporal("datetime", "2024-01-31T09:00:00Z")
    assert execution_match([(paris,)], [(utc,)])  # the same instant
    assert not execution_match([(paris,)], [(utc,)], "text2gql")  # compared as text
    day = tm.parse_temporal("date", "2024-01-31")
    assert execution_match([(day,)], [(tm.parse_temporal("date", "2024-01-31"),)])
    assert not execution_match([(day,)], [("2024-01-31",)])  # a date is not a string
    local = tm.parse_temporal("localdatetime", "2024-01-31T09:00:00")
    assert not execution_match([(utc,)], [(local,)])
    assert execution_match(
        [(tm.parse_temporal("duration", "P1DT2H"),)], [(tm.parse_temporal("duration", "P1DT2H"),)]
    )


def test_lists_and_maps():
    assert execution_match([([1, 2],)], [([1, 2],)])
    assert not execution_match([([1, 2],)], [([2, 1],)])
    assert execution_match([([1, 2],)], [([2, 1],)], "cypherbench")  # lists compared sorted
    assert execution_match([({"a": 1, "b": [1.0]},)], [({"b": [1], "a": 1},)])
    assert not execution_match([({"a": 1},)], [({"a": 1, "b": None},)])


def _node(id_, name, labels=("Person",)):
    return NodeValue(id_, labels, {"name": name})


def test_nodes_relationships_and_paths():
    a, b = _node("1", "Ada"), _node("2", "Bob")
    a_elsewhere = _node("77", "Ada")  # the same node as another engine numbers it
    assert execution_match([(a,)], [(a_elsewhere,)])
    assert not execution_match([(a,)], [(b,)])
    assert not execution_match([(a,)], [(_node("1", "Ada", ("Robot",)),)])
    by_id = ExecutionPolicy(values=ValueRules(elements="id"))
    assert execution_match([(a,)], [(_node("1", "Eve"),)], by_id)
    assert not execution_match([(a,)], [(a_elsewhere,)], by_id)
    knows = EdgeValue("e1", "KNOWS", "1", "2", {"since": 2001})
    path = PathValue((a, b), (knows,))
    same_path = PathValue(
        (a_elsewhere, _node("9", "Bob")), (EdgeValue("x", "KNOWS", "77", "9", {"since": 2001}),)
    )
    assert execution_match([(path,)], [(same_path,)])
    reversed_path = PathValue((b, a), (knows,))
    assert not execution_match([(path,)], [(reversed_path,)])
    assert not execution_match([(knows,)], [(EdgeValue("e1", "LIKES", "1", "2", {"since": 2001}),)])


def test_value_keys_separate_kinds():
    keys = {value_key(v) for v in (None, 0, "0", False, [], {}, _node("1", "x"))}
    assert len(keys) == 7


def test_encoded_values_decode_to_equal_values():
    a = _node("1", "Ada")
    values = [
        None, True, 3, 2.5, float("inf"), decimal.Decimal("1.50"), "s", [1, [2]], {"k": {"$node": 1}},
        a, EdgeValue("e", "T", "1", "2", {"w": 1.5}), PathValue((a, a), (EdgeValue("e", "T", "1", "1", {}),)),
        tm.parse_temporal("datetime", "2024-01-31T10:00:00+01:00"),
        tm.parse_temporal("localtime", "09:30:00"), tm.parse_temporal("duration", "P3DT4H"),
    ]  # fmt: skip
    for v in values:
        back = decode(encode(v))
        assert value_key(back) == value_key(v), v


# -- scores and gold failures ---------------------------------------------------------------------


def test_gold_failure_policies():
    assert execution_score(None, [(1,)], "default") is None  # excluded
    assert execution_score(None, [(1,)], "text2gql") == 0.0  # counted wrong
    assert execution_score([(1,)], None) == 0.0  # a failed prediction
    assert execution_score([(1,)], [(1,)]) == 1.0
    scores = [1.0, None, 0.0, 1.0]
    assert execution_accuracy(scores) == pytest.approx(2 / 3)
    assert execution_accuracy([None]) == 0.0


def test_every_preset_is_usable_and_unknown_ones_are_errors():
    for name in POLICIES:
        assert execution_match(ROWS, ROWS, name)
    with pytest.raises(MetricsError, match="unknown execution policy"):
        execution_match(ROWS, ROWS, "nope")
