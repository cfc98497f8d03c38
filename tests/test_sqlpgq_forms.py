"""The SQL/PGQ forms are data (dialects/sqlpgq.toml ``[form]``, gqlir/sqlpgqforms.py): every fact
has its source, and the reader and printer follow the facts, not a flavour's name."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from pathlib import Path

import pytest

from gqlir import ir, parse
from gqlir.dialect import get_dialect
from gqlir.errors import GqlirError
from gqlir.sqlpgqforms import Form, form_of

ROOT = Path(__file__).resolve().parent.parent
FLAVOURS = ["sqlpgq", "sqlpgq:oracle", "sqlpgq:duckdb", "sqlpgq:postgres", "sqlpgq:bigquery"]


@pytest.mark.parametrize("name", FLAVOURS)
def test_every_form_fact_has_a_source(name: str) -> None:
    d = get_dialect(name)
    form_of(d)  # every key is a known fact
    missing = [f.name for f in fields(Form) if not d.sources.get(f"form.{f.name}", "").strip()]
    assert missing == [], f"{name}: no form_sources entry for {missing}"


def test_the_reader_and_printer_test_no_flavour_name() -> None:
    for module in (
        "gqlir/parser/sqlpgq.py",
        "gqlir/parser/property_graph.py",
        "gqlir/emitter/sqlpgq.py",
    ):
        text = (ROOT / module).read_text(encoding="utf-8")
        found = re.findall(r"flavour\s*(?:==|!=|in|not in)\s*[\"'({]", text)
        found += re.findall(r"sql_dialect\s*(?:==|!=)", text)
        assert found == [], module


def _with_form(name: str, **facts: object) -> object:
    d = get_dialect(name)
    return replace(d, form={**d.form, **facts})


def test_a_form_fact_changes_the_reading_whatever_the_flavour() -> None:
    text = "SELECT x FROM GRAPH_TABLE (g MATCH (A IS Person) COLUMNS (a.name AS x))"
    plain = parse(text, _with_form("sqlpgq", folds=""))  # type: ignore[arg-type]
    insensitive = parse(text, _with_form("sqlpgq", folds="", case_insensitive=True))  # type: ignore[arg-type]
    assert plain != insensitive  # a stays another variable than A unless names ignore case
    match = insensitive.steps[1]  # type: ignore[attr-defined]
    assert isinstance(match, ir.Match)
    node = match.patterns[0].path.elements[0]  # type: ignore[union-attr]
    assert node.variable == "A"
    trailing = "SELECT x FROM GRAPH_TABLE (g MATCH (a IS Person) COLUMNS (a.name AS x,))"
    with pytest.raises(GqlirError):
        parse(trailing, "sqlpgq:oracle")
    parse(trailing, _with_form("sqlpgq:oracle", columns_trailing_comma=True))  # type: ignore[arg-type]
    aggregate = "SELECT n FROM GRAPH_TABLE (g MATCH (a IS Person) COLUMNS (count(a.name) AS n))"
    parse(aggregate, "sqlpgq")
    with pytest.raises(GqlirError):
        parse(aggregate, _with_form("sqlpgq", columns_aggregates=False))  # type: ignore[arg-type]
