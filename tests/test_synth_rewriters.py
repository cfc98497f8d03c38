"""Question rewriters (gqlir.synth.rewriters): none with no model configured, and an
OpenAI-compatible endpoint (a fake server on 127.0.0.1) whose paraphrases of the offline
question are verified."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import pytest

import gqlir
from gqlir.synth import SynthError
from gqlir.synth.phrases import words
from gqlir.synth.questions import question
from gqlir.synth.rewriters import (
    LLMRewriter,
    RewriteRequest,
    configured_rewriters,
    faithful,
    literals,
)

QUERY = gqlir.parse(
    "MATCH (n:Person)-[:ACTED_IN]->(m:Movie) WHERE m.title = 'Heat' RETURN n.name AS name"
)


def _request() -> RewriteRequest:
    return RewriteRequest(QUERY, gqlir.emit(QUERY, "neo4j"), question(QUERY, "logical"), "movies")


def test_questions_use_words_not_schema_spellings() -> None:
    text = question(QUERY)
    assert text.startswith("Match a person with an 'acted in' relationship to a movie")
    assert "'Heat'" in text and "ACTED_IN" not in text and " n " not in text
    assert words("createTime") == "create time" and words("HAS_TAG") == "has tag"
    logical = question(QUERY, "logical")
    assert "acted in the movie 'Heat'" in logical and logical.endswith(("?", "."))


def test_no_rewriter_without_an_endpoint(monkeypatch) -> None:
    monkeypatch.delenv("GQLIR_LLM_URL", raising=False)
    monkeypatch.delenv("GQLIR_LLM_MODEL", raising=False)
    assert configured_rewriters() == []


def test_a_top_one_limit_is_not_a_literal_to_state() -> None:
    top = gqlir.parse("MATCH (n:Movie) RETURN n.title AS t ORDER BY n.budget DESC LIMIT 1")
    assert literals(top) == []
    assert literals(gqlir.parse("MATCH (n:Movie) RETURN n.title AS t LIMIT 5")) == ["5"]


class _Fake(BaseHTTPRequestHandler):
    answer = "Which actors appeared in 'Heat'?"
    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Fake.seen.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        data = json.dumps({"choices": [{"message": {"content": _Fake.answer}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server():
    httpd = HTTPServer(("127.0.0.1", 0), _Fake)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_llm_rewriter_over_http(server, monkeypatch) -> None:
    monkeypatch.setenv("GQLIR_LLM_URL", server)
    monkeypatch.setenv("GQLIR_LLM_MODEL", "fake-model")
    monkeypatch.setenv("GQLIR_LLM_KEY", "k")
    rewriters = configured_rewriters()
    llm = rewriters[-1]
    assert isinstance(llm, LLMRewriter)
    _Fake.answer = "Which actors appeared in 'Heat'?"
    assert llm.rewrite(_request()) == {"paraphrase": "Which actors appeared in 'Heat'?"}
    sent = _Fake.seen[-1]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer k"
    assert sent["model"] == "fake-model" and "Heat" in sent["messages"][0]["content"]
    _Fake.answer = "Which actors appeared in some film?"  # the value is lost: rejected
    assert llm.rewrite(_request()) == {} and llm.rejected == 1


def test_llm_endpoint_failure_is_a_synth_error() -> None:
    llm = LLMRewriter("http://127.0.0.1:9/v1", "m", timeout=2)
    with pytest.raises(SynthError, match="LLM endpoint"):
        llm.rewrite(_request())


def test_faithfulness_needs_every_literal() -> None:
    assert faithful("Who played in 'heat'?", QUERY)
    assert not faithful("Who played in it?", QUERY)
    assert not faithful("  ", QUERY)
