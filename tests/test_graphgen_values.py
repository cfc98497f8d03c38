"""Value distributions: each behaves as specified on a few thousand samples, every value is of
its property's type, unique specs are unique, and bad specs fail before anything is written."""

from __future__ import annotations

import datetime as dt
import random
import statistics
from collections import Counter

import pytest

from gqlir.graphgen.defaults import default_spec
from gqlir.graphgen.errors import GraphGenError
from gqlir.graphgen.values import compile_spec
from gqlir.graphgen.wordlists import words
from gqlir.schema.graphdata import check_value
from gqlir.schema.model import NodeType, Property
from gqlir.schema.types import parse_type

N = 4000


def sample(spec: dict, type_text: str, n: int = N, seed: int = 1) -> list:
    t = parse_type(type_text)
    gen = compile_spec(spec, t, rng=random.Random(seed), count=n, where="test")
    out = []
    for k in range(n):
        v = gen(k, {})
        assert v is None or check_value(v, t) is None, (v, type_text)
        out.append(v)
    return out


def test_zipf_is_skewed_like_its_law() -> None:
    values = sample({"dist": "zipf", "n": 50, "s": 1.2}, "INT64")
    counts = Counter(values)
    # P(1)/P(2) = 2**1.2 ~ 2.3; rank 1 is the most common and ranks fall off
    assert counts[1] == max(counts.values())
    assert 1.9 < counts[1] / counts[2] < 2.8
    assert counts[1] > 10 * counts.get(20, 1)
    assert set(values) <= set(range(1, 51))


def test_categorical_weights_within_tolerance() -> None:
    values = sample(
        {"dist": "categorical", "values": ["a", "b", "c"], "weights": [6, 3, 1]}, "STRING"
    )
    share = {k: v / N for k, v in Counter(values).items()}
    assert share["a"] == pytest.approx(0.6, abs=0.03)
    assert share["b"] == pytest.approx(0.3, abs=0.03)
    assert share["c"] == pytest.approx(0.1, abs=0.02)


def test_normal_and_uniform_and_lognormal() -> None:
    normal = sample({"dist": "normal", "mean": 50, "stddev": 5, "decimals": 2}, "FLOAT64")
    assert statistics.mean(normal) == pytest.approx(50, abs=0.5)
    assert statistics.stdev(normal) == pytest.approx(5, abs=0.4)
    uniform = sample({"dist": "uniform", "min": 3, "max": 7}, "INT32")
    assert set(uniform) == {3, 4, 5, 6, 7}
    logn = sample({"dist": "lognormal", "mu": 2, "sigma": 0.5, "min": 1}, "FLOAT64")
    assert statistics.median(logn) == pytest.approx(7.39, rel=0.08)


def test_integers_are_clipped_to_their_type() -> None:
    values = sample({"dist": "normal", "mean": 250, "stddev": 100}, "UINT8")
    assert min(values) >= 0 and max(values) <= 255


def test_decimals_keep_scale_and_precision() -> None:
    values = sample({"dist": "lognormal", "mu": 12, "sigma": 3}, "DECIMAL(6,2)")
    assert all(isinstance(v, str) and len(v.split(".")[1]) == 2 for v in values)
    assert max(float(v) for v in values) <= 9999.99


def test_dates_fall_in_their_range() -> None:
    values = sample({"dist": "date", "start": "2020-01-01", "end": "2020-12-31"}, "DATE")
    days = [dt.date.fromisoformat(v) for v in values]
    assert min(days) >= dt.date(2020, 1, 1) and max(days) <= dt.date(2020, 12, 31)
    instants = sample(
        {"dist": "date", "start": "2021-05-01T00:00:00", "end": "2021-05-02T00:00:00"}, "DATETIME"
    )
    assert all(v.startswith("2021-05-0") and v.endswith("+00:00") for v in instants)
    local = sample({"dist": "date"}, "LOCAL_DATETIME", n=10)
    assert all("+" not in v for v in local)


def test_names_come_from_the_bundled_lists() -> None:
    first, last = set(words("first_names")), set(words("last_names"))
    assert len(first) >= 180 and len(last) >= 180 and len(words("words")) >= 250
    for v in sample({"dist": "name", "kind": "full"}, "STRING", n=200):
        given, family = v.split(" ", 1)
        assert given in first and family in last
    assert set(sample({"dist": "name", "kind": "city"}, "STRING", n=100)) <= set(words("cities"))


