"""Management sessions: generation from IR templates, dialect coverage, isolated replay on the
reference evaluator and on embedded engines, schema validity of every write, step-wise
accuracy, and the ``gqlir graph sessions | replay | score`` commands."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from gqlir.cli import main
from gqlir.engines.reference import ReferenceEngine
from gqlir.eval import equivalence_key
from gqlir.eval import temporal as tm
from gqlir.graphgen.errors import GraphGenError
from gqlir.graphgen.replay import replay, replay_session
from gqlir.graphgen.session_dialects import DIALECTS
from gqlir.graphgen.session_scoring import score_sessions
from gqlir.graphgen.sessions import generate_sessions, load_reference, read_sessions
from gqlir.schema import load_schema
from gqlir.schema.graphdata import Edge, Node, validate_graph, write_jsonl
from gqlir.schema.types import TypeKind

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")
EXAMPLES = ("movies", "finance")


def _schema(name: str) -> Any:
    return load_schema(os.path.join(SCHEMAS, name, "schema.json"))


def _graph(name: str) -> str:
    return os.path.join(SCHEMAS, name, "graph")


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One session of each kind (create, merge, set, remove, delete, mixed) for both example
    schemas: three steps each on movies, two on finance."""
    out = {}
    for name in EXAMPLES:
        directory = str(tmp_path_factory.mktemp(f"sessions-{name}"))
        steps = 3 if name == "movies" else 2  # the evaluator is slower on the larger graph
        generate_sessions(_schema(name), _graph(name), directory, sessions=6, steps=steps, seed=11)
        out[name] = directory
    return out


