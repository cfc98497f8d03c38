"""The rule projection_pages of the pass gql-projections: GQL's OFFSET and LIMIT take a count
or a parameter, and a standalone ORDER BY needs a target that has one."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.passes.gql_projections import lower_gql_projections


def projections(node: ir.Node) -> list[ir.Projection]:
    return [s for s in node.steps if isinstance(s, ir.Projection)]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text", ["MATCH (n) RETURN n.x AS x SKIP 1 + 1", "MATCH (n) RETURN n.x AS x LIMIT -1"]
)
def test_a_computed_skip_or_limit_is_refused_in_place(text: str) -> None:
    query = gqlir.parse(text)
    (step,) = projections(lower_gql_projections(query, get_dialect("iso-gql")))
    (original,) = projections(query)
    refused = step.skip if original.skip is not None else step.limit
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "computed SKIP/LIMIT"
    assert refused.rewrite == "pass the count as a parameter"
    assert refused.expr is (original.skip if original.skip is not None else original.limit)
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "computed SKIP/LIMIT"


def test_a_count_or_a_parameter_is_written_as_it_is() -> None:
    query = gqlir.parse("MATCH (n) RETURN n.x AS x SKIP $s LIMIT 3")
    assert lower_gql_projections(query, get_dialect("iso-gql")) is query
    assert gqlir.emit(query, "iso-gql").endswith("OFFSET $s LIMIT 3")


def test_a_standalone_order_by_is_refused_where_the_target_has_none() -> None:
    query = gqlir.parse("MATCH (n) WITH * ORDER BY n.x RETURN n.y AS y")
    spanner = lower_gql_projections(query, get_dialect("spanner"))
    refused = [s for s in spanner.steps if isinstance(s, ir.RefusedStep)]  # type: ignore[attr-defined]
    assert [r.construct for r in refused] == ["ORDER BY without LIMIT"]
    assert refused[0].rewrite == "order the final RETURN instead"
    iso = lower_gql_projections(query, get_dialect("iso-gql"))
    assert not [s for s in iso.steps if isinstance(s, ir.RefusedStep)]  # type: ignore[attr-defined]
    assert "ORDER BY n.x NULLS LAST RETURN" in gqlir.emit(query, "iso-gql")
