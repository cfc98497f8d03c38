"""One bad query fails alike on every engine in a read-only run (what evaluation does): gqlir's
own error, with its code and position, whichever engine the query was sent to."""

from __future__ import annotations

from typing import Any

import pytest

from gqlir.errors import ParseError

ENGINES = ["reference", "grafeo", "kuzu", "sqlite", "duckdb", "bolt", "neo4j"]

BAD = [
    ("MATCH (m:Movie RETURN m.title", "PARSE_UNEXPECTED", 15),
    ("MATCH (m:Movie) RETURN m.title +", "PARSE_UNEXPECTED", 32),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("query", "code", "offset"), BAD)
def test_a_syntax_error_has_one_code_and_position_everywhere(
    open_engine: Any, engine: str, query: str, code: str, offset: int
) -> None:
    """No graph is needed: the error comes before the engine is asked anything (and the Bolt
    servers' one database stays as the other tests expect it)."""
    with pytest.raises(ParseError) as info:
        open_engine(engine).run(query, dialect="neo4j", read_only=True, timeout=20)
    assert (info.value.code, info.value.offset) == (code, offset)


def test_outside_read_only_runs_the_engine_judges_a_text_gqlir_cannot_read(
    open_engine: Any,
) -> None:
    """gqlir's grammar is not the engine's: a write run sends the text on, and the engine's own
    error comes back."""
    from gqlir.errors import EngineError

    with pytest.raises(EngineError):
        open_engine("grafeo").run("MATCH (m:Movie RETURN m.title", dialect="neo4j")