@pytest.fixture(scope="module")
def reports(datasets: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Replay reports by (schema, engine), each computed once; the reference replay also
    writes the graph each session leaves to ``<schema>/<session id>`` (graph data format)."""
    cache: dict[tuple[str, str], Any] = {}
    states = tmp_path_factory.mktemp("states")

    def get(name: str, engine: str) -> Any:
        if (name, engine) not in cache:
            schema = _schema(name)

            def dump(result: dict[str, Any], instance: Any) -> None:
                _dump(instance, schema, str(states / name / result["id"]))

            hook = dump if engine == "reference" else None
            cache[(name, engine)] = replay(datasets[name], engine, after_session=hook)
        return cache[(name, engine)]

    get.states = states  # type: ignore[attr-defined]
    return get


def test_same_seed_gives_byte_identical_sessions(tmp_path: Path) -> None:
    def make(folder: str, seed: int) -> dict[str, bytes]:
        out = tmp_path / folder
        generate_sessions(
            _schema("movies"), _graph("movies"), str(out), sessions=3, steps=2, seed=seed
        )
        return {p.name: p.read_bytes() for p in sorted(out.iterdir())}

    first, again, other = make("a", 5), make("b", 5), make("c", 6)
    assert set(first) == {"manifest.json", "schema.json", "sessions.jsonl"}
    assert first == again
    assert first["sessions.jsonl"] != other["sessions.jsonl"]


def test_every_statement_is_written_or_marked_unsupported(datasets: dict[str, str]) -> None:
    seen_kinds, refused = set(), set()
    for directory in datasets.values():
        manifest, sessions = read_sessions(directory)
        assert manifest["operations"] == ["create", "merge", "set", "remove", "delete", "mixed"]
        for session in sessions:
            for step in session["steps"]:
                seen_kinds.add(step["operation"])
                for part in ("write", "validation"):
                    texts, unsupported = step[part]["texts"], step[part]["unsupported"]
                    assert set(texts) | set(unsupported) == set(DIALECTS)
                    assert not set(texts) & set(unsupported)
                    assert "neo4j" in texts
                    if part == "validation":
                        assert {"kuzu", "iso-gql", "sql:sqlite"} <= set(texts)
                    for dialect, why in unsupported.items():
                        assert why["construct"] and why["reason"]
                        refused.add((dialect, why["construct"]))
                assert step["write"]["texts"]["neo4j"].split()[0] in ("CREATE", "MATCH", "MERGE")
    assert seen_kinds == {"create", "merge", "set", "remove", "delete"}
    # the constructs the emitters refuse are named, not dropped
    assert ("spanner", "MERGE") in refused  # Spanner's GQL writes nothing
    assert ("iso-gql", "MERGE") not in refused  # one row, or distinct pairs of nodes
    assert ("kuzu", "REMOVE") not in refused  # written as SET n.p = null
    assert ("sql:sqlite", "SET") in refused  # SQL output reads only


@pytest.mark.parametrize("name", EXAMPLES)
def test_sessions_replay_with_the_same_answers_on_engines(reports: Any, name: str) -> None:
    gold = reports(name, "reference")
    assert gold.identical, gold.sessions
    grafeo = reports(name, "grafeo")  # Cypher, run natively
    assert grafeo.identical, grafeo.sessions
    assert grafeo.answers() == gold.answers()
    kuzu = reports(name, "kuzu")  # gqlir's Kuzu translations
    counts = kuzu.counts
    assert counts["differ"] == 0 and counts["error"] == 0, kuzu.sessions
    assert counts["agree"] >= 9
    for session in kuzu.sessions:
        for step in session["steps"]:
            if step["status"] == "unsupported":  # Kuzu has no REMOVE (the emitter refuses it)
                assert step["reason"] == "write: kuzu: REMOVE"


def test_replays_start_from_the_same_state(datasets: dict[str, str], reports: Any) -> None:
    directory = datasets["movies"]
    # a session replayed alone gives what it gave after the others: no state leaks between them
    alone = replay(directory, "kuzu", only=["movies-0006"])
    assert alone.sessions[0]["steps"] == reports("movies", "kuzu").sessions[5]["steps"]
    # replayed again on copies of one loaded graph: the same answers, and the graph unchanged
    gold = reports("movies", "reference").answers()
    base = load_reference(_schema("movies"), _graph("movies"))
    before = base.graph.state(equivalence_key)
    _, sessions = read_sessions(directory)
    for session in sessions:
        result = replay_session(ReferenceEngine(base.graph.copy()), session)
        assert [step["answer"] for step in result["steps"]] == gold[session["id"]]
    assert base.graph.state(equivalence_key) == before


def _json_value(v: Any, kind: TypeKind | None) -> Any:
    if isinstance(v, tm.TEMPORAL_TYPES):
        return str(v)
    if kind == TypeKind.DECIMAL and isinstance(v, float):
        return f"{v:.2f}"
    if isinstance(v, list):
        return [_json_value(x, None) for x in v]
    return v


def _dump(engine: ReferenceEngine, schema: Any, directory: str) -> None:
    """The evaluator's graph in the graph data format."""

    def props(owner: Any, values: dict[str, Any]) -> dict[str, Any]:
        kinds = {p.name: p.type.kind for p in owner.properties}
        return {k: _json_value(v, kinds.get(k)) for k, v in values.items()}

    graph = engine.graph
    nodes = [
        Node(n.id, tuple(n.labels), props(schema.node(next(iter(n.labels))), n.properties))
        for n in graph.all_nodes()
    ]
    edges = [
        Edge(r.type, r.start, r.end, props(schema.edge(r.type), r.properties))
        for r in graph.all_relationships()
    ]
    write_jsonl(directory, nodes, edges)


@pytest.mark.parametrize("name", EXAMPLES)
def test_writes_keep_the_graph_valid(reports: Any, name: str) -> None:
    gold = reports(name, "reference")
    for session in gold.sessions:
        report = validate_graph(str(reports.states / name / session["id"]), _schema(name))
        assert not report.issues, (session["id"], [str(i) for i in report.issues[:5]])


def test_step_accuracy_of_predictions_with_wrong_answers(datasets: dict[str, str]) -> None:
    _, sessions = read_sessions(datasets["movies"])
    gold = [[step["answer"] for step in s["steps"]] for s in sessions]
    first, second, third = sessions[0]["id"], sessions[1]["id"], sessions[2]["id"]
    single = [a["rows"][0][0] for a in gold[1]]  # merge steps: one value each
    wrong = list(single)
    wrong[1] = "not the answer"
    predictions = {
        first: gold[0],  # tables, all right
        second: wrong,  # one value of three is wrong
        third: gold[2][:2],  # the last step is missing
    }
    scores = score_sessions(sessions, predictions)
    assert scores["step_accuracy"][first] == 1.0
    assert scores["step_accuracy"][second] == pytest.approx(2 / 3)
    assert scores["step_accuracy"][third] == pytest.approx(2 / 3)
    assert scores["step_accuracy"][sessions[3]["id"]] == 0.0
    assert scores["session_accuracy"] == pytest.approx((1 + 2 / 3 + 2 / 3) / 6)
    assert scores["by_operation"]["create"] == 1.0 and scores["by_operation"]["delete"] == 0.0
    assert scores["predicted"] == 3


def test_cli_generates_replays_and_scores(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "s"
    args = ["graph", "sessions", "--schema", os.path.join(SCHEMAS, "movies"), "--graph"]
    args += [_graph("movies"), "--sessions", "2", "--steps", "2", "--seed", "3"]
    assert main([*args, "--operations", "set,delete", "--out", str(out), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["sessions"] == 2 and made["steps"] == 4
    assert set(made["operations"]) == {"set", "delete"}
    report = tmp_path / "replay.jsonl"
    assert main(["graph", "replay", str(out), "--engine", "grafeo", "--out", str(report)]) == 0
    assert "4 agree" in capsys.readouterr().err
    lines = [json.loads(x) for x in report.read_text().splitlines()]
    assert lines[-1]["summary"]["identical"] is True and len(lines) == 3
    _, sessions = read_sessions(str(out))
    pred = tmp_path / "pred.jsonl"
    rows = [{"id": s["id"], "steps": [st["answer"] for st in s["steps"]]} for s in sessions]
    rows[1]["steps"][0] = {"columns": ["x"], "rows": [[-1]]}
    pred.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["graph", "score", str(out), "--pred", str(pred), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["session_accuracy"] == pytest.approx(0.75)


def test_cli_reports_bad_input(tmp_path: Path, capsys: Any) -> None:
    args = ["graph", "sessions", "-s", os.path.join(SCHEMAS, "movies"), "-g", _graph("movies")]
    assert main([*args, "--operations", "rename", "--out", str(tmp_path / "x")]) != 0
    assert "unknown operation 'rename'" in capsys.readouterr().err
    assert main(["graph", "replay", str(tmp_path)]) != 0
    assert "not a session directory" in capsys.readouterr().err


def test_replay_refuses_another_graph(datasets: dict[str, str]) -> None:
    with pytest.raises(GraphGenError, match="not the graph the sessions"):
        replay(datasets["movies"], "reference", graph=_graph("finance"))
