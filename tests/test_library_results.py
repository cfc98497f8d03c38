"""ResultTable.difference speaks of values as a reader writes them, not comparison keys."""

from __future__ import annotations

from gqlir.engines.base import ResultTable


def test_bag_difference_prints_values() -> None:
    gold = ResultTable(["name", "n"], [("Kai", 1), ("Ann", 2), ("Kai", 1)])
    pred = ResultTable(["name", "n"], [("Kai", 1), ("Bo", None)])
    assert gold.difference(pred) == (
        "3 rows vs 2 rows; only in the first: [('Kai', 1), ('Ann', 2)]; "
        "only in the second: [('Bo', null)]"
    )


def test_ordered_difference_prints_the_first_differing_row() -> None:
    gold = ResultTable(["name"], [("Kai",), ("Ann",)], ordered=True)
    pred = ResultTable(["name"], [("Kai",), ("Bo",)], ordered=True)
    assert gold.difference(pred) == "row 1: ('Ann') != ('Bo')"
    assert gold.difference(gold) is None