@pytest.mark.parametrize(
    ("spec", "type_text"),
    [
        ({"dist": "name", "kind": "full"}, "STRING"),
        ({"dist": "name", "kind": "continent"}, "STRING"),
        ({"dist": "email"}, "STRING"),
        ({"dist": "code", "length": 8}, "STRING(8)"),
        ({"dist": "sequence"}, "INT64"),
        ({"dist": "uniform", "min": 0, "max": 10**6}, "INT32"),
        ({"dist": "date", "start": "1900-01-01", "end": "2099-12-31"}, "DATE"),
        ({"dist": "uuid"}, "UUID"),
        ({"dist": "text"}, "STRING"),
    ],
)
def test_unique_specs_are_unique(spec: dict, type_text: str) -> None:
    values = sample(
        spec | {"unique": True}, type_text, n=20_000 if spec.get("kind") == "continent" else N
    )
    assert len(set(values)) == len(values)


@pytest.mark.parametrize(
    "type_text",
    [
        "BOOLEAN",
        "INT8",
        "UINT16",
        "INT64",
        "FLOAT32",
        "DECIMAL",
        "DECIMAL(4,1)",
        "STRING",
        "STRING(4)",
        "BYTES(6)",
        "DATE",
        "TIME",
        "LOCAL_TIME",
        "DATETIME",
        "LOCAL_DATETIME",
        "DURATION",
        "POINT",
        "LIST<INT32>",
        "LIST<DATE>",
        "MAP",
        "MAP<STRING>",
        "JSON",
        "UUID",
        "ANY",
    ],
)
def test_default_specs_make_values_of_every_type(type_text: str) -> None:
    prop = Property("value", parse_type(type_text))
    owner = NodeType("Thing", (Property("id", parse_type("INT64")), prop), keys=("id",))
    spec = default_spec(owner, prop, is_node=True, rng=random.Random(0))
    sample(spec, type_text, n=300)


def test_after_follows_an_earlier_property() -> None:
    t = parse_type("INT64")
    start = compile_spec(
        {"dist": "uniform", "min": 1990, "max": 2000}, t, rng=random.Random(1), count=10, where="s"
    )
    end = compile_spec(
        {"dist": "after", "property": "start", "min": 0, "max": 5},
        t,
        rng=random.Random(2),
        count=10,
        where="e",
    )
    for k in range(200):
        rec = {"start": start(k, {})}
        assert 0 <= end(k, rec) - rec["start"] <= 5
    assert end(0, {}) is None


def test_null_ratio() -> None:
    values = sample({"dist": "uniform", "min": 1, "max": 2, "null_ratio": 0.25}, "INT64")
    assert values.count(None) / N == pytest.approx(0.25, abs=0.03)


@pytest.mark.parametrize(
    ("spec", "type_text", "message"),
    [
        ({"dist": "nope"}, "INT64", "unknown dist"),
        ({"dist": "uniform", "mean": 3}, "INT64", "takes no mean"),
        ({"dist": "categorical", "values": []}, "STRING", "non-empty"),
        (
            {"dist": "categorical", "values": ["a"], "weights": [1, 2]},
            "STRING",
            "one non-negative weight",
        ),
        (
            {"dist": "categorical", "values": ["a", "b"], "unique": True},
            "STRING",
            "cannot be made unique",
        ),
        ({"dist": "uniform", "min": 1, "max": 5, "unique": True}, "INT64", "do not fit"),
        ({"dist": "date", "start": "2020-13-01"}, "DATE", "not an ISO 8601"),
        ({"dist": "categorical", "values": ["x"]}, "INT64", "cannot make INT64"),
        ({"dist": "uniform", "null_ratio": 2}, "INT64", "null_ratio"),
        ({"dist": "name", "unique": True}, "STRING(6)", "need the code dist"),
        ({"dist": "code", "length": 1, "unique": True}, "STRING", "do not fit"),
    ],
)
def test_bad_specs_fail_with_their_path(spec: dict, type_text: str, message: str) -> None:
    with pytest.raises(GraphGenError, match=message):
        compile_spec(
            spec, parse_type(type_text), rng=random.Random(0), count=100, where="nodes.X.p"
        )
