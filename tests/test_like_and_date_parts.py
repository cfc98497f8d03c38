"""The passes like-patterns and date-parts: refusals decided before the GQL printer writes
LIKE and GoogleSQL's date part keywords verbatim."""

from __future__ import annotations

from dataclasses import replace

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.passes.date_parts import lower_date_parts
from gqlir.passes.like_patterns import lower_like_patterns

_S = ir.Property(ir.Variable("n"), "s")


def _with_where(where: ir.Expr) -> ir.Node:
    query = gqlir.parse("MATCH (n) WHERE n.s = 'x' RETURN n.s AS s")
    steps = tuple(
        replace(s, where=where) if isinstance(s, ir.Match) else s
        for s in query.steps  # type: ignore[attr-defined]
    )
    return replace(query, steps=steps)


@pytest.mark.parametrize(
    ("pattern", "escape", "kept"),
    [
        (ir.String("a%"), "\\", True),
        (ir.String("a%"), None, True),
        (ir.String("a%"), "!", True),
        (ir.String("a!%"), "!", False),  # '!' makes the % literal: GoogleSQL would not
        (ir.String("a\\%"), None, False),  # a backslash GoogleSQL would read as an escape
        (ir.Parameter("p"), None, False),
    ],
)
def test_like_keeps_its_meaning_or_is_refused(
    pattern: ir.Expr, escape: str | None, kept: bool
) -> None:
    like = ir.Like(_S, pattern, escape=escape)
    lowered = lower_like_patterns(like, get_dialect("spanner"))
    assert (lowered is like) is kept
    if not kept:
        assert isinstance(lowered, ir.Untranslatable)
        assert lowered.construct == "LIKE with a pattern that is not a literal without \\"


def test_like_refusal_is_raised_by_the_printer() -> None:
    query = _with_where(ir.Like(_S, ir.String("a!%"), negated=True, escape="!"))
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(query, get_dialect("spanner"), graph="g")
    assert caught.value.construct == "NOT LIKE with a pattern that is not a literal without \\"
    plain = _with_where(ir.Like(_S, ir.String("a%"), escape="\\"))
    assert "WHERE n.s LIKE 'a%'" in emit_gql(plain, get_dialect("spanner"), graph="g")


def test_date_part_outside_the_functions_set_is_refused() -> None:
    spanner = get_dialect("spanner")
    born = ir.Property(ir.Variable("n"), "born")
    good = ir.FunctionCall("googlesql.extract", (ir.String("YEAR"), born))
    assert lower_date_parts(good, spanner) is good
    bad = ir.FunctionCall("googlesql.date_trunc", (born, ir.String("DAYOFWEEK")))
    refused = lower_date_parts(bad, spanner)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct.startswith("DATE_TRUNC of a part other than ['DAY', 'ISOWEEK'")
    computed = ir.FunctionCall("googlesql.extract", (ir.Parameter("p"), born))
    assert isinstance(lower_date_parts(computed, spanner), ir.Untranslatable)
    # ISO GQL spells none of them: the printer refuses the function itself
    assert lower_date_parts(bad, get_dialect("iso-gql")) is bad
    text = "WITH date('2020-01-02') AS d RETURN d.year AS y"
    assert "EXTRACT(YEAR FROM d)" in gqlir.transpile(text, "neo4j", "spanner", graph="g")
