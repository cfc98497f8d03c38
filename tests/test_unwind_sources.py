"""The pass unwind-sources: GQL's FOR takes a list, so an UNWIND of a known non-list is refused."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.passes.unwind_sources import lower_unwind_sources


def _unwind(query: ir.Node) -> ir.Unwind:
    (step,) = [s for s in query.steps if isinstance(s, ir.Unwind)]  # type: ignore[attr-defined]
    return step


@pytest.mark.parametrize(
    "text", ["UNWIND 1 AS x RETURN x", "WITH 'a' AS n UNWIND n AS x RETURN x AS y"]
)
def test_known_non_list_is_refused_at_the_source(text: str) -> None:
    query = gqlir.parse(text)
    lowered = lower_unwind_sources(query, get_dialect("iso-gql"))
    source = _unwind(lowered).source
    assert isinstance(source, ir.Untranslatable)
    assert source.construct == "UNWIND of a non-list value"
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "UNWIND of a non-list value"
    assert caught.value.rewrite == "UNWIND a list: [value]"


def test_list_or_unknown_source_is_kept() -> None:
    for text in ("UNWIND [1, 2] AS x RETURN x", "MATCH (n) UNWIND n.xs AS x RETURN x"):
        query = gqlir.parse(text)
        assert lower_unwind_sources(query, get_dialect("iso-gql")) is query
        assert " IN " in gqlir.emit(query, "iso-gql")
