"""The Spanner adapter against Google's ``spannermockserver`` (started in process on 127.0.0.1
and a free port): it executes nothing, so these tests check what the adapter sends (DDL,
mutations, GQL text, typed parameters, read-only snapshots, deadlines) and how it decodes the
rows the mock replays. Real Spanner Graph runs need an instance (docs/engines.md)."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from google.cloud.spanner_admin_database_v1.types import DatabaseDialect
from google.cloud.spanner_v1 import ResultSet, StructType, Type, TypeCode
from google.cloud.spanner_v1.types import ExecuteSqlRequest
from spannermockserver import DatabaseAdminServicer, SpannerServicer
from spannermockserver.generated import spanner_database_admin_pb2_grpc as admin_grpc
from spannermockserver.generated import spanner_pb2_grpc as spanner_grpc
from spannermockserver.testbase.mock_server_test_base import MockServerTestBase

from gqlir.engines.spanner import SpannerEngine
from gqlir.errors import EngineError
from gqlir.schema import load_schema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")


@pytest.fixture(scope="module")
def mock() -> Iterator[tuple[SpannerServicer, DatabaseAdminServicer, int]]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    spanner, admin = SpannerServicer(), DatabaseAdminServicer()
    spanner_grpc.add_SpannerServicer_to_server(spanner, server)
    admin_grpc.add_DatabaseAdminServicer_to_server(admin, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    MockServerTestBase.spanner_service = spanner
    try:
        yield spanner, admin, port
    finally:
        server.stop(grace=None)


@pytest.fixture
def engine(mock: Any) -> Iterator[SpannerEngine]:
    spanner, admin, port = mock
    from spannermockserver import set_database_dialect

    set_database_dialect(DatabaseDialect.GOOGLE_STANDARD_SQL)
    e = SpannerEngine(project="p", instance="i", database="d", endpoint=f"127.0.0.1:{port}")
    try:
        yield e
    finally:
        e.close()
        spanner.clear_requests()
        admin.clear_requests()
        spanner.mock_spanner.results = {}
        spanner.mock_spanner.errors = {}


def _result(columns: list[tuple[str, TypeCode]], rows: list[list[Any]]) -> ResultSet:
    rs = ResultSet()
    for name, code in columns:
        rs.metadata.row_type.fields.append(StructType.Field(name=name, type=Type(code=code)))
    for row in rows:
        rs.rows.append(row)
    return rs


def _sql_requests(spanner: SpannerServicer) -> list[ExecuteSqlRequest]:
    return [r for r in spanner.requests if isinstance(r, ExecuteSqlRequest)]


GQL = "GRAPH FinGraph MATCH (p:Person) WHERE p.age > @minAge RETURN p.name AS name, p.born AS born"


def test_query_sends_gql_and_typed_parameters_and_decodes_rows(mock: Any, engine: Any) -> None:
    spanner = mock[0]
    spanner.mock_spanner.add_result(
        GQL,
        _result(
            [("name", TypeCode.STRING), ("born", TypeCode.DATE)],
            [["Alice", "1990-05-01"], ["Bob", None]],
        ),
    )
    table = engine.run(GQL, parameters={"minAge": 30}, read_only=True, timeout=5)
    assert table.columns == ["name", "born"]
    assert [r[0] for r in table.rows] == ["Alice", "Bob"]
    assert str(table.rows[0][1]) == "1990-05-01" and table.rows[1][1] is None
    request = _sql_requests(spanner)[-1]
    assert request.sql == GQL
    assert dict(request.params)["minAge"] == "30"
    assert request.param_types["minAge"].code == TypeCode.INT64
    assert request.transaction.single_use.read_only is not None  # a read-only snapshot


def test_graph_elements_as_json_become_nodes(mock: Any, engine: Any) -> None:
    spanner = mock[0]
    q = "GRAPH FinGraph MATCH (p:Person) RETURN SAFE_TO_JSON(p) AS p"
    node = (
        '{"identifier":"mUZpbkdyYXBoLlBlcnNvbgB4kQI=","kind":"node","labels":["Person"],'
        '"properties":{"id":1,"name":"Alice"}}'
    )
    spanner.mock_spanner.add_result(q, _result([("p", TypeCode.JSON)], [[node]]))
    table = engine.run(q)
    (value,) = table.rows[0]
    assert value.labels == ("Person",) and dict(value.properties) == {"id": 1, "name": "Alice"}


def test_engine_errors_carry_the_grpc_status(mock: Any, engine: Any) -> None:
    with pytest.raises(EngineError) as info:
        engine.run("GRAPH FinGraph MATCH (n) RETURN n.nothing AS x")
    assert info.value.engine_code is not None
    assert "No result found" in info.value.message


def test_read_only_refuses_a_write_before_sending_it(mock: Any, engine: Any) -> None:
    # Spanner GQL has no graph writes (gqlir's Spanner grammar has none), so the write comes
    # in another dialect; anything that reaches Spanner runs in a read-only snapshot.
    for dialect in ("neo4j", "iso-gql"):
        with pytest.raises(EngineError) as info:
            engine.run("MATCH (n) DETACH DELETE n", dialect=dialect, read_only=True)
        assert info.value.code == "READ_ONLY"
    assert _sql_requests(mock[0]) == []


def test_translation_from_cypher_reaches_the_server_as_spanner_gql(mock: Any, engine: Any) -> None:
    import gqlir

    cypher = "USE FinGraph MATCH (p:Person) RETURN p.name AS name ORDER BY name"
    text = gqlir.transpile(cypher, "neo4j", "spanner")
    spanner = mock[0]
    spanner.mock_spanner.add_result(text, _result([("name", TypeCode.STRING)], [["A"], ["B"]]))
    table = engine.run(cypher, dialect="neo4j")
    assert table.ordered and table.rows == [("A",), ("B",)]
    assert _sql_requests(spanner)[-1].sql == text


def test_load_sends_the_ddl_and_the_rows_as_mutations(mock: Any, engine: Any) -> None:
    from google.cloud.spanner_v1.types import CommitRequest

    spanner, admin, _ = mock
    schema = load_schema(os.path.join(ROOT, "finance", "schema.json"))
    counts = engine.load(schema, os.path.join(ROOT, "finance", "graph"))
    ddl = [s for r in admin.requests for s in r.statements]
    assert any(s.startswith("CREATE PROPERTY GRAPH") for s in ddl)
    assert any(s.startswith("CREATE TABLE Person") for s in ddl)
    commits = [r for r in spanner.requests if isinstance(r, CommitRequest)]
    inserted = {m.insert.table: len(m.insert.values) for c in commits for m in c.mutations}
    assert inserted == {t: n for t, n in counts.items() if n}
    person = next(m.insert for c in commits for m in c.mutations if m.insert.table == "Person")
    create_time = list(person.columns).index("createTime")
    stamp = person.values[0][create_time]
    assert dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).tzinfo is not None
